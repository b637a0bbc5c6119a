//! DomBot in headless Chromium: exactly one click, and refusals that dispatch nothing.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use bot::DomBot;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn button(attrs: &str) -> (Element, Rc<Cell<u32>>) {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(&format!("<button {attrs}>b</button>"));
    doc.body().unwrap().append_child(&host).unwrap();
    let el = host.first_element_child().unwrap();
    let clicks = Rc::new(Cell::new(0));
    let counter = Rc::clone(&clicks);
    let cb = Closure::<dyn FnMut()>::new(move || counter.set(counter.get() + 1));
    el.add_event_listener_with_callback("click", cb.as_ref().unchecked_ref())
        .unwrap();
    cb.forget();
    (el, clicks)
}

#[wasm_bindgen_test]
fn clicks_exactly_once() {
    let (el, clicks) = button("");
    let target: JsValue = el.clone().into();
    assert_eq!(DomBot.check(&target), Ok(()));
    DomBot.click(&target).unwrap();
    assert_eq!(clicks.get(), 1);
    el.parent_element().unwrap().remove();
}

#[wasm_bindgen_test]
fn refuses_hidden_disabled_detached_and_non_elements() {
    for (attrs, why) in [
        ("hidden", "visible"),
        ("style=\"visibility:hidden\"", "visible"),
        ("disabled", "disabled"),
        ("aria-disabled=\"true\"", "disabled"),
    ] {
        let (el, clicks) = button(attrs);
        let err = DomBot.check(&el.clone().into()).unwrap_err();
        assert!(err.as_str().contains(why), "{attrs}: {err}");
        assert_eq!(clicks.get(), 0);
        el.parent_element().unwrap().remove();
    }
    let (el, _) = button("");
    el.remove();
    assert!(DomBot
        .check(&el.into())
        .unwrap_err()
        .as_str()
        .contains("detached"));
    assert!(DomBot.check(&JsValue::from_str("x")).is_err());
    assert!(DomBot.click(&JsValue::NULL).is_err());
}

#[wasm_bindgen_test]
fn svg_elements_get_a_synthetic_click() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(
        "<svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"></rect></svg>",
    );
    doc.body().unwrap().append_child(&host).unwrap();
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
