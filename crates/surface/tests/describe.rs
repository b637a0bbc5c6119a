//! describe: capabilities, "changed", context, regions, record windows.

mod common;

use common::*;
use serde_json::{json, Value};
use surface::{Observation, Record, Registry, Session, SurfaceConfig, MAX_TRACKED_SESSIONS};

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|a| a.iter().filter_map(|v| v["id"].as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn capabilities_are_registry_expose_scope_intersection() {
    let fx = Fixture::orders();
    let r = fx.describe(json!({}));
    // orders.export is exposed but unregistered; orders.refund registered but unexposed.
    assert_eq!(
        ids(&r["result"]["capabilities"]),
        [
            "orders.search",
            "orders.open",
            "orders.update_note@order",
            "orders.cancel@order"
        ]
    );
    fx.session.borrow_mut().as_mut().expect("session").scope =
        vec!["orders.search".into(), "orders.up*".into()];
    let r = fx.describe(json!({}));
    assert_eq!(
        ids(&r["result"]["capabilities"]),
        ["orders.search", "orders.update_note@order"]
    );
    // Capability entries: id, title, description when declared, input schema, risk when high.
    let r = fx.describe(json!({ "capabilities": "all" }));
    assert_eq!(
        r["result"]["capabilities"][0],
        json!({
            "id": "orders.search",
            "title": "搜索订单",
            "description": "按客户或单号搜索",
            "input": {
                "type": "object",
                "properties": { "query": { "type": "string", "minLength": 1 } },
                "required": ["query"],
                "additionalProperties": false
            }
        })
    );
    assert!(r["result"].get("capabilitiesUnchanged").is_none());
}

#[test]
fn high_risk_capability_says_so() {
    let fx = Fixture::orders();
    let r = fx.describe(json!({}));
    let cancel = &r["result"]["capabilities"][3];
    assert_eq!(cancel["id"], "orders.cancel@order");
    assert_eq!(cancel["risk"], "high");
    assert_eq!(
        cancel["input"],
        json!({
            "type": "object",
            "properties": { "record": { "type": "string", "description": "id of the target record" } },
            "required": ["record"]
        })
    );
}

#[test]
fn changed_reports_unchanged_only_after_a_full_read_of_the_same_set() {
    let fx = Fixture::orders();
    // Before any full read, "changed" is "all".
    let first = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(ids(&first["result"]["capabilities"]).len(), 4);
    assert_eq!(first["result"]["capabilitiesUnchanged"], false);
    let same = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(same["result"]["capabilities"], json!([]));
    assert_eq!(same["result"]["capabilitiesUnchanged"], true);
    // The registry changes (a title): the full list comes back once.
    fx.registry.0.borrow_mut().declarations[0].title = "查找订单".into();
    let changed = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(changed["result"]["capabilitiesUnchanged"], false);
    assert_eq!(changed["result"]["capabilities"][0]["title"], "查找订单");
    assert_eq!(
        fx.describe(json!({ "capabilities": "changed" }))["result"]["capabilitiesUnchanged"],
        true
    );
    // A schema change counts too.
    fx.registry.0.borrow_mut().declarations[1].input = Some(json!({ "type": "object" }));
    assert_eq!(
        fx.describe(json!({ "capabilities": "changed" }))["result"]["capabilitiesUnchanged"],
        false
    );
    // A scope change counts: the set this session may use differs.
    fx.session.borrow_mut().as_mut().expect("session").scope = vec!["orders.search".into()];
    let narrowed = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(ids(&narrowed["result"]["capabilities"]), ["orders.search"]);
    // Another session has not read anything yet.
    *fx.session.borrow_mut() = Some(Session {
        id: "sess-2".into(),
        ..seed_session()
    });
    let other = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(ids(&other["result"]["capabilities"]).len(), 4);
}

#[test]
fn context_page_is_omitted_without_identity() {
    let fx = Fixture::orders();
    {
        let mut obs = fx.page.obs.borrow_mut();
        obs.page_title = None;
        obs.document_title.clear();
    }
    assert!(fx.describe(json!({}))["result"].get("context").is_none());
    fx.page.obs.borrow_mut().document_title = "Orders".into();
    assert_eq!(
        fx.describe(json!({}))["result"]["context"],
        json!({ "page": { "documentTitle": "Orders" } })
    );
}

#[test]
fn regions_status_feedback_are_reported() {
    let fx = Fixture::orders();
    fx.page.obs.borrow_mut().feedback = vec![surface::Feedback {
        text: "网络较慢".into(),
        level: Some("warning".into()),
    }];
    let r = &fx.describe(json!({}))["result"];
    assert_eq!(
        r["regions"],
        json!([
            { "id": "list", "title": "订单列表", "active": true },
            { "id": "archive", "title": "归档", "active": false }
        ])
    );
    assert_eq!(r["status"], json!(["共 4 条订单"]));
    assert_eq!(
        r["feedback"],
        json!([{ "text": "网络较慢", "level": "warning" }])
    );
    assert_eq!(
        r["records"][1],
        json!({ "id": "SO-1002", "kind": "order", "fields": { "customer": "李雷", "note": "" },
                "state": "locked", "region": "list" })
    );
}

#[test]
fn window_offset_limit_and_clamp() {
    let fx = Fixture::orders();
    let r = fx.describe(json!({ "offset": 1, "limit": 2 }));
    assert_eq!(ids(&r["result"]["records"]), ["SO-1002", "SO-1003"]);
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 1, "limit": 2, "total": 4 })
    );
    let r = fx.describe(json!({ "offset": 10 }));
    assert_eq!(r["result"]["records"], json!([]));
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 10, "limit": 8, "total": 4 })
    );
    let r = fx.describe(json!({ "limit": 0 }));
    assert_eq!(r["result"]["records"], json!([]));
    // An enormous limit is clamped, and the clamp is visible.
    let r = fx.describe(json!({ "limit": 1_000_000 }));
    assert_eq!(r["result"]["recordWindow"]["limit"], 100);
    // An enormous offset does not overflow.
    let r = fx.describe(json!({ "offset": 9_007_199_254_740_992u64 }));
    assert_eq!(r["result"]["records"], json!([]));
}

