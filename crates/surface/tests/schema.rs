#![cfg(not(target_arch = "wasm32"))]
//! The hand-written JSON Schema subset: validation and schema checking.

use proptest::prelude::*;
use serde_json::{json, Value};
use surface::schema::{check_schema, validate, SchemaError, MAX_SCHEMA_DEPTH};

fn err(schema: Value, value: Value) -> String {
    validate(&schema, &value)
        .expect_err(&format!("{value} should fail {schema}"))
        .to_string()
}

fn ok(schema: Value, value: Value) {
    if let Err(e) = validate(&schema, &value) {
        panic!("{value} should pass {schema}: {e}");
    }
}

#[test]
fn type_single_names() {
    let cases = [
        ("null", json!(null), json!(0)),
        ("boolean", json!(false), json!("false")),
        ("object", json!({}), json!([])),
        ("array", json!([]), json!({})),
        ("number", json!(1.5), json!("1.5")),
        ("string", json!(""), json!(null)),
        ("integer", json!(-3), json!(3.5)),
    ];
    for (name, good, bad) in cases {
        ok(json!({ "type": name }), good);
        let e = err(json!({ "type": name }), bad);
        assert!(
            e.starts_with(&format!("(root): expected {name}, got ")),
            "{e}"
        );
    }
    // Integers: whole floats count, big unsigned values count.
    ok(json!({ "type": "integer" }), json!(3.0));
    ok(json!({ "type": "integer" }), json!(u64::MAX));
    ok(json!({ "type": "number" }), json!(3));
    assert_eq!(
        err(json!({ "type": "integer" }), json!(0.5)),
        "(root): expected integer, got number"
    );
}

#[test]
fn type_arrays() {
    let s = json!({ "type": ["string", "null"] });
    ok(s.clone(), json!("x"));
    ok(s.clone(), json!(null));
    assert_eq!(
        err(s, json!(1)),
        "(root): expected string or null, got number"
    );
}

#[test]
fn boolean_schemas() {
    ok(json!(true), json!({ "anything": [1] }));
    assert_eq!(
        err(json!(false), json!(1)),
        "(root): no value is allowed here"
    );
    ok(json!({ "properties": { "a": true } }), json!({ "a": 1 }));
    assert_eq!(
        err(json!({ "properties": { "a": false } }), json!({ "a": 1 })),
        "/a: no value is allowed here"
    );
}

#[test]
fn enum_and_const_compare_numbers_by_value() {
    let s = json!({ "enum": ["low", "high", 1, null] });
    ok(s.clone(), json!("high"));
    ok(s.clone(), json!(1.0));
    ok(s.clone(), json!(null));
    assert_eq!(
        err(s, json!("mid")),
        r#"(root): expected one of ["low","high",1,null]"#
    );
    ok(
        json!({ "const": { "a": [1, 2] } }),
        json!({ "a": [1.0, 2] }),
    );
    assert_eq!(
        err(json!({ "const": "x" }), json!("y")),
        r#"(root): expected "x""#
    );
    // Long enums are abbreviated in messages.
    let many: Vec<String> = (0..100).map(|i| format!("option-{i}")).collect();
    let e = err(json!({ "enum": many }), json!("nope"));
    assert!(e.ends_with('…') && e.chars().count() < 140, "{e}");
}

#[test]
fn string_lengths_count_characters() {
    let s = json!({ "type": "string", "minLength": 2, "maxLength": 3 });
    ok(s.clone(), json!("周五"));
    ok(s.clone(), json!("回电话"));
    ok(s.clone(), json!("👍🏽")); // two chars (emoji + modifier), eight bytes
    assert_eq!(
        err(s.clone(), json!("周")),
        "(root): expected at least 2 characters, got 1"
    );
    assert_eq!(
        err(s, json!("周五前回电")),
        "(root): expected at most 3 characters, got 5"
    );
}

#[test]
fn numeric_bounds() {
    let s = json!({ "minimum": 1, "maximum": 10 });
    ok(s.clone(), json!(1));
    ok(s.clone(), json!(10.0));
    assert_eq!(
        err(s.clone(), json!(0)),
        "(root): expected a number >= 1, got 0"
    );
    assert_eq!(
        err(s, json!(10.5)),
        "(root): expected a number <= 10, got 10.5"
    );
    let s = json!({ "exclusiveMinimum": 0, "exclusiveMaximum": 1 });
    ok(s.clone(), json!(0.5));
    assert_eq!(
        err(s.clone(), json!(0)),
        "(root): expected a number > 0, got 0"
    );
    assert_eq!(err(s, json!(1)), "(root): expected a number < 1, got 1");
    // Bounds only constrain numbers.
    ok(json!({ "minimum": 5 }), json!("3"));
}

