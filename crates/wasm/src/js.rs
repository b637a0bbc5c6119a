//! Reading and writing JS values without ever throwing: property reads
//! through `Reflect`, serde-wasm-bindgen for values written back to JS,
//! bounded JSON text for values read, and the copy
//! that makes a foreign value safe to decode. The readers are the ones the
//! playable ports read their answers with ([`playable::web::js`]).

use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub use playable::web::js::{decode, get};

/// A thrown value's message, for an error text.
pub use sense::dom::thrown_message as thrown;

#[wasm_bindgen(module = "/src/boundary.js")]
extern "C" {
    /// `JSON.parse` as the module loaded it (a page may replace the global).
    #[wasm_bindgen(catch, js_name = parse)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;
    /// `Array.isArray` as the module loaded it.
    #[wasm_bindgen(catch, js_name = isArray)]
    fn js_is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// `Array.isArray(value)` for a value the page handed in, or what it
/// threw: a revoked proxy throws even there (js-sys's binding would throw
/// through the wasm frames), so each caller words a throw as its own
/// refusal.
pub fn is_array(value: &JsValue) -> Result<bool, String> {
    js_is_array(value).map_err(|e| thrown(&e))
}

/// JSON text as a JS value: how answers cross back (one string and a
/// native parse), immune to a page's later `JSON.parse`.
pub fn parse(text: &str) -> Option<JsValue> {
    json_parse(text).ok()
}

/// A value as a plain JS value (objects, not Maps; `null` for `None`).
pub fn to_js(value: &impl Serialize) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// Makes an exported object (`IPlayable`, a Surface) safe to hold as the
/// API promises. wasm-bindgen gives each class a `free()` (and
/// `[Symbol.dispose]`, which `using` calls) that releases the Rust half:
/// every later call on the object, `handle` included, would then throw
/// "null pointer passed to rust" — and an installed instance is handed out
/// again by every `installPlayable`. Both become no-ops on the object itself
/// (`Function.prototype`, which does nothing), and each method named in
/// `bound` (every public one) is bound to it, so `const { handle,
/// attachWindowBridge } = playable` still works instead of throwing on a
/// missing `this`, as with the seed's plain object. Best effort: a write that fails
/// leaves the class's own method. The glue's pointer to the Rust half
/// (`__wbg_ptr`, an own property) becomes read-only, non-configurable and
/// not enumerable: a page script that wrote it (0, or another object's)
/// would make every later call throw or never settle.
pub fn hold(object: &JsValue, bound: &[&str]) {
    let pointer = JsValue::from_str("__wbg_ptr");
    let fixed = js_sys::Object::new();
    let _ = Reflect::set(&fixed, &"value".into(), &get(object, "__wbg_ptr"));
    // Said outright: a redefinition keeps the attributes it leaves out.
    for attribute in ["writable", "enumerable", "configurable"] {
        let _ = Reflect::set(&fixed, &attribute.into(), &JsValue::FALSE);
    }
    let _ = Reflect::define_property(object.unchecked_ref::<js_sys::Object>(), &pointer, &fixed);
    let global: JsValue = js_sys::global().into();
    // Function.prototype and Symbol.dispose, read as properties: no import
    // beyond the Reflect ones every read here uses.
    let noop = get(&get(&global, "Function"), "prototype");
    let Ok(bind) = get(&noop, "bind").dyn_into::<js_sys::Function>() else {
        return;
    };
    let _ = Reflect::set(object, &"free".into(), &noop);
    let dispose = get(&get(&global, "Symbol"), "dispose");
    if !dispose.is_undefined() {
        let _ = Reflect::set(object, &dispose, &noop);
    }
    for name in bound {
        if let Ok(method) = bind.call1(&get(object, name), object) {
            let _ = Reflect::set(object, &(*name).into(), &method);
        }
    }
}
