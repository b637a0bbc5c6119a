//! Differential tests: serde_json (the reference, a dev-dependency only)
//! and this crate must agree on what parses, on the value (floats with
//! exponents beyond ±22 within a few ulps), and on the text written back,
//! byte for byte.

#![cfg(not(target_arch = "wasm32"))]

use crate::{from_str, json, to_string, Map, Number, Value};
use proptest::prelude::*;

/// The reference's reading of `text`, converted to our `Value` (None: refused).
fn reference(text: &str) -> Option<Value> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .map(|v| convert(&v))
}

fn convert(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Number(if let Some(u) = n.as_u64() {
            u.into()
        } else if let Some(i) = n.as_i64() {
            i.into()
        } else {
            Number::from_f64(n.as_f64().unwrap_or(0.0)).unwrap_or(Number::from(0u8))
        }),
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::Array(a.iter().map(convert).collect()),
        serde_json::Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), convert(v))).collect())
        }
    }
}

fn agrees(text: &str) {
    let ours = from_str(text).ok();
    assert_eq!(ours, reference(text), "reading {text:?}");
    if let Some(v) = ours {
        let reference_text =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(text).unwrap())
                .unwrap();
        assert_eq!(to_string(&v).unwrap(), reference_text, "writing {text:?}");
    }
}

#[test]
fn accepts_and_refuses_what_serde_json_does() {
    for text in [
        "null",
        "true",
        "false",
        " 0 ",
        "-0",
        "1",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1.5",
        "-1.5e3",
        "1E400",
        "1e-400",
        "0.1",
        "1.0",
        "1e21",
        "123456789012345678901234567890",
        "2.5e-7",
        "0e999999999999",
        "-0.0e-999999999999",
        "1e22",
        "9007199254740993e-22",
        "\"\"",
        "\"a\\\"b\\\\c\\/d\"",
        "\"\\b\\f\\n\\r\\t\"",
        "\"\\u0000\\u001f\\u007f\"",
        "\"\\ud83d\\ude00\"",
        "\"\\uD83D\\uDE00x\"",
        "\"é ✓ 😀\"",
        "[]",
        "[1,2,[3,[4]]]",
        "{}",
        "{\"a\":1,\"b\":[true,null]}",
        "{\"b\":1,\"a\":2}",
        "{\"a\":1,\"a\":2}",
        " [ 1 , { \"k\" : \"v\" } ] ",
        // refused
        "",
        " ",
        "nul",
        "tru",
        "True",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "NaN",
        "Infinity",
        "[1,]",
        "{\"a\":1,}",
        "[1 2]",
        "{\"a\" 1}",
        "{a:1}",
        "{1:1}",
        "\"abc",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\ud800\"",
        "\"\\ud800\\u0041\"",
        "\"\\udc00\"",
        "\"tab\there\"",
        "\"nl\nx\"",
        "[",
        "{",
        "[1",
        "{\"a\":",
        "1 2",
        "null x",
        "// c\n1",
        "'a'",
        "\u{feff}1",
    ] {
        agrees(text);
    }
}

#[test]
fn nesting_is_limited_like_serde_json() {
    for depth in [1, 127, 128, 129, 10_000] {
        agrees(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        agrees(&format!(
            "{}1{}",
            "{\"a\":".repeat(depth),
            "}".repeat(depth)
        ));
    }
}

#[test]
fn errors_say_where() {
    let e = from_str("[1,\n  x]").unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 2));
    assert_eq!(e.to_string(), "expected a value at line 2 column 2");
}

#[test]
fn index_get_and_comparisons_follow_serde_json() {
    let mut v = json!({"a": [1, "two", {"b": null}], "n": -3, "f": 2.5, "t": true});
    assert_eq!(v["a"][1], "two");
    assert_eq!(v["a"][9], Value::Null);
    assert_eq!(v["missing"]["deeper"], Value::Null);
    assert_eq!(v.get("a").and_then(|a| a.get(0)), Some(&json!(1)));
    assert!(v.get("a").and_then(|a| a.get("0")).is_none());
    assert_eq!(v["n"], -3);
    assert_eq!(v["n"].as_u64(), None);
    assert_eq!(v["f"], 2.5);
    assert!(v["f"].is_f64() && !v["f"].is_i64());
    assert_eq!(v["t"], true);
    v["new"]["inner"] = json!("x");
    assert_eq!(v["new"], json!({"inner": "x"}));
    assert_eq!(v["a"].take(), json!([1, "two", {"b": null}]));
    assert!(v["a"].is_null());
    let name = "k";
    let list = vec!["p", "q"];
    assert_eq!(
        json!({name: list, "o": Some(1), "none": None::<i32>}),
        json!({"k": ["p", "q"], "o": 1, "none": null})
    );
    assert_eq!(Value::from(f64::NAN), Value::Null);
    assert_eq!(Number::from_f64(f64::INFINITY), None);
    let m: Map<String, Value> = [("z".to_string(), json!(1)), ("a".to_string(), json!(2))]
        .into_iter()
        .collect();
    assert_eq!(to_string(&Value::Object(m)).unwrap(), r#"{"a":2,"z":1}"#);
    assert_eq!(
        to_string(&vec![["a", "\"b\""]]).unwrap(),
        r#"[["a","\"b\""]]"#
    );
    assert_eq!(json!([1, 2.0, -0.0]).to_string(), "[1,2.0,-0.0]");
}

fn arbitrary_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|i| serde_json::json!(i)),
        any::<u64>().prop_map(|u| serde_json::json!(u)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| serde_json::json!(f)),
        any::<String>().prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Our value as serde_json's, to have serde_json write it.
