//! DomBom reloads a real (iframe) window and reports { ok, retired }.
#![cfg(target_arch = "wasm32")]

use bom::{DomBom, Outcome};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::HtmlIFrameElement;

wasm_bindgen_test_configure!(run_in_browser);

fn next_load(frame: &HtmlIFrameElement) -> JsFuture {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_once(true);
        frame
            .add_event_listener_with_callback_and_add_event_listener_options(
                "load", &resolve, &opts,
            )
            .unwrap();
    });
    JsFuture::from(promise)
}

#[wasm_bindgen_test]
async fn reload_reloads_the_window_and_reports_retired() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let frame: HtmlIFrameElement = doc.create_element("iframe").unwrap().unchecked_into();
    frame.set_srcdoc("<p>frame</p>");
    // Listen before appending: the first load may fire during append.
    let loaded = next_load(&frame);
    doc.body().unwrap().append_child(&frame).unwrap();
    loaded.await.unwrap();
    let win = frame.content_window().unwrap();
    js_sys::Reflect::set(&win, &"marker".into(), &JsValue::TRUE).unwrap();
    let reloaded = next_load(&frame);
    assert_eq!(DomBom::new(win).reload(), Outcome::RELOADING);
    reloaded.await.unwrap();
    let fresh = frame.content_window().unwrap();
    assert!(
        js_sys::Reflect::get(&fresh, &"marker".into())
            .unwrap()
            .is_undefined(),
        "a new document"
    );
    frame.remove();
}
