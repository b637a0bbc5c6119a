//! Reads [`super::OptionFacts`] from the JS options object: every property
//! read goes through `Reflect` (a getter's throw becomes a recorded fact,
//! never an exception), and the data options are decoded through their JSON
//! text within the bounds ([`crate::js::decode`]). No decision is made here.

use js_sys::{Function, Reflect};
use sense::IslandSlots;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use web_sys::Window;

use super::{check, DataError, DataFacts, Given, OptionFacts, OptionsError, Read, RootFacts};
use crate::js::{decode, get};
use playable::web::js::Refused;

/// The checked options, typed for the web.
pub struct Options {
    pub root: JsValue,
    pub window: Window,
    pub island_slots: IslandSlots,
    pub capture: Option<Function>,
    pub allowed_origins: Vec<String>,
    pub sense: Option<JsValue>,
    pub bot: Option<JsValue>,
    pub bom: Option<JsValue>,
}

fn nullish(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// `obj[key]` as an option: absent for nullish (or no `obj`), `Threw`
/// when the read threw.
fn field(obj: &JsValue, key: &str) -> Read<JsValue> {
    if nullish(obj) {
        return Read::Absent;
    }
    match Reflect::get(obj, &JsValue::from_str(key)) {
        Err(_) => Read::Threw,
        Ok(v) if nullish(&v) => Read::Absent,
        Ok(v) => Read::Value(v),
    }
}

/// `window.document` as read now: `Threw` for a window of another origin
/// (caught, never thrown on), `Absent` for a stand-in window.
pub fn document_of(window: &JsValue) -> Read<JsValue> {
    field(window, "document")
}

/// A read value through a reader that may throw itself.
fn then<T>(read: Read<JsValue>, f: impl FnOnce(JsValue) -> Read<T>) -> Read<T> {
    match read {
        Read::Absent => Read::Absent,
        Read::Threw => Read::Threw,
        Read::Value(v) => f(v),
    }
}

fn facts(value: JsValue) -> Given<JsValue> {
    Given {
        is_object: value.is_object(),
        is_function: value.is_function(),
        node_type: get(&value, "nodeType").as_f64(),
        posts_messages: get(&value, "postMessage").is_function(),
        value,
    }
}

/// An object option's facts; `Threw` for a revoked proxy (whose every
/// read throws), as for a throwing getter. A getter of the value that
/// throws is no such thing: a cross-origin window throws on `nodeType`
/// and is still a window.
fn given(value: JsValue) -> Read<Given<JsValue>> {
    match crate::js::is_array(&value) {
        Err(_) => Read::Threw,
        Ok(_) => Read::Value(facts(value)),
    }
}

fn some(v: JsValue) -> Option<JsValue> {
    (!nullish(&v)).then_some(v)
}

fn root(value: JsValue) -> Read<RootFacts<JsValue>> {
    let own_view = some(get(&value, "defaultView"));
    let owner_view = some(get(&get(&value, "ownerDocument"), "defaultView"));
    let has_host = get(&value, "host").is_object();
    map(given(value), |root| RootFacts {
        root,
        own_view,
        owner_view,
        has_host,
    })
}

/// A read value through a reader that cannot throw.
fn map<A, T>(read: Read<A>, f: impl FnOnce(A) -> T) -> Read<T> {
    match read {
        Read::Absent => Read::Absent,
        Read::Threw => Read::Threw,
        Read::Value(v) => Read::Value(f(v)),
    }
}

/// A data option's facts; `Threw` when even its array check threw (a
/// revoked proxy): "reading options.… threw", as for a throwing getter.
fn data<T: DeserializeOwned>(value: JsValue) -> Read<DataFacts<T>> {
    let Ok(is_array) = crate::js::is_array(&value) else {
        return Read::Threw;
    };
    Read::Value(DataFacts {
        is_object: value.is_object(),
        is_array,
        data: decode(&value).map_err(|e| match e {
            Refused::NotData(why) => DataError::NotData(why),
            Refused::Bounds(why) => DataError::OutOfBounds(why),
        }),
    })
}

/// The facts of `options`, each option read once.
pub fn read(options: &JsValue) -> OptionFacts<JsValue> {
    let global: JsValue = js_sys::global().into();
    let given_root = field(options, "root");
    let window = then(field(options, "window"), given);
    // The default root, and the document a given root must be of (a
    // cross-origin window's throws: recorded, decided on by `check`).
    let window_document = match &window {
        Read::Value(w) => then(field(&w.value, "document"), root),
        _ => Read::Absent,
    };
    let ports = field(options, "ports");
    let port = |name| match &ports {
        Read::Value(p) => then(field(p, name), given),
        _ => Read::Absent,
    };
    OptionFacts {
        absent: nullish(options),
        is_object: options.is_object(),
        root: then(given_root, root),
        document: then(field(&global, "document"), root),
        window,
        window_document,
        capture: then(field(options, "captureScreenshot"), given),
        port: [port("sense"), port("bot"), port("bom")],
        island_slots: then(field(options, "islandSlots"), data),
        allowed_origins: then(field(options, "allowedOrigins"), data),
        ports: then(ports.clone(), given),
        global: facts(global),
    }
}

/// Reads and checks `options`.
pub fn parse(options: &JsValue) -> Result<Options, OptionsError> {
    checked(read(options))
}

/// Checks options already read.
pub fn checked(facts: OptionFacts<JsValue>) -> Result<Options, OptionsError> {
    let o = check(facts)?;
    Ok(Options {
        root: o.root,
        window: o.window.unchecked_into(),
        island_slots: o.island_slots,
        capture: o.capture.map(JsCast::unchecked_into),
        allowed_origins: o.allowed_origins,
        sense: o.sense,
        bot: o.bot,
        bom: o.bom,
    })
}
