//! The host's `islandSlots` table: island id → slot name → how to find the
//! slot. Read with serde (`serde_json`, from the install options' JSON
//! text within playable's bounds on the web), keeping the host's key order.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// How a slot element is found inside its island.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotSpec {
    /// `{ "ariaLabel": "Next page" }`: the element whose aria-label is this,
    /// compared as names are (trimmed, whitespace runs as one space).
    AriaLabel(String),
    /// `{ "role": "button", "name": "Next" }`: role plus accessible name.
    RoleName { role: String, name: String },
}

/// Ordered as the host wrote it (JS object key order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IslandSlots {
    pub islands: Vec<(String, Vec<(String, SlotSpec)>)>,
}

/// Why a value is not an `islandSlots` table (the message names the island
/// and slot, as `islandSlots["pager"]["next"]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotsError(pub String);

impl fmt::Display for SlotsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SlotsError {}

use crate::text::json_quote as quote;

impl IslandSlots {
    pub fn slots_of(&self, island: &str) -> &[(String, SlotSpec)] {
        self.islands
            .iter()
            .find(|(id, _)| id == island)
            .map(|(_, s)| s.as_slice())
            .unwrap_or(&[])
    }

    /// Whether a role+name spec asks for `role` (compared as slots match
    /// roles: trimmed, ASCII case-insensitive).
    pub fn asks_role(&self, role: &str) -> bool {
        self.islands.iter().flat_map(|(_, slots)| slots).any(
            |(_, spec)| matches!(spec, SlotSpec::RoleName { role: r, .. } if r.trim().eq_ignore_ascii_case(role)),
        )
    }

    /// One slot description from its three fields: exactly `ariaLabel`, or
    /// `role` and `name`.
    pub fn parse_spec(
        island: &str,
        slot: &str,
        aria_label: Option<String>,
        role: Option<String>,
        name: Option<String>,
    ) -> Result<SlotSpec, SlotsError> {
        match (aria_label, role, name) {
            (Some(label), None, None) => Ok(SlotSpec::AriaLabel(label)),
            (None, Some(role), Some(name)) => Ok(SlotSpec::RoleName { role, name }),
            _ => Err(SlotsError(spec_problem(island, slot))),
        }
    }

    /// Reads the table from any serde deserializer (see the [`Deserialize`] impl).
    pub fn decode<'de, D: Deserializer<'de>>(d: D) -> Result<Self, SlotsError>
    where
        D::Error: fmt::Display,
    {
        Self::deserialize(d).map_err(|e| SlotsError(e.to_string()))
    }

    /// Reads the table from a JSON value (tests and JSON configs; key order is the map's).
    pub fn from_json(value: &serde_json::Value) -> Result<Self, SlotsError> {
        Self::decode(value)
    }
}

fn spec_problem(island: &str, slot: &str) -> String {
    format!(
        "islandSlots[{}][{}] must be {{ ariaLabel: string }} or {{ role: string, name: string }}",
        quote(island),
        quote(slot)
    )
}

/// `{ [islandId]: { [slotName]: { ariaLabel } | { role, name } } }`, in key
/// order. A spec's other fields are ignored; `null` counts as absent.
impl<'de> Deserialize<'de> for IslandSlots {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(Table)
    }
}

struct Table;

impl<'de> Visitor<'de> for Table {
    type Value = IslandSlots;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("islandSlots as an object: { [islandId]: { [slotName]: spec } }")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IslandSlots, A::Error> {
        let mut islands = Vec::new();
        while let Some(island) = map.next_key::<String>()? {
            let slots = map.next_value_seed(Slots { island: &island })?;
            islands.push((island, slots));
        }
        Ok(IslandSlots { islands })
    }
}

/// One island's slots, named in messages.
struct Slots<'a> {
    island: &'a str,
}

