//! Capability declarations: the registry the page helper and Surface share.
//!
//! Parsing is lenient about the *list* (one bad declaration does not take the
//! others down) and strict about each *entry* (a declaration we cannot
//! enforce completely — unknown risk, unsupported schema keyword — is skipped,
//! never half-applied). Skipped entries keep their reason for debugging.

use crate::bounds::{self, DecodeError};
use crate::field::{from_object, Field, Object};
use crate::page::MAX_TEXT_CHARS;
use crate::schema::{self, SchemaError};
use sense::{cap_chars, utf16_len};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// Default `expect.within` in milliseconds.
pub const DEFAULT_EXPECT_WITHIN_MS: f64 = 2000.0;

/// How dangerous a capability is. `High` needs a human's approval through
/// the host's confirm hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    #[default]
    Low,
    High,
}

/// The declared success criterion: `text` must show up in status or
/// feedback within `within_ms`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expectation {
    pub text: String,
    #[serde(rename = "within")]
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
        let (name, kind) = id.split_once('@')?;
        if name.is_empty() || kind.is_empty() || kind.contains('@') {
            return None;
        }
        Some(Self { name, kind })
    }
}

/// The members a declaration defines, as its wire names (space-separated,
/// as boundary.js's `stringify` takes them): a function under one of them
/// makes the declaration no JSON, while one under any other key (a
/// handler) is left out as JSON leaves it ([`crate::crossing::Writing`]).
pub const DECLARATION_FIELDS: &str = "id title description input risk readOnly expect";

/// One declared capability, as it serializes back:
/// `{ id, title, description?, input?, risk, expect? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DeclarationWire")]
pub struct CapabilityDeclaration {
    pub id: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The declared input schema (an object schema), as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    pub risk: Risk,
    /// Declared to change nothing (`readOnly: true`): published to WebMCP
    /// with `readOnlyHint`.
    #[serde(rename = "readOnly", skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expectation>,
}

/// Why a declaration is refused. Its text names the declaration's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclarationError {
    NotAnObject,
    /// `id` missing, not a string, or blank.
    Id,
    /// An `@` id that is not `name@kind`.
    RowActionId(String),
    Title(String),
    Description(String),
    /// `input` is not an object schema.
    InputNotObjectSchema(String),
    /// `input` uses an unsupported keyword, or a malformed one.
    InputSchema(String, SchemaError),
    Risk(String),
    ReadOnly(String),
    ExpectNotObject(String),
    ExpectText(String),
    /// `expect.text` longer than status or feedback text can be.
    ExpectTextLong(String),
    ExpectWithin(String),
    /// A later declaration with an id already declared.
    Duplicate(String),
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (id, why) = match self {
            Self::NotAnObject => return f.write_str("a declaration must be an object"),
            Self::Id => return f.write_str("`id` must be a non-empty string"),
            Self::InputSchema(id, e) => return write!(f, "`{id}`: input schema at {e}"),
            Self::RowActionId(id) => (
                id,
                "a row action id must be `name@kind` (one `@`, non-empty parts)",
            ),
            Self::Title(id) => (id, "`title` must be a string"),
            Self::Description(id) => (id, "`description` must be a string"),
            Self::InputNotObjectSchema(id) => {
                (id, "`input` must be an object schema (`type: \"object\"`)")
            }
            Self::Risk(id) => (id, "`risk` must be \"low\" or \"high\""),
            Self::ReadOnly(id) => (id, "`readOnly` must be a boolean"),
            Self::ExpectNotObject(id) => (id, "`expect` must be an object"),
            Self::ExpectText(id) => (id, "`expect.text` must be a non-empty string"),
            Self::ExpectTextLong(id) => {
                return write!(f, "`{id}`: `expect.text` is longer than the {MAX_TEXT_CHARS} characters status and feedback text is read to, so it could never show")
            }
            Self::ExpectWithin(id) => (
                id,
                "`expect.within` must be a non-negative number of milliseconds",
            ),
            Self::Duplicate(id) => (id, "duplicate id; the first declaration wins"),
        };
        write!(f, "`{id}`: {why}")
    }
}

