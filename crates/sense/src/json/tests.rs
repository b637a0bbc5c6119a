use super::*;
use serde_json::json;

#[test]
fn strings_escape_like_serde_json() {
    for s in [
        "",
        "plain",
        "q\"b\\s",
        "\n\r\t\u{8}\u{c}\u{1}\u{1f}",
        "é記\u{2028}\u{7f}",
    ] {
        let mut out = String::new();
        push_str(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
    }
}

fn sample() -> Snapshot {
    Snapshot {
        page_title: Some("T \"x\"".into()),
        menu: vec![
            MenuItem {
                id: "a".into(),
                event: "click".into(),
                title: "A".into(),
                desc: String::new(),
                enabled: true,
                visible: false,
                island: None,
                ambiguous: true,
            },
            MenuItem {
                id: "i:next".into(),
                event: "click".into(),
                island: Some("i".into()),
                ..MenuItem::default()
            },
        ],
        islands: vec![Island {
            id: "i".into(),
            slots: vec![IslandSlot {
                name: "next".into(),
                id: "i:next".into(),
                resolved: true,
            }],
        }],
        generics: vec![Generic {
            reference: "g0".into(),
            role: "link".into(),
            name: "Help".into(),
            visible: true,
        }],
        dirty: vec!["".into()],
        no_reload: true,
    }
}

#[test]
fn snapshot_json_has_the_contract_shape_and_reads_back() {
    let s = sample();
    let v: Value = serde_json::from_str(&s.to_json()).unwrap();
    assert_eq!(
        v,
        json!({
            "pageTitle": "T \"x\"",
            "menu": [
                { "id": "a", "event": "click", "title": "A", "desc": "", "enabled": true, "visible": false, "ambiguous": true },
                { "id": "i:next", "event": "click", "title": "", "desc": "", "enabled": false, "visible": false, "island": "i" }
            ],
            "islands": [{ "id": "i", "slots": [{ "name": "next", "id": "i:next", "resolved": true }] }],
            "generics": [{ "ref": "g0", "role": "link", "name": "Help" }],
            "dirty": [""],
            "noReload": true
        })
    );
    assert_eq!(Snapshot::from_value(&v), Ok(s));
}

#[test]
fn reading_applies_defaults_and_names_what_is_wrong() {
    let v = json!({ "menu": [{ "id": "x", "enabled": true, "visible": true }], "extra": 1 });
    let s = Snapshot::from_value(&v).unwrap();
    assert_eq!(s.menu[0].event, "click");
    assert!(s.page_title.is_none() && s.islands.is_empty() && !s.no_reload);
    assert!(Snapshot::from_value(&json!({}))
        .unwrap_err()
        .contains("menu"));
    assert!(Snapshot::from_value(&json!([])).is_err());
    let e = Snapshot::from_value(&json!({ "menu": [{ "id": 1 }] })).unwrap_err();
    assert!(e.contains("id"), "{e}");
    let e = Snapshot::from_value(&json!({ "menu": [], "noReload": "yes" })).unwrap_err();
    assert!(e.contains("noReload"), "{e}");
    // The first problem in field order wins, whatever follows it.
    let first = |v| Snapshot::from_value(&v).unwrap_err();
    assert_eq!(
        first(json!({ "pageTitle": 3, "menu": "no", "noReload": "yes" })),
        "`pageTitle` must be a string"
    );
    assert_eq!(
        first(json!({ "menu": [{ "id": "a", "enabled": true }, 7], "dirty": [1] })),
        "missing field `visible`"
    );
    assert_eq!(
        first(json!({ "menu": [], "islands": [{ "id": "i", "slots": [{ "name": "n" }] }] })),
        "missing field `id`"
    );
    assert_eq!(first(json!([])), "the snapshot must be an object");
    assert_eq!(
        first(json!({ "menu": [], "dirty": ["a", 2] })),
        "dirty must contain only strings"
    );
    assert_eq!(
        crate::json::escape_inputs(&json!({ "dirty": "x" })).unwrap_err(),
        "`dirty` must be an array"
    );
    let ok = crate::json::escape_inputs(&json!({ "dirty": ["f"], "noReload": true })).unwrap();
    assert_eq!((ok.dirty, ok.no_reload), (vec!["f".to_string()], true));
}

#[test]
fn escapes_json() {
    let mut out = String::new();
    Escape::list_json(
        &[Escape {
            kind: "reload",
            allowed: false,
            reason: Some("why".into()),
        }],
        &mut out,
    );
    assert_eq!(out, r#"[{"type":"reload","allowed":false,"reason":"why"}]"#);
}
