//! The bridge filter against real MessageEvents (source and origin set
//! explicitly, so every branch is exercised deterministically).
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect};
use playable::bridge::{accept, check_origins};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use web_sys::{MessageEvent, MessageEventInit, Window};

wasm_bindgen_test_configure!(run_in_browser);

fn wrapper(channel: &str, dir: &str, seq: JsValue) -> JsValue {
    let o = Object::new();
    Reflect::set(&o, &"channel".into(), &channel.into()).unwrap();
    Reflect::set(&o, &"dir".into(), &dir.into()).unwrap();
    Reflect::set(&o, &"seq".into(), &seq).unwrap();
    Reflect::set(&o, &"envelope".into(), &"env".into()).unwrap();
    o.into()
}

fn event(data: &JsValue, origin: &str, source: Option<&Window>) -> MessageEvent {
    let init = MessageEventInit::new();
    init.set_data(data);
    init.set_origin(origin);
    if let Some(w) = source {
        init.set_source(Some(w.as_ref()));
    }
    MessageEvent::new_with_event_init_dict("message", &init).unwrap()
}

#[wasm_bindgen_test]
fn accepts_only_same_window_allowed_origin_well_wrapped_downlinks() {
    let win = web_sys::window().unwrap();
    let origins = vec!["http://a.test".to_string()];
    let good = wrapper("in-page-playable", "down", 4.into());
    let d = accept(&event(&good, "http://a.test", Some(&win)), &win, &origins).expect("accepted");
    assert_eq!(d.seq.as_f64(), Some(4.0));
    assert_eq!(d.envelope.as_string().as_deref(), Some("env"));
    assert_eq!(d.origin, "http://a.test");

    let ignored = [
        event(&good, "http://b.test", Some(&win)),
        event(&good, "http://a.test", None),
        event(
            &wrapper("other", "down", 4.into()),
            "http://a.test",
            Some(&win),
        ),
        event(
            &wrapper("in-page-playable", "up", 4.into()),
            "http://a.test",
            Some(&win),
        ),
        event(
            &wrapper("in-page-playable", "down", 1.5.into()),
            "http://a.test",
            Some(&win),
        ),
        event(
            &wrapper("in-page-playable", "down", "4".into()),
            "http://a.test",
            Some(&win),
        ),
        event(
            &wrapper("in-page-playable", "down", JsValue::UNDEFINED),
            "http://a.test",
            Some(&win),
        ),
        event(
            &JsValue::from_str("in-page-playable"),
            "http://a.test",
            Some(&win),
        ),
        event(&JsValue::NULL, "http://a.test", Some(&win)),
    ];
    for e in ignored {
        assert!(accept(&e, &win, &origins).is_none());
    }
}

#[wasm_bindgen_test]
fn another_window_is_never_accepted() {
    let win = web_sys::window().unwrap();
    let doc = win.document().unwrap();
    let frame: web_sys::HtmlIFrameElement = doc.create_element("iframe").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&frame).unwrap();
    let child = frame.content_window().unwrap();
    let origin = win.location().origin().unwrap();
    let good = wrapper("in-page-playable", "down", 1.into());
    assert!(accept(
        &event(&good, &origin, Some(&child)),
        &win,
        std::slice::from_ref(&origin)
    )
    .is_none());
    assert!(accept(&event(&good, &origin, Some(&win)), &win, &[origin]).is_some());
    frame.remove();
}

#[wasm_bindgen_test]
fn origins_must_be_exact() {
    assert!(check_origins(&[]).unwrap_err().contains("non-empty"));
    assert!(check_origins(&["*".into()])
        .unwrap_err()
        .contains("not an origin"));
    assert!(check_origins(&["http://a.test".into(), "".into()]).is_err());
    assert!(check_origins(&["http://a.test".into()]).is_ok());
}
