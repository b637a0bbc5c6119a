//! A Surface's capabilities as WebMCP tools (`surface.publishWebMcp()`): a
//! read is a `describe`, a call is an `invoke` through the Surface's own
//! `handle` (session, scope, schema, availability, consent and expectation
//! checks all apply); the response is the result.

use std::cell::Cell;
use std::rc::{Rc, Weak};

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::plan_capabilities;
use super::publication::{LocalFuture, Read, Source};
use crate::surface::Inner;

#[wasm_bindgen(module = "/src/webmcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = surfaceRequest)]
    fn surface_request(id: &str, method: &str, capability: &str, input: &JsValue) -> JsValue;
}

pub(crate) struct SurfaceSource {
    surface: Weak<Inner>,
    /// Request ids never repeat within a session (REPLAY_DETECTED): a random
    /// prefix per publication, then a counter.
    prefix: String,
    seq: Cell<u32>,
}

impl SurfaceSource {
    pub(crate) fn boxed(surface: &Rc<Inner>) -> Box<dyn Source> {
        let nonce = (js_sys::Math::random() * f64::from(u32::MAX)) as u32;
        Box::new(Self {
            surface: Rc::downgrade(surface),
            prefix: format!("webmcp-{nonce:08x}-"),
            seq: Cell::new(0),
        })
    }

    fn request(&self, method: &str, capability: &str, input: &JsValue) -> JsValue {
        let n = self.seq.get().wrapping_add(1);
        self.seq.set(n);
        surface_request(&format!("{}{n}", self.prefix), method, capability, input)
    }
}

impl Source for SurfaceSource {
    fn begin(&self) -> LocalFuture<'_, bool> {
        Box::pin(async move { self.surface.upgrade().is_some() })
    }

    fn read(&self) -> LocalFuture<'_, Read> {
        Box::pin(async move {
            let Some(surface) = self.surface.upgrade() else {
                return Read::Stop;
            };
            let request = self.request("describe", "", &JsValue::UNDEFINED);
            let response = surface.handle(request).await;
            let json = js_sys::JSON::stringify(&response)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            let response: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
            match response.get("result") {
                Some(result) if response.get("ok") == Some(&Value::Bool(true)) => {
                    Read::Tools(plan_capabilities(result))
                }
                // No session (or it expired, or was revoked): nothing is usable.
                _ => Read::Tools(Vec::new()),
            }
        })
    }

    fn call(&self, id: String, input: JsValue) -> LocalFuture<'_, JsValue> {
        Box::pin(async move {
            let Some(surface) = self.surface.upgrade() else {
                return self.withdrawn(&id);
            };
            let request = self.request("invoke", &id, &input);
            surface.handle(request).await
        })
    }

    fn withdrawn(&self, id: &str) -> JsValue {
        let message = format!("{id:?}: this WebMCP tool was withdrawn; nothing was invoked");
        let message = serde_json::to_string(&message).unwrap_or_default();
        let response = format!(
            r#"{{"protocol":"pling.surface/0.1","id":"","ok":false,"error":{{"code":"CAPABILITY_NOT_EXPOSED","message":{message}}}}}"#
        );
        js_sys::JSON::parse(&response).unwrap_or(JsValue::NULL)
    }
}
