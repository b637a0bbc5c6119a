//! Property tests: arbitrary JSON never panics, every answer is well formed,
//! and every refusal leaves the fake ports untouched.

use super::*;
use proptest::prelude::*;

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "(hello|snapshot|run|escape|reload|a|g0|)".prop_map(Value::String),
        ".{0,140}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(
                "(pageId|requestId|cmd|payload|id|type|screenshot|__proto__|constructor|x)",
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn arb_down(pid: String) -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just(json!(pid)), Just(Value::Null), arb_json()],
        prop_oneof![Just(json!("r")), arb_json()],
        prop_oneof![
            Just(json!("hello")),
            Just(json!("snapshot")),
            Just(json!("run")),
            Just(json!("escape")),
            arb_json()
        ],
        prop_oneof![
            Just(json!({ "id": "a" })),
            Just(json!({ "type": "reload" })),
            arb_json()
        ],
    )
        .prop_map(|(p, r, c, pl)| json!({ "pageId": p, "requestId": r, "cmd": c, "payload": pl }))
}

fn well_formed(up: &Value) -> bool {
    let base = up.get("requestId").is_some_and(Value::is_string)
        && up
            .get("pageId")
            .is_some_and(|p| p.is_null() || p.is_string());
    match up.get("ok") {
        Some(Value::Bool(true)) => base && up["payload"].is_object() && up.get("error").is_none(),
        Some(Value::Bool(false)) => {
            base && up["error"]["code"].is_string()
                && up["error"]["message"].is_string()
                && up.get("payload").is_none()
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_json_gets_a_well_formed_uplink(v in arb_json()) {
        let m = machine(vec![item("a")]);
        let up = send(&m, v);
        prop_assert!(well_formed(&up), "{}", up);
    }

    #[test]
    fn refusals_touch_nothing(seq in proptest::collection::vec(arb_down(String::new()), 1..8)) {
        let m = machine(vec![item("a")]);
        let pid = hello(&m).as_str().unwrap_or_default().to_string();
        for mut v in seq {
            if v["pageId"] == json!("") { v["pageId"] = json!(pid); }
            let clicks = m.bot.clicks.borrow().len();
            let reloads = m.bom.reloads.get();
            let phase = m.phase();
            let page = m.page_id();
            let up = send(&m, v);
            prop_assert!(well_formed(&up), "{}", up);
            if up["ok"] == json!(false) {
                prop_assert_eq!(m.bot.clicks.borrow().len(), clicks);
                prop_assert_eq!(m.phase(), phase);
                prop_assert_eq!(m.page_id(), page);
                let retired_now = m.bom.reloads.get() != reloads;
                prop_assert!(!retired_now);
            }
        }
    }
}
