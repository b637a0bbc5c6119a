//! The envelope bounds, decided in Rust before any recursive decoder sees
//! the input: a non-recursive scan of the JSON text that checks its grammar,
//! its nesting depth, its number of values and its string characters.
//! `serde_json` parses a text only after it passed, so a 10,000-deep or
//! megabyte-sized downlink is a `BAD_REQUEST`, never a stack overflow.
//!
//! What counts:
//! - **depth**: arrays and objects nested in each other, the envelope
//!   itself included (`{"payload":{}}` is 2 deep);
//! - **values**: every JSON value, containers and scalars alike (object
//!   keys are not values);
//! - **characters**: the string contents of keys and values, in UTF-16 code
//!   units as JavaScript's `length` counts them (an escape such as `\n` or
//!   `\u00e9` is one unit, a character outside the BMP two).

use std::fmt;

/// Limits of one scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub depth: usize,
    pub values: usize,
    pub chars: usize,
}

/// A downlink's (and a bridge envelope's) limits, and those of every other
/// value the page hands in: install options, injected ports' answers,
/// `deriveEscapes`' snapshot, Surface's crossings (docs/protocol.md,
/// "Bounds").
pub const ENVELOPE: Limits = Limits {
    depth: 32,
    values: 10_000,
    chars: 1 << 20,
};

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} levels, {} values, {} string characters",
            self.depth, self.values, self.chars
        )
    }
}

/// The longest JSON text (in UTF-16 units) that `JSON.stringify` can write
/// for an envelope within [`ENVELOPE`]: every string character escaped as
/// `\u00XX` (6 units), plus at most 32 units of number, quotes and
/// punctuation per value, rounded up to 8 Mi. A longer text is refused
/// before it is copied into wasm memory.
pub const MAX_TEXT_UNITS: usize = 8 << 20;

/// The kind of a JSON value (for "got …" messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// "a string", "an object", … as messages say it.
    pub fn article(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// Why a text is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    /// Containers nest deeper than the limit.
    Depth(usize),
    /// More values than the limit.
    Values(usize),
    /// More string characters than the limit.
    Chars(usize),
    /// Not JSON: the byte offset where the grammar broke.
    NotJson(usize),
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exceeded::Depth(n) => write!(f, "it nests deeper than {n} levels"),
            Exceeded::Values(n) => write!(f, "it has more than {n} values"),
            Exceeded::Chars(n) => write!(f, "its strings are longer than {n} characters in all"),
            Exceeded::NotJson(at) => write!(f, "it is not JSON (at byte {at})"),
        }
    }
}

impl std::error::Error for Exceeded {}

impl Exceeded {
    /// The refusal in words: a bound exceeded is named with all the limits.
    pub fn worded(self, limits: &Limits) -> String {
        match self {
            Exceeded::NotJson(_) => self.to_string(),
            _ => format!("{self} (bounds: {limits})"),
        }
    }
}

/// Why [`admit`] refused a text: what [`check`] found against
/// [`ENVELOPE`]; in words, [`Exceeded::worded`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inadmissible(pub Exceeded);

impl fmt::Display for Inadmissible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.worded(&ENVELOPE))
    }
}

impl std::error::Error for Inadmissible {}

/// Why a JSON text of `units` UTF-16 units, longer than
/// [`MAX_TEXT_UNITS`], is refused before it is copied into wasm memory.
pub fn too_long(units: usize) -> String {
    format!(
        "it is {units} characters of JSON, more than the bounds allow ({} values, {} string characters)",
        ENVELOPE.values, ENVELOPE.chars
    )
}

/// [`check`] with [`ENVELOPE`]'s limits: how every JSON text the page
/// handed over is admitted before a decoder reads it.
pub fn admit(text: &str) -> Result<Scan, Inadmissible> {
    check(text, &ENVELOPE).map_err(Inadmissible)
}

/// What a scan that passed saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// The kind of the top-level value.
    pub top: Kind,
    pub depth: usize,
    pub values: usize,
    pub chars: usize,
}

