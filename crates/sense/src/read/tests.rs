use super::*;
use crate::rules::FALLBACK_ASKS;
use crate::wire::{ASK_TEXT, DETAIL_REFS, FACT_HREF, FACT_INERT};
use crate::{build, IslandSlots, Snapshot};

fn el(tag: &str, end: usize) -> Facts<'_> {
    Facts {
        tag,
        end,
        ..Facts::default()
    }
}

fn with(mut f: Facts<'_>, flags: u32) -> Facts<'_> {
    f.flags |= flags;
    f
}

fn playable<'a>(id: &'a str, end: usize) -> Facts<'a> {
    Facts {
        kind: Some("playable"),
        id: Some(id),
        ..el("BUTTON", end)
    }
}

fn link(end: usize) -> Facts<'static> {
    with(el("A", end), FACT_HREF)
}

/// The asks as (index, bits) pairs.
fn asks(plan: &Plan) -> Vec<(u32, u32)> {
    plan.asks().chunks_exact(2).map(|a| (a[0], a[1])).collect()
}

const STATES: u32 = DETAIL_VISIBLE | DETAIL_DISABLED;
const TEXT_NAME: u32 = DETAIL_REFS | ASK_TEXT;

fn shown(text: &str) -> Details<'_> {
    Details {
        flags: DETAIL_VISIBLE,
        text: Some(text),
        ..Details::default()
    }
}

/// plan → (answers) → decide → build, the way dom.rs runs it.
fn read_with<'a>(
    facts: &[Facts<'a>],
    answer: impl Fn(usize, u32) -> Details<'a>,
    root_disabled: bool,
    slots: &IslandSlots,
) -> Snapshot {
    let plan = plan(facts);
    let answers: Vec<Details> = asks(&plan)
        .into_iter()
        .map(|(i, bits)| answer(i as usize, bits))
        .collect();
    let mut reading = decide(facts, plan, &answers, root_disabled).unwrap();
    let second: Vec<Details> = reading
        .fallback_asks()
        .chunks_exact(2)
        .map(|a| answer(a[0] as usize, a[1]))
        .collect();
    if !second.is_empty() {
        reading.with_fallbacks(&second).unwrap();
    }
    build(&reading.nodes(facts), slots).snapshot
}

#[test]
fn asks_states_of_playables_and_names_of_generics_only() {
    let facts = [
        Facts {
            page_title: Some("T"),
            ..el("MAIN", 5)
        },
        playable("save", 2),
        link(3),
        // Not interactive: no details at all (a region's text is never read).
        Facts {
            role: Some("navigation"),
            ..el("NAV", 4)
        },
        // Named by its aria-label: visibility only.
        Facts {
            aria_label: Some("Close"),
            ..el("BUTTON", 5)
        },
    ];
    assert_eq!(
        asks(&plan(&facts)),
        [
            (1, STATES),
            (2, DETAIL_VISIBLE | TEXT_NAME),
            (4, DETAIL_VISIBLE)
        ]
    );
}

#[test]
fn slot_candidates_inside_islands_get_states_and_names() {
    let facts = [
        Facts {
            kind: Some("island"),
            id: Some("pager"),
            ..el("NAV", 4)
        },
        // A role or an aria-label inside an island: a possible slot.
        Facts {
            role: Some("heading"),
            ..el("H2", 2)
        },
        Facts {
            aria_label: Some("Next"),
            ..el("SPAN", 3)
        },
        el("SPAN", 4),
        // Outside: a non-interactive role is nothing.
        Facts {
            role: Some("heading"),
            ..el("H2", 5)
        },
    ];
    assert_eq!(asks(&plan(&facts)), [(1, STATES | TEXT_NAME), (2, STATES)]);
}

#[test]
fn a_read_builds_roles_names_states_and_generic_visibility() {
    let facts = [
        playable("save", 1),
        link(2),
        Facts {
            aria_label: Some("Close"),
            ..el("BUTTON", 3)
        },
        Facts {
            role: Some("Tab extra"),
            ..el("DIV", 4)
        },
    ];
    let snap = read_with(
        &facts,
        |i, _| match i {
            0 => Details {
                flags: DETAIL_VISIBLE,
                ..Details::default()
            },
            1 => shown("  Help  "),
            2 => Details::default(), // hidden
            _ => shown("Second"),
        },
        false,
        &IslandSlots::default(),
    );
    assert_eq!(snap.menu.len(), 1);
    assert!(snap.menu[0].enabled && snap.menu[0].visible);
    let g: Vec<_> = snap
        .generics
        .iter()
        .map(|g| {
            (
                g.reference.as_str(),
                g.role.as_str(),
                g.name.as_str(),
                g.visible,
            )
        })
        .collect();
    assert_eq!(
        g,
        [
            ("g0", "link", "Help", true),
            ("g1", "button", "Close", false),
            ("g2", "tab", "Second", true)
        ]
    );
}

