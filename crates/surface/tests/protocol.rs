//! Every protocol error (`ok: false`) and the order the checks run in.

mod common;

use common::*;
use serde_json::{json, Value};
use surface::{RateLimit, Session, SurfaceConfig, REPLAY_MEMORY};

fn base(method: &str) -> Value {
    json!({ "protocol": "pling.surface/0.1", "id": "r", "method": method })
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

fn without(mut v: Value, key: &str) -> Value {
    v.as_object_mut().expect("object").remove(key);
    v
}

#[test]
fn invalid_request_shapes() {
    let cases: Vec<(Value, &str)> = vec![
        (json!("describe"), "JSON object"),
        (json!([1, 2]), "JSON object"),
        (json!(null), "JSON object"),
        (
            with(base("describe"), "protocol", json!("pling.surface/0.2")),
            "pling.surface/0.2",
        ),
        (without(base("describe"), "protocol"), "protocol"),
        (with(base("describe"), "protocol", json!(1)), "protocol"),
        (without(base("describe"), "id"), "id"),
        (with(base("describe"), "id", json!(7)), "id"),
        (with(base("describe"), "id", json!("")), "id"),
        (with(base("describe"), "id", json!("x".repeat(257))), "256"),
        (without(base("describe"), "method"), "method"),
        (with(base("describe"), "method", json!("click")), "click"),
        (
            with(base("describe"), "method", json!(["describe"])),
            "method",
        ),
        (with(base("describe"), "input", json!([])), "input"),
        (with(base("describe"), "input", json!(null)), "input"),
        (
            with(
                base("describe"),
                "input",
                json!({ "record": "SO-1", "limit": 2 }),
            ),
            "input.record",
        ),
        (
            with(
                base("describe"),
                "input",
                json!({ "record": "SO-1", "offset": 0 }),
            ),
            "input.record",
        ),
        (
            with(base("describe"), "input", json!({ "limit": -1 })),
            "input.limit",
        ),
        (
            with(base("describe"), "input", json!({ "limit": 2.5 })),
            "input.limit",
        ),
        (
            with(base("describe"), "input", json!({ "limit": "8" })),
            "input.limit",
        ),
        (
            with(base("describe"), "input", json!({ "offset": true })),
            "input.offset",
        ),
        (
            with(base("describe"), "input", json!({ "record": 5 })),
            "input.record",
        ),
        (
            with(base("describe"), "input", json!({ "record": ["a", 5] })),
            "input.record",
        ),
        (
            with(
                base("describe"),
                "input",
                json!({ "record": vec!["a"; 101] }),
            ),
            "at most 100",
        ),
        (
            with(base("describe"), "input", json!({ "capabilities": "some" })),
            "input.capabilities",
        ),
        (base("invoke"), "capability"),
        (with(base("invoke"), "capability", json!(3)), "capability"),
        (with(base("invoke"), "capability", json!("")), "capability"),
        (
            with(base("invoke"), "capability", json!("x".repeat(5000))),
            "at most 4096 characters",
        ),
        (
            with(
                base("describe"),
                "input",
                json!({ "offset": 9_007_199_254_740_993u64 }),
            ),
            "at most 9007199254740992",
        ),
        (
            with(base("describe"), "input", json!({ "limit": 1e16 })),
            "at most 9007199254740992",
        ),
        (
            with(
                with(base("invoke"), "capability", json!("orders.search")),
                "input",
                json!("q"),
            ),
            "input",
        ),
    ];
    let fx = Fixture::orders();
    for (request, needle) in cases {
        let r = fx.send(&request);
        assert_eq!(protocol_code(&r), "INVALID_REQUEST", "{request}");
        assert!(message(&r).contains(needle), "{request} → {}", message(&r));
    }
    // None of those reached the page or the executor.
    assert!(fx.calls.borrow().is_empty());
}

#[test]
fn id_is_echoed_or_empty() {
    let fx = Fixture::orders();
    let r = fx.send(&json!({ "protocol": "nope", "id": "abc", "method": "describe" }));
    assert_eq!(r["id"], "abc");
    let r = fx.send(&json!({ "protocol": "pling.surface/0.1", "id": 12, "method": "describe" }));
    assert_eq!(r["id"], "");
}

#[test]
fn integral_floats_are_integers() {
    // A JS bridge may hand numbers over as f64.
    let fx = Fixture::orders();
    let r = fx.describe(json!({ "limit": 2.0, "offset": 1.0 }));
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 1, "limit": 2, "total": 4 })
    );
}

