use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, Element, ShadowRoot};

use crate::{
    Action, Actionability, DispatchError, Editable, Hit, InputValue, Rect, Refusal, Report, Settled,
};

#[wasm_bindgen(module = "/src/act.js")]
extern "C" {
    #[wasm_bindgen(js_name = inputKind)]
    fn input_kind(el: &JsValue) -> u32;
    #[wasm_bindgen(js_name = missingOptions)]
    fn missing_options(el: &JsValue, values: &Array) -> String;
    #[wasm_bindgen(js_name = twoFrames)]
    fn two_frames(el: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = setValue, catch)]
    fn set_value(el: &JsValue, kind: u32, value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(catch)]
    fn scroll(el: &JsValue, to: Option<String>, bx: f64, by: f64) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn drag(src: &JsValue, dst: &JsValue) -> Result<(), JsValue>;
    fn click(el: &JsValue) -> Option<String>;
    #[wasm_bindgen(js_name = isElement)]
    fn is_element(v: &JsValue) -> bool;
}

/// `v` as an element, of this window or of an iframe's (an `instanceof`
/// check, which `dyn_ref` makes, refuses the latter).
pub fn element(v: &JsValue) -> Option<&Element> {
    is_element(v).then(|| v.unchecked_ref())
}

/// What each kind of editable thing takes, by `inputKind`'s number (act.js):
/// 0 none, 1 text, 2 contenteditable, 3 checkbox, 4 radio, 5 select,
/// 6 multiple select. The `BAD_REQUEST` message when the value does not fit.
const TAKES: [&str; 7] = [
    "",
    "a text field takes a string",
    "a contenteditable takes a string",
    "a checkbox takes a boolean",
    "a radio takes a boolean",
    "a select takes a string (an option value)",
    "a multiple select takes a string or a list of strings (option values)",
];
const CHECKBOX: u32 = 3;
const RADIO: u32 = 4;
const SELECT: u32 = 5;
const SELECT_MULTIPLE: u32 = 6;

fn rect(el: &Element) -> Rect {
    let r = el.get_bounding_client_rect();
    Rect {
        x: r.x(),
        y: r.y(),
        width: r.width(),
        height: r.height(),
    }
}

/// After the wait: the box, the viewport of `el`'s own window, and the
/// element a hit test finds at the box's centre (in `el`'s document or
/// shadow root, whichever holds it).
fn settled(el: &Element, before: Rect) -> Settled {
    let after = rect(el);
    let view = el.owner_document().and_then(|d| d.default_view());
    // A detached document has no window: no viewport, so no hit test.
    let size = |read: fn(&web_sys::Window) -> Result<JsValue, JsValue>| {
        view.as_ref()
            .and_then(|w| read(w).ok())
            .and_then(|n| n.as_f64())
            .unwrap_or(0.0)
    };
    let (x, y) = after.centre();
    let root = el.get_root_node();
    // A document (9) or a shadow root (11): both have elementFromPoint. By
    // node type, not `instanceof`, which an iframe's document would fail.
    let found = match root.node_type() {
        9 => root
            .unchecked_ref::<Document>()
            .element_from_point(x as f32, y as f32),
        11 => root
            .unchecked_ref::<ShadowRoot>()
            .element_from_point(x as f32, y as f32),
        _ => None,
    };
    let hit = found.map(|h| Hit {
        inside: el.contains(Some(&h)),
        tag: h.tag_name(),
        id: h.id(),
        class: h.get_attribute("class").unwrap_or_default(),
    });
    Settled {
        before,
        after,
        viewport_width: size(web_sys::Window::inner_width),
        viewport_height: size(web_sys::Window::inner_height),
        hit,
    }
}

/// What says `el` is read-only.
fn editable(el: &Element) -> Editable {
    let v: &JsValue = el.as_ref();
    Editable {
        read_only: js_sys::Reflect::get(v, &"readOnly".into()).is_ok_and(|b| b == JsValue::TRUE),
        aria_read_only: el.get_attribute("aria-readonly").as_deref() == Some("true"),
        content_editable: js_sys::Reflect::get(v, &"isContentEditable".into())
            .is_ok_and(|b| b != JsValue::FALSE),
    }
}

/// What is judged before the wait: attached and visible.
fn before_wait(el: &Element, target: &JsValue) -> Actionability {
    Actionability {
        connected: el.is_connected(),
        visible: sense::dom::is_visible(target),
        settled: None,
        enabled: true,
        editable: None,
    }
}

/// Everything, on what the page is after the wait (editable only for `input`).
fn after_wait(el: &Element, target: &JsValue, before: Rect, input: bool) -> Actionability {
    Actionability {
        connected: el.is_connected(),
        visible: sense::dom::is_visible(target),
        settled: Some(settled(el, before)),
        enabled: sense::dom::is_enabled(target),
        editable: input.then(|| editable(el)),
    }
}

/// The verdict as a refusal, said of the target or of a drag's drop target.
fn judge(facts: Actionability, drop_target: bool) -> Result<(), Refusal> {
    facts.verdict().map_err(|e| {
        not_actionable(if drop_target {
            e.of_drop_target()
        } else {
            e.to_string()
        })
    })
}

/// Dispatches on live elements.
#[derive(Debug, Default, Clone, Copy)]
pub struct DomBot;

fn not_actionable(why: impl Into<String>) -> Refusal {
    Refusal::NotActionable(why.into())
}

