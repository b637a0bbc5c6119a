//! Downlink parsing and uplink shapes (baseline §1). Parsing takes a
//! `serde_json::Value` that the boundary has already bounded in size and depth.
//! Uplinks are written as JSON by hand ([`Uplink::to_json`]): one pass into one
//! String, and no serde derive code in the module.

use sense::json::{push_bool, push_key, push_str};
use sense::{Escape, Snapshot};
use serde_json::{Map, Value};

/// Longest usable requestId, in characters.
pub const REQUEST_ID_MAX_CHARS: usize = 128;

/// `TPlayableErrorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl ErrorCode {
    /// The wire name, e.g. `"NOT_IN_MENU"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BadRequest => "BAD_REQUEST",
            Self::UnknownCmd => "UNKNOWN_CMD",
            Self::NotLive => "NOT_LIVE",
            Self::Retired => "RETIRED",
            Self::PageMismatch => "PAGE_MISMATCH",
            Self::NotInMenu => "NOT_IN_MENU",
            Self::Ambiguous => "AMBIGUOUS",
            Self::NotActionable => "NOT_ACTIONABLE",
            Self::UnsupportedEvent => "UNSUPPORTED_EVENT",
            Self::EscapeNotAllowed => "ESCAPE_NOT_ALLOWED",
            Self::DispatchFailed => "DISPATCH_FAILED",
            Self::Internal => "INTERNAL",
        }
    }
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

/// A downlink that passed the shape and cmd checks. The payload is borrowed
/// from the parsed envelope (no copy of it).
#[derive(Debug, Clone, PartialEq)]
pub struct Downlink<'v> {
    pub page_id: Option<&'v str>,
    pub request_id: &'v str,
    pub cmd: Command,
    pub payload: &'v Map<String, Value>,
}

/// Ok payloads per command (JSON field names in the comments).
#[derive(Debug, Clone, PartialEq)]
pub enum OkPayload<'a> {
    /// `{ pageId }`
    Hello { page_id: String },
    /// `{ snapshot, escapes }` (the escapes derived from the snapshot as
    /// it is written)
    Snapshot { snapshot: Snapshot },
    /// `{ id, scrollLeft, scrollTop }`
    RunScroll {
        id: &'a str,
        scroll_left: i64,
        scroll_top: i64,
    },
    /// `{ id, value }` (input) or `{ id, to }` (drag): the run payload's
    /// field `key`, echoed
    RunEcho {
        id: &'a str,
        key: &'static str,
        value: &'a Value,
    },
    /// `{ id }`
    Run { id: &'a str },
    /// `{ type, retired }`
    Escape { kind: &'static str, retired: bool },
}

impl OkPayload<'_> {
    pub fn write_json(&self, out: &mut String) {
        out.push('{');
        match self {
            Self::Hello { page_id } => {
                out.push_str("\"pageId\":");
                push_str(out, page_id);
            }
            Self::Snapshot { snapshot } => {
                out.push_str("\"snapshot\":");
                snapshot.write_json(out);
                push_key(out, "escapes");
                Escape::list_json(&sense::derive_escapes(snapshot), out);
            }
            Self::RunScroll {
                id,
                scroll_left,
                scroll_top,
            } => {
                out.push_str("\"id\":");
                push_str(out, id);
                push_key(out, "scrollLeft");
                out.push_str(&scroll_left.to_string());
                push_key(out, "scrollTop");
                out.push_str(&scroll_top.to_string());
            }
            Self::RunEcho { id, key, value } => {
                out.push_str("\"id\":");
                push_str(out, id);
                push_key(out, key);
                out.push_str(&value.to_string());
            }
            Self::Run { id } => {
                out.push_str("\"id\":");
                push_str(out, id);
            }
            Self::Escape { kind, retired } => {
                out.push_str("\"type\":");
                push_str(out, kind);
                push_key(out, "retired");
                push_bool(out, *retired);
            }
        }
        out.push('}');
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
}

/// `IPlayableUplink`: `ok` is whether `body` holds a payload or an error.
#[derive(Debug, Clone, PartialEq)]
pub struct Uplink<'a> {
    pub page_id: Option<String>,
    pub request_id: String,
    pub body: Result<OkPayload<'a>, ErrorBody>,
}

impl<'a> Uplink<'a> {
    pub fn ok(page_id: Option<String>, request_id: &str, payload: OkPayload<'a>) -> Self {
        Self {
            page_id,
            request_id: request_id.to_string(),
            body: Ok(payload),
        }
    }

    pub fn err(
        page_id: Option<String>,
        request_id: impl Into<String>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Self {
        Self {
            page_id,
            request_id: request_id.into(),
            body: Err(ErrorBody {
                code,
                message: message.into(),
            }),
        }
    }

    pub fn code(&self) -> Option<ErrorCode> {
        self.body.as_ref().err().map(|e| e.code)
    }

    /// `{ pageId, requestId, ok, payload? , error? }` as JSON, in that order.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(128);
        out.push_str("{\"pageId\":");
        match &self.page_id {
            Some(id) => push_str(&mut out, id),
            None => out.push_str("null"),
        }
        push_key(&mut out, "requestId");
        push_str(&mut out, &self.request_id);
        match &self.body {
            Ok(payload) => {
                out.push_str(",\"ok\":true,\"payload\":");
                payload.write_json(&mut out);
            }
            Err(error) => {
                out.push_str(",\"ok\":false,\"error\":{\"code\":\"");
                out.push_str(error.code.as_str());
                out.push_str("\",\"message\":");
                push_str(&mut out, &error.message);
                out.push('}');
            }
        }
        out.push('}');
        out
    }
}