#[test]
fn counts_up_to_2_pow_53_are_echoed_exactly() {
    let fx = Fixture::orders();
    for (offset, limit) in [
        (json!(4_294_967_296u64), json!(9_007_199_254_740_992u64)),
        (json!(9_007_199_254_740_992.0), json!(4_294_967_296.0)),
    ] {
        let r = fx.describe(json!({ "offset": offset, "limit": limit }));
        let window = &r["result"]["recordWindow"];
        assert_eq!(window["offset"].as_f64(), offset.as_f64(), "{r}");
        assert_eq!(window["limit"], 100, "clamped: {r}");
        assert_eq!(r["result"]["records"], json!([]));
    }
    let capability = "x".repeat(4096);
    let r = fx.invoke(&capability, json!({}));
    assert_eq!(
        protocol_code(&r),
        "CAPABILITY_NOT_EXPOSED",
        "4096 is within the bound"
    );
}

#[test]
fn shape_is_checked_before_session() {
    let fx = Fixture::orders();
    *fx.session.borrow_mut() = None;
    let r = fx.send(&with(base("describe"), "method", json!("eval")));
    assert_eq!(protocol_code(&r), "INVALID_REQUEST");
    // A malformed request never asks for the session (which may hang);
    // a well-formed one asks once.
    fx.send(&json!(null));
    fx.send(&with(base("invoke"), "capability", json!("")));
    assert_eq!(fx.session_reads.get(), 0);
    assert_eq!(
        protocol_code(&fx.send(&base("describe"))),
        "SESSION_EXPIRED"
    );
    assert_eq!(fx.session_reads.get(), 1);
}

#[test]
fn session_expiry_is_inclusive_of_the_deadline() {
    let fx = Fixture::orders();
    *fx.session.borrow_mut() = Some(Session {
        expires_at: Some(NOW),
        ..seed_session()
    });
    assert_eq!(fx.describe(json!({}))["ok"], true);
    fx.clock.0.set(NOW + 1.0);
    let r = fx.describe(json!({}));
    assert_eq!(protocol_code(&r), "SESSION_EXPIRED");
    // The times, never the session id (it may be a bearer credential).
    let expected = format!("expired at {NOW} (now {})", NOW + 1.0);
    assert!(message(&r).contains(&expected), "{}", message(&r));
    assert!(!message(&r).contains("sess-1"), "{}", message(&r));
    // A broken clock fails closed.
    fx.clock.0.set(f64::NAN);
    assert_eq!(protocol_code(&fx.describe(json!({}))), "SESSION_EXPIRED");
}

#[test]
fn revoked_wins_over_expired_and_session_wins_over_replay() {
    let fx = Fixture::orders();
    let request = with(base("describe"), "id", json!("once"));
    assert_eq!(fx.send(&request)["ok"], true);
    *fx.session.borrow_mut() = Some(Session {
        revoked: true,
        expires_at: Some(NOW - 5.0),
        ..seed_session()
    });
    let r = fx.send(&request);
    assert_eq!(protocol_code(&r), "SESSION_REVOKED");
    assert!(!message(&r).contains("sess-1"), "{}", message(&r));
}

#[test]
fn replay_is_detected_per_session_for_both_methods() {
    let fx = Fixture::orders();
    let describe = with(base("describe"), "id", json!("dup"));
    assert_eq!(fx.send(&describe)["ok"], true);
    let r = fx.send(&describe);
    assert_eq!(protocol_code(&r), "REPLAY_DETECTED");
    assert!(message(&r).contains("dup"));
    // Same id as an invoke: still a replay.
    let invoke = json!({ "protocol": "pling.surface/0.1", "id": "dup", "method": "invoke",
                         "capability": "orders.search", "input": { "query": "王" } });
    assert_eq!(protocol_code(&fx.send(&invoke)), "REPLAY_DETECTED");
    assert!(fx.calls.borrow().is_empty(), "a replay never executes");
    // Another session has its own memory.
    *fx.session.borrow_mut() = Some(Session {
        id: "sess-2".into(),
        ..seed_session()
    });
    assert_eq!(fx.send(&describe)["ok"], true);
}

