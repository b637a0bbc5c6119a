//! The WebMCP plan natively: names, the hash, schemas, descriptions,
//! annotations, what a new plan changes, and the requests.

use super::*;
use proptest::prelude::*;
use std::collections::HashSet;

fn item(id: &str, more: Value) -> Value {
    let mut v = json!({ "id": id, "event": "click", "title": "", "desc": "", "enabled": true, "visible": true });
    if let (Some(o), Some(more)) = (v.as_object_mut(), more.as_object()) {
        for (k, x) in more {
            o.insert(k.clone(), x.clone());
        }
    }
    v
}

fn menu(items: Vec<Value>) -> Option<Vec<Tool>> {
    let answer: MenuAnswer =
        serde_json::from_value(json!({ "ok": true, "payload": { "snapshot": { "menu": items } } }))
            .expect("decodes");
    plan_menu(&answer, &[])
}

fn menu_names(items: Vec<Value>) -> Vec<String> {
    menu(items)
        .expect("a plan")
        .into_iter()
        .map(|t| t.name)
        .collect()
}

fn capabilities(result: Value) -> Vec<Tool> {
    let answer: DescribeAnswer =
        serde_json::from_value(json!({ "ok": true, "result": result })).expect("decodes");
    plan_capabilities(&answer, &[])
}

#[test]
fn the_name_hash_is_pinned() {
    // The vectors tests/webmcp-plan.test.mjs and tests/mcp-names.test.mjs
    // pin, and the empty input: 64-bit FNV-1a cbf29ce484222325 folded.
    assert_eq!(name_hash(b""), 0xcbf2_9ce4 ^ 0x8422_2325);
    assert_eq!(name_hash(b""), 0x4fd0_bfc1);
    assert_eq!(name_hash(b"a"), 0x2962_30c0);
    assert_eq!(name_hash("ä".as_bytes()), 0xbdda_0785);
    assert_eq!(sanitised_name("a"), "a-296230c0");
    assert_eq!(sanitised_name("ä"), "_-bdda0785");
}

#[test]
fn valid_ids_are_their_own_names() {
    let long = "x".repeat(128);
    assert_eq!(
        menu_names(vec![
            item("btn-save", json!({})),
            item("a.b_c-9", json!({})),
            item(&long, json!({}))
        ]),
        vec!["btn-save".to_string(), "a.b_c-9".into(), long]
    );
    assert!(!is_tool_name(""));
    assert!(!is_tool_name(&"x".repeat(129)));
    assert!(!is_tool_name("a:b"));
    assert!(!is_tool_name("é"));
}

#[test]
fn other_ids_get_a_stable_hashed_name() {
    let name = sanitised_name("list-pagination:next");
    assert!(name.starts_with("list-pagination_next-"));
    assert_eq!(name.len(), "list-pagination_next-".len() + 8);
    assert_ne!(sanitised_name("a:b"), sanitised_name("a;b"));
    for id in [
        "",
        "ä",
        "a b",
        &"é".repeat(300),
        &"x".repeat(129),
        "名前",
        "😀:x",
    ] {
        assert!(is_tool_name(&sanitised_name(id)), "{id:?}");
    }
    // 119 characters (not bytes) are kept, then `-` and 8 digits.
    assert_eq!(sanitised_name(&"é".repeat(300)).len(), 119 + 9);
    assert_eq!(
        menu_names(vec![item("a:b", json!({})), item("a b", json!({}))]),
        vec![sanitised_name("a:b"), sanitised_name("a b")]
    );
    // An empty id is no menu id at all and gets no tool.
    assert_eq!(
        menu_names(vec![item("", json!({})), item("a:b", json!({}))]),
        vec![sanitised_name("a:b")]
    );
}

#[test]
fn names_another_publication_holds_are_taken() {
    // The menu holds `orders.search`: the capability of that id is hashed
    // (WebMCP refuses a duplicate name), and a hashed name held elsewhere
    // gets a counter.
    let held = vec!["orders.search".to_string(), sanitised_name("a:b")];
    assert_eq!(
        names(&["orders.search", "orders.open", "a:b"], &held),
        vec![
            sanitised_name("orders.search"),
            "orders.open".to_string(),
            format!("{}-2", sanitised_name("a:b")),
        ]
    );
}

