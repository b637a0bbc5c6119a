//! Reading a JS value from the page without ever throwing: property reads
//! through `Reflect`, JSON text, and the copy that makes a foreign value
//! safe to decode with serde-wasm-bindgen. The shell reads its own options
//! with these too. (No `async fn` here: each file with one adds its path
//! to the module, for the resumed-after-completion panic's location.)

use js_sys::{Object, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

// A thrown value's message, for an error text.
use sense::dom::thrown_message as thrown;

#[wasm_bindgen]
extern "C" {
    /// The platform's structured clone; `Err` is what it threw.
    #[wasm_bindgen(catch, js_name = structuredClone)]
    fn structured_clone(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// `obj[key]`, `undefined` where that throws (a primitive, a getter).
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Why [`decode`] refused a value the structured clone could not copy.
const TOO_DEEP: &str = "it is nested too deeply to be copied";

/// A value from the page decoded into `T` with serde-wasm-bindgen. The
/// decoder reads a structured clone of it, so it only ever meets plain
/// data: the clone runs each getter once and refuses functions, DOM nodes
/// and proxies with an error returned here, never thrown. `T` must have a
/// fixed depth (the clone keeps cycles).
pub fn decode<T: DeserializeOwned>(value: &JsValue) -> Result<T, String> {
    let copy = structured_clone(value).map_err(|e| thrown(&e))?;
    // Chromium's clone gives `null` without throwing for a value nested
    // deeper than it copies (about 2,500 levels): that is no copy of it.
    if copy.is_null() && !value.is_null() && !value.is_undefined() {
        return Err(TOO_DEEP.into());
    }
    serde_wasm_bindgen::from_value(copy).map_err(|e| format!("{e}"))
}

/// What answers.rs reads of a port's answer, and nothing more: an object's
/// `keys` copied into a fresh object when they hold a boolean, number,
/// string or `null` (a getter that throws, or any other value, leaves the
/// key out), or the answer itself when it is no object. So what else the
/// object holds cannot change its meaning: an element, a function, or a
/// value nested deeper than the browser's structured clone copies (which
/// then gives `null` for the whole answer) beside `ok: false` left the
/// structured clone of the whole answer failing or empty, and the failure
/// unreported.
pub(super) fn top_level(out: &JsValue, keys: &[&str]) -> JsValue {
    if !out.is_object() {
        return out.clone();
    }
    let copy = Object::new();
    for key in keys {
        let value = get(out, key);
        let plain = value.is_null()
            || value.as_bool().is_some()
            || value.as_f64().is_some()
            || value.is_string();
        if plain {
            let _ = Reflect::set(&copy, &JsValue::from_str(key), &value);
        }
    }
    copy.into()
}

// JSON.stringify as the module loaded it: a page that replaces the global
// later cannot break the crossing.
#[wasm_bindgen(
    inline_js = "const s = JSON.stringify; export function stringify(v) { return s(v); }"
)]
extern "C" {
    #[wasm_bindgen(catch, js_name = stringify)]
    fn json_stringify(v: &JsValue) -> Result<JsValue, JsValue>;
}

/// `JSON.stringify(v)`; `None` when it throws or gives `undefined`.
pub fn stringify(v: &JsValue) -> Option<String> {
    json_stringify(v).ok()?.as_string()
}

pub(super) fn has_method(obj: &JsValue, name: &str) -> bool {
    Reflect::get(obj, &name.into()).is_ok_and(|f| f.is_function())
}
