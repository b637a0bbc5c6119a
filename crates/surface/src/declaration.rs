//! Capability declarations: the registry the page helper and Surface share.
//!
//! Parsing is lenient about the *list* (one bad declaration does not take the
//! others down) and strict about each *entry* (a declaration we cannot
//! enforce completely — unknown risk, unsupported schema keyword — is skipped,
//! never half-applied). Skipped entries keep their reason for debugging.

use crate::json::{put, put_text, text};
use crate::schema;
use serde_json::{Map, Value};

/// Default `expect.within` in milliseconds.
pub const DEFAULT_EXPECT_WITHIN_MS: f64 = 2000.0;

/// How dangerous a capability is. `High` needs a human's approval through
/// the host's confirm hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Risk {
    #[default]
    Low,
    High,
}

/// The declared success criterion: `text` must show up in status or
/// feedback within `within_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    pub text: String,
    pub within_ms: f64,
}

/// `name@kind`: a collapsed row action over records of `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowActionId<'a> {
    pub name: &'a str,
    pub kind: &'a str,
}

impl<'a> RowActionId<'a> {
    /// `Some` for a well-formed `name@kind` id; `None` for a plain id.
    /// Malformed `@` ids (`"@x"`, `"a@"`, `"a@b@c"`) are `None` too; the
    /// registry refuses them before they get here.
    pub fn parse(id: &'a str) -> Option<Self> {
        // `@` is ASCII, so byte positions are character boundaries.
        let at = at_sign(id)?;
        let (name, kind) = (id.get(..at)?, id.get(at + 1..)?);
        if name.is_empty() || kind.is_empty() || at_sign(kind).is_some() {
            return None;
        }
        Some(Self { name, kind })
    }
}

/// Where the first `@` is.
fn at_sign(s: &str) -> Option<usize> {
    for (at, &b) in s.as_bytes().iter().enumerate() {
        if b == b'@' {
            return Some(at);
        }
    }
    None
}

/// One declared capability.
#[derive(Debug, Clone, PartialEq)]
pub struct CapabilityDeclaration {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    /// The declared input schema (an object schema), as written.
    pub input: Option<Value>,
    pub risk: Risk,
    /// Declared to change nothing (`readOnly: true`): published to WebMCP
    /// with `readOnlyHint`.
    pub read_only: bool,
    pub expect: Option<Expectation>,
}

impl CapabilityDeclaration {
    /// The row-action parts of the id, if it is one.
    pub fn row_action(&self) -> Option<RowActionId<'_>> {
        RowActionId::parse(&self.id)
    }

    /// The schema actually enforced and described: the declared one (or
    /// `{ "type": "object" }`), plus, for row actions, a required string
    /// `record` (the target) unless the declaration already describes it.
    pub fn effective_schema(&self) -> Value {
        let mut schema = match &self.input {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        if !schema.contains_key("type") {
            put_text(&mut schema, "type", "object");
        }
        if self.row_action().is_some() {
            if !schema.contains_key("properties") {
                put(&mut schema, "properties", Value::Object(Map::new()));
            }
            if let Some(Value::Object(props)) = schema.get_mut("properties") {
                if !props.contains_key("record") {
                    let mut record = Map::new();
                    put_text(&mut record, "type", "string");
                    put_text(&mut record, "description", "id of the target record");
                    put(props, "record", Value::Object(record));
                }
            }
            if !schema.contains_key("required") {
                put(&mut schema, "required", Value::Array(Vec::new()));
            }
            if let Some(Value::Array(names)) = schema.get_mut("required") {
                if !names.iter().any(|n| n.as_str() == Some("record")) {
                    names.insert(0, text("record"));
                }
            }
        }
        Value::Object(schema)
    }

    /// Parses one declaration; the error says why it is refused.
    pub fn from_json(value: &Value) -> Result<Self, String> {
        let obj = value.as_object().ok_or("a declaration must be an object")?;
        let id = match obj.get("id") {
            Some(Value::String(id)) if !id.trim().is_empty() => id.clone(),
            _ => return Err("`id` must be a non-empty string".into()),
        };
        let bad = |what: &str| Err(refused(&id, what));
        if at_sign(&id).is_some() && RowActionId::parse(&id).is_none() {
            return bad("a row action id must be `name@kind` (one `@`, non-empty parts)");
        }
        let title = match obj.get("title") {
            Some(Value::String(t)) => t.clone(),
            _ => return bad("`title` must be a string"),
        };
        let description = match obj.get("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(d)) => Some(d.clone()),
            Some(_) => return bad("`description` must be a string"),
        };
        let input = match obj.get("input") {
            None | Some(Value::Null) => None,
            Some(schema) => {
                // A non-object, or an object schema of another type.
                const NOT_AN_OBJECT: &str = "`input` must be an object schema (`type: \"object\"`)";
                let Some(map) = schema.as_object() else {
                    return bad(NOT_AN_OBJECT);
                };
                if let Err(e) = schema::check_schema(schema) {
                    return Err(format!("`{id}`: input schema at {e}"));
                }
                match map.get("type") {
                    None => {}
                    Some(t) if t.as_str() == Some("object") => {}
                    Some(_) => return bad(NOT_AN_OBJECT),
                }
                Some(schema.clone())
            }
        };
        let risk = match obj.get("risk") {
            None | Some(Value::Null) => Risk::Low,
            Some(r) if r.as_str() == Some("low") => Risk::Low,
            Some(r) if r.as_str() == Some("high") => Risk::High,
            Some(_) => return bad("`risk` must be \"low\" or \"high\""),
        };
        let read_only = match obj.get("readOnly") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return bad("`readOnly` must be a boolean"),
        };
        let expect = match obj.get("expect") {
            None | Some(Value::Null) => None,
            Some(Value::Object(e)) => Some(parse_expect(e).map_err(|what| refused(&id, what))?),
            Some(_) => return bad("`expect` must be an object"),
        };
        Ok(Self {
            id,
            title,
            description,
            input,
            risk,
            read_only,
            expect,
        })
    }
}

