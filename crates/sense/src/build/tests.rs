use super::*;
use crate::model::RawNode as N;
use serde_json::json;

const EV: u32 = N::FLAG_ENABLED | N::FLAG_VISIBLE;

fn playable<'a>(id: &'a str, title: &'a str, flags: u32) -> N<'a> {
    N {
        flags,
        kind: Some("playable"),
        id: Some(id),
        title: Some(title),
        role: Some("button"),
        name: Some(title),
        ..N::default()
    }
}

/// An island whose descendants are the next `inside` nodes.
fn island(id: &str, at: usize, inside: usize) -> N<'_> {
    N {
        kind: Some("island"),
        id: Some(id),
        end: at + 1 + inside,
        ..N::default()
    }
}

fn button(label: &str, flags: u32) -> N<'_> {
    N {
        flags: flags | N::FLAG_INTERACTIVE,
        role: Some("button"),
        name: Some(label),
        aria_label: Some(label),
        ..N::default()
    }
}

fn titled(title: &str) -> N<'_> {
    N {
        page_title: Some(title),
        ..N::default()
    }
}

fn link(name: &str) -> N<'_> {
    N {
        flags: N::FLAG_INTERACTIVE,
        role: Some("link"),
        name: Some(name),
        ..N::default()
    }
}

fn json_of(s: &Snapshot) -> serde_json::Value {
    serde_json::from_str(&s.to_json()).unwrap()
}

fn pagination() -> IslandSlots {
    IslandSlots::from_json(&json!({
        "list-pagination": {
            "next": { "ariaLabel": "Next page" },
            "prev": { "role": "button", "name": "Previous" }
        }
    }))
    .unwrap()
}

#[test]
fn seed_markup_yields_title_menu_and_generics() {
    let title = titled("  ready-list ");
    let nodes = vec![title, playable("btn-save", "Save", EV), link("Help")];
    let b = build(&nodes, &IslandSlots::default());
    let v = json_of(&b.snapshot);
    assert_eq!(
        v,
        json!({
            "pageTitle": "ready-list",
            "menu": [{ "id": "btn-save", "event": "click", "title": "Save", "desc": "", "enabled": true, "visible": true }],
            "islands": [],
            "generics": [{ "ref": "g0", "role": "link", "name": "Help" }],
            "dirty": [],
            "noReload": false
        })
    );
    assert_eq!(b.target_of("btn-save"), Some(1));
    assert_eq!(b.target_of("g0"), None);
}

#[test]
fn first_non_empty_page_title_wins() {
    let (a, b, c) = (titled("   "), titled("second"), titled("third"));
    assert_eq!(
        build(&[a, b, c], &IslandSlots::default())
            .snapshot
            .page_title
            .as_deref(),
        Some("second")
    );
    assert_eq!(
        build(&[], &IslandSlots::default()).snapshot.page_title,
        None
    );
}

#[test]
fn islands_expand_into_slots_at_their_position() {
    let nodes = vec![
        playable("before", "B", EV),
        island("list-pagination", 1, 2),
        button("Previous", EV),
        button("Next page", EV),
        playable("after", "A", EV),
    ];
    let b = build(&nodes, &pagination());
    let ids: Vec<_> = b.snapshot.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "before",
            "list-pagination:next",
            "list-pagination:prev",
            "after"
        ]
    );
    assert_eq!(b.target_of("list-pagination:next"), Some(3));
    assert_eq!(b.target_of("list-pagination:prev"), Some(2));
    let next = &b.snapshot.menu[1];
    assert_eq!(next.island.as_deref(), Some("list-pagination"));
    assert_eq!(next.title, "Next page");
    assert_eq!(b.snapshot.islands.len(), 1);
    assert!(b.snapshot.islands[0].slots.iter().all(|s| s.resolved));
    // Resolved slot elements are menu items, not generic refs.
    assert!(b.snapshot.generics.is_empty());
}

#[test]
fn slot_resolves_only_inside_its_own_island() {
    let nodes = vec![
        button("Next page", EV), // before the island: outside it
        island("list-pagination", 1, 0),
        link("unrelated"),
    ];
    let b = build(&nodes, &pagination());
    assert!(b.snapshot.menu.is_empty());
    let slots = &b.snapshot.islands[0].slots;
    assert_eq!(slots.len(), 2);
    assert!(slots.iter().all(|s| !s.resolved));
    assert_eq!(slots[0].id, "list-pagination:next");
    assert_eq!(b.snapshot.generics.len(), 2);
}

