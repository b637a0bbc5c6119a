//! [`Field`]: one member of a wire object, read by serde without failing
//! the whole object.
//!
//! Surface's decoders check their members in a documented order, each with
//! its own message (`` `id` must be a non-empty string… ``). A derived
//! struct whose members are `Field<T>` lets serde do the typing (strings,
//! lists of strings, numbers, enums by their wire names) while the checks
//! still run in that order, whatever order the keys came in.

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A member as given: absent, `null`, of the expected type, or another.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Field<T> {
    #[default]
    Absent,
    Null,
    Given(T),
    /// Present with a value that is not a `T`.
    Other,
}

impl<T> Field<T> {
    /// The value when it has the expected type.
    pub(crate) fn given(self) -> Option<T> {
        match self {
            Self::Given(t) => Some(t),
            _ => None,
        }
    }

    /// Not in the object at all (`null` is present).
    pub(crate) fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Buffered as JSON first: a member of the wrong type is a fact the
        // caller words, not an error that ends the whole object.
        let value = Value::deserialize(deserializer)?;
        if value.is_null() {
            return Ok(Self::Null);
        }
        Ok(match T::deserialize(&value) {
            Ok(t) => Self::Given(t),
            Err(_) => Self::Other,
        })
    }
}

/// A `T` read only from a JSON object. A derived struct alone would also
/// read an array, member by position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Object<T>(pub T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(map) => from_object(&map)
                .map(Object)
                .ok_or_else(|| serde::de::Error::custom("a member has the wrong type")),
            _ => Err(serde::de::Error::custom("expected an object")),
        }
    }
}

/// Reads a wire struct from an object's members. Every Surface decoder
/// goes through here and [`Field`], so serde_json's deserializer is
/// instantiated for two input types only (`&Map` and `&Value`): the module
/// carries one copy of each struct's reader.
pub(crate) fn from_object<T: DeserializeOwned>(map: &Map<String, Value>) -> Option<T> {
    T::deserialize(map).ok()
}

#[cfg(test)]
mod tests {
    use super::{Field, Object};
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Probe {
        name: Field<String>,
        tags: Field<Vec<String>>,
    }

    #[test]
    fn members_are_read_one_by_one() {
        let p: Probe =
            serde_json::from_value(json!({ "tags": ["a", 1], "name": "n" })).expect("decodes");
        assert_eq!(p.name, Field::Given("n".to_string()));
        assert_eq!(
            p.tags,
            Field::Other,
            "one bad element makes the member wrong"
        );
        let p: Probe = serde_json::from_value(json!({ "name": null })).expect("decodes");
        assert_eq!(p.name, Field::Null);
        assert!(!p.name.is_absent() && p.tags.is_absent());
        assert_eq!(p.tags, Field::Absent);
    }

    #[test]
    fn an_object_member_is_never_read_from_an_array() {
        let as_array: Field<Object<Probe>> =
            serde_json::from_value(json!(["n", ["t"]])).expect("decodes");
        assert_eq!(as_array, Field::Other);
        let as_object: Field<Object<Probe>> =
            serde_json::from_value(json!({ "name": "n" })).expect("decodes");
        assert!(matches!(
            as_object,
            Field::Given(Object(Probe {
                name: Field::Given(_),
                ..
            }))
        ));
    }
}