/// "`id`: why".
fn refused(id: &str, why: &str) -> String {
    format!("`{id}`: {why}")
}

fn parse_expect(e: &Map<String, Value>) -> Result<Expectation, &'static str> {
    let text = match e.get("text") {
        Some(Value::String(t)) if !t.trim().is_empty() => t.clone(),
        _ => return Err("`expect.text` must be a non-empty string"),
    };
    let within_ms = match e.get("within") {
        None | Some(Value::Null) => DEFAULT_EXPECT_WITHIN_MS,
        Some(w) => match w.as_f64() {
            // (A JSON number is always finite.)
            Some(ms) if ms >= 0.0 => ms,
            _ => return Err("`expect.within` must be a non-negative number of milliseconds"),
        },
    };
    Ok(Expectation { text, within_ms })
}

/// A declaration the registry refused, kept for debugging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedDeclaration {
    /// Position in the declared list.
    pub index: usize,
    pub reason: String,
}

/// The parsed registry: usable declarations in declared order, and the
/// refused ones with reasons.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registry {
    pub declarations: Vec<CapabilityDeclaration>,
    pub skipped: Vec<SkippedDeclaration>,
}

impl Registry {
    /// Parses `CapabilityDeclaration[]`. A non-array yields an empty
    /// registry with one skipped entry explaining why; a later duplicate id
    /// is skipped (the first declaration wins).
    pub fn from_json(value: &Value) -> Self {
        let mut registry = Self::default();
        let Some(list) = value.as_array() else {
            registry.skipped.push(SkippedDeclaration {
                index: 0,
                reason: "the registry must be an array of declarations".into(),
            });
            return registry;
        };
        for (index, item) in list.iter().enumerate() {
            match CapabilityDeclaration::from_json(item) {
                Ok(decl) if registry.get(&decl.id).is_some() => {
                    registry.skipped.push(SkippedDeclaration {
                        index,
                        reason: refused(&decl.id, "duplicate id; the first declaration wins"),
                    });
                }
                Ok(decl) => registry.declarations.push(decl),
                Err(reason) => registry.skipped.push(SkippedDeclaration { index, reason }),
            }
        }
        registry
    }

    /// The declaration with this id.
    pub fn get(&self, id: &str) -> Option<&CapabilityDeclaration> {
        for d in &self.declarations {
            if d.id == id {
                return Some(d);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::RowActionId;

    #[test]
    fn row_action_ids() {
        assert_eq!(
            RowActionId::parse("orders.update_note@order"),
            Some(RowActionId {
                name: "orders.update_note",
                kind: "order"
            })
        );
        for plain_or_malformed in ["orders.search", "@order", "note@", "a@b@c", "@"] {
            assert_eq!(
                RowActionId::parse(plain_or_malformed),
                None,
                "{plain_or_malformed}"
            );
        }
    }
}