/// A refusal found while parsing: the code, the message, and the requestId
/// to echo ("" when it was not usable).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal<'v> {
    pub request_id: &'v str,
    pub code: ErrorCode,
    pub message: String,
}

fn usable_request_id(v: Option<&Value>) -> Option<&str> {
    let s = v?.as_str()?;
    let n = sense::char_count(s);
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
pub fn parse_downlink(value: &Value) -> Result<Downlink<'_>, Refusal<'_>> {
    let bad = |request_id, message| Refusal {
        request_id,
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
                Some(s) => format!("{} characters long", sense::char_count(s)),
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
        let shown = sense::prefix_chars(cmd, 40);
        return Err(Refusal {
            request_id,
            code: ErrorCode::UnknownCmd,
            message: format!(
                "unknown cmd {}: expected hello, snapshot, run or escape",
                sense::json::quote(shown)
            ),
        });
    };
    Ok(Downlink {
        page_id: obj.get("pageId").and_then(Value::as_str),
        request_id,
        cmd: command,
        payload,
    })
}

/// A refusal on its way to the uplink: its code and message, boxed so the
/// results carried through the checks and across awaits stay one pointer wide.
pub(crate) type Failure = Box<(ErrorCode, String)>;

pub(crate) fn fail(code: ErrorCode, message: String) -> Failure {
    Box::new((code, message))
}

/// `BAD_REQUEST`: payload field `key` is not `want`.
pub(crate) fn wrong_field(key: &str, want: &str, got: Option<&Value>) -> Failure {
    fail(
        ErrorCode::BadRequest,
        format!("payload.{key} must be {want}, got {}", type_name(got)),
    )
}

/// A payload field that must be a string.
pub(crate) fn payload_str<'a>(
    payload: &'a Map<String, Value>,
    key: &str,
) -> Result<&'a str, Failure> {
    match payload.get(key) {
        Some(Value::String(s)) => Ok(s),
        other => Err(wrong_field(key, "a string", other)),
    }
}

/// A payload field that must be a boolean when present.
pub(crate) fn payload_bool(payload: &Map<String, Value>, key: &str) -> Result<bool, Failure> {
    match payload.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        other => Err(wrong_field(key, "a boolean", other)),
    }
}

#[cfg(test)]
mod json_tests {
    use super::*;
    use serde_json::json;

    fn parsed(up: &Uplink) -> Value {
        serde_json::from_str(&up.to_json()).expect("uplink JSON parses")
    }

    #[test]
    fn uplinks_print_the_contract_shapes() {
        let err = Uplink::err(None, "r\"1", ErrorCode::NotInMenu, "no \"x\"\n");
        assert_eq!(
            parsed(&err),
            json!({ "pageId": null, "requestId": "r\"1", "ok": false,
                    "error": { "code": "NOT_IN_MENU", "message": "no \"x\"\n" } })
        );
        let ok = |p| parsed(&Uplink::ok(Some("p".into()), "r", p))["payload"].clone();
        assert_eq!(
            ok(OkPayload::Hello {
                page_id: "p".into()
            }),
            json!({ "pageId": "p" })
        );
        assert_eq!(ok(OkPayload::Run { id: "a" }), json!({ "id": "a" }));
        assert_eq!(
            ok(OkPayload::RunScroll {
                id: "a",
                scroll_left: -3,
                scroll_top: 40
            }),
            json!({ "id": "a", "scrollLeft": -3, "scrollTop": 40 })
        );
        let list = json!(["x", 1.5, true]);
        assert_eq!(
            ok(OkPayload::RunEcho {
                id: "a",
                key: "value",
                value: &list
            }),
            json!({ "id": "a", "value": ["x", 1.5, true] })
        );
        let b = json!("b");
        assert_eq!(
            ok(OkPayload::RunEcho {
                id: "a",
                key: "to",
                value: &b
            }),
            json!({ "id": "a", "to": "b" })
        );
        assert_eq!(
            ok(OkPayload::Escape {
                kind: "reload",
                retired: true
            }),
            json!({ "type": "reload", "retired": true })
        );
        let snap = ok(OkPayload::Snapshot {
            snapshot: Snapshot::default(),
        });
        assert_eq!(snap["snapshot"]["menu"], json!([]));
        assert_eq!(
            snap["escapes"],
            json!([{ "type": "reload", "allowed": true }])
        );
    }

    #[test]
    fn every_code_has_its_wire_name() {
        use ErrorCode::*;
        let all = [
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
        ];
        let names: Vec<_> = all.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            names.join(","),
            "BAD_REQUEST,UNKNOWN_CMD,NOT_LIVE,RETIRED,PAGE_MISMATCH,NOT_IN_MENU,AMBIGUOUS,\
             NOT_ACTIONABLE,UNSUPPORTED_EVENT,ESCAPE_NOT_ALLOWED,DISPATCH_FAILED,INTERNAL"
        );
    }
}
