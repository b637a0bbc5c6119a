//! The playable core: envelopes (baseline §1), the state machine
//! `installed → live → retired` with its pageId latch, escapes, and the window
//! bridge (baseline §3: its filter pure, its listener on wasm). It composes
//! the atoms: `sense`'s snapshot, `bot`'s actions and `bom`'s outcome.
//!
//! Everything here except the bridge's web side is pure Rust over the small
//! traits in [`ports`], so it is tested natively with in-memory fakes. Modules
//! depend one way: `machine` → `run` → `plan`; both `machine` and `run` read
//! the menu through `menu`; everything writes its answers with `envelope`.
//! On wasm32, [`web`] implements the ports for the browser (the atoms' DOM
//! adapters, or JS objects the page injected, their answers read by the
//! pure [`answers`]): the shell's instance and Surface's built-in executor
//! both run on it.

pub mod answers;
pub mod boundary;
pub mod bounds;
pub mod envelope;
pub mod escape;
mod fifo;
mod machine;
mod menu;
mod plan;
pub mod ports;
mod run;
pub mod window;

pub mod bridge;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use boundary::{NonJson, NotPlain, Projection};
pub use envelope::{parse_downlink, Command, Downlink, ErrorCode, Failure, OkPayload, Uplink};
pub use escape::{derive_escapes, is_escape_allowed, EscapeInputs};
pub use fifo::Fifo;
pub use machine::{Dropped, Machine, Phase, Response};
pub use plan::{plan, Plan};
pub use run::{run_item, run_menu_item};

#[cfg(test)]
mod tests;
