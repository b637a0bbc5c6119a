//! `IInstallPlayableOptions`, read once at install. Wrong types are clear
//! TypeErrors at install time rather than surprises at the first request.

use js_sys::{Array, Function, Object, Reflect};
use sense::{IslandSlots, SlotSpec};
use wasm_bindgen::prelude::*;
use web_sys::Window;

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

fn get(obj: &JsValue, key: &str) -> Result<JsValue, String> {
    if obj.is_undefined() || obj.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    Reflect::get(obj, &key.into()).map_err(|_| format!("reading options.{key} threw"))
}

fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

fn string_field(obj: &JsValue, key: &str) -> Option<String> {
    Reflect::get(obj, &key.into()).ok()?.as_string()
}

fn parse_slots(value: &JsValue) -> Result<IslandSlots, String> {
    if absent(value) {
        return Ok(IslandSlots::default());
    }
    if !value.is_object() {
        return Err(
            "options.islandSlots must be an object: { [islandId]: { [slotName]: spec } }".into(),
        );
    }
    let mut islands = Vec::new();
    for entry in Object::entries(value.unchecked_ref()).iter() {
        let entry: Array = entry.unchecked_into();
        let island = entry.get(0).as_string().unwrap_or_default();
        let slots = entry.get(1);
        if !slots.is_object() {
            return Err(format!(
                "islandSlots[{island:?}] must be an object of slots"
            ));
        }
        let mut list: Vec<(String, SlotSpec)> = Vec::new();
        for slot in Object::entries(slots.unchecked_ref()).iter() {
            let slot: Array = slot.unchecked_into();
            let name = slot.get(0).as_string().unwrap_or_default();
            let spec = slot.get(1);
            let spec = IslandSlots::parse_spec(
                &island,
                &name,
                string_field(&spec, "ariaLabel"),
                string_field(&spec, "role"),
                string_field(&spec, "name"),
            )?;
            list.push((name, spec));
        }
        islands.push((island, list));
    }
    Ok(IslandSlots { islands })
}

fn parse_origins(value: &JsValue) -> Result<Vec<String>, String> {
    if absent(value) {
        return Ok(Vec::new());
    }
    if !Array::is_array(value) {
        return Err("options.allowedOrigins must be an array of origin strings".into());
    }
    let array: &Array = value.unchecked_ref();
    array
        .iter()
        .map(|o| {
            o.as_string()
                .ok_or_else(|| "options.allowedOrigins must contain only strings".to_string())
        })
        .collect()
}

fn node_type(v: &JsValue) -> Option<u32> {
    Reflect::get(v, &"nodeType".into())
        .ok()?
        .as_f64()
        .map(|n| n as u32)
}

/// The window a root belongs to: a Document's defaultView, else the owner
/// document's.
fn window_of(root: &JsValue) -> Option<Window> {
    let doc = if node_type(root) == Some(9) {
        root.clone()
    } else {
        Reflect::get(root, &"ownerDocument".into()).ok()?
    };
    let view = Reflect::get(&doc, &"defaultView".into()).ok()?;
    (!absent(&view)).then(|| view.unchecked_into())
}

fn port(ports: &JsValue, name: &str) -> Result<Option<JsValue>, String> {
    let p = get(ports, name)?;
    if absent(&p) {
        return Ok(None);
    }
    if !p.is_object() {
        return Err(format!("options.ports.{name} must be an object"));
    }
    Ok(Some(p))
}

pub fn parse(options: &JsValue) -> Result<Options, String> {
    if !absent(options) && !options.is_object() {
        return Err("installPlayable(options) takes an options object".into());
    }
    let global: Option<Window> = web_sys::window();
    let mut root = get(options, "root")?;
    if absent(&root) {
        root = global
            .as_ref()
            .and_then(|w| w.document())
            .map(JsValue::from)
            .ok_or_else(|| "no document to scan: pass options.root".to_string())?;
    }
    if !matches!(node_type(&root), Some(1 | 9 | 11)) {
        return Err("options.root must be a Document, a ShadowRoot or an Element".into());
    }
    let window = get(options, "window")?;
    let window: Window = if absent(&window) {
        window_of(&root)
            .or(global)
            .ok_or_else(|| "no window: pass options.window".to_string())?
    } else if Reflect::get(&window, &"postMessage".into()).is_ok_and(|f| f.is_function()) {
        window.unchecked_into()
    } else {
        return Err("options.window must be a Window".into());
    };
    let capture = get(options, "captureScreenshot")?;
    let capture = if absent(&capture) {
        None
    } else if capture.is_function() {
        Some(capture.unchecked_into())
    } else {
        return Err("options.captureScreenshot must be a function (scope) => image".into());
    };
    let ports = get(options, "ports")?;
    if !absent(&ports) && !ports.is_object() {
        return Err("options.ports must be an object { sense?, bot?, bom? }".into());
    }
    Ok(Options {
        island_slots: parse_slots(&get(options, "islandSlots")?)?,
        allowed_origins: parse_origins(&get(options, "allowedOrigins")?)?,
        sense: port(&ports, "sense")?,
        bot: port(&ports, "bot")?,
        bom: port(&ports, "bom")?,
        root,
        window,
        capture,
    })
}
