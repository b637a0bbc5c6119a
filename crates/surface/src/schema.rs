//! A small JSON Schema validator for capability inputs.
//!
//! Hand-written rather than a crate because the whole wasm module has a
//! 60 KB gzip budget and the maintained validators (with regex, formats,
//! `$ref` resolution) are several times that on their own.
//!
//! Supported subset: `type` (incl. `"integer"` and type arrays), `enum`,
//! `const`, `properties`, `required`, `additionalProperties` (bool or
//! schema), `minLength`/`maxLength` (in characters), `minimum`/`maximum`,
//! `exclusiveMinimum`/`exclusiveMaximum` (numeric form), `items` (one schema
//! for every element), `minItems`/`maxItems`, and boolean schemas.
//! Annotations (`title`, `description`, `default`, `examples`, `format`, …)
//! are accepted and ignored. Any other keyword is *unsupported*:
//! [`check_schema`] reports it so a declaration relying on, say, `pattern`
//! is refused instead of silently accepting input it meant to reject.
//!
//! Nesting is bounded by [`MAX_SCHEMA_DEPTH`]; nothing here panics, whatever
//! the schema or value.

use crate::json::number_text;
use serde_json::{Map, Number, Value};
use std::fmt;

mod check;

/// Deepest schema nesting accepted (each `properties`/`items`/
/// `additionalProperties` step is one level).
pub const MAX_SCHEMA_DEPTH: usize = 32;

/// The first failure found, at a JSON pointer (`""` is the root): its
/// [`SchemaProblem`], boxed so that the validator's `Result`s stay one
/// pointer wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError(Box<SchemaProblem>);

/// What a [`SchemaError`] says (its fields are reached through it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// JSON pointer (RFC 6901) into the value (for [`validate`]) or into the
    /// schema (for [`check_schema`]).
    pub path: String,
    pub message: String,
}

impl std::ops::Deref for SchemaError {
    type Target = SchemaProblem;
    fn deref(&self) -> &SchemaProblem {
        &self.0
    }
}

impl SchemaError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self(Box::new(SchemaProblem {
            path: path.into(),
            message: message.into(),
        }))
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

fn fail(path: &str, message: impl Into<String>) -> SchemaError {
    SchemaError::new(path, message)
}

/// Appends one escaped pointer segment (`~` → `~0`, `/` → `~1`).
fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    for c in segment.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Runs `f` with `segment` appended to `path`, then restores `path`.
fn nested<T>(
    path: &mut String,
    segment: &str,
    f: impl FnOnce(&mut String) -> Result<T, SchemaError>,
) -> Result<T, SchemaError> {
    let len = path.len();
    push_segment(path, segment);
    let out = f(path);
    path.truncate(len);
    out
}

/// The error for a schema nested deeper than [`MAX_SCHEMA_DEPTH`].
fn too_deep(path: &str) -> SchemaError {
    const _: () = assert!(MAX_SCHEMA_DEPTH == 32);
    fail(path, "schema nested deeper than 32 levels")
}

/// Validates `value` against `schema`; the error names the failing path,
/// e.g. `/note: expected string, got number`.
pub fn validate(schema: &Value, value: &Value) -> Result<(), SchemaError> {
    validate_at(schema, value, &mut String::new(), 0)
}

/// Checks that `schema` only uses the supported subset, with well-formed
/// keyword values. The error path points into the schema.
pub fn check_schema(schema: &Value) -> Result<(), SchemaError> {
    check::check_at(schema, &mut String::new(), 0)
}