/// One lexical token: its kind and where it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Open(u8),
    Close(u8),
    Colon,
    Comma,
    /// A string: its byte span (quotes included) and its length in UTF-16 units.
    Str {
        start: usize,
        end: usize,
        units: usize,
    },
    Scalar(Kind),
}

/// A JSON tokenizer over bytes, iterative and allocation-free.
struct Lexer<'t> {
    b: &'t [u8],
    pos: usize,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str) -> Self {
        Self {
            b: text.as_bytes(),
            pos: 0,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next token, `Ok(None)` at the end, `Err(offset)` when the text
    /// is not JSON there.
    fn next(&mut self) -> Result<Option<Tok>, usize> {
        self.skip_ws();
        let Some(&c) = self.b.get(self.pos) else {
            return Ok(None);
        };
        let at = self.pos;
        let tok = match c {
            b'{' | b'[' => {
                self.pos += 1;
                Tok::Open(c)
            }
            b'}' | b']' => {
                self.pos += 1;
                Tok::Close(c)
            }
            b':' => {
                self.pos += 1;
                Tok::Colon
            }
            b',' => {
                self.pos += 1;
                Tok::Comma
            }
            b'"' => self.string()?,
            b't' => self.word(b"true", Kind::Bool)?,
            b'f' => self.word(b"false", Kind::Bool)?,
            b'n' => self.word(b"null", Kind::Null)?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return Err(at),
        };
        Ok(Some(tok))
    }

    fn word(&mut self, w: &[u8], kind: Kind) -> Result<Tok, usize> {
        if self.b.get(self.pos..self.pos + w.len()) == Some(w) {
            self.pos += w.len();
            Ok(Tok::Scalar(kind))
        } else {
            Err(self.pos)
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.b.get(self.pos) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<Tok, usize> {
        if self.b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.b.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.pos),
        }
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.pos);
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.b.get(self.pos) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.pos);
            }
        }
        Ok(Tok::Scalar(Kind::Number))
    }

    /// A string literal, counting its characters in UTF-16 units.
    fn string(&mut self) -> Result<Tok, usize> {
        let start = self.pos;
        self.pos += 1;
        let mut units = 0usize;
        loop {
            let Some(&c) = self.b.get(self.pos) else {
                return Err(self.pos);
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(Tok::Str {
                        start,
                        end: self.pos,
                        units,
                    });
                }
                b'\\' => {
                    match self.b.get(self.pos + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 2;
                        }
                        Some(b'u') => {
                            let hex = self.b.get(self.pos + 2..self.pos + 6);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.pos);
                            }
                            self.pos += 6;
                        }
                        _ => return Err(self.pos),
                    }
                    units += 1;
                }
                // Control characters must be escaped.
                0x00..=0x1f => return Err(self.pos),
                0x20..=0x7f => {
                    self.pos += 1;
                    units += 1;
                }
                // UTF-8 lead bytes (the text is a &str): 2 and 3 bytes are one
                // UTF-16 unit, 4 bytes (outside the BMP) two.
                0xc0..=0xdf => {
                    self.pos += 2;
                    units += 1;
                }
                0xe0..=0xef => {
                    self.pos += 3;
                    units += 1;
                }
                0xf0..=0xff => {
                    self.pos += 4;
                    units += 2;
                }
                // A continuation byte is never where a character starts.
                0x80..=0xbf => return Err(self.pos),
            }
        }
    }
}

/// Where the grammar is inside the innermost container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value (top level, after `[`, after `,` in an array, after `:`).
    Value,
    /// A value or `]` (right after `[`).
    ValueOrClose,
    /// A key or `}` (right after `{`).
    KeyOrClose,
    /// A key (after `,` in an object).
    Key,
    Colon,
    /// `,` or the container's close (after a value), or the end at top level.
    CommaOrClose,
}

