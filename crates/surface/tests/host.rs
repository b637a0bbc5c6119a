//! Reading what the page's callbacks return: `session()`, `confirm`,
//! `execute`, the registry. Everything arrives as JSON text (or as why
//! there is none) and every shape gets an answer.

use surface::{
    approves, exec_outcome_from_callback, session_from_callback, CallbackError, Registry,
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
