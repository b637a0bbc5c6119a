//! The window markers (`__IN_PAGE_PLAYABLE_V1__`, `__PLING_SURFACE_V0_1__`).
//! A page script must not be able to delete or overwrite one: a client that
//! looks for the marker (the MCP server) would believe nothing answers, and
//! a second copy of the package would install beside the first. So each is
//! defined once per window as a non-configurable accessor (marker.js); Rust
//! decides what it reads: `true`, else `undefined` (as if absent).

use std::cell::Cell;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::Window;

#[wasm_bindgen(module = "/src/marker.js")]
extern "C" {
    /// The marker's state (`{ on }`), or `null` when it cannot be defined
    /// (a throw: a window that is not ours to define on).
    #[wasm_bindgen(catch)]
    fn define(win: &Window, key: &str) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The markers this copy defined: window, name, state.
    static MARKED: Cell<Vec<(Window, &'static str, JsValue)>> = const { Cell::new(Vec::new()) };
}

/// Makes marker `key` on `window` read `true` (`on`) or `undefined`,
/// defining it the first time it is marked. `false` when it cannot be
/// defined: another copy of the package, or the page, made that property
/// non-configurable.
pub(crate) fn mark(window: &Window, key: &'static str, on: bool) -> bool {
    let mut list = MARKED.with(Cell::take);
    let known = list
        .iter()
        .find(|(w, k, _)| *k == key && Object::is(w, window))
        .map(|(_, _, state)| state.clone());
    // Unmarking a window never marked defines nothing.
    let state = known.or_else(|| {
        let state = on
            .then(|| define(window, key).ok())
            .flatten()
            .filter(JsValue::is_object)?;
        list.push((window.clone(), key, state.clone()));
        Some(state)
    });
    MARKED.with(|cell| cell.set(list));
    let value = if on {
        JsValue::TRUE
    } else {
        JsValue::UNDEFINED
    };
    state.is_some_and(|state| Reflect::set(&state, &"on".into(), &value).is_ok())
}
