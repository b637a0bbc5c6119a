//! Request shape: the first check, before anything about the session.

use crate::codes::ProtocolError;
use crate::json::string_list;
use crate::schema::as_count;
use crate::PROTOCOL;
use serde_json::{Map, Value};

/// Longest request id accepted (ids are remembered for replay detection).
pub const MAX_REQUEST_ID_CHARS: usize = 256;

/// Most records one describe may return; a larger `limit` is clamped and
/// the clamped value is reported in `recordWindow.limit`.
pub const MAX_RECORD_LIMIT: usize = 100;

/// Most ids one `record: [...]` read may name.
pub const MAX_RECORD_IDS: usize = MAX_RECORD_LIMIT;

// The messages spell these out (no formatting code for constants).
const _: () = assert!(MAX_REQUEST_ID_CHARS == 256 && MAX_RECORD_IDS == 100);
const _: () = assert!(matches!(PROTOCOL.as_bytes(), b"pling.surface/0.1"));

/// Which records a describe returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSelection {
    /// A window; `limit: None` means the configured `recordLimit`.
    Window { offset: usize, limit: Option<usize> },
    /// Exactly these record ids.
    Ids(Vec<String>),
}

/// `capabilities: "all" | "changed"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapabilityMode {
    All,
    Changed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeInput {
    pub records: RecordSelection,
    pub capabilities: CapabilityMode,
}

/// A request that passed the shape check, borrowing from the request value.
#[derive(Debug, Clone, PartialEq)]
pub enum Request<'a> {
    Describe {
        id: &'a str,
        input: DescribeInput,
    },
    Invoke {
        id: &'a str,
        capability: &'a str,
        /// `None`: no `input` (an empty object).
        input: Option<&'a Map<String, Value>>,
    },
}

impl Request<'_> {
    pub fn id(&self) -> &str {
        match self {
            Self::Describe { id, .. } | Self::Invoke { id, .. } => id,
        }
    }
}

/// The id to echo in any response: the request's string id, else `""`.
pub fn echo_id(request: &Value) -> &str {
    request.get("id").and_then(Value::as_str).unwrap_or("")
}

/// Checks the request shape; every failure is `INVALID_REQUEST` naming the
/// offending field.
pub fn parse_request(request: &Value) -> Result<Request<'_>, ProtocolError> {
    let obj = request
        .as_object()
        .ok_or_else(|| ProtocolError::invalid("the request must be a JSON object"))?;
    match obj.get("protocol") {
        Some(Value::String(p)) if p == PROTOCOL => {}
        Some(Value::String(p)) => {
            return Err(ProtocolError::invalid(format!(
                "unsupported protocol `{p}`: expected `{PROTOCOL}`"
            )))
        }
        _ => {
            return Err(ProtocolError::invalid(
                "`protocol` must be `pling.surface/0.1`",
            ))
        }
    }
    let id = match obj.get("id") {
        Some(Value::String(id))
            if !id.is_empty() && sense::char_count(id) <= MAX_REQUEST_ID_CHARS =>
        {
            id.as_str()
        }
        _ => {
            return Err(ProtocolError::invalid(
                "`id` must be a non-empty string of at most 256 characters",
            ))
        }
    };
    let describe = match obj.get("method") {
        Some(Value::String(m)) if m == "describe" => true,
        Some(Value::String(m)) if m == "invoke" => false,
        Some(Value::String(m)) => {
            return Err(ProtocolError::invalid(format!(
                "unknown method `{m}`: expected `describe` or `invoke`"
            )))
        }
        _ => {
            return Err(ProtocolError::invalid(
                "`method` must be `describe` or `invoke`",
            ))
        }
    };
    let input = match obj.get("input") {
        None => None,
        Some(Value::Object(input)) => Some(input),
        Some(_) => return Err(ProtocolError::invalid("`input` must be an object")),
    };
    if describe {
        let input = parse_describe_input(input)?;
        return Ok(Request::Describe { id, input });
    }
    let capability = match obj.get("capability") {
        Some(Value::String(c)) if !c.is_empty() => c.as_str(),
        _ => {
            return Err(ProtocolError::invalid(
                "invoke needs `capability`: a non-empty string",
            ))
        }
    };
    Ok(Request::Invoke {
        id,
        capability,
        input,
    })
}

fn parse_describe_input(
    input: Option<&Map<String, Value>>,
) -> Result<DescribeInput, ProtocolError> {
    let empty = Map::new();
    let input = input.unwrap_or(&empty);
    let count = |name: &str| -> Result<Option<usize>, ProtocolError> {
        match input.get(name) {
            None => Ok(None),
            Some(v) => as_count(v)
                .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
                .ok_or_else(|| {
                    ProtocolError::invalid(format!("`input.{name}` must be a non-negative integer"))
                }),
        }
    };
    let records = match input.get("record") {
        Some(record) => {
            if input.contains_key("offset") || input.contains_key("limit") {
                return Err(ProtocolError::invalid(
                    "`input.record` cannot be combined with `input.offset` or `input.limit`",
                ));
            }
            RecordSelection::Ids(parse_record_ids(record)?)
        }
        None => RecordSelection::Window {
            offset: count("offset")?.unwrap_or(0),
            limit: count("limit")?,
        },
    };
    let capabilities = match input.get("capabilities") {
        None => CapabilityMode::All,
        Some(v) if v.as_str() == Some("all") => CapabilityMode::All,
        Some(v) if v.as_str() == Some("changed") => CapabilityMode::Changed,
        Some(_) => {
            return Err(ProtocolError::invalid(
                "`input.capabilities` must be \"all\" or \"changed\"",
            ))
        }
    };
    Ok(DescribeInput {
        records,
        capabilities,
    })
}

fn parse_record_ids(record: &Value) -> Result<Vec<String>, ProtocolError> {
    let not_ids = || {
        ProtocolError::invalid(
            "`input.record` must be a record id or an array of at most 100 record ids",
        )
    };
    match record {
        Value::String(id) => Ok(vec![id.clone()]),
        Value::Array(ids) if ids.len() <= MAX_RECORD_IDS => string_list(record).ok_or_else(not_ids),
        _ => Err(not_ids()),
    }
}