#[test]
fn disabled_comes_from_the_element_its_ancestors_or_above_the_root() {
    let facts = [
        playable("a", 1),
        // aria-disabled="true" around b; inert around c; d is :disabled.
        Facts {
            aria_disabled: Some("true"),
            ..el("DIV", 3)
        },
        playable("b", 3),
        with(el("DIV", 5), FACT_INERT),
        playable("c", 5),
        playable("d", 6),
        Facts {
            aria_disabled: Some("false"),
            ..el("DIV", 8)
        },
        playable("e", 8),
        // Disabling itself.
        Facts {
            aria_disabled: Some("true"),
            ..playable("f", 9)
        },
    ];
    let answer = |i, _| Details {
        flags: if i == 5 { DETAIL_DISABLED } else { 0 },
        ..Details::default()
    };
    let snap = read_with(&facts, answer, false, &IslandSlots::default());
    let enabled: Vec<_> = snap
        .menu
        .iter()
        .map(|m| (m.id.as_str(), m.enabled))
        .collect();
    assert_eq!(
        enabled,
        [
            ("a", true),
            ("b", false),
            ("c", false),
            ("d", false),
            ("e", true),
            ("f", false)
        ]
    );
    let snap = read_with(&facts, answer, true, &IslandSlots::default());
    assert!(
        snap.menu.iter().all(|m| !m.enabled),
        "a disabling ancestor of the root"
    );
}

#[test]
fn slotted_into_a_disabling_element_disables_it_and_its_subtree() {
    use crate::wire::FACT_SLOT_DISABLED;
    // A host, its shadow content (a slot's aria-disabled wrapper, read as a
    // record that holds nothing), then its light children: a slotted
    // playable, and a slotted div with one inside; then one outside.
    let facts = [
        el("X-HOST", 5),
        Facts {
            aria_disabled: Some("true"),
            ..el("DIV", 2)
        },
        with(playable("a", 3), FACT_SLOT_DISABLED),
        with(el("DIV", 5), FACT_SLOT_DISABLED),
        playable("b", 5),
        playable("c", 6),
    ];
    let snap = read_with(
        &facts,
        |_, _| Details::default(),
        false,
        &IslandSlots::default(),
    );
    let enabled: Vec<_> = snap
        .menu
        .iter()
        .map(|m| (m.id.as_str(), m.enabled))
        .collect();
    assert_eq!(enabled, [("a", false), ("b", false), ("c", true)]);
}

#[test]
fn the_browsers_facts_are_decided_by_the_one_rule() {
    use crate::wire::{
        DETAIL_FIELDSETS_SHIFT, DETAIL_IN_MODAL, DETAIL_LEGENDS_SHIFT, DETAIL_MODAL,
    };
    let facts: Vec<_> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .enumerate()
        .map(|(i, id)| playable(id, i + 1))
        .collect();
    // a: in a disabled fieldset; b: in its first legend; c: in the inner of
    // two, exempt by the inner's legend only; d: outside an open modal
    // dialog; e: inside it; f: :disabled, in a legend.
    let heads = [
        1 << DETAIL_FIELDSETS_SHIFT,
        1 << DETAIL_FIELDSETS_SHIFT | 1 << DETAIL_LEGENDS_SHIFT,
        2 << DETAIL_FIELDSETS_SHIFT | 1 << DETAIL_LEGENDS_SHIFT,
        DETAIL_MODAL,
        DETAIL_MODAL | DETAIL_IN_MODAL,
        DETAIL_DISABLED | 1 << DETAIL_FIELDSETS_SHIFT | 1 << DETAIL_LEGENDS_SHIFT,
    ];
    let answers: Vec<_> = heads
        .iter()
        .map(|&h| wire::details("", &[h]).unwrap().remove(0))
        .collect();
    let snap = read_with(
        &facts,
        |i, _| answers[i].clone(),
        false,
        &IslandSlots::default(),
    );
    let enabled: Vec<_> = snap.menu.iter().map(|m| m.enabled).collect();
    assert_eq!(enabled, [false, true, false, false, true, false]);
}

