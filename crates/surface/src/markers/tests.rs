use super::*;
use serde_json::json;

/// `[parent, flags, kind, id, field, record, title, state, active,
/// unavailable, level, pagetitle, text]`
fn row(parent: i64, flags: u64, kind: Option<&str>, attrs: &[(usize, &str)]) -> Value {
    let mut r = vec![json!(parent), json!(flags), json!(kind)];
    r.extend((3..13).map(|_| Value::Null));
    for &(i, v) in attrs {
        r[i] = json!(v);
    }
    Value::Array(r)
}

fn observe(rows: Vec<Value>) -> Observation {
    let data = json!([1, "https://shop.test/orders", "Orders — Shop", rows]).to_string();
    read_observation(&data).unwrap()
}

const ID: usize = 3;
const FIELD: usize = 4;
const KIND: usize = 5;
const TITLE: usize = 6;
const STATE: usize = 7;
const ACTIVE: usize = 8;
const UNAVAILABLE: usize = 9;
const LEVEL: usize = 10;
const PAGETITLE: usize = 11;
const TEXT: usize = 12;
/// A playable's disabled facts: it matches `:disabled`.
const DISABLED: u64 = sense::wire::DETAIL_DISABLED as u64;

/// The seed's orders page: a list region with two orders, SO-1002 locked.
fn orders_rows() -> Vec<Value> {
    vec![
        row(-1, 0, None, &[(PAGETITLE, "  Orders  ")]),
        row(
            -1,
            FLAG_VISIBLE,
            Some("region"),
            &[(ID, "list"), (TITLE, "Order list")],
        ),
        row(
            1,
            0,
            Some("record"),
            &[(ID, "SO-1001"), (KIND, "order"), (STATE, "open")],
        ),
        row(
            2,
            0,
            None,
            &[(FIELD, "customer"), (TEXT, "\n   Ada   Lovelace \n")],
        ),
        row(2, 0, None, &[(FIELD, "note"), (TEXT, "")]),
        row(
            2,
            FLAG_VISIBLE,
            Some("playable"),
            &[(ID, "update_note@order")],
        ),
        row(
            1,
            0,
            Some("record"),
            &[(ID, "SO-1002"), (KIND, "order"), (STATE, "locked")],
        ),
        row(6, 0, None, &[(FIELD, "customer"), (TEXT, "Grace Hopper")]),
        row(
            6,
            0,
            Some("playable"),
            &[(ID, "update_note@order"), (UNAVAILABLE, "记录已锁定")],
        ),
        row(-1, 0, Some("playable"), &[(ID, "orders.search")]),
        row(-1, FLAG_VISIBLE, Some("status"), &[(TEXT, " 2 orders ")]),
        row(
            -1,
            FLAG_VISIBLE,
            Some("feedback"),
            &[(LEVEL, "info"), (TEXT, "Welcome back")],
        ),
    ]
}

#[test]
fn the_orders_page_reads_into_the_model() {
    let obs = observe(orders_rows());
    assert_eq!(obs.page_title.as_deref(), Some("Orders"));
    assert_eq!(obs.document_title, "Orders — Shop");
    assert_eq!(
        obs.regions,
        vec![Region {
            id: "list".into(),
            title: "Order list".into(),
            active: true
        }]
    );
    assert_eq!(obs.records.len(), 2);
    let first = &obs.records[0];
    assert_eq!(
        (first.id.as_str(), first.kind.as_str()),
        ("SO-1001", "order")
    );
    assert_eq!(
        first.fields["customer"], "Ada Lovelace",
        "trimmed, whitespace collapsed"
    );
    assert_eq!(first.fields["note"], "", "an empty field is still a field");
    assert_eq!(first.state.as_deref(), Some("open"));
    assert_eq!(first.region.as_deref(), Some("list"));
    assert_eq!(obs.records[1].fields.len(), 1);
    assert_eq!(
        obs.action("update_note@order", Some("SO-1001")),
        Some(&ActionState {
            capability: "update_note@order".into(),
            record: Some("SO-1001".into()),
            enabled: true,
            visible: true,
            unavailable_reason: None,
        })
    );
    let locked = obs.action("update_note@order", Some("SO-1002")).unwrap();
    assert_eq!(locked.unavailable_reason.as_deref(), Some("记录已锁定"));
    assert!(!locked.visible, "no visible flag: hidden");
    assert!(obs.action("orders.search", None).unwrap().enabled);
    assert_eq!(obs.status, vec!["2 orders"]);
    assert_eq!(
        obs.feedback,
        vec![Feedback {
            text: "Welcome back".into(),
            level: Some("info".into())
        }]
    );
}

