//! Reading what the page's callbacks return: `session()`, `confirm`,
//! `execute`, the registry. Everything arrives as JSON text (or as why
//! there is none) and every shape gets an answer.

use std::cell::Cell;
use surface::crossing::{NonJson, Projection};
use surface::{
    approves, exec_outcome, exec_outcome_from_callback, registry_from_crossing,
    session_from_callback, CallbackError, Registry, SkipReason,
};

fn text(s: &str) -> Result<String, CallbackError> {
    Ok(s.to_string())
}

#[test]
fn only_true_approves() {
    assert!(approves(text("true")));
    for no in ["false", "1", "\"true\"", "null", "{}", "[true]", "", "tru"] {
        assert!(!approves(text(no)), "{no}");
    }
    assert!(!approves(Err(CallbackError::Threw("no".into()))));
    assert!(!approves(Err(CallbackError::NotJson("a function".into()))));
}

#[test]
fn a_session_that_cannot_be_read_is_no_session() {
    let s = session_from_callback(text(r#"{"id":"s","scope":["orders.*"],"expiresAt":5}"#))
        .expect("a session");
    assert_eq!((s.id.as_str(), s.expires_at), ("s", Some(5.0)));
    for none in [
        "null",
        "[\"s\"]",
        "{\"id\":\"\"}",
        "{\"id\":\"s\",\"scope\":\"*\"}",
        "not json",
        "{\"id\":\"s\"",
    ] {
        assert_eq!(session_from_callback(text(none)), None, "{none}");
    }
    let deep = "[".repeat(40) + &"]".repeat(40);
    assert_eq!(session_from_callback(text(&deep)), None);
    assert_eq!(
        session_from_callback(Err(CallbackError::Threw("auth down".into()))),
        None
    );
}

#[test]
fn execute_failures_say_why() {
    assert_eq!(
        exec_outcome_from_callback(text(r#"{"ok":true,"value":[1]}"#)),
        Ok(Some(serde_json::json!([1])))
    );
    let threw = exec_outcome_from_callback(Err(CallbackError::Threw("boom".into()))).unwrap_err();
    assert_eq!(
        (threw.code.as_str(), threw.message.as_str()),
        ("EXECUTION_FAILED", "the page's execute threw: boom")
    );
    let junk = exec_outcome_from_callback(Err(CallbackError::NotJson(
        "result.value is a BigInt, not JSON".into(),
    )))
    .unwrap_err();
    assert_eq!(
        junk.message,
        "the page's execute returned no plain JSON: result.value is a BigInt, not JSON"
    );
    let deep = format!(
        "{{\"ok\":true,\"value\":{}{}}}",
        "[".repeat(40),
        "]".repeat(40)
    );
    let deep = exec_outcome_from_callback(text(&deep)).unwrap_err();
    assert_eq!(
        deep.message,
        "the page's execute returned no plain JSON: it nests deeper than 32 levels"
    );
    let array = exec_outcome_from_callback(text("[true]")).unwrap_err();
    assert!(
        array.message.contains("malformed result"),
        "{}",
        array.message
    );
}

#[test]
fn a_registry_text_is_bounded_then_read_leniently() {
    let r = Registry::from_json_text(r#"[{"id":"a","title":"A"},{"id":"b"}]"#).unwrap();
    assert_eq!(r.declarations.len(), 1);
    assert_eq!(
        r.warning().as_deref(),
        Some("declarations skipped: [1] `b`: `title` must be a string")
    );
    let many = format!("[{}]", vec!["1"; 10_000].join(","));
    assert!(Registry::from_json_text(&many).is_err(), "10,001 values");
}

#[test]
fn an_execute_that_answered_ok_true_with_a_result_that_cannot_cross_succeeded_without_its_value() {
    let asked = Cell::new(0);
    let ok = || {
        asked.set(asked.get() + 1);
        true
    };
    // A BigInt or a cycle in `value` (no text crossed), or a value beyond
    // the bounds: the action ran, so it is a success, without a value,
    // and a warning says why.
    let bigint = Err(CallbackError::NotJson(
        r#"result holds a BigInt under the key "n", not JSON"#.into(),
    ));
    let (outcome, warning) = exec_outcome(bigint, ok);
    assert_eq!(outcome, Ok(None));
    assert_eq!(
        warning.as_deref(),
        Some(
            r#"the page's execute answered { ok: true } with a result that cannot cross as JSON (result holds a BigInt under the key "n", not JSON): the action ran, and is reported as a success without its value"#
        )
    );
    let deep = format!(
        "{{\"ok\":true,\"value\":{}{}}}",
        "[".repeat(40),
        "]".repeat(40)
    );
    let (outcome, warning) = exec_outcome(Ok(deep), ok);
    assert_eq!(outcome, Ok(None));
    assert!(warning.is_some_and(|w| w.contains("it nests deeper than 32 levels")));
    assert_eq!(asked.get(), 2);
    // Its `ok` not `true`: the failure it always was, no warning.
    let cyclic = Err(CallbackError::NotJson(
        "result cannot be written as JSON".into(),
    ));
    let (outcome, warning) = exec_outcome(cyclic, || false);
    assert_eq!(
        outcome.unwrap_err().message,
        "the page's execute returned no plain JSON: result cannot be written as JSON"
    );
    assert_eq!(warning, None);
    // `ok` is asked only of a result that could not be read: never of one
    // that was read (a malformed shape stays a failure), nor of a throw.
    let never = || -> bool { panic!("ok read again") };
    let (outcome, _) = exec_outcome(Ok(r#"{"ok":true,"value":null}"#.into()), never);
    assert_eq!(outcome, Ok(Some(serde_json::Value::Null)));
    let (outcome, _) = exec_outcome(Ok(r#"{"ok":"yes"}"#.into()), never);
    assert!(outcome.unwrap_err().message.contains("malformed result"));
    let (outcome, warning) = exec_outcome(Err(CallbackError::Threw("boom".into())), never);
    assert_eq!(
        (outcome.unwrap_err().message, warning),
        ("the page's execute threw: boom".to_string(), None)
    );
}

fn holding(text: &str, kind: &str, key: &str) -> Projection {
    let mut p = Projection::text(text);
    p.non_json = Some(NonJson {
        kind: kind.into(),
        key: key.into(),
        shown: if kind == "number" {
            "NaN".into()
        } else {
            String::new()
        },
    });
    p
}

#[test]
fn a_declaration_that_cannot_cross_is_skipped_alone_and_the_bounds_hold_for_the_registry() {
    let search = r#"{"id":"orders.search","title":"Search"}"#;
    let open = r#"{"id":"orders.open","title":"Open"}"#;
    // Crossed whole (a handler function left out as JSON leaves it out):
    // read as ever, and never written again entry by entry.
    let whole = Projection::text(format!("[{search},{open}]"));
    let (r, warning) = registry_from_crossing(Ok(whole), |_| panic!("not split"));
    assert_eq!(r.declarations.len(), 2);
    assert_eq!(warning, None);
    // A BigInt in one, a cycle in another: each is skipped with why; the
    // others are kept, in order.
    let whole = holding(&format!("[{search},{open}]"), "bigint", "big");
    let cyclic = Projection::threw("Converting circular structure to JSON");
    let seen = Cell::new(0);
    let (r, warning) = registry_from_crossing(Ok(whole), |max| {
        seen.set(max);
        Some(vec![
            Projection::text(search),
            holding(r#"{"id":"x","title":"X","big":null}"#, "bigint", "big"),
            cyclic.clone(),
            holding(
                r#"{"id":"y","title":"Y","expect":{"text":"t","within":null}}"#,
                "number",
                "within",
            ),
            Projection::text(open),
            Projection::default(), // undefined: JSON writes null
        ])
    });
    assert_eq!(seen.get(), surface::MAX_VALUES);
    let ids: Vec<&str> = r.declarations.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, ["orders.search", "orders.open"]);
    let skipped: Vec<usize> = r.skipped.iter().map(|s| s.index).collect();
    assert_eq!(skipped, [1, 2, 3, 5]);
    assert_eq!(
        r.skipped[0].reason,
        SkipReason::NotJson(
            r#"the declaration holds a BigInt under the key "big", not JSON"#.into()
        )
    );
    assert_eq!(
        warning.as_deref(),
        Some(concat!(
            r#"declarations skipped: [1] the declaration holds a BigInt under the key "big", not JSON; "#,
            "[2] the declaration cannot be written as JSON (it is cyclic, or a getter, proxy or toJSON threw): Converting circular structure to JSON; ",
            r#"[3] the declaration holds the number NaN under the key "within", not JSON; "#,
            "[5] a declaration must be an object"
        ))
    );
    // The bounds are the registry's, whole: 10,000 declarations that each
    // cross are still more values than a registry may hold.
    let too_many = || Some(vec![Projection::text("{}"); 10_000]);
    let (r, warning) = registry_from_crossing(Ok(holding("[]", "bigint", "")), |_| too_many());
    assert_eq!(r, Registry::default());
    assert_eq!(
        warning.as_deref(),
        Some("the registry is not plain JSON: it has more than 10000 values")
    );
    // No entries to write again (no array, or too many): empty, as before.
    let (r, warning) = registry_from_crossing(Ok(holding("null", "bigint", "")), |_| None);
    assert_eq!(r, Registry::default());
    assert_eq!(
        warning.as_deref(),
        Some("the registry is not plain JSON: registry is a BigInt, not JSON")
    );
    let (r, warning) = registry_from_crossing(Err("offline".into()), |_| panic!("not split"));
    assert_eq!(
        (r, warning.as_deref()),
        (Registry::default(), Some("registry() threw: offline"))
    );
}