#[test]
fn icon_only_elements_ask_for_their_image_and_title_in_a_second_read() {
    let facts = [link(1), link(2), link(3)];
    let plan = plan(&facts);
    let first = [
        Details {
            text: Some(" "),
            ..Details::default()
        },
        shown("Docs"),
        Details {
            text: Some(""),
            ..Details::default()
        },
    ];
    let mut reading = decide(&facts, plan, &first, false).unwrap();
    assert_eq!(
        reading.fallback_asks(),
        [0, FALLBACK_ASKS, 2, FALLBACK_ASKS]
    );
    let second = [
        Details {
            img_alt: Some(""),
            title: Some("Home page"),
            ..Details::default()
        },
        Details {
            img_alt: Some("Search"),
            ..Details::default()
        },
    ];
    assert!(
        reading.with_fallbacks(&second[..1]).is_none(),
        "one answer per ask"
    );
    reading.with_fallbacks(&second).unwrap();
    assert!(reading.fallback_asks().is_empty());
    let names: Vec<_> = reading.nodes(&facts).iter().map(|n| n.name).collect();
    assert_eq!(names, [Some("Home page"), Some("Docs"), Some("Search")]);
}

#[test]
fn answers_that_do_not_fit_the_asks_are_refused() {
    let facts = [link(1), link(2)];
    let plan1 = plan(&facts);
    assert!(decide(&facts, plan1, &[Details::default()], false).is_none());
    let none: [Facts; 0] = [];
    let empty = plan(&none);
    assert!(empty.asks().is_empty());
    let reading = decide(&none, empty, &[], false).unwrap();
    assert!(reading.nodes(&none).is_empty());
}

#[test]
fn dirty_noreload_and_markers_pass_through() {
    let facts = [
        Facts {
            dirty: Some("true"),
            id: Some("note"),
            ..el("TEXTAREA", 1)
        },
        Facts {
            dirty: Some("false"),
            ..el("DIV", 2)
        },
        with(el("DIV", 3), crate::wire::FACT_NORELOAD),
    ];
    let snap = read_with(&facts, |_, _| shown("x"), false, &IslandSlots::default());
    assert_eq!(snap.dirty, ["note"]);
    assert!(snap.no_reload);
    assert_eq!(snap.generics.len(), 1, "the textarea");
    assert_eq!(snap.generics[0].role, "textbox");
}

#[test]
fn slots_resolve_through_the_decided_names() {
    let slots = IslandSlots::from_json(&serde_json::json!({
        "pager": { "next": { "ariaLabel": "Next" }, "two": { "role": "button", "name": "Page 2" } }
    }))
    .unwrap();
    let facts = [
        Facts {
            kind: Some("island"),
            id: Some("pager"),
            ..el("NAV", 3)
        },
        Facts {
            aria_label: Some("Next"),
            ..el("BUTTON", 2)
        },
        Facts {
            role: Some("button"),
            ..link(3)
        },
    ];
    let snap = read_with(
        &facts,
        |i, _| Details {
            flags: STATES & !DETAIL_DISABLED,
            text: (i == 2).then_some("Page  2"),
            ..Details::default()
        },
        false,
        &slots,
    );
    let ids: Vec<_> = snap.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["pager:next", "pager:two"]);
    assert_eq!(snap.menu[1].title, "Page 2");
    assert!(snap.menu.iter().all(|m| m.enabled && m.visible));
    assert!(snap.generics.is_empty());
}

#[test]
fn aria_disabled_in_any_ascii_case_disables_it_and_its_subtree() {
    let facts = [
        Facts {
            aria_disabled: Some("TRUE"),
            ..playable("upper", 2)
        },
        playable("below", 2),
        Facts {
            aria_disabled: Some("False"),
            ..playable("false", 3)
        },
    ];
    let snap = read_with(
        &facts,
        |_, _| Details::default(),
        false,
        &IslandSlots::default(),
    );
    let enabled: Vec<_> = snap.menu.iter().map(|m| m.enabled).collect();
    assert_eq!(enabled, [false, false, true]);
}

