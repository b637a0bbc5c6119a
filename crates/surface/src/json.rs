//! Tiny JSON builders. `serde_json::json!` converts every field through
//! `Serialize`, monomorphised per field type; building `Value`s directly
//! keeps that machinery out of the wasm module.

use serde_json::{Map, Value};

/// `{ k: v, … }` in the given order (keys end up sorted by `Map` anyway).
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// `[s, …]`
pub(crate) fn strings<S: AsRef<str>>(items: &[S]) -> Value {
    Value::Array(items.iter().map(|s| Value::from(s.as_ref())).collect())
}

/// A string value from a borrowed string.
pub(crate) fn text(s: &str) -> Value {
    Value::from(s)
}
