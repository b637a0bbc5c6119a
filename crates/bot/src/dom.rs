use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::{
    options_hold, Action, Actionability, Align, DispatchError, Editable, Field, FieldFacts, Hit,
    InputValue, OptionsRefusal, Rect, Refusal, Report, Settled, Unactionable,
};

#[wasm_bindgen(module = "/src/act.js")]
extern "C" {
    #[wasm_bindgen(js_name = twoFrames)]
    fn two_frames(el: &JsValue) -> Promise;
    /// False when the page cancelled the text's `beforeinput`: nothing was set.
    #[wasm_bindgen(js_name = setValue, catch)]
    fn set_value(el: &JsValue, kind: u32, value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch)]
    fn scroll(el: &JsValue, fraction: Option<f64>, bx: f64, by: f64) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn drag(src: &JsValue, dst: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = fieldFacts, catch)]
    fn field_facts(el: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_name = optionFacts, catch)]
    fn option_facts(el: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn sanitize(el: &JsValue, text: &str) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_name = hitAt, catch)]
    fn hit_facts(el: &JsValue, x: f64, y: f64) -> Result<JsValue, JsValue>;
    // Both `catch`: a page may override what they call (a custom element's
    // own click(); a port's target whose properties throw). A throw must
    // come back as an error, never unwind through the request, which then
    // never settles and holds every later request behind it.
    #[wasm_bindgen(catch)]
    fn click(el: &JsValue) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = isElement, catch)]
    fn is_element(v: &JsValue) -> Result<bool, JsValue>;
}

// What the target is read through: each method and getter is whatever the
// page's prototypes hold now, and a page script may have replaced any of
// them (`getBoundingClientRect`, the `tagName` getter…, and what act.js
// `hitAt` calls: `elementFromPoint`, `contains`…) with one that throws. All
// are `catch`, for the same reason as act.js's imports: a throw is an `Err`
// (the target cannot be judged: NOT_ACTIONABLE), never an unwind through
// the request.
#[wasm_bindgen]
extern "C" {
    /// A node of the page: an element, a document or a shadow root.
    pub type PageNode;
    #[wasm_bindgen(method, catch, getter, js_name = isConnected)]
    fn is_connected(this: &PageNode) -> Result<bool, JsValue>;
    #[wasm_bindgen(method, catch, getter, js_name = ownerDocument)]
    fn owner_document(this: &PageNode) -> Result<Option<PageNode>, JsValue>;
    /// A document's window (null when it has none).
    #[wasm_bindgen(method, catch, getter, js_name = defaultView)]
    fn default_view(this: &PageNode) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = getAttribute)]
    fn get_attribute(this: &PageNode, name: &str) -> Result<Option<String>, JsValue>;
}

/// `v` as an element, of this window or of an iframe's (an `instanceof`
/// check, which `dyn_ref` makes, refuses the latter).
pub fn element(v: &JsValue) -> Option<&PageNode> {
    is_element(v).unwrap_or(false).then(|| v.unchecked_ref())
}

/// A property of `v`; `Err` is what reading it threw.
fn get(v: &JsValue, name: &str) -> Result<JsValue, JsValue> {
    Reflect::get(v, &JsValue::from_str(name))
}

/// A number property of `v` (0 when `v` is no object or it is no number).
fn number(v: &JsValue, name: &str) -> Result<f64, JsValue> {
    if !v.is_object() {
        return Ok(0.0);
    }
    Ok(get(v, name)?.as_f64().unwrap_or(0.0))
}

/// Why `el` cannot be judged: the page threw while it was read.
fn unreadable(e: JsValue) -> Unactionable {
    Unactionable::Unreadable(message(&e))
}

/// An error's words: one `to_string`, through `dyn Display`, for every
/// error type here (rather than one copy per type).
fn words(e: &dyn std::fmt::Display) -> String {
    e.to_string()
}

/// A select's options, in order: each one's value, and whether it is
/// disabled (act.js `optionFacts`, which reads them flat).
fn options(el: &PageNode) -> Result<Vec<(String, bool)>, JsValue> {
    let flat = option_facts(el)?;
    Ok((0..flat.length() / 2)
        .map(|i| {
            let value = flat.get(2 * i).as_string().unwrap_or_default();
            (value, flat.get(2 * i + 1) == JsValue::TRUE)
        })
        .collect())
}

/// What an `<input>` of `el`'s type makes of `text`, and that type (act.js
/// `sanitize`; None when the page threw while it was read).
fn sanitized(el: &PageNode, text: &str) -> Option<(String, String)> {
    let read = sanitize(el, text).ok()?;
    Some((read.get(0).as_string()?, read.get(1).as_string()?))
}

/// `el`'s box: where its centre is and what must stay put (a `display:
/// contents` element's and an `<area>`'s included, sense's `bounding_box`).
fn rect(el: &PageNode) -> Result<Rect, JsValue> {
    let r = sense::dom::bounding_box(el)?;
    Ok(Rect {
        x: number(&r, "x")?,
        y: number(&r, "y")?,
        width: number(&r, "width")?,
        height: number(&r, "height")?,
    })
}

