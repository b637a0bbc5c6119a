//! `createSurface`: the Surface protocol (crate `surface`) over the page's
//! JS callbacks, the live DOM, and the window bridge channel `"pling.surface"`.
//! Translation only: every rule lives in `surface`.

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use js_sys::{Array, Date, Function, Promise};
use playable::bridge::WindowBridge;
use serde_json::{Map, Value};
use surface::dom::{clicked, control_scope, DomPage};
use surface::{
    exec_outcome_from_json, BusinessError, Page, ProtocolCode, ProtocolError, Registry,
    RegistrySource, Session, SurfaceConfig, MALFORMED_RESULT_CODE,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::Window;

use crate::options;
use crate::webmcp::{Owner, Publication, WebMcpPublication};

/// The bridge channel Surface answers on (the playable bridge's wrapper).
const CHANNEL: &str = "pling.surface";

// The JS side of the shell: every value from the page (request, options,
// callback results) arrives as `[json, problem]`, copied by boundary.js's
// `plain`/`projectWith` (imported from the crate's snippet directory, where
// wasm-bindgen puts this inline module too; `thrown` words a callback's
// throw), with the message prefixes here, so the wasm side only parses.
#[wasm_bindgen(inline_js = r#"
import { plain, projectWith, thrown } from "./src/boundary.js";

const with_prefix = (out, prefix) => {
  if (out[1]) out[1] = prefix + out[1];
  return out;
};

export const projectRequest = (r) =>
  with_prefix(projectWith(r, ["protocol", "id", "method", "capability"], "input"), "the request must be plain JSON: ");

export function readRegistry(r) {
  if (typeof r === "function") {
    try { r = r(); } catch (e) { return ["null", "registry() threw: " + thrown(e)]; }
  }
  return with_prefix(plain(r, "registry"), "the registry is not plain JSON: ");
}

// `f()`, or `f(id, input)` with a fresh copy of the input. The messages
// name execute: the only callback whose failure is reported (a failed
// session() is no session, a failed confirm() a refusal).
export async function callPlain(f, id, input) {
  let v;
  try { v = await (id ? f(id, JSON.parse(input)) : f()); } catch (e) { return ["null", "the page's execute threw: " + thrown(e)]; }
  return with_prefix(plain(v, "result"), "the page's execute returned no plain JSON: ");
}

const warned = new WeakMap();
// console.warn with Surface's prefix, unless it repeats the last warning for
// `key` (one per surface); a page without a console gets no warning.
export function warnOnce(key, m) {
  if (warned.get(key) === m) return;
  warned.set(key, m);
  try { console.warn("in-page-playable surface: " + m); } catch {}
}

export function surfaceOptions(o, scan) {
  if (typeof o !== "object" || !o) return "takes an options object";
  const keys = ["registry", "session", "execute", "confirm", "app", "expose", "recordLimit", "rateLimit", "root", "allowedOrigins"];
  const v = [];
  for (const k of scan ? keys.slice(8) : keys.slice(0, 8)) {
    const i = v.length;
    try { v.push(o[k]); } catch { return "reading options." + k + " threw"; }
    if (scan) continue;
    if (!i && !Array.isArray(v[0]) && typeof v[0] !== "function") return "options.registry must be an array of declarations or a function returning one";
    if (i == 1 && v[1] == null) return "options.session must be a function returning the session (or null)";
    if (i && i < 4 && v[i] != null && typeof v[i] !== "function") return "options." + k + " must be a function";
  }
  return scan ? { root: v[0], allowedOrigins: v[1] } : [...plain({ app: v[4], expose: v[5], recordLimit: v[6], rateLimit: v[7] }, "options"), v[0], v[1], v[2], v[3]];
}
"#)]
extern "C" {
    /// The request's `protocol`, `id`, `method`, `capability` and `input`.
    #[wasm_bindgen(js_name = projectRequest)]
    fn project_request(request: &JsValue) -> Array;
    /// The registry option, called when it is a function.
    #[wasm_bindgen(js_name = readRegistry)]
    fn read_registry(registry: &JsValue) -> Array;
    /// A host callback's awaited result; never rejects.
    #[wasm_bindgen(js_name = callPlain)]
    fn call_plain(f: &Function, id: &str, input: &str) -> Promise;
    /// createSurface's reads and type checks: each option read once, in
    /// order, and checked as soon as it is read; `scan` reads the last two,
    /// after the data options passed. `[json, problem, registry, session,
    /// execute?, confirm?]` (the JSON of `{ app, expose, recordLimit,
    /// rateLimit }`), with `scan` `{ root, allowedOrigins }`, or why not (a
    /// string).
    #[wasm_bindgen(js_name = warnOnce)]
    fn warn_once(key: &JsValue, message: &str);
    #[wasm_bindgen(js_name = surfaceOptions)]
    fn surface_options(options: &JsValue, scan: bool) -> JsValue;
}

/// `[json, problem]` as a JSON value.
fn parsed(out: &Array) -> Result<Value, String> {
    if let Some(problem) = out.get(1).as_string() {
        return Err(problem);
    }
    serde_json::from_str(&out.get(0).as_string().unwrap_or_default())
        .map_err(|e| format!("not JSON: {e}"))
}

/// Calls a host callback, `f()` when `id` is empty, else `f(id, input)`
/// (`input` is JSON text): awaited, its result is `[json, problem]` for
/// [`called`]. (A plain `JsFuture` per await site is smaller than an async
/// helper.)
fn call(f: &Function, id: &str, input: &str) -> JsFuture {
    JsFuture::from(call_plain(f, id, input))
}

/// A [`call`]'s outcome; `Err(message)` when the callback threw, rejected
/// or returned no plain JSON.
fn called(out: Result<JsValue, JsValue>) -> Result<Value, String> {
    match out {
        Ok(out) => parsed(out.unchecked_ref()),
        Err(_) => Err("the callback could not be called".to_string()),
    }
}

/// A value crossing back to JS: one string and a native JSON.parse.
fn to_js(value: &Value) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|s| js_sys::JSON::parse(&s).ok())
        .unwrap_or(JsValue::NULL)
}

