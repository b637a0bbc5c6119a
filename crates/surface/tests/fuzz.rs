#![cfg(not(target_arch = "wasm32"))]
//! Every decoder, fed arbitrary JSON and arbitrary text: a well-formed
//! answer out, never a panic. `PROPTEST_CASES` cases each (default 10,000;
//! `npm run fuzz` runs 1,000,000).

mod common;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use surface::{
    exec_outcome_from_json, CapabilityDeclaration, Registry, Session, SurfaceConfig,
    MAX_RECORD_LIMIT,
};

/// Strings the decoders read: the protocol, methods, scopes, risks, types,
/// capability and record ids, a note.
const WORDS: &[&str] = &[
    "pling.surface/0.1",
    "describe",
    "invoke",
    "all",
    "changed",
    "low",
    "high",
    "object",
    "string",
    "orders.*",
    "*",
    "orders.search",
    "orders.update_note@order",
    "orders.cancel@order",
    "orders.export",
    "orders.refund",
    "SO-1001",
    "SO-1002",
    "SO-1009",
    "备注已保存",
];

/// Keys some decoder reads.
const KEYS: &[&str] = &[
    "protocol",
    "id",
    "method",
    "input",
    "capability",
    "record",
    "limit",
    "offset",
    "capabilities",
    "note",
    "query",
    "title",
    "description",
    "risk",
    "expect",
    "text",
    "within",
    "type",
    "properties",
    "required",
    "ok",
    "value",
    "error",
    "code",
    "message",
    "scope",
    "expiresAt",
    "revoked",
    "app",
    "expose",
    "recordLimit",
    "rateLimit",
    "invokes",
    "perMs",
];

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(testkit::cases())
}

/// A leaf: a scalar (null, a boolean, an `i64`, a finite `f64` or short
/// text), or, each as likely as one of those, a `u64`, a small count, or a
/// word the decoders read.
fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => testkit::scalar(short_text()),
        1 => any::<u64>().prop_map(Value::from),
        1 => (0u32..200).prop_map(Value::from),
        1 => prop::sample::select(WORDS).prop_map(Value::from),
    ]
}

/// Up to 6 arbitrary characters (cheaper to generate than a regex).
fn short_text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter)
}

/// Arbitrary JSON whose keys are mostly ones some decoder reads.
fn arb_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        prop::sample::select(KEYS).prop_map(str::to_string),
        short_text(),
    ];
    testkit::tree(
        arb_leaf(),
        key,
        testkit::Shape {
            depth: 4,
            size: 24,
            width: 6,
        },
    )
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

const JSONISH: &[char] = &[
    '[', ']', '{', '}', '"', ':', ',', '.', ' ', '0', '9', 'a', 'e', 'n', 't', 'u', '\\', '-', 'é',
    '😀',
];

/// Text made of JSON's own characters, mostly not JSON.
fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(JSONISH), 0..48).prop_map(String::from_iter),
        arb_json().prop_map(|v| {
            let text = v.to_string();
            // Cut somewhere (on a character boundary) half the time.
            let cut = text.len() / 2;
            match text.is_char_boundary(cut) {
                true if cut % 2 == 0 => text[..cut].to_string(),
                _ => text,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// The request decoder, through the whole pipeline.
    #[test]
    fn arbitrary_json_gets_a_well_formed_response(request in arb_json()) {
        let fx = Fixture::orders();
        // `send` asserts the response shape and the id echo.
        let _ = fx.send(&request);
    }

    /// The bounds pass and the id echo, on text that is rarely JSON.
    #[test]
    fn arbitrary_text_gets_a_well_formed_response(text in arb_text()) {
        let fx = Fixture::orders();
        let request: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let response = fx.send_text(&text, &request);
        if !request.is_object() {
            prop_assert_eq!(&response["ok"], false);
        }
    }

}

proptest! {
    // Not a decoder but every layer in turn, up to 6 requests a case: a
    // tenth of the cases (1,000 by default, 100,000 in `npm run fuzz`).
    #![proptest_config(ProptestConfig::with_cases(testkit::share_of_cases(10, 1_000)))]

    #[test]
    fn request_sequences_stay_well_formed(requests in prop::collection::vec(arb_near_valid(), 1..6)) {
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

proptest! {
    #![proptest_config(config())]

    /// Declarations: every entry is kept or skipped with a reason, kept ids
    /// are unique, and a kept declaration reads back as itself.
    #[test]
    fn arbitrary_registries_are_read_entry_by_entry(list in prop::collection::vec(arb_json(), 0..6), wrap in any::<bool>()) {
        let value = if wrap { json!({ "declarations": list.clone() }) } else { Value::Array(list.clone()) };
        let registry = Registry::from_json(&value);
        if wrap {
            prop_assert!(registry.declarations.is_empty() && registry.skipped.len() == 1);
        } else {
            prop_assert_eq!(registry.declarations.len() + registry.skipped.len(), list.len());
            for s in &registry.skipped {
                prop_assert!(s.index < list.len() && !s.reason.to_string().is_empty());
            }
        }
        for (i, d) in registry.declarations.iter().enumerate() {
            prop_assert!(registry.declarations[..i].iter().all(|o| o.id != d.id));
            let again = CapabilityDeclaration::from_json(&serde_json::to_value(d).unwrap());
            prop_assert_eq!(again.as_ref(), Ok(d));
        }
        let _ = Registry::from_json_text(&value.to_string());
    }

    /// Sessions: a read session has an id and reads back as itself.
    #[test]
    fn arbitrary_sessions_are_read_or_refused(value in arb_json()) {
        if let Ok(Some(session)) = Session::from_json(&value) {
            prop_assert!(!session.id.is_empty());
            let again = Session::from_json(&serde_json::to_value(&session).unwrap());
            prop_assert_eq!(again, Ok(Some(session)));
        }
        let _ = Session::from_json_text(&value.to_string());
    }

    /// Execute results: success only for `ok: true`; a failure always has a code.
    #[test]
    fn arbitrary_execute_results_are_read_strictly(value in arb_json()) {
        match exec_outcome_from_json(&value) {
            Ok(_) => prop_assert_eq!(&value["ok"], true),
            Err(e) => prop_assert!(!e.code.is_empty()),
        }
    }

    /// createSurface's data options.
    #[test]
    fn arbitrary_options_are_read_or_refused(value in arb_json()) {
        if let Ok(config) = SurfaceConfig::from_json(&value) {
            prop_assert!((1..=MAX_RECORD_LIMIT).contains(&config.record_limit));
            prop_assert!(config.rate_limit.invokes >= 1 && config.rate_limit.per_ms > 0.0);
        }
        let _ = SurfaceConfig::from_json_text(&value.to_string());
    }

    /// The JSON-text readers, on text that is rarely JSON.
    #[test]
    fn arbitrary_text_never_panics_a_reader(text in arb_text()) {
        let _ = Registry::from_json_text(&text);
        let _ = Session::from_json_text(&text);
        let _ = SurfaceConfig::from_json_text(&text);
        let _ = surface::exec_outcome_from_callback(Ok(text.clone()));
        let _ = surface::echo_id_in(&text);
    }
}
