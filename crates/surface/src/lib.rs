//! `surface`: the agent-facing Surface protocol (`pling.surface/0.1`).
//!
//! Two methods. `describe` tells a client what the page shows and which
//! declared capabilities this session may use; `invoke` asks the page to run
//! one. Identity, transport, revocation and audit belong to the host.
//!
//! [`Surface::handle`] is the one pipeline: it takes a request's JSON text
//! and returns its [`Response`], calling the page only through two traits —
//! [`Host`] (declarations, session, confirm, execute, clock) and [`Page`]
//! (observe, wait for text). Native tests drive it with in-memory twins; in
//! the browser `dom` (wasm32 only) is the [`Page`] and the built-in
//! executor, and the wasm shell implements [`Host`] with the page's JS
//! callbacks and translates the [`Response`].
//!
//! ```text
//! bounds → shape → session → replay → rate (invoke) → exposure (invoke) → business
//! ```
//!
//! Protocol failures answer `ok: false`; business failures answer `ok: true`
//! with `result.error`. See `docs/surface.md`.
//!
//! Modules depend one way: `codes`, `bounds`, `field`, `json`, `page`,
//! `schema` at the bottom; then `declaration`, `session`, `request`,
//! `markers`; then `config` and `host`; then `crossing`; then `describe` and `invoke`; then
//! `response`; `surface` on top.

pub mod bounds;
mod codes;
mod config;
pub mod crossing;
mod declaration;
mod describe;
mod field;
mod host;
mod invoke;
mod json;
pub mod markers;
mod page;
mod request;
mod response;
pub mod schema;
mod session;
mod surface;

#[cfg(target_arch = "wasm32")]
pub mod dom;

pub use bounds::{DecodeError, MAX_CHARS, MAX_DEPTH, MAX_VALUES};
pub use codes::{BusinessCode, BusinessError, ProtocolCode, ProtocolError};
pub use config::{CallbackOption, ConfigError, OptionKind, SurfaceConfig, DEFAULT_RECORD_LIMIT};
pub use crossing::{
    callback_text, registry_from_crossing, CrossedRequest, Scalar, Unreadable, Writing,
};
pub use declaration::{
    CapabilityDeclaration, DeclarationError, Expectation, Registry, Risk, RowActionId, SkipReason,
    SkippedDeclaration, DECLARATION_FIELDS, DEFAULT_EXPECT_WITHIN_MS,
};
pub use describe::{CapabilityView, Context, Described, RecordWindow, Unavailable};
pub use host::{
    approves, exec_outcome, exec_outcome_from_callback, exec_outcome_from_json, execution_failed,
    session_from_callback, CallbackError, ExecOutcome, Host,
};
pub use invoke::{After, Invoked, RecordRef};
pub use page::{
    ActionState, Feedback, Observation, Page, PageError, PageIdentity, Placement, Record, Region,
    Unavailability,
};
pub use request::{
    echo_id, parse_request, CapabilityMode, DescribeInput, RecordSelection, Request,
    MAX_CAPABILITY_CHARS, MAX_COUNT, MAX_RECORD_IDS, MAX_RECORD_LIMIT, MAX_REQUEST_ID_CHARS,
};
pub use response::{echo_id_in, Answer, Response};
pub use session::{
    scope_matches, MalformedSession, RateLimit, Session, MAX_TRACKED_SESSIONS, REPLAY_MEMORY,
};
pub use surface::{Reader, Surface};

/// The protocol this crate speaks.
pub const PROTOCOL: &str = "pling.surface/0.1";