#[test]
fn record_reads_return_exactly_those_and_list_missing() {
    let fx = Fixture::orders();
    let r = fx.describe(json!({ "record": "SO-1003" }));
    assert_eq!(ids(&r["result"]["records"]), ["SO-1003"]);
    assert_eq!(r["result"]["missing"], json!([]));
    // Id reads carry recordWindow too: offset 0, the ids given, and the
    // total a window read reports.
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 1, "total": 4 })
    );
    let r = fx.describe(json!({ "record": ["SO-1002", "SO-4040", "SO-1001"] }));
    assert_eq!(ids(&r["result"]["records"]), ["SO-1002", "SO-1001"]);
    assert_eq!(r["result"]["missing"], json!(["SO-4040"]));
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 3, "total": 4 })
    );
    let window = fx.describe(json!({}));
    assert_eq!(window["result"]["recordWindow"]["total"], 4);
    assert!(window["result"].get("missing").is_none());
    // Unavailable actions follow the records that were read.
    assert_eq!(
        r["result"]["unavailable"],
        json!([{ "capability": "orders.update_note@order", "record": "SO-1002", "reason": "记录已锁定" }])
    );
    let r = fx.describe(json!({ "record": "SO-1001" }));
    assert_eq!(r["result"]["unavailable"], json!([]));
    // An id asked twice is read once, as is a missing one.
    let r = fx.describe(json!({ "record": ["SO-1002", "SO-4040", "SO-1002", "SO-4040"] }));
    assert_eq!(ids(&r["result"]["records"]), ["SO-1002"]);
    assert_eq!(r["result"]["missing"], json!(["SO-4040"]));
    assert_eq!(r["result"]["unavailable"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 4, "total": 4 })
    );
    // With capabilities: "changed" (unchanged) as well.
    let r = fx.describe(json!({ "record": "SO-1001", "capabilities": "changed" }));
    assert_eq!(r["result"]["capabilitiesUnchanged"], true);
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 1, "total": 4 })
    );
}

