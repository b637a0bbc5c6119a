//! `sense` reads a page's declared menu.
//!
//! The work is split in two so most of it tests natively:
//! - [`build`] turns a flat list of [`RawNode`] facts (what the DOM said about
//!   each marked or interactive element, in document order) into a
//!   [`Snapshot`]: page title, menu, islands, generic refs, dirty, noReload.
//! - `dom` (wasm32 only) gathers raw facts from a live root in one bulk
//!   read (decoded by [`wire`]), where [`rules`] decide each element's role,
//!   interactivity, disabled state and name and [`read`] which details a
//!   second bulk read fetches; it keeps the matching elements so a run can
//!   resolve its target.
//! - The snapshot types carry their wire names through serde
//!   ([`Snapshot::to_json`], [`decode_snapshot`]); the host's `islandSlots`
//!   table reads through serde too ([`IslandSlots::decode`]).
//!
//! What an agent may do with a snapshot (the escape policy) is playable's
//! rule, not sense's.

mod build;
mod json;
mod model;
pub mod read;
pub mod rules;
mod slots;
mod text;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod dom;

pub use build::{build, is_generic_ref, Built, Index};
pub use json::{decode_snapshot, SnapshotError};
pub use model::{
    Beyond, Escape, FrameBound, GatherError, Generic, Island, IslandSlot, MenuItem, RawNode,
    Snapshot,
};
pub use slots::{IslandSlots, SlotSpec, SlotsError};
pub use text::{
    cap_chars, char_count, join, json_quote, prefix_chars, utf16_len, DESC_MAX_CHARS,
    EVENT_MAX_CHARS, ID_MAX_CHARS, TITLE_MAX_CHARS,
};
