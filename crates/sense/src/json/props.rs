//! Property tests of sense's decoders: the snapshot a JS sense port returns
//! and the host's `islandSlots`. Arbitrary JSON and arbitrary shapes in, a
//! snapshot (or table) or an error that names where out, never a panic.
//! `PROPTEST_CASES` cases each (10,000 by default; `npm run fuzz` sets
//! 1,000,000).

use proptest::prelude::*;
use serde_json::{json, Value};
use testkit::{cases, chars, scalar, tree, Shape};

use crate::{decode_snapshot, IslandSlots, SlotSpec, Snapshot};

/// Arbitrary JSON with strings and keys of any characters.
fn arb_json() -> impl Strategy<Value = Value> {
    tree(
        scalar(chars(12)),
        chars(8),
        Shape {
            depth: 6,
            size: 64,
            width: 6,
        },
    )
}

/// A field: usually of the right type, sometimes missing, null or anything.
fn field(good: BoxedStrategy<Value>) -> BoxedStrategy<Option<Value>> {
    prop_oneof![
        6 => good.prop_map(Some),
        1 => Just(None),
        1 => Just(Some(Value::Null)),
        1 => arb_json().prop_map(Some),
    ]
    .boxed()
}

fn object(fields: Vec<(&'static str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_string(), v?)))
            .collect(),
    )
}

fn text() -> BoxedStrategy<Value> {
    chars(12).prop_map(Value::String).boxed()
}

fn boolean() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::Bool).boxed()
}

fn list(item: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    proptest::collection::vec(item, 0..4)
        .prop_map(Value::Array)
        .boxed()
}

/// A snapshot-shaped value whose every field may be wrong.
fn arb_snapshot_shape() -> impl Strategy<Value = Value> {
    let item = (
        field(text()),
        field(text()),
        field(text()),
        field(text()),
        field(boolean()),
        field(boolean()),
        field(text()),
        field(boolean()),
    )
        .prop_map(
            |(id, event, title, desc, enabled, visible, island, ambiguous)| {
                object(vec![
                    ("id", id),
                    ("event", event),
                    ("title", title),
                    ("desc", desc),
                    ("enabled", enabled),
                    ("visible", visible),
                    ("island", island),
                    ("ambiguous", ambiguous),
                ])
            },
        )
        .boxed();
    let slot = (field(text()), field(text()), field(boolean()))
        .prop_map(|(name, id, resolved)| {
            object(vec![("name", name), ("id", id), ("resolved", resolved)])
        })
        .boxed();
    let island = (field(text()), field(list(slot)))
        .prop_map(|(id, slots)| object(vec![("id", id), ("slots", slots)]))
        .boxed();
    let generic = (field(text()), field(text()), field(text()))
        .prop_map(|(r, role, name)| object(vec![("ref", r), ("role", role), ("name", name)]))
        .boxed();
    (
        field(text()),
        field(list(item)),
        field(list(island)),
        field(list(generic)),
        field(list(text())),
        field(boolean()),
    )
        .prop_map(|(title, menu, islands, generics, dirty, no_reload)| {
            object(vec![
                ("pageTitle", title),
                ("menu", menu),
                ("islands", islands),
                ("generics", generics),
                ("dirty", dirty),
                ("noReload", no_reload),
            ])
        })
}

/// An `islandSlots`-shaped value whose specs may be wrong.
fn arb_slots_shape() -> impl Strategy<Value = Value> {
    let spec = prop_oneof![
        chars(6).prop_map(|l| json!({ "ariaLabel": l })),
        (chars(6), chars(6)).prop_map(|(r, n)| json!({ "role": r, "name": n })),
        arb_json(),
    ];
    let slots = proptest::collection::vec((chars(6), spec), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()));
    prop_oneof![
        4 => proptest::collection::vec((chars(6), prop_oneof![4 => slots, 1 => arb_json()]), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        1 => arb_json(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Whatever a port returns: a snapshot that writes and reads back the
    /// same, or an error with a message.
    #[test]
    fn props_snapshot_from_port_is_total(v in prop_oneof![arb_snapshot_shape(), arb_json()]) {
        match decode_snapshot(&v) {
            Ok(s) => {
                let again = Snapshot::from_json(&s.to_json());
                prop_assert_eq!(again.as_ref(), Ok(&s));
                prop_assert!(v.get("menu").is_some_and(Value::is_array) || v.is_array());
            }
            Err(e) => prop_assert!(!e.message.is_empty() && !e.path.is_empty()),
        }
        // The same value as text reads the same way.
        let text = v.to_string();
        prop_assert_eq!(Snapshot::from_json(&text).is_ok(), decode_snapshot(&v).is_ok());
    }

    /// Whatever the host passes as islandSlots: a table in the host's key
    /// order, or an error that names the island or the table.
    #[test]
    fn props_island_slots_are_total(v in arb_slots_shape()) {
        match IslandSlots::from_json(&v) {
            Ok(t) => {
                let o = v.as_object();
                prop_assert!(o.is_some());
                let keys: Vec<_> = o.map(|o| o.keys().cloned().collect()).unwrap_or_default();
                let ids: Vec<_> = t.islands.iter().map(|(id, _)| id.clone()).collect();
                prop_assert_eq!(ids, keys);
                for (island, slots) in &t.islands {
                    for (slot, spec) in slots {
                        let raw = &v[island][slot];
                        match spec {
                            SlotSpec::AriaLabel(l) => prop_assert_eq!(raw["ariaLabel"].as_str(), Some(l.as_str())),
                            SlotSpec::RoleName { role, name } => {
                                prop_assert_eq!(raw["role"].as_str(), Some(role.as_str()));
                                prop_assert_eq!(raw["name"].as_str(), Some(name.as_str()));
                            }
                        }
                    }
                }
            }
            Err(e) => prop_assert!(e.0.contains("islandSlots"), "{}", e),
        }
    }
}
