//! The one cdylib: translates between JS and the Rust crates. No protocol
//! logic lives here; see `playable` for that.

#[cfg(target_arch = "wasm32")]
mod install;
#[cfg(target_arch = "wasm32")]
mod options;
#[cfg(target_arch = "wasm32")]
mod ports;
#[cfg(target_arch = "wasm32")]
mod surface;
// Pure planning is compiled natively too, for its unit tests.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod webmcp;

#[cfg(target_arch = "wasm32")]
pub use install::*;
