//! The one cdylib: translates between JS and the Rust crates. Its own
//! decisions (whether install options are valid, what the WebMCP tools
//! are) are pure modules tested natively; the rest is web glue.

#[cfg(target_arch = "wasm32")]
mod js;
pub mod options;
pub mod webmcp;

#[cfg(target_arch = "wasm32")]
mod install;
#[cfg(target_arch = "wasm32")]
mod marker;
#[cfg(target_arch = "wasm32")]
mod serve;
#[cfg(target_arch = "wasm32")]
mod surface;

#[cfg(target_arch = "wasm32")]
pub use install::*;

// Talc instead of the default dlmalloc: about 3 KB less code and faster on
// wasm32 (talc's own WebAssembly benchmarks). Realloc-in-place is disabled to
// save more bytes; growing a buffer then copies, which the module's few
// large strings tolerate.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
