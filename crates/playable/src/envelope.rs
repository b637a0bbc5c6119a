//! Downlink decoding and uplink shapes (baseline §1), through serde. A
//! downlink is JSON text: [`parse_downlink`] applies the
//! [`bounds`](crate::bounds) first, deserializes the four raw fields, then
//! runs the shape and cmd checks in baseline order. An uplink is written with
//! `serde_json` ([`Uplink::to_json`]): one JSON text that JS parses once.

use std::fmt;

use sense::{Escape, Snapshot};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::bounds::{self, Kind};
use crate::window::{GenericsWindow, MenuWindow};

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

/// A refusal or failure on its way to the uplink: the code and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
}

impl Failure {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Failure {}

impl From<Failure> for (ErrorCode, String) {
    fn from(f: Failure) -> Self {
        (f.code, f.message)
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

/// The envelope's four fields as they came: any JSON type, `None` when
/// absent (a `null` is `Some(Value::Null)`). Other fields are skipped.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawDownlink {
    #[serde(default, deserialize_with = "present")]
    page_id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    request_id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    cmd: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    payload: Option<Value>,
}

/// A field that is there, whatever it holds (`null` included).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A downlink that passed the shape and cmd checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Downlink {
    /// `None` when missing or not a string (it never matches the latch).
    pub page_id: Option<String>,
    pub request_id: String,
    pub cmd: Command,
    pub payload: Map<String, Value>,
}

/// A downlink refused by the shape or cmd checks: the code, the message,
/// and the requestId to echo (`""` when it was not usable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub request_id: String,
    pub code: ErrorCode,
    pub message: String,
}

/// 1 to [`REQUEST_ID_MAX_CHARS`] characters.
pub fn usable_request_id(s: &str) -> bool {
    (1..=REQUEST_ID_MAX_CHARS).contains(&sense::char_count(s))
}

/// The usable requestId of a text's top-level object, else `""`, whatever
/// the rest of the text holds (found without recursion).
pub(crate) fn request_id_in(text: &str) -> String {
    bounds::top_level_string(text, "requestId")
        .and_then(bounds::string_literal)
        .filter(|id| usable_request_id(id))
        .unwrap_or_default()
}

/// `s` as a JSON string literal, for messages that name an id or a value.
/// How many characters of an id or a value a message quotes.
const QUOTE_MAX_CHARS: usize = 200;

/// `s` as a JSON string, for a message; over [`QUOTE_MAX_CHARS`] its start
/// and its length (an agent or a page may send a mebibyte of it).
pub(crate) fn quote(s: &str) -> String {
    let shown = sense::prefix_chars(s, QUOTE_MAX_CHARS);
    if shown.len() == s.len() {
        return sense::json_quote(s);
    }
    format!(
        "{}… ({} characters)",
        sense::json_quote(shown),
        sense::char_count(s)
    )
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

/// Bounds, then shape and cmd checks, in baseline order. Never panics,
/// whatever the text.
pub fn parse_downlink(text: &str) -> Result<Downlink, Refusal> {
    let bad = |request_id: String, message: String| Refusal {
        request_id,
        code: ErrorCode::BadRequest,
        message,
    };
    let scan = bounds::admit(text).map_err(|why| {
        bad(
            request_id_in(text),
            format!("the envelope must be plain JSON: {why}"),
        )
    })?;
    if scan.top != Kind::Object {
        return Err(bad(
            String::new(),
            format!("the envelope must be an object, got {}", scan.top.article()),
        ));
    }
    // Within bounds: the text is JSON at most 32 levels deep.
    let raw: RawDownlink = serde_json::from_str(text).map_err(|e| {
        let why = bounds::unreadable(text, &e);
        bad(
            request_id_in(text),
            format!("the envelope could not be read: {why}"),
        )
    })?;
    let request_id = match &raw.request_id {
        Some(Value::String(s)) if usable_request_id(s) => s.clone(),
        got => {
            let why = match got {
                Some(Value::String(s)) if s.is_empty() => "an empty string".to_string(),
                Some(Value::String(s)) => {
                    format!("a string of {} characters", sense::char_count(s))
                }
                other => type_name(other.as_ref()).to_string(),
            };
            return Err(bad(
                String::new(),
                format!(
                    "requestId must be a string of 1..{REQUEST_ID_MAX_CHARS} characters, got {why}"
                ),
            ));
        }
    };
    let cmd = match raw.cmd {
        Some(Value::String(cmd)) => cmd,
        other => {
            return Err(bad(
                request_id,
                format!("cmd must be a string, got {}", type_name(other.as_ref())),
            ))
        }
    };
    let payload = match raw.payload {
        Some(Value::Object(payload)) => payload,
        other => {
            return Err(bad(
                request_id,
                format!(
                    "payload must be an object, got {}",
                    type_name(other.as_ref())
                ),
            ))
        }
    };
    let Some(command) = Command::parse(&cmd) else {
        let shown = sense::prefix_chars(&cmd, 40);
        return Err(Refusal {
            request_id,
            code: ErrorCode::UnknownCmd,
            message: format!(
                "unknown cmd {}: expected hello, snapshot, run or escape",
                quote(shown)
            ),
        });
    };
    let page_id = match raw.page_id {
        Some(Value::String(id)) => Some(id),
        _ => None,
    };
    Ok(Downlink {
        page_id,
        request_id,
        cmd: command,
        payload,
    })
}

/// The snapshot as the ok payload writes it: the read (windowed when the
/// downlink asked for a window) plus the windows' accounts, all absent
/// when it did not (the seed's snapshot).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotView {
    #[serde(flatten)]
    pub snapshot: Snapshot,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub menu_window: Option<MenuWindow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generics_window: Option<GenericsWindow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub islands_total: Option<usize>,
}

