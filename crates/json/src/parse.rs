//! RFC 8259 text → `Value`: strict grammar, no trailing commas or comments,
//! surrogate pairs joined and lone surrogates refused, at most 127 levels.

use crate::value::{Map, Number, Value, N};
use std::fmt;

/// serde_json's limit: 127 levels parse, the 128th is refused.
const MAX_DEPTH: usize = 128;

/// Why a text is not JSON, and where (1-based line and column, in bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: &'static str,
    line: usize,
    column: usize,
}

impl Error {
    pub fn line(&self) -> usize {
        self.line
    }
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

/// Parses one JSON text (surrounding whitespace allowed).
pub fn from_str(text: &str) -> Result<Value, Error> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let parsed = p.value().and_then(|value| {
        p.space();
        if p.at < p.s.len() {
            return Err(UNEXPECTED);
        }
        Ok(value)
    });
    // The parser stops where it failed: the position is computed once, here.
    parsed.map_err(|message| p.error(message))
}

/// What went wrong; `from_str` adds where.
type Fail = &'static str;
const END: Fail = "unexpected end of text";
const UNEXPECTED: Fail = "unexpected character";
const NOT_VALUE: Fail = "expected a value";
const ESCAPE: Fail = "invalid string escape";

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: &'static str) -> Error {
        let before = &self.s[..self.at.min(self.s.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count();
        Error {
            message,
            line,
            column,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value, Fail> {
        if self.s[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(NOT_VALUE)
        }
    }

    fn value(&mut self) -> Result<Value, Fail> {
        self.space();
        match self.peek() {
            None => Err(END),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(open @ (b'[' | b'{')) => {
                self.depth += 1;
                if self.depth >= MAX_DEPTH {
                    return Err("nested too deeply");
                }
                self.at += 1;
                let value = if open == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                value
            }
            Some(_) => Err(NOT_VALUE),
        }
    }

    /// After `[`.
    fn array(&mut self) -> Result<Value, Fail> {
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(END),
                Some(_) => return Err(UNEXPECTED),
            }
        }
    }

    /// After `{`. Duplicate keys: the last one wins.
    fn object(&mut self) -> Result<Value, Fail> {
        let mut map = Map::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.space();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(END),
                Some(_) => return Err(UNEXPECTED),
            }
            let key = self.string()?;
            self.space();
            if self.peek() != Some(b':') {
                return Err(UNEXPECTED);
            }
            self.at += 1;
            let value = self.value()?;
            map.insert(key, value);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                None => return Err(END),
                Some(_) => return Err(UNEXPECTED),
            }
        }
    }

    /// At `"`. The input is a `&str`, so unescaped runs are valid UTF-8 already.
    fn string(&mut self) -> Result<String, Fail> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // Safe slicing: `"`, `\` and control bytes never occur inside a
            // multi-byte UTF-8 sequence, so start..at is on char boundaries.
            out.push_str(std::str::from_utf8(&self.s[start..self.at]).unwrap_or_default());
            match self.peek() {
                None => return Err(END),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err("control character in a string"),
            }
        }
    }

    /// After `\`.
    fn escape(&mut self, out: &mut String) -> Result<(), Fail> {
        let Some(b) = self.peek() else {
            return Err(END);
        };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&hi) {
                    if !self.s[self.at..].starts_with(b"\\u") {
                        return Err(ESCAPE);
                    }
                    self.at += 2;
                    let lo = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return Err(ESCAPE);
                    }
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                match char::from_u32(code) {
                    Some(c) => c,
                    None => return Err(ESCAPE),
                }
            }
            _ => return Err(ESCAPE),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, Fail> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                None => return Err(END),
                Some(_) => return Err(ESCAPE),
            };
            self.at += 1;
            code = code * 16 + u32::from(digit);
        }
        Ok(code)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, read as serde_json
    /// reads it (without its `float_roundtrip` feature): integers that fit
    /// stay exact; otherwise a u64 significand and a decimal exponent, scaled
    /// by powers of ten (exact for up to 15 or so digits and |exp| ≤ 22,
    /// else within a few ulps: see `scale`). Digits past the 19th only move the exponent.
    fn number(&mut self) -> Result<Number, Fail> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let mut n = Digits::default();
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(&mut n, false),
            _ => return Err(NOT_VALUE),
        }
        let mut integer = !n.full;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integer = false;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(NOT_VALUE);
            }
            self.digits(&mut n, true);
        }
        let Digits {
            significand,
            mut exponent,
            ..
        } = n;
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            integer = false;
            let negative_exp = self.peek() == Some(b'-');
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(NOT_VALUE);
            }
            let mut e: i64 = 0;
            while let Some(d @ b'0'..=b'9') = self.peek() {
                self.at += 1;
                e = (e * 10 + i64::from(d - b'0')).min(1 << 40);
            }
            exponent += if negative_exp { -e } else { e };
        }
        if integer {
            if !negative {
                return Ok(Number(N::PosInt(significand)));
            }
            // `-0` and integers below i64::MIN are floats, as in serde_json.
            let neg = (significand as i64).wrapping_neg();
            if neg < 0 {
                return Ok(Number(N::NegInt(neg)));
            }
        }
        let f = scale(significand as f64, exponent).ok_or("number out of range")?;
        Ok(Number(N::Float(if negative { -f } else { f })))
    }
}

