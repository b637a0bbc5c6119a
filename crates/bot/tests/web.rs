//! DomBot in headless Chromium: exactly one click, and refusals that dispatch nothing.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use bot::{Action, DomBot, InputValue};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A div holding `html`, appended to the body (the caller removes it).
fn mount(html: &str) -> Element {
    let doc = document();
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(html);
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

fn button(attrs: &str) -> (Element, Rc<Cell<u32>>) {
    let host = mount(&format!("<button {attrs}>b</button>"));
    let el = host.first_element_child().unwrap();
    let clicks = Rc::new(Cell::new(0));
    let counter = Rc::clone(&clicks);
    let cb = Closure::<dyn FnMut()>::new(move || counter.set(counter.get() + 1));
    el.add_event_listener_with_callback("click", cb.as_ref().unchecked_ref())
        .unwrap();
    cb.forget();
    (el, clicks)
}

/// `check_action`'s refusal reason, or "ok".
async fn check(target: &JsValue, action: &Action<JsValue>) -> String {
    match DomBot.check_action(target, action).await {
        Ok(()) => "ok".into(),
        Err(refusal) => refusal.to_string(),
    }
}

#[wasm_bindgen_test]
async fn clicks_exactly_once() {
    let (el, clicks) = button("style=\"position:fixed;left:0;top:0\"");
    let target: JsValue = el.clone().into();
    assert_eq!(check(&target, &Action::Click).await, "ok");
    DomBot.click(&target).unwrap();
    assert_eq!(clicks.get(), 1);
    el.parent_element().unwrap().remove();
}

#[wasm_bindgen_test]
async fn refuses_hidden_disabled_detached_and_non_elements() {
    for (attrs, why) in [
        ("hidden", "the element is not visible"),
        ("style=\"visibility:hidden\"", "the element is not visible"),
        ("disabled", "the element is disabled"),
        ("aria-disabled=\"true\"", "the element is disabled"),
        // The contract's order: visible before enabled.
        ("disabled hidden", "the element is not visible"),
    ] {
        let (el, clicks) = button(attrs);
        assert_eq!(
            check(&el.clone().into(), &Action::Click).await,
            why,
            "{attrs}"
        );
        assert_eq!(clicks.get(), 0);
        el.parent_element().unwrap().remove();
    }
    let (el, _) = button("");
    el.remove();
    assert_eq!(
        check(&el.into(), &Action::Click).await,
        "the element is detached from the document"
    );
    assert_eq!(
        check(&JsValue::from_str("x"), &Action::Click).await,
        "the target is not an element"
    );
    assert!(DomBot.click(&JsValue::NULL).is_err());
}

/// A fixed button at the viewport's top left, so the hit test runs.
fn fixed_button(extra: &str) -> Element {
    let (el, _) = button(&format!(
        "style=\"position:fixed;left:10px;top:10px;width:60px;height:30px\" {extra}"
    ));
    el
}

#[wasm_bindgen_test]
async fn an_overlay_or_a_change_during_the_wait_refuses() {
    let doc = document();
    let el = fixed_button("");
    let cover = doc.create_element("div").unwrap();
    cover.set_attribute("id", "cover").unwrap();
    cover
        .set_attribute(
            "style",
            "position:fixed;left:0;top:0;width:200px;height:200px;z-index:9",
        )
        .unwrap();
    doc.body().unwrap().append_child(&cover).unwrap();
    assert_eq!(
        check(&el.clone().into(), &Action::Click).await,
        "another element (div#cover) would receive the event at the element's centre"
    );
    cover.remove();
    assert_eq!(check(&el.clone().into(), &Action::Click).await, "ok");

    // Hidden, moved or disabled after the first read, during the wait:
    // judged on what the wait found.
    for (script, why) in [
        (
            "el.style.visibility = 'hidden'",
            "the element is not visible",
        ),
        (
            "el.style.left = '40px'",
            "the element is not stable (it moved or resized between two animation frames)",
        ),
        ("el.disabled = true", "the element is disabled"),
        ("el.remove()", "the element is detached from the document"),
    ] {
        let el = fixed_button("");
        let change = js_sys::Function::new_with_args(
            "el",
            &format!("requestAnimationFrame(() => {{ {script}; }})"),
        );
        change.call1(&JsValue::NULL, &el).unwrap();
        assert_eq!(
            check(&el.clone().into(), &Action::Click).await,
            why,
            "{script}"
        );
        if let Some(host) = el.parent_element() {
            host.remove();
        }
    }
    el.parent_element().unwrap().remove();
}

#[wasm_bindgen_test]
async fn an_input_must_be_editable() {
    let doc = document();
    let host = mount(
        "<input id=\"ro\" readonly style=\"position:fixed;left:0;top:0\">\
         <input id=\"aria\" aria-readonly=\"true\" style=\"position:fixed;left:0;top:40px\">\
         <input id=\"rw\" style=\"position:fixed;left:0;top:80px\">",
    );
    let text = Action::Input(InputValue::Text("x".into()));
    for (id, why) in [
        ("ro", "the element is read-only"),
        ("aria", "the element is read-only"),
        ("rw", "ok"),
    ] {
        let el: JsValue = doc.get_element_by_id(id).unwrap().into();
        assert_eq!(check(&el, &text).await, why, "{id}");
        // A click does not ask for editable.
        assert_eq!(check(&el, &Action::Click).await, "ok", "{id}");
    }
    host.remove();
}

#[wasm_bindgen_test]
fn svg_elements_get_a_synthetic_click() {
    let host =
        mount("<svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"></rect></svg>");
    let rect = host.query_selector("rect").unwrap().unwrap();
    let clicks = Rc::new(Cell::new(0));
    let counter = Rc::clone(&clicks);
    let cb = Closure::<dyn FnMut()>::new(move || counter.set(counter.get() + 1));
    host.add_event_listener_with_callback("click", cb.as_ref().unchecked_ref())
        .unwrap();
    cb.forget();
    DomBot.click(&rect.into()).unwrap();
    assert_eq!(clicks.get(), 1, "bubbles to the host once");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_drop_target_is_judged_at_its_own_centre() {
    let doc = document();
    let host = mount(
        "<div id=\"src\" style=\"position:fixed;left:0;top:0;width:40px;height:40px\"></div>\
         <div id=\"dst\" style=\"position:fixed;left:100px;top:0;width:40px;height:40px\"></div>",
    );
    let src: JsValue = doc.get_element_by_id("src").unwrap().into();
    let dst: JsValue = doc.get_element_by_id("dst").unwrap().into();
    let drag = Action::Drag { to: dst.clone() };
    assert_eq!(check(&src, &drag).await, "ok");
    let lid = doc.create_element("div").unwrap();
    lid.set_attribute("id", "lid").unwrap();
    lid.set_attribute(
        "style",
        "position:fixed;left:90px;top:0;width:60px;height:60px;z-index:9",
    )
    .unwrap();
    host.append_child(&lid).unwrap();
    assert_eq!(
        check(&src, &drag).await,
        "another element (div#lid) would receive the drop at the drop target's centre"
    );
    lid.remove();
    let hide = js_sys::Function::new_with_args(
        "el",
        "requestAnimationFrame(() => { el.style.visibility = 'hidden'; })",
    );
    hide.call1(&JsValue::NULL, &dst).unwrap();
    assert_eq!(check(&src, &drag).await, "the drop target is not visible");
    host.remove();
}

#[wasm_bindgen_test]
fn a_checkbox_the_page_keeps_unchanged_is_a_failed_dispatch() {
    let doc = document();
    let host = mount(
        "<input id=\"kept\" type=\"checkbox\" onclick=\"event.preventDefault()\">\
         <input id=\"free\" type=\"checkbox\">",
    );
    let on = Action::Input(InputValue::Bool(true));
    let kept: JsValue = doc.get_element_by_id("kept").unwrap().into();
    let free: JsValue = doc.get_element_by_id("free").unwrap().into();
    match DomBot.dispatch(&kept, &on) {
        Err(e) => assert_eq!(
            e.to_string(),
            "the checkbox is still unchecked after the event: the page kept it from changing"
        ),
        Ok(_) => panic!("a cancelled click is not a checked box"),
    }
    assert!(DomBot.dispatch(&free, &on).is_ok());
    assert_eq!(
        js_sys::Reflect::get(&free, &"checked".into()).unwrap(),
        JsValue::TRUE
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_text_the_field_would_not_hold_is_refused_before_anything_happens() {
    let doc = document();
    let host = mount(
        "<input id=\"n\" type=\"number\" value=\"7\" style=\"position:fixed;left:0;top:0\">\
         <input id=\"d\" type=\"date\" style=\"position:fixed;left:0;top:40px\">\
         <input id=\"t\" style=\"position:fixed;left:0;top:80px\">\
         <select id=\"s\" style=\"position:fixed;left:0;top:120px\"><option value=\"a\">A</option></select>\
         <input id=\"m\" type=\"email\" multiple style=\"position:fixed;left:0;top:160px\">",
    );
    let events = Rc::new(Cell::new(0));
    let counter = Rc::clone(&events);
    let cb = Closure::<dyn FnMut()>::new(move || counter.set(counter.get() + 1));
    for name in ["input", "change", "focusin"] {
        host.add_event_listener_with_callback(name, cb.as_ref().unchecked_ref())
            .unwrap();
    }
    cb.forget();
    let text = |t: &str| Action::Input(InputValue::Text(t.into()));
    let el = |id: &str| -> JsValue { doc.get_element_by_id(id).unwrap().into() };
    let value = |id: &str| js_sys::Reflect::get(&el(id), &"value".into()).unwrap();
    for (id, asked, why) in [
        (
            "n",
            "abc",
            "a number field cannot hold \"abc\" as it is: the browser would make it \"\"",
        ),
        (
            "d",
            "2023-02-30",
            "a date field cannot hold \"2023-02-30\" as it is: the browser would make it \"\"",
        ),
        (
            "t",
            "two\nlines",
            "a text field cannot hold \"two\\nlines\" as it is: the browser would make it \"twolines\"",
        ),
        ("s", "", "no option with value \"\""),
        (
            "m",
            "a@x.org, b@y.org",
            "an email field cannot hold \"a@x.org, b@y.org\" as it is: the browser would make it \"a@x.org,b@y.org\"",
        ),
    ] {
        assert_eq!(check(&el(id), &text(asked)).await, why, "{id}");
        assert!(DomBot.dispatch(&el(id), &text(asked)).is_err(), "{id}");
    }
    assert_eq!(value("n"), JsValue::from_str("7"), "nothing was set");
    assert_eq!(events.get(), 0, "no event was dispatched");
    for (id, asked) in [
        ("n", "-1.5e3"),
        ("n", ""),
        ("d", "2024-02-29"),
        ("t", "one line"),
    ] {
        assert_eq!(check(&el(id), &text(asked)).await, "ok", "{id} {asked:?}");
        DomBot.dispatch(&el(id), &text(asked)).unwrap();
        assert_eq!(value(id), JsValue::from_str(asked), "{id}");
    }
    host.remove();
}

#[wasm_bindgen_test]
async fn an_option_a_person_cannot_pick_is_refused() {
    let doc = document();
    let host = mount(
        "<select id=\"s\" style=\"position:fixed;left:0;top:0\">\
         <option value=\"a\">A</option><option value=\"b\" disabled>B</option>\
         <optgroup label=\"g\" disabled><option value=\"c\">C</option></optgroup></select>",
    );
    let el: JsValue = doc.get_element_by_id("s").unwrap().into();
    let pick = |v: &str| Action::Input(InputValue::Text(v.into()));
    assert_eq!(check(&el, &pick("b")).await, "the option \"b\" is disabled");
    assert_eq!(check(&el, &pick("c")).await, "the option \"c\" is disabled");
    assert_eq!(check(&el, &pick("a")).await, "ok");
    host.remove();
}

/// Replaces `name` on `proto` (`"Element.prototype"`, or `"el"` for the
/// element itself) with a method or getter that throws "broken <name>", as
/// a page script may; returns the undo.
fn throwing(proto: &str, name: &str, el: &JsValue) -> js_sys::Function {
    js_sys::Function::new_with_args(
        "el",
        &format!(
            "const p = {proto}, own = Object.getOwnPropertyDescriptor(p, '{name}');
             const broken = function () {{ throw new Error('broken {name}'); }};
             Object.defineProperty(p, '{name}', {{ configurable: true, ...(own && own.get ? {{ get: broken }} : {{ value: broken }}) }});
             return () => own ? Object.defineProperty(p, '{name}', own) : delete p['{name}'];"
        ),
    )
    .call1(&JsValue::NULL, el)
    .unwrap()
    .unchecked_into()
}

#[wasm_bindgen_test]
async fn a_read_the_page_made_throw_is_a_refusal_not_an_unwind() {
    let doc = document();
    let host = mount(
        "<input id=\"i\" style=\"position:fixed;left:0;top:0\">\
         <select id=\"s\" style=\"position:fixed;left:0;top:40px\"><option value=\"a\">A</option></select>\
         <div id=\"dst\" style=\"position:fixed;left:100px;top:0;width:40px;height:40px\"></div>",
    );
    let el = |id: &str| -> JsValue { doc.get_element_by_id(id).unwrap().into() };
    let text = Action::Input(InputValue::Text("a".into()));
    let (elements, nodes) = ("Element.prototype", "Node.prototype");
    // (prototype, name, target, whether the run is an input)
    for (proto, name, id, input) in [
        // Before the wait: attached, visible (sense's isVisible).
        (nodes, "isConnected", "i", false),
        (elements, "checkVisibility", "i", false),
        (elements, "getBoundingClientRect", "i", false),
        // The field a value goes into.
        (elements, "getAttribute", "i", true),
        ("HTMLSelectElement.prototype", "options", "s", true),
        // After the wait: the hit test, enabled, editable.
        ("Document.prototype", "elementFromPoint", "i", false),
        (nodes, "getRootNode", "i", false),
        (nodes, "contains", "i", false),
        (elements, "tagName", "i", false),
        (elements, "closest", "i", false),
        ("HTMLInputElement.prototype", "readOnly", "i", true),
    ] {
        let undo = throwing(proto, name, &JsValue::NULL);
        let got = check(&el(id), if input { &text } else { &Action::Click }).await;
        undo.call0(&JsValue::NULL).unwrap();
        assert_eq!(
            got,
            format!("the page threw while reading the element: broken {name}"),
            "{proto}.{name}"
        );
    }
    // A drag's drop target is read on its own, and named.
    let drag = Action::Drag { to: el("dst") };
    let undo = throwing("el", "getBoundingClientRect", &el("dst"));
    let got = check(&el("i"), &drag).await;
    undo.call0(&JsValue::NULL).unwrap();
    assert_eq!(
        got,
        "the page threw while reading the drop target: broken getBoundingClientRect"
    );
    // Nothing is left broken: the same checks pass.
    assert_eq!(check(&el("i"), &text).await, "ok");
    assert_eq!(check(&el("i"), &drag).await, "ok");
    host.remove();
}