/// The element a hit test finds at (`x`, `y`) in `el`'s document or shadow
/// root, whichever holds it: act.js `hitAt`'s facts, read in one call, and
/// (for an open shadow host `el`) the innermost element at the point, which
/// a click may go to ([`Settled::clicks_hit`]).
fn hit_at(el: &PageNode, (x, y): (f64, f64)) -> Result<Option<(Hit, JsValue)>, JsValue> {
    let facts = hit_facts(el, x, y)?;
    if !Array::is_array(&facts) {
        return Ok(None);
    }
    let facts: Array = facts.unchecked_into();
    let text = |i| facts.get(i).as_string().unwrap_or_default();
    let yes = |i| facts.get(i).is_truthy();
    let hit = Hit {
        tag: text(0),
        id: text(1),
        class: text(2),
        inside: yes(3),
        pinned: yes(4),
        pin_holds_target: yes(5),
        in_shadow: yes(6),
    };
    Ok(Some((hit, facts.get(7))))
}

/// After the wait: the box, the viewport of `el`'s own window, and (when
/// `hit_test`) the element a hit test finds at the [`crate::probe`] point
/// of the box's centre, with the innermost element there (see [`hit_at`]).
fn settled(
    el: &PageNode,
    before: Rect,
    hit_test: bool,
) -> Result<(Settled, Option<JsValue>), JsValue> {
    let after = rect(el)?;
    // A detached document has no window: no viewport, so no hit test.
    let view = match el.owner_document()? {
        Some(doc) => doc.default_view()?,
        None => JsValue::NULL,
    };
    let (width, height) = (number(&view, "innerWidth")?, number(&view, "innerHeight")?);
    let (hit, aim) = match crate::probe(after.centre(), width, height) {
        Some(point) if hit_test => hit_at(el, point)?.unzip(),
        _ => (None, None),
    };
    let settled = Settled {
        before,
        after,
        viewport_width: width,
        viewport_height: height,
        hit,
    };
    Ok((settled, aim))
}

/// Where a click run's one click goes: into the target's shadow tree when
/// [`Settled::clicks_hit`] says so, else the target itself. Read right
/// before the click, and only for an open shadow host: any other target
/// is clicked with nothing more read. A read the page makes throw leaves
/// the click on the target.
fn click_target(target: &JsValue) -> JsValue {
    let aim = || -> Result<Option<JsValue>, JsValue> {
        // No shadow root (or no element: reading it throws).
        if !get(target, "shadowRoot")?.is_object() {
            return Ok(None);
        }
        // No `before`: only the box now and the hit test count.
        let (settled, aim) = settled(target.unchecked_ref(), Rect::default(), true)?;
        Ok(aim.filter(|_| settled.clicks_hit()))
    };
    aim().ok().flatten().unwrap_or_else(|| target.clone())
}

/// What says `el` is read-only.
fn editable(el: &PageNode) -> Result<Editable, JsValue> {
    Ok(Editable {
        read_only: get(el, "readOnly")? == JsValue::TRUE,
        aria_read_only: el.get_attribute("aria-readonly")?.as_deref() == Some("true"),
        content_editable: get(el, "isContentEditable")? != JsValue::FALSE,
    })
}

/// What is judged before the wait: attached and visible.
fn before_wait(el: &PageNode) -> Result<Actionability, JsValue> {
    Ok(Actionability {
        connected: el.is_connected()?,
        visible: sense::dom::is_visible(el)?,
        settled: None,
        enabled: true,
        editable: None,
    })
}

/// Everything, on what the page is after the wait (editable only for
/// `input`; the hit test only for acts that dispatch pointer or input
/// events at the element).
fn after_wait(
    el: &PageNode,
    before: Rect,
    input: bool,
    hit_test: bool,
) -> Result<Actionability, JsValue> {
    Ok(Actionability {
        connected: el.is_connected()?,
        visible: sense::dom::is_visible(el)?,
        settled: Some(settled(el, before, hit_test)?.0),
        enabled: sense::dom::is_enabled(el)?,
        editable: if input { Some(editable(el)?) } else { None },
    })
}

/// `why` as a refusal, said of the target or of a drag's drop target.
fn refusal(why: Unactionable, drop_target: bool) -> Refusal {
    not_actionable(if drop_target {
        why.of_drop_target()
    } else {
        format!("{why}")
    })
}

/// The verdict on what was read (or on the page's throw) as a refusal.
fn judge(facts: Result<Actionability, JsValue>, drop_target: bool) -> Result<(), Refusal> {
    facts
        .map_err(unreadable)
        .and_then(|f| f.verdict())
        .map_err(|why| refusal(why, drop_target))
}

/// `el`'s box before the wait.
fn first_box(el: &PageNode, drop_target: bool) -> Result<Rect, Refusal> {
    rect(el).map_err(|e| refusal(unreadable(e), drop_target))
}

/// Dispatches on live elements.
#[derive(Debug, Default, Clone, Copy)]
pub struct DomBot;

