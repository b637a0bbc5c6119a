//! WebMCP publication (`playable.publishWebMcp()`, `surface.publishWebMcp()`).
//!
//! [`plan`] decides, purely: which menu items or capabilities become tools,
//! their names, descriptions, schemas and annotations, what a new plan
//! changes, the requests a publication sends. `publication` (web) drives
//! it: it sends those requests through the owner's own `handle`, follows
//! DOM changes and every call, and registers or withdraws tools through
//! webmcp.js, which only performs those acts on `document.modelContext`.
//! The owner is anything that implements [`Owner`]: the publication does
//! not know the playable instance or the Surface.

pub mod plan;
#[cfg(target_arch = "wasm32")]
mod publication;
#[cfg(target_arch = "wasm32")]
pub(crate) use publication::{Owner, Publication};
