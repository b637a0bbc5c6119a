//! Reading a JS value from the page without ever throwing: property reads
//! through `Reflect`, and JSON text within [`crate::bounds`], which is how
//! every value the page hands in is decoded (the shell reads its own
//! options with these too). (No `async fn` here: each file with one adds
//! its path to the module, for the resumed-after-completion panic's
//! location.)

use js_sys::{JsString, Object, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use crate::bounds::{self, Limits, ENVELOPE, MAX_TEXT_UNITS};

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

/// Why a value from the page was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Not plain data (what the structured clone or `JSON.stringify` threw,
    /// a value JSON cannot write), or not of the decoded type (serde's words).
    NotData(String),
    /// Its JSON text is out of bounds: the bound, in words.
    Bounds(String),
}

/// A value from the page decoded into `T`: a structured clone of it (which
/// runs each getter once and refuses functions, DOM nodes and proxies with
/// an error returned here, never thrown), written as JSON, checked against
/// [`ENVELOPE`] by the non-recursive scan, then read by serde_json. So the
/// decoder only ever meets plain JSON within the bounds, and it reads the
/// very text that was counted (a `Map`, say, is `{}` to both).
pub fn decode<T: DeserializeOwned>(value: &JsValue) -> Result<T, Refused> {
    let copy = structured_clone(value).map_err(|e| Refused::NotData(thrown(&e)))?;
    // Chromium's clone gives `null` without throwing for a value nested
    // deeper than it copies (about 2,500 levels): that is no copy of it.
    if copy.is_null() && !value.is_null() && !value.is_undefined() {
        return Err(Refused::NotData(TOO_DEEP.into()));
    }
    read(&copy, &ENVELOPE)
}

/// `value` read through its JSON text within `limits`, without a clone
/// (`JSON.stringify` runs a getter once; a cycle is refused, a function
/// left out, as JSON does).
pub fn read<T: DeserializeOwned>(value: &JsValue, limits: &Limits) -> Result<T, Refused> {
    let text = json_within(value, limits)?;
    serde_json::from_str(&text).map_err(|e| Refused::NotData(bounds::unreadable(&text, &e)))
}

/// `JSON.stringify(value)` within `limits`. A text longer than any within
/// [`ENVELOPE`] ([`MAX_TEXT_UNITS`]) is refused before it is copied.
pub fn json_within(value: &JsValue, limits: &Limits) -> Result<String, Refused> {
    let text = json_stringify(value).map_err(|e| Refused::NotData(thrown(&e)))?;
    let Ok(text) = text.dyn_into::<JsString>() else {
        return Err(Refused::NotData("it cannot be written as JSON".into()));
    };
    let units = text.length() as usize;
    if limits == &ENVELOPE && units > MAX_TEXT_UNITS {
        return Err(Refused::Bounds(bounds::too_long(units)));
    }
    let text = String::from(text);
    bounds::check(&text, limits).map_err(|e| Refused::Bounds(e.worded(limits)))?;
    Ok(text)
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
// later cannot break the crossing (tests/json.test.mjs).
#[wasm_bindgen(module = "/src/web/json.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = stringify)]
    fn json_stringify(v: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/web/lower.js")]
extern "C" {
    /// Unicode lowercase by the platform's `String.prototype.toLowerCase`,
    /// as the module loaded it.
    pub fn lowercase(s: &str) -> String;
}

/// `JSON.stringify(v)`; `None` when it throws or gives `undefined`.
pub fn stringify(v: &JsValue) -> Option<String> {
    json_stringify(v).ok()?.as_string()
}

pub(super) fn has_method(obj: &JsValue, name: &str) -> bool {
    Reflect::get(obj, &name.into()).is_ok_and(|f| f.is_function())
}
