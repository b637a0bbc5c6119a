use super::*;
use crate::model::{Escape, Generic, Island, IslandSlot, MenuItem};
use serde_json::{json, Value};

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

fn read(v: &Value) -> Result<Snapshot, SnapshotError> {
    decode_snapshot(v)
}

#[test]
fn strings_escape_like_serde_json() {
    for s in [
        "",
        "plain",
        "q\"b\\s",
        "\n\r\t\u{8}\u{c}\u{1}\u{1f}",
        "é記\u{2028}\u{7f}",
    ] {
        let snap = Snapshot {
            page_title: Some(s.into()),
            menu: vec![],
            ..Snapshot::default()
        };
        let text = snap.to_json();
        let want = serde_json::to_string(s).unwrap();
        assert!(
            text.starts_with(&format!("{{\"pageTitle\":{want},")),
            "{text}"
        );
        assert_eq!(Snapshot::from_json(&text), Ok(snap));
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
    // Keys in the contract's order (serde_json keeps it: preserve_order).
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "pageTitle",
            "menu",
            "islands",
            "generics",
            "dirty",
            "noReload"
        ]
    );
    let item: Vec<_> = v["menu"][1].as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        item,
        ["id", "event", "title", "desc", "enabled", "visible", "island"]
    );
    assert_eq!(read(&v), Ok(s));
    let none = Snapshot::default().to_json();
    assert!(none.starts_with("{\"pageTitle\":null,"), "{none}");
}

#[test]
fn reading_applies_defaults_and_names_what_is_wrong() {
    let v = json!({ "menu": [{ "id": "x", "enabled": true, "visible": true, "title": null }], "extra": { "deep": [1] } });
    let s = read(&v).unwrap();
    assert_eq!(s.menu[0].event, "click");
    assert_eq!(s.menu[0].title, "");
    assert!(s.page_title.is_none() && s.islands.is_empty() && !s.no_reload);
    let g =
        read(&json!({ "menu": [], "generics": [{ "ref": "g0", "role": "link", "name": "n" }] }))
            .unwrap();
    assert!(g.generics[0].visible, "a port's generic reads as visible");
    assert!(read(&json!({})).unwrap_err().to_string().contains("menu"));
    assert!(read(&json!([])).is_err());
    let e = read(&json!({ "menu": [{ "id": 1 }] })).unwrap_err();
    assert_eq!(e.path, "menu[0].id", "{e}");
    let e = read(&json!({ "menu": [], "noReload": "yes" })).unwrap_err();
    assert!(e.to_string().contains("noReload"), "{e}");
    // The first problem in the input's order wins, whatever follows it.
    let first = |v| read(&v).unwrap_err().to_string();
    assert_eq!(
        first(json!({ "pageTitle": 3, "menu": "no", "noReload": "yes" })),
        "pageTitle: invalid type: integer `3`, expected a string"
    );
    assert_eq!(
        first(json!({ "menu": [{ "id": "a", "enabled": true }, 7], "dirty": [1] })),
        "menu[0]: missing field `visible`"
    );
    assert_eq!(
        first(json!({ "menu": [], "islands": [{ "id": "i", "slots": [{ "name": "n" }] }] })),
        "islands[0].slots[0]: missing field `id`"
    );
    assert!(first(json!("x")).starts_with("the snapshot: invalid type: string"));
    assert_eq!(
        first(json!({ "menu": [], "dirty": ["a", 2] })),
        "dirty[1]: invalid type: integer `2`, expected a string"
    );
    // From text: trailing characters are refused, positions kept out of the path.
    assert!(Snapshot::from_json(r#"{"menu":[]} x"#).is_err());
    assert!(Snapshot::from_json(r#"{"menu":[]}"#).is_ok());
}

#[test]
fn escapes_json() {
    let e = [
        Escape {
            kind: "reload",
            allowed: false,
            reason: Some("why".into()),
        },
        Escape {
            kind: "reload",
            allowed: true,
            reason: None,
        },
    ];
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        r#"[{"type":"reload","allowed":false,"reason":"why"},{"type":"reload","allowed":true}]"#
    );
}