impl<'de> DeserializeSeed<'de> for Slots<'_> {
    type Value = Vec<(String, SlotSpec)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Slots<'_> {
    type Value = Vec<(String, SlotSpec)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "islandSlots[{}] to be an object of slots",
            quote(self.island)
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut list = Vec::new();
        while let Some(slot) = map.next_key::<String>()? {
            // Any type problem inside a spec gets the spec's one message.
            let problem = || de::Error::custom(spec_problem(self.island, &slot));
            let (label, role, name) = map.next_value_seed(Spec).map_err(|_| problem())?;
            let spec = IslandSlots::parse_spec(self.island, &slot, label, role, name)
                .map_err(|_| problem())?;
            list.push((slot, spec));
        }
        Ok(list)
    }
}

/// A spec's `ariaLabel`, `role` and `name` (each a string or absent; `null`
/// is absent). Only an object is a spec; its other fields are skipped.
struct Spec;

type SpecFields = (Option<String>, Option<String>, Option<String>);

impl<'de> DeserializeSeed<'de> for Spec {
    type Value = SpecFields;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<SpecFields, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Spec {
    type Value = SpecFields;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a slot spec object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpecFields, A::Error> {
        let (mut label, mut role, mut name) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "ariaLabel" => label = map.next_value()?,
                "role" => role = map.next_value()?,
                "name" => name = map.next_value()?,
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok((label, role, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_table_in_key_order() {
        let t = IslandSlots::from_json(&json!({
            "pager": { "next": { "ariaLabel": "Next" }, "prev": { "role": "button", "name": "Prev", "x": 1 } },
            "a": {}
        }))
        .expect("decodes");
        assert_eq!(
            t.islands,
            vec![
                (
                    "pager".to_string(),
                    vec![
                        ("next".to_string(), SlotSpec::AriaLabel("Next".into())),
                        (
                            "prev".to_string(),
                            SlotSpec::RoleName {
                                role: "button".into(),
                                name: "Prev".into()
                            }
                        ),
                    ]
                ),
                ("a".to_string(), vec![]),
            ]
        );
        // Key order is the host's, not sorted.
        let t = IslandSlots::from_json(&json!({ "z": {}, "b": {}, "m": {} })).expect("decodes");
        let ids: Vec<_> = t.islands.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["z", "b", "m"]);
        assert_eq!(t.slots_of("b"), &[]);
    }

    #[test]
    fn asks_role_finds_a_role_name_spec_of_that_role() {
        let t = IslandSlots::from_json(&json!({
            "a": { "x": { "ariaLabel": "img" } },
            "b": { "y": { "role": " IMG ", "name": "Logo" } }
        }))
        .expect("decodes");
        assert!(t.asks_role("img"), "trimmed, ASCII case-insensitive");
        assert!(!t.asks_role("button"));
        assert!(
            !IslandSlots::from_json(&json!({ "a": { "x": { "ariaLabel": "img" } } }))
                .expect("decodes")
                .asks_role("img")
        );
    }

    #[test]
    fn problems_name_the_island_and_slot() {
        let e = |v| IslandSlots::from_json(&v).unwrap_err().to_string();
        assert_eq!(
            e(json!({ "a": { "b": { "label": "x" } } })),
            r#"islandSlots["a"]["b"] must be { ariaLabel: string } or { role: string, name: string }"#
        );
        assert!(e(json!({ "a": { "b": { "ariaLabel": 5 } } }))
            .starts_with(r#"islandSlots["a"]["b"] must be"#));
        assert!(
            e(json!({ "a": { "b": { "ariaLabel": "x", "role": "button" } } })).contains(r#"["b"]"#)
        );
        assert!(e(json!({ "a": { "b": { "role": "button" } } })).contains(r#"["b"]"#));
        assert!(e(json!({ "a": { "b": "x" } })).contains(r#"["b"]"#));
        // Only an object is a spec (no tuple form).
        assert!(e(json!({ "a": { "b": ["x"] } })).contains(r#"["b"]"#));
        let island = e(json!({ "a\"q": 3 }));
        assert!(
            island.contains(r#"islandSlots["a\"q"] to be an object of slots"#),
            "{island}"
        );
        assert!(e(json!([])).contains("islandSlots as an object"));
        assert!(e(json!("x")).contains("islandSlots as an object"));
    }
}