#[test]
fn a_name_already_taken_gets_a_counter() {
    let hashed = sanitised_name("a:b");
    assert_eq!(
        menu_names(vec![item("a:b", json!({})), item(&hashed, json!({}))]),
        vec![format!("{hashed}-2"), hashed.clone()]
    );
    let long = "y".repeat(200);
    let taken = sanitised_name(&long);
    let out = names(&[&taken, &long], &[]);
    assert_eq!(out[0], taken);
    assert!(is_tool_name(&out[1]) && out[1].ends_with("-2") && out[1] != taken);
    assert_eq!(out[1].len(), 128, "cut so the counter fits");
    assert_eq!(
        names(&["a", "a"], &[]),
        vec!["a".to_string(), sanitised_name("a")]
    );
    // Counters go on past 2.
    let a = sanitised_name("a");
    assert_eq!(
        names(&[&a, &format!("{a}-2"), "a", "a"], &[])[3],
        format!("{a}-3")
    );
}

#[test]
fn only_runnable_items_are_published() {
    let items = vec![
        item("a", json!({})),
        item("off", json!({ "enabled": false })),
        item("hidden", json!({ "visible": false })),
        item("dup", json!({ "ambiguous": true })),
        item("hover", json!({ "event": "hover" })),
        item("proto", json!({ "event": "constructor" })),
        item("", json!({})),
        // A generic ref's shape: in the menu, but no run takes it.
        item("g7", json!({})),
        item("field", json!({ "event": "input" })),
    ];
    assert_eq!(menu_names(items), vec!["a", "field"]);
}

#[test]
fn every_known_event_has_an_object_schema() {
    let events = ["click", "input", "scroll", "drag"];
    let tools = menu(
        events
            .iter()
            .map(|e| item(e, json!({ "event": e })))
            .collect(),
    )
    .expect("plan");
    for t in &tools {
        assert_eq!(t.input_schema["type"], "object");
        assert_eq!(t.input_schema["additionalProperties"], false);
    }
    assert_eq!(
        tools[0].input_schema,
        json!({ "type": "object", "properties": {}, "additionalProperties": false })
    );
    assert_eq!(tools[1].input_schema["required"], json!(["value"]));
    let keys: Vec<&String> = tools[2].input_schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .collect();
    assert_eq!(keys, ["to", "by"]);
    assert_eq!(tools[3].input_schema["required"], json!(["to"]));
}

#[test]
fn descriptions_come_from_title_and_desc() {
    let one = |v: Value| menu(vec![v]).expect("plan").remove(0).description;
    assert_eq!(
        one(item(
            "btn-save",
            json!({ "title": "Save", "desc": "Save the current list" })
        )),
        "Save: Save the current list"
    );
    assert_eq!(one(item("btn-save", json!({ "title": " Save " }))), "Save");
    assert_eq!(
        one(item("btn-save", json!({ "title": "\u{feff}Save\u{a0}" }))),
        "Save"
    );
    assert_eq!(
        one(item("btn-save", json!({}))),
        "Menu item \"btn-save\" (click)"
    );
    assert_eq!(
        one(item("pager:next", json!({ "title": "Next page" }))),
        "Next page (menu item \"pager:next\")"
    );
    assert_eq!(
        one(item("a", json!({ "title": "Say \"hi\"" }))),
        "Say \"hi\""
    );
    assert_eq!(one(item("a", json!({ "desc": "only desc" }))), "only desc");
    // U+0085 is not JavaScript white space: trim keeps it.
    assert_eq!(one(item("a", json!({ "title": "\u{85}x" }))), "\u{85}x");
}