/// Checks `text` against `limits` in one pass, without recursion: the only
/// memory is a stack of open containers, never deeper than `limits.depth`.
pub fn check(text: &str, limits: &Limits) -> Result<Scan, Exceeded> {
    let mut lex = Lexer::new(text);
    // `true` for an object, `false` for an array.
    let mut stack: Vec<bool> = Vec::new();
    let mut expect = Expect::Value;
    let mut top = None;
    let mut scan = Scan {
        top: Kind::Null,
        depth: 0,
        values: 0,
        chars: 0,
    };
    loop {
        let at = lex.pos;
        let Some(tok) = lex.next().map_err(Exceeded::NotJson)? else {
            break;
        };
        let in_object = stack.last().copied();
        // A value starts here: count it, and note the top-level kind.
        let mut value = |kind: Kind, scan: &mut Scan| -> Result<(), Exceeded> {
            scan.values += 1;
            if scan.values > limits.values {
                return Err(Exceeded::Values(limits.values));
            }
            top.get_or_insert(kind);
            Ok(())
        };
        expect = match (expect, tok) {
            (Expect::Value | Expect::ValueOrClose, Tok::Open(c)) => {
                let object = c == b'{';
                value(if object { Kind::Object } else { Kind::Array }, &mut scan)?;
                stack.push(object);
                if stack.len() > limits.depth {
                    return Err(Exceeded::Depth(limits.depth));
                }
                scan.depth = scan.depth.max(stack.len());
                if object {
                    Expect::KeyOrClose
                } else {
                    Expect::ValueOrClose
                }
            }
            (Expect::Value | Expect::ValueOrClose, Tok::Str { units, .. }) => {
                value(Kind::String, &mut scan)?;
                scan.chars += units;
                if scan.chars > limits.chars {
                    return Err(Exceeded::Chars(limits.chars));
                }
                Expect::CommaOrClose
            }
            (Expect::Value | Expect::ValueOrClose, Tok::Scalar(kind)) => {
                value(kind, &mut scan)?;
                Expect::CommaOrClose
            }
            (Expect::KeyOrClose | Expect::Key, Tok::Str { units, .. }) => {
                scan.chars += units;
                if scan.chars > limits.chars {
                    return Err(Exceeded::Chars(limits.chars));
                }
                Expect::Colon
            }
            (Expect::Colon, Tok::Colon) => Expect::Value,
            (Expect::CommaOrClose, Tok::Comma) if in_object.is_some() => {
                if in_object == Some(true) {
                    Expect::Key
                } else {
                    Expect::Value
                }
            }
            (Expect::CommaOrClose, Tok::Close(c))
            | (Expect::ValueOrClose, Tok::Close(c @ b']'))
            | (Expect::KeyOrClose, Tok::Close(c @ b'}')) => {
                let object = c == b'}';
                if in_object != Some(object) {
                    return Err(Exceeded::NotJson(at));
                }
                stack.pop();
                Expect::CommaOrClose
            }
            _ => return Err(Exceeded::NotJson(at)),
        };
        if stack.is_empty() && expect == Expect::CommaOrClose {
            // The top-level value is complete: only whitespace may follow.
            lex.skip_ws();
            if lex.pos != text.len() {
                return Err(Exceeded::NotJson(lex.pos));
            }
            break;
        }
    }
    match top {
        Some(kind) if stack.is_empty() && expect == Expect::CommaOrClose => {
            scan.top = kind;
            Ok(scan)
        }
        _ => Err(Exceeded::NotJson(text.len())),
    }
}

/// The string a JSON string literal (quotes included) stands for; `None`
/// when it is no valid one (a lone surrogate, say). Read as a
/// `serde_json::Value`, the reader every text in the module goes through,
/// rather than through a second, `String`-only instantiation of it.
pub fn string_literal(raw: &str) -> Option<String> {
    match serde_json::from_str(raw) {
        Ok(serde_json::Value::String(s)) => Some(s),
        _ => None,
    }
}