/// Ok payloads per command, with their wire fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OkPayload {
    /// `{ pageId }`
    Hello {
        #[serde(rename = "pageId")]
        page_id: String,
    },
    /// `{ snapshot, escapes }`, the escapes derived from the full read.
    Snapshot {
        snapshot: SnapshotView,
        escapes: Vec<Escape>,
    },
    /// `{ id, scrollLeft, scrollTop }`
    RunScroll {
        id: String,
        #[serde(rename = "scrollLeft")]
        scroll_left: i64,
        #[serde(rename = "scrollTop")]
        scroll_top: i64,
    },
    /// `{ id, value }`: an input run's value, echoed as it came.
    RunInput { id: String, value: Value },
    /// `{ id, to }`: a drag run's drop target, echoed.
    RunDrag { id: String, to: Value },
    /// `{ id }`
    Run { id: String },
    /// `{ type, retired }`
    Escape {
        #[serde(rename = "type")]
        kind: &'static str,
        retired: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
}

/// `IPlayableUplink`: `ok` is whether `body` holds a payload or an error.
#[derive(Debug, Clone, PartialEq)]
pub struct Uplink {
    pub page_id: Option<String>,
    pub request_id: String,
    pub body: Result<OkPayload, ErrorBody>,
}

/// `{ pageId, requestId, ok, payload? , error? }`, in that order.
impl Serialize for Uplink {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            page_id: &'a Option<String>,
            request_id: &'a str,
            ok: bool,
            #[serde(skip_serializing_if = "Option::is_none")]
            payload: Option<&'a OkPayload>,
            #[serde(skip_serializing_if = "Option::is_none")]
            error: Option<&'a ErrorBody>,
        }
        Wire {
            page_id: &self.page_id,
            request_id: &self.request_id,
            ok: self.body.is_ok(),
            payload: self.body.as_ref().ok(),
            error: self.body.as_ref().err(),
        }
        .serialize(s)
    }
}