#[test]
fn an_id_read_is_bounded_like_a_window_and_says_when_it_was_cut() {
    let fx = Fixture::orders();
    {
        // 150 records of different kinds share the id "7" (order 7, line 7…).
        let mut obs = fx.page.obs.borrow_mut();
        let template = obs.records[0].clone();
        for i in 0..150 {
            obs.records.push(Record {
                id: "7".into(),
                kind: format!("k{i}"),
                ..template.clone()
            });
        }
    }
    let r = fx.describe(json!({ "record": "7" }));
    let records = r["result"]["records"].as_array().expect("records");
    assert_eq!(records.len(), 100, "a window's maximum");
    assert_eq!(records[0]["kind"], "k0");
    assert_eq!(records[99]["kind"], "k99");
    assert_eq!(r["result"]["recordsTruncated"], true);
    // recordWindow keeps its id-read meaning: the ids given, every record.
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 1, "total": 154 })
    );
    // The cap counts across ids, in the order asked; an id past it that
    // has records is not missing.
    let r = fx.describe(json!({ "record": ["SO-1003", "7", "SO-1001", "SO-4040"] }));
    let records = r["result"]["records"].as_array().expect("records");
    assert_eq!(records.len(), 100);
    assert_eq!(records[0]["id"], "SO-1003");
    assert!(records[1..].iter().all(|r| r["id"] == "7"));
    assert_eq!(r["result"]["missing"], json!(["SO-4040"]));
    assert_eq!(r["result"]["recordsTruncated"], true);
    // Exactly at the cap, or under it, nothing is cut and nothing is said.
    fx.page.obs.borrow_mut().records.truncate(4 + 100);
    let r = fx.describe(json!({ "record": "7" }));
    assert_eq!(r["result"]["records"].as_array().map(Vec::len), Some(100));
    assert!(
        r["result"].get("recordsTruncated").is_none(),
        "{}",
        r["result"]["recordWindow"]
    );
    let r = fx.describe(json!({ "record": ["SO-1001", "SO-1002"] }));
    assert_eq!(ids(&r["result"]["records"]), ["SO-1001", "SO-1002"]);
    assert!(r["result"].get("recordsTruncated").is_none());
    // A window read is bounded by its limit and never says it.
    let r = fx.describe(json!({ "limit": 100 }));
    assert!(r["result"].get("recordsTruncated").is_none());
}

#[test]
fn unavailable_is_scoped_and_covers_page_level_and_disabled() {
    let fx = Fixture::orders();
    {
        let mut obs = fx.page.obs.borrow_mut();
        obs.actions.push(surface::ActionState {
            capability: "orders.search".into(),
            record: None,
            enabled: false,
            visible: true,
            unavailable_reason: None,
        });
        obs.actions.push(surface::ActionState {
            capability: "orders.cancel@order".into(),
            record: Some("SO-1003".into()),
            enabled: false,
            visible: true,
            unavailable_reason: None,
        });
        // Not exposed: never reported.
        obs.actions.push(surface::ActionState {
            capability: "orders.refund".into(),
            record: None,
            enabled: false,
            visible: true,
            unavailable_reason: Some("no".into()),
        });
    }
    let r = fx.describe(json!({}));
    // SO-1009 is in the inactive archive region: every row action on it is
    // refused by invoke, so listed here with invoke's message.
    let archived = "record `SO-1009` is in region `archive`, which is not active";
    assert_eq!(
        r["result"]["unavailable"],
        json!([
            { "capability": "orders.search", "reason": "disabled" },
            { "capability": "orders.update_note@order", "record": "SO-1002", "reason": "记录已锁定" },
            { "capability": "orders.update_note@order", "record": "SO-1009", "reason": archived },
            { "capability": "orders.cancel@order", "record": "SO-1003", "reason": "disabled" },
            { "capability": "orders.cancel@order", "record": "SO-1009", "reason": archived }
        ])
    );
    // Out of scope: not reported either.
    fx.session.borrow_mut().as_mut().expect("session").scope = vec!["orders.search".into()];
    let r = fx.describe(json!({}));
    assert_eq!(
        r["result"]["unavailable"],
        json!([{ "capability": "orders.search", "reason": "disabled" }])
    );
}

#[test]
fn ten_thousand_records_window_of_eight_stays_small() {
    let records: Vec<Record> = (0..10_000)
        .map(|i| Record {
            id: format!("SO-{i:05}"),
            kind: "order".into(),
            fields: serde_json::Map::from_iter([(
                "customer".to_string(),
                Value::from(format!("客户 {i}")),
            )]),
            state: None,
            region: None,
        })
        .collect();
    let page = Observation {
        document_id: 1,
        document_title: "Orders".into(),
        records,
        ..Default::default()
    };
    let fx = Fixture::with(
        SurfaceConfig::new(
            "orders",
            ["orders.search", "orders.open", "orders.update_note@order"],
        ),
        seed_registry(),
        page,
    );
    let r = fx.describe(json!({}));
    assert_eq!(r["result"]["records"].as_array().map(Vec::len), Some(8));
    assert_eq!(
        r["result"]["recordWindow"],
        json!({ "offset": 0, "limit": 8, "total": 10000 })
    );
    let bytes = serde_json::to_string(&r).expect("serializes").len();
    println!("describe over 10,000 records with recordLimit 8: {bytes} bytes of JSON");
    assert!(bytes < 3000, "{bytes} bytes");
}

