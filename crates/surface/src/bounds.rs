//! Bounds on every JSON text the page hands over (the request, the
//! registry, `session()`'s and `execute`'s results), checked *before*
//! serde_json's recursive parser sees the text, by the one non-recursive
//! scanner the module has: [`playable::bounds::check`] with
//! [`playable::bounds::ENVELOPE`]'s limits — at most [`MAX_DEPTH`] nested
//! arrays/objects, [`MAX_VALUES`] values and [`MAX_CHARS`] characters of
//! strings (keys included, counted in UTF-16 units as JavaScript's `length`
//! counts them).
//!
//! The scan also checks the grammar, in text order: whichever comes first,
//! a bound exceeded or a character that is not JSON, is the refusal. So
//! well-formed text within the bounds is all serde_json ever parses, and a
//! 10,000-deep value is refused here, not by a stack overflow.

use playable::bounds::{self as scan, Exceeded, Limits, ENVELOPE};
use serde::de::{DeserializeOwned, IgnoredAny};
use std::fmt;

/// Deepest nesting of arrays and objects.
pub const MAX_DEPTH: usize = ENVELOPE.depth;
/// Most values (scalars, arrays and objects; keys are not values).
pub const MAX_VALUES: usize = ENVELOPE.values;
/// Most string characters, keys included, in UTF-16 units.
pub const MAX_CHARS: usize = ENVELOPE.chars;

/// Why a JSON text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than [`MAX_VALUES`] values.
    TooManyValues,
    /// More than [`MAX_CHARS`] string characters.
    TooLong,
    /// Within the bounds, but not JSON, or not JSON of the expected shape
    /// (serde_json's message).
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
    serde_json::from_str(text).map_err(|e| DecodeError::Malformed(scan::unreadable(text, &e)))
}

/// The bounds pass alone: `Ok` when `text` is JSON within them.
pub fn check(text: &str) -> Result<(), DecodeError> {
    check_within(text, &ENVELOPE)
}

/// [`check`] with other limits.
fn check_within(text: &str, limits: &Limits) -> Result<(), DecodeError> {
    match scan::check(text, limits) {
        Ok(_) => Ok(()),
        Err(Exceeded::Depth(_)) => Err(DecodeError::TooDeep),
        Err(Exceeded::Values(_)) => Err(DecodeError::TooManyValues),
        Err(Exceeded::Chars(_)) => Err(DecodeError::TooLong),
        // serde_json says why, as it always has: the scan stopped before
        // any bound was passed, so serde_json meets the same fault within
        // them (and its own recursion limit guards it regardless).
        Err(Exceeded::NotJson(at)) => Err(DecodeError::Malformed(
            match serde_json::from_str::<IgnoredAny>(text) {
                Err(e) => e.to_string(),
                Ok(_) => format!("at byte {at}"),
            },
        )),
    }
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
    fn malformed_text_is_refused_with_serde_jsons_message() {
        for bad in [
            "",
            "{",
            "]]]]",
            "[1,",
            "\"open",
            "{\"a\" 1}",
            "tru",
            "\\u12",
            "[1] 2",
        ] {
            let Err(serde) = serde_json::from_str::<Value>(bad) else {
                panic!("{bad:?} parsed");
            };
            let why = DecodeError::Malformed(serde.to_string());
            assert_eq!(check(bad), Err(why.clone()), "{bad:?}");
            assert_eq!(decode::<Value>(bad), Err(why.clone()), "{bad:?}");
            assert_eq!(why.to_string(), format!("it is not JSON: {serde}"));
        }
        // JSON of the wrong shape is serde_json's to refuse, after the pass.
        assert_eq!(check("[true]"), Ok(()));
        assert!(matches!(
            decode::<String>("[true]"),
            Err(DecodeError::Malformed(m)) if m.contains("expected a string")
        ));
        // Whichever comes first in the text: a fault or a bound.
        let deep = nested(40);
        assert_eq!(
            check(&format!("[x{deep}]")),
            Err(DecodeError::Malformed(
                "expected value at line 1 column 2".into()
            ))
        );
        assert_eq!(check(&format!("[{deep}x]")), Err(DecodeError::TooDeep));
        assert_eq!(
            decode::<serde_json::Value>(r#"{"q":"a\udc00"}"#),
            Err(DecodeError::Malformed(
                r"a string holds a lone surrogate (\udc00), which is not Unicode text".into()
            ))
        );
        assert_eq!(
            DecodeError::TooDeep.to_string(),
            "it nests deeper than 32 levels"
        );
        assert_eq!(
            DecodeError::TooManyValues.to_string(),
            "it has more than 10000 values"
        );
        assert_eq!(
            DecodeError::TooLong.to_string(),
            "its strings are longer than 1048576 characters"
        );
    }

    /// Property tests (proptest does not build for wasm32).
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::super::*;
        use serde_json::Value;

        fn limits(depth: usize, values: usize, chars: usize) -> Limits {
            Limits {
                depth,
                values,
                chars,
            }
        }

        /// Arbitrary JSON: testkit's leaves and trees, up to 6 levels.
        fn arb_json() -> impl proptest::strategy::Strategy<Value = Value> {
            let shape = testkit::Shape {
                depth: 6,
                size: 48,
                width: 6,
            };
            testkit::tree(testkit::scalar(testkit::chars(8)), testkit::chars(8), shape)
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig {
                cases: testkit::cases(),
                ..Default::default()
            })]

            /// The pass counts exactly what the tree holds, compact or pretty:
            /// each count passes at its value and fails one below.
            #[test]
            fn counts_match_the_tree(v in arb_json(), pretty in proptest::bool::ANY) {
                let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.expect("serializes");
                let (d, n, c) = testkit::measure(&v);
                proptest::prop_assert_eq!(check_within(&text, &limits(d, n, c)), Ok(()));
                if d > 0 {
                    proptest::prop_assert_eq!(check_within(&text, &limits(d - 1, n, c)), Err(DecodeError::TooDeep));
                }
                proptest::prop_assert_eq!(check_within(&text, &limits(d, n - 1, c)), Err(DecodeError::TooManyValues));
                if c > 0 {
                    proptest::prop_assert_eq!(check_within(&text, &limits(d, n, c - 1)), Err(DecodeError::TooLong));
                }
            }

            /// Any text at all: an answer, never a panic.
            #[test]
            fn arbitrary_text_never_panics(text in testkit::chars(8), bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
                let _ = decode::<Value>(&text);
                let _ = decode::<Value>(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}