#[test]
fn refused_reads_keep_what_is_published() {
    let refused: MenuAnswer = serde_json::from_value(
        json!({ "ok": false, "error": { "code": "RETIRED", "message": "" } }),
    )
    .expect("decodes");
    assert!(plan_menu(&refused, &[]).is_none());
    let no_snapshot: MenuAnswer =
        serde_json::from_value(json!({ "ok": true, "payload": { "pageId": "p" } }))
            .expect("decodes");
    assert!(plan_menu(&no_snapshot, &[]).is_none());
    assert_eq!(menu(vec![]), Some(vec![]));
}

#[test]
fn surface_capabilities_become_tools_with_their_schemas_and_hints() {
    let tools = capabilities(json!({
        "capabilities": [
            { "id": "orders.search", "title": "Search orders", "input": { "type": "object", "required": ["q"] }, "readOnly": true },
            { "id": "orders.update_note@order", "title": "Update the note", "description": "Per order", "input": { "type": "object" } },
            { "id": "orders.export", "title": "Export", "input": { "type": "object" } },
            { "id": "orders.refund@order", "title": "Refund", "risk": "high" },
            { "id": "orders.bare", "title": "" },
            { "id": "", "title": "no id" },
        ],
        "unavailable": [
            { "capability": "orders.export", "reason": "disabled" },
            { "capability": "orders.update_note@order", "record": "SO-1002", "reason": "locked" },
        ],
    }));
    let ids: Vec<&str> = tools.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "orders.search",
            "orders.update_note@order",
            "orders.refund@order",
            "orders.bare"
        ]
    );
    assert_eq!(tools[0].name, "orders.search");
    assert_eq!(
        tools[0].input_schema,
        json!({ "type": "object", "required": ["q"] })
    );
    assert_eq!(tools[1].name, sanitised_name("orders.update_note@order"));
    assert_eq!(
        tools[1].description,
        "Update the note: Per order (capability \"orders.update_note@order\")"
    );
    assert_eq!(tools[3].description, "Capability \"orders.bare\"");
    assert_eq!(tools[3].input_schema, json!({ "type": "object" }));
    let hints: Vec<(bool, bool, bool)> = tools
        .iter()
        .map(|t| {
            let a = t.annotations;
            (
                a.read_only_hint,
                a.untrusted_content_hint,
                a.consequential_hint,
            )
        })
        .collect();
    assert_eq!(
        hints,
        [
            (true, true, false),
            (false, true, false),
            (false, true, true),
            (false, true, false)
        ]
    );
}

#[test]
fn without_a_session_nothing_is_published() {
    let refused: DescribeAnswer = serde_json::from_value(
        json!({ "ok": false, "error": { "code": "SESSION_EXPIRED", "message": "" } }),
    )
    .expect("decodes");
    assert!(plan_capabilities(&refused, &[]).is_empty());
    let empty: DescribeAnswer =
        serde_json::from_value(json!({ "ok": true, "result": null })).expect("decodes");
    assert!(plan_capabilities(&empty, &[]).is_empty());
}

#[test]
fn annotations_serialize_only_what_holds() {
    let tool =
        capabilities(json!({ "capabilities": [{ "id": "x", "title": "X", "risk": "high" }] }))
            .remove(0);
    assert_eq!(
        serde_json::to_value(&tool).expect("serializes"),
        json!({
            "name": "x",
            "description": "X",
            "inputSchema": { "type": "object" },
            "annotations": { "untrustedContentHint": true, "consequentialHint": true },
        })
    );
    let menu_tool = menu(vec![item("a", json!({}))]).expect("plan").remove(0);
    assert_eq!(
        serde_json::to_value(menu_tool.annotations).expect("serializes"),
        json!({ "untrustedContentHint": true })
    );
}

#[test]
fn a_new_plan_withdraws_what_changed_and_registers_what_is_new() {
    let before = menu(vec![
        item("a", json!({})),
        item("b", json!({})),
        item("c", json!({})),
    ])
    .expect("plan");
    let after = menu(vec![
        item("a", json!({})),
        item("b", json!({ "title": "Bee" })),
        item("d", json!({})),
    ])
    .expect("plan");
    let (withdraw, register) = changes(&before, &after);
    assert_eq!(withdraw, ["b", "c"]);
    let added: Vec<&str> = register.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(added, ["b", "d"]);
    let (none, nothing) = changes(&after, &after);
    assert!(none.is_empty() && nothing.is_empty());
}

