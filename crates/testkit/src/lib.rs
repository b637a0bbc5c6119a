//! What the workspace's property tests share: how many cases a property
//! runs (`PROPTEST_CASES`, which `npm run fuzz` sets to 1,000,000), strings
//! of awkward characters, and arbitrary JSON built from a leaf strategy, a
//! key strategy and a [`Shape`]. Each crate keeps its own leaves, keys and
//! shapes (what its decoders read); the building is written once here.
//!
//! A dev-dependency only, and native only: proptest does not build for
//! wasm32-unknown-unknown, so on wasm32 this crate compiles empty.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::Value;

/// `PROPTEST_CASES`, when it is set to a number.
pub fn env_cases() -> Option<u32> {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// Cases per property: `PROPTEST_CASES`, else 10,000.
pub fn cases() -> u32 {
    env_cases().unwrap_or(10_000)
}

/// Cases for a property that runs a whole sequence per case: `default`, or
/// a `divisor`th of `PROPTEST_CASES` (at least one) when it is set.
pub fn share_of_cases(divisor: u32, default: u32) -> u32 {
    env_cases().map_or(default, |n| (n / divisor.max(1)).max(1))
}

/// Characters that trip JSON writers and readers: the two escapes, `/`,
/// NUL, the last control, DEL, a 2-byte one, U+2028 (a line separator
/// JavaScript once refused in strings), a non-BMP one, and a space.
pub const AWKWARD: &[char] = &[
    '"', '\\', '/', '\u{0}', '\u{1f}', '\u{7f}', 'é', '\u{2028}', '😀', ' ',
];

/// Strings of fewer than `max` characters: mostly `a` to `e` (so that keys
/// and values collide), else one of [`AWKWARD`] or any character at all.
/// Built from chars: cheaper than a regex strategy.
pub fn chars(max: usize) -> impl Strategy<Value = String> + Clone {
    let c = prop_oneof![
        4 => proptest::char::range('a', 'e'),
        1 => proptest::sample::select(AWKWARD),
        1 => any::<char>(),
    ];
    proptest::collection::vec(c, 0..max).prop_map(String::from_iter)
}

/// Finite `f64`s of every class (normal, subnormal, zero; both signs): JSON
/// has no others. Generated finite, not filtered, so that a million cases
/// reject nothing.
pub fn finite() -> impl Strategy<Value = f64> + Clone {
    use proptest::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO
}

/// A JSON leaf, each kind as likely: null, a boolean, an `i64`, a finite
/// `f64`, or a string from `text`.
pub fn scalar(text: impl Strategy<Value = String> + 'static) -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        finite().prop_map(Value::from),
        text.prop_map(Value::String),
    ]
    .boxed()
}

/// How far [`tree`] grows: at most `depth` levels of arrays and objects,
/// about `size` values in all, fewer than `width` items or keys in each
/// array or object.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub depth: u32,
    pub size: u32,
    pub width: usize,
}

/// Arbitrary JSON: a `leaf`, or arrays and objects of such values nested
/// as `shape` allows, the objects' keys drawn from `key` (a key drawn twice
/// keeps its last value).
pub fn tree<L, K>(leaf: L, key: K, shape: Shape) -> impl Strategy<Value = Value>
where
    L: Strategy<Value = Value> + 'static,
    K: Strategy<Value = String> + Clone + 'static,
{
    let width = shape.width;
    let branch = u32::try_from(width).unwrap_or(u32::MAX);
    leaf.prop_recursive(shape.depth, shape.size, branch, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..width).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..width)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// What a JSON bounds check counts in `v`, by recursion over the tree: the
/// levels of arrays and objects, the values (containers included), and the
/// UTF-16 units of its strings and keys. The reference the scanners'
/// counts are checked against.
pub fn measure(v: &Value) -> (usize, usize, usize) {
    fn walk(v: &Value, depth: usize, acc: &mut (usize, usize, usize)) {
        acc.1 += 1;
        match v {
            Value::String(s) => acc.2 += s.encode_utf16().count(),
            Value::Array(items) => {
                acc.0 = acc.0.max(depth + 1);
                for i in items {
                    walk(i, depth + 1, acc);
                }
            }
            Value::Object(m) => {
                acc.0 = acc.0.max(depth + 1);
                for (k, i) in m {
                    acc.2 += k.encode_utf16().count();
                    walk(i, depth + 1, acc);
                }
            }
            _ => {}
        }
    }
    let mut acc = (0, 0, 0);
    walk(v, 0, &mut acc);
    acc
}

#[cfg(test)]
mod tests;
