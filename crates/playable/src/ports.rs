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

/// What a run asks the bot to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Click,
}

/// Dispatches on a resolved target: exactly one dispatch per run.
pub trait Bot<T> {
    /// Actionability right before dispatch; `Err(reason)` refuses with no side effect.
    async fn check(&self, target: &T, action: &Action) -> Result<(), String>;
    async fn dispatch(&self, target: &T, action: &Action) -> Result<(), String>;
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