#[test]
fn aria_label_specs_compare_as_names_do() {
    // The label's whitespace is trimmed and collapsed, as for role+name.
    let nodes = vec![
        island("list-pagination", 0, 2),
        button("  Next \n page ", EV),
        button("Previous", EV),
    ];
    let b = build(&nodes, &pagination());
    assert!(b.snapshot.islands[0].slots.iter().all(|s| s.resolved));
    assert_eq!(b.target_of("list-pagination:next"), Some(1));
    assert_eq!(b.snapshot.menu[0].title, "Next page");
    let spaced =
        IslandSlots::from_json(&json!({ "i": { "s": { "ariaLabel": " a  b " } } })).unwrap();
    let b = build(&[island("i", 0, 1), button("a b", EV)], &spaced);
    assert!(b.snapshot.islands[0].slots[0].resolved, "the spec's too");
    let b = build(&[island("i", 0, 1), button("ab", EV)], &spaced);
    assert!(!b.snapshot.islands[0].slots[0].resolved, "words stay apart");
    let empty = IslandSlots::from_json(&json!({ "i": { "s": { "ariaLabel": "" } } })).unwrap();
    let b = build(&[island("i", 0, 1), link("x")], &empty);
    assert!(
        !b.snapshot.islands[0].slots[0].resolved,
        "no aria-label is no match, even for an empty spec"
    );
}

#[test]
fn slot_matching_two_elements_is_ambiguous_without_target() {
    let nodes = vec![
        island("list-pagination", 0, 2),
        button("Next page", EV),
        button("Next page", EV),
    ];
    let b = build(&nodes, &pagination());
    assert_eq!(b.snapshot.menu.len(), 1);
    assert!(b.snapshot.menu[0].ambiguous);
    assert_eq!(b.target_of("list-pagination:next"), None);
}

#[test]
fn duplicate_ids_are_listed_once_as_ambiguous() {
    let nodes = vec![
        playable("x", "one", EV),
        playable("y", "y", EV),
        playable("x", "two", 0),
    ];
    let b = build(&nodes, &IslandSlots::default());
    let v = &json_of(&b.snapshot)["menu"];
    assert_eq!(v[0]["ambiguous"], json!(true));
    assert_eq!(v[0]["title"], json!("one"));
    assert!(v[1].get("ambiguous").is_none());
    assert_eq!(b.snapshot.menu.len(), 2);
    assert_eq!(b.target_of("x"), None);
    assert_eq!(b.target_of("y"), Some(1));
}

#[test]
fn enabled_visible_event_desc_dirty_noreload() {
    let mut hidden = playable("hidden", "H", N::FLAG_ENABLED);
    hidden.event = Some("input");
    hidden.desc = Some("does things");
    let dirty_named = N {
        flags: N::FLAG_DIRTY | N::FLAG_NORELOAD,
        id: Some("note"),
        ..N::default()
    };
    let dirty_anon = N {
        flags: N::FLAG_DIRTY,
        ..N::default()
    };
    let b = build(
        &[
            hidden,
            playable("off", "O", N::FLAG_VISIBLE),
            dirty_named,
            dirty_anon,
        ],
        &IslandSlots::default(),
    );
    let m = &b.snapshot.menu;
    assert_eq!(
        (
            m[0].enabled,
            m[0].visible,
            m[0].event.as_str(),
            m[0].desc.as_str()
        ),
        (true, false, "input", "does things")
    );
    assert_eq!(
        (m[1].enabled, m[1].visible, m[1].event.as_str()),
        (false, true, "click")
    );
    assert_eq!(b.snapshot.dirty, vec!["note".to_string(), String::new()]);
    assert!(b.snapshot.no_reload);
}

#[test]
fn playable_without_id_is_not_a_menu_item() {
    let mut n = playable("", "x", EV);
    n.flags |= N::FLAG_INTERACTIVE;
    let b = build(&[n], &IslandSlots::default());
    assert!(b.snapshot.menu.is_empty());
    assert_eq!(
        b.snapshot.generics.len(),
        1,
        "an unmarked-in-effect button is a generic ref"
    );
}

#[test]
fn page_text_is_capped() {
    let long = "t".repeat(10_000);
    let mut n = playable("p", &long, EV);
    n.desc = Some(&long);
    let mut odd_role = link("x");
    odd_role.role = Some(&long);
    let b = build(&[n, link(&long), odd_role], &IslandSlots::default());
    assert_eq!(b.snapshot.menu[0].title.chars().count(), TITLE_MAX_CHARS);
    assert_eq!(b.snapshot.menu[0].desc.chars().count(), DESC_MAX_CHARS);
    assert_eq!(b.snapshot.generics[0].name.chars().count(), TITLE_MAX_CHARS);
    assert_eq!(b.snapshot.generics[0].role, "link");
    assert_eq!(b.snapshot.generics[1].role.chars().count(), TITLE_MAX_CHARS);
}

