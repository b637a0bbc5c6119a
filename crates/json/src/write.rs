//! `Value` → compact JSON text, byte for byte as serde_json writes it.

use crate::value::{Map, Number, Value, N};
use std::fmt;

/// Types `to_string` writes.
pub trait WriteJson {
    fn write_json(&self, out: &mut String);
}

/// Compact JSON text. Never fails (the `Result` keeps serde_json's signature).
pub fn to_string<T: WriteJson + ?Sized>(value: &T) -> Result<String, fmt::Error> {
    let mut out = String::new();
    value.write_json(&mut out);
    Ok(out)
}

/// `s` as a JSON string literal, quotes included: how messages quote a
/// name or value (rather than `{:?}`, whose escaping machinery would add
/// ~2 KB to the module for the same readable result).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    s.write_json(&mut out);
    out
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out)
    }
}

impl WriteJson for Value {
    fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) => n.write_json(out),
            Value::String(s) => s.write_json(out),
            Value::Array(items) => items.write_json(out),
            Value::Object(map) => map.write_json(out),
        }
    }
}

impl WriteJson for Map<String, Value> {
    fn write_json(&self, out: &mut String) {
        out.push('{');
        for (i, (key, value)) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            key.write_json(out);
            out.push(':');
            value.write_json(out);
        }
        out.push('}');
    }
}

impl<T: WriteJson> WriteJson for [T] {
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item.write_json(out);
        }
        out.push(']');
    }
}

impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self[..].write_json(out)
    }
}

impl<T: WriteJson, const LEN: usize> WriteJson for [T; LEN] {
    fn write_json(&self, out: &mut String) {
        self[..].write_json(out)
    }
}

impl WriteJson for Number {
    fn write_json(&self, out: &mut String) {
        match self.0 {
            N::PosInt(v) => push_u64(out, v),
            N::NegInt(v) => {
                out.push('-');
                push_u64(out, v.unsigned_abs());
            }
            N::Float(f) => push_f64(out, f),
        }
    }
}

/// The shortest text that reads back as the same f64, as serde_json writes
/// it (zmij, the crate serde_json uses).
#[cfg(not(target_arch = "wasm32"))]
fn push_f64(out: &mut String, f: f64) {
    out.push_str(zmij::Buffer::new().format_finite(f))
}

/// In the browser: the engine's shortest round-trip text (ECMAScript
/// Number::toString), in serde_json's spelling where it is cheap to match
/// (`-0.0`, `2.0`, `1e21`). Where the two choose differently between plain
/// and exponent notation (e.g. 1e16), both read back as the same f64, which
/// is all a JSON reader sees.
#[cfg(target_arch = "wasm32")]
fn push_f64(out: &mut String, f: f64) {
    #[wasm_bindgen::prelude::wasm_bindgen(inline_js = "export function n(x) { return '' + x; }")]
    extern "C" {
        fn n(x: f64) -> String;
    }
    if f == 0.0 {
        out.push_str(if f.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    // ASCII digits, `-`, `.`, `e`, and `+` only after `e`.
    let mut integer = true;
    for b in n(f).bytes() {
        match b {
            b'+' => continue,
            b'.' | b'e' => integer = false,
            _ => {}
        }
        out.push(b as char);
    }
    if integer {
        out.push_str(".0");
    }
}

fn push_u64(out: &mut String, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

impl WriteJson for str {
    /// Escapes `"`, `\` and the control characters; everything else as is.
    fn write_json(&self, out: &mut String) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.reserve(self.len() + 2);
        out.push('"');
        let mut start = 0;
        for (i, b) in self.bytes().enumerate() {
            let escaped = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            out.push_str(&self[start..i]);
            if escaped.is_empty() {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            } else {
                out.push_str(escaped);
            }
            start = i + 1;
        }
        out.push_str(&self[start..]);
        out.push('"');
    }
}

impl WriteJson for String {
    fn write_json(&self, out: &mut String) {
        self[..].write_json(out)
    }
}

impl fmt::Display for Value {
    /// Compact JSON, as serde_json's `Display`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_json(&mut out);
        f.write_str(&out)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_json(&mut out);
        f.write_str(&out)
    }
}
