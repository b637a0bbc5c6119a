//! The host's hooks: where declarations come from, how an action runs, who
//! approves high-risk actions, and what time it is.

use crate::codes::BusinessError;
use crate::declaration::Registry;
use serde_json::Value;

/// Where the registry comes from; read on every request (and again after an
/// invoke, to report capabilities that appeared).
pub trait RegistrySource {
    fn registry(&self) -> Registry;
}

/// A fixed registry.
impl RegistrySource for Registry {
    fn registry(&self) -> Registry {
        self.clone()
    }
}

/// What an executor reports: `{ ok: true, value? }` or
/// `{ ok: false, error: { code, message } }`.
pub type ExecOutcome = Result<Option<Value>, BusinessError>;

/// Code given to an executor result that is not one of the two shapes.
pub const MALFORMED_RESULT_CODE: &str = "EXECUTION_FAILED";

/// Reads an executor's JSON result. Anything that is not one of the two
/// documented shapes becomes an `EXECUTION_FAILED` business error, so a
/// buggy executor can never look like a success.
pub fn exec_outcome_from_json(value: &Value) -> ExecOutcome {
    let obj = value.as_object();
    let error = obj.and_then(|o| o.get("error")).and_then(Value::as_object);
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_str);
    let message = error.and_then(|e| e.get("message")).and_then(Value::as_str);
    match (obj.and_then(|o| o.get("ok")), code) {
        (Some(Value::Bool(true)), _) => Ok(obj.and_then(|o| o.get("value")).cloned()),
        (Some(Value::Bool(false)), Some(code)) if !code.is_empty() => Err(BusinessError::coded(
            code,
            message.unwrap_or_default().to_string(),
        )),
        // One message for every other shape: it spells out both valid ones.
        _ => Err(BusinessError::coded(
            MALFORMED_RESULT_CODE,
            "the page's executor returned a malformed result: expected { ok: true, value? } or { ok: false, error: { code: non-empty string, message? } }".to_string(),
        )),
    }
}

/// The page's own execution path for a capability.
#[allow(async_fn_in_trait)]
pub trait Executor {
    /// Runs `capability` with the validated input (including `record` for
    /// row actions).
    async fn execute(&self, capability: &str, args: &Value) -> ExecOutcome;
}

/// Human approval for high-risk capabilities.
#[allow(async_fn_in_trait)]
pub trait Confirm {
    /// False when no person can be asked: high-risk actions are then denied.
    fn can_ask(&self) -> bool {
        true
    }

    /// Asks a person; `true` only on explicit approval.
    async fn approve(&self, capability: &str, input: &Value) -> bool;
}

/// The host configured no confirm hook: every high-risk action is denied.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoConfirm;

impl Confirm for NoConfirm {
    fn can_ask(&self) -> bool {
        false
    }

    async fn approve(&self, _capability: &str, _input: &Value) -> bool {
        false
    }
}

/// Milliseconds since the epoch (`Date.now()` in the browser).
pub trait Clock {
    fn now_ms(&self) -> f64;
}

impl<F: Fn() -> f64> Clock for F {
    fn now_ms(&self) -> f64 {
        self()
    }
}
