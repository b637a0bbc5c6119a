//! The small traits the state machine runs over. The wasm shell implements
//! them with the DOM (or with JS objects injected as `ports`); tests use
//! in-memory fakes. What a run asks the bot to do, and what the bom answers,
//! are the atoms' own types ([`bot::Action`], [`bom::Outcome`], …).
#![allow(async_fn_in_trait)]

use std::fmt;

pub use bom::Outcome;
pub use bot::{Action, Align, DispatchError, InputValue, Refusal, Report};
use sense::{Beyond, Snapshot};

/// Why a port could not answer. The message goes into the uplink
/// (`INTERNAL` for sense, `DISPATCH_FAILED` for bom).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortError {
    /// The port threw or rejected, or the platform call failed (its message).
    Failed(String),
    /// The port answered something it must not (why).
    Invalid(String),
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PortError::Failed(why) | PortError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PortError {}

/// A port's failure message.
impl From<String> for PortError {
    fn from(why: String) -> Self {
        PortError::Failed(why)
    }
}

/// A DOM read of the menu that failed (sense's own adapter).
impl From<sense::GatherError> for PortError {
    fn from(why: sense::GatherError) -> Self {
        PortError::Failed(why.to_string())
    }
}

impl From<&str> for PortError {
    fn from(why: &str) -> Self {
        PortError::Failed(why.to_string())
    }
}

/// Reads the menu. `resolve` answers from the latest `snapshot` read.
pub trait Sense {
    /// What a run acts on (an Element on the web).
    type Target;
    /// What `captureScreenshot` returned (passed through untouched).
    type Shot;
    async fn snapshot(&self) -> Result<Snapshot, PortError>;
    async fn resolve(&self, id: &str) -> Result<Option<Self::Target>, PortError>;
    /// `Ok(None)` when no capturer was injected.
    async fn capture(&self) -> Result<Option<Self::Shot>, PortError>;
    /// The reload markers a reload would override beyond the scan root:
    /// the rest of the document it reloads and its same-origin frames
    /// (`dirty` ids, `noReload`), as a snapshot holds them, and whether
    /// frames were left unread (the bounds). A reload reloads the whole
    /// page, so unsaved work anywhere in it forbids one. None beyond the
    /// root by default (an injected reader is the page).
    async fn beyond_root(&self) -> Result<Beyond, PortError> {
        Ok(Beyond::default())
    }
}

/// Dispatches on a resolved target: exactly one dispatch per run.
pub trait Bot<T> {
    /// Actionability right before dispatch; a refusal has no side effect.
    async fn check(&self, target: &T, action: &Action<T>) -> Result<(), Refusal>;
    async fn dispatch(&self, target: &T, action: &Action<T>) -> Result<Report, DispatchError>;
}

/// Browser-object actions (reload).
pub trait Bom {
    async fn reload(&self) -> Result<Outcome, PortError>;

    /// Whether the last reload that retired this instance did not happen
    /// (the page cancelled it and the document stayed): the instance is then
    /// live again. Said once per reload.
    fn reload_undone(&self) -> bool {
        false
    }
}

/// Cryptographic randomness for pageIds.
pub trait Random {
    fn fill(&self, buf: &mut [u8]) -> Result<(), PortError>;
}
