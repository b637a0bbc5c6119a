//! The browser side of Surface (wasm32 only): [`DomPage`] reads the page
//! vocabulary in one bulk pass (`observe.js`, rules in [`crate::markers`])
//! and waits for text with a MutationObserver; [`DomExecutor`], the
//! built-in executor the shell runs when the page passes no `execute`,
//! runs a capability by clicking its declared control through playable's
//! `run`, on playable's web ports with nothing injected: the very ports an
//! installed instance runs on, so the module holds one `run`.

use js_sys::{Array, Date, Promise};
use playable::web::{BotPort, SensePort};
use playable::{run_menu_item, ErrorCode};
use sense::dom::DomSense;
use sense::IslandSlots;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::codes::{BusinessCode, BusinessError};
use crate::declaration::RowActionId;
use crate::host::{execution_failed, ExecOutcome};
use crate::markers::read_observation;
use crate::page::{Observation, Page, PageError};

// `observe` and `findRecords` call what the page's prototypes hold now
// (`querySelectorAll`, `getAttribute`…), which a page script may have
// replaced with one that throws: both are `catch`, so a throw is an error
// answer, never an unwind through the request, which would never settle.
// (`nextChange` cannot throw: its body runs in a Promise executor.)
#[wasm_bindgen(module = "/src/observe.js")]
extern "C" {
    /// The marker JSON (an array), or the message of what went wrong.
    #[wasm_bindgen(catch)]
    fn observe(root: &JsValue, all: bool, checks: &Array) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = nextChange)]
    fn next_change(root: &JsValue, deadline: f64) -> Promise;
    #[wasm_bindgen(js_name = findRecords, catch)]
    fn find_records(root: &JsValue, kind: &str, id: &str) -> Result<Array, JsValue>;
}

/// The page under one scan root (Document, ShadowRoot or Element).
pub struct DomPage {
    root: JsValue,
}

impl DomPage {
    pub fn new(root: JsValue) -> Self {
        Self { root }
    }

    fn read(&self, all: bool) -> Result<Observation, PageError> {
        // observe.js words what it caught; only a thrown value it cannot
        // read (a throwing `message` getter) gets here as an `Err`.
        let json = observe(&self.root, all, &sense::dom::visibility_checks())
            .unwrap_or_else(|_| "reading the scan root failed".into());
        if !json.starts_with('[') {
            return Err(PageError::Unreadable(json));
        }
        read_observation(&json)
    }

    /// Whether `text` shows in status or feedback now: the cheap read (of
    /// just those) that `wait_for_text` repeats.
    fn shows_text(&self, text: &str) -> bool {
        self.read(false).is_ok_and(|o| o.shows_text(text))
    }
}

impl Page for DomPage {
    fn observe(&self) -> Result<Observation, PageError> {
        self.read(true)
    }

    /// Checks now, then again after each DOM change until `within_ms` pass.
    /// JS runs one task at a time, so no change can slip in between a check
    /// and the observer that waits for the next one.
    async fn wait_for_text(&self, text: &str, within_ms: f64) -> bool {
        let deadline = Date::now() + within_ms;
        loop {
            if self.shows_text(text) {
                return true;
            }
            match JsFuture::from(next_change(&self.root, deadline)).await {
                Ok(changed) if changed.is_truthy() => {}
                _ => return false,
            }
        }
    }
}

/// The built-in executor: a capability runs by clicking the playable whose
/// `data-e2e-id` is the capability id — for a row action `name@kind`, the one
/// inside the `kind` record named by `input.record`. The menu is read at
/// that moment and the click goes through playable's `run`, so it has run's
/// guarantees: visible, enabled, unambiguous, exactly one click, and no side
/// effect at all on refusal.
pub struct DomExecutor {
    root: JsValue,
}

impl DomExecutor {
    pub fn new(root: JsValue) -> Self {
        Self { root }
    }

    /// Clicks `capability`'s control for `args`; see the type's comment.
    pub async fn execute(&self, capability: &str, args: &Value) -> ExecOutcome {
        let scope = control_scope(&self.root, capability, args)?;
        let menu = SensePort::from(DomSense::new(scope, IslandSlots::default()));
        clicked(
            capability,
            run_menu_item(&menu, &BotPort::default(), capability)
                .await
                .map_err(Into::into),
        )
    }
}

fn unavailable(message: String) -> BusinessError {
    BusinessError::new(BusinessCode::ActionUnavailable, message)
}

/// Where the built-in executor looks for `capability`'s control: under
/// `root`, or for a row action `name@kind` inside the one `kind` record
/// named by `args.record`.
fn control_scope(root: &JsValue, capability: &str, args: &Value) -> Result<JsValue, BusinessError> {
    let Some(RowActionId { kind, .. }) = RowActionId::parse(capability) else {
        return Ok(root.clone());
    };
    let id = args
        .get("record")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let found = find_records(root, kind, id).map_err(|_| {
        execution_failed(format!(
            "the page threw while finding the `{kind}` record `{id}`; nothing was clicked"
        ))
    })?;
    match found.length() {
        1 => Ok(found.get(0)),
        0 => Err(unavailable(format!(
            "no `{kind}` record `{id}` on the page"
        ))),
        _ => Err(unavailable(format!(
            "more than one `{kind}` record claims id `{id}`; nothing was clicked"
        ))),
    }
}

/// The built-in executor's outcome for `run`'s result on `capability`.
fn clicked(capability: &str, run: Result<(), (ErrorCode, String)>) -> ExecOutcome {
    match run {
        Ok(()) => Ok(None),
        Err((code, message)) => Err(match refusal_name(code) {
            Some(name) => unavailable(format!("{message} ({name}); nothing was clicked")),
            None => execution_failed(format!("clicking `{capability}` failed: {message}")),
        }),
    }
}

/// Run's refusals (the control is missing, ambiguous, not actionable, or
/// needs a payload a click does not carry): the action exists but cannot
/// run now. The name is playable's wire code.
fn refusal_name(code: ErrorCode) -> Option<&'static str> {
    match code {
        ErrorCode::BadRequest
        | ErrorCode::NotInMenu
        | ErrorCode::Ambiguous
        | ErrorCode::NotActionable
        | ErrorCode::UnsupportedEvent => Some(code.as_str()),
        _ => None,
    }
}
