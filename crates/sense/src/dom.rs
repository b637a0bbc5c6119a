//! The live-DOM side of sense: one bulk gather of raw facts per snapshot and
//! one bulk read of the details Rust asks for (see `gather.js`, `wire.rs` and
//! `read.rs`; a third only for icon-only elements), then the pure
//! [`build`](crate::build). Keeps the targets
//! of the latest read so a run resolves against that same, fresh read.

use std::cell::RefCell;

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::{build, read, rules, wire, Beyond, FrameBound, GatherError, IslandSlots, Snapshot};

#[wasm_bindgen(module = "/src/gather.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn gather(root: &JsValue, selector: &str, ancestors: &str) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn details(
        els: &JsValue,
        asks: &[u32],
        text_max: u32,
        hosts: &JsValue,
    ) -> Result<Array, JsValue>;
    // Both `catch`: they call what the page's prototypes hold now
    // (`checkVisibility`, `getBoundingClientRect`, `closest`…), which a page
    // script may have replaced with one that throws.
    #[wasm_bindgen(js_name = isVisible, catch)]
    fn is_visible_js(el: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_name = disabledFacts, catch)]
    fn disabled_facts(el: &JsValue, disabling: &str) -> Result<u32, JsValue>;
    #[wasm_bindgen(js_name = boxOf, catch)]
    fn box_of(el: &JsValue) -> Result<JsValue, JsValue>;
    fn checks(disabling: &str) -> Array;
    /// The windows of a document's frames, those in its open shadow
    /// roots included (`Window.frames` leaves them out).
    #[wasm_bindgen(js_name = frameWindows, catch)]
    fn frame_windows(doc: &JsValue) -> Result<Array, JsValue>;
}

/// Whether an element is visible by the snapshot's rule (connected, rendered,
/// not visibility:hidden, non-zero size); `Err` is what the page threw.
pub fn is_visible(el: &JsValue) -> Result<bool, JsValue> {
    is_visible_js(el)
}

/// Where an element shows and takes clicks, as `{ x, y, width, height }`:
/// its bounding box, or for one rendered without a box of its own (a
/// `display: contents` element, an `<area>`) the box [`is_visible`] judges
/// it by; `Err` is what the page threw.
pub fn bounding_box(el: &JsValue) -> Result<JsValue, JsValue> {
    box_of(el)
}

/// Whether an element is enabled by the snapshot's rule
/// ([`rules::is_disabled`] on the facts gather.js reads of it); `Err` is
/// what the page threw.
pub fn is_enabled(el: &JsValue) -> Result<bool, JsValue> {
    let bits = disabled_facts(el, rules::DISABLING)?;
    Ok(!rules::is_disabled(&wire::Disabling::from_bits(bits)))
}

/// `[isVisible, disabledFacts]` as JS functions, for bulk readers in other
/// crates' JS snippets: the visibility rule, and the facts of the disabled
/// one (as [`wire::Disabling::from_bits`] reads them), applied without a
/// wasm call per element.
pub fn visibility_checks() -> Array {
    checks(rules::DISABLING)
}

/// What the page threw, for a message: an Error's `message`, or the value
/// itself when it threw a string. The one reading of a thrown value for
/// every crate (bot's refusals, the shell's errors, sense's own).
pub fn thrown_message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "a non-Error value was thrown".into())
}

/// What a read threw, as [`GatherError::Threw`].
fn threw(e: &JsValue) -> GatherError {
    GatherError::Threw(thrown_message(e))
}

fn malformed() -> GatherError {
    GatherError::Malformed
}

