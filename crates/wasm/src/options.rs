//! `IInstallPlayableOptions`, read once at install. Wrong types are clear
//! TypeErrors at install time rather than surprises at the first request.
//! options.js reads the object's shape in one call (order of checks and
//! messages as listed there); the slot specs are checked here, in order.

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

/// options.js's `[[island, null | [[slot, ariaLabel, role, name], ...]], ...]`.
fn parse_slots(value: Array) -> Result<IslandSlots, Msg> {
    let mut islands = Vec::new();
    for entry in value.iter() {
        let entry: Array = entry.unchecked_into();
        let island = string(entry.get(0)).unwrap_or_default();
        let slots = entry.get(1);
        if slots.is_null() {
            return Err(format!(
                "islandSlots[{}] must be an object of slots",
                json::quote(&island)
            )
            .into());
        }
        let mut list: Vec<(String, SlotSpec)> = Vec::new();
        for slot in slots.unchecked_into::<Array>().iter() {
            let slot: Array = slot.unchecked_into();
            let name = string(slot.get(0)).unwrap_or_default();
            let spec = IslandSlots::parse_spec(
                &island,
                &name,
                string(slot.get(1)),
                string(slot.get(2)),
                string(slot.get(3)),
            )?;
            list.push((name, spec));
        }
        islands.push((island, list));
    }
    Ok(IslandSlots { islands })
}

pub fn parse(options: &JsValue) -> Result<Options, Msg> {
    let read = read_options(options);
    if let Some(problem) = read.as_string() {
        return Err(problem.into());
    }
    let read: Array = read.unchecked_into();
    let island_slots = parse_slots(read.get(3).unchecked_into())?;
    let rest = read.get(4);
    if let Some(problem) = rest.as_string() {
        return Err(problem.into());
    }
    let rest: Array = rest.unchecked_into();
    let allowed_origins = rest
        .get(0)
        .unchecked_into::<Array>()
        .iter()
        .filter_map(string)
        .collect();
    Ok(Options {
        root: read.get(0),
        window: read.get(1).unchecked_into(),
        capture: given(read.get(2)).map(JsCast::unchecked_into),
        island_slots,
        allowed_origins,
        sense: given(rest.get(1)),
        bot: given(rest.get(2)),
        bom: given(rest.get(3)),
    })
}
