//! Serving one owner (the playable instance, or a Surface) on its window
//! bridge channel: the origin check, attach-once, and a reply per delivery.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use playable::bridge::{self, AttachError, WindowBridge};
use wasm_bindgen::prelude::*;
use web_sys::Window;

// Why a trial before gloo-events adds the bridge's listener: gloo-events
// cannot report a failed add. `EventListener::new` calls `unwrap_throw` on
// it, which throws a bare "called `Result::unwrap_throw()` on an `Err`
// value" through the wasm frames (losing what the page threw, leaking the
// closure and the owner it holds), and its `Drop` does the same on a
// failed remove. A page script may replace either method, on the window or
// on `EventTarget.prototype`, with one that throws: tried here first, that
// is an `AttachError` the caller reports, and gloo-events stays the
// listener. (One replaced after the attach is `WindowBridge`'s drop's
// concern: it silences the listener it cannot remove.) The trial listener
// is a function of its own. A method that throws only on a later call is
// not caught by a trial (listen.js; tests/listen.test.mjs).
#[wasm_bindgen(module = "/src/listen.js")]
extern "C" {
    /// Adds a no-op `message` listener to `target` as gloo-events adds its
    /// own (bubble phase, passive), then removes it: `undefined`, or
    /// `[method, thrown]` for the method that threw. Never throws.
    #[wasm_bindgen(js_name = tryListening)]
    fn try_listening(target: &Window) -> JsValue;
}

/// An owner's answer to one delivery, boxed so that one (non-generic) copy
/// of the listener serves every owner type.
pub(crate) type Answer = Pin<Box<dyn Future<Output = JsValue>>>;
pub(crate) type Handler = Box<dyn Fn(JsValue) -> Option<Answer>>;
/// The answer posted instead of one `postMessage` refused (its envelope,
/// and why): a refusal of the owner's protocol, so every delivery is
/// answered.
pub(crate) type Unpostable = fn(&JsValue, &str) -> JsValue;

/// The promise of any answer (never rejected): one instantiation for every
/// caller.
pub(crate) fn promise(answer: Answer) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move { Ok(answer.await) })
}

/// Attaches `slot`'s bridge on `channel`; one attached already is added to
/// the window again (attaching twice must not double-reply, and the browser
/// keeps one of an identical listener). Each accepted downlink goes to
/// `handle(owner, envelope)`; its answer is posted back to the sender's
/// origin with the same seq. The listener holds the owner: an attached
/// bridge keeps it answering, whether or not the page kept the JS object
/// (`createSurface(…).attachWindowBridge()` alone is the documented use),
/// until the bridge is detached (which drops the listener, and with it
/// this hold: the owner's `slot` holds the listener, so that is a cycle
/// only detaching ends). `Err`: the origins are refused, or the window's
/// `addEventListener` or `removeEventListener` throws (a page script
/// replaced it); nothing is attached.
pub(crate) fn serve<T, F, Fut>(
    slot: &RefCell<Option<WindowBridge>>,
    channel: &'static str,
    window: &Window,
    origins: &[String],
    owner: Rc<T>,
    handle: F,
    unpostable: Unpostable,
) -> Result<(), AttachError>
where
    T: 'static,
    F: Fn(Rc<T>, JsValue) -> Fut + 'static,
    Fut: Future<Output = JsValue> + 'static,
{
    serve_boxed(
        slot,
        channel,
        window,
        origins,
        Box::new(move |envelope| Some(Box::pin(handle(Rc::clone(&owner), envelope)) as Answer)),
        unpostable,
    )
}

/// [`serve`] with the owner already behind `handle` (`None`: the owner is
/// gone, nothing to answer). The one copy of the listener.
pub(crate) fn serve_boxed(
    slot: &RefCell<Option<WindowBridge>>,
    channel: &'static str,
    window: &Window,
    origins: &[String],
    handle: Handler,
    unpostable: Unpostable,
) -> Result<(), AttachError> {
    bridge::check_origins(origins)?;
    // Attached already: the same listener again, which the browser dedupes,
    // so an attach after `document.open()` (it erases the window's
    // listeners) brings the bridge back instead of keeping a dead one.
    let Ok(held) = slot.try_borrow() else {
        return Ok(());
    };
    if let Some(bridge) = held.as_ref() {
        bridge.reattach();
        return Ok(());
    }
    drop(held);
    let reply_to = window.clone();
    // A window that cannot take the listener is an `Err` here, before the
    // slot is touched: nothing half-attached, and a later attach tries again.
    let threw = try_listening(window);
    if threw.is_object() {
        return Err(AttachError::Threw {
            method: crate::js::get(&threw, "0").as_string().unwrap_or_default(),
            thrown: crate::js::thrown(&crate::js::get(&threw, "1")),
        });
    }
    let listener =
        WindowBridge::attach_on(channel, window.clone(), origins.to_vec(), move |delivery| {
            let Some(answer) = handle(delivery.envelope) else {
                return;
            };
            let window = reply_to.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let up = answer.await;
                let (origin, seq) = (&delivery.origin, delivery.seq);
                if let Err(e) = bridge::reply_on(channel, &window, origin, seq, &up) {
                    // The envelope could not be cloned (a screenshot that is
                    // a function, say): the sender still gets an answer.
                    let why = crate::js::thrown(&e);
                    let _ = bridge::reply_on(channel, &window, origin, seq, &unpostable(&up, &why));
                }
            });
        });
    if let Ok(mut slot) = slot.try_borrow_mut() {
        *slot = Some(listener);
    }
    Ok(())
}
