//! invoke: business checks in order, execution, expectation and evidence.

mod common;

use common::*;
use serde_json::{json, Value};
use surface::{exec_outcome_from_json, BusinessError, Region, Registry, Session, SurfaceConfig};

fn note(record: &str, note: Value) -> Value {
    json!({ "record": record, "note": note })
}

#[test]
fn success_returns_value_and_after_evidence() {
    let fx = Fixture::orders();
    let r = fx.invoke(
        "orders.update_note@order",
        note("SO-1001", json!("周五前回电")),
    );
    assert_eq!(r["ok"], true);
    let result = &r["result"];
    assert!(result.get("error").is_none(), "{r}");
    assert_eq!(
        result["value"],
        json!({ "done": "orders.update_note@order" })
    );
    assert_eq!(
        result["after"],
        json!({
            "capabilities": [],
            "records": [{ "id": "SO-1001", "kind": "order", "fields": { "customer": "王芳", "note": "周五前回电" },
                          "state": "open", "region": "list" }],
            "status": ["备注已保存"]
        })
    );
    // The executor got the validated input, record included.
    assert_eq!(
        *fx.calls.borrow(),
        vec![(
            "orders.update_note@order".to_string(),
            note("SO-1001", json!("周五前回电"))
        )]
    );
}

#[test]
fn after_reports_capabilities_that_appeared_and_new_records() {
    let fx = Fixture::orders();
    // orders.export is exposed; opening an order registers it and adds a record.
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, registry| {
        *registry = Registry::from_json(&json!([
            { "id": "orders.search", "title": "搜索订单" },
            { "id": "orders.open", "title": "打开订单" },
            { "id": "orders.export", "title": "导出" },
            { "id": "orders.refund", "title": "退款" }
        ]));
        let mut added = obs.records[0].clone();
        added.id = "SO-2000".into();
        obs.records.push(added);
        obs.records[2].state = Some("closed".into());
        obs.status = vec!["已打开".into()];
        Ok(None)
    });
    let r = fx.invoke("orders.open", json!({ "order": "SO-1001" }));
    let result = &r["result"];
    assert!(result.get("value").is_none());
    assert_eq!(result["after"]["capabilities"], json!(["orders.export"]));
    let changed: Vec<&str> = result["after"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(changed, ["SO-1003", "SO-2000"]);
    assert_eq!(result["after"]["status"], json!(["已打开"]));
}

#[test]
fn after_lists_a_record_whose_region_changed() {
    let fx = Fixture::orders();
    // Archiving moves SO-1001 into the inactive archive: fields and state
    // stay, but its row actions are now unavailable.
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.records[0].region = Some("archive".into());
        Ok(None)
    });
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(
        r["result"]["after"]["records"],
        json!([{ "id": "SO-1001", "kind": "order", "fields": { "customer": "王芳", "note": "" },
                 "state": "open", "region": "archive" }])
    );
    // Out of every region is a change too.
    let fx = Fixture::orders();
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.records[1].region = None;
        Ok(None)
    });
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(r["result"]["after"]["records"][0]["id"], "SO-1002", "{r}");
}

#[test]
fn after_is_bounded_by_record_limit() {
    let mut config = SurfaceConfig::new("orders", ["orders.search"]);
    config.record_limit = 2;
    let fx = Fixture::with(config, seed_registry(), seed_page());
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        for r in &mut obs.records {
            r.state = Some("touched".into());
        }
        Ok(None)
    });
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(
        r["result"]["after"]["records"].as_array().map(Vec::len),
        Some(2)
    );
    assert_eq!(r["result"]["after"]["recordsTruncated"], true);
}

#[test]
fn no_after_when_the_document_changed() {
    let fx = Fixture::orders();
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.document_id += 1;
        Ok(Some(json!("navigated")))
    });
    let r = fx.invoke("orders.open", json!({ "order": "SO-1001" }));
    assert_eq!(r["result"], json!({ "value": "navigated" }));
}

#[test]
fn no_after_when_the_page_cannot_be_read() {
    let fx = Fixture::orders();
    fx.page.broken.set(true);
    // A page-level capability still runs; there is simply no evidence.
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(r["result"], json!({ "value": { "done": "orders.search" } }));
    // A row action cannot find its record: unavailable, with the cause.
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert!(message(&r).contains("root element is gone"));
}

