//! `surface`: the agent-facing Surface protocol (`pling.surface/0.1`).
//!
//! Two methods. `describe` tells a client what the page shows and which
//! declared capabilities this session may use; `invoke` asks the page to run
//! one. Identity, transport, revocation and audit belong to the host.
//!
//! The core is pure: request checks, sessions, the schema validator,
//! describe/invoke semantics, and the page-vocabulary rules ([`markers`]).
//! The page, the executor, the confirm hook and the clock are traits
//! ([`Page`], [`Executor`], [`Confirm`], [`Clock`]) so the same code runs
//! natively under test and in the browser, where `dom` (wasm32 only)
//! implements the page and the built-in executor over the live DOM and the
//! wasm shell adds the JS callbacks.
//!
//! ```text
//! shape → session → replay → rate (invoke) → exposure (invoke) → business
//! ```
//!
//! Protocol failures answer `ok: false`; business failures answer `ok: true`
//! with `result.error`. See `docs/surface.md`.

// Lookups are plain loops on purpose: every `find`/`collect` closure is an
// iterator instantiation of its own in the wasm module (docs/surface.md, Size).
#![allow(clippy::manual_find)]

mod codes;
mod declaration;
mod describe;
mod hooks;
mod invoke;
mod json;
pub mod markers;
mod page;
mod request;
pub mod schema;
mod session;
mod surface;

#[cfg(target_arch = "wasm32")]
pub mod dom;

pub use codes::{BusinessCode, BusinessError, Failure, ProtocolCode, ProtocolError, Refusal};
pub use declaration::{
    CapabilityDeclaration, Expectation, Registry, Risk, RowActionId, SkippedDeclaration,
    DEFAULT_EXPECT_WITHIN_MS,
};
pub use hooks::{
    exec_outcome_from_json, Clock, Confirm, ExecOutcome, Executor, NoConfirm, RegistrySource,
    MALFORMED_RESULT_CODE,
};
pub use invoke::Pending;
pub use page::{ActionState, Feedback, Observation, Page, Record, Region};
pub use request::{
    echo_id, parse_request, CapabilityMode, DescribeInput, RecordSelection, Request,
    MAX_RECORD_IDS, MAX_RECORD_LIMIT, MAX_REQUEST_ID_CHARS,
};
pub use session::{
    scope_matches, MalformedSession, RateLimit, Session, MAX_TRACKED_SESSIONS, REPLAY_MEMORY,
};
pub use surface::{
    respond, ConfigError, Host, Observe, Surface, SurfaceConfig, DEFAULT_RECORD_LIMIT,
};

/// The protocol this crate speaks.
pub const PROTOCOL: &str = "pling.surface/0.1";
