//! The playable traits implemented for the web: the real DOM adapters, or JS
//! objects injected through `options.ports` (each port independently).

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use playable::ports::{
    Action, Bom, Bot, DispatchError, Outcome, PortError, Random, Refusal, Report, Sense,
};
use sense::dom::DomSense;
use sense::Snapshot;

use crate::answers::{BomAnswer, ClickAnswer};
use crate::js::{decode, thrown};

/// What answers.rs reads of a port's answer, and nothing more: an object's
/// `keys` copied into a fresh object when they hold a boolean, number,
/// string or `null` (a getter that throws, or any other value, leaves the
/// key out), or the answer itself when it is no object. So what else the
/// object holds cannot change its meaning: an element, a function, or a
/// value nested deeper than the browser's structured clone copies (which
/// then gives `null` for the whole answer) beside `ok: false` left the
/// structured clone of the whole answer failing or empty, and the failure
/// unreported.
fn top_level(out: &JsValue, keys: &[&str]) -> JsValue {
    if !out.is_object() {
        return out.clone();
    }
    let copy = Object::new();
    for key in keys {
        let value = crate::js::get(out, key);
        let plain = value.is_null()
            || value.as_bool().is_some()
            || value.as_f64().is_some()
            || value.is_string();
        if plain {
            let _ = Reflect::set(&copy, &JsValue::from_str(key), &value);
        }
    }
    copy.into()
}

/// Calls `obj[name](arg)` and awaits the result when it is a promise. A
/// missing method, a throw and a rejection are `Err(why)`.
pub async fn call(obj: &JsValue, name: &str, arg: &JsValue) -> Result<JsValue, String> {
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

/// `JSON.stringify(v)`; `None` when it throws or gives `undefined`.
pub fn stringify(v: &JsValue) -> Option<String> {
    js_sys::JSON::stringify(v).ok()?.as_string()
}

fn has_method(obj: &JsValue, name: &str) -> bool {
    Reflect::get(obj, &name.into()).is_ok_and(|f| f.is_function())
}

pub struct SensePort {
    pub dom: DomSense,
    pub js: Option<JsValue>,
    pub capture: Option<Function>,
}

impl Sense for SensePort {
    type Target = JsValue;
    type Shot = JsValue;

    async fn snapshot(&self) -> Result<Snapshot, PortError> {
        let Some(js) = &self.js else {
            return Ok(self.dom.snapshot()?);
        };
        let value = call(js, "snapshot", &JsValue::UNDEFINED).await?;
        let json = stringify(&value).ok_or_else(|| {
            PortError::Invalid("ports.sense.snapshot() returned something that is not JSON".into())
        })?;
        Snapshot::from_json(&json).map_err(|e| {
            let why = playable::bounds::unreadable(&json, &e);
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

    async fn capture(&self) -> Result<Option<JsValue>, PortError> {
        let Some(capture) = &self.capture else {
            return Ok(None);
        };
        let holder = Object::new();
        let _ = Reflect::set(&holder, &"capture".into(), capture);
        Ok(Some(call(&holder, "capture", self.dom.root()).await?))
    }
}

pub struct BotPort {
    pub dom: bot::DomBot,
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

pub struct BomPort {
    pub dom: bom::DomBom,
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

/// `window.crypto` (through Reflect.get, which the module imports anyway).
pub fn crypto(window: &JsValue) -> Option<web_sys::Crypto> {
    Reflect::get(window, &"crypto".into())
        .ok()
        .map(JsCast::unchecked_into)
}

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