#[test]
fn regions_are_active_only_when_visible_and_not_marked_inactive() {
    let obs = observe(vec![
        row(-1, FLAG_VISIBLE, Some("region"), &[(ID, "a")]),
        row(-1, 0, Some("region"), &[(ID, "hidden")]),
        row(
            -1,
            FLAG_VISIBLE,
            Some("region"),
            &[(ID, "off"), (ACTIVE, "false")],
        ),
        row(
            -1,
            FLAG_VISIBLE,
            Some("region"),
            &[(ID, "on"), (ACTIVE, "true")],
        ),
        row(-1, FLAG_VISIBLE, Some("region"), &[(TITLE, "no id")]),
    ]);
    let active: Vec<(&str, bool)> = obs
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.active))
        .collect();
    assert_eq!(
        active,
        vec![("a", true), ("hidden", false), ("off", false), ("on", true)]
    );
}

#[test]
fn nesting_follows_the_nearest_valid_container() {
    let obs = observe(vec![
        row(-1, FLAG_VISIBLE, Some("region"), &[(ID, "outer")]),
        row(0, FLAG_VISIBLE, Some("region"), &[]), // no id: transparent
        row(1, 0, Some("record"), &[(ID, "r1"), (KIND, "order")]),
        row(2, 0, Some("record"), &[(ID, "line-1"), (KIND, "line")]),
        row(3, 0, None, &[(FIELD, "qty"), (TEXT, "2")]),
        row(2, 0, None, &[(FIELD, "total"), (TEXT, "9.50")]),
        row(2, 0, Some("record"), &[(KIND, "line")]), // no id: transparent
        row(6, 0, None, &[(FIELD, "sku"), (TEXT, "A-1")]),
        row(-1, 0, None, &[(FIELD, "orphan"), (TEXT, "x")]),
        row(-1, 0, Some("record"), &[(ID, "r2")]), // no kind: ignored
    ]);
    let ids: Vec<&str> = obs.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, vec!["r1", "line-1"]);
    assert_eq!(obs.records[0].region.as_deref(), Some("outer"));
    assert_eq!(obs.records[1].region.as_deref(), Some("outer"));
    assert_eq!(obs.records[1].fields["qty"], "2");
    // Which fields, not their order: objects now keep document order.
    let mut r1: Vec<&str> = obs.records[0].fields.keys().map(String::as_str).collect();
    r1.sort_unstable();
    assert_eq!(
        r1,
        vec!["sku", "total"],
        "fields of an id-less record go to the enclosing one"
    );
}

#[test]
fn only_row_action_ids_inside_records_belong_to_a_record() {
    let obs = observe(vec![
        row(-1, 0, Some("record"), &[(ID, "SO-1"), (KIND, "order")]),
        row(0, 0, Some("playable"), &[(ID, "orders.open")]),
        row(0, DISABLED, Some("playable"), &[(ID, "cancel@order")]),
        row(
            -1,
            0,
            Some("playable"),
            &[(ID, "cancel@order"), (UNAVAILABLE, "   ")],
        ),
        row(-1, 0, Some("playable"), &[(ID, "")]),
    ]);
    assert_eq!(
        obs.action("orders.open", None).map(|a| a.enabled),
        Some(true)
    );
    assert_eq!(
        obs.action("cancel@order", Some("SO-1"))
            .map(|a| (a.enabled, a.unavailable_reason.as_deref())),
        Some((false, None))
    );
    assert_eq!(
        obs.action("cancel@order", None)
            .and_then(|a| a.unavailable_reason.as_deref()),
        Some("unavailable"),
        "an empty data-e2e-unavailable still means unavailable"
    );
    assert_eq!(obs.actions.len(), 3);
}

