//! `check_schema`: is a declared schema within the supported subset?

use super::{as_count, fail, nested, too_deep, type_name, SchemaError, MAX_SCHEMA_DEPTH};
use json::Value;

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
        other => {
            return Err(fail(
                path,
                format!(
                    "a schema must be an object or a boolean, got {}",
                    type_name(other)
                ),
            ))
        }
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
    let bad = |p: &str, what: &str| Err(fail(p, format!("`{name}` must be {what}")));
    match name {
        "type" => {
            let known = |v: &Value| v.as_str().is_some_and(|t| TYPE_NAMES.contains(&t));
            let ok = match value {
                Value::Array(names) => !names.is_empty() && names.iter().all(known),
                single => known(single),
            };
            if ok {
                Ok(())
            } else {
                bad(path, "a type name or a non-empty array of type names")
            }
        }
        "enum" => match value {
            Value::Array(_) => Ok(()),
            _ => bad(path, "an array"),
        },
        "const" => Ok(()),
        "required" => match value {
            Value::Array(names) if names.iter().all(Value::is_string) => Ok(()),
            _ => bad(path, "an array of property names"),
        },
        "minLength" | "maxLength" | "minItems" | "maxItems" => match as_count(value) {
            Some(_) => Ok(()),
            None => bad(path, "a non-negative integer"),
        },
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            match value.as_f64().filter(|f| f.is_finite()) {
                Some(_) => Ok(()),
                None => bad(path, "a number"),
            }
        }
        "properties" => match value {
            Value::Object(props) => {
                for (prop, sub) in props {
                    nested(path, prop, |p| check_at(sub, p, depth + 1))?;
                }
                Ok(())
            }
            _ => bad(path, "an object of schemas"),
        },
        "additionalProperties" | "items" => check_at(value, path, depth + 1),
        _ if ANNOTATIONS.contains(&name) => Ok(()),
        _ => Err(fail(
            path,
            format!("unsupported schema keyword `{name}` (the supported subset is listed in docs/surface.md)"),
        )),
    }
}
