//! The playable ports on the web (wasm32 only): each one the DOM adapter of
//! its atom (`sense`, `bot`, `bom`), or a JS object the page injected
//! through `options.ports` (each port independently), whose answers
//! [`crate::answers`] decodes. The shell's instance runs on these, and so
//! does Surface's built-in executor (nothing injected), so `run` is built
//! once for both.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use bom::DomBom;
use bot::DomBot;
use sense::dom::{thrown_message as thrown, DomSense};
use sense::{Beyond, Snapshot};

use crate::answers::{BomAnswer, ClickAnswer};
use crate::ports::{
    Action, Bom, Bot, DispatchError, Outcome, PortError, Random, Refusal, Report, Sense,
};

pub mod js;

use crate::bounds::ENVELOPE;
use js::{decode, has_method, json_within, top_level, Refused};

/// Calls `obj[name](arg)` and awaits the result when it is a promise. A
/// missing method, a throw and a rejection are `Err(why)`.
async fn call(obj: &JsValue, name: &str, arg: &JsValue) -> Result<JsValue, String> {
    let method = Reflect::get(obj, &JsValue::from_str(name)).map_err(|e| thrown(&e))?;
    let method: Function = method
        .dyn_into()
        .map_err(|_| format!("ports.{name} is not a function"))?;
    let value = method.call1(obj, arg).map_err(|e| thrown(&e))?;
    // A thenable has a callable `then` (Reflect.get fails on primitives and
    // on a throwing getter: not a thenable, then).
    if has_method(&value, "then") {
        return wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&value))
            .await
            .map_err(|e| thrown(&e));
    }
    Ok(value)
}

/// Reads the menu: `dom` under the scan root, or the injected `js` port.
pub struct SensePort {
    pub dom: DomSense,
    pub js: Option<JsValue>,
    /// The injected `captureScreenshot`, called with the scan root.
    pub capture: Option<Function>,
}

/// The DOM reader alone: nothing injected, no capturer.
impl From<DomSense> for SensePort {
    fn from(dom: DomSense) -> Self {
        Self {
            dom,
            js: None,
            capture: None,
        }
    }
}

impl Sense for SensePort {
    type Target = JsValue;
    type Shot = JsValue;

    async fn snapshot(&self) -> Result<Snapshot, PortError> {
        let Some(js) = &self.js else {
            return Ok(self.dom.snapshot()?);
        };
        let value = call(js, "snapshot", &JsValue::UNDEFINED).await?;
        // Within the bounds before serde_json reads it, as every value the
        // page hands in.
        let json = json_within(&value, &ENVELOPE).map_err(|e| {
            PortError::Invalid(match e {
                Refused::NotData(_) => {
                    "ports.sense.snapshot() returned something that is not JSON".into()
                }
                Refused::Bounds(why) => {
                    format!("ports.sense.snapshot() returned a snapshot out of bounds: {why}")
                }
            })
        })?;
        Snapshot::from_json(&json).map_err(|e| {
            let why = crate::bounds::unreadable(&json, &e);
            PortError::Invalid(format!(
                "ports.sense.snapshot() returned no valid ISnapshot: {why}"
            ))
        })
    }

    async fn resolve(&self, id: &str) -> Result<Option<JsValue>, PortError> {
        let Some(js) = &self.js else {
            return Ok(self.dom.resolve(id));
        };
        if !has_method(js, "resolve") {
            return Ok(None);
        }
        let target = call(js, "resolve", &JsValue::from_str(id)).await?;
        Ok((!target.is_null() && !target.is_undefined()).then_some(target))
    }

    async fn beyond_root(&self) -> Result<Beyond, PortError> {
        match &self.js {
            // An injected reader stands for the page.
            Some(_) => Ok(Beyond::default()),
            None => Ok(sense::dom::beyond_root(self.dom.root())?),
        }
    }

    async fn capture(&self) -> Result<Option<JsValue>, PortError> {
        let Some(capture) = &self.capture else {
            return Ok(None);
        };
        let holder = Object::new();
        let _ = Reflect::set(&holder, &"capture".into(), capture);
        Ok(Some(call(&holder, "capture", self.dom.root()).await?))
    }
}

/// Checks and dispatches with bot's DOM adapter; an injected `js` port
/// takes the clicks. `BotPort::default()` is the DOM adapter alone.
#[derive(Default)]
pub struct BotPort {
    pub dom: DomBot,
    pub js: Option<JsValue>,
}

impl Bot<JsValue> for BotPort {
    async fn check(&self, target: &JsValue, action: &Action<JsValue>) -> Result<(), Refusal> {
        // Injected bots may act on stand-in targets; elements are always checked.
        if self.js.is_some() && bot::element(target).is_none() {
            return Ok(());
        }
        self.dom.check_action(target, action).await
    }

    async fn dispatch(
        &self,
        target: &JsValue,
        action: &Action<JsValue>,
    ) -> Result<Report, DispatchError> {
        // An injected bot takes clicks; other events stay with the DOM bot.
        let (Some(js), Action::Click) = (&self.js, action) else {
            return self.dom.dispatch(target, action);
        };
        let out = call(js, "click", target).await?;
        // A value that is not plain data (the element itself, say) is no
        // failure report; `{ ok: false, … }` is one whatever else it holds.
        let failed = decode::<ClickAnswer>(&top_level(&out, &["ok"])).is_ok_and(|a| a.failed());
        if failed {
            Err("ports.bot.click reported failure".into())
        } else {
            Ok(Report::Done)
        }
    }
}

/// Reloads through bom's DOM adapter, or the injected `js` port's `run`.
pub struct BomPort {
    pub dom: DomBom,
    pub js: Option<JsValue>,
}

impl Bom for BomPort {
    async fn reload(&self) -> Result<Outcome, PortError> {
        let Some(js) = &self.js else {
            return Ok(self.dom.reload());
        };
        let action = Object::new();
        let _ = Reflect::set(&action, &"type".into(), &"reload".into());
        let out = call(js, "run", &action).await?;
        // Anything but `{ ok: true, … }` is not ok (a failed reload).
        let answer = decode::<BomAnswer>(&top_level(&out, &["ok", "retired"])).unwrap_or_default();
        Ok(Outcome {
            ok: answer.ok(),
            retired: answer.retired(),
        })
    }

    /// Only the real reload can be undone; an injected port's answer stands.
    fn reload_undone(&self) -> bool {
        self.js.is_none() && self.dom.undone()
    }
}

/// `window.crypto` (through Reflect.get, which the module imports anyway),
/// else the global one: a stand-in window (an object with `postMessage`)
/// has none, and its pageIds still need randomness.
pub fn crypto(window: &JsValue) -> Option<web_sys::Crypto> {
    let read = |from: &JsValue| {
        Reflect::get(from, &"crypto".into())
            .ok()
            .filter(JsValue::is_object)
    };
    read(window)
        .or_else(|| read(&js_sys::global()))
        .map(JsCast::unchecked_into)
}

/// `crypto.getRandomValues`, for pageIds.
pub struct WebRandom {
    pub crypto: Option<web_sys::Crypto>,
}

impl Random for WebRandom {
    fn fill(&self, buf: &mut [u8]) -> Result<(), PortError> {
        let crypto = self
            .crypto
            .as_ref()
            .ok_or_else(|| "crypto.getRandomValues is unavailable".to_string())?;
        crypto
            .get_random_values_with_u8_array(buf)
            .map(|_| ())
            .map_err(|e| thrown(&e).into())
    }
}