/// A JSON number that is a whole number (`3` or `3.0`). An integer's f64 is
/// whole too, even rounded (a JSON number is always finite).
pub(crate) fn is_integer(n: &Number) -> bool {
    n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// A non-negative whole number that fits in `u64` exactly (≤ 2^53 for floats).
pub(crate) fn as_count(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    // (NaN and ±∞ fail the range.)
    if (0.0..=9_007_199_254_740_992.0).contains(&f) && f.fract() == 0.0 {
        // Exact: a whole f64 below 2^53 converts without rounding.
        Some(f as u64)
    } else {
        None
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn has_type(v: &Value, name: &str) -> bool {
    match name {
        "integer" => v.as_number().is_some_and(is_integer),
        other => type_name(v) == other,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k.as_str()).is_some_and(|b| json_eq(a, b)))
        }
        _ => a == b,
    }
}

/// A short rendering of a JSON value for messages.
fn brief(v: &Value) -> String {
    const MAX: usize = 80;
    let text = serde_json::to_string(v).unwrap_or_default();
    let mut out = sense::prefix_chars(&text, MAX).to_string();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Validates `value` against `schema` one level down, at `path/segment`
/// (errors leave the path pointing at the failure).
fn validate_in(
    schema: &Value,
    value: &Value,
    path: &mut String,
    segment: &str,
    depth: usize,
) -> Result<(), SchemaError> {
    let len = path.len();
    push_segment(path, segment);
    validate_at(schema, value, path, depth + 1)?;
    path.truncate(len);
    Ok(())
}

fn malformed(path: &str, keyword: &str) -> SchemaError {
    fail(path, format!("schema keyword `{keyword}` is malformed"))
}

fn validate_at(
    schema: &Value,
    value: &Value,
    path: &mut String,
    depth: usize,
) -> Result<(), SchemaError> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(too_deep(path));
    }
    let keywords = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return Err(fail(path, "no value is allowed here")),
        Value::Object(keywords) => keywords,
        _ => return Err(fail(path, "schema is neither an object nor a boolean")),
    };
    if let Some(t) = keywords.get("type") {
        check_type(t, value, path)?;
    }
    if let Some(c) = keywords.get("const") {
        if !json_eq(c, value) {
            return Err(fail(path, format!("expected {}", brief(c))));
        }
    }
    if let Some(e) = keywords.get("enum") {
        let options = e.as_array().ok_or_else(|| malformed(path, "enum"))?;
        if !options.iter().any(|o| json_eq(o, value)) {
            return Err(fail(path, format!("expected one of {}", brief(e))));
        }
    }
    check_bounds(keywords, value, path)?;
    match value {
        Value::Array(items) => validate_array(keywords, items, path, depth),
        Value::Object(map) => validate_object(keywords, map, path, depth),
        _ => Ok(()),
    }
}

fn check_type(t: &Value, value: &Value, path: &str) -> Result<(), SchemaError> {
    let ok = match t {
        Value::String(name) => has_type(value, name),
        Value::Array(names) => names
            .iter()
            .any(|n| n.as_str().is_some_and(|name| has_type(value, name))),
        _ => return Err(malformed(path, "type")),
    };
    if ok {
        return Ok(());
    }
    // The name, or the names joined by " or ".
    let mut expected = String::new();
    let names = match t {
        Value::Array(names) => names.as_slice(),
        single => std::slice::from_ref(single),
    };
    let mut sep = "";
    for name in names {
        if let Some(name) = name.as_str() {
            expected.push_str(sep);
            expected.push_str(name);
            sep = " or ";
        }
    }
    Err(fail(
        path,
        format!("expected {expected}, got {}", type_name(value)),
    ))
}

/// The bound keywords, in check order: `(keyword, applies to, lower bound,
/// exclusive)`. Lengths and item counts are non-negative integers, numeric
/// bounds any finite number; a malformed value fails closed.
const BOUNDS: [(&str, u8, bool, bool); 8] = [
    ("minLength", STRING, true, false),
    ("maxLength", STRING, false, false),
    ("minItems", ARRAY, true, false),
    ("maxItems", ARRAY, false, false),
    ("minimum", NUMBER, true, false),
    ("maximum", NUMBER, false, false),
    ("exclusiveMinimum", NUMBER, true, true),
    ("exclusiveMaximum", NUMBER, false, true),
];
const STRING: u8 = 0;
const ARRAY: u8 = 1;
const NUMBER: u8 = 2;

