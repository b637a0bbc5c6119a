//! `IInstallPlayableOptions`, read once at install. Wrong types are clear
//! TypeErrors at install time rather than surprises at the first request.

use js_sys::{Array, Function, Object, Reflect};
use sense::{IslandSlots, SlotSpec};
use wasm_bindgen::prelude::*;
use web_sys::Window;

/// An error message: static text needs no allocation.
pub type Msg = std::borrow::Cow<'static, str>;

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

/// `obj[key]`; `None` when `obj` or the value is undefined or null.
fn field(obj: &JsValue, key: &str) -> Result<Option<JsValue>, Msg> {
    if absent(obj) {
        return Ok(None);
    }
    let v = Reflect::get(obj, &key.into()).map_err(|_| format!("reading options.{key} threw"))?;
    Ok((!absent(&v)).then_some(v))
}

fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

fn string_field(obj: &JsValue, key: &str) -> Option<String> {
    Reflect::get(obj, &key.into()).ok()?.as_string()
}

fn parse_slots(value: Option<JsValue>) -> Result<IslandSlots, Msg> {
    let mut islands = Vec::new();
    let Some(value) = value else {
        return Ok(IslandSlots { islands });
    };
    if !value.is_object() {
        return Err(
            "options.islandSlots must be an object: { [islandId]: { [slotName]: spec } }".into(),
        );
    }
    for entry in Object::entries(value.unchecked_ref()).iter() {
        let entry: Array = entry.unchecked_into();
        let island = entry.get(0).as_string().unwrap_or_default();
        let slots = entry.get(1);
        if !slots.is_object() {
            return Err(format!(
                "islandSlots[{}] must be an object of slots",
                json::quote(&island)
            )
            .into());
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

fn parse_origins(value: Option<JsValue>) -> Result<Vec<String>, Msg> {
    let mut origins = Vec::new();
    let Some(value) = value else {
        return Ok(origins);
    };
    if !Array::is_array(&value) {
        return Err("options.allowedOrigins must be an array of origin strings".into());
    }
    for origin in value.unchecked_ref::<Array>().iter() {
        match origin.as_string() {
            Some(origin) => origins.push(origin),
            None => return Err("options.allowedOrigins must contain only strings".into()),
        }
    }
    Ok(origins)
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

fn port(ports: &Option<JsValue>, name: &str) -> Result<Option<JsValue>, Msg> {
    let Some(ports) = ports else {
        return Ok(None);
    };
    let p = field(ports, name)?;
    if p.as_ref().is_some_and(|p| !p.is_object()) {
        return Err(format!("options.ports.{name} must be an object").into());
    }
    Ok(p)
}

fn is_window(v: &JsValue) -> bool {
    Reflect::get(v, &"postMessage".into()).is_ok_and(|f| f.is_function())
}

pub fn parse(options: &JsValue) -> Result<Options, Msg> {
    if !absent(options) && !options.is_object() {
        return Err("installPlayable(options) takes an options object".into());
    }
    // The global object is the page's window in a document (checked the
    // way options.window is: a Window posts messages).
    let global = js_sys::global();
    let root = match field(options, "root")? {
        Some(root) => root,
        // (The global's document getter does not throw.)
        None => field(&global, "document")?.ok_or("no document to scan: pass options.root")?,
    };
    if !matches!(node_type(&root), Some(1 | 9 | 11)) {
        return Err("options.root must be a Document, a ShadowRoot or an Element".into());
    }
    let window: Window = match field(options, "window")? {
        None => window_of(&root)
            .or_else(|| is_window(&global).then(|| global.unchecked_into()))
            .ok_or("no window: pass options.window")?,
        Some(w) if is_window(&w) => w.unchecked_into(),
        Some(_) => return Err("options.window must be a Window".into()),
    };
    let capture = match field(options, "captureScreenshot")? {
        Some(f) if !f.is_function() => {
            return Err("options.captureScreenshot must be a function (scope) => image".into())
        }
        f => f.map(JsCast::unchecked_into),
    };
    let mut parsed = Options {
        root,
        window,
        capture,
        island_slots: IslandSlots::default(),
        allowed_origins: Vec::new(),
        sense: None,
        bot: None,
        bom: None,
    };
    parse_rest(options, &mut parsed)?;
    Ok(parsed)
}

/// The options after `captureScreenshot`, in order, into `parsed`.
fn parse_rest(options: &JsValue, parsed: &mut Options) -> Result<(), Msg> {
    let ports = field(options, "ports")?;
    if ports.as_ref().is_some_and(|p| !p.is_object()) {
        return Err("options.ports must be an object { sense?, bot?, bom? }".into());
    }
    parsed.island_slots = parse_slots(field(options, "islandSlots")?)?;
    parsed.allowed_origins = parse_origins(field(options, "allowedOrigins")?)?;
    parsed.sense = port(&ports, "sense")?;
    parsed.bot = port(&ports, "bot")?;
    parsed.bom = port(&ports, "bom")?;
    Ok(())
}
