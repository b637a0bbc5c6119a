//! How a value crosses between JS and Surface: as one JSON text
//! (`JSON.stringify` in JS, then the bounds pass and serde_json in Rust;
//! `serde_json::to_string` then `JSON.parse` back) or as a JS value walked
//! by serde-wasm-bindgen. Both must give the same values; the timings are
//! logged in `--release` builds (docs/surface.md, Transport).
#![cfg(target_arch = "wasm32")]

use js_sys::JSON;
use serde::Serialize;
use serde_json::{json, Value};
use surface::{exec_outcome_from_json, Registry, Session};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn declarations(n: usize) -> Value {
    let list: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "id": format!("orders.action_{i}@order"),
                "title": format!("Action {i}"),
                "description": "does one thing to one order",
                "input": { "type": "object", "properties": { "note": { "type": "string", "maxLength": 200 } }, "required": ["note"] },
                "risk": if i % 5 == 0 { "high" } else { "low" },
                "expect": { "text": "saved", "within": 1500 }
            })
        })
        .collect();
    Value::Array(list)
}

/// A JS value, as the page would hand it over.
fn js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).unwrap()
}

/// The JSON-text path in: one native stringify, one string crossing.
fn text_in(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().as_string().unwrap()
}

/// serde-wasm-bindgen's path in: a walk over the JS value.
fn swb_in(value: &JsValue) -> Value {
    serde_wasm_bindgen::from_value(value.clone()).unwrap()
}

fn text_out(value: &impl Serialize) -> JsValue {
    JSON::parse(&serde_json::to_string(value).unwrap()).unwrap()
}

fn swb_out(value: &impl Serialize) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap()
}

/// Median milliseconds of `runs` runs of `f`, by `performance.now()`.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let now = js_sys::Function::new_no_args("return performance.now()");
    let now = || now.call0(&JsValue::NULL).unwrap().as_f64().unwrap();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = now();
            f();
            now() - t0
        })
        .collect();
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    times[runs / 2]
}

/// Times `reps` crossings per run, both ways, and logs them; only in an
/// optimized build (a debug build's numbers mean nothing and take long).
fn compare(label: &str, reps: usize, text: impl Fn(), swb: impl Fn()) {
    if cfg!(debug_assertions) {
        return;
    }
    let t = median_ms(15, || (0..reps).for_each(|_| text())) / reps as f64;
    let s = median_ms(15, || (0..reps).for_each(|_| swb())) / reps as f64;
    console_log!(
        "transport {label}: JSON text {:.1} µs, serde-wasm-bindgen {:.1} µs per crossing",
        t * 1000.0,
        s * 1000.0
    );
}

#[wasm_bindgen_test]
fn both_transports_read_the_same_registry_session_and_result() {
    for n in [5, 200] {
        let given = js(&declarations(n));
        let by_text = Registry::from_json_text(&text_in(&given)).unwrap();
        let by_swb = Registry::from_json(&swb_in(&given));
        assert_eq!(by_text, by_swb);
        assert_eq!(by_text.declarations.len(), n);
        let reps = if n == 5 { 200 } else { 10 };
        compare(
            &format!("registry of {n} declarations, in"),
            reps,
            || drop(Registry::from_json_text(&text_in(&given))),
            || drop(Registry::from_json(&swb_in(&given))),
        );
    }
    let session = js(&json!({ "id": "s1", "scope": ["orders.*"], "expiresAt": 1.8e12 }));
    let by_text = Session::from_json_text(&text_in(&session)).unwrap();
    assert_eq!(by_text, Session::from_json(&swb_in(&session)).unwrap());
    compare(
        "session, in",
        500,
        || drop(Session::from_json_text(&text_in(&session))),
        || drop(Session::from_json(&swb_in(&session))),
    );
    let result = js(&json!({ "ok": true, "value": { "saved": "SO-1001", "hits": [1, 2, 3] } }));
    let by_text = surface::exec_outcome_from_callback(Ok(text_in(&result)));
    assert_eq!(by_text, exec_outcome_from_json(&swb_in(&result)));
    compare(
        "execute result, in",
        500,
        || drop(surface::exec_outcome_from_callback(Ok(text_in(&result)))),
        || drop(exec_outcome_from_json(&swb_in(&result))),
    );
}

#[wasm_bindgen_test]
fn both_transports_hand_back_the_same_objects_with_keys_in_order() {
    let input = json!({ "record": "SO-1001", "note": "周五前回电", "z": 1, "a": [true, null] });
    for out in [text_out(&input), swb_out(&input)] {
        let keys = js_sys::Object::keys(out.unchecked_ref::<js_sys::Object>());
        let keys: Vec<String> = keys.iter().map(|k| k.as_string().unwrap()).collect();
        assert_eq!(keys, ["record", "note", "z", "a"]);
        assert_eq!(text_in(&out), input.to_string());
    }
    // A describe-sized answer: 8 records of 3 fields and the capability list.
    let records: Vec<Value> = (0..8)
        .map(|i| json!({ "id": format!("SO-{i}"), "kind": "order", "fields": { "customer": "Ada Lovelace", "total": "12.00", "note": "" }, "state": "open", "region": "list" }))
        .collect();
    let answer = json!({ "protocol": "pling.surface/0.1", "id": "req-1", "ok": true,
        "result": { "app": "orders", "capabilities": declarations(5), "records": records, "status": ["3 orders"] } });
    assert_eq!(text_in(&text_out(&answer)), text_in(&swb_out(&answer)));
    compare(
        "describe answer, out",
        100,
        || drop(text_out(&answer)),
        || drop(swb_out(&answer)),
    );
    compare(
        "invoke input, out",
        500,
        || drop(text_out(&input)),
        || drop(swb_out(&input)),
    );
}