/// A number's digits so far: a u64 significand and a decimal exponent.
#[derive(Default)]
struct Digits {
    significand: u64,
    exponent: i64,
    /// The significand cannot take another digit.
    full: bool,
}

impl Parser<'_> {
    /// A run of digits, of the integer part or (`fraction`) after the point:
    /// integer digits past a full significand raise the exponent, fraction
    /// digits that fit lower it, the others are dropped.
    fn digits(&mut self, n: &mut Digits, fraction: bool) {
        while let Some(d @ b'0'..=b'9') = self.peek() {
            self.at += 1;
            match push_digit(n.significand, d) {
                Some(s) if !n.full => {
                    n.significand = s;
                    n.exponent -= i64::from(fraction);
                }
                _ => {
                    n.full = true;
                    n.exponent += i64::from(!fraction);
                }
            }
        }
    }
}

/// `significand × 10 + digit` when it fits a u64. Compared, not
/// `checked_mul`: on wasm32 that is a 128-bit multiplication (`__multi3`).
fn push_digit(significand: u64, digit: u8) -> Option<u64> {
    const MAX_TENTH: u64 = u64::MAX / 10; // 1844674407370955161, remainder 5
    let d = u64::from(digit - b'0');
    (significand < MAX_TENTH || (significand == MAX_TENTH && d <= u64::MAX % 10))
        .then(|| significand * 10 + d)
}

/// `f × 10^exponent`. Up to 10^22 every power of ten is an exact double, so
/// one multiplication or division rounds once, exactly as serde_json (and so
/// everyday numbers — 15 significant digits, modest exponents — are exact).
/// Beyond, steps of 10^22 come first: within a few ulps of serde_json, which
/// keeps a 309-entry table of correctly rounded powers (2.5 KB of wasm data)
/// for that last bit of precision. None when the result is infinite.
fn scale(mut f: f64, mut exponent: i64) -> Option<f64> {
    if f == 0.0 {
        // `0e999999999` is zero (and the loops below would not end).
        return Some(f);
    }
    while exponent > 22 && f.is_finite() {
        f *= 1e22;
        exponent -= 22;
    }
    while exponent < -22 && f != 0.0 {
        f /= 1e22;
        exponent += 22;
    }
    let pow = POW10[exponent.unsigned_abs().min(22) as usize];
    if exponent >= 0 {
        f *= pow;
    } else {
        f /= pow;
    }
    f.is_finite().then_some(f)
}

#[rustfmt::skip]
static POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
