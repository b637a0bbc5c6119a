//! The bridge filter against real MessageEvents (source and origin set
//! explicitly, so every branch is exercised deterministically).
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect};
use playable::bridge::{accept_event as accept, check_origins};
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
    assert_eq!(d.seq, 4.0);
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
    assert!(check_origins(&[])
        .unwrap_err()
        .to_string()
        .contains("non-empty"));
    assert!(check_origins(&["*".into()])
        .unwrap_err()
        .to_string()
        .contains("not an origin"));
    assert!(check_origins(&["http://a.test".into(), "".into()]).is_err());
    assert!(check_origins(&["http://a.test".into()]).is_ok());
}

/// A page can dispatch a synthetic MessageEvent whose fields throw when
/// read: ignored like any stranger, nothing thrown.
#[wasm_bindgen_test]
fn throwing_fields_are_ignored() {
    let win = web_sys::window().unwrap();
    let origin = win.location().origin().unwrap();
    let data = js_sys::Function::new_no_args(
        "return { get channel() { throw new Error('boom'); }, dir: 'down', seq: 1 };",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let e = event(&data, &origin, Some(&win));
    assert!(accept(&e, &win, std::slice::from_ref(&origin)).is_none());
    let event = js_sys::Function::new_no_args(
        "return { get source() { throw new Error('boom'); }, origin: location.origin, data: {} };",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    assert!(accept(&event, &win, &[origin]).is_none());
}

/// The listener is a gloo-events `EventListener`: it delivers while the
/// bridge lives and is removed when the bridge drops.
#[wasm_bindgen_test]
async fn dropping_the_bridge_removes_its_listener() {
    use std::cell::RefCell;
    use std::rc::Rc;

    let win = web_sys::window().unwrap();
    let origin = win.location().origin().unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&seen);
    let bridge =
        playable::bridge::WindowBridge::attach(win.clone(), vec![origin.clone()], move |d| {
            log.borrow_mut().push(d.seq)
        });
    let post = |seq: i32| {
        let e = event(
            &wrapper("in-page-playable", "down", seq.into()),
            &origin,
            Some(&win),
        );
        win.dispatch_event(&e).unwrap();
    };
    post(1);
    drop(bridge);
    post(2);
    assert_eq!(*seen.borrow(), vec![1.0]);
}

/// A reply goes to the sender's origin only, as `{ channel, dir: "up", seq, envelope }`.
#[wasm_bindgen_test]
async fn a_reply_is_the_up_wrapper() {
    let win = web_sys::window().unwrap();
    let origin = win.location().origin().unwrap();
    let got: js_sys::Promise = js_sys::Function::new_no_args(
        "return new Promise((resolve) => addEventListener('message', (e) => { if (e.data && e.data.dir === 'up') resolve([e.origin, e.data]); }));",
    )
    .call0(&JsValue::NULL)
    .unwrap()
    .unchecked_into();
    playable::bridge::reply(&win, &origin, 5.0, &"uplink".into());
    // A target the browser cannot address drops the reply without throwing.
    playable::bridge::reply(&win, "not an origin", 6.0, &"lost".into());
    let got: js_sys::Array = wasm_bindgen_futures::JsFuture::from(got)
        .await
        .unwrap()
        .unchecked_into();
    assert_eq!(got.get(0).as_string(), Some(origin));
    let data = got.get(1);
    let field = |k: &str| Reflect::get(&data, &k.into()).unwrap();
    assert_eq!(
        field("channel").as_string().as_deref(),
        Some("in-page-playable")
    );
    assert_eq!(field("dir").as_string().as_deref(), Some("up"));
    assert_eq!(field("seq").as_f64(), Some(5.0));
    assert_eq!(field("envelope").as_string().as_deref(), Some("uplink"));
}