impl Uplink {
    pub fn ok(page_id: Option<String>, request_id: impl Into<String>, payload: OkPayload) -> Self {
        Self {
            page_id,
            request_id: request_id.into(),
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

    /// The uplink as one JSON text (`JSON.parse` reads it once).
    pub fn to_json(&self) -> String {
        // Cannot fail: string keys and plain values only.
        serde_json::to_string(self).unwrap_or_default()
    }
}

pub(crate) fn fail(code: ErrorCode, message: String) -> Failure {
    Failure { code, message }
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

/// A payload field that must be a string when present.
pub(crate) fn payload_opt_str<'a>(
    payload: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, Failure> {
    match payload.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        other => Err(wrong_field(key, "a string", other)),
    }
}

/// The largest count a payload field may hold: 2^53, up to which every
/// integer is a JS number exactly, so the window echoes what was asked.
pub const MAX_COUNT: u64 = 1 << 53;

/// A payload field that must be an integer from 0 to [`MAX_COUNT`] when
/// present, written as an integer or as a whole float (`50.0`).
pub(crate) fn payload_count(
    payload: &Map<String, Value>,
    key: &str,
) -> Result<Option<u64>, Failure> {
    let Some(got) = payload.get(key) else {
        return Ok(None);
    };
    let n = match got {
        Value::Number(n) => match (n.as_u64(), n.as_f64()) {
            (Some(u), _) => Some(u),
            // Exact: a whole f64 up to 2^53 converts without rounding.
            (None, Some(f)) if (0.0..=MAX_COUNT as f64).contains(&f) && f.fract() == 0.0 => {
                Some(f as u64)
            }
            _ => None,
        },
        _ => None,
    };
    match n.filter(|&n| n <= MAX_COUNT) {
        Some(n) => Ok(Some(n)),
        None => Err(wrong_field(
            key,
            "an integer from 0 to 9007199254740992 (2^53)",
            Some(got),
        )),
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
        assert_eq!(
            err.to_json(),
            r#"{"pageId":null,"requestId":"r\"1","ok":false,"error":{"code":"NOT_IN_MENU","message":"no \"x\"\n"}}"#
        );
        let ok = |p| parsed(&Uplink::ok(Some("p".into()), "r", p))["payload"].clone();
        assert_eq!(
            ok(OkPayload::Hello {
                page_id: "p".into()
            }),
            json!({ "pageId": "p" })
        );
        assert_eq!(ok(OkPayload::Run { id: "a".into() }), json!({ "id": "a" }));
        assert_eq!(
            ok(OkPayload::RunScroll {
                id: "a".into(),
                scroll_left: -3,
                scroll_top: 40
            }),
            json!({ "id": "a", "scrollLeft": -3, "scrollTop": 40 })
        );
        assert_eq!(
            ok(OkPayload::RunInput {
                id: "a".into(),
                value: json!(["x", 1.5, true])
            }),
            json!({ "id": "a", "value": ["x", 1.5, true] })
        );
        assert_eq!(
            ok(OkPayload::RunDrag {
                id: "a".into(),
                to: json!("b")
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
            snapshot: SnapshotView {
                snapshot: Snapshot::default(),
                menu_window: None,
                generics_window: None,
                islands_total: None,
            },
            escapes: crate::derive_escapes(&Snapshot::default()),
        });
        assert_eq!(snap["snapshot"]["menu"], json!([]));
        assert!(snap["snapshot"].get("menuWindow").is_none());
        assert_eq!(
            snap["escapes"],
            json!([{ "type": "reload", "allowed": true }])
        );
        let ok_text = Uplink::ok(None, "r", OkPayload::Run { id: "a".into() }).to_json();
        assert_eq!(
            ok_text,
            r#"{"pageId":null,"requestId":"r","ok":true,"payload":{"id":"a"}}"#
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
        // serde writes the same names.
        for code in all {
            assert_eq!(serde_json::to_value(code).ok(), Some(json!(code.as_str())));
        }
    }

    #[test]
    fn echoed_values_keep_their_keys_in_order() {
        let value: Value =
            serde_json::from_str(r#"{"zeta":1,"alpha":{"y":2,"b":3},"mid":[{"q":0,"a":1}]}"#)
                .expect("parses");
        let up = Uplink::ok(
            None,
            "r",
            OkPayload::RunInput {
                id: "a".into(),
                value,
            },
        );
        assert_eq!(
            up.to_json(),
            r#"{"pageId":null,"requestId":"r","ok":true,"payload":{"id":"a","value":{"zeta":1,"alpha":{"y":2,"b":3},"mid":[{"q":0,"a":1}]}}}"#
        );
    }

    #[test]
    fn downlinks_decode_their_four_fields_in_check_order() {
        let d = parse_downlink(
            r#"{"extra":[1],"payload":{"id":"a"},"cmd":"run","requestId":"r","pageId":"p"}"#,
        )
        .expect("parses");
        assert_eq!(
            (d.page_id.as_deref(), d.request_id.as_str(), d.cmd),
            (Some("p"), "r", Command::Run)
        );
        assert_eq!(d.payload.get("id"), Some(&json!("a")));
        let d = parse_downlink(r#"{"pageId":7,"requestId":"r","cmd":"hello","payload":{}}"#)
            .expect("parses");
        assert_eq!(
            d.page_id, None,
            "a pageId that is not a string counts as null"
        );
        let refused = |text: &str| parse_downlink(text).unwrap_err();
        let r = refused("[1]");
        assert_eq!((r.code, r.request_id.as_str()), (ErrorCode::BadRequest, ""));
        assert!(r.message.contains("got an array"), "{}", r.message);
        let r = refused(r#"{"requestId":"r","cmd":"hello","payload":null}"#);
        assert_eq!(r.request_id, "r");
        assert!(r.message.contains("payload must be an object, got null"));
        let r = refused(r#"{"requestId":"r","cmd":"hello"}"#);
        assert!(r.message.contains("got missing"), "{}", r.message);
        // cmd's type is a shape check; its value is UNKNOWN_CMD, after payload.
        let r = refused(r#"{"requestId":"r","cmd":"fly"}"#);
        assert_eq!(r.code, ErrorCode::BadRequest);
        let r = refused(r#"{"requestId":"r","cmd":"fly","payload":{}}"#);
        assert_eq!(r.code, ErrorCode::UnknownCmd);
        assert!(r.message.contains("\"fly\""));
        // Duplicate fields are a shape problem (JSON.stringify never writes them).
        let r = refused(r#"{"requestId":"r","cmd":"hello","cmd":"run","payload":{}}"#);
        assert_eq!(
            (r.code, r.request_id.as_str()),
            (ErrorCode::BadRequest, "r")
        );
    }

    #[test]
    fn bounds_come_first_and_the_request_id_is_found_past_them() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let r = parse_downlink(&format!(
            r#"{{"payload":{deep},"requestId":"deep","cmd":"hello"}}"#
        ))
        .unwrap_err();
        assert_eq!(
            (r.code, r.request_id.as_str()),
            (ErrorCode::BadRequest, "deep")
        );
        assert!(r.message.contains("deeper than 32"), "{}", r.message);
        let big = "y".repeat(3 << 20);
        let r = parse_downlink(&format!(
            r#"{{"requestId":"s","cmd":"hello","payload":{{"big":"{big}"}}}}"#
        ))
        .unwrap_err();
        assert_eq!(r.request_id, "s");
        assert!(r.message.contains("characters"), "{}", r.message);
        // An unusable requestId (2 Mi characters) is not echoed.
        let long = "x".repeat(2 << 20);
        let r = parse_downlink(&format!(
            r#"{{"requestId":"{long}","cmd":"hello","payload":{{}}}}"#
        ))
        .unwrap_err();
        assert_eq!(r.request_id, "");
        let many = format!("[{}]", vec!["1"; 10_001].join(","));
        let r = parse_downlink(&format!(
            r#"{{"requestId":"m","cmd":"hello","payload":{{"l":{many}}}}}"#
        ))
        .unwrap_err();
        assert_eq!(r.request_id, "m");
        assert!(r.message.contains("10000 values"), "{}", r.message);
        let r = parse_downlink(r#"{"requestId":"q","cmd":"hello","payload":{}"#).unwrap_err();
        assert!(r.message.contains("not JSON"), "{}", r.message);
        // A lone surrogate is JSON to the scanner, not to serde: still refused.
        let r = parse_downlink(r#"{"requestId":"q","cmd":"hello","payload":{"s":"\ud800"}}"#)
            .unwrap_err();
        assert_eq!(
            (r.code, r.request_id.as_str()),
            (ErrorCode::BadRequest, "q")
        );
        assert!(
            r.message.contains(r"lone surrogate (\ud800)"),
            "{}",
            r.message
        );
    }

    #[test]
    fn a_quoted_value_is_capped_with_its_length() {
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
        let long = "é".repeat(1 << 20);
        let q = quote(&long);
        assert!(
            q.ends_with("… (1048576 characters)") && q.chars().count() < 240,
            "{q}"
        );
        assert_eq!(quote(&"x".repeat(200)), format!("\"{}\"", "x".repeat(200)));
    }

    #[test]
    fn counts_are_non_negative_integers() {
        let p = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(payload_count(&p(json!({})), "limit"), Ok(None));
        assert_eq!(
            payload_count(&p(json!({ "limit": 0 })), "limit"),
            Ok(Some(0))
        );
        assert_eq!(
            payload_count(&p(json!({ "limit": 50.0 })), "limit"),
            Ok(Some(50))
        );
        assert_eq!(
            payload_count(&p(json!({ "limit": 9007199254740992.0 })), "limit"),
            Ok(Some(MAX_COUNT))
        );
        assert_eq!(
            payload_count(&p(json!({ "offset": 4294967296u64 })), "offset"),
            Ok(Some(1 << 32)),
            "beyond u32 (a wasm32 usize): echoed as asked"
        );
        for bad in [
            json!(-1),
            json!(1.5),
            json!("3"),
            json!(null),
            json!(true),
            json!(1e300),
            json!(9007199254740993u64),
        ] {
            let e = payload_count(&p(json!({ "limit": bad })), "limit").unwrap_err();
            assert_eq!(e.code, ErrorCode::BadRequest);
            assert!(e.message.contains("payload.limit"), "{}", e.message);
        }
    }
}