fn to_serde(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => match n.0 {
            crate::value::N::PosInt(u) => serde_json::json!(u),
            crate::value::N::NegInt(i) => serde_json::json!(i),
            crate::value::N::Float(f) => serde_json::json!(f),
        },
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::Array(a) => serde_json::Value::Array(a.iter().map(to_serde).collect()),
        Value::Object(m) => {
            serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect())
        }
    }
}

/// Equal, except that floats may differ by a few ulps (see `parse::scale`:
/// exponents beyond 10^22 are scaled in steps, not by one table entry).
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x.to_bits().abs_diff(y.to_bits()) <= 8 || x == y
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, x), (l, y))| k == l && close(x, y))
        }
        _ => a == b,
    }
}

proptest! {
    /// Whatever serde_json writes, we read as serde_json reads it (floats
    /// within a few ulps, exactly up to 10^±22) and write what we read as
    /// serde_json writes that value.
    #[test]
    fn reads_and_writes_like_serde_json(v in arbitrary_json()) {
        let text = serde_json::to_string(&v).unwrap();
        let ours = from_str(&text).unwrap();
        let theirs = serde_json::from_str::<serde_json::Value>(&text).unwrap();
        prop_assert!(close(&ours, &convert(&theirs)), "{} read as {:?}", text, ours);
        prop_assert_eq!(to_string(&ours).unwrap(), serde_json::to_string(&to_serde(&ours)).unwrap());
    }

    /// Floats with any exponent: within a few ulps of serde_json.
    #[test]
    fn far_exponents_stay_close(m in 1u64..=9_999_999_999_999_999, e in -340i32..=320) {
        let text = format!("{m}e{e}");
        let ours = from_str(&text).ok();
        let theirs = reference(&text);
        match (&ours, &theirs) {
            (Some(a), Some(b)) => prop_assert!(close(a, b), "{}: {:?} vs {:?}", text, a, b),
            _ => prop_assert_eq!(ours.is_some(), theirs.is_some(), "{}", text),
        }
    }

    /// Numbers as pages write them (up to 15 significant digits, modest
    /// exponents) come back exactly.
    #[test]
    fn everyday_numbers_are_exact(i in -999_999_999_999_999i64..=999_999_999_999_999, k in 0i32..=15) {
        let f = i as f64 / 10f64.powi(k);
        let text = serde_json::to_string(&f).unwrap();
        prop_assert_eq!(from_str(&text).unwrap().as_f64(), Some(f), "{}", text);
    }

    /// Arbitrary text: both refuse, or both read the same value.
    #[test]
    fn arbitrary_text_agrees(text in "[\\[\\]{}\",:0-9.eE+\\-a-z\\\\ ]{0,24}") {
        prop_assert_eq!(from_str(&text).ok(), reference(&text));
    }
}

#[test]
fn map_keeps_keys_sorted_and_behaves_like_btreemap() {
    use std::collections::BTreeMap;
    let keys = ["m", "a", "z", "a", "q", "", "m"];
    let mut ours: Map<String, usize> = Map::new();
    let mut reference = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(
            ours.insert(k.to_string(), i),
            reference.insert(k.to_string(), i)
        );
    }
    let a: Vec<_> = ours.iter().collect();
    let b: Vec<_> = reference.iter().collect();
    assert_eq!(a, b, "sorted iteration, last write wins");
    assert_eq!(ours.remove("q"), reference.remove("q"));
    assert_eq!(ours.remove("q"), None);
    assert_eq!(ours.get("z"), Some(&2));
    assert!(!ours.contains_key("q"));
    *ours.entry("b".into()).or_insert(7) += 1;
    *ours.entry("b".into()).or_insert(100) += 1;
    assert_eq!(ours["b"], 9);
    assert_eq!(
        ours.keys().cloned().collect::<Vec<_>>(),
        ["", "a", "b", "m", "z"]
    );
}
