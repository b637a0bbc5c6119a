use super::*;

const KIND: u32 = 1 << FIELD_SHIFT;
const ID: u32 = 1 << (FIELD_SHIFT + 1);
const NAME: u32 = 1 << (FIELD_SHIFT + 7);

#[test]
fn decodes_fields_flags_and_island_ends() {
    let text = "islandpagerplayablesaveHelp";
    let ints = [
        KIND | ID | HAS_END,
        3,
        6,
        5,
        RawNode::FLAG_ENABLED | KIND | ID,
        8,
        4,
        RawNode::FLAG_INTERACTIVE | NAME,
        4,
    ];
    let nodes = decode(text, &ints).unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(
        (nodes[0].kind, nodes[0].id, nodes[0].end),
        (Some("island"), Some("pager"), 3)
    );
    assert_eq!(
        (nodes[1].kind, nodes[1].id),
        (Some("playable"), Some("save"))
    );
    assert!(nodes[1].has(RawNode::FLAG_ENABLED) && !nodes[1].has(RawNode::FLAG_VISIBLE));
    assert_eq!((nodes[2].name, nodes[2].id), (Some("Help"), None));
}

#[test]
fn lengths_count_utf16_units() {
    // "é" is 1 unit, "😀" is 2 units; an empty field is present but "".
    let text = "é😀x";
    let nodes = decode(text, &[ID | NAME, 3, 1, KIND, 0]).unwrap();
    assert_eq!((nodes[0].id, nodes[0].name), (Some("é😀"), Some("x")));
    assert_eq!(nodes[1].kind, Some(""));
    // 1, 2, 3 and 4 UTF-8 bytes: 1, 1, 1 and 2 units.
    let nodes = decode("aé✓😀z", &[ID | NAME, 5, 1]).unwrap();
    assert_eq!((nodes[0].id, nodes[0].name), (Some("aé✓😀"), Some("z")));
}

#[test]
fn a_pair_joined_across_two_fields_stays_in_the_first() {
    // JS: id = "a\uD83D", name = "\uDE00b" (lone surrogates, joined by concatenation).
    let nodes = decode("a😀b", &[ID | NAME, 2, 2]).unwrap();
    assert_eq!((nodes[0].id, nodes[0].name), (Some("a😀"), Some("b")));
}

#[test]
fn malformed_data_is_an_error_not_a_panic() {
    assert!(decode("abc", &[ID, 5]).is_none());
    assert!(decode("abc", &[ID, 2]).is_none(), "text left over");
    assert!(
        decode("😀", &[ID, 1]).is_none(),
        "half a pair, nothing after"
    );
    assert!(decode("", &[ID]).is_none());
    assert!(decode("", &[HAS_END]).is_none());
    assert_eq!(decode("", &[]), Some(vec![]));
}