fn not_actionable(why: impl Into<String>) -> Refusal {
    Refusal::NotActionable(why.into())
}

use sense::dom::thrown_message as message;

fn thrown(e: JsValue) -> DispatchError {
    DispatchError::Threw(message(&e))
}

fn strings(values: &[String]) -> Array {
    values.iter().map(|v| JsValue::from_str(v)).collect()
}

impl DomBot {
    /// Does the input value fit the element? (`BAD_REQUEST` when not: the
    /// wrong type, an option the select lacks, a text an `<input>` would
    /// not hold as it is, `false` for a checked radio, a text over the
    /// field's maxlength.) The facts are read here; field.rs decides.
    fn fits(&self, el: &PageNode, value: &InputValue) -> Result<Field, Refusal> {
        let read = field_facts(el).map_err(|e| refusal(unreadable(e), false))?;
        let string = |i| read.get(i).as_string();
        let yes = |i| read.get(i) == JsValue::TRUE;
        let (input_type, tag) = (string(0), string(1).unwrap_or_default());
        let facts = FieldFacts {
            tag: &tag,
            input_type: input_type.as_deref(),
            multiple: yes(2),
            content_editable: yes(3),
            checked: yes(4),
            // -1 (no maxlength) and a non-field's `undefined` are none.
            max_length: read
                .get(5)
                .as_f64()
                .filter(|n| *n >= 0.0)
                .map(|n| n as usize),
        };
        let kind = Field::of(facts).map_err(|e| not_actionable(words(&e)))?;
        if !kind.fits(value) {
            return Err(Refusal::BadRequest(kind.takes().to_string()));
        }
        let wanted = match value {
            InputValue::Text(t) => std::slice::from_ref(t),
            InputValue::List(l) => l.as_slice(),
            InputValue::Bool(_) => &[],
        };
        if matches!(kind, Field::Select | Field::SelectMultiple) {
            let options = options(el).map_err(|e| refusal(unreadable(e), false))?;
            options_hold(&options, wanted).map_err(|e| match e {
                OptionsRefusal::Missing { .. } => Refusal::BadRequest(words(&e)),
                OptionsRefusal::Disabled(_) => not_actionable(words(&e)),
            })?;
        }
        if let (Field::Text, "INPUT", [text]) = (kind, tag.as_str(), wanted) {
            if let Some((held, input_type)) = sanitized(el, text) {
                Field::holds(text, &held, &input_type)
                    .map_err(|e| Refusal::BadRequest(words(&e)))?;
            }
        }
        kind.bounds(facts, value).map_err(Refusal::BadRequest)?;
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
                Some(dst) => Some(dst),
                None => return Err(not_actionable("the drop target is not an element")),
            },
            _ => None,
        };
        // Attached and visible first: nothing waits for a target that
        // cannot act. Then the same rule over what the wait found.
        judge(before_wait(el), false)?;
        if let Some(dst) = dst {
            judge(before_wait(dst), true)?;
        }
        let before = first_box(el, false)?;
        let dst = match dst {
            Some(dst) => Some((dst, first_box(dst, true)?)),
            None => None,
        };
        JsFuture::from(two_frames(target))
            .await
            .map_err(|e| not_actionable(format!("{}", thrown(e))))?;
        let input = matches!(action, Action::Input(_));
        // A scroll moves the element's scroll container and dispatches
        // nothing at the element: what covers its centre does not matter,
        // and a row its own container clips is exactly what it brings in.
        let hit_test = !matches!(action, Action::Scroll { .. });
        judge(after_wait(el, before, input, hit_test), false)?;
        if let Some((dst, before)) = dst {
            judge(after_wait(dst, before, false, true), true)?;
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
            Action::Click => self.click(&click_target(target)).map(|()| Report::Done),
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
                if !set_value(target, kind as u32, &js).map_err(thrown)? {
                    return Err(DispatchError::Failed(
                        "the page refused the text: its beforeinput handler cancelled it".into(),
                    ));
                }
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
                // Both axes of `by` always apply; no `by` is a zero offset.
                let (bx, by) = by.unwrap_or((0.0, 0.0));
                let pos = scroll(target, to.map(Align::fraction), bx, by).map_err(thrown)?;
                let n = |i: u32| pos.get(i).as_f64().unwrap_or(0.0) as i64;
                Ok(Report::Scrolled {
                    left: n(0),
                    top: n(1),
                })
            }
            Action::Drag { to } => drag(target, to).map(|()| Report::Done).map_err(thrown),
        }
    }

    /// Exactly one click on `target` itself: `HTMLElement.click()`
    /// (activation behaviour included), or a synthetic `click` MouseEvent
    /// for other elements (SVG…). In act.js: one import instead of eight
    /// web-sys calls. A click run's dispatch first picks the element
    /// (`click_target`: a shadow host's own control at its centre).
    pub fn click(&self, target: &JsValue) -> Result<(), DispatchError> {
        match click(target) {
            Ok(Some(why)) => Err(DispatchError::Failed(why)),
            Ok(None) => Ok(()),
            Err(e) => Err(thrown(e)),
        }
    }
}
