//! Bounds on every JSON text the page hands over (the request, the
//! registry, `session()`'s and `execute`'s results), checked in one
//! non-recursive pass *before* serde_json's recursive parser sees the text:
//! at most [`MAX_DEPTH`] nested arrays/objects, [`MAX_VALUES`] values and
//! [`MAX_CHARS`] characters of strings (keys included, counted in UTF-16
//! units as JavaScript's `length` counts them).
//!
//! The pass only counts; it does not validate. Text it lets through may
//! still be malformed, and serde_json then says so. What it guarantees is
//! that well-formed text within the bounds is all serde_json ever parses,
//! so a 10,000-deep value is refused here, not by a stack overflow.

use serde::de::DeserializeOwned;
use std::fmt;

/// Deepest nesting of arrays and objects.
pub const MAX_DEPTH: usize = 32;
/// Most values (scalars, arrays and objects; keys are not values).
pub const MAX_VALUES: usize = 10_000;
/// Most string characters, keys included, in UTF-16 units.
pub const MAX_CHARS: usize = 1 << 20;

/// Why a JSON text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than [`MAX_VALUES`] values.
    TooManyValues,
    /// More than [`MAX_CHARS`] string characters.
    TooLong,
    /// Within the bounds, but not JSON of the expected shape (serde_json's
    /// message).
    Malformed(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooDeep => write!(f, "it nests deeper than {MAX_DEPTH} levels"),
            Self::TooManyValues => write!(f, "it has more than {MAX_VALUES} values"),
            Self::TooLong => write!(f, "its strings are longer than {MAX_CHARS} characters"),
            Self::Malformed(why) => write!(f, "it is not JSON: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Checks `text` against the bounds, then parses it with serde_json.
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    check(text)?;
    serde_json::from_str(text).map_err(|e| DecodeError::Malformed(e.to_string()))
}

/// What the scanner is inside of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lexeme {
    /// Between tokens.
    Between,
    /// A string's characters.
    Text,
    /// Just after a backslash in a string.
    Escape,
    /// The four hex digits of a `\u` escape (how many are left).
    Hex(u8),
    /// A number or literal (`true`, `false`, `null`).
    Word,
}

/// The bounds pass alone: `Ok` when `text` stays within them.
pub fn check(text: &str) -> Result<(), DecodeError> {
    check_within(text, MAX_DEPTH, MAX_VALUES, MAX_CHARS)
}

