//! The seed's two JSON examples and every row of its failure table,
//! produced for real through `Surface::handle`.

mod common;

use common::*;
use serde_json::{json, Value};
use surface::{Session, SurfaceConfig};

/// The seed's `createSurface` call, verbatim in spirit.
fn seed_fixture() -> Fixture {
    Fixture::with(
        SurfaceConfig::new(
            "orders",
            ["orders.search", "orders.open", "orders.update_note@order"],
        ),
        seed_registry(),
        seed_page(),
    )
}

fn round_trip(v: &Value) -> Value {
    serde_json::from_str(&serde_json::to_string(v).expect("serializes")).expect("parses")
}

#[test]
fn seed_describe_example() {
    let fx = seed_fixture();
    let request: Value = serde_json::from_str(
        r#"{
          "protocol": "pling.surface/0.1",
          "id": "req-1",
          "method": "describe",
          "input": { "limit": 8, "capabilities": "changed" }
        }"#,
    )
    .expect("seed JSON parses");
    let response = fx.send(&request);
    assert_eq!(round_trip(&response), response);
    assert_eq!(response["ok"], true);
    assert_eq!(response["id"], "req-1");
    let result = &response["result"];
    assert_eq!(result["app"], "orders");
    assert_eq!(result["protocol"], "pling.surface/0.1");
    // First read: "changed" behaves as "all" — expose ∩ scope ∩ registry.
    let ids: Vec<&str> = result["capabilities"]
        .as_array()
        .expect("capabilities")
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        ["orders.search", "orders.open", "orders.update_note@order"]
    );
    assert_eq!(result["capabilitiesUnchanged"], false);
    assert_eq!(
        result["context"]["page"],
        json!({ "title": "订单", "documentTitle": "订单 - Pling" })
    );
    assert_eq!(
        result["recordWindow"],
        json!({ "offset": 0, "limit": 8, "total": 4 })
    );
    assert_eq!(result["records"].as_array().map(Vec::len), Some(4));
    // SO-1009 sits in the inactive archive: invoke refuses it, so describe
    // lists it, with invoke's message.
    assert_eq!(
        result["unavailable"],
        json!([
            { "capability": "orders.update_note@order", "record": "SO-1002", "reason": "记录已锁定" },
            { "capability": "orders.update_note@order", "record": "SO-1009", "reason": "record `SO-1009` is in region `archive`, which is not active" }
        ])
    );
    // The row action's schema carries the implicit `record`.
    let note = &result["capabilities"][2]["input"];
    assert_eq!(note["required"], json!(["record", "note"]));
    assert_eq!(note["properties"]["record"]["type"], "string");

    // A second "changed" read with nothing changed: [] plus the flag.
    let again = fx.send(&json!({
        "protocol": "pling.surface/0.1", "id": "req-1b", "method": "describe",
        "input": { "limit": 8, "capabilities": "changed" }
    }));
    assert_eq!(again["result"]["capabilities"], json!([]));
    assert_eq!(again["result"]["capabilitiesUnchanged"], true);
}

#[test]
fn seed_invoke_example_locked_record() {
    let fx = seed_fixture();
    let request: Value = serde_json::from_str(
        r#"{
          "protocol": "pling.surface/0.1",
          "id": "req-2",
          "method": "invoke",
          "capability": "orders.update_note@order",
          "input": { "record": "SO-1002", "note": "周五前回电" }
        }"#,
    )
    .expect("seed JSON parses");
    let response = fx.send(&request);
    let expected: Value = serde_json::from_str(
        r#"{
          "protocol": "pling.surface/0.1",
          "id": "req-2",
          "ok": true,
          "result": {
            "error": { "code": "ACTION_UNAVAILABLE", "message": "记录已锁定" }
          }
        }"#,
    )
    .expect("seed JSON parses");
    assert_eq!(response, expected);
    assert_eq!(round_trip(&response), expected);
    assert!(
        fx.calls.borrow().is_empty(),
        "a locked record never reaches execute"
    );
}

// ---- The failure table, row by row -------------------------------------

#[test]
fn row_capability_not_exposed_by_site_or_scope() {
    let fx = Fixture::orders();
    // Registered but not in `expose`.
    let r = fx.invoke("orders.refund", json!({}));
    assert_eq!(protocol_code(&r), "CAPABILITY_NOT_EXPOSED");
    assert!(message(&r).contains("orders.refund"));
    // In `expose` but outside the session scope.
    fx.session.borrow_mut().as_mut().expect("session").scope = vec!["orders.search".into()];
    let r = fx.invoke("orders.open", json!({ "order": "SO-1001" }));
    assert_eq!(protocol_code(&r), "CAPABILITY_NOT_EXPOSED");
}

#[test]
fn row_action_not_found() {
    let fx = Fixture::orders();
    let r = fx.invoke("orders.export", json!({}));
    assert_eq!(business_code(&r), "ACTION_NOT_FOUND");
    assert!(message(&r).contains("orders.export"));
}

#[test]
fn row_action_unavailable() {
    let fx = Fixture::orders();
    let r = fx.invoke(
        "orders.update_note@order",
        json!({ "record": "SO-1002", "note": "x" }),
    );
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert_eq!(message(&r), "记录已锁定");
}

#[test]
fn row_invalid_params() {
    let fx = Fixture::orders();
    let r = fx.invoke(
        "orders.update_note@order",
        json!({ "record": "SO-1001", "note": 42 }),
    );
    assert_eq!(business_code(&r), "INVALID_PARAMS");
    assert!(
        message(&r).contains("/note: expected string"),
        "{}",
        message(&r)
    );
}

#[test]
fn row_permission_denied() {
    let fx = Fixture::orders();
    let r = fx.invoke("orders.cancel@order", json!({ "record": "SO-1001" }));
    assert_eq!(business_code(&r), "PERMISSION_DENIED");
    assert!(fx.calls.borrow().is_empty());
}

#[test]
fn row_expectation_failed() {
    let fx = Fixture::orders();
    *fx.effect.borrow_mut() = Box::new(|_, _, _, _| Ok(None)); // runs, shows nothing
    let r = fx.invoke(
        "orders.update_note@order",
        json!({ "record": "SO-1001", "note": "x" }),
    );
    assert_eq!(business_code(&r), "EXPECTATION_FAILED");
    assert!(message(&r).contains("备注已保存"));
    assert_eq!(
        *fx.page.waits.borrow(),
        vec![("备注已保存".to_string(), 2000.0)]
    );
}

#[test]
fn row_session_expired_and_revoked() {
    let fx = Fixture::orders();
    *fx.session.borrow_mut() = None;
    assert_eq!(protocol_code(&fx.describe(json!({}))), "SESSION_EXPIRED");

    *fx.session.borrow_mut() = Some(Session {
        expires_at: Some(NOW - 1.0),
        ..seed_session()
    });
    assert_eq!(protocol_code(&fx.describe(json!({}))), "SESSION_EXPIRED");

    *fx.session.borrow_mut() = Some(Session {
        revoked: true,
        ..seed_session()
    });
    assert_eq!(
        protocol_code(&fx.invoke("orders.search", json!({ "query": "王" }))),
        "SESSION_REVOKED"
    );
}
