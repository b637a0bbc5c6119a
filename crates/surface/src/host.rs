//! What the page provides to Surface besides its DOM ([`crate::Page`]):
//! the declarations, the verified session, the execution path, the confirm
//! hook and the clock ([`Host`]); and how those callbacks' results are read.

use crate::bounds;
use crate::codes::{BusinessCode, BusinessError};
use crate::declaration::Registry;
use crate::field::{from_object, Field, Object};
use crate::session::Session;
use serde::Deserialize;
use serde_json::Value;
use std::fmt;

/// What an executor reports: `{ ok: true, value? }` or
/// `{ ok: false, error: { code, message } }`.
pub type ExecOutcome = Result<Option<Value>, BusinessError>;

/// The page's side of one request. `Surface::handle` calls these in the
/// documented order and awaits the async ones; it never holds its own
/// state across an await, so overlapping requests are safe.
#[allow(async_fn_in_trait)]
pub trait Host {
    /// Milliseconds since the epoch (`Date.now()` in the browser).
    fn now_ms(&self) -> f64;

    /// The session the host verified (its `session()`), read once per
    /// request; `None` for none, or one that could not be read.
    async fn session(&self) -> Option<Session>;

    /// The declarations, read per request once the protocol checks passed
    /// (and again after an invoke, to report capabilities that appeared);
    /// async because a page's `registry()` may return a promise.
    async fn registry(&self) -> Registry;

    /// Whether a person can be asked: the page configured a confirm hook.
    /// Without one, high-risk actions are denied.
    fn can_confirm(&self) -> bool;

    /// Asks a person about `capability` with `input`; `true` only on
    /// explicit approval.
    async fn confirm(&self, capability: &str, input: &Value) -> bool;

    /// Runs `capability` with the validated input (including `record` for
    /// row actions) through the page's own execution path.
    async fn execute(&self, capability: &str, args: &Value) -> ExecOutcome;

    /// Whether [`Host::execute`] clicks the capability's marked control
    /// (the built-in executor) rather than running the page's own path. Only
    /// then does a control that is hidden or claimed twice stop an action: a
    /// page's own executor may act on a row whose buttons show on hover.
    fn clicks_controls(&self) -> bool;
}

/// Why a host callback gave nothing to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackError {
    /// It threw or its promise rejected (the message).
    Threw(String),
    /// It returned something that is not plain JSON (why).
    NotJson(String),
}

/// `{ ok, value?, error? }` as given.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ResultWire {
    ok: Field<bool>,
    value: Field<Value>,
    error: Field<Object<ErrorWire>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ErrorWire {
    code: Field<String>,
    message: Field<String>,
}

/// Reads an executor's JSON result. Anything that is not one of the two
/// documented shapes becomes an `EXECUTION_FAILED` business error, so a
/// buggy executor can never look like a success. An error spelled with a
/// protocol code is lifted to that refusal by the pipeline
/// ([`BusinessError::lifted`]), whichever `Host` gave it.
pub fn exec_outcome_from_json(value: &Value) -> ExecOutcome {
    let wire = value.as_object().and_then(from_object::<ResultWire>);
    match wire.unwrap_or_default() {
        ResultWire {
            ok: Field::Given(true),
            value,
            ..
        } => Ok(match value {
            Field::Absent => None,
            Field::Null => Some(Value::Null),
            Field::Given(v) => Some(v),
            Field::Other => None,
        }),
        ResultWire {
            ok: Field::Given(false),
            error: Field::Given(Object(ErrorWire { code: Field::Given(code), message })),
            ..
        } if !code.is_empty() => Err(BusinessError::coded(&code, message.given().unwrap_or_default())),
        // One message for every other shape: it spells out both valid ones.
        _ => Err(execution_failed(
            "the page's executor returned a malformed result: expected { ok: true, value? } or { ok: false, error: { code: non-empty string, message? } }",
        )),
    }
}

/// An `execute` callback's outcome: its JSON text read by
/// [`exec_outcome_from_json`] within [`crate::bounds`], or an
/// `EXECUTION_FAILED` error saying why there was none.
pub fn exec_outcome_from_callback(given: Result<String, CallbackError>) -> ExecOutcome {
    exec_outcome(given, || false).0
}

/// [`exec_outcome_from_callback`], and the console warning it calls for.
/// A result that could not be read whole (a BigInt or a cycle in its
/// `value`, or beyond the bounds) whose own `ok` member, read on its own,
/// is `true` (`answered_ok`, asked only then) is a success without a
/// `value`, with a warning saying why: the action ran, so reporting it as
/// failed would invite a client to run it again.
pub fn exec_outcome(
    given: Result<String, CallbackError>,
    answered_ok: impl FnOnce() -> bool,
) -> (ExecOutcome, Option<String>) {
    let why = match given {
        Ok(text) => match bounds::decode::<Value>(&text) {
            Ok(value) => return (exec_outcome_from_json(&value), None),
            Err(e) => e.to_string(),
        },
        Err(CallbackError::NotJson(why)) => why,
        Err(CallbackError::Threw(m)) => {
            return (
                Err(execution_failed(format!("the page's execute threw: {m}"))),
                None,
            )
        }
    };
    if answered_ok() {
        let warning = format!(
            "the page's execute answered {{ ok: true }} with a result that cannot cross as JSON ({why}): the action ran, and is reported as a success without its value"
        );
        return (Ok(None), Some(warning));
    }
    let failed = format!("the page's execute returned no plain JSON: {why}");
    (Err(execution_failed(failed)), None)
}

/// A `confirm` callback's answer: only JSON `true` approves; anything
/// else, a throw or a rejection included, is a refusal. The shell crosses
/// the answer strictly, so a `Boolean` object or a `toJSON` that JSON
/// would write as `true` arrives as [`CallbackError::NotJson`].
pub fn approves(given: Result<String, CallbackError>) -> bool {
    given.is_ok_and(|text| text.trim() == "true")
}

/// A `session()` callback's value: a session, or `None` for null, a
/// malformed value, a throw or a rejection (fail closed).
pub fn session_from_callback(given: Result<String, CallbackError>) -> Option<Session> {
    Session::from_json_text(&given.ok()?).ok().flatten()
}

/// An `EXECUTION_FAILED` business error.
pub fn execution_failed(message: impl Into<String>) -> BusinessError {
    BusinessError::new(BusinessCode::ExecutionFailed, message)
}

impl fmt::Display for CallbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Threw(m) => write!(f, "it threw: {m}"),
            Self::NotJson(m) => write!(f, "it returned no plain JSON: {m}"),
        }
    }
}

impl std::error::Error for CallbackError {}