#[test]
fn an_id_over_the_cap_is_no_id_and_an_unknown_event_is_cut() {
    let at_cap = "é".repeat(ID_MAX_CHARS);
    let over = "i".repeat(ID_MAX_CHARS + 1);
    let mut odd = playable("odd", "O", EV);
    let event = "e".repeat(5000);
    odd.event = Some(&event);
    let mut too_long = playable(&over, "T", EV);
    too_long.flags |= N::FLAG_INTERACTIVE;
    let dirty = N {
        flags: N::FLAG_DIRTY,
        id: Some(&over),
        ..N::default()
    };
    let b = build(
        &[
            playable(&at_cap, "A", EV),
            too_long,
            island(&over, 3, 0),
            dirty,
            odd,
        ],
        &pagination(),
    );
    let ids: Vec<&str> = b.snapshot.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [at_cap.as_str(), "odd"],
        "the over-long id is not in the menu"
    );
    assert!(b.snapshot.islands.is_empty(), "nor is the island");
    assert_eq!(b.snapshot.dirty, [String::new()], "still dirty, unnamed");
    assert_eq!(
        b.snapshot.generics.len(),
        1,
        "the button is an unmarked one"
    );
    assert_eq!(b.snapshot.menu[1].event, "e".repeat(EVENT_MAX_CHARS));
}

#[test]
fn a_playable_id_shaped_like_a_generic_ref_is_a_playable() {
    // Baseline §2: any non-empty data-e2e-id makes a playable; only a run
    // of `g` + digits is refused (NOT_IN_MENU, in run.rs).
    let mut button = playable("g0", "B", EV);
    button.flags |= N::FLAG_INTERACTIVE;
    let mut dirty = playable("g3", "D", EV);
    dirty.flags |= N::FLAG_DIRTY;
    let b = build(
        &[
            button,
            playable("g12", "Q", 0),
            playable("g12", "Q", EV),
            dirty,
            island("g1", 4, 0),
        ],
        &IslandSlots::default(),
    );
    let ids: Vec<&str> = b.snapshot.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["g0", "g12", "g3"], "offered like any other id");
    let g0 = &b.snapshot.menu[0];
    assert_eq!(
        (g0.title.as_str(), g0.enabled, g0.visible),
        ("B", true, true)
    );
    assert!(
        b.snapshot.menu[1].ambiguous,
        "a duplicated one is ambiguous"
    );
    assert!(
        b.snapshot.generics.is_empty(),
        "the interactive g0 is marked, so no generic"
    );
    assert_eq!(b.snapshot.dirty, ["g3"], "a dirty element keeps its id");
    assert_eq!(b.snapshot.islands[0].id, "g1", "an island keeps its id");
}

#[test]
fn generic_refs_are_recognised() {
    assert!(is_generic_ref("g0"));
    assert!(is_generic_ref("g12"));
    assert!(!is_generic_ref("g"));
    assert!(!is_generic_ref("go"));
    assert!(!is_generic_ref("g1x"));
    assert!(!is_generic_ref(""));
}

#[test]
fn nodes_decoded_from_the_wire_build_a_menu() {
    use crate::wire::{self, DETAIL_DISABLED, DETAIL_VISIBLE, FIELD_SHIFT};
    // <button data-e2e-kind="playable" data-e2e-id="a">: tag, kind, id.
    let head = 0b111 << FIELD_SHIFT;
    let facts = wire::facts("BUTTONplayablea", &[head, 1, 6, 8, 1]).unwrap();
    let plan = crate::read::plan(&facts);
    assert_eq!(plan.asks(), [0, DETAIL_VISIBLE | DETAIL_DISABLED]);
    let details = wire::details("", &[DETAIL_VISIBLE]).unwrap();
    let reading = crate::read::decide(&facts, plan, &details, false).unwrap();
    let b = build(&reading.nodes(&facts), &IslandSlots::default());
    assert_eq!(b.snapshot.menu[0].id, "a");
    assert!(b.snapshot.menu[0].enabled && b.snapshot.menu[0].visible);
}