#[test]
fn arrays() {
    let s = json!({ "type": "array", "items": { "type": "string" }, "minItems": 1, "maxItems": 2 });
    ok(s.clone(), json!(["a"]));
    assert_eq!(
        err(s.clone(), json!([])),
        "(root): expected at least 1 items, got 0"
    );
    assert_eq!(
        err(s.clone(), json!(["a", "b", "c"])),
        "(root): expected at most 2 items, got 3"
    );
    assert_eq!(err(s, json!(["a", 2])), "/1: expected string, got number");
}

#[test]
fn objects_required_properties_additional() {
    let s = json!({
        "type": "object",
        "properties": {
            "note": { "type": "string" },
            "tags": { "type": "array", "items": { "enum": ["vip", "late"] } }
        },
        "required": ["note"],
        "additionalProperties": false
    });
    ok(s.clone(), json!({ "note": "x", "tags": ["vip"] }));
    assert_eq!(
        err(s.clone(), json!({ "note": 3 })),
        "/note: expected string, got number"
    );
    assert_eq!(
        err(s.clone(), json!({})),
        "/note: required property is missing"
    );
    assert_eq!(
        err(s.clone(), json!({ "note": "x", "zz": 1 })),
        "/zz: property is not allowed"
    );
    assert_eq!(
        err(s, json!({ "note": "x", "tags": ["vip", "soon"] })),
        r#"/tags/1: expected one of ["vip","late"]"#
    );
    // additionalProperties as a schema.
    let s = json!({ "properties": { "a": {} }, "additionalProperties": { "type": "integer" } });
    ok(s.clone(), json!({ "a": "free", "b": 2 }));
    assert_eq!(
        err(s, json!({ "a": "free", "b": "2" })),
        "/b: expected integer, got string"
    );
}

#[test]
fn pointer_segments_are_escaped() {
    let s = json!({ "properties": { "a/b": { "properties": { "c~d": { "type": "string" } } } } });
    let e = validate(&s, &json!({ "a/b": { "c~d": 1 } })).expect_err("fails");
    assert_eq!(
        e,
        SchemaError::new("/a~1b/c~0d", "expected string, got number")
    );
}

#[test]
fn nested_paths() {
    let s = json!({
        "properties": { "lines": { "items": { "properties": { "qty": { "type": "integer", "minimum": 1 } } } } }
    });
    assert_eq!(
        err(s, json!({ "lines": [{ "qty": 1 }, { "qty": 0 }] })),
        "/lines/1/qty: expected a number >= 1, got 0"
    );
}

#[test]
fn malformed_keywords_fail_closed_in_validate() {
    for (schema, needle) in [
        (json!({ "type": 5 }), "`type`"),
        (json!({ "enum": "a" }), "`enum`"),
        (json!({ "minLength": -1 }), "`minLength`"),
        (json!({ "maximum": "9" }), "`maximum`"),
        (json!({ "required": "a" }), "`required`"),
        (json!({ "required": [1] }), "`required`"),
        (json!({ "properties": [] }), "`properties`"),
        (
            json!({ "additionalProperties": 3 }),
            "`additionalProperties`",
        ),
        (json!({ "items": 3 }), "`items`"),
        (json!({ "minItems": 1.5 }), "`minItems`"),
    ] {
        let value = match needle {
            "`minLength`" => json!("abc"),
            "`maximum`" => json!(1),
            "`items`" | "`minItems`" => json!([1]),
            _ => json!({ "a": 1 }),
        };
        let e = err(schema.clone(), value);
        assert!(
            e.contains(needle) && e.contains("malformed"),
            "{schema}: {e}"
        );
    }
    assert!(err(json!("string"), json!(1)).contains("neither an object nor a boolean"));
}

