//! The strategies keep to what they promise, over a few thousand values.

use super::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// Draws `n` values of `s` from a deterministic runner.
fn draw<S: Strategy>(s: S, n: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| match s.new_tree(&mut runner) {
            Ok(t) => t.current(),
            Err(e) => panic!("cannot draw: {e}"),
        })
        .collect()
}

/// Levels of arrays and objects, and the widest of them.
fn levels_and_width(v: &Value) -> (u32, usize) {
    match v {
        Value::Array(items) => items
            .iter()
            .map(levels_and_width)
            .fold((1, items.len()), |(d, w), (cd, cw)| {
                (d.max(cd + 1), w.max(cw))
            }),
        Value::Object(m) => m
            .values()
            .map(levels_and_width)
            .fold((1, m.len()), |(d, w), (cd, cw)| (d.max(cd + 1), w.max(cw))),
        _ => (0, 0),
    }
}

#[test]
fn chars_are_shorter_than_max_and_reach_the_awkward_ones() {
    let all = draw(chars(5), 4000);
    assert!(all.iter().all(|s| s.chars().count() < 5));
    assert!(all.iter().any(String::is_empty));
    for c in AWKWARD {
        assert!(all.iter().any(|s| s.contains(*c)), "{c:?} never drawn");
    }
    assert!(all.iter().any(|s| s
        .chars()
        .any(|c| !AWKWARD.contains(&c) && !('a'..='e').contains(&c))));
}

#[test]
fn finite_numbers_only_of_every_class() {
    let all = draw(finite(), 4000);
    assert!(all.iter().all(|f| f.is_finite()));
    assert!(all.contains(&0.0));
    assert!(all.iter().any(|f| f.is_subnormal()));
    assert!(all.iter().any(|f| f.is_normal() && *f < 0.0));
    assert!(all.iter().any(|f| f.is_normal() && *f > 0.0));
}

#[test]
fn scalars_are_every_kind_of_leaf() {
    let all = draw(scalar(chars(3)), 2000);
    assert!(all.iter().any(Value::is_null));
    assert!(all.iter().any(Value::is_boolean));
    assert!(all.iter().any(Value::is_i64));
    assert!(all.iter().any(Value::is_f64));
    assert!(all.iter().any(Value::is_string));
    assert!(all.iter().all(|v| !v.is_array() && !v.is_object()));
}

#[test]
fn trees_keep_to_their_shape() {
    let shape = Shape {
        depth: 3,
        size: 24,
        width: 4,
    };
    let all = draw(tree(scalar(chars(3)), chars(3), shape), 3000);
    let measured: Vec<_> = all.iter().map(levels_and_width).collect();
    assert!(
        measured.iter().all(|&(d, w)| d <= 3 && w < 4),
        "{measured:?}"
    );
    assert!(measured.iter().any(|&(d, _)| d == 3), "never 3 levels deep");
    assert!(all
        .iter()
        .any(|v| v.as_object().is_some_and(|o| o.len() > 1)));
    assert!(all
        .iter()
        .any(|v| v.as_array().is_some_and(|a| a.len() > 1)));
    assert!(all.iter().any(|v| !v.is_array() && !v.is_object()));
}

#[test]
fn object_keys_come_from_the_key_strategy() {
    let shape = Shape {
        depth: 2,
        size: 16,
        width: 5,
    };
    let all = draw(tree(Just(Value::Null), Just("k".to_string()), shape), 2000);
    fn keys_ok(v: &Value) -> bool {
        match v {
            Value::Array(items) => items.iter().all(keys_ok),
            Value::Object(m) => m.len() <= 1 && m.iter().all(|(k, v)| k == "k" && keys_ok(v)),
            _ => true,
        }
    }
    assert!(all.iter().all(keys_ok));
    assert!(all.iter().any(|v| v.get("k").is_some()));
}

#[test]
fn measure_counts_levels_values_and_utf16_units() {
    use serde_json::json;
    assert_eq!(measure(&json!(1)), (0, 1, 0));
    assert_eq!(measure(&json!("😀é")), (0, 1, 3));
    assert_eq!(measure(&json!([])), (1, 1, 0));
    assert_eq!(
        measure(&json!({ "ab": [null, [true]], "c": "d" })),
        (3, 6, 4)
    );
}