#[test]
fn replay_memory_is_bounded_fifo() {
    let fx = Fixture::orders();
    let first = with(base("describe"), "id", json!("first"));
    assert_eq!(fx.send(&first)["ok"], true);
    for i in 0..REPLAY_MEMORY - 1 {
        assert_eq!(
            fx.send(&with(base("describe"), "id", json!(format!("n{i}"))))["ok"],
            true
        );
    }
    // Still remembered: exactly REPLAY_MEMORY ids so far.
    assert_eq!(protocol_code(&fx.send(&first)), "REPLAY_DETECTED");
    assert_eq!(
        fx.send(&with(base("describe"), "id", json!("overflow")))["ok"],
        true
    );
    // The oldest fell out; a newer one is still caught.
    assert_eq!(fx.send(&first)["ok"], true);
    assert_eq!(
        protocol_code(&fx.send(&with(base("describe"), "id", json!("n5")))),
        "REPLAY_DETECTED"
    );
}

#[test]
fn rate_limit_sliding_window_with_retry_hint() {
    let mut config = SurfaceConfig::new("orders", ["orders.search"]);
    config.rate_limit = RateLimit {
        invokes: 3,
        per_ms: 1000.0,
    };
    let fx = Fixture::with(config, seed_registry(), seed_page());
    let search = |fx: &Fixture| fx.invoke("orders.search", json!({ "query": "王" }));
    assert_eq!(search(&fx)["ok"], true); // t = 0
    fx.clock.0.set(NOW + 400.0);
    assert_eq!(search(&fx)["ok"], true);
    assert_eq!(search(&fx)["ok"], true);
    fx.clock.0.set(NOW + 700.0);
    let r = search(&fx);
    assert_eq!(protocol_code(&r), "RATE_LIMITED");
    assert_eq!(r["error"]["retryAfterMs"], 300.0);
    assert!(message(&r).contains("300 ms"), "{}", message(&r));
    // Describe is never rate limited.
    assert_eq!(fx.describe(json!({}))["ok"], true);
    // Once the first invoke leaves the window, one more passes.
    fx.clock.0.set(NOW + 1000.0);
    assert_eq!(search(&fx)["ok"], true);
    let r = search(&fx);
    assert_eq!(protocol_code(&r), "RATE_LIMITED");
    assert_eq!(r["error"]["retryAfterMs"], 400.0);
    assert_eq!(fx.calls.borrow().len(), 4);
}

#[test]
fn default_rate_limit_is_30_per_10s() {
    assert_eq!(
        RateLimit::default(),
        RateLimit {
            invokes: 30,
            per_ms: 10_000.0
        }
    );
    let fx = Fixture::orders();
    for _ in 0..30 {
        assert_eq!(
            fx.invoke("orders.search", json!({ "query": "q" }))["ok"],
            true
        );
    }
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(protocol_code(&r), "RATE_LIMITED");
    assert_eq!(r["error"]["retryAfterMs"], 10_000.0);
}

#[test]
fn replay_is_checked_before_rate_and_rate_before_exposure() {
    let mut config = SurfaceConfig::new("orders", ["orders.search"]);
    config.rate_limit = RateLimit {
        invokes: 1,
        per_ms: 1000.0,
    };
    let fx = Fixture::with(config, seed_registry(), seed_page());
    let first = json!({ "protocol": "pling.surface/0.1", "id": "a", "method": "invoke",
                        "capability": "orders.search", "input": { "query": "q" } });
    assert_eq!(fx.send(&first)["ok"], true);
    assert_eq!(protocol_code(&fx.send(&first)), "REPLAY_DETECTED");
    // Over the limit and not exposed: the rate check speaks first.
    let r = fx.invoke("orders.refund", json!({}));
    assert_eq!(protocol_code(&r), "RATE_LIMITED");
}

#[test]
fn the_registry_is_read_only_after_every_protocol_check() {
    let mut config = SurfaceConfig::new("orders", ["orders.search"]);
    config.rate_limit = RateLimit {
        invokes: 2,
        per_ms: 1000.0,
    };
    let fx = Fixture::with(config, seed_registry(), seed_page());
    let reads = || fx.registry_reads.get();
    let first = json!({ "protocol": "pling.surface/0.1", "id": "a", "method": "invoke",
                        "capability": "orders.search", "input": { "query": "q" } });
    assert_eq!(fx.send(&first)["ok"], true);
    // Once for the checks, once more for the `after` evidence.
    assert_eq!(reads(), 2);
    assert_eq!(protocol_code(&fx.send(&first)), "REPLAY_DETECTED");
    assert_eq!(
        protocol_code(&fx.invoke("orders.refund", json!({}))),
        "CAPABILITY_NOT_EXPOSED"
    );
    assert_eq!(
        protocol_code(&fx.invoke("orders.search", json!({ "query": "q" }))),
        "RATE_LIMITED"
    );
    *fx.session.borrow_mut() = None;
    assert_eq!(
        protocol_code(&fx.send(&base("describe"))),
        "SESSION_EXPIRED"
    );
    assert_eq!(reads(), 2, "no protocol refusal read the registry");
}