/// The raw JSON text of the string member `key` of the top-level object
/// (quotes included), whatever the rest of the text holds: how a refusal
/// still finds the requestId to echo. `None` when there is no such string
/// member before the text stops being JSON. Iterative, like [`check`].
pub fn top_level_string<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let mut lex = Lexer::new(text);
    let mut depth = 0usize;
    // At depth 1: whether the next string is a key, and whether the key just
    // read is `key` (then the value that follows its colon is the answer).
    let mut want_key = false;
    let mut matched = false;
    let mut after_colon = false;
    while let Ok(Some(tok)) = lex.next() {
        match tok {
            Tok::Open(c) => {
                if depth == 0 && c != b'{' {
                    return None;
                }
                depth += 1;
                want_key = depth == 1;
                after_colon = false;
            }
            Tok::Close(_) => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return None;
                }
            }
            Tok::Str { start, end, .. } if depth == 1 => {
                let raw = text.get(start..end)?;
                if after_colon && matched {
                    return Some(raw);
                }
                if want_key {
                    matched = string_literal(raw).is_some_and(|k| k == key);
                    want_key = false;
                }
                after_colon = false;
            }
            Tok::Colon if depth == 1 => after_colon = true,
            Tok::Comma if depth == 1 => {
                want_key = true;
                after_colon = false;
                matched = false;
            }
            _ => {
                if depth == 1 {
                    after_colon = false;
                }
            }
        }
    }
    None
}

/// Why a decoder refused a text that passed [`check`] (JSON.stringify's
/// output, say), for a refusal: a lone surrogate named as written
/// (serde_json's own words for it, "unexpected end of hex escape", do not
/// say what is wrong), else the decoder's message.
pub fn unreadable(text: &str, error: &impl std::fmt::Display) -> String {
    match lone_surrogate(text) {
        Some(escape) => {
            format!("a string holds a lone surrogate ({escape}), which is not Unicode text")
        }
        None => error.to_string(),
    }
}