#[test]
fn not_found_comes_before_schema() {
    let fx = Fixture::orders();
    let r = fx.invoke("orders.export", json!({ "anything": [1, 2] }));
    assert_eq!(business_code(&r), "ACTION_NOT_FOUND");
}

#[test]
fn invalid_params_name_the_path() {
    let fx = Fixture::orders();
    let cases = [
        (
            "orders.search",
            json!({}),
            "/query: required property is missing",
        ),
        (
            "orders.search",
            json!({ "query": "" }),
            "/query: expected at least 1 characters, got 0",
        ),
        (
            "orders.search",
            json!({ "query": "q", "extra": 1 }),
            "/extra: property is not allowed",
        ),
        (
            "orders.update_note@order",
            json!({ "note": "x" }),
            "/record: required property is missing",
        ),
        (
            "orders.update_note@order",
            json!({ "record": 1002, "note": "x" }),
            "/record: expected a record id string",
        ),
        (
            "orders.update_note@order",
            json!({ "record": "SO-1001" }),
            "/note: required property is missing",
        ),
        (
            "orders.update_note@order",
            note("SO-1001", json!("长".repeat(201))),
            "/note: expected at most 200 characters, got 201",
        ),
    ];
    for (capability, input, needle) in cases {
        let r = fx.invoke(capability, input.clone());
        assert_eq!(business_code(&r), "INVALID_PARAMS", "{input}");
        assert!(message(&r).contains(needle), "{input}: {}", message(&r));
        assert!(message(&r).contains(capability));
    }
    // 200 characters of CJK text is fine: lengths count characters, not bytes.
    let r = fx.invoke(
        "orders.update_note@order",
        note("SO-1001", json!("长".repeat(200))),
    );
    assert!(r["result"].get("error").is_none(), "{r}");
}

#[test]
fn schema_is_checked_before_availability() {
    let fx = Fixture::orders();
    // SO-1002 is locked, but the input is wrong first.
    let r = fx.invoke("orders.update_note@order", note("SO-1002", json!(5)));
    assert_eq!(business_code(&r), "INVALID_PARAMS");
}