impl std::error::Error for DeclarationError {}

/// A declaration as written, member by member.
#[derive(Deserialize, Default)]
#[serde(default)]
struct DeclarationWire {
    id: Field<String>,
    title: Field<String>,
    description: Field<String>,
    input: Field<Value>,
    risk: Field<Risk>,
    #[serde(rename = "readOnly")]
    read_only: Field<bool>,
    expect: Field<Object<ExpectWire>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ExpectWire {
    text: Field<String>,
    within: Field<f64>,
}

impl TryFrom<DeclarationWire> for CapabilityDeclaration {
    type Error = DeclarationError;

    /// The checks in order: id, its row-action form, title, description,
    /// input, risk, expect.
    fn try_from(wire: DeclarationWire) -> Result<Self, DeclarationError> {
        use DeclarationError as E;
        let id = match wire.id {
            Field::Given(id) if !id.trim().is_empty() => id,
            _ => return Err(E::Id),
        };
        if id.contains('@') && RowActionId::parse(&id).is_none() {
            return Err(E::RowActionId(id));
        }
        let Field::Given(title) = wire.title else {
            return Err(E::Title(id));
        };
        let description = match wire.description {
            Field::Absent | Field::Null => None,
            Field::Given(d) => Some(d),
            Field::Other => return Err(E::Description(id)),
        };
        let input = match wire.input {
            Field::Absent | Field::Null => None,
            Field::Other => return Err(E::InputNotObjectSchema(id)),
            Field::Given(schema) => {
                if !schema.is_object() {
                    return Err(E::InputNotObjectSchema(id));
                }
                if let Err(e) = schema::check_schema(&schema) {
                    return Err(E::InputSchema(id, e));
                }
                match schema.get("type") {
                    None => {}
                    Some(t) if t == "object" => {}
                    Some(_) => return Err(E::InputNotObjectSchema(id)),
                }
                Some(schema)
            }
        };
        let risk = match wire.risk {
            Field::Absent | Field::Null => Risk::Low,
            Field::Given(risk) => risk,
            Field::Other => return Err(E::Risk(id)),
        };
        let read_only = match wire.read_only {
            Field::Absent | Field::Null => false,
            Field::Given(b) => b,
            Field::Other => return Err(E::ReadOnly(id)),
        };
        let expect = match wire.expect {
            Field::Absent | Field::Null => None,
            Field::Other => return Err(E::ExpectNotObject(id)),
            Field::Given(Object(e)) => {
                // Read as status and feedback text is: whitespace runs
                // collapsed, trimmed, and within their cap (past it, it
                // could never show).
                let text = match e.text {
                    Field::Given(t) => cap_chars(&t, usize::MAX),
                    _ => String::new(),
                };
                if text.is_empty() {
                    return Err(E::ExpectText(id));
                }
                if utf16_len(&text) > MAX_TEXT_CHARS {
                    return Err(E::ExpectTextLong(id));
                }
                let within_ms = match e.within {
                    Field::Absent | Field::Null => DEFAULT_EXPECT_WITHIN_MS,
                    // (A JSON number is always finite.)
                    Field::Given(ms) if ms >= 0.0 => ms,
                    _ => return Err(E::ExpectWithin(id)),
                };
                Some(Expectation { text, within_ms })
            }
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

impl CapabilityDeclaration {
    /// The row-action parts of the id, if it is one.
    pub fn row_action(&self) -> Option<RowActionId<'_>> {
        RowActionId::parse(&self.id)
    }

    /// The schema actually enforced and described: the declared one (or
    /// `{ "type": "object" }`), plus, for row actions, a required string
    /// `record` (the target). A declared `record` keeps what it adds (a
    /// description, a `maxLength`) but is a string whatever type it
    /// declares: the target is always a record id.
    pub fn effective_schema(&self) -> Value {
        let mut schema = match &self.input {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        if !schema.contains_key("type") {
            schema.insert("type".into(), "object".into());
        }
        if self.row_action().is_some() {
            let properties = schema
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(props) = properties {
                match props.get_mut("record") {
                    Some(Value::Object(declared)) => {
                        declared.insert("type".into(), "string".into());
                    }
                    _ => {
                        props.insert(
                            "record".into(),
                            crate::crossing::object(&mut [
                                ("type", "string".into()),
                                ("description", "id of the target record".into()),
                            ]),
                        );
                    }
                }
            }
            let required = schema
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(names) = required {
                if !names.iter().any(|n| n == "record") {
                    names.insert(0, "record".into());
                }
            }
        }
        Value::Object(schema)
    }

    /// Parses one declaration; the error says why it is refused.
    pub fn from_json(value: &Value) -> Result<Self, DeclarationError> {
        let wire = value.as_object().and_then(from_object::<DeclarationWire>);
        Self::try_from(wire.ok_or(DeclarationError::NotAnObject)?)
    }
}

/// A declaration the registry refused, kept for debugging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedDeclaration {
    /// Position in the declared list.
    pub index: usize,
    pub reason: SkipReason,
}

/// Why an entry of the registry was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// The registry itself is not an array.
    NotAList,
    /// The declaration did not cross as JSON (why: a BigInt in it, a
    /// cycle, a getter that threw), so the others are read without it
    /// ([`crate::crossing::registry_from_crossing`]).
    NotJson(String),
    Declaration(DeclarationError),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAList => f.write_str("the registry must be an array of declarations"),
            Self::NotJson(why) => f.write_str(why),
            Self::Declaration(e) => e.fmt(f),
        }
    }
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
        Self::from_json_without(value, &[])
    }

    /// [`Registry::from_json`], where the entries at the indexes in
    /// `unreadable` (in order; each with why) did not cross as JSON and
    /// are skipped for that reason.
    pub(crate) fn from_json_without(value: &Value, unreadable: &[(usize, String)]) -> Self {
        let mut registry = Self::default();
        let Some(list) = value.as_array() else {
            registry.skipped.push(SkippedDeclaration {
                index: 0,
                reason: SkipReason::NotAList,
            });
            return registry;
        };
        let mut unreadable = unreadable.iter().peekable();
        for (index, item) in list.iter().enumerate() {
            if let Some((_, why)) = unreadable.next_if(|(at, _)| *at == index) {
                registry.skipped.push(SkippedDeclaration {
                    index,
                    reason: SkipReason::NotJson(why.clone()),
                });
                continue;
            }
            let reason = match CapabilityDeclaration::from_json(item) {
                Ok(decl) if registry.get(&decl.id).is_some() => {
                    DeclarationError::Duplicate(decl.id)
                }
                Ok(decl) => {
                    registry.declarations.push(decl);
                    continue;
                }
                Err(e) => e,
            };
            registry.skipped.push(SkippedDeclaration {
                index,
                reason: SkipReason::Declaration(reason),
            });
        }
        registry
    }

    /// [`Registry::from_json`] over JSON text, within the bounds of
    /// [`crate::bounds`].
    pub fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        bounds::decode::<Value>(text).map(|value| Self::from_json(&value))
    }

    /// The declaration with this id.
    pub fn get(&self, id: &str) -> Option<&CapabilityDeclaration> {
        self.declarations.iter().find(|d| d.id == id)
    }

    /// The console warning for what was skipped, if anything was:
    /// `declarations skipped: [1] why; [4] why`.
    pub fn warning(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let mut message = "declarations skipped:".to_string();
        for (i, s) in self.skipped.iter().enumerate() {
            let sep = if i == 0 { " " } else { "; " };
            message.push_str(&format!("{sep}[{}] {}", s.index, s.reason));
        }
        Some(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declaration_fields_are_the_members_a_declaration_defines() {
        // Every member set: what it serializes back is every member it reads.
        let full = CapabilityDeclaration::from_json(&json!({
            "id": "a", "title": "A", "description": "d", "input": { "type": "object" },
            "risk": "high", "readOnly": true, "expect": { "text": "done" }
        }))
        .expect("a valid declaration");
        let written = serde_json::to_value(&full).expect("a declaration serializes");
        let mut written: Vec<String> = written
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        let mut fields: Vec<String> = DECLARATION_FIELDS.split(' ').map(String::from).collect();
        written.sort();
        fields.sort();
        assert_eq!(fields, written);
    }

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

    #[test]
    fn a_declaration_deserializes_through_its_checks_and_serializes_back() {
        let decl: CapabilityDeclaration = serde_json::from_value(json!({
            "title": "Row", "id": "ok@row", "risk": "high", "expect": { "text": "done" }, "extra": 1
        }))
        .expect("a valid declaration");
        assert_eq!(decl.expect.as_ref().map(|e| e.within_ms), Some(2000.0));
        assert_eq!(
            serde_json::to_value(&decl).expect("serializes"),
            json!({ "id": "ok@row", "title": "Row", "risk": "high", "expect": { "text": "done", "within": 2000.0 } })
        );
        let refused =
            serde_json::from_value::<CapabilityDeclaration>(json!({ "id": "x", "title": 1 }));
        assert_eq!(
            refused.unwrap_err().to_string(),
            "`x`: `title` must be a string"
        );
        // The checks run in their order, not the keys': title before risk.
        let e =
            CapabilityDeclaration::from_json(&json!({ "risk": "medium", "title": 5, "id": "x" }));
        assert_eq!(e, Err(DeclarationError::Title("x".into())));
    }

    #[test]
    fn a_row_actions_record_is_always_a_required_string() {
        let schema = |input: Value| {
            serde_json::from_value::<CapabilityDeclaration>(
                json!({ "id": "note@order", "title": "Note", "input": input }),
            )
            .expect("a declaration")
            .effective_schema()
        };
        let implicit =
            schema(json!({ "properties": { "note": { "type": "string" } }, "required": ["note"] }));
        assert_eq!(implicit["properties"]["record"]["type"], "string");
        assert_eq!(implicit["required"], json!(["record", "note"]));
        // A declared record keeps what it adds, but not another type.
        let declared = schema(
            json!({ "properties": { "record": { "type": "integer", "description": "order no." } } }),
        );
        assert_eq!(
            declared["properties"]["record"],
            json!({ "type": "string", "description": "order no." })
        );
        let boolean = schema(json!({ "properties": { "record": true } }));
        assert_eq!(boolean["properties"]["record"]["type"], "string");
        // As docs/surface.md says: supported keywords stay, an unsupported
        // one (`pattern`) refuses the declaration as anywhere else.
        let bounded = schema(json!({ "properties": { "record": { "maxLength": 9 } } }));
        assert_eq!(bounded["properties"]["record"]["maxLength"], 9);
        let pattern = json!({ "id": "n@order", "title": "N",
            "input": { "properties": { "record": { "pattern": "^SO-" } } } });
        assert!(CapabilityDeclaration::from_json(&pattern).is_err());
    }

    #[test]
    fn the_warning_lists_every_skipped_entry() {
        let registry = Registry::from_json(
            &json!([{ "id": "a", "title": "A" }, 3, { "id": "a", "title": "B" }]),
        );
        assert_eq!(
            registry.warning().as_deref(),
            Some("declarations skipped: [1] a declaration must be an object; [2] `a`: duplicate id; the first declaration wins")
        );
        assert_eq!(Registry::from_json(&json!([])).warning(), None);
        assert_eq!(
            Registry::from_json_text(
                "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
            ),
            Err(DecodeError::TooDeep)
        );
    }
}