#[test]
fn least_recently_used_session_is_forgotten_beyond_the_bound() {
    let fx = Fixture::with(
        SurfaceConfig::new("orders", ["orders.search"]),
        seed_registry(),
        seed_page(),
    );
    let request =
        |id: &str| json!({ "protocol": "pling.surface/0.1", "id": id, "method": "describe" });
    assert_eq!(fx.send(&request("kept"))["ok"], true);
    for i in 1..=MAX_TRACKED_SESSIONS {
        *fx.session.borrow_mut() = Some(Session {
            id: format!("s{i}"),
            ..seed_session()
        });
        assert_eq!(fx.send(&request("x"))["ok"], true);
    }
    // sess-1 was the least recently used when s64 arrived: its memory is gone.
    *fx.session.borrow_mut() = Some(seed_session());
    assert_eq!(fx.send(&request("kept"))["ok"], true);
    // s64 is still remembered.
    *fx.session.borrow_mut() = Some(Session {
        id: format!("s{MAX_TRACKED_SESSIONS}"),
        ..seed_session()
    });
    assert_eq!(protocol_code(&fx.send(&request("x"))), "REPLAY_DETECTED");
}

#[test]
fn registry_skips_malformed_declarations_with_reasons() {
    let registry = Registry::from_json(&json!([
        { "id": "a", "title": "A" },
        { "id": "a", "title": "again" },
        { "title": "no id" },
        { "id": "b" },
        { "id": "c", "title": "C", "risk": "medium" },
        { "id": "d", "title": "D", "input": { "type": "object", "properties": { "x": { "pattern": "^a" } } } },
        { "id": "e", "title": "E", "input": { "type": "string" } },
        { "id": "f", "title": "F", "input": [] },
        { "id": "g", "title": "G", "expect": { "text": "" } },
        { "id": "h", "title": "H", "expect": { "text": "ok", "within": -1 } },
        { "id": "i@", "title": "I" },
        { "id": "@i", "title": "I" },
        { "id": "x@y@z", "title": "XYZ" },
        "not an object",
        { "id": "ok@row", "title": "Row", "description": "d", "risk": "high", "expect": { "text": "done", "within": 500 } }
    ]));
    let kept: Vec<&str> = registry
        .declarations
        .iter()
        .map(|d| d.id.as_str())
        .collect();
    assert_eq!(kept, ["a", "ok@row"]);
    let reasons: Vec<String> = registry
        .skipped
        .iter()
        .map(|s| s.reason.to_string())
        .collect();
    assert_eq!(registry.skipped.len(), 13, "{reasons:#?}");
    assert!(reasons[0].contains("duplicate"));
    assert!(
        reasons[4].contains("/properties/x/pattern") && reasons[4].contains("unsupported"),
        "{}",
        reasons[4]
    );
    assert_eq!(registry.skipped[0].index, 1);
    let row = &registry.declarations[1];
    assert_eq!(row.expect.as_ref().map(|e| e.within_ms), Some(500.0));
    assert_eq!(Registry::from_json(&json!({ "id": "a" })).skipped.len(), 1);
}

#[test]
fn the_publications_reads_do_not_count_as_the_clients_last_list() {
    let fx = Fixture::orders();
    let full = fx.describe(json!({ "capabilities": "all" }));
    assert_eq!(ids(&full["result"]["capabilities"]).len(), 4);
    // The registry changes; the page's WebMCP publication re-reads it all.
    fx.registry.0.borrow_mut().declarations[0].title = "查找订单".into();
    let read = json!({
        "protocol": "pling.surface/0.1",
        "id": fx.fresh_id(),
        "method": "describe",
        "input": { "capabilities": "all", "limit": 1 }
    });
    let text = serde_json::to_string(&read).expect("JSON");
    let published =
        block_on(
            fx.surface
                .handle_for(surface::Reader::Publication, &text, &fx, &fx.page),
        );
    let published = serde_json::to_value(&published).expect("a response serializes");
    assert_well_formed(&read, &published);
    assert_eq!(published["result"]["capabilities"][0]["title"], "查找订单");
    // The client has not seen the change: "changed" still brings it.
    let changed = fx.describe(json!({ "capabilities": "changed" }));
    assert_eq!(
        changed["result"]["capabilitiesUnchanged"], false,
        "{changed}"
    );
    assert_eq!(changed["result"]["capabilities"][0]["title"], "查找订单");
    // The same read as the client's own would have hidden it.
    fx.registry.0.borrow_mut().declarations[0].title = "Find orders".into();
    fx.describe(json!({ "capabilities": "all" }));
    assert_eq!(
        fx.describe(json!({ "capabilities": "changed" }))["result"]["capabilitiesUnchanged"],
        true
    );
}
