//! Downlink parsing and uplink shapes (baseline §1). Parsing takes a
//! `serde_json::Value` that the boundary has already bounded in size and depth.

use sense::{Escape, Snapshot};
use serde::Serialize;
use serde_json::{Map, Value};

/// Longest usable requestId, in characters.
pub const REQUEST_ID_MAX_CHARS: usize = 128;

/// `TPlayableErrorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    BadRequest,
    UnknownCmd,
    NotLive,
    Retired,
    PageMismatch,
    NotInMenu,
    Ambiguous,
    NotActionable,
    UnsupportedEvent,
    EscapeNotAllowed,
    DispatchFailed,
    Internal,
}

/// The four commands, with their command-specific payload still raw: payload
/// fields are checked after phase and latch (baseline order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Hello,
    Snapshot,
    Run,
    Escape,
}

impl Command {
    fn parse(cmd: &str) -> Option<Self> {
        match cmd {
            "hello" => Some(Self::Hello),
            "snapshot" => Some(Self::Snapshot),
            "run" => Some(Self::Run),
            "escape" => Some(Self::Escape),
            _ => None,
        }
    }
}

/// A downlink that passed the shape and cmd checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Downlink {
    pub page_id: Option<String>,
    pub request_id: String,
    pub cmd: Command,
    pub payload: Map<String, Value>,
}

/// Ok payloads per command.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OkPayload {
    Hello {
        #[serde(rename = "pageId")]
        page_id: String,
    },
    Snapshot {
        snapshot: Snapshot,
        escapes: Vec<Escape>,
    },
    RunScroll {
        id: String,
        #[serde(rename = "scrollLeft")]
        scroll_left: i64,
        #[serde(rename = "scrollTop")]
        scroll_top: i64,
    },
    RunInput {
        id: String,
        value: Value,
    },
    RunDrag {
        id: String,
        to: String,
    },
    Run {
        id: String,
    },
    Escape {
        #[serde(rename = "type")]
        kind: String,
        retired: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
}

/// `IPlayableUplink`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Uplink {
    pub page_id: Option<String>,
    pub request_id: String,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<OkPayload>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

impl Uplink {
    pub fn ok(page_id: Option<String>, request_id: String, payload: OkPayload) -> Self {
        Self {
            page_id,
            request_id,
            ok: true,
            payload: Some(payload),
            error: None,
        }
    }

    pub fn err(
        page_id: Option<String>,
        request_id: String,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Self {
        Self {
            page_id,
            request_id,
            ok: false,
            payload: None,
            error: Some(ErrorBody {
                code,
                message: message.into(),
            }),
        }
    }

    pub fn code(&self) -> Option<ErrorCode> {
        self.error.as_ref().map(|e| e.code)
    }
}

/// A refusal found while parsing: the code, the message, and the requestId
/// to echo ("" when it was not usable).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub request_id: String,
    pub code: ErrorCode,
    pub message: String,
}

fn usable_request_id(v: Option<&Value>) -> Option<&str> {
    let s = v?.as_str()?;
    let n = s.chars().count();
    (1..=REQUEST_ID_MAX_CHARS).contains(&n).then_some(s)
}

pub(crate) fn type_name(v: Option<&Value>) -> &'static str {
    match v {
        None => "missing",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(_)) => "an array",
        Some(Value::Object(_)) => "an object",
    }
}

/// Shape and cmd checks, in baseline order. Never panics.
pub fn parse_downlink(value: &Value) -> Result<Downlink, Refusal> {
    let bad = |request_id: &str, message: String| Refusal {
        request_id: request_id.to_string(),
        code: ErrorCode::BadRequest,
        message,
    };
    let Some(obj) = value.as_object() else {
        return Err(bad(
            "",
            format!(
                "the envelope must be an object, got {}",
                type_name(Some(value))
            ),
        ));
    };
    let request_id = match usable_request_id(obj.get("requestId")) {
        Some(id) => id,
        None => {
            let got = obj.get("requestId");
            let why = match got.and_then(Value::as_str) {
                Some("") => "an empty string".to_string(),
                Some(s) => format!("{} characters long", s.chars().count()),
                None => type_name(got).to_string(),
            };
            return Err(bad(
                "",
                format!(
                    "requestId must be a string of 1..{REQUEST_ID_MAX_CHARS} characters, got {why}"
                ),
            ));
        }
    };
    let Some(cmd) = obj.get("cmd").and_then(Value::as_str) else {
        return Err(bad(
            request_id,
            format!("cmd must be a string, got {}", type_name(obj.get("cmd"))),
        ));
    };
    let Some(payload) = obj.get("payload").and_then(Value::as_object) else {
        return Err(bad(
            request_id,
            format!(
                "payload must be an object, got {}",
                type_name(obj.get("payload"))
            ),
        ));
    };
    let Some(command) = Command::parse(cmd) else {
        let shown: String = cmd.chars().take(40).collect();
        return Err(Refusal {
            request_id: request_id.to_string(),
            code: ErrorCode::UnknownCmd,
            message: format!("unknown cmd {shown:?}: expected hello, snapshot, run or escape"),
        });
    };
    Ok(Downlink {
        page_id: obj
            .get("pageId")
            .and_then(Value::as_str)
            .map(str::to_string),
        request_id: request_id.to_string(),
        cmd: command,
        payload: payload.clone(),
    })
}

/// A payload field that must be a string when present.
pub fn payload_str<'a>(
    payload: &'a Map<String, Value>,
    key: &str,
    required: bool,
) -> Result<Option<&'a str>, String> {
    match payload.get(key) {
        None if !required => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        other => Err(format!(
            "payload.{key} must be a string, got {}",
            type_name(other)
        )),
    }
}

/// A payload field that must be a boolean when present.
pub fn payload_bool(payload: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match payload.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        other => Err(format!(
            "payload.{key} must be a boolean, got {}",
            type_name(other)
        )),
    }
}
