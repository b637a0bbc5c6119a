use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, Element, ShadowRoot};

use crate::{
    disabled_option, missing_options, Action, Actionability, DispatchError, Editable, Field,
    FieldFacts, Hit, InputValue, Rect, Refusal, Report, Settled,
};

#[wasm_bindgen(module = "/src/act.js")]
extern "C" {
    #[wasm_bindgen(js_name = twoFrames)]
    fn two_frames(el: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = setValue, catch)]
    fn set_value(el: &JsValue, kind: u32, value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(catch)]
    fn scroll(el: &JsValue, to: Option<String>, bx: f64, by: f64) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn drag(src: &JsValue, dst: &JsValue) -> Result<(), JsValue>;
    // Both `catch`: a page may override what they call (a custom element's
    // own click(); a port's target whose properties throw). A throw must
    // come back as an error, never unwind through the request, which then
    // never settles and holds every later request behind it.
    #[wasm_bindgen(catch)]
    fn click(el: &JsValue) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = isElement, catch)]
    fn is_element(v: &JsValue) -> Result<bool, JsValue>;
}

/// `v` as an element, of this window or of an iframe's (an `instanceof`
/// check, which `dyn_ref` makes, refuses the latter).
pub fn element(v: &JsValue) -> Option<&Element> {
    is_element(v).unwrap_or(false).then(|| v.unchecked_ref())
}

/// A property of `v` (`undefined` when reading it throws).
fn prop(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// The facts [`Field::of`] judges, read off `el`.
fn field(el: &Element) -> Result<Field, String> {
    let input_type = el.get_attribute("type");
    let tag = el.tag_name();
    Field::of(FieldFacts {
        tag: &tag,
        input_type: input_type.as_deref(),
        multiple: prop(el, "multiple") == JsValue::TRUE,
        content_editable: prop(el, "isContentEditable") == JsValue::TRUE,
    })
}

/// A select's options, in order: each one's value, and whether it is
/// disabled (its own `disabled`, or its optgroup's: `:disabled` covers both).
fn options(el: &Element) -> Vec<(String, bool)> {
    let options = prop(el, "options");
    // An HTMLOptionsCollection is array-like: Array.from reads it once.
    js_sys::Array::from(&options)
        .iter()
        .map(|o| {
            let value = prop(&o, "value").as_string().unwrap_or_default();
            // Unchecked: an option of an iframe's select fails `instanceof`.
            let disabled = o
                .unchecked_ref::<Element>()
                .matches(":disabled")
                .unwrap_or(false);
            (value, disabled)
        })
        .collect()
}

/// What an `<input>` of `el`'s type makes of `text`: a detached input of the
/// same type, in the same document, is given the text and read back (the
/// browser's own value sanitization; nothing of the page is touched).
fn sanitized(el: &Element, text: &str) -> Option<(String, String)> {
    let doc = el.owner_document()?;
    let probe = doc.create_element("input").ok()?;
    let kind = prop(el, "type");
    js_sys::Reflect::set(&probe, &"type".into(), &kind).ok()?;
    // An email field with `multiple` sanitizes each address of a list.
    js_sys::Reflect::set(&probe, &"multiple".into(), &prop(el, "multiple")).ok()?;
    js_sys::Reflect::set(&probe, &"value".into(), &JsValue::from_str(text)).ok()?;
    Some((prop(&probe, "value").as_string()?, kind.as_string()?))
}

fn rect(el: &Element) -> Rect {
    let r = el.get_bounding_client_rect();
    Rect {
        x: r.x(),
        y: r.y(),
        width: r.width(),
        height: r.height(),
    }
}

/// After the wait: the box, the viewport of `el`'s own window, and (when
/// `hit_test`) the element a hit test finds at the box's centre (in `el`'s
/// document or shadow root, whichever holds it).
fn settled(el: &Element, before: Rect, hit_test: bool) -> Settled {
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
        _ if !hit_test => None,
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

/// Everything, on what the page is after the wait (editable only for
/// `input`; the hit test only for acts that dispatch pointer or input
/// events at the element).
fn after_wait(
    el: &Element,
    target: &JsValue,
    before: Rect,
    input: bool,
    hit_test: bool,
) -> Actionability {
    Actionability {
        connected: el.is_connected(),
        visible: sense::dom::is_visible(target),
        settled: Some(settled(el, before, hit_test)),
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
    /// Does the input value fit the element? (`BAD_REQUEST` when not: the
    /// wrong type, an option the select lacks, a text an `<input>` would
    /// not hold as it is.)
    fn fits(&self, el: &Element, value: &InputValue) -> Result<Field, Refusal> {
        let kind = field(el).map_err(not_actionable)?;
        if !kind.fits(value) {
            return Err(Refusal::BadRequest(kind.takes().to_string()));
        }
        let wanted = match value {
            InputValue::Text(t) => std::slice::from_ref(t),
            InputValue::List(l) => l.as_slice(),
            InputValue::Bool(_) => &[],
        };
        if matches!(kind, Field::Select | Field::SelectMultiple) {
            let options = options(el);
            if let Some(missing) = missing_options(&options, wanted) {
                return Err(Refusal::BadRequest(format!(
                    "no option with value {missing}"
                )));
            }
            if let Some(why) = disabled_option(&options, wanted) {
                return Err(not_actionable(why));
            }
        }
        if let (Field::Text, "INPUT", [text]) = (kind, el.tag_name().as_str(), wanted) {
            if let Some((held, input_type)) = sanitized(el, text) {
                Field::holds(text, &held, &input_type).map_err(Refusal::BadRequest)?;
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
            self.fits(el, value)?;
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
        // A scroll moves the element's scroll container and dispatches
        // nothing at the element: what covers its centre does not matter,
        // and a row its own container clips is exactly what it brings in.
        let hit_test = !matches!(action, Action::Scroll { .. });
        judge(after_wait(el, target, before, input, hit_test), false)?;
        if let Some((dst, to, before)) = dst {
            judge(after_wait(dst, to, before, false, true), true)?;
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
                let el = element(target)
                    .ok_or_else(|| DispatchError::Failed("the target is not an element".into()))?;
                let kind = self
                    .fits(el, value)
                    .map_err(|r| DispatchError::Failed(r.reason().to_string()))?;
                let js = match value {
                    InputValue::Text(t) => JsValue::from_str(t),
                    InputValue::Bool(b) => JsValue::from_bool(*b),
                    InputValue::List(l) => strings(l).into(),
                };
                set_value(target, kind as u32, &js).map_err(thrown)?;
                // As Playwright's check(): a checkbox or radio must end in
                // the state asked (a handler may cancel the click).
                if let InputValue::Bool(wanted) = value {
                    let checked = js_sys::Reflect::get(target, &"checked".into())
                        .is_ok_and(|c| c == JsValue::TRUE);
                    if checked != *wanted {
                        return Err(DispatchError::Failed(format!(
                            "the {} is still {} after the event: the page kept it from changing",
                            if kind == Field::Radio {
                                "radio"
                            } else {
                                "checkbox"
                            },
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
            Ok(Some(why)) => Err(DispatchError::Failed(why)),
            Ok(None) => Ok(()),
            Err(e) => Err(thrown(e)),
        }
    }
}
