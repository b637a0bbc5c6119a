//! The bridge on a real window: reads each `message` event's facts (every
//! read through `Reflect`, so a synthetic event whose getters throw is just
//! a stranger), applies [`super::accept`], and posts replies.

use std::cell::Cell;
use std::rc::Rc;

use gloo_events::EventListener;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::Window;

use super::{accept, Accepted, MessageFacts, WrapperFacts, CHANNEL};

/// A message that passed the bridge's filter.
pub struct Delivery {
    /// The wrapper's `seq` (an integer), echoed in the reply.
    pub seq: f64,
    /// The wrapper's `envelope`, untouched.
    pub envelope: JsValue,
    /// `event.origin`: the reply goes there only.
    pub origin: String,
}

/// `obj[key]`, or `undefined` where reading throws (a primitive, a getter
/// that throws, a revoked proxy).
fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The event's facts, and its `data` (for the envelope, once accepted).
fn read(event: &JsValue, window: &Window) -> (MessageFacts, JsValue) {
    let data = get(event, "data");
    let wrapper = data.is_object().then(|| WrapperFacts {
        channel: get(&data, "channel").as_string(),
        dir: get(&data, "dir").as_string(),
        seq: get(&data, "seq").as_f64(),
    });
    let facts = MessageFacts {
        from_this_window: Object::is(&get(event, "source"), window),
        origin: get(event, "origin").as_string(),
        wrapper,
    };
    (facts, data)
}

/// The filter applied to one event on `window` (any value: an event that
/// is no `MessageEvent` has no `source` and is ignored like any stranger).
pub fn accept_event(event: &JsValue, window: &Window, origins: &[String]) -> Option<Delivery> {
    accept_event_on(CHANNEL, event, window, origins)
}

/// [`accept_event`] for the wrapper on `channel`.
pub fn accept_event_on(
    channel: &str,
    event: &JsValue,
    window: &Window,
    origins: &[String],
) -> Option<Delivery> {
    let (facts, data) = read(event, window);
    let Accepted { origin, seq } = accept(&facts, origins, channel)?;
    Some(Delivery {
        seq,
        envelope: get(&data, "envelope"),
        origin,
    })
}

/// Posts a reply `{ channel, dir: "up", seq, envelope }` to `origin` only.
pub fn reply(window: &Window, origin: &str, seq: f64, uplink: &JsValue) {
    let _ = reply_on(CHANNEL, window, origin, seq, uplink);
}

/// [`reply`] on `channel`. Nothing throws: `Err` is what `postMessage`
/// threw (a `DataCloneError` for an envelope holding a function, say; an
/// origin the browser cannot target, `"null"`, too).
pub fn reply_on(
    channel: &str,
    window: &Window,
    origin: &str,
    seq: f64,
    uplink: &JsValue,
) -> Result<(), JsValue> {
    let wrapper = Object::new();
    for (key, value) in [
        ("channel", JsValue::from_str(channel)),
        ("dir", JsValue::from_str("up")),
        ("seq", JsValue::from_f64(seq)),
        ("envelope", uplink.clone()),
    ] {
        let _ = Reflect::set(&wrapper, &JsValue::from_str(key), &value);
    }
    window.post_message(&wrapper, origin)
}

/// The bridge's `message` listener; dropping it removes the listener (a
/// gloo-events `EventListener`), and never throws.
pub struct WindowBridge {
    /// `None` once dropped.
    listener: Option<EventListener>,
    /// Cleared on drop: a listener the page would not let go of answers
    /// nothing.
    live: Rc<Cell<bool>>,
}

impl WindowBridge {
    /// Listens on `window` for downlinks from `origins` (already checked
    /// with [`super::check_origins`]).
    pub fn attach(
        window: Window,
        origins: Vec<String>,
        on_down: impl Fn(Delivery) + 'static,
    ) -> Self {
        Self::attach_on(CHANNEL, window, origins, on_down)
    }

    /// [`WindowBridge::attach`] for the wrapper on `channel`. gloo-events
    /// throws through wasm when the window's `addEventListener` throws (a
    /// page script replaced it): the caller tries the window first (the
    /// shell's `serve`, crates/wasm/src/serve.rs, reports
    /// [`super::AttachError::Threw`]).
    pub fn attach_on(
        channel: &'static str,
        window: Window,
        origins: Vec<String>,
        on_down: impl Fn(Delivery) + 'static,
    ) -> Self {
        let target = window.clone();
        let live = Rc::new(Cell::new(true));
        let open = Rc::clone(&live);
        let listener = EventListener::new(&target, "message", move |event| {
            if !open.get() {
                return;
            }
            if let Some(delivery) = accept_event_on(channel, event, &window, &origins) {
                on_down(delivery);
            }
        });
        Self {
            listener: Some(listener),
            live,
        }
    }
}

impl WindowBridge {
    /// Adds the same listener to the window again. While the window holds
    /// it this changes nothing (the browser keeps one listener of the same
    /// callback and phase: never a second reply); after `document.open()`,
    /// which erases every listener on the window, it is back. What a page's
    /// replaced `addEventListener` throws is ignored: the bridge is
    /// attached as far as this instance can know.
    pub fn reattach(&self) {
        if let Some(listener) = &self.listener {
            // gloo-events' own call (bubble phase): one import, not two.
            let _ = listener
                .target()
                .add_event_listener_with_callback_and_add_event_listener_options(
                    "message",
                    listener.callback().as_ref().unchecked_ref(),
                    &web_sys::AddEventListenerOptions::new(),
                );
        }
    }
}

impl Drop for WindowBridge {
    fn drop(&mut self) {
        self.live.set(false);
        let Some(listener) = self.listener.take() else {
            return;
        };
        // gloo-events' own drop `unwrap_throw`s a failed removal through
        // wasm: a page script may replace `removeEventListener` with one
        // that throws after the attach (the attach's trial caught it
        // before). So the removal is tried here first (web-sys returns its
        // `Err`), as gloo-events removes (bubble phase). When it throws,
        // the page took away the means to remove the listener: it is kept
        // (`forget`, with what it holds), inert since `live` is cleared (as
        // is one a no-op replacement leaves on the window). Once removed
        // here, gloo-events' drop removes it again: a no-op.
        let removed = listener
            .target()
            .remove_event_listener_with_callback_and_bool(
                "message",
                listener.callback().as_ref().unchecked_ref(),
                false,
            );
        if removed.is_err() {
            listener.forget();
        }
    }
}
