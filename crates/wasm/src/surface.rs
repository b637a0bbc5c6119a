//! `createSurface`: the Surface protocol (crate `surface`) over the page's
//! JS callbacks, the live DOM, and the window bridge channel `"pling.surface"`.
//!
//! Translation only. `surface::Surface::handle` runs every step of a
//! request; this file implements its `Host` with the page's callbacks (each
//! one JS call, awaited through `JsFuture`), uses `surface::dom` for the
//! page and the built-in executor, and hands the typed response back to JS.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Date, Function, JsString, Object, Promise, Reflect};
use playable::bridge::WindowBridge;
use serde_json::Value;
use surface::crossing::{Projection, REQUEST_FIELDS, REQUEST_SCALARS};
use surface::dom::{DomExecutor, DomPage};
use surface::{
    approves, callback_text, exec_outcome, registry_from_crossing, session_from_callback,
    CallbackError, CallbackOption, ConfigError, CrossedRequest, ExecOutcome, OptionKind, Reader,
    Registry, Scalar, Session, SurfaceConfig, Writing,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::Window;

use crate::install::{take, SURFACE_MARKER};
use crate::options::web as options;
use crate::webmcp::plan::Kind;
use crate::webmcp::{Owner, Publication};

/// The bridge channel Surface answers on (the playable bridge's wrapper).
const CHANNEL: &str = "pling.surface";

thread_local! {
    /// The window of every attached Surface bridge, one entry per bridge:
    /// a window's [`SURFACE_MARKER`] reads `true` while it has an entry.
    static BRIDGED: Cell<Vec<Window>> = const { Cell::new(Vec::new()) };
}

/// Records that a Surface bridge on `window` was attached (`true`) or
/// detached, and marks the window while any bridge is left attached there:
/// another Surface's detach must not unmark a window whose own bridge
/// still answers. A page script can neither delete nor overwrite the marker
/// (marker.rs).
fn bridged(window: &Window, attached: bool) {
    let mut list = BRIDGED.with(Cell::take);
    let here = |w: &Window| Object::is(w, window);
    if attached {
        list.push(window.clone());
    } else if let Some(i) = list.iter().position(here) {
        list.swap_remove(i);
    }
    let marked = list.iter().any(here);
    BRIDGED.with(|cell| cell.set(list));
    // Best effort: where another copy of the package defined the marker,
    // it reads that copy's bridges.
    crate::marker::mark(window, SURFACE_MARKER, marked);
}

// The JS side (callback.js; tests/callback.test.mjs): each function
// performs one act and reports raw facts. Values from the page cross
// through boundary.js: `read` reads a request's fields, `stringify` writes
// a value as JSON text with facts. Rust decides on them (surface::crossing)
// and bounds the text (surface::bounds).
#[wasm_bindgen(module = "/src/callback.js")]
extern "C" {
    #[wasm_bindgen(js_name = call)]
    fn call_js(f: &Function, id: JsValue, input: JsValue, level: u8) -> Promise;
    fn warn(message: &str);
}

// Neither throws: each runs in a `try`, and calls no prototype method a
// page could replace (no `catch` here, to keep the module small).
#[wasm_bindgen(module = "/src/boundary.js")]
extern "C" {
    /// `[text, fact, thrown]`: `value` as JSON text, with facts; `level`
    /// ([`Writing`]) says what crosses as JSON writes it instead.
    #[wasm_bindgen(js_name = stringify)]
    fn stringify_js(value: &JsValue, level: u8) -> Array;
    /// `[values, thrown]`: the fields `names` of `value`, read in order,
    /// each on its own (`thrown`: the first that threw).
    #[wasm_bindgen(js_name = read)]
    fn read_fields(value: &JsValue, names: &Array) -> Array;
    /// `[[text, fact, thrown], …]`: the entries of an array of at most
    /// `max`, each written at `level`; `null` for anything else.
    fn entries(value: &JsValue, level: u8, max: usize, keep: &str) -> JsValue;
}

/// `value` as it crossed through boundary.js's `stringify`, written as
/// `writing` says: strictly for an agent's request, as JSON writes it for
/// the page's own values (more so for its registry and `execute`'s result).
pub(crate) fn stringify(value: &JsValue, writing: Writing) -> Projection {
    Projection::from_js(&stringify_js(value, writing as u8))
}

/// A fresh object without a prototype: filling it runs no setter a page
/// put on `Object.prototype`, and reading it finds nothing inherited.
fn bare() -> Object {
    Object::create(JsValue::NULL.unchecked_ref())
}

/// A request's fields as read, as [`CrossedRequest`]: the scalars by
/// kind, `input` stringified.
fn cross_request(request: &JsValue) -> CrossedRequest {
    let [a, b, c, d, e] = REQUEST_FIELDS.map(JsValue::from_str);
    // `Array.of`, not a push per name: a page may replace Array.prototype.push.
    let names = Array::of5(&a, &b, &c, &d, &e);
    let out = read_fields(request, &names);
    let thrown = out.get(1).as_string();
    let Ok(values) = out.get(0).dyn_into::<Array>() else {
        return CrossedRequest {
            thrown,
            ..CrossedRequest::default()
        };
    };
    let read = values.length() as usize;
    let scalars = (0..read.min(REQUEST_SCALARS))
        .map(|i| scalar(&values.get(i as u32)))
        .collect();
    // Not written when a field threw: the request is refused for that first.
    let input = Some(values.get(REQUEST_SCALARS as u32))
        .filter(|input| read > REQUEST_SCALARS && !input.is_undefined() && thrown.is_none())
        .map(|input| stringify(&input, Writing::Strict));
    CrossedRequest {
        scalars: Some(scalars),
        input,
        thrown,
    }
}

/// One scalar field as read: its kind, and a string only when
/// [`Scalar::copies`] says so (a longer one is only measured).
fn scalar(value: &JsValue) -> Scalar {
    if value.is_undefined() {
        Scalar::Absent
    } else if value.is_null() {
        Scalar::Null
    } else if let Some(b) = value.as_bool() {
        Scalar::Bool(b)
    } else if let Some(n) = value.as_f64() {
        Scalar::Number(n)
    } else if value.is_string() {
        let s: &JsString = value.unchecked_ref();
        let units = s.length() as usize;
        let text = Scalar::copies(units).then(|| String::from(s));
        match text {
            // U+FFFD is what the conversion writes for a lone surrogate:
            // only then are the units read one by one to tell.
            Some(t) if t.contains('\u{FFFD}') => {
                Scalar::from_utf16(&s.iter().collect::<Vec<u16>>())
            }
            text => Scalar::String { units, text },
        }
    } else {
        Scalar::Other(value.js_typeof().as_string().unwrap_or_default())
    }
}

/// `[text, fact, thrown, threw, value]` (a callback's value) as it
/// crossed, or what the callback threw.
fn crossed(out: &Array) -> Result<Projection, String> {
    match out.get(3).is_truthy() {
        true => Err(out.get(2).as_string().unwrap_or_default()),
        false => Ok(Projection::from_js(out)),
    }
}

/// `[text, fact, thrown, threw, value]` (a callback's value, `label`) as its
/// JSON text, or why there is none.
fn given(label: &str, out: &Array) -> Result<String, CallbackError> {
    crossed(out)
        .map_err(CallbackError::Threw)
        .and_then(|p| callback_text(label, &p))
}

/// Awaits a host callback, `f()` or `f(capability, input)` with a fresh
/// copy of `input` (so one hook changing it cannot change what the next one
/// sees): `[text, fact, thrown, threw, value]`, its value written as
/// `writing` says (callback.js), and kept as awaited.
async fn call(f: &Function, args: Option<(&str, &Value)>, writing: Writing) -> Array {
    let level = writing as u8;
    let promise = match args {
        None => call_js(f, JsValue::UNDEFINED, JsValue::UNDEFINED, level),
        Some((id, input)) => call_js(
            f,
            JsValue::from_str(id),
            to_js(serde_json::to_string(input)),
            level,
        ),
    };
    match JsFuture::from(promise).await {
        Ok(out) => out.unchecked_into(),
        Err(_) => {
            let why = JsValue::from_str("the callback could not be called");
            Array::of4(&JsValue::NULL, &JsValue::NULL, &why, &JsValue::TRUE)
        }
    }
}

/// A registry's entries, each written as [`Writing::Declarations`] (one
/// whose getter threw as that throw); `None` when `value` is no array, or
/// has more than `max` entries.
fn each(value: &JsValue, max: usize) -> Option<Vec<Projection>> {
    let entries = entries(
        value,
        Writing::Declarations as u8,
        max,
        surface::DECLARATION_FIELDS,
    );
    let entries = entries.dyn_ref::<Array>()?;
    Some(
        entries
            .iter()
            .map(|entry| Projection::from_js(entry.unchecked_ref()))
            .collect(),
    )
}

/// Whether `result`'s own `ok` member, read on its own, is `true` (asked
/// of an `execute` result that could not cross whole).
fn answered_ok(result: &JsValue) -> bool {
    let names = Array::of1(&JsValue::from_str("ok"));
    read_fields(result, &names)
        .get(0)
        .dyn_into::<Array>()
        .is_ok_and(|values| values.get(0).as_bool() == Some(true))
}

/// A value crossing back to JS: one JSON text and a native `JSON.parse`
/// (docs/surface.md, "Transport", has the measurements), the one the
/// module loaded with ([`crate::js::parse`]).
fn to_js(json: serde_json::Result<String>) -> JsValue {
    json.ok()
        .and_then(|s| crate::js::parse(&s))
        .unwrap_or(JsValue::NULL)
}

pub(crate) struct Inner {
    core: surface::Surface,
    /// `CapabilityDeclaration[]`, or a function returning them (or a Promise of them).
    registry: JsValue,
    execute: Option<Function>,
    session: Function,
    confirm: Option<Function>,
    page: DomPage,
    builtin: DomExecutor,
    window: Window,
    /// The scan root (a WebMCP publication watches it).
    root: JsValue,
    allowed_origins: Vec<String>,
    bridge: RefCell<Option<WindowBridge>>,
    /// The last console warning, so a bad registry warns once, not per request.
    warned: RefCell<Option<String>>,
    webmcp: RefCell<Option<Publication>>,
}

impl surface::Host for Inner {
    fn now_ms(&self) -> f64 {
        Date::now()
    }

    async fn session(&self) -> Option<Session> {
        let out = call(&self.session, None, Writing::Page).await;
        session_from_callback(given("result", &out))
    }

    /// Read afresh each time; a function is called and awaited as
    /// `session()` is (issue 4: "a function returning them"), so a promise
    /// counts as the declarations it resolves to. How it is read is the
    /// crate's (`registry_from_crossing`): a declaration that cannot cross
    /// is skipped alone; a throw, a rejection or a registry that is no
    /// array of JSON is an empty registry (fail closed); either with a
    /// console warning.
    async fn registry(&self) -> Registry {
        let (whole, value) = match self.registry.dyn_ref::<Function>() {
            Some(f) => {
                let out = call(f, None, Writing::Page).await;
                (crossed(&out), out.get(4))
            }
            None => (
                Ok(stringify(&self.registry, Writing::Page)),
                self.registry.clone(),
            ),
        };
        let (registry, warning) = registry_from_crossing(whole, |max| each(&value, max));
        if let Some(warning) = warning {
            self.warn(warning);
        }
        registry
    }

    fn can_confirm(&self) -> bool {
        self.confirm.is_some()
    }

    async fn confirm(&self, capability: &str, input: &Value) -> bool {
        match &self.confirm {
            // Strict: JSON writes `new Boolean(true)` or a `toJSON` giving
            // true as `true`, but only the primitive approves (a fact makes
            // the answer no JSON, which `approves` refuses).
            Some(confirm) => {
                let out = call(confirm, Some((capability, input)), Writing::Strict).await;
                approves(given("result", &out))
            }
            None => false,
        }
    }

    async fn execute(&self, capability: &str, args: &Value) -> ExecOutcome {
        match &self.execute {
            Some(execute) => {
                let out = call(execute, Some((capability, args)), Writing::Result).await;
                let (outcome, warning) =
                    exec_outcome(given("result", &out), || answered_ok(&out.get(4)));
                if let Some(warning) = warning {
                    self.warn(warning);
                }
                outcome
            }
            None => self.builtin.execute(capability, args).await,
        }
    }

    /// The built-in executor clicks the marked control; a page's own
    /// `execute` runs its own path.
    fn clicks_controls(&self) -> bool {
        self.execute.is_none()
    }
}

impl Inner {
    /// `console.warn`, unless it repeats the last warning.
    fn warn(&self, message: String) {
        let mut last = self.warned.borrow_mut();
        if last.as_deref() != Some(message.as_str()) {
            warn(&message);
            *last = Some(message);
        }
    }

    /// Answers one request (a bridge delivery, `Surface.handle`, a WebMCP
    /// call). Never throws.
    pub(crate) async fn handle(&self, reader: Reader, request: CrossedRequest) -> JsValue {
        let response = self
            .core
            .handle_crossed_for(reader, &request, self, &self.page)
            .await;
        to_js(serde_json::to_string(&response))
    }

    fn attach_bridge(self: &Rc<Self>) -> Result<(), playable::bridge::AttachError> {
        crate::serve::serve(
            &self.bridge,
            CHANNEL,
            &self.window,
            &self.allowed_origins,
            Rc::clone(self),
            answer,
            unpostable,
        )
    }
}

/// The refusal posted for a response the bridge could not post. (A
/// response is parsed from JSON text, so `postMessage` takes it; this is
/// the bridge's rule that every delivery is answered.)
fn unpostable(response: &JsValue, why: &str) -> JsValue {
    let id = crate::js::get(response, "id")
        .as_string()
        .unwrap_or_default();
    let error = surface::ProtocolError::new(
        surface::ProtocolCode::InternalError,
        format!("the answer could not be posted through the window bridge: {why}"),
    );
    to_js(serde_json::to_string(&surface::Response::refused(
        id, error,
    )))
}

/// [`Inner::handle`] owning its surface: a bridge delivery's answer, and
/// `Surface.handle`'s. The request is read here, at the call: a caller
/// that changes (or reuses) its request object once `handle` returned
/// changes nothing.
fn answer(inner: Rc<Inner>, request: JsValue) -> crate::serve::Answer {
    answer_as(inner, Reader::Client, &request)
}

fn answer_as(inner: Rc<Inner>, reader: Reader, request: &JsValue) -> crate::serve::Answer {
    let request = cross_request(request);
    Box::pin(async move { inner.handle(reader, request).await })
}

/// A publication's owner: the capabilities, described and invoked through `handle`.
impl Owner for Inner {
    fn kind(&self) -> Kind {
        Kind::Capabilities
    }

    fn live(&self) -> bool {
        true
    }

    fn answer(self: Rc<Self>, request: JsValue) -> crate::serve::Answer {
        answer(self, request)
    }

    fn read(self: Rc<Self>, request: JsValue) -> crate::serve::Answer {
        answer_as(self, Reader::Publication, &request)
    }
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
        crate::serve::promise(answer(Rc::clone(&self.inner), request))
    }

    /// Starts answering `{ channel: "pling.surface", dir: "down", seq,
    /// envelope: request }` messages from this window and `allowedOrigins`;
    /// marks the window with `__PLING_SURFACE_V0_1__` while attached.
    #[wasm_bindgen(js_name = attachWindowBridge)]
    pub fn attach_window_bridge(&self) -> Result<(), JsError> {
        let attached = |inner: &Inner| inner.bridge.try_borrow().is_ok_and(|b| b.is_some());
        let before = attached(&self.inner);
        // The same message as the playable instance's attach (it names
        // attachWindowBridge and allowedOrigins).
        self.inner
            .attach_bridge()
            .map_err(|e| JsError::new(&format!("{e}")))?;
        // Attaching twice is one bridge: counted once.
        if !before && attached(&self.inner) {
            bridged(&self.inner.window, true);
        }
        Ok(())
    }

    /// Stops answering bridge messages; the window loses its Surface marker
    /// once no Surface bridge is left attached there.
    #[wasm_bindgen(js_name = detachWindowBridge)]
    pub fn detach_window_bridge(&self) {
        if take(&self.inner.bridge).is_some() {
            bridged(&self.inner.window, false);
        }
    }

    /// Publishes the capabilities this session may use as WebMCP tools (a
    /// no-op without WebMCP); a second call while publishing returns the
    /// same publication. See docs/mcp.md.
    #[wasm_bindgen(js_name = publishWebMcp, unchecked_return_type = "WebMcpPublication")]
    pub fn publish_web_mcp(&self) -> JsValue {
        Publication::publish(
            &self.inner.webmcp,
            &self.inner.window,
            self.inner.root.clone(),
            &self.inner,
        )
    }
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(&format!("createSurface: {message}")).into()
}