/// The first lone surrogate escape in a JSON text (`\ud800` not followed
/// by a low one, or a low one with no high one before it), as written.
/// JSON's grammar allows one and `JSON.stringify` writes one for a broken
/// string, but it is no Unicode text, so serde_json cannot read it: this
/// names the reason in the refusal. Only meaningful for a text that passed
/// [`check`] (outside strings a valid text has no backslash).
pub fn lone_surrogate(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    // The code unit of the `\uXXXX` escape at `at`, if there is one.
    let unit = |at: usize| -> Option<u16> {
        let esc = bytes.get(at..at + 6)?;
        if esc[0] != b'\\' || esc[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&esc[2..]).ok()?, 16).ok()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xD800..=0xDBFF) => match unit(i + 6) {
                Some(0xDC00..=0xDFFF) => i += 12,
                _ => return text.get(i..i + 6),
            },
            Some(0xDC00..=0xDFFF) => return text.get(i..i + 6),
            // Any other escape is two characters, `\\` included, or six.
            Some(_) => i += 6,
            None => i += 2,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_are_found_as_written() {
        assert_eq!(lone_surrogate(r#"{"s":"\ud800"}"#), Some(r"\ud800"));
        assert_eq!(lone_surrogate(r#"{"s":"a\uDC00b"}"#), Some(r"\uDC00"));
        assert_eq!(lone_surrogate(r#"["\ud800\u0041"]"#), Some(r"\ud800"));
        assert_eq!(lone_surrogate(r#"["\ud83d\ude00", "\u00e9\n"]"#), None);
        // An escaped backslash followed by "ud800" is six plain characters.
        assert_eq!(lone_surrogate(r#"["\\ud800"]"#), None);
        assert_eq!(lone_surrogate(r#"["\\\ud800"]"#), Some(r"\ud800"));
        // A pair, then a lone high one at the very end of a string.
        assert_eq!(lone_surrogate(r#"["\ud83d\ude00\ud83d"]"#), Some(r"\ud83d"));
        assert_eq!(lone_surrogate("[1, true, null]"), None);
    }

    fn ok(text: &str) -> Scan {
        check(text, &ENVELOPE).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn valid_json_passes_with_its_counts() {
        let s = ok(r#" {"a": [1, -2.5e3, true, null, "x\u00e9\n"], "b": {}} "#);
        assert_eq!(s.top, Kind::Object);
        assert_eq!(s.depth, 2);
        // object, array, 5 scalars, inner object
        assert_eq!(s.values, 8);
        // keys "a", "b" (2) + "xé\n" (3)
        assert_eq!(s.chars, 5);
        for (text, kind) in [
            ("null", Kind::Null),
            ("0", Kind::Number),
            ("\"\"", Kind::String),
            ("[]", Kind::Array),
            ("false", Kind::Bool),
        ] {
            assert_eq!(ok(text).top, kind, "{text}");
        }
        // UTF-16 units: é is 1, 😀 is 2 (raw or as a surrogate pair).
        assert_eq!(ok("\"é😀\"").chars, 3);
        assert_eq!(ok(r#""\ud83d\ude00""#).chars, 2);
    }

    #[test]
    fn what_is_not_json_is_refused_with_its_offset() {
        for text in [
            "",
            " ",
            "{",
            "}",
            "[1,]",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "{1:2}",
            "[1 2]",
            "01",
            "1.",
            "1e",
            "-",
            "+1",
            "tru",
            "nul",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\t\"",
            "[}",
            "{]",
            "1 2",
            "[] []",
            "NaN",
            "{\"a\":1}}",
        ] {
            assert!(
                matches!(check(text, &ENVELOPE), Err(Exceeded::NotJson(_))),
                "{text:?}"
            );
            // serde_json agrees.
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_err(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn depth_values_and_characters_are_bounded() {
        let nest = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert_eq!(ok(&nest(32)).depth, 32);
        assert_eq!(check(&nest(33), &ENVELOPE), Err(Exceeded::Depth(32)));
        // Far deeper than any recursive decoder could go: refused, no overflow.
        assert_eq!(check(&nest(1_000_000), &ENVELOPE), Err(Exceeded::Depth(32)));
        let list = |n: usize| format!("[{}]", vec!["0"; n].join(","));
        assert_eq!(ok(&list(9_999)).values, 10_000);
        assert_eq!(
            check(&list(10_000), &ENVELOPE),
            Err(Exceeded::Values(10_000))
        );
        let chars = |n: usize| format!("{{\"k\":\"{}\"}}", "y".repeat(n));
        assert_eq!(ok(&chars((1 << 20) - 1)).chars, 1 << 20);
        assert_eq!(
            check(&chars(1 << 20), &ENVELOPE),
            Err(Exceeded::Chars(1 << 20))
        );
        // Keys count as characters too.
        let key = format!("{{\"{}\":1}}", "k".repeat((1 << 20) + 1));
        assert_eq!(check(&key, &ENVELOPE), Err(Exceeded::Chars(1 << 20)));
        // Escapes are one unit each, as in JS.
        let escaped = format!("\"{}\"", "\\n".repeat(1 << 20));
        assert_eq!(ok(&escaped).chars, 1 << 20);
    }

    #[test]
    fn the_request_id_is_found_whatever_follows() {
        let deep = "[".repeat(100_000);
        let text = format!(
            r#"{{"payload":{{"requestId":"no"}},"cmd":[1,{{"requestId":"x"}}],"requestId":"r\"1","x":{deep}"#
        );
        assert_eq!(top_level_string(&text, "requestId"), Some(r#""r\"1""#));
        assert_eq!(
            top_level_string(r#"{"requestId":5,"a":"requestId"}"#, "requestId"),
            None
        );
        assert_eq!(
            top_level_string(r#"{"a":"requestId","b":"c"}"#, "requestId"),
            None
        );
        assert_eq!(top_level_string(r#"["requestId","x"]"#, "requestId"), None);
        assert_eq!(
            top_level_string(r#"{"requ\u0065stId":"y"}"#, "requestId"),
            Some("\"y\"")
        );
        assert_eq!(top_level_string(r#"{"requestId" "y"}"#, "requestId"), None);
        assert_eq!(top_level_string("", "requestId"), None);
    }
}