#[test]
fn page_text_is_capped_and_overlong_ids_are_ignored() {
    let long = "字".repeat(5000);
    let long_id = "x".repeat(MAX_ID_CHARS + 1);
    let max_id = "y".repeat(MAX_ID_CHARS);
    let obs = observe(vec![
        row(
            -1,
            FLAG_VISIBLE,
            Some("region"),
            &[(ID, "r"), (TITLE, &long)],
        ),
        row(
            -1,
            0,
            Some("record"),
            &[(ID, &max_id), (KIND, "k"), (STATE, &long)],
        ),
        row(1, 0, None, &[(FIELD, &long), (TEXT, &long)]),
        row(-1, 0, Some("record"), &[(ID, &long_id), (KIND, "k")]),
        row(-1, FLAG_VISIBLE, Some("status"), &[(TEXT, &long)]),
        row(
            -1,
            FLAG_VISIBLE,
            Some("feedback"),
            &[(TEXT, &long), (LEVEL, &long)],
        ),
        row(-1, 0, Some("playable"), &[(ID, "a"), (UNAVAILABLE, &long)]),
        row(-1, 0, None, &[(PAGETITLE, &long)]),
    ]);
    let n = |s: &str| s.chars().count();
    assert_eq!(n(&obs.regions[0].title), 200);
    assert_eq!(
        obs.records.len(),
        1,
        "an id over 200 characters is ignored, not cut"
    );
    let rec = &obs.records[0];
    assert_eq!(n(rec.state.as_deref().unwrap()), 200);
    let (name, text) = rec.fields.iter().next().unwrap();
    assert_eq!((n(name), n(text.as_str().unwrap())), (200, 1000));
    assert_eq!(n(&obs.status[0]), 1000);
    assert_eq!(n(&obs.feedback[0].text), 1000);
    assert_eq!(n(obs.feedback[0].level.as_deref().unwrap()), 200);
    assert_eq!(
        n(obs.actions[0].unavailable_reason.as_deref().unwrap()),
        200
    );
    assert_eq!(n(obs.page_title.as_deref().unwrap()), 200);
}

#[test]
fn fields_per_record_are_bounded_and_the_first_of_a_name_wins() {
    let mut rows = vec![row(-1, 0, Some("record"), &[(ID, "r"), (KIND, "k")])];
    rows.push(row(0, 0, None, &[(FIELD, "a"), (TEXT, "first")]));
    rows.push(row(0, 0, None, &[(FIELD, "a"), (TEXT, "second")]));
    let names: Vec<String> = (0..100).map(|i| format!("f{i:03}")).collect();
    for name in &names {
        rows.push(row(0, 0, None, &[(FIELD, name), (TEXT, "v")]));
    }
    let obs = observe(rows);
    assert_eq!(obs.records[0].fields.len(), MAX_FIELDS_PER_RECORD);
    assert_eq!(obs.records[0].fields["a"], "first");
}

#[test]
fn hidden_status_and_feedback_are_skipped() {
    let obs = observe(vec![
        row(-1, 0, Some("status"), &[(TEXT, "hidden status")]),
        row(-1, 0, Some("feedback"), &[(TEXT, "internal: db password")]),
        row(-1, FLAG_VISIBLE, Some("status"), &[(TEXT, "Saved")]),
    ]);
    assert_eq!(obs.status, vec!["Saved"]);
    assert!(obs.feedback.is_empty());
    assert!(!obs.shows_text("hidden status"));
}