/// `options[name]`; a throwing getter or proxy is [`ConfigError::Unreadable`].
fn read(options: &JsValue, name: &'static str) -> Result<JsValue, ConfigError> {
    Reflect::get(options, &JsValue::from_str(name)).map_err(|_| ConfigError::Unreadable(name))
}

/// What `options[name]` is; an array check that threw (a revoked proxy)
/// is [`ConfigError::Unreadable`], as a throwing getter is.
fn kind(value: &JsValue, name: &'static str) -> Result<OptionKind, ConfigError> {
    Ok(if value.is_undefined() || value.is_null() {
        OptionKind::Absent
    } else if value.is_function() {
        OptionKind::Function
    } else if crate::js::is_array(value).map_err(|_| ConfigError::Unreadable(name))? {
        OptionKind::Array
    } else {
        OptionKind::Other
    })
}

/// What `createSurface` reads: the callbacks (each read once and checked as
/// soon as it is read, in order), then the data options as one JSON text
/// (decided on and bounded in Rust), then the scan options.
struct Read {
    callbacks: [JsValue; 4],
    config: SurfaceConfig,
    scan: JsValue,
}

fn read_options(options: &JsValue) -> Result<Read, ConfigError> {
    if !options.is_object() {
        return Err(ConfigError::NotAnObject);
    }
    let mut callbacks: [JsValue; 4] = Default::default();
    for (slot, option) in callbacks.iter_mut().zip(CallbackOption::ALL) {
        let value = read(options, option.name())?;
        option.check(kind(&value, option.name())?)?;
        *slot = value;
    }
    let data = bare();
    for name in ["app", "expose", "recordLimit", "rateLimit"] {
        // (Setting a bare object's own property cannot fail.)
        let _ = Reflect::set(&data, &JsValue::from_str(name), &read(options, name)?);
    }
    let data = callback_text("options", &stringify(&data, Writing::Page)).map_err(|e| match e {
        CallbackError::Threw(why) | CallbackError::NotJson(why) => {
            ConfigError::NotJson(format!("the options are not plain JSON: {why}"))
        }
    })?;
    let config = SurfaceConfig::from_json_text(&data)?;
    let scan = bare();
    for name in ["root", "allowedOrigins"] {
        let _ = Reflect::set(&scan, &JsValue::from_str(name), &read(options, name)?);
    }
    Ok(Read {
        callbacks,
        config,
        scan: scan.into(),
    })
}