#[test]
fn unavailable_cases_with_clear_messages() {
    let fx = Fixture::orders();
    let r = fx.invoke("orders.update_note@order", note("SO-4040", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert!(message(&r).contains("SO-4040"), "{}", message(&r));

    let r = fx.invoke("orders.update_note@order", note("SO-1009", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert!(
        message(&r).contains("archive") && message(&r).contains("not active"),
        "{}",
        message(&r)
    );

    fx.page.obs.borrow_mut().records[0].kind = "customer".into();
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert!(message(&r).contains("`customer`"), "{}", message(&r));

    fx.page.obs.borrow_mut().actions[2].enabled = false; // SO-1003, no reason given
    let r = fx.invoke("orders.update_note@order", note("SO-1003", json!("x")));
    assert_eq!(
        message(&r),
        "`orders.update_note@order` is disabled for record `SO-1003`"
    );

    fx.page.obs.borrow_mut().actions.push(surface::ActionState {
        capability: "orders.search".into(),
        record: None,
        enabled: true,
        visible: true,
        unavailable_reason: Some("搜索服务维护中".into()),
    });
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert_eq!(message(&r), "搜索服务维护中");
    assert!(fx.calls.borrow().is_empty());
}

#[test]
fn record_in_a_region_the_page_does_not_list_is_unavailable() {
    let fx = Fixture::orders();
    fx.page.obs.borrow_mut().records[0].region = Some("ghost".into());
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    // No region at all: fine.
    fx.page.obs.borrow_mut().records[0].region = None;
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert!(r["result"].get("error").is_none(), "{r}");
}

#[test]
fn a_region_id_claimed_twice_is_active_only_if_every_claimant_is() {
    let fx = Fixture::orders();
    // A hidden second "list" region: its records must not pass as active.
    fx.page.obs.borrow_mut().regions.push(Region {
        id: "list".into(),
        title: "hidden copy".into(),
        active: false,
    });
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert!(
        message(&r).contains("`list`, which is not active"),
        "{}",
        message(&r)
    );
    // describe says the same of both.
    let regions = &fx.describe(json!({}))["result"]["regions"];
    assert_eq!(
        regions[0],
        json!({ "id": "list", "title": "订单列表", "active": false })
    );
    assert_eq!(regions[2]["active"], false);
    assert!(fx.calls.borrow().is_empty());
}

#[test]
fn availability_is_checked_before_permission() {
    let fx = Fixture::orders();
    fx.page.obs.borrow_mut().actions[4].unavailable_reason = Some("已发货，不能取消".into());
    let r = fx.invoke("orders.cancel@order", json!({ "record": "SO-1001" }));
    assert_eq!(message(&r), "已发货，不能取消");
    assert!(
        fx.confirm.asked.borrow().is_empty(),
        "nobody is asked about an unavailable action"
    );
}

#[test]
fn consent_cannot_be_self_granted() {
    let fx = Fixture::orders();
    for input in [
        json!({ "record": "SO-1001", "confirm": true }),
        json!({ "record": "SO-1001", "approved": true, "consent": "yes" }),
    ] {
        let r = fx.invoke("orders.cancel@order", input);
        assert_eq!(business_code(&r), "PERMISSION_DENIED");
        assert!(message(&r).contains("no confirm hook"), "{}", message(&r));
    }
    assert!(fx.calls.borrow().is_empty());
}

#[test]
fn confirm_hook_decides_high_risk() {
    let mut fx = Fixture::orders();
    fx.confirm.configured = true;
    fx.confirm.answer = false;
    let r = fx.invoke("orders.cancel@order", json!({ "record": "SO-1001" }));
    assert_eq!(business_code(&r), "PERMISSION_DENIED");
    assert!(message(&r).contains("declined"));
    assert_eq!(
        *fx.confirm.asked.borrow(),
        vec![(
            "orders.cancel@order".to_string(),
            json!({ "record": "SO-1001" })
        )]
    );
    assert!(fx.calls.borrow().is_empty());

    fx.confirm.answer = true;
    let r = fx.invoke("orders.cancel@order", json!({ "record": "SO-1001" }));
    assert_eq!(
        r["result"]["value"],
        json!({ "done": "orders.cancel@order" })
    );
    // Low-risk capabilities never ask.
    fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(fx.confirm.asked.borrow().len(), 2);
}

/// A fixture whose person approves `orders.cancel@order` after `meanwhile`
/// changed the session or the page.
fn approving(meanwhile: impl Fn(&Fixture) + 'static) -> Fixture {
    let mut fx = Fixture::orders();
    fx.confirm.configured = true;
    fx.confirm.answer = true;
    *fx.confirm.meanwhile.borrow_mut() = Some(Box::new(meanwhile));
    fx
}

fn cancel(fx: &Fixture, record: &str) -> Value {
    fx.invoke("orders.cancel@order", json!({ "record": record }))
}

#[test]
fn session_is_checked_again_after_approval() {
    type Change = Box<dyn Fn(&mut Session)>;
    let cases: Vec<(Change, &str)> = vec![
        (Box::new(|s| s.revoked = true), "SESSION_REVOKED"),
        (
            Box::new(|s| s.expires_at = Some(NOW - 1.0)),
            "SESSION_EXPIRED",
        ),
        (Box::new(|s| s.id = "sess-2".into()), "SESSION_EXPIRED"),
        (
            Box::new(|s| s.scope = vec!["orders.search".into()]),
            "CAPABILITY_NOT_EXPOSED",
        ),
    ];
    for (change, code) in cases {
        let fx = approving(move |fx| {
            if let Some(s) = fx.session.borrow_mut().as_mut() {
                change(s);
            }
        });
        let r = cancel(&fx, "SO-1001");
        assert_eq!(protocol_code(&r), code, "{r}");
        assert!(!message(&r).contains("sess-"), "{}", message(&r));
        assert!(fx.calls.borrow().is_empty(), "nothing ran: {r}");
    }
    let fx = approving(|fx| *fx.session.borrow_mut() = None);
    assert_eq!(protocol_code(&cancel(&fx, "SO-1001")), "SESSION_EXPIRED");
    assert!(fx.calls.borrow().is_empty());
    // Unchanged: it runs.
    let fx = approving(|_| {});
    assert_eq!(cancel(&fx, "SO-1001")["ok"], true);
    assert_eq!(fx.calls.borrow().len(), 1);
}

#[test]
fn availability_is_checked_again_after_approval() {
    let lock = |fx: &Fixture| {
        let mut obs = fx.page.obs.borrow_mut();
        let a = obs
            .actions
            .iter_mut()
            .find(|a| a.capability == "orders.cancel@order");
        a.expect("the cancel control").unavailable_reason = Some("已退款".into());
    };
    let hide = |fx: &Fixture| fx.page.obs.borrow_mut().regions[0].active = false;
    let drop = |fx: &Fixture| {
        fx.page.obs.borrow_mut().records.remove(0);
    };
    let cases: Vec<(Meanwhile, &str)> = vec![
        (Box::new(lock), "已退款"),
        (Box::new(hide), "not active"),
        (Box::new(drop), "no `order` record `SO-1001`"),
    ];
    for (meanwhile, reason) in cases {
        let fx = approving(meanwhile);
        let r = cancel(&fx, "SO-1001");
        assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
        assert!(message(&r).contains(reason), "{}", message(&r));
        assert!(fx.calls.borrow().is_empty(), "nothing ran: {r}");
    }
}

#[test]
fn evidence_after_approval_is_measured_from_the_page_read_after_approval() {
    // A note changed while the person was asked is not the action's doing.
    let fx = approving(|fx| {
        let mut obs = fx.page.obs.borrow_mut();
        obs.records[1]
            .fields
            .insert("note".into(), json!("meanwhile"));
    });
    let r = cancel(&fx, "SO-1001");
    assert_eq!(r["result"]["after"]["records"], json!([]), "{r}");
}

#[test]
fn executor_business_errors_pass_through() {
    let fx = Fixture::orders();
    *fx.effect.borrow_mut() = Box::new(|_, _, _, _| {
        Err(BusinessError::coded(
            "PERMISSION_DENIED",
            "后端拒绝：额度不足".into(),
        ))
    });
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(
        r["result"],
        json!({ "error": { "code": "PERMISSION_DENIED", "message": "后端拒绝：额度不足" } })
    );
    // No expectation wait after a failed execution.
    assert!(fx.page.waits.borrow().is_empty());
}

#[test]
fn executor_protocol_codes_refuse_the_exchange_with_the_pages_message() {
    // Baseline §5 puts these codes on the `ok: false` layer only: a backend
    // that revoked the session or rate limited it speaks of the exchange.
    for code in [
        "SESSION_EXPIRED",
        "SESSION_REVOKED",
        "RATE_LIMITED",
        "REPLAY_DETECTED",
        "INVALID_REQUEST",
        "CAPABILITY_NOT_EXPOSED",
        "INTERNAL_ERROR",
    ] {
        let fx = Fixture::orders();
        *fx.effect.borrow_mut() = Box::new(move |_, _, obs, _| {
            obs.status = vec!["备注已保存".into()];
            Err(BusinessError::coded(code, format!("backend says {code}")))
        });
        let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
        assert_eq!(protocol_code(&r), code, "{r}");
        assert_eq!(message(&r), format!("backend says {code}"));
        assert!(r.get("result").is_none(), "no result, so no `after`: {r}");
        assert_eq!(fx.calls.borrow().len(), 1, "execute ran once");
        assert!(fx.page.waits.borrow().is_empty(), "no expectation wait");
    }
    // EXECUTION_FAILED is a business code (docs/surface.md): it stays there.
    let fx = Fixture::orders();
    *fx.effect.borrow_mut() =
        Box::new(|_, _, _, _| Err(BusinessError::coded("EXECUTION_FAILED", "m".into())));
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(business_code(&r), "EXECUTION_FAILED");
    // A high-risk action approved, then refused by the backend, alike.
    let fx = approving(|_| {});
    *fx.effect.borrow_mut() =
        Box::new(|_, _, _, _| Err(BusinessError::coded("SESSION_REVOKED", String::new())));
    let r = cancel(&fx, "SO-1001");
    assert_eq!(protocol_code(&r), "SESSION_REVOKED");
    assert_eq!(message(&r), "the page's execute answered SESSION_REVOKED");
}

#[test]
fn expectation_uses_declared_within_and_passes_when_text_shows() {
    let fx = Fixture::with(
        SurfaceConfig::new("orders", ["orders.save"]),
        json!([{ "id": "orders.save", "title": "保存", "expect": { "text": "已保存", "within": 150 } }]),
        seed_page(),
    );
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.feedback = vec![surface::Feedback {
            text: "草稿已保存".into(),
            level: None,
        }];
        Ok(None)
    });
    let r = fx.invoke("orders.save", json!({}));
    assert!(r["result"].get("error").is_none(), "{r}");
    assert_eq!(*fx.page.waits.borrow(), vec![("已保存".to_string(), 150.0)]);
}

#[test]
fn expected_text_is_read_as_page_text_is() {
    // Page text is whitespace-collapsed and trimmed; so is the declared text.
    let fx = Fixture::with(
        SurfaceConfig::new("orders", ["orders.save"]),
        json!([{ "id": "orders.save", "title": "保存", "expect": { "text": " 3 \n  orders已保存\t" } }]),
        seed_page(),
    );
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.status = vec!["3 orders已保存".into()];
        Ok(None)
    });
    let r = fx.invoke("orders.save", json!({}));
    assert!(r["result"].get("error").is_none(), "{r}");
    assert_eq!(fx.page.waits.borrow()[0].0, "3 orders已保存");
    // Longer than page text is read to: it could never show, so the
    // declaration is refused (and says why) rather than always failing.
    let long = format!("{} {}", "x".repeat(1000), "y");
    let registry =
        Registry::from_json(&json!([{ "id": "a", "title": "A", "expect": { "text": long } }]));
    assert!(registry.declarations.is_empty());
    let warning = registry.warning().unwrap_or_default();
    assert!(
        warning.contains("longer than the 1000 characters"),
        "{warning}"
    );
    let fits = format!("{}  ", "x".repeat(1000));
    let registry =
        Registry::from_json(&json!([{ "id": "a", "title": "A", "expect": { "text": fits } }]));
    assert_eq!(registry.declarations.len(), 1);
    // Counted as JS counts length: 501 emoji are 1,002 UTF-16 units, more
    // than page text keeps; 500 fit.
    for (n, kept) in [(501, 0), (500, 1)] {
        let registry = Registry::from_json(
            &json!([{ "id": "a", "title": "A", "expect": { "text": "😀".repeat(n) } }]),
        );
        assert_eq!(registry.declarations.len(), kept, "{n} emoji");
    }
}

