//! `islandSlots` and `allowedOrigins` as data, decoded with serde from
//! their JSON text (`crate::js::decode`: a structured clone, written as
//! JSON, within `playable::bounds` before serde_json reads it).
//!
//! The decoders never fail on a wrong shape: they record it (a slot spec
//! that is not an object reads as an empty spec, an origin that is not a
//! string as `None`), so the checks in [`super::check`] word every problem
//! and keep the order of checks. Each type reads one level and skips what
//! it does not need unread.

use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// `islandSlots`: island id → its slots, in the caller's key order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlotsInput(pub Vec<(String, IslandInput)>);

/// One island's entry: its slots, or something that is not an object.
#[derive(Debug, Clone, PartialEq)]
pub enum IslandInput {
    Slots(Vec<(String, SpecInput)>),
    NotAnObject,
}

/// One slot spec: the three fields that decide its form, each `Some` only
/// when it is a string. Anything but an object reads as all `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpecInput {
    pub aria_label: Option<String>,
    pub role: Option<String>,
    pub name: Option<String>,
}

/// `allowedOrigins`' entries: `Some` for a string, `None` for anything else.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OriginsInput(pub Vec<Option<String>>);

/// A string, or `None` for any other value (skipped unread).
#[derive(Debug, Clone, Default, PartialEq)]
struct Text(Option<String>);

/// Reads `(key, value)` entries of a map, or `(index, value)` of a list
/// (as `Object.entries` gives for an array); anything else has none.
struct Entries<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
    type Value = Option<Vec<(String, T)>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some((key, value)) = map.next_entry::<KeyText, T>()? {
            out.push((key.0, value));
        }
        Ok(Some(out))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(value) = seq.next_element::<T>()? {
            out.push((format!("{}", out.len()), value));
        }
        Ok(Some(out))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

fn entries<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<(String, T)>>, D::Error> {
    d.deserialize_any(Entries(std::marker::PhantomData))
}

/// A map key as text (JS object keys are strings; a JSON map's too).
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self(String::deserialize(d)?))
    }
}

impl<'de> Deserialize<'de> for SlotsInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self(entries(d)?.unwrap_or_default()))
    }
}

impl<'de> Deserialize<'de> for IslandInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(entries(d)?.map_or(Self::NotAnObject, Self::Slots))
    }
}

impl<'de> Deserialize<'de> for SpecInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut spec = Self::default();
        for (key, Text(value)) in entries::<_, Text>(d)?.unwrap_or_default() {
            match key.as_str() {
                "ariaLabel" => spec.aria_label = value,
                "role" => spec.role = value,
                "name" => spec.name = value,
                _ => {}
            }
        }
        Ok(spec)
    }
}

impl<'de> Deserialize<'de> for OriginsInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = entries::<_, Text>(d)?.unwrap_or_default();
        Ok(Self(list.into_iter().map(|(_, Text(t))| t).collect()))
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Text, E> {
        Ok(Text(Some(s.to_string())))
    }
    fn visit_string<E>(self, s: String) -> Result<Text, E> {
        Ok(Text(Some(s)))
    }
    // Containers are skipped entry by entry without being read.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Text(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Text(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_byte_buf<E>(self, _: Vec<u8>) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_unit<E>(self) -> Result<Text, E> {
        Ok(Text(None))
    }
    fn visit_none<E>(self) -> Result<Text, E> {
        Ok(Text(None))
    }
}
