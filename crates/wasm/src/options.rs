//! `IInstallPlayableOptions`, read once at install. Wrong types are clear
//! TypeErrors at install time rather than surprises at the first request.
//! options.js checks them in one call (the order of checks and the messages
//! are there); this builds the Rust values from what it hands back.

use js_sys::{Array, Function};
use sense::{IslandSlots, SlotSpec};
use wasm_bindgen::prelude::*;
use web_sys::Window;

/// An error message: static text needs no allocation.
pub type Msg = std::borrow::Cow<'static, str>;

#[wasm_bindgen(module = "/src/options.js")]
extern "C" {
    #[wasm_bindgen(js_name = readOptions)]
    fn read_options(options: &JsValue) -> JsValue;
}

pub struct Options {
    pub root: JsValue,
    pub window: Window,
    pub island_slots: IslandSlots,
    pub capture: Option<Function>,
    /// Copied at install: later changes to the caller's array change nothing.
    pub allowed_origins: Vec<String>,
    pub sense: Option<JsValue>,
    pub bot: Option<JsValue>,
    pub bom: Option<JsValue>,
}

/// `None` for `undefined`.
fn given(v: JsValue) -> Option<JsValue> {
    (!v.is_undefined()).then_some(v)
}

fn string(v: JsValue) -> Option<String> {
    v.as_string()
}

/// options.js's checked `[[island, [[slot, ariaLabel] or [slot, role, name], ...]], ...]`.
fn slots(value: Array) -> IslandSlots {
    let mut islands = Vec::new();
    for entry in value.iter() {
        let entry: Array = entry.unchecked_into();
        let mut list: Vec<(String, SlotSpec)> = Vec::new();
        for slot in entry.get(1).unchecked_into::<Array>().iter() {
            let slot: Array = slot.unchecked_into();
            let text = |i| string(slot.get(i)).unwrap_or_default();
            let spec = if slot.length() == 2 {
                SlotSpec::AriaLabel(text(1))
            } else {
                SlotSpec::RoleName {
                    role: text(1),
                    name: text(2),
                }
            };
            list.push((text(0), spec));
        }
        islands.push((string(entry.get(0)).unwrap_or_default(), list));
    }
    IslandSlots { islands }
}

pub fn parse(options: &JsValue) -> Result<Options, Msg> {
    let read = read_options(options);
    if let Some(problem) = read.as_string() {
        return Err(problem.into());
    }
    let read: Array = read.unchecked_into();
    let allowed_origins = read
        .get(4)
        .unchecked_into::<Array>()
        .iter()
        .filter_map(string)
        .collect();
    Ok(Options {
        root: read.get(0),
        window: read.get(1).unchecked_into(),
        capture: given(read.get(2)).map(JsCast::unchecked_into),
        island_slots: slots(read.get(3).unchecked_into()),
        allowed_origins,
        sense: given(read.get(5)),
        bot: given(read.get(6)),
        bom: given(read.get(7)),
    })
}