#[test]
fn executor_result_json_is_read_strictly() {
    assert_eq!(exec_outcome_from_json(&json!({ "ok": true })), Ok(None));
    assert_eq!(
        exec_outcome_from_json(&json!({ "ok": true, "value": 3 })),
        Ok(Some(json!(3)))
    );
    assert_eq!(
        exec_outcome_from_json(&json!({ "ok": false, "error": { "code": "X", "message": "m" } })),
        Err(BusinessError::coded("X", "m".into()))
    );
    for bad in [
        json!(null),
        json!({}),
        json!({ "ok": "yes" }),
        json!({ "ok": false }),
        json!({ "ok": false, "error": { "code": "" } }),
    ] {
        let err = exec_outcome_from_json(&bad).expect_err("malformed");
        assert_eq!(err.code, "EXECUTION_FAILED", "{bad}");
    }
}

#[test]
fn concurrent_handles_do_not_conflict() {
    // Two invokes in flight at once: state is never borrowed across an await.
    let fx = Fixture::orders();
    let a = json!({ "protocol": "pling.surface/0.1", "id": "a", "method": "invoke", "capability": "orders.search", "input": { "query": "1" } });
    let b = json!({ "protocol": "pling.surface/0.1", "id": "b", "method": "invoke", "capability": "orders.search", "input": { "query": "2" } });
    let (ra, rb) = block_on(join(
        fx.surface.handle_value(&a, &fx, &fx.page),
        fx.surface.handle_value(&b, &fx, &fx.page),
    ));
    let (ra, rb) = (
        serde_json::to_value(ra).unwrap(),
        serde_json::to_value(rb).unwrap(),
    );
    assert_eq!(ra["ok"], true);
    assert_eq!(rb["ok"], true);
}