/// `createSurface(options)`. Throws a TypeError for invalid options.
#[wasm_bindgen(js_name = createSurface, unchecked_return_type = "Surface")]
pub fn create_surface(options: JsValue) -> Result<JsValue, JsValue> {
    let read = read_options(&options).map_err(|e| type_error(&format!("{e}")))?;
    // Root, window and allowedOrigins: the same rules as installPlayable.
    let scan = options::parse(&read.scan).map_err(|e| type_error(&format!("{e}")))?;
    let [registry, session, execute, confirm] = read.callbacks;
    let surface: JsValue = Surface {
        inner: Rc::new(Inner {
            core: surface::Surface::new(read.config),
            registry,
            // Checked above: a function, or (execute, confirm) absent.
            session: session.unchecked_into(),
            execute: execute.dyn_into().ok(),
            confirm: confirm.dyn_into().ok(),
            page: DomPage::new(scan.root.clone()),
            builtin: DomExecutor::new(scan.root.clone()),
            root: scan.root,
            window: scan.window,
            allowed_origins: scan.allowed_origins,
            bridge: RefCell::new(None),
            warned: RefCell::new(None),
            webmcp: RefCell::new(None),
        }),
    }
    .into();
    crate::js::hold(
        &surface,
        &[
            "handle",
            "attachWindowBridge",
            "detachWindowBridge",
            "publishWebMcp",
        ],
    );
    Ok(surface)
}
