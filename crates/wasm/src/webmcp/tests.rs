use super::*;
use json::json;

fn item(id: &str) -> Value {
    json!({ "id": id, "event": "click", "title": "", "desc": "", "enabled": true, "visible": true })
}

fn names(menu: &[Value]) -> Vec<String> {
    plan(menu).into_iter().map(|t| t.name).collect()
}

#[test]
fn valid_ids_are_their_own_names() {
    assert!(is_tool_name("btn-save"));
    assert!(is_tool_name("a.b_c-9"));
    assert!(is_tool_name(&"x".repeat(128)));
    for bad in ["", "a:b", "a b", "ä", "a/b", &"x".repeat(129)] {
        assert!(!is_tool_name(bad), "{bad:?}");
    }
    assert_eq!(names(&[item("btn-save"), item("a.b")]), ["btn-save", "a.b"]);
}

#[test]
fn other_ids_get_a_stable_hashed_name() {
    let name = sanitised_name("list-pagination:next");
    assert!(name.starts_with("list-pagination_next-"), "{name}");
    assert_eq!(name.len(), "list-pagination_next".len() + 9);
    assert!(is_tool_name(&name));
    assert_eq!(
        name,
        sanitised_name("list-pagination:next"),
        "deterministic"
    );
    // Ids that sanitise alike still get different names.
    assert_ne!(sanitised_name("a:b"), sanitised_name("a;b"));
    for id in ["ä", "a b", &"é".repeat(300), &"x".repeat(129), "名前"] {
        let n = sanitised_name(id);
        assert!(is_tool_name(&n), "{id:?} → {n:?}");
    }
}

#[test]
fn a_name_already_taken_gets_a_counter() {
    let hashed = sanitised_name("a:b");
    // A declared id equal to another's sanitised form keeps its own name.
    let menu = [item("a:b"), item(&hashed)];
    assert_eq!(names(&menu), [format!("{hashed}-2"), hashed.clone()]);
    let long = "y".repeat(200);
    let taken = sanitised_name(&long);
    let out = names(&[item(&taken), item(&long)]);
    assert_eq!(out[0], taken);
    assert!(is_tool_name(&out[1]) && out[1] != taken && out[1].ends_with("-2"));
}

#[test]
fn only_runnable_items_are_published() {
    let mut off = item("off");
    off["enabled"] = json!(false);
    let mut hidden = item("hidden");
    hidden["visible"] = json!(false);
    let mut dup = item("dup");
    dup["ambiguous"] = json!(true);
    let mut hover = item("hover");
    hover["event"] = json!("hover");
    let mut field = item("field");
    field["event"] = json!("input");
    let menu = [item("a"), off, hidden, dup, hover, field];
    assert_eq!(names(&menu), ["a", "field"]);
}

#[test]
fn every_known_event_has_an_object_schema() {
    for event in ["click", "input", "scroll", "drag"] {
        let schema = input_schema(event).unwrap_or_default();
        let v: json::Value = json::from_str(schema).unwrap_or_default();
        assert_eq!(v["type"], "object", "{event}");
        assert_eq!(v["additionalProperties"], false, "{event}");
    }
    assert_eq!(input_schema("hover"), None);
    let input: json::Value =
        json::from_str(input_schema("input").unwrap_or("")).unwrap_or_default();
    assert_eq!(input["required"][0], "value");
    let drag: json::Value = json::from_str(input_schema("drag").unwrap_or("")).unwrap_or_default();
    assert_eq!(drag["required"][0], "to");
}

#[test]
fn descriptions_come_from_title_and_desc() {
    let mut save = item("btn-save");
    save["title"] = json!("Save");
    save["desc"] = json!("Save the current list");
    assert_eq!(
        description(&save, "btn-save"),
        "Save: Save the current list"
    );
    save["desc"] = json!("");
    assert_eq!(description(&save, "btn-save"), "Save");
    save["title"] = json!("");
    assert_eq!(
        description(&save, "btn-save"),
        "Menu item \"btn-save\" (click)"
    );
    let mut slot = item("pager:next");
    slot["title"] = json!("Next page");
    let name = sanitised_name("pager:next");
    assert_eq!(
        description(&slot, &name),
        "Next page (menu item \"pager:next\")"
    );
}

#[test]
fn the_plan_goes_to_js_as_rows() {
    let mut save = item("btn-save");
    save["title"] = json!("Say \"hi\"");
    let rows: Value = json::from_str(&plan_json(&plan(&[save]))).unwrap_or_default();
    assert_eq!(rows[0][0], "btn-save");
    assert_eq!(rows[0][1], "btn-save");
    assert_eq!(rows[0][2], "Say \"hi\"");
    assert_eq!(rows[0][3], input_schema("click").unwrap_or_default());
    assert_eq!(plan_json(&[]), "[]");
}

#[test]
fn surface_capabilities_become_tools_with_their_schemas() {
    let result: json::Value = json::from_str(
        r#"{
          "capabilities": [
            { "id": "orders.search", "title": "Search orders", "input": { "type": "object", "required": ["q"] } },
            { "id": "orders.update_note@order", "title": "Update the note", "description": "Per order",
              "input": { "type": "object", "required": ["record", "note"] } },
            { "id": "orders.export", "title": "Export", "input": { "type": "object" } },
            { "id": "orders.bare", "title": "" }
          ],
          "unavailable": [
            { "capability": "orders.export", "reason": "disabled" },
            { "capability": "orders.update_note@order", "record": "SO-1002", "reason": "locked" }
          ]
        }"#,
    )
    .unwrap_or_default();
    let tools = plan_capabilities(&result);
    let ids: Vec<&str> = tools.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        ["orders.search", "orders.update_note@order", "orders.bare"],
        "unavailable as a whole: not published; per record: published"
    );
    assert_eq!(tools[0].name, "orders.search");
    assert_eq!(tools[0].schema, r#"{"required":["q"],"type":"object"}"#);
    assert_eq!(tools[1].name, sanitised_name("orders.update_note@order"));
    assert_eq!(
        tools[1].description,
        "Update the note: Per order (capability \"orders.update_note@order\")"
    );
    assert_eq!(tools[2].description, "Capability \"orders.bare\"");
    assert_eq!(tools[2].schema, r#"{"type":"object"}"#);
    assert!(plan_capabilities(&json::Value::Null).is_empty());
}

#[test]
fn responses_decide_what_stays_published() {
    let snapshot = json!({ "ok": true, "payload": { "snapshot": { "menu": [item("a")] } } });
    assert_eq!(plan_response(false, &snapshot).map(|t| t.len()), Some(1));
    // A refused read (e.g. RETIRED, PAGE_MISMATCH) keeps what is published.
    let refused = json!({ "ok": false, "error": { "code": "INTERNAL", "message": "" } });
    assert_eq!(plan_response(false, &refused), None);
    // No Surface session: nothing is usable.
    let expired = json!({ "ok": false, "error": { "code": "SESSION_EXPIRED", "message": "" } });
    assert_eq!(plan_response(true, &expired), Some(Vec::new()));
    let described =
        json!({ "ok": true, "result": { "capabilities": [{ "id": "x", "title": "X" }] } });
    assert_eq!(plan_response(true, &described).map(|t| t.len()), Some(1));
}
