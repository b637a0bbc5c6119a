//! DomBom reloads a real (iframe) window and reports { ok, retired }; the
//! last check before the reload can stop it.
#![cfg(target_arch = "wasm32")]

use bom::{DomBom, Outcome, StillAllowed};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::HtmlIFrameElement;

wasm_bindgen_test_configure!(run_in_browser);

fn allowed(yes: bool) -> StillAllowed {
    Box::new(move || Box::pin(async move { yes }))
}

async fn frame_window(doc: &web_sys::Document) -> (HtmlIFrameElement, web_sys::Window) {
    let frame: HtmlIFrameElement = doc.create_element("iframe").unwrap().unchecked_into();
    frame.set_srcdoc("<p>frame</p>");
    // Listen before appending: the first load may fire during append.
    let loaded = next_load(&frame);
    doc.body().unwrap().append_child(&frame).unwrap();
    loaded.await.unwrap();
    let win = frame.content_window().unwrap();
    js_sys::Reflect::set(&win, &"marker".into(), &JsValue::TRUE).unwrap();
    (frame, win)
}

fn marked(win: &web_sys::Window) -> bool {
    js_sys::Reflect::get(win, &"marker".into())
        .unwrap()
        .is_truthy()
}

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
    let (frame, win) = frame_window(&doc).await;
    let reloaded = next_load(&frame);
    let bom = DomBom::new(win, allowed(true));
    assert_eq!(bom.reload(), Outcome::RELOADING);
    assert!(!bom.undone());
    reloaded.await.unwrap();
    assert!(!marked(&frame.content_window().unwrap()), "a new document");
    frame.remove();
}

#[wasm_bindgen_test]
async fn a_reload_the_last_check_refuses_does_not_happen_and_is_undone_at_once() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let (frame, win) = frame_window(&doc).await;
    let bom = DomBom::new(win.clone(), allowed(false));
    assert_eq!(bom.reload(), Outcome::RELOADING);
    assert!(!bom.undone(), "its turn has not come yet");
    // Its turn (a timer, then a channel message), and a margin.
    let settled = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 300)
            .unwrap();
    });
    JsFuture::from(settled).await.unwrap();
    assert!(marked(&win), "the same document");
    assert!(bom.undone(), "undone at once");
    assert!(!bom.undone(), "said once");
    frame.remove();
}