/// [`check`] with other limits (`max_depth` below 64).
fn check_within(
    text: &str,
    max_depth: usize,
    max_values: usize,
    max_chars: usize,
) -> Result<(), DecodeError> {
    // One bit per open container (1: object).
    const _: () = assert!(MAX_DEPTH < 64);
    let max_depth = max_depth.min(63);
    let mut objects: u64 = 0;
    let mut depth = 0usize;
    // Inside an object, whether the next string is a key.
    let mut key_next = false;
    let mut values = 0usize;
    let mut chars = 0usize;
    let mut at = Lexeme::Between;
    let mut count_value = || {
        values += 1;
        if values > max_values {
            Err(DecodeError::TooManyValues)
        } else {
            Ok(())
        }
    };
    for &b in text.as_bytes() {
        match at {
            Lexeme::Text => match b {
                b'"' => at = Lexeme::Between,
                b'\\' => at = Lexeme::Escape,
                // A UTF-8 continuation byte adds nothing; a 4-byte
                // sequence is a surrogate pair in UTF-16.
                0x80..=0xBF => {}
                0xF0..=0xFF => chars += 2,
                _ => chars += 1,
            },
            Lexeme::Escape => {
                chars += 1;
                at = if b == b'u' {
                    Lexeme::Hex(4)
                } else {
                    Lexeme::Text
                };
            }
            Lexeme::Hex(left) => {
                at = if left > 1 {
                    Lexeme::Hex(left - 1)
                } else {
                    Lexeme::Text
                };
            }
            Lexeme::Between | Lexeme::Word => match b {
                b'"' => {
                    let is_key = key_next && objects >> depth & 1 == 1;
                    if !is_key {
                        count_value()?;
                    }
                    key_next = false;
                    at = Lexeme::Text;
                }
                b'{' | b'[' => {
                    count_value()?;
                    depth += 1;
                    if depth > max_depth {
                        return Err(DecodeError::TooDeep);
                    }
                    let object = b == b'{';
                    objects = objects & !(1 << depth) | u64::from(object) << depth;
                    key_next = object;
                    at = Lexeme::Between;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    key_next = false;
                    at = Lexeme::Between;
                }
                b',' => {
                    key_next = true;
                    at = Lexeme::Between;
                }
                b':' => {
                    key_next = false;
                    at = Lexeme::Between;
                }
                b' ' | b'\t' | b'\n' | b'\r' => at = Lexeme::Between,
                _ => {
                    if at == Lexeme::Between {
                        count_value()?;
                    }
                    at = Lexeme::Word;
                }
            },
        }
        if chars > max_chars {
            return Err(DecodeError::TooLong);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn nested(depth: usize) -> String {
        "[".repeat(depth) + &"]".repeat(depth)
    }

    #[test]
    fn depth_is_bounded_at_32() {
        assert_eq!(check(&nested(32)), Ok(()));
        assert_eq!(check(&nested(33)), Err(DecodeError::TooDeep));
        // 10,000 levels: refused by the pass, never handed to the parser.
        let deep = "{\"a\":".repeat(10_000) + "1" + &"}".repeat(10_000);
        assert_eq!(decode::<Value>(&deep), Err(DecodeError::TooDeep));
    }

    #[test]
    fn values_and_characters_are_counted_like_javascript() {
        let list = |n: usize| format!("[{}]", vec!["0"; n].join(","));
        assert_eq!(check(&list(MAX_VALUES - 1)), Ok(())); // plus the array
        assert_eq!(check(&list(MAX_VALUES)), Err(DecodeError::TooManyValues));
        // Keys are characters, not values.
        let keys: Vec<String> = (0..MAX_VALUES - 1).map(|i| format!("\"k{i}\":1")).collect();
        assert_eq!(check(&format!("{{{}}}", keys.join(","))), Ok(()));
        // 😀 is two UTF-16 units; an escape is one; "é" is one.
        let s = |n: usize, unit: &str| format!("\"{}\"", unit.repeat(n));
        assert_eq!(check(&s(MAX_CHARS, "é")), Ok(()));
        assert_eq!(check(&s(MAX_CHARS + 1, "é")), Err(DecodeError::TooLong));
        assert_eq!(check(&s(MAX_CHARS / 2, "😀")), Ok(()));
        assert_eq!(
            check(&s(MAX_CHARS / 2 + 1, "😀")),
            Err(DecodeError::TooLong)
        );
        assert_eq!(check(&s(MAX_CHARS, "\\u00e9")), Ok(()));
        assert_eq!(check(&s(MAX_CHARS, "\\n")), Ok(()));
        assert_eq!(check(&s(MAX_CHARS + 1, "\\n")), Err(DecodeError::TooLong));
    }

    #[test]
    fn malformed_text_within_bounds_is_the_parsers_to_refuse() {
        for bad in [
            "",
            "{",
            "]]]]",
            "[1,",
            "\"open",
            "{\"a\" 1}",
            "tru",
            "\\u12",
        ] {
            assert_eq!(check(bad), Ok(()), "{bad}");
            assert!(matches!(
                decode::<Value>(bad),
                Err(DecodeError::Malformed(_))
            ));
        }
        assert_eq!(
            DecodeError::TooDeep.to_string(),
            "it nests deeper than 32 levels"
        );
    }

    /// Property tests (proptest does not build for wasm32).
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::super::*;
        use serde_json::Value;

        /// Depth, values and UTF-16 characters of a value, counted on the tree.
        fn measure(v: &Value, depth: usize, out: &mut (usize, usize, usize)) {
            out.1 += 1;
            match v {
                Value::String(s) => out.2 += s.encode_utf16().count(),
                Value::Array(items) => {
                    out.0 = out.0.max(depth + 1);
                    for item in items {
                        measure(item, depth + 1, out);
                    }
                }
                Value::Object(map) => {
                    out.0 = out.0.max(depth + 1);
                    for (k, item) in map {
                        out.2 += k.encode_utf16().count();
                        measure(item, depth + 1, out);
                    }
                }
                _ => {}
            }
        }

        /// Strings of awkward characters: quotes, backslashes, controls,
        /// 2-, 3- and 4-byte UTF-8, and anything else.
        fn text() -> impl proptest::strategy::Strategy<Value = String> {
            use proptest::prelude::*;
            let awkward = prop::sample::select(
                &[
                    '"', '\\', '\u{0}', '\n', '\u{1f}', '\u{7f}', 'é', '周', '😀', ' ',
                ][..],
            );
            prop::collection::vec(prop_oneof![awkward, any::<char>()], 0..8)
                .prop_map(String::from_iter)
        }

        fn arb_json() -> impl proptest::strategy::Strategy<Value = Value> {
            use proptest::prelude::*;
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::from),
                any::<i64>().prop_map(Value::from),
                any::<f64>().prop_map(
                    |f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
                ),
                text().prop_map(Value::from),
            ];
            leaf.prop_recursive(6, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    prop::collection::vec((text(), inner), 0..6)
                        .prop_map(|kv| Value::Object(kv.into_iter().collect())),
                ]
            })
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig {
                cases: crate::tests_support::cases(),
                ..Default::default()
            })]

            /// The pass counts exactly what the tree holds, compact or pretty:
            /// each count passes at its value and fails one below.
            #[test]
            fn counts_match_the_tree(v in arb_json(), pretty in proptest::bool::ANY) {
                let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.unwrap();
                let mut m = (0, 0, 0);
                measure(&v, 0, &mut m);
                let (d, n, c) = m;
                proptest::prop_assert_eq!(check_within(&text, d, n, c), Ok(()));
                if d > 0 {
                    proptest::prop_assert_eq!(check_within(&text, d - 1, n, c), Err(DecodeError::TooDeep));
                }
                proptest::prop_assert_eq!(check_within(&text, d, n - 1, c), Err(DecodeError::TooManyValues));
                if c > 0 {
                    proptest::prop_assert_eq!(check_within(&text, d, n, c - 1), Err(DecodeError::TooLong));
                }
            }

            /// Any text at all: an answer, never a panic.
            #[test]
            fn arbitrary_text_never_panics(text in text(), bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
                let _ = decode::<Value>(&text);
                let _ = decode::<Value>(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}