/// Polls two futures alternately until both finish.
async fn join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    use std::task::Poll;
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(move |cx| {
        if ra.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        if ra.is_some() && rb.is_some() {
            Poll::Ready((ra.take().expect("a"), rb.take().expect("b")))
        } else {
            Poll::Pending
        }
    })
    .await
}

#[test]
fn input_reaches_confirm_and_execute_with_its_keys_in_their_order() {
    let mut fx = Fixture::orders();
    fx.confirm.configured = true;
    fx.confirm.answer = true;
    let send = |capability: &str, input: &str| {
        let id = fx.fresh_id();
        let text = format!(
            r#"{{"protocol":"pling.surface/0.1","id":"{id}","method":"invoke","capability":"{capability}","input":{input}}}"#
        );
        let request: Value = serde_json::from_str(&text).unwrap();
        fx.send_text(&text, &request)
    };
    let note = "orders.update_note@order";
    send(note, r#"{"record":"SO-1001","note":"周五前回电"}"#);
    send(note, r#"{"note":"周五前回电","record":"SO-1001"}"#);
    send(
        "orders.cancel@order",
        r#"{"reason":"dup","record":"SO-1001","z":1,"a":2}"#,
    );
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let executed: Vec<Vec<String>> = fx
        .calls
        .borrow()
        .iter()
        .map(|(_, args)| keys(args))
        .collect();
    assert_eq!(
        executed,
        [
            vec!["record", "note"],
            vec!["note", "record"],
            vec!["reason", "record", "z", "a"],
        ]
    );
    let asked: Vec<Vec<String>> = fx
        .confirm
        .asked
        .borrow()
        .iter()
        .map(|(_, input)| keys(input))
        .collect();
    assert_eq!(asked, [vec!["reason", "record", "z", "a"]]);
}

/// describe's `unavailable` reason for `capability` (on `record`), if listed.
fn listed(fx: &Fixture, capability: &str, record: Option<&str>) -> Option<String> {
    let r = fx.describe(json!({}));
    let entries = r["result"]["unavailable"].as_array().expect("unavailable");
    let entry = entries
        .iter()
        .find(|u| u["capability"] == capability && u["record"].as_str() == record)?;
    Some(entry["reason"].as_str().expect("reason").to_string())
}

/// describe lists `capability` (on `record`) as unavailable and invoke
/// refuses it with that same text, without running anything; the text.
fn listed_and_refused(fx: &Fixture, capability: &str, input: Value) -> String {
    let record = input["record"].as_str();
    let reason = listed(fx, capability, record)
        .unwrap_or_else(|| panic!("describe does not list {capability} {record:?}"));
    let r = fx.invoke(capability, input);
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert_eq!(message(&r), reason, "describe's reason is invoke's message");
    assert!(fx.calls.borrow().is_empty(), "nothing ran");
    reason
}

#[test]
fn a_hidden_control_is_listed_by_describe_and_refused_by_invoke_alike() {
    let fx = Fixture::orders();
    fx.clicks_controls.set(true); // the built-in executor, which clicks it
    fx.page.obs.borrow_mut().actions[2].visible = false; // SO-1003's note control
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1003", json!("x")));
    assert_eq!(
        reason,
        "`orders.update_note@order`'s control is hidden for record `SO-1003`"
    );
    // Page level too.
    fx.page.obs.borrow_mut().actions.push(surface::ActionState {
        capability: "orders.search".into(),
        record: None,
        enabled: true,
        visible: false,
        unavailable_reason: None,
    });
    let reason = listed_and_refused(&fx, "orders.search", json!({ "query": "q" }));
    assert_eq!(reason, "`orders.search`'s control is hidden on the page");
    // The visible ones still run.
    assert_eq!(
        listed(&fx, "orders.update_note@order", Some("SO-1001")),
        None
    );
    let r = fx.invoke("orders.update_note@order", note("SO-1001", json!("x")));
    assert!(r["result"].get("error").is_none(), "{r}");
}

#[test]
fn a_control_claimed_twice_is_listed_by_describe_and_refused_by_invoke_alike() {
    let fx = Fixture::orders();
    fx.clicks_controls.set(true); // the built-in executor, which clicks it
    let twin = fx.page.obs.borrow().actions[2].clone(); // SO-1003's note control
    fx.page.obs.borrow_mut().actions.push(twin);
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1003", json!("x")));
    assert_eq!(
        reason,
        "`orders.update_note@order` has more than one control for record `SO-1003`"
    );
    for _ in 0..2 {
        fx.page.obs.borrow_mut().actions.push(surface::ActionState {
            capability: "orders.search".into(),
            record: None,
            enabled: true,
            visible: true,
            unavailable_reason: None,
        });
    }
    let reason = listed_and_refused(&fx, "orders.search", json!({ "query": "q" }));
    assert_eq!(
        reason,
        "`orders.search` has more than one control on the page"
    );
    // A record id claimed twice: which one is meant is unknown either way,
    // and describe lists the pair once.
    let copy = fx.page.obs.borrow().records[0].clone(); // SO-1001
    fx.page.obs.borrow_mut().records.push(copy);
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(reason, "more than one `order` record claims id `SO-1001`");
    let r = fx.describe(json!({}));
    let entries = r["result"]["unavailable"].as_array().expect("unavailable");
    let twins = entries
        .iter()
        .filter(|u| u["capability"] == "orders.update_note@order" && u["record"] == "SO-1001")
        .count();
    assert_eq!(twins, 1);
}

#[test]
fn with_the_built_in_executor_no_control_is_listed_and_refused_before_a_person_is_asked() {
    let mut fx = Fixture::orders();
    fx.clicks_controls.set(true);
    fx.confirm.configured = true;
    fx.confirm.answer = true;
    // orders.cancel@order (high risk) has a control on SO-1001 only; the
    // built-in executor has nothing to click on SO-1003, so a person must
    // not be asked to approve it.
    let reason = listed_and_refused(&fx, "orders.cancel@order", json!({ "record": "SO-1003" }));
    assert_eq!(
        reason,
        "`orders.cancel@order` has no control for record `SO-1003`"
    );
    assert!(fx.confirm.asked.borrow().is_empty(), "nobody was asked");
    // Page level too: orders.search has no control on the page.
    let reason = listed_and_refused(&fx, "orders.search", json!({ "query": "q" }));
    assert_eq!(reason, "`orders.search` has no control on the page");
    // The record with a control is neither listed nor refused.
    assert_eq!(listed(&fx, "orders.cancel@order", Some("SO-1001")), None);
    let r = cancel(&fx, "SO-1001");
    assert!(r["result"].get("error").is_none(), "{r}");
    assert_eq!(fx.confirm.asked.borrow().len(), 1);
    // A control gone while the person was asked: the check after approval
    // refuses it (the page read again), and nothing runs.
    let fx = approving(|fx| {
        fx.page
            .obs
            .borrow_mut()
            .actions
            .retain(|a| a.capability != "orders.cancel@order")
    });
    fx.clicks_controls.set(true);
    let r = cancel(&fx, "SO-1001");
    assert_eq!(business_code(&r), "ACTION_UNAVAILABLE");
    assert_eq!(
        message(&r),
        "`orders.cancel@order` has no control for record `SO-1001`"
    );
    assert_eq!(fx.confirm.asked.borrow().len(), 1, "asked while it had one");
    assert!(fx.calls.borrow().is_empty(), "nothing ran");
    // With the page's own execute, no control stops nothing (it may act
    // on a row without buttons).
    let fx = Fixture::orders();
    assert_eq!(listed(&fx, "orders.search", None), None);
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert!(r["result"].get("error").is_none(), "{r}");
}

#[test]
fn with_the_pages_own_executor_a_hidden_or_doubled_control_stops_nothing_but_marks_still_do() {
    let fx = Fixture::orders();
    fx.clicks_controls.set(false);
    // SO-1003's note control shows only on hover (hidden now), and SO-1001's
    // row has two (a toolbar and a context menu, say): the page's executor
    // does not click them, so neither is listed and both run.
    fx.page.obs.borrow_mut().actions[2].visible = false;
    let twin = fx.page.obs.borrow().actions[0].clone();
    assert_eq!(twin.record.as_deref(), Some("SO-1001"));
    fx.page.obs.borrow_mut().actions.push(twin);
    for record in ["SO-1003", "SO-1001"] {
        assert_eq!(listed(&fx, "orders.update_note@order", Some(record)), None);
        let r = fx.invoke("orders.update_note@order", note(record, json!("x")));
        assert!(r["result"].get("error").is_none(), "{r}");
    }
    assert_eq!(fx.calls.borrow().len(), 2);
    fx.calls.borrow_mut().clear();
    // What the page marks still stops it, on any of the controls: the
    // second of SO-1001's two says why.
    let last = fx.page.obs.borrow().actions.len() - 1;
    fx.page.obs.borrow_mut().actions[last].unavailable_reason = Some("记录已锁定".into());
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1001", json!("x")));
    assert_eq!(reason, "记录已锁定");
    // And the record rules do not depend on the executor.
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1009", json!("x")));
    assert_eq!(
        reason,
        "record `SO-1009` is in region `archive`, which is not active"
    );
}

#[test]
fn a_record_in_an_inactive_region_is_listed_by_describe_and_refused_by_invoke_alike() {
    let fx = Fixture::orders();
    // SO-1009 is in the inactive archive; its note control is enabled and visible.
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1009", json!("x")));
    assert_eq!(
        reason,
        "record `SO-1009` is in region `archive`, which is not active"
    );
    // A region the page does not list counts as inactive, in both.
    fx.page.obs.borrow_mut().records[0].region = Some("ghost".into());
    let reason = listed_and_refused(&fx, "orders.update_note@order", note("SO-1001", json!("x")));
    assert!(reason.contains("`ghost`"), "{reason}");
}

#[test]
fn after_reports_removed_records_bounded_by_record_limit() {
    let fx = Fixture::orders();
    // Deleting SO-1003 (say): gone after the run.
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.records.retain(|r| r.id != "SO-1003");
        obs.status = vec!["已删除".into()];
        Ok(None)
    });
    let r = fx.invoke("orders.open", json!({ "order": "SO-1003" }));
    assert_eq!(
        r["result"]["after"],
        json!({
            "capabilities": [],
            "records": [],
            "removedRecords": [{ "kind": "order", "id": "SO-1003" }],
            "status": ["已删除"]
        })
    );
    // Everything gone, with recordLimit 2: two listed, and truncation said.
    let mut config = SurfaceConfig::new("orders", ["orders.search"]);
    config.record_limit = 2;
    let fx = Fixture::with(config, seed_registry(), seed_page());
    *fx.effect.borrow_mut() = Box::new(|_, _, obs, _| {
        obs.records.clear();
        Ok(None)
    });
    let r = fx.invoke("orders.search", json!({ "query": "q" }));
    assert_eq!(
        r["result"]["after"]["removedRecords"],
        json!([{ "kind": "order", "id": "SO-1001" }, { "kind": "order", "id": "SO-1002" }])
    );
    assert_eq!(r["result"]["after"]["recordsTruncated"], true);
    assert_eq!(r["result"]["after"]["records"], json!([]));
}

#[test]
fn with_the_built_in_executor_a_capability_shaped_like_a_generic_ref_is_listed_and_refused() {
    let registry = json!([{ "id": "g7", "title": "Seven" }]);
    let mut page = seed_page();
    page.actions.push(surface::ActionState {
        capability: "g7".into(),
        record: None,
        enabled: true,
        visible: true,
        unavailable_reason: None,
    });
    let fx = Fixture::with(SurfaceConfig::new("orders", ["g7"]), registry, page);
    *fx.session.borrow_mut() = Some(Session {
        scope: vec!["*".into()],
        ..seed_session()
    });
    // The page's own executor may run it (it does not click the control).
    assert_eq!(listed(&fx, "g7", None), None);
    fx.clicks_controls.set(true);
    let reason = listed_and_refused(&fx, "g7", json!({}));
    assert_eq!(
        reason,
        "`g7` has a generic ref's shape (g + digits): no run takes its control; the page should give it another id"
    );
}