/// `minLength`/`maxLength` (in characters), `minItems`/`maxItems`, and the
/// four numeric bounds, for whichever applies to `value`.
fn check_bounds(
    keywords: &Map<String, Value>,
    value: &Value,
    path: &str,
) -> Result<(), SchemaError> {
    let (x, kind, unit) = match value {
        Value::String(s) => (sense::char_count(s) as f64, STRING, " characters"),
        Value::Array(items) => (items.len() as f64, ARRAY, " items"),
        Value::Number(n) => (n.as_f64().unwrap_or(f64::NAN), NUMBER, ""),
        _ => return Ok(()),
    };
    for (name, applies, lower, exclusive) in BOUNDS {
        let Some(v) = keywords.get(name).filter(|_| applies == kind) else {
            continue;
        };
        let bound = match kind {
            NUMBER => v.as_f64(), // (a JSON number is always finite)
            _ => as_count(v).map(|n| n as f64),
        }
        .ok_or_else(|| malformed(path, name))?;
        let holds = match (lower, exclusive) {
            (true, false) => x >= bound,
            (false, false) => x <= bound,
            (true, true) => x > bound,
            (false, true) => x < bound,
        };
        if !holds {
            let head = match (kind, lower, exclusive) {
                (NUMBER, true, false) => "a number >= ",
                (NUMBER, false, false) => "a number <= ",
                (NUMBER, true, true) => "a number > ",
                (NUMBER, false, true) => "a number < ",
                (_, true, _) => "at least ",
                (_, false, _) => "at most ",
            };
            let message = format!(
                "expected {head}{}{unit}, got {}",
                number_text(bound),
                number_text(x)
            );
            return Err(fail(path, message));
        }
    }
    Ok(())
}

fn validate_array(
    keywords: &Map<String, Value>,
    items: &[Value],
    path: &mut String,
    depth: usize,
) -> Result<(), SchemaError> {
    if let Some(item_schema) = keywords.get("items") {
        if !matches!(item_schema, Value::Object(_) | Value::Bool(_)) {
            return Err(malformed(path, "items"));
        }
        for (i, item) in items.iter().enumerate() {
            let index = serde_json::to_string(&Number::from(i)).unwrap_or_default();
            validate_in(item_schema, item, path, &index, depth)?;
        }
    }
    Ok(())
}

fn validate_object(
    keywords: &Map<String, Value>,
    map: &Map<String, Value>,
    path: &mut String,
    depth: usize,
) -> Result<(), SchemaError> {
    if let Some(required) = keywords.get("required") {
        let names = required
            .as_array()
            .ok_or_else(|| malformed(path, "required"))?;
        for name in names {
            let name = name.as_str().ok_or_else(|| malformed(path, "required"))?;
            if !map.contains_key(name) {
                push_segment(path, name);
                return Err(fail(path, "required property is missing"));
            }
        }
    }
    let properties = match keywords.get("properties") {
        None => None,
        Some(Value::Object(props)) => Some(props),
        Some(_) => return Err(malformed(path, "properties")),
    };
    if let Some(props) = properties {
        for (name, sub) in props {
            if let Some(v) = map.get(name.as_str()) {
                validate_in(sub, v, path, name, depth)?;
            }
        }
    }
    match keywords.get("additionalProperties") {
        None | Some(Value::Bool(true)) => Ok(()),
        Some(extra @ (Value::Bool(false) | Value::Object(_))) => {
            for (name, v) in map {
                if properties.is_some_and(|p| p.contains_key(name.as_str())) {
                    continue;
                }
                if matches!(extra, Value::Bool(false)) {
                    push_segment(path, name);
                    return Err(fail(path, "property is not allowed"));
                }
                validate_in(extra, v, path, name, depth)?;
            }
            Ok(())
        }
        Some(_) => Err(malformed(path, "additionalProperties")),
    }
}
