//! `check_schema`: is a declared schema within the supported subset?

use super::{as_count, fail, nested, too_deep, SchemaError, MAX_SCHEMA_DEPTH};
use serde_json::Value;

const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Keywords that describe but never constrain.
const ANNOTATIONS: [&str; 13] = [
    "title",
    "description",
    "default",
    "examples",
    "format",
    "$schema",
    "$id",
    "$comment",
    "readOnly",
    "writeOnly",
    "deprecated",
    "$defs",
    "definitions",
];

pub(super) fn check_at(schema: &Value, path: &mut String, depth: usize) -> Result<(), SchemaError> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(too_deep(path));
    }
    let keywords = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(keywords) => keywords,
        _ => return Err(fail(path, "schema is neither an object nor a boolean")),
    };
    for (name, value) in keywords {
        nested(path, name, |p| check_keyword(name, value, p, depth))?;
    }
    Ok(())
}

fn check_keyword(
    name: &str,
    value: &Value,
    path: &mut String,
    depth: usize,
) -> Result<(), SchemaError> {
    // What the keyword's value must be, when it is not.
    let problem = match name {
        "type" => {
            let known = |v: &Value| v.as_str().is_some_and(|t| TYPE_NAMES.contains(&t));
            let ok = match value {
                Value::Array(names) => !names.is_empty() && names.iter().all(known),
                single => known(single),
            };
            (!ok).then_some("a type name or a non-empty array of type names")
        }
        "enum" => (!value.is_array()).then_some("an array"),
        "const" => None,
        "required" => match value {
            Value::Array(names) if names.iter().all(Value::is_string) => None,
            _ => Some("an array of property names"),
        },
        "minLength" | "maxLength" | "minItems" | "maxItems" => as_count(value)
            .is_none()
            .then_some("a non-negative integer"),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            (!value.is_number()).then_some("a number") // always finite
        }
        "properties" => match value {
            Value::Object(props) => {
                for (prop, sub) in props {
                    nested(path, prop, |p| check_at(sub, p, depth + 1))?;
                }
                None
            }
            _ => Some("an object of schemas"),
        },
        "additionalProperties" | "items" => return check_at(value, path, depth + 1),
        _ if ANNOTATIONS.contains(&name) => None,
        _ => {
            return Err(fail(
                path,
                format!("unsupported schema keyword `{name}` (the subset is in docs/surface.md)"),
            ))
        }
    };
    match problem {
        None => Ok(()),
        Some(what) => Err(fail(path, format!("`{name}` must be {what}"))),
    }
}
