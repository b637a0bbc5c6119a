//! The shell's readers against real JS values in Chromium: install options
//! read through `Reflect` (a throwing getter is a worded TypeError, never
//! the page's exception), data options decoded from a structured clone (a
//! proxy or a function inside is "not plain data"), and a root from another
//! realm (an iframe's document) with its own window.
#![cfg(target_arch = "wasm32")]

use in_page_playable::{for_tests, install_playable};
use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A value built by JS source (getters, proxies: what Rust cannot write).
fn js(source: &str) -> JsValue {
    Function::new_no_args(&format!("return ({source});"))
        .call0(&JsValue::NULL)
        .expect("the fixture builds")
}

/// `installPlayable(options)`'s TypeError message, or "ok".
fn install(options: JsValue) -> String {
    let answer = match install_playable(options) {
        Ok(_) => "ok".to_string(),
        Err(e) => {
            let name = Reflect::get(&e, &"name".into())
                .ok()
                .and_then(|v| v.as_string());
            let message = Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|v| v.as_string());
            format!(
                "{}: {}",
                name.unwrap_or_default(),
                message.unwrap_or_default()
            )
        }
    };
    for_tests(true);
    answer
}

#[wasm_bindgen_test]
fn a_getter_that_throws_is_a_worded_type_error() {
    assert_eq!(
        install(js("{ get root() { throw new Error('page bug'); } }")),
        "TypeError: installPlayable: reading options.root threw"
    );
    assert_eq!(
        install(js(
            "{ ports: { get bot() { throw new Error('page bug'); } } }"
        )),
        "TypeError: installPlayable: reading options.ports.bot threw"
    );
}

#[wasm_bindgen_test]
fn data_options_must_be_plain_data() {
    let proxy = install(js(
        "{ islandSlots: new Proxy({}, { ownKeys() { throw new Error('trap'); } }) }",
    ));
    assert!(
        proxy.starts_with("TypeError: installPlayable: options.islandSlots is not plain data: "),
        "{proxy}"
    );
    let function = install(js(
        "{ islandSlots: { pager: { next: { ariaLabel: 'Next', onClick() {} } } } }",
    ));
    assert!(function.contains("is not plain data"), "{function}");
    // A getter inside runs once, in the copy; its value counts.
    assert_eq!(
        install(js(
            "{ islandSlots: { pager: { get next() { return { ariaLabel: 'Next' }; } } } }"
        )),
        "ok"
    );
    assert_eq!(
        install(js("{ allowedOrigins: ['https://a.test', () => 1] }")),
        "TypeError: installPlayable: options.allowedOrigins must contain only strings"
    );
    assert_eq!(
        install(js("{ islandSlots: { a: { b: { label: 'x' } } } }")),
        "TypeError: installPlayable: islandSlots[\"a\"][\"b\"] must be { ariaLabel: string } or { role: string, name: string }"
    );
}

#[wasm_bindgen_test]
fn a_root_of_another_realm_brings_its_window() {
    let frame = js(
        "(() => { const f = document.createElement('iframe'); document.body.append(f); return f; })()",
    );
    let child_document = Reflect::get(&frame, &"contentDocument".into()).expect("same origin");
    let options = js("{}");
    Reflect::set(&options, &"root".into(), &child_document).expect("set");
    let playable = install_playable(options).expect("a document of another realm is a root");
    let child_window = Reflect::get(&frame, &"contentWindow".into()).expect("a window");
    assert!(
        Reflect::get(&child_window, &"__IN_PAGE_PLAYABLE_V1__".into()).is_ok_and(|m| m.is_truthy()),
        "the instance belongs to the iframe's window"
    );
    drop(playable);
    for_tests(true);
    let _ = Reflect::get(&frame, &"remove".into())
        .ok()
        .and_then(|r| r.dyn_into::<Function>().ok())
        .map(|r| r.call0(&frame));
}