#[test]
fn exposure_needs_both_expose_and_scope() {
    let fx = Fixture::orders();
    let set_scope = |scope: &[&str]| {
        fx.session.borrow_mut().as_mut().expect("session").scope =
            scope.iter().map(|s| s.to_string()).collect();
    };
    set_scope(&["orders.search"]);
    assert_eq!(
        fx.invoke("orders.search", json!({ "query": "q" }))["ok"],
        true
    );
    set_scope(&["orders.s*"]);
    assert_eq!(
        fx.invoke("orders.search", json!({ "query": "q" }))["ok"],
        true
    );
    set_scope(&["*"]);
    // Scope allows everything, but the site did not expose it.
    assert_eq!(
        protocol_code(&fx.invoke("orders.refund", json!({}))),
        "CAPABILITY_NOT_EXPOSED"
    );
    set_scope(&[]);
    assert_eq!(
        protocol_code(&fx.invoke("orders.search", json!({ "query": "q" }))),
        "CAPABILITY_NOT_EXPOSED"
    );
    // `*` only counts at the end.
    set_scope(&["orders.*.x", "orders.search.*"]);
    assert_eq!(
        protocol_code(&fx.invoke("orders.search", json!({ "query": "q" }))),
        "CAPABILITY_NOT_EXPOSED"
    );
}

#[test]
fn unreadable_page_is_an_internal_error_for_describe() {
    let fx = Fixture::orders();
    fx.page.broken.set(true);
    let r = fx.describe(json!({}));
    assert_eq!(protocol_code(&r), "INTERNAL_ERROR");
    assert!(message(&r).contains("root element is gone"));
}

#[test]
fn session_from_json() {
    assert_eq!(Session::from_json(&json!(null)), Ok(None));
    let s = Session::from_json(
        &json!({ "id": "s", "scope": ["a.*"], "expiresAt": 5, "revoked": false }),
    )
    .expect("valid")
    .expect("some");
    assert_eq!(s.scope, vec!["a.*"]);
    assert_eq!(s.expires_at, Some(5.0));
    assert!(Session::from_json(&json!({ "scope": [] })).is_err());
    assert!(Session::from_json(&json!({ "id": "s", "scope": [1] })).is_err());
    assert!(Session::from_json(&json!({ "id": "s", "expiresAt": "soon" })).is_err());
    assert!(Session::from_json(&json!({ "id": "s", "revoked": "yes" })).is_err());
    assert!(Session::from_json(&json!("s")).is_err());
    // Missing scope: nothing is in scope (fail closed).
    let s = Session::from_json(&json!({ "id": "s" }))
        .expect("valid")
        .expect("some");
    assert!(!s.allows("orders.search"));
}

#[test]
fn config_from_json() {
    let c = SurfaceConfig::from_json(&json!({
        "app": "orders", "expose": ["a"], "recordLimit": 20, "rateLimit": { "invokes": 5, "perMs": 1000 }
    }))
    .expect("valid");
    assert_eq!(c.record_limit, 20);
    assert_eq!(
        c.rate_limit,
        RateLimit {
            invokes: 5,
            per_ms: 1000.0
        }
    );
    let d = SurfaceConfig::from_json(&json!({ "app": "orders", "expose": [] })).expect("valid");
    assert_eq!(d.record_limit, 8);
    assert_eq!(d.rate_limit, RateLimit::default());
    for bad in [
        json!({ "expose": [] }),
        json!({ "app": "a", "expose": "x" }),
        json!({ "app": "a", "expose": [1] }),
        json!({ "app": "a", "expose": [], "recordLimit": 0 }),
        json!({ "app": "a", "expose": [], "recordLimit": 101 }),
        json!({ "app": "a", "expose": [], "rateLimit": { "invokes": 0, "perMs": 1 } }),
        json!({ "app": "a", "expose": [], "rateLimit": { "invokes": 1, "perMs": -1 } }),
        json!({ "app": "a", "expose": [], "rateLimit": 3 }),
    ] {
        assert!(SurfaceConfig::from_json(&bad).is_err(), "{bad}");
    }
}