/// The `[text, ints, …]` answer of gather.js as a string and integers.
fn unpack(out: &Array) -> Result<(String, Vec<u32>), GatherError> {
    let bytes = out.get(0).unchecked_into::<Uint8Array>().to_vec();
    let text = String::from_utf8(bytes).map_err(|_| malformed())?;
    // The integers come as the bytes of a Uint32Array (little-endian, as
    // wasm memory): one typed-array type crosses, not two.
    let raw = out.get(1).unchecked_into::<Uint8Array>().to_vec();
    let mut ints = Vec::with_capacity(raw.len() / 4);
    for b in raw.chunks_exact(4) {
        ints.push(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    }
    Ok((text, ints))
}

/// The details `asks` asks of `els` (none asked: nothing read); `hosts`:
/// the shadow hosts the gather found, where it found the document's.
fn read_details(
    els: &JsValue,
    asks: &[u32],
    hosts: &JsValue,
) -> Result<(String, Vec<u32>), GatherError> {
    if asks.is_empty() {
        return Ok((String::new(), Vec::new()));
    }
    let out = details(els, asks, rules::TEXT_READ_MAX, hosts).map_err(|e| threw(&e))?;
    unpack(&out)
}

/// Reads the menu of one scan root (Document, ShadowRoot or Element).
pub struct DomSense {
    root: JsValue,
    slots: IslandSlots,
    /// The gather's query: images only when a slot may be one.
    candidates: &'static str,
    last: RefCell<Option<Targets>>,
}

/// Menu id → target element of the latest read. The ids are copied into one
/// string rather than keeping a clone of the whole snapshot.
struct Targets {
    ids: String,
    /// Per menu item: end of its id in `ids`, and its node index (ambiguous: none).
    items: Vec<(usize, Option<usize>)>,
    els: Array,
}

impl DomSense {
    pub fn new(root: JsValue, slots: IslandSlots) -> Self {
        let candidates = match slots.asks_role(rules::IMG_ROLE) {
            true => rules::CANDIDATES_WITH_IMAGES,
            false => rules::CANDIDATES,
        };
        Self {
            root,
            slots,
            candidates,
            last: RefCell::new(None),
        }
    }

    pub fn root(&self) -> &JsValue {
        &self.root
    }

    /// Reads the menu afresh from the DOM. Changes nothing in the page.
    pub fn snapshot(&self) -> Result<Snapshot, GatherError> {
        let out = gather(&self.root, self.candidates, rules::DISABLING).map_err(|e| threw(&e))?;
        let (text, ints) = unpack(&out)?;
        // An Array, or the query's NodeList: both index the same way.
        let els = out.get(2);
        let root_disabled = out.get(3).is_truthy();
        let hosts = out.get(4);
        let facts = wire::facts(&text, &ints).ok_or_else(malformed)?;
        let plan = read::plan(&facts);
        let (text, ints) = read_details(&els, plan.asks(), &hosts)?;
        let answers = wire::details(&text, &ints).ok_or_else(malformed)?;
        let mut reading =
            read::decide(&facts, plan, &answers, root_disabled).ok_or_else(malformed)?;
        if !reading.fallback_asks().is_empty() {
            let (text, ints) = read_details(&els, reading.fallback_asks(), &hosts)?;
            let answers = wire::details(&text, &ints).ok_or_else(malformed)?;
            reading.with_fallbacks(&answers).ok_or_else(malformed)?;
        }
        let nodes = reading.nodes(&facts);
        let built = build(&nodes, &self.slots);
        let mut ids = String::new();
        let items = built
            .snapshot
            .menu
            .iter()
            .zip(&built.targets)
            .map(|(m, t)| {
                ids.push_str(&m.id);
                (ids.len(), *t)
            })
            .collect();
        let els: Array = els.unchecked_into();
        *self.last.borrow_mut() = Some(Targets { ids, items, els });
        Ok(built.snapshot)
    }

    /// The element of menu item `id` in the latest read (None when the id is
    /// absent or ambiguous).
    pub fn resolve(&self, id: &str) -> Option<JsValue> {
        let last = self.last.borrow();
        let last = last.as_ref()?;
        let mut start = 0;
        for &(end, target) in &last.items {
            if last.ids.get(start..end) == Some(id) {
                let el = last.els.get(u32::try_from(target?).ok()?);
                return (!el.is_undefined()).then_some(el);
            }
            start = end;
        }
        None
    }
}

/// The reload markers (`dirty`, `noReload`) a reload of `root`'s page would
/// override beyond `root`: the rest of its document, when `root` is
/// narrower, and the documents of its same-origin frames, recursively,
/// those in open shadow roots included (a frame of another origin cannot be
/// read: its work is its own to guard). Past [`rules::FRAMES_MAX`] frames or
/// [`rules::FRAME_DEPTH`] levels it stops, with `unread` set: a frame left
/// unread may hold unsaved work.
pub fn beyond_root(root: &JsValue) -> Result<Beyond, GatherError> {
    let field = |obj: &JsValue, key: &JsValue| js_sys::Reflect::get(obj, key).ok();
    let object = |v: Option<JsValue>| v.filter(JsValue::is_object);
    let mut out = Beyond::default();
    let document = match field(root, &"nodeType".into()).and_then(|t| t.as_f64()) {
        Some(9.0) => root.clone(),
        _ => match object(field(root, &"ownerDocument".into())) {
            Some(d) => d,
            None => return Ok(out),
        },
    };
    // The markers alone (one gather, no details): dirty as the snapshot
    // reads it (exactly "true"; named by a usable id, else ""), noReload
    // by presence.
    let read = |doc: &JsValue, out: &mut Beyond| -> Result<(), GatherError> {
        let got = gather(doc, rules::RELOAD_MARKERS, rules::DISABLING).map_err(|e| threw(&e))?;
        let (text, ints) = unpack(&got)?;
        for f in wire::facts(&text, &ints).ok_or_else(malformed)? {
            if f.dirty == Some("true") {
                out.dirty.push(
                    crate::build::usable_id(f.id)
                        .unwrap_or_default()
                        .to_string(),
                );
            }
            out.no_reload |= f.has(wire::FACT_NORELOAD);
        }
        Ok(())
    };
    if document != *root {
        read(&document, &mut out)?;
    }
    let mut docs = vec![(document, 0)];
    let mut frames = 0;
    while let Some((doc, depth)) = docs.pop() {
        for window in frame_windows(&doc).map_err(|e| threw(&e))?.iter() {
            // Another origin's document throws: skipped.
            let Some(child) = object(field(&window, &"document".into())) else {
                continue;
            };
            if frames >= rules::FRAMES_MAX || depth >= rules::FRAME_DEPTH {
                out.unread = Some(match frames >= rules::FRAMES_MAX {
                    true => FrameBound::Count,
                    false => FrameBound::Depth,
                });
                return Ok(out);
            }
            frames += 1;
            read(&child, &mut out)?;
            docs.push((child, depth + 1));
        }
    }
    Ok(out)
}