#[test]
fn empty_status_and_feedback_are_skipped() {
    let obs = observe(vec![
        row(-1, FLAG_VISIBLE, Some("status"), &[(TEXT, "  \n ")]),
        row(-1, FLAG_VISIBLE, Some("status"), &[]),
        row(-1, FLAG_VISIBLE, Some("feedback"), &[(LEVEL, "error")]),
        row(-1, FLAG_VISIBLE, Some("status"), &[(TEXT, "Saved")]),
    ]);
    assert_eq!(obs.status, vec!["Saved"]);
    assert!(obs.feedback.is_empty());
    assert!(obs.shows_text("Saved"));
}

#[test]
fn document_identity_follows_the_document_and_its_url() {
    let id = |serial: u64, href: &str| {
        read_observation(&json!([serial, href, "", []]).to_string())
            .unwrap()
            .document_id
    };
    assert_eq!(id(1, "https://a/x"), id(1, "https://a/x"));
    assert_ne!(
        id(1, "https://a/x"),
        id(2, "https://a/x"),
        "a replaced document"
    );
    assert_ne!(id(1, "https://a/x"), id(1, "https://a/x#y"), "a navigation");
}

#[test]
fn malformed_data_is_an_error_or_ignored_never_a_panic() {
    assert!(read_observation("").is_err());
    assert!(read_observation("{}").is_err());
    assert!(read_observation("[1,2,3]").is_err());
    let odd = json!([
        null,
        null,
        null,
        [
            null,
            5,
            [],
            ["x"],
            [99, 1, "record", "a", null, "k"],
            [-7, "z", "status"]
        ]
    ]);
    let obs = read_observation(&odd.to_string()).unwrap();
    assert_eq!(
        obs.records.len(),
        1,
        "an out-of-range parent counts as none"
    );
    assert!(obs.status.is_empty());
}

#[test]
fn shows_text_is_a_substring_match_over_status_and_feedback() {
    let obs = observe(vec![
        row(
            -1,
            FLAG_VISIBLE,
            Some("status"),
            &[(TEXT, "Order SO-1001: 备注已保存 (2 s)")],
        ),
        row(
            -1,
            FLAG_VISIBLE,
            Some("feedback"),
            &[(TEXT, "Payment declined")],
        ),
    ]);
    for yes in ["备注已保存", "SO-1001", "(2 s)", "Order", "declined", ""] {
        assert!(obs.shows_text(yes), "{yes:?}");
    }
    for no in ["备注已保存!", "order", "Declined", "s) x"] {
        assert!(!obs.shows_text(no), "{no:?}");
    }
}

#[test]
fn a_playables_disabled_facts_are_decided_by_senses_rule() {
    use sense::wire::{
        DETAIL_FIELDSETS_SHIFT, DETAIL_IN_MODAL, DETAIL_LEGENDS_SHIFT, DETAIL_MODAL,
    };
    let fieldset = 1u64 << DETAIL_FIELDSETS_SHIFT;
    let legend = 1u64 << DETAIL_LEGENDS_SHIFT;
    let modal = u64::from(DETAIL_MODAL);
    let cases = [
        ("plain", FLAG_VISIBLE, true),
        ("fieldset", FLAG_VISIBLE | fieldset, false),
        ("legend", FLAG_VISIBLE | fieldset | legend, true),
        ("behind", modal, false),
        ("dialog", modal | u64::from(DETAIL_IN_MODAL), true),
        ("off", DISABLED, false),
    ];
    let obs = observe(
        cases
            .iter()
            .map(|&(id, flags, _)| row(-1, flags, Some("playable"), &[(ID, id)]))
            .collect(),
    );
    for (id, flags, enabled) in cases {
        let a = obs.action(id, None).unwrap();
        assert_eq!(a.enabled, enabled, "{id}");
        assert_eq!(a.visible, flags & FLAG_VISIBLE != 0, "{id}");
    }
}
