//! The playable core: envelopes (baseline §1), the state machine
//! `installed → live → retired` with its pageId latch, escapes, and the window
//! bridge (baseline §3: its filter pure, its listener on wasm).
//!
//! Everything here except the bridge's web side is pure Rust over the small traits in
//! [`ports`], so it is tested natively with in-memory fakes.

pub mod envelope;
mod fifo;
mod machine;
pub mod ports;
mod run;

pub mod bridge;

pub use envelope::{parse_downlink, Command, Downlink, ErrorCode, OkPayload, Uplink};
pub use fifo::Fifo;
pub use machine::{Machine, Phase, Response};
pub use run::{run_item, run_menu_item};
pub use sense::{derive_escapes, is_escape_allowed};

#[cfg(test)]
mod tests;
