//! A small JSON value, parser and writer: the subset of serde_json's API the
//! workspace uses, without serde's generic machinery.
//!
//! Why not serde_json: every envelope crosses the wasm boundary as JSON text,
//! so the module needs a dynamic value, a parser and a writer, and nothing
//! else. serde_json brings its derive-oriented `Deserializer`/`Serializer`
//! traits, their error plumbing and number parsing along, which cost about a
//! fifth of the shipped module. This crate keeps serde_json's names (`Value`,
//! `Map`, `Number`, `from_str`, `to_string`, `json!`) and its semantics where
//! they are observable: objects iterate in key order, integers stay exact
//! (`u64`/`i64`), floats print as the shortest text that reads back the same
//! and read exactly as serde_json reads them up to exponents of ±22 (beyond,
//! within a few ulps: `parse::scale` keeps no 2.5 KB table of powers),
//! duplicate keys keep the last value, nesting is limited to 127 levels.
//! Parse errors give the line and column as serde_json does, with a shorter
//! message per kind of error (unexpected end, unexpected character…).

mod macros;
mod map;
mod parse;
mod value;
mod write;

pub use map::Map;
pub use parse::{from_str, Error};
pub use value::{Index, Number, ToValue, Value};
pub use write::{quote, to_string, WriteJson};

#[cfg(test)]
mod tests;
