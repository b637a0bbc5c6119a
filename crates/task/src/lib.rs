//! The module's futures runtime, instead of wasm-bindgen-futures: a
//! single-threaded executor whose waker is a task index, a promise awaited
//! through one JS import (`wait`), and `future_to_promise` (or
//! `resolve_to_promise`, for a boxed future that cannot fail) through one
//! more (`deferred`). The names and signatures are wasm-bindgen-futures' (an
//! [`Await`] is its `JsFuture`), so callers only change their `use` line.
//!
//! Tasks are polled from a microtask or from a promise's reaction, never
//! inside another poll: a task spawned or woken while one is polled joins
//! the running queue. An [`Await`] keeps the waker of its first poll and
//! wakes it when the promise settles, so it also works under another
//! executor (wasm-bindgen-test's).

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::*;
