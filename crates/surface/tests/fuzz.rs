#![cfg(not(target_arch = "wasm32"))]
//! Arbitrary requests never panic and always get `{ protocol, id, ok, … }`.

mod common;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,8}".prop_map(Value::from),
        prop_oneof![
            Just("pling.surface/0.1"),
            Just("describe"),
            Just("invoke"),
            Just("all"),
            Just("changed"),
            Just("orders.search"),
            Just("orders.update_note@order"),
            Just("orders.cancel@order"),
            Just("orders.export"),
            Just("orders.refund"),
            Just("SO-1001"),
            Just("SO-1002"),
            Just("SO-1009"),
        ]
        .prop_map(Value::from),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    arb_leaf().prop_recursive(4, 32, 5, |inner| {
        let key = prop_oneof![
            Just("protocol".to_string()),
            Just("id".to_string()),
            Just("method".to_string()),
            Just("input".to_string()),
            Just("capability".to_string()),
            Just("record".to_string()),
            Just("limit".to_string()),
            Just("offset".to_string()),
            Just("capabilities".to_string()),
            Just("note".to_string()),
            Just("query".to_string()),
            ".{0,4}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Requests that are mostly valid, so fuzzing reaches the session, replay,
/// rate, exposure and business layers too.
fn arb_near_valid() -> impl Strategy<Value = Value> {
    (
        prop::option::weighted(0.9, Just("pling.surface/0.1")),
        prop::option::weighted(0.9, "[a-c]{1,2}"),
        prop_oneof![Just("describe"), Just("invoke")],
        prop::option::of(arb_leaf()),
        prop::option::weighted(0.8, arb_json()),
    )
        .prop_map(|(protocol, id, method, capability, input)| {
            let mut m = Map::new();
            if let Some(p) = protocol {
                m.insert("protocol".into(), json!(p));
            }
            if let Some(id) = id {
                m.insert("id".into(), json!(id));
            }
            m.insert("method".into(), json!(method));
            if let Some(c) = capability {
                m.insert("capability".into(), c);
            }
            if let Some(i) = input {
                m.insert("input".into(), i);
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_gets_a_well_formed_response(request in arb_json()) {
        let fx = Fixture::orders();
        // `send` asserts the response shape and the id echo.
        let _ = fx.send(&request);
    }

    #[test]
    fn request_sequences_stay_well_formed(requests in prop::collection::vec(arb_near_valid(), 1..12)) {
        let mut fx = Fixture::orders();
        fx.confirm.configured = true;
        fx.confirm.answer = true;
        for (i, request) in requests.iter().enumerate() {
            fx.clock.0.set(NOW + i as f64 * 250.0);
            let response = fx.send(request);
            if response["ok"] == false {
                let code = response["error"]["code"].as_str().unwrap_or_default();
                prop_assert!(
                    ["INVALID_REQUEST", "REPLAY_DETECTED", "RATE_LIMITED", "CAPABILITY_NOT_EXPOSED"].contains(&code),
                    "{} → {}", request, response
                );
            } else if let Some(error) = response["result"].get("error") {
                let code = error["code"].as_str().unwrap_or_default();
                prop_assert!(
                    ["ACTION_NOT_FOUND", "INVALID_PARAMS", "ACTION_UNAVAILABLE", "PERMISSION_DENIED", "EXPECTATION_FAILED"]
                        .contains(&code),
                    "{} → {}", request, response
                );
            }
        }
    }
}
