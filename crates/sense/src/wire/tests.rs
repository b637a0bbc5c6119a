use super::*;

/// Presence bit of `Facts` field `k` (tag 0, kind 1, id 2, … size 13).
const fn f(k: u32) -> u32 {
    1 << (FIELD_SHIFT + k)
}
const TAG: u32 = f(0);
const KIND: u32 = f(1);
const ID: u32 = f(2);
const ROLE: u32 = f(8);
const SIZE: u32 = f(13);

#[test]
fn facts_decode_fields_flags_and_ends() {
    // <nav data-e2e-kind=island data-e2e-id=pager> <a href> </nav> <select size=4>
    let text = "NAVislandpagerASELECT4";
    let ints = [
        TAG | KIND | ID,
        2,
        3,
        6,
        5,
        FACT_HREF | TAG,
        2,
        1,
        FACT_MULTIPLE | TAG | SIZE,
        3,
        6,
        1,
    ];
    let facts = facts(text, &ints).unwrap();
    assert_eq!(facts.len(), 3);
    assert_eq!(
        (facts[0].tag, facts[0].kind, facts[0].id, facts[0].end),
        ("NAV", Some("island"), Some("pager"), 2)
    );
    assert!(facts[1].has(FACT_HREF) && !facts[1].has(FACT_EDITABLE));
    assert_eq!((facts[1].tag, facts[1].end, facts[1].role), ("A", 2, None));
    assert_eq!((facts[2].tag, facts[2].size), ("SELECT", Some("4")));
    assert!(facts[2].has(FACT_MULTIPLE));
    assert_eq!(facts[2].flags, FACT_MULTIPLE, "presence bits are not flags");
}

#[test]
fn facts_decode_every_field_in_order() {
    let values = [
        "DIV", "kind", "id", "ev", "ti", "de", "pt", "true", "button", "al", "ty", "0", "true", "3",
    ];
    let text: String = values.concat();
    let mut ints = vec![(0..14).map(f).fold(0, |a, b| a | b), 1];
    ints.extend(values.iter().map(|v| v.len() as u32));
    let got = facts(&text, &ints).unwrap();
    let x = got[0];
    assert_eq!(
        [
            Some(x.tag),
            x.kind,
            x.id,
            x.event,
            x.title,
            x.desc,
            x.page_title,
            x.dirty,
            x.role,
            x.aria_label,
            x.type_,
            x.tabindex,
            x.aria_disabled,
            x.size
        ],
        values.map(Some)
    );
}

#[test]
fn lengths_count_utf16_units() {
    // "é" is 1 unit, "😀" is 2 units; an empty field is present but "".
    let nodes = facts("é😀x", &[TAG | ROLE, 1, 3, 1]).unwrap();
    assert_eq!((nodes[0].tag, nodes[0].role), ("é😀", Some("x")));
    let nodes = facts("B", &[TAG | KIND, 1, 1, 0]).unwrap();
    assert_eq!(nodes[0].kind, Some(""));
    // 1, 2, 3 and 4 UTF-8 bytes: 1, 1, 1 and 2 units.
    let nodes = facts("aé✓😀z", &[TAG | ROLE, 1, 5, 1]).unwrap();
    assert_eq!((nodes[0].tag, nodes[0].role), ("aé✓😀", Some("z")));
}

#[test]
fn a_pair_joined_across_two_fields_stays_in_the_first() {
    // JS: tag = "a\uD83D", role = "\uDE00b" (lone surrogates, joined by concatenation).
    let nodes = facts("a😀b", &[TAG | ROLE, 1, 2, 2]).unwrap();
    assert_eq!((nodes[0].tag, nodes[0].role), ("a😀", Some("b")));
}

#[test]
fn malformed_facts_are_an_error_not_a_panic() {
    assert!(facts("abc", &[TAG, 1, 5]).is_none(), "field past the text");
    assert!(facts("abc", &[TAG, 1, 2]).is_none(), "text left over");
    assert!(
        facts("😀", &[TAG, 1, 1]).is_none(),
        "half a pair, nothing after"
    );
    assert!(facts("", &[TAG]).is_none(), "no end");
    assert!(facts("", &[0, 1]).is_none(), "no tag");
    assert!(facts("a", &[TAG, 0, 1]).is_none(), "end before the element");
    assert!(facts("a", &[TAG, 2, 1]).is_none(), "end past the list");
    assert_eq!(facts("", &[]), Some(vec![]));
}

#[test]
fn details_decode_flags_refs_and_fields() {
    // One element: visible, two references ("Ship", "to"), text "x";
    // another: disabled, value "Go"; a third with nothing.
    let text = "ShiptoxGo";
    let ints = [
        DETAIL_VISIBLE | DETAIL_REFS | ASK_TEXT,
        2,
        4,
        2,
        1,
        DETAIL_DISABLED | ASK_VALUE,
        2,
        0,
    ];
    let d = details(text, &ints).unwrap();
    assert_eq!(d.len(), 3);
    assert!(d[0].has(DETAIL_VISIBLE) && !d[0].has(DETAIL_DISABLED));
    assert_eq!(d[0].refs, ["Ship", "to"]);
    assert_eq!((d[0].text, d[0].value), (Some("x"), None));
    assert!(d[1].has(DETAIL_DISABLED));
    assert_eq!(d[1].value, Some("Go"));
    assert!(d[1].refs.is_empty());
    assert_eq!(d[2], Details::default());
    assert_eq!(d[0].flags, DETAIL_VISIBLE, "the refs bit is not a state");
}

#[test]
fn details_decode_every_field_in_order() {
    let values = ["v", "la", "ph", "ti", "al", "te", "ia"];
    let text: String = values.concat();
    let mut ints = vec![(0..7).map(ask_field).fold(0, |a, b| a | b)];
    ints.extend(values.iter().map(|v| v.len() as u32));
    let d = &details(&text, &ints).unwrap()[0];
    assert_eq!(
        [
            d.value,
            d.label,
            d.placeholder,
            d.title,
            d.alt,
            d.text,
            d.img_alt
        ],
        values.map(Some)
    );
}

#[test]
fn malformed_details_are_an_error_not_a_panic() {
    assert!(details("", &[DETAIL_REFS]).is_none(), "no count");
    assert!(
        details("ab", &[DETAIL_REFS, 3, 1, 1]).is_none(),
        "fewer refs than counted"
    );
    assert!(details("ab", &[DETAIL_REFS, u32::MAX, 1]).is_none());
    assert!(details("abc", &[ASK_TEXT, 2]).is_none(), "text left over");
    assert_eq!(details("", &[]), Some(vec![]));
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(testkit::cases()))]

        #[test]
        fn arbitrary_input_never_panics(text in ".{0,12}", ints in proptest::collection::vec(proptest::prop_oneof![0u32..40, proptest::num::u32::ANY], 0..24)) {
            if let Some(f) = facts(&text, &ints) {
                for (i, x) in f.iter().enumerate() {
                    proptest::prop_assert!(x.end > i && x.end <= f.len());
                }
            }
            let _ = details(&text, &ints);
        }
    }
}
