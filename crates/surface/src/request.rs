//! Request shape: the first check, before anything about the session.

use crate::codes::ProtocolError;
use crate::field::{from_object, Field};
use crate::schema::as_count;
use crate::PROTOCOL;
use serde::Deserialize;
use serde_json::{Map, Value};

/// Longest request id accepted (ids are remembered for replay detection).
pub const MAX_REQUEST_ID_CHARS: usize = 256;

/// Longest `capability` accepted, in characters. From JS, a string of
/// more UTF-16 units than this (`crossing::MAX_SCALAR_CHARS`) crosses only
/// as its length, and is refused with the same message.
pub const MAX_CAPABILITY_CHARS: usize = 4096;

/// Most records one describe may return; a larger `limit` is clamped and
/// the clamped value is reported in `recordWindow.limit`.
pub const MAX_RECORD_LIMIT: usize = 100;

/// Most ids one `record: [...]` read may name.
pub const MAX_RECORD_IDS: usize = MAX_RECORD_LIMIT;

/// Largest `offset` or `limit` accepted: 2^53, the last integer a JS
/// number holds exactly, whether it arrives as an integer or a float.
pub const MAX_COUNT: u64 = 1 << 53;

/// Which records a describe returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSelection {
    /// A window; `limit: None` means the configured `recordLimit`; a
    /// given one is already clamped to [`MAX_RECORD_LIMIT`].
    Window { offset: u64, limit: Option<usize> },
    /// Exactly these record ids.
    Ids(Vec<String>),
}

/// `capabilities: "all" | "changed"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CapabilityMode {
    All,
    Changed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeInput {
    pub records: RecordSelection,
    pub capabilities: CapabilityMode,
}

/// A request that passed the shape check.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Describe {
        id: String,
        input: DescribeInput,
    },
    Invoke {
        id: String,
        capability: String,
        /// The input as given, keys in their order (`{}` when absent).
        input: Map<String, Value>,
    },
}

impl Request {
    pub fn id(&self) -> &str {
        match self {
            Self::Describe { id, .. } | Self::Invoke { id, .. } => id,
        }
    }
}

/// `{ protocol, id, method, input?, capability? }` as given; unknown
/// members are ignored.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RequestWire {
    protocol: Field<String>,
    id: Field<String>,
    method: Field<String>,
    input: Field<Map<String, Value>>,
    capability: Field<String>,
}

/// `describe`'s input as given.
#[derive(Deserialize, Default)]
#[serde(default)]
struct DescribeWire {
    limit: Field<Value>,
    offset: Field<Value>,
    record: Field<Value>,
    capabilities: Field<CapabilityMode>,
}

/// The id to echo in any response: the request's string id, else `""`.
pub fn echo_id(request: &Value) -> &str {
    request.get("id").and_then(Value::as_str).unwrap_or("")
}

/// Checks the request shape; every failure is `INVALID_REQUEST` naming the
/// offending member, in this order: protocol, id, method, input, then the
/// method's own members.
pub fn parse_request(request: &Value) -> Result<Request, ProtocolError> {
    let Some(wire) = request.as_object().and_then(from_object::<RequestWire>) else {
        return Err(ProtocolError::invalid("the request must be a JSON object"));
    };
    match wire.protocol {
        Field::Given(p) if p == PROTOCOL => {}
        Field::Given(p) => {
            return Err(ProtocolError::invalid(format!(
                "unsupported protocol `{p}`: expected `{PROTOCOL}`"
            )))
        }
        _ => {
            return Err(ProtocolError::invalid(format!(
                "`protocol` must be `{PROTOCOL}`"
            )))
        }
    }
    let id = match wire.id {
        Field::Given(id) if !id.is_empty() && id.chars().count() <= MAX_REQUEST_ID_CHARS => id,
        _ => {
            return Err(ProtocolError::invalid(format!(
                "`id` must be a non-empty string of at most {MAX_REQUEST_ID_CHARS} characters"
            )))
        }
    };
    let describe = match wire.method {
        Field::Given(m) if m == "describe" => true,
        Field::Given(m) if m == "invoke" => false,
        Field::Given(m) => {
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
    let input = match wire.input {
        Field::Absent => None,
        Field::Given(input) => Some(input),
        Field::Null | Field::Other => {
            return Err(ProtocolError::invalid("`input` must be an object"))
        }
    };
    if describe {
        let input = parse_describe_input(input.as_ref())?;
        return Ok(Request::Describe { id, input });
    }
    // A longer string crosses from JS only as its length (crossing.rs);
    // bounding it here too gives one message for both ways in.
    let capability = match wire.capability {
        Field::Given(c) if !c.is_empty() && sense::char_count(&c) <= MAX_CAPABILITY_CHARS => c,
        _ => {
            return Err(ProtocolError::invalid(format!(
                "invoke needs `capability`: a non-empty string of at most {MAX_CAPABILITY_CHARS} characters"
            )))
        }
    };
    Ok(Request::Invoke {
        id,
        capability,
        input: input.unwrap_or_default(),
    })
}

fn parse_describe_input(
    input: Option<&Map<String, Value>>,
) -> Result<DescribeInput, ProtocolError> {
    let wire = match input {
        Some(input) => from_object::<DescribeWire>(input)
            .ok_or_else(|| ProtocolError::invalid("`input` must be an object"))?,
        None => DescribeWire::default(),
    };
    let count = |name: &str, field: Field<Value>| -> Result<Option<u64>, ProtocolError> {
        let n = match field {
            Field::Absent => return Ok(None),
            Field::Given(v) => as_count(&v).filter(|&n| n <= MAX_COUNT),
            Field::Null | Field::Other => None,
        };
        n.map(Some).ok_or_else(|| {
            ProtocolError::invalid(format!(
                "`input.{name}` must be a non-negative integer of at most {MAX_COUNT} (2^53)"
            ))
        })
    };
    let records = match wire.record {
        Field::Absent => RecordSelection::Window {
            offset: count("offset", wire.offset)?.unwrap_or(0),
            limit: count("limit", wire.limit)?.map(|l| l.min(MAX_RECORD_LIMIT as u64) as usize),
        },
        record => {
            if !wire.offset.is_absent() || !wire.limit.is_absent() {
                return Err(ProtocolError::invalid(
                    "`input.record` cannot be combined with `input.offset` or `input.limit`",
                ));
            }
            // `record: id | id[]`.
            let ids = match record {
                Field::Given(Value::String(id)) => Some(vec![id]),
                Field::Given(list @ Value::Array(_)) => Vec::<String>::deserialize(&list).ok(),
                _ => None,
            };
            match ids {
                Some(ids) if ids.len() <= MAX_RECORD_IDS => RecordSelection::Ids(ids),
                _ => {
                    return Err(ProtocolError::invalid(format!(
                        "`input.record` must be a record id or an array of at most {MAX_RECORD_IDS} record ids"
                    )))
                }
            }
        }
    };
    let capabilities = match wire.capabilities {
        Field::Absent => CapabilityMode::All,
        Field::Given(mode) => mode,
        Field::Null | Field::Other => {
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
