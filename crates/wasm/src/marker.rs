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
    /// Whether `win` still reads `key` through `state`. Never throws.
    fn holds(win: &Window, key: &str, state: &JsValue) -> bool;
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
    let at = list
        .iter()
        .position(|(w, k, _)| *k == key && Object::is(w, window));
    // A frame's window object stays when its document is replaced, its
    // global mostly does not (a reload, a navigation): a marker defined on
    // the old global is no marker of the new one, which is marked afresh.
    // (Leaving its first about:blank for a same-origin page keeps the
    // global, and the marker with it.)
    let known = at
        .map(|i| list.swap_remove(i).2)
        .filter(|state| holds(window, key, state));
    // Unmarking a window never marked defines nothing.
    let state = known.or_else(|| {
        on.then(|| define(window, key).ok())
            .flatten()
            .filter(JsValue::is_object)
    });
    if let Some(state) = &state {
        list.push((window.clone(), key, state.clone()));
    }
    MARKED.with(|cell| cell.set(list));
    let value = if on {
        JsValue::TRUE
    } else {
        JsValue::UNDEFINED
    };
    state.is_some_and(|state| Reflect::set(&state, &"on".into(), &value).is_ok())
}