#[test]
fn check_schema_accepts_the_subset_and_annotations() {
    let s = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "t", "description": "d", "default": {}, "examples": [],
        "type": "object",
        "properties": {
            "a": { "type": ["string", "null"], "minLength": 0, "maxLength": 5, "format": "email" },
            "b": { "type": "integer", "minimum": 0, "maximum": 9, "exclusiveMinimum": -1, "exclusiveMaximum": 10 },
            "c": { "type": "array", "items": { "enum": [1, 2] }, "minItems": 0, "maxItems": 2 },
            "d": { "const": "x" },
            "e": true
        },
        "required": ["a"],
        "additionalProperties": { "type": "string" }
    });
    assert_eq!(check_schema(&s), Ok(()));
}

#[test]
fn check_schema_rejects_unsupported_and_malformed() {
    let cases = [
        (json!({ "pattern": "^a" }), "/pattern"),
        (
            json!({ "properties": { "x": { "$ref": "#/a" } } }),
            "/properties/x/$ref",
        ),
        (json!({ "oneOf": [] }), "/oneOf"),
        (json!({ "items": [{}] }), "/items"),
        (json!({ "exclusiveMinimum": true }), "/exclusiveMinimum"),
        (json!({ "type": "float" }), "/type"),
        (json!({ "type": [] }), "/type"),
        (json!({ "required": [1] }), "/required"),
        (json!({ "minLength": 1.5 }), "/minLength"),
        (
            json!({ "additionalProperties": 1 }),
            "/additionalProperties",
        ),
        (json!({ "enum": {} }), "/enum"),
        (
            json!({ "properties": { "a/b": { "maxItems": -1 } } }),
            "/properties/a~1b/maxItems",
        ),
        (json!(3), ""),
    ];
    for (schema, path) in cases {
        let e = check_schema(&schema).expect_err(&format!("{schema} should be refused"));
        assert_eq!(e.path, path, "{schema}: {e}");
    }
}

fn deep_schema(levels: usize) -> Value {
    let mut s = json!({ "type": "string" });
    for _ in 0..levels {
        s = json!({ "properties": { "a": s } });
    }
    s
}

fn deep_value(levels: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..levels {
        v = json!({ "a": v });
    }
    v
}

#[test]
fn depth_is_bounded() {
    assert_eq!(check_schema(&deep_schema(MAX_SCHEMA_DEPTH)), Ok(()));
    let e = check_schema(&deep_schema(MAX_SCHEMA_DEPTH + 1)).expect_err("too deep");
    assert!(e.message.contains("deeper than"), "{e}");
    let e = validate(
        &deep_schema(MAX_SCHEMA_DEPTH + 1),
        &deep_value(MAX_SCHEMA_DEPTH + 1),
    )
    .expect_err("too deep");
    assert!(e.message.contains("deeper than"), "{e}");
    // Inside the bound, the deep error is found with its full path.
    let e = validate(&deep_schema(3), &deep_value(3)).expect_err("number, not string");
    assert_eq!(e.path, "/a/a/a");
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z~/]{0,6}".prop_map(Value::from),
        prop_oneof![
            Just("type"),
            Just("string"),
            Just("integer"),
            Just("object"),
            Just("array"),
            Just("null"),
            Just("number"),
            Just("boolean")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        let key = prop_oneof![
            Just("type".to_string()),
            Just("properties".to_string()),
            Just("required".to_string()),
            Just("additionalProperties".to_string()),
            Just("enum".to_string()),
            Just("const".to_string()),
            Just("minLength".to_string()),
            Just("maxLength".to_string()),
            Just("minimum".to_string()),
            Just("maximum".to_string()),
            Just("exclusiveMinimum".to_string()),
            Just("items".to_string()),
            Just("minItems".to_string()),
            Just("maxItems".to_string()),
            "[a-z]{1,3}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(testkit::cases()))]

    /// Arbitrary schema-ish values against arbitrary values: never panics,
    /// and an error's path is always a pointer.
    #[test]
    fn validate_and_check_never_panic(schema in arb_json(), value in arb_json()) {
        if let Err(e) = validate(&schema, &value) {
            prop_assert!(e.path.is_empty() || e.path.starts_with('/'));
            prop_assert!(!e.message.is_empty());
        }
        let _ = check_schema(&schema);
    }

    /// A schema that passes `check_schema` validates without "malformed" errors.
    #[test]
    fn checked_schemas_are_never_malformed(schema in arb_json(), value in arb_json()) {
        if check_schema(&schema).is_ok() {
            if let Err(e) = validate(&schema, &value) {
                prop_assert!(!e.message.contains("malformed"), "{}", e);
            }
        }
    }
}