#[test]
fn nested_islands_see_their_own_descendants() {
    let slots = IslandSlots::from_json(&json!({
        "outer": { "x": { "ariaLabel": "X" } },
        "inner": { "x": { "ariaLabel": "X" } }
    }))
    .unwrap();
    // outer contains inner, which contains the only X.
    let nodes = vec![
        island("outer", 0, 2),
        island("inner", 1, 1),
        button("X", EV),
    ];
    let b = build(&nodes, &slots);
    let ids: Vec<_> = b.snapshot.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["outer:x", "inner:x"]);
    assert_eq!(b.target_of("inner:x"), Some(2));
    // An end past the list is clipped, never a panic.
    let nodes = vec![island("outer", 0, 99), button("X", EV)];
    assert_eq!(build(&nodes, &slots).snapshot.menu.len(), 1);
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(testkit::cases()))]

        #[test]
        fn build_never_panics(
            raw in proptest::collection::vec(
                (0u32..64, 0usize..16, proptest::option::of("(playable|island|x)"),
                 proptest::option::of("[a-c:]{0,3}"), proptest::option::of("(next|prev|)"), proptest::option::of(".{0,4}")),
                0..12)
        ) {
            let nodes: Vec<N> = raw.iter().map(|(f, end, kind, id, label, t)| N {
                flags: *f,
                end: *end,
                kind: kind.as_deref(),
                id: id.as_deref(),
                title: t.as_deref(),
                page_title: t.as_deref(),
                role: Some("button"),
                name: label.as_deref(),
                aria_label: label.as_deref(),
                ..N::default()
            }).collect();
            let slots = IslandSlots::from_json(&json!({"a": {"next": {"ariaLabel": "next"}, "prev": {"role": "button", "name": "prev"}}})).unwrap();
            let b = build(&nodes, &slots);
            proptest::prop_assert_eq!(b.snapshot.menu.len(), b.targets.len());
            for (m, t) in b.snapshot.menu.iter().zip(&b.targets) {
                if m.ambiguous { proptest::prop_assert!(t.is_none()); }
            }
        }
    }
}

#[test]
fn many_islands_find_their_own_slots() {
    let mut table = serde_json::Map::new();
    for i in (0..40).rev() {
        table.insert(
            format!("i{i}"),
            json!({ "x": { "ariaLabel": format!("X{i}") } }),
        );
    }
    let slots = IslandSlots::from_json(&serde_json::Value::Object(table)).unwrap();
    let ids: Vec<String> = (0..40).map(|i| format!("i{i}")).collect();
    let labels: Vec<String> = (0..40).map(|i| format!("X{i}")).collect();
    let mut nodes = Vec::new();
    for i in 0..40 {
        nodes.push(island(&ids[i], 2 * i, 1));
        nodes.push(button(&labels[i], EV));
    }
    let b = build(&nodes, &slots);
    assert_eq!(b.snapshot.menu.len(), 40);
    for i in 0..40 {
        assert_eq!(b.target_of(&format!("i{i}:x")), Some(2 * i + 1));
    }
    assert!(b.snapshot.islands.iter().all(|i| i.slots[0].resolved));
}

#[test]
fn index_finds_every_key_through_growth_and_keeps_the_first_value() {
    let keys: Vec<String> = (0..1000).map(|i| format!("id-{i}")).collect();
    let mut index = Index::default();
    assert_eq!(index.get("id-0"), None, "an empty index finds nothing");
    for (i, k) in keys.iter().enumerate() {
        index.insert(Cow::Borrowed(k.as_str()), i);
        index.insert(Cow::Owned(k.clone()), i + 5000);
    }
    for (i, k) in keys.iter().enumerate() {
        assert_eq!(index.get(k), Some(i), "{k}: first value wins");
    }
    assert_eq!(index.get("id-1000"), None);
    assert_eq!(index.get(""), None);
    assert_eq!(index.map.len(), keys.len(), "one entry per key");
}

#[test]
fn generics_carry_their_visibility() {
    let mut shown = link("Shown");
    shown.flags |= N::FLAG_VISIBLE;
    let b = build(&[shown, link("Hidden")], &IslandSlots::default());
    let g: Vec<_> = b
        .snapshot
        .generics
        .iter()
        .map(|g| (g.name.as_str(), g.visible))
        .collect();
    assert_eq!(g, [("Shown", true), ("Hidden", false)]);
    // Not part of the wire form.
    assert_eq!(
        json_of(&b.snapshot)["generics"][1],
        json!({ "ref": "g1", "role": "link", "name": "Hidden" })
    );
}