/// A thrown value's message.
fn message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

fn thrown(e: JsValue) -> DispatchError {
    DispatchError::Threw(message(&e))
}

fn strings(values: &[String]) -> Array {
    values.iter().map(|v| JsValue::from_str(v)).collect()
}

impl DomBot {
    /// Does the input value fit the element? (`BAD_REQUEST` when not.) The
    /// element's kind as `inputKind` numbers it (an index into [`TAKES`]).
    fn fits(&self, target: &JsValue, value: &InputValue) -> Result<u32, Refusal> {
        let kind = input_kind(target);
        let takes = match TAKES.get(kind as usize) {
            Some(takes) if kind > 0 => takes,
            _ => {
                return Err(not_actionable(
                    "the element is not editable (not a form field or contenteditable)",
                ))
            }
        };
        let fits = match value {
            InputValue::Bool(_) => kind == CHECKBOX || kind == RADIO,
            InputValue::Text(_) => kind != CHECKBOX && kind != RADIO,
            InputValue::List(l) => kind == SELECT_MULTIPLE || (kind == SELECT && l.len() == 1),
        };
        if !fits {
            return Err(Refusal::BadRequest(takes.to_string()));
        }
        if kind >= SELECT {
            let wanted = match value {
                InputValue::Text(t) => strings(std::slice::from_ref(t)),
                InputValue::List(l) => strings(l),
                InputValue::Bool(_) => Array::new(),
            };
            let missing = missing_options(target, &wanted);
            if !missing.is_empty() {
                return Err(Refusal::BadRequest(format!(
                    "no option with value {missing}"
                )));
            }
        }
        Ok(kind)
    }

    /// Playwright-grade actionability, in order: attached, visible, stable,
    /// receives events, enabled, and for input editable. The payload must fit
    /// the element first (`BAD_REQUEST`).
    pub async fn check_action(
        &self,
        target: &JsValue,
        action: &Action<JsValue>,
    ) -> Result<(), Refusal> {
        let Some(el) = element(target) else {
            return Err(not_actionable("the target is not an element"));
        };
        if let Action::Input(value) = action {
            self.fits(target, value)?;
        }
        // A drag's drop target is judged by the same rule, at its own centre.
        let dst = match action {
            Action::Drag { to } => match element(to) {
                Some(dst) => Some((dst, to)),
                None => return Err(not_actionable("the drop target is not an element")),
            },
            _ => None,
        };
        // Attached and visible first: nothing waits for a target that
        // cannot act. Then the same rule over what the wait found.
        judge(before_wait(el, target), false)?;
        if let Some((dst, to)) = dst {
            judge(before_wait(dst, to), true)?;
        }
        let before = rect(el);
        let dst = dst.map(|(dst, to)| (dst, to, rect(dst)));
        JsFuture::from(two_frames(target))
            .await
            .map_err(|e| not_actionable(thrown(e).to_string()))?;
        let input = matches!(action, Action::Input(_));
        judge(after_wait(el, target, before, input), false)?;
        if let Some((dst, to, before)) = dst {
            judge(after_wait(dst, to, before, false), true)?;
        }
        Ok(())
    }

    /// Exactly one dispatch of the action.
    pub fn dispatch(
        &self,
        target: &JsValue,
        action: &Action<JsValue>,
    ) -> Result<Report, DispatchError> {
        match action {
            Action::Click => self.click(target).map(|()| Report::Done),
            Action::Input(value) => {
                let kind = self
                    .fits(target, value)
                    .map_err(|r| DispatchError::Failed(r.reason().to_string()))?;
                let js = match value {
                    InputValue::Text(t) => JsValue::from_str(t),
                    InputValue::Bool(b) => JsValue::from_bool(*b),
                    InputValue::List(l) => strings(l).into(),
                };
                set_value(target, kind, &js).map_err(thrown)?;
                // As Playwright's check(): a checkbox or radio must end in
                // the state asked (a handler may cancel the click).
                if let InputValue::Bool(wanted) = value {
                    let checked = js_sys::Reflect::get(target, &"checked".into())
                        .is_ok_and(|c| c == JsValue::TRUE);
                    if checked != *wanted {
                        return Err(DispatchError::Failed(format!(
                            "the {} is still {} after the event: the page kept it from changing",
                            if kind == RADIO { "radio" } else { "checkbox" },
                            if checked { "checked" } else { "unchecked" }
                        )));
                    }
                }
                Ok(Report::Done)
            }
            Action::Scroll { to, by } => {
                let to = to.map(|a| a.as_str().to_string());
                let (bx, by) = by.unwrap_or((0.0, 0.0));
                let pos = scroll(target, to, bx, by).map_err(thrown)?;
                let n = |i: u32| pos.get(i).as_f64().unwrap_or(0.0) as i64;
                Ok(Report::Scrolled {
                    left: n(0),
                    top: n(1),
                })
            }
            Action::Drag { to } => drag(target, to).map(|()| Report::Done).map_err(thrown),
        }
    }

    /// Exactly one click: `HTMLElement.click()` (activation behaviour included),
    /// or a synthetic `click` MouseEvent for other elements (SVG…). In act.js:
    /// one import instead of eight web-sys calls.
    pub fn click(&self, target: &JsValue) -> Result<(), DispatchError> {
        match click(target) {
            Some(why) => Err(DispatchError::Failed(why)),
            None => Ok(()),
        }
    }
}