pub(crate) struct Inner {
    core: surface::Surface,
    /// `CapabilityDeclaration[]`, or a function returning them.
    registry: JsValue,
    execute: Option<Function>,
    session: Function,
    confirm: Option<Function>,
    page: DomPage,
    window: Window,
    /// The scan root (a WebMCP publication watches it).
    root: JsValue,
    allowed_origins: Vec<String>,
    bridge: RefCell<Option<WindowBridge>>,
    /// This surface's key for `warnOnce`, so a bad declaration warns once.
    warned: JsValue,
    webmcp: RefCell<Option<Rc<Publication>>>,
}

impl RegistrySource for Inner {
    /// Read afresh each time; anything unreadable is an empty registry
    /// (fail closed) with a console warning.
    fn registry(&self) -> Registry {
        let json = match parsed(&read_registry(&self.registry)) {
            Ok(json) => json,
            Err(why) => {
                self.warn(why);
                return Registry::default();
            }
        };
        let registry = Registry::from_json(&json);
        if !registry.skipped.is_empty() {
            let mut message = "declarations skipped:".to_string();
            for (i, s) in registry.skipped.iter().enumerate() {
                let sep = if i == 0 { " " } else { "; " };
                let _ = write!(message, "{sep}[{}] {}", s.index, s.reason);
            }
            self.warn(message);
        }
        registry
    }
}

impl Inner {
    fn warn(&self, message: String) {
        warn_once(&self.warned, &message);
    }

    pub(crate) async fn handle(&self, request: JsValue) -> JsValue {
        let projected = project_request(&request);
        let value: Value = serde_json::from_str(&projected.get(0).as_string().unwrap_or_default())
            .unwrap_or(Value::Null);
        if let Some(problem) = projected.get(1).as_string() {
            let error = ProtocolError::new(ProtocolCode::InvalidRequest, problem);
            return to_js(&surface::respond(&value, Err(error)));
        }
        // `Surface::handle`'s two halves around this shell's own awaits.
        // `session()`, read per request.
        let session = read_session(called(call(&self.session, "", "").await));
        let observe = || self.page.observe();
        let p = match self.core.begin(
            &value,
            session.as_ref(),
            Date::now(),
            self,
            &observe,
            self.confirm.is_some(),
        ) {
            Ok(p) => p,
            Err(response) => return to_js(&response),
        };
        // Parsed afresh per callback (in JS): one hook mutating its input
        // does not change what the next one sees.
        let input = serde_json::to_string(p.input()).unwrap_or_default();
        // At most two page callbacks, through one await: `confirm(capabilityId,
        // input)` when a person must approve (only `true` approves), then
        // `execute(capabilityId, input)` — or the built-in executor.
        let mut approved = !p.ask();
        let outcome = loop {
            let hook = match (approved, &self.confirm, &self.execute) {
                (false, Some(confirm), _) => confirm,
                // `begin` asks only when there is a confirm hook.
                (false, None, _) => break p.declined(),
                (true, _, Some(execute)) => execute,
                // The built-in executor: a click through playable's `run`.
                (true, _, None) => {
                    let scope = match control_scope(&self.root, p.capability(), p.input()) {
                        Ok(scope) => scope,
                        Err(e) => break Err(e),
                    };
                    // The same `SensePort`/`BotPort` types the playable
                    // machine uses: one copy of `run` in the module.
                    let sense = crate::ports::SensePort {
                        dom: sense::dom::DomSense::new(scope, sense::IslandSlots::default()),
                        js: None,
                        capture: None,
                    };
                    let bot = crate::ports::BotPort {
                        dom: bot::DomBot,
                        js: None,
                    };
                    // The run's answer borrows its payload: keep the (empty) payload alive.
                    let payload = Map::new();
                    let run = playable::run_item(&sense, &bot, p.capability(), &payload).await;
                    break clicked(p.capability(), run.map(|_| ()).map_err(Into::into));
                }
            };
            let out = called(call(hook, p.capability(), &input).await);
            if !approved {
                approved = matches!(out, Ok(Value::Bool(true)));
                if !approved {
                    break p.declined();
                }
                continue;
            }
            break match out {
                Err(why) => Err(failed(why)),
                Ok(json) => exec_outcome_from_json(&json),
            };
        };
        // `wait_for_text`, driven here: checks now, then after each DOM
        // change, until the expected text shows or `within` ms pass.
        let mut shown = true;
        if let (Ok(_), Some(e)) = (&outcome, p.expect()) {
            let deadline = Date::now() + e.within_ms;
            while !self.page.shows_text(&e.text) {
                if !self
                    .page
                    .next_change(deadline)
                    .await
                    .is_ok_and(|c| c.is_truthy())
                {
                    shown = false;
                    break;
                }
            }
        }
        to_js(&self.core.finish(&value, p, outcome, shown, self, &observe))
    }