#[test]
fn images_image_buttons_and_svg_links_have_their_roles_and_names() {
    use crate::wire::{ASK_ALT, ASK_LABEL, ASK_TITLE, ASK_VALUE};
    let slots = IslandSlots::from_json(&serde_json::json!({
        "p": {
            "go": { "role": "button", "name": "Go" },
            "next": { "role": "img", "name": "Next" },
            "more": { "role": "link", "name": "More" }
        }
    }))
    .unwrap();
    let image_button = |end| Facts {
        type_: Some("image"),
        ..el("INPUT", end)
    };
    let facts = [
        image_button(1),
        Facts {
            kind: Some("island"),
            id: Some("p"),
            ..el("DIV", 5)
        },
        image_button(3),
        el("IMG", 4),
        // SVG's <a href>: tagName "a".
        with(el("a", 5), FACT_HREF),
        // Outside the island: an image is no generic, and asks nothing.
        el("IMG", 6),
        with(el("a", 7), FACT_HREF),
    ];
    let image = DETAIL_REFS | ASK_LABEL | ASK_ALT | ASK_VALUE | ASK_TITLE;
    assert_eq!(
        asks(&plan(&facts)),
        [
            (0, DETAIL_VISIBLE | image),
            (2, STATES | image),
            (3, STATES | DETAIL_REFS | ASK_ALT | ASK_TITLE),
            (4, STATES | TEXT_NAME),
            (6, DETAIL_VISIBLE | TEXT_NAME),
        ]
    );
    let answer = |i: usize, _| Details {
        flags: DETAIL_VISIBLE,
        alt: [(0, "Search"), (2, "Go"), (3, "Next")]
            .iter()
            .find(|(at, _)| *at == i)
            .map(|(_, alt)| *alt),
        text: [(4, "More"), (6, "Home")]
            .iter()
            .find(|(at, _)| *at == i)
            .map(|(_, text)| *text),
        ..Details::default()
    };
    let snap = read_with(&facts, answer, false, &slots);
    let menu: Vec<_> = snap
        .menu
        .iter()
        .map(|m| (m.id.as_str(), m.title.as_str()))
        .collect();
    assert_eq!(
        menu,
        [("p:go", "Go"), ("p:next", "Next"), ("p:more", "More")]
    );
    let generics: Vec<_> = snap
        .generics
        .iter()
        .map(|g| (g.role.as_str(), g.name.as_str()))
        .collect();
    assert_eq!(generics, [("button", "Search"), ("link", "Home")]);
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(testkit::cases()))]

        #[test]
        fn any_facts_and_answers_read_without_panic(
            raw in proptest::collection::vec(
                (0u32..32, 0usize..12, proptest::option::of("(playable|island)"), proptest::option::of("[ab]{0,1}"),
                 proptest::option::of("(button|tab| |NAV)"), proptest::option::of("(true|x)"), proptest::option::of("(A|DIV|INPUT|SELECT|IMG)")),
                0..10),
            flags in proptest::collection::vec(0u32..8, 0..20),
        ) {
            let n = raw.len();
            let facts: Vec<Facts> = raw.iter().enumerate().map(|(i, (f, end, kind, id, role, dis, tag))| Facts {
                flags: *f,
                end: (i + 1 + end).min(n),
                tag: tag.as_deref().unwrap_or("BUTTON"),
                kind: kind.as_deref(),
                id: id.as_deref(),
                role: role.as_deref(),
                aria_label: id.as_deref(),
                aria_disabled: dis.as_deref(),
                ..Facts::default()
            }).collect();
            let plan = plan(&facts);
            let answers: Vec<Details> = (0..plan.asks().len() / 2).map(|k| Details {
                flags: flags.get(k).copied().unwrap_or(0),
                text: Some(" "),
                ..Details::default()
            }).collect();
            let mut reading = decide(&facts, plan, &answers, false).unwrap();
            let second = vec![Details::default(); reading.fallback_asks().len() / 2];
            reading.with_fallbacks(&second).unwrap();
            let nodes = reading.nodes(&facts);
            proptest::prop_assert_eq!(nodes.len(), facts.len());
            let b = build(&nodes, &IslandSlots::default());
            proptest::prop_assert_eq!(b.snapshot.menu.len(), b.targets.len());
        }
    }
}
