//! The small traits the state machine runs over. The wasm shell implements
//! them with the DOM (or with JS objects injected as `ports`); tests use
//! in-memory fakes.
#![allow(async_fn_in_trait)]

use sense::Snapshot;

/// Reads the menu. `resolve` answers from the latest `snapshot` read.
pub trait Sense {
    /// What a run acts on (an Element on the web).
    type Target;
    /// What `captureScreenshot` returned (passed through untouched).
    type Shot;
    async fn snapshot(&self) -> Result<Snapshot, String>;
    async fn resolve(&self, id: &str) -> Result<Option<Self::Target>, String>;
    /// `Ok(None)` when no capturer was injected.
    async fn capture(&self) -> Result<Option<Self::Shot>, String>;
}

/// The value an `input` run sets.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValue {
    /// Text fields, textareas, contenteditable, single selects (by option value).
    Text(String),
    /// Checkboxes and radios.
    Bool(bool),
    /// Multiple selects (by option values).
    List(Vec<String>),
}

/// Where a `scroll` run puts the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Start,
    Center,
    End,
}

/// What a run asks the bot to do; `T` is the target type (a drag's drop target).
#[derive(Debug, Clone, PartialEq)]
pub enum Action<T> {
    Click,
    Input(InputValue),
    Scroll {
        to: Option<Align>,
        by: Option<(f64, f64)>,
    },
    Drag {
        to: T,
    },
}

/// Why the bot refuses before dispatching anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The payload does not fit the element (a boolean for a text field…).
    BadRequest(String),
    /// Detached, hidden, moving, covered, disabled, read-only…
    NotActionable(String),
}

/// What a dispatch observed, for the ok payload.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Report {
    Done,
    /// The scroll container's position after a scroll run.
    Scrolled {
        left: i64,
        top: i64,
    },
}

/// Dispatches on a resolved target: exactly one dispatch per run.
pub trait Bot<T> {
    /// Actionability right before dispatch; a refusal has no side effect.
    async fn check(&self, target: &T, action: &Action<T>) -> Result<(), Refusal>;
    async fn dispatch(&self, target: &T, action: &Action<T>) -> Result<Report, String>;
}

/// What the browser-object port reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BomOutcome {
    pub ok: bool,
    pub retired: bool,
}

/// Browser-object actions (reload).
pub trait Bom {
    async fn reload(&self) -> Result<BomOutcome, String>;
}

/// Cryptographic randomness for pageIds.
pub trait Random {
    fn fill(&self, buf: &mut [u8]) -> Result<(), String>;
}
