//! The window bridge (baseline §3): a `message` listener that accepts only
//! same-window, allowed-origin, well-wrapped downlinks and hands them on.
//! Any page script can post such a message, so the bridge authenticates
//! nothing: it only filters what is not addressed to it.
//!
//! The wrapper `{ channel, dir, seq, envelope }` and its filters are the same
//! for every protocol on the window; only the channel differs (`"in-page-playable"`
//! here, `"pling.surface"` for Surface), hence the `*_on(channel, …)` forms.

use js_sys::{Function, Number, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::Window;

#[wasm_bindgen(module = "/src/listen.js")]
extern "C" {
    /// Adds `handler` for `kind` events on `target`; returns its removal.
    fn listen(target: &JsValue, kind: &str, handler: &Handler) -> Function;
}

/// The same closure type as the other listeners of the module, so one
/// invoke shim serves them all (it never returns an error).
type Handler = Closure<dyn FnMut(JsValue) -> Result<(), JsError>>;

pub const CHANNEL: &str = "in-page-playable";

/// A message that passed the bridge's filters.
pub struct Delivery {
    pub seq: JsValue,
    pub envelope: JsValue,
    pub origin: String,
}

/// Owns the listener; dropping it removes the listener.
pub struct WindowBridge {
    stop: Function,
    _handler: Handler,
}

impl Drop for WindowBridge {
    fn drop(&mut self) {
        // Removed before the closure is freed (fields drop after this).
        let _ = self.stop.call0(&JsValue::UNDEFINED);
    }
}

/// Why attaching failed, for a clear JS error.
pub fn check_origins(origins: &[String]) -> Result<(), String> {
    if origins.is_empty() {
        return Err(
            "attachWindowBridge() needs a non-empty allowedOrigins option \
                    (the exact origins allowed to post, e.g. [location.origin])"
                .into(),
        );
    }
    if let Some(bad) = origins.iter().find(|o| o.as_str() == "*" || o.is_empty()) {
        return Err(format!(
            "allowedOrigins entry {} is not an origin: list exact origins such as \"https://example.com\"",
            json::quote(bad)
        ));
    }
    Ok(())
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The filter, applied to one message event. `None`: ignore silently.
/// The event's fields are read by name: an event that is no `MessageEvent`
/// has no `source` and is ignored like any other stranger.
pub fn accept(event: &JsValue, window: &Window, origins: &[String]) -> Option<Delivery> {
    accept_on(CHANNEL, event, window, origins)
}

/// [`accept`] for the wrapper on `channel`.
pub fn accept_on(
    channel: &str,
    event: &JsValue,
    window: &Window,
    origins: &[String],
) -> Option<Delivery> {
    if !Object::is(&get(event, "source"), window.as_ref()) {
        return None;
    }
    let origin = get(event, "origin").as_string()?;
    if !origins.contains(&origin) {
        return None;
    }
    let data = get(event, "data");
    if !data.is_object() {
        return None;
    }
    if get(&data, "channel").as_string().as_deref() != Some(channel)
        || get(&data, "dir").as_string().as_deref() != Some("down")
    {
        return None;
    }
    let seq = get(&data, "seq");
    if !Number::is_integer(&seq) {
        return None;
    }
    Some(Delivery {
        seq,
        envelope: get(&data, "envelope"),
        origin,
    })
}

/// Posts a reply `{ channel, dir: "up", seq, envelope }` to `origin` only.
pub fn reply(window: &Window, origin: &str, seq: &JsValue, uplink: &JsValue) {
    reply_on(CHANNEL, window, origin, seq, uplink);
}

/// [`reply`] on `channel`.
pub fn reply_on(channel: &str, window: &Window, origin: &str, seq: &JsValue, uplink: &JsValue) {
    let msg = Object::new();
    let _ = Reflect::set(&msg, &"channel".into(), &channel.into());
    let _ = Reflect::set(&msg, &"dir".into(), &"up".into());
    let _ = Reflect::set(&msg, &"seq".into(), seq);
    let _ = Reflect::set(&msg, &"envelope".into(), uplink);
    // An origin the browser cannot target (e.g. "null") just drops the reply.
    let _ = window.post_message(&msg, origin);
}

impl WindowBridge {
    /// Listens on `window` for downlinks from `origins` (already checked).
    pub fn attach(
        window: Window,
        origins: Vec<String>,
        on_down: impl Fn(Delivery) + 'static,
    ) -> Self {
        Self::attach_on(CHANNEL, window, origins, on_down)
    }

    /// [`WindowBridge::attach`] for the wrapper on `channel`.
    pub fn attach_on(
        channel: &'static str,
        window: Window,
        origins: Vec<String>,
        on_down: impl Fn(Delivery) + 'static,
    ) -> Self {
        let target: JsValue = window.clone().into();
        let handler = Handler::new(move |event: JsValue| {
            if let Some(delivery) = accept_on(channel, &event, &window, &origins) {
                on_down(delivery);
            }
            Ok(())
        });
        Self {
            stop: listen(&target, "message", &handler),
            _handler: handler,
        }
    }
}
