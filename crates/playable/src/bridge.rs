//! The window bridge (baseline §3): a `message` listener that accepts only
//! same-window, allowed-origin, well-wrapped downlinks and hands them on.
//! Any page script can post such a message, so the bridge authenticates
//! nothing: it only filters what is not addressed to it.
//!
//! The wrapper `{ channel, dir, seq, envelope }` and its filters are the same
//! for every protocol on the window; only the channel differs (`"in-page-playable"`
//! here, `"pling.surface"` for Surface), hence the `*_on(channel, …)` forms.

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use web_sys::Window;

#[wasm_bindgen(module = "/src/listen.js")]
extern "C" {
    /// Adds `handler` for `kind` events on `target`; returns its removal.
    fn listen(target: &JsValue, kind: &str, handler: &Handler) -> Function;
    /// The filter: `[seq, envelope, origin]`, or `None` to ignore the event.
    #[wasm_bindgen(js_name = accept)]
    fn accept_js(event: &JsValue, window: &Window, channel: &str, origins: &Array)
        -> Option<Array>;
    /// Posts the reply wrapper to `origin` (errors ignored).
    #[wasm_bindgen(js_name = reply)]
    fn reply_js(window: &Window, channel: &str, origin: &str, seq: &JsValue, envelope: &JsValue);
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
            crate::envelope::quote(bad)
        ));
    }
    Ok(())
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
    accept_in(channel, event, window, &origin_list(origins))
}

fn origin_list(origins: &[String]) -> Array {
    origins.iter().map(|o| JsValue::from_str(o)).collect()
}

/// [`accept_on`] with the origins as a JS array (built once per listener).
fn accept_in(channel: &str, event: &JsValue, window: &Window, origins: &Array) -> Option<Delivery> {
    let got = accept_js(event, window, channel, origins)?;
    Some(Delivery {
        seq: got.get(0),
        envelope: got.get(1),
        origin: got.get(2).as_string()?,
    })
}

/// Posts a reply `{ channel, dir: "up", seq, envelope }` to `origin` only.
pub fn reply(window: &Window, origin: &str, seq: &JsValue, uplink: &JsValue) {
    reply_on(CHANNEL, window, origin, seq, uplink);
}

/// [`reply`] on `channel`.
pub fn reply_on(channel: &str, window: &Window, origin: &str, seq: &JsValue, uplink: &JsValue) {
    reply_js(window, channel, origin, seq, uplink);
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
        let origins = origin_list(&origins);
        let handler = Handler::new(move |event: JsValue| {
            if let Some(delivery) = accept_in(channel, &event, &window, &origins) {
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