#[test]
fn a_refused_registration_does_not_count() {
    let planned = menu(vec![item("a", json!({})), item("b", json!({}))]).expect("plan");
    // Registered with what withdraws each (here: a number).
    let mut registered: Vec<(Tool, u32)> = planned.iter().cloned().zip([1, 2]).collect();
    // Nothing refused: nothing changes.
    drop_refused(&mut registered, |_| false);
    assert_eq!(registered.len(), 2);
    drop_refused(&mut registered, |r| *r == 2);
    let left: Vec<Tool> = registered.iter().map(|(t, _)| t.clone()).collect();
    // The next plan registers it again, and nothing else...
    let (withdraw, register) = changes(&left, &planned);
    assert!(withdraw.is_empty());
    let again: Vec<&str> = register.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(again, ["b"]);
    // ...and its name is no longer taken for the page's other publication.
    let held: Vec<String> = left.iter().map(|t| t.name.clone()).collect();
    assert_eq!(names(&["b"], &held), ["b"]);
}

#[test]
fn requests_and_the_withdrawn_answer() {
    assert_eq!(
        read_request(Kind::Menu, "webmcp-0000000a-2", Some("p")),
        json!({ "pageId": "p", "requestId": "webmcp-0000000a-2", "cmd": "snapshot", "payload": {} })
    );
    assert_eq!(
        read_request(Kind::Capabilities, "r", None),
        json!({ "protocol": "pling.surface/0.1", "id": "r", "method": "describe", "input": { "capabilities": "all", "limit": 1 } })
    );
    assert_eq!(hello_request("r")["pageId"], Value::Null);
    assert_eq!(request_prefix(0xab), "webmcp-000000ab-");
    let gone = withdrawn(Kind::Menu, Some("p"), "inc");
    assert_eq!(gone["error"]["code"], "NOT_IN_MENU");
    assert_eq!(
        gone["error"]["message"],
        "\"inc\": this WebMCP tool was withdrawn; nothing was run"
    );
    assert_eq!(
        withdrawn(Kind::Capabilities, None, "x")["error"]["code"],
        "CAPABILITY_NOT_EXPOSED"
    );
}

#[test]
fn a_burst_of_changes_starts_one_timer() {
    let mut resync = Resync::default();
    assert!(resync.change(), "the first change starts the timer");
    assert!(!resync.change(), "later ones join it");
    assert!(!resync.change());
    resync.fired();
    assert!(
        resync.change(),
        "after the re-read, a change starts a new one"
    );
    assert_eq!(RESYNC_MS, 50);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(testkit::cases()))]

    /// Any ids: one valid, distinct name each, and a valid id that comes
    /// first keeps its own.
    #[test]
    fn names_are_valid_distinct_and_stable(ids in prop::collection::vec(prop_oneof![
        "[a-z]{1,3}", "[a-z:]{1,4}", ".{0,6}", Just("a".to_string()), Just(sanitised_name("a")),
    ], 0..12)) {
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let out = names(&refs, &[]);
        prop_assert_eq!(out.len(), ids.len());
        let unique: HashSet<&String> = out.iter().collect();
        prop_assert_eq!(unique.len(), out.len());
        for (i, (name, id)) in out.iter().zip(&ids).enumerate() {
            prop_assert!(is_tool_name(name));
            if is_tool_name(id) && !ids[..i].contains(id) {
                prop_assert_eq!(name, id, "the first valid id keeps its name");
            }
        }
        prop_assert_eq!(names(&refs, &[]), out, "the same ids, the same names");
    }

    /// The hash is 64-bit FNV-1a (one step per byte from the offset
    /// basis), its two halves xor-ed.
    #[test]
    fn the_name_hash_is_folded_fnv_1a_64(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        prop_assert_eq!(name_hash(&bytes), ((h >> 32) as u32) ^ (h as u32));
    }
}