    fn attach_bridge(self: &Rc<Self>) -> Result<(), String> {
        crate::serve::serve(
            &self.bridge,
            CHANNEL,
            &self.window,
            &self.allowed_origins,
            Rc::downgrade(self),
            answer,
        )
    }
}

/// [`Inner::handle`] owning its surface: a bridge delivery's answer, and
/// `Surface.handle`'s.
async fn answer(inner: Rc<Inner>, request: JsValue) -> JsValue {
    inner.handle(request).await
}

/// What `session()` settled to. A throw, a rejection or a malformed value
/// is no session (`SESSION_EXPIRED`): fail closed.
fn read_session(value: Result<Value, String>) -> Option<Session> {
    Session::from_json(&value.ok()?).ok().flatten()
}

/// An `EXECUTION_FAILED` outcome for a page `execute` that misbehaved.
fn failed(message: String) -> BusinessError {
    BusinessError::coded(MALFORMED_RESULT_CODE, message)
}

/// `ISurface`: `handle(request)` and the window bridge.
#[wasm_bindgen]
pub struct Surface {
    inner: Rc<Inner>,
}

#[wasm_bindgen]
impl Surface {
    /// Answers one request. Never throws, never rejects.
    pub fn handle(&self, request: JsValue) -> Promise {
        // Boxed like a bridge delivery's answer (the same future type), into
        // the shell's one `future_to_promise`.
        crate::serve::promise(Box::pin(answer(Rc::clone(&self.inner), request)))
    }

    /// Starts answering `{ channel: "pling.surface", dir: "down", seq,
    /// envelope: request }` messages from this window and `allowedOrigins`.
    #[wasm_bindgen(js_name = attachWindowBridge)]
    pub fn attach_window_bridge(&self) -> Result<(), JsError> {
        // The same message as the playable instance's attach (it names
        // attachWindowBridge and allowedOrigins).
        self.inner.attach_bridge().map_err(|e| JsError::new(&e))
    }

    /// Stops answering bridge messages.
    #[wasm_bindgen(js_name = detachWindowBridge)]
    pub fn detach_window_bridge(&self) {
        self.inner.bridge.borrow_mut().take();
    }

    /// Publishes the capabilities this session may use as WebMCP tools (a
    /// no-op without WebMCP); a second call while publishing returns the
    /// same publication. See docs/mcp.md.
    #[wasm_bindgen(js_name = publishWebMcp)]
    pub fn publish_web_mcp(&self) -> WebMcpPublication {
        WebMcpPublication::publish(
            &self.inner.webmcp,
            &self.inner.window,
            self.inner.root.clone(),
            Owner::Surface(Rc::downgrade(&self.inner)),
        )
    }
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(&format!("createSurface: {message}")).into()
}

/// [`surface_options`], a problem thrown as a TypeError.
fn read_options(options: &JsValue, scan: bool) -> Result<JsValue, JsValue> {
    let read = surface_options(options, scan);
    match read.as_string() {
        Some(problem) => Err(type_error(&problem)),
        None => Ok(read),
    }
}

/// `createSurface(options)`. Throws a TypeError for invalid options.
#[wasm_bindgen(js_name = createSurface)]
pub fn create_surface(options: JsValue) -> Result<Surface, JsValue> {
    let read: Array = read_options(&options, false)?.unchecked_into();
    // The data options, bounded and read once.
    let data = parsed(&read).map_err(|e| type_error(&e))?;
    let config = SurfaceConfig::from_json(&data).map_err(|e| type_error(&e.0))?;
    // Root, window and allowedOrigins: the same rules as installPlayable.
    let scan = options::parse(&read_options(&options, true)?).map_err(|e| type_error(&e))?;
    Ok(Surface {
        inner: Rc::new(Inner {
            core: surface::Surface::new(config),
            registry: read.get(2),
            // Checked in JS: a function, or (execute, confirm) absent.
            session: read.get(3).unchecked_into(),
            execute: read.get(4).dyn_into().ok(),
            confirm: read.get(5).dyn_into().ok(),
            page: DomPage::new(scan.root.clone()),
            root: scan.root,
            window: scan.window,
            allowed_origins: scan.allowed_origins,
            bridge: RefCell::new(None),
            warned: read.into(),
            webmcp: RefCell::new(None),
        }),
    })
}
