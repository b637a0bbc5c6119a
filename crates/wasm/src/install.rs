//! `installPlayable` and the `IPlayable` instance: one per window.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Object, Promise, Reflect};
use playable::bridge::{self, AttachError, WindowBridge};
use playable::{Dropped, ErrorCode, Machine, Phase, Uplink};
use wasm_bindgen::prelude::*;
use web_sys::Window;

use crate::options::web::{self as options, Options};
use crate::options::Read;
use crate::serve::Answer;
use crate::webmcp::plan::Kind;
use crate::webmcp::{Owner, Publication};
use playable::web::{BomPort, BotPort, SensePort, WebRandom};

/// Reads `true` on a window while it has an instance, set by
/// `installPlayable` (a marker, not an API; see marker.rs).
const MARKER: &str = "__IN_PAGE_PLAYABLE_V1__";
/// Reads `true` on a window while a Surface's window bridge is attached
/// there, so a client (the MCP server) can tell at once that no Surface
/// will answer on `"pling.surface"` (docs/surface.md, "Window bridge"). Like
/// [`MARKER`], named after its protocol and version (`pling.surface/0.1`),
/// a marker, not an API: it carries nothing but whether it reads true.
pub(crate) const SURFACE_MARKER: &str = "__PLING_SURFACE_V0_1__";

// Neither is written to throw; `catch` all the same, so that nothing a page
// did to the built-ins can throw through the module: a throw is a refusal
// (`project`) or `INTERNAL` (`attach`), never a rejection or a hang.
#[wasm_bindgen(module = "/src/boundary.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn project(down: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch)]
    fn attach(up: &JsValue, shot: &JsValue) -> Result<bool, JsValue>;
}

type WebMachine = Machine<SensePort, BotPort, BomPort, WebRandom>;

pub(crate) struct Instance {
    pub(crate) machine: WebMachine,
    pub(crate) window: Window,
    /// The scan root (WebMCP watches it for changes).
    pub(crate) root: JsValue,
    /// `window.document` as read at install: the document this instance
    /// serves (a stand-in window has none).
    document: Read<JsValue>,
    allowed_origins: Vec<String>,
    bridge: RefCell<Option<WindowBridge>>,
    webmcp: RefCell<Option<Publication>>,
}

thread_local! {
    /// window → (the JS object handed out, the instance). Usually one entry.
    static INSTANCES: Cell<Vec<(Window, JsValue, Rc<Instance>)>> = const { Cell::new(Vec::new()) };
}

fn internal(request_id: String, page_id: Option<String>, message: &str) -> JsValue {
    let up = Uplink::err(page_id, request_id, ErrorCode::Internal, message);
    to_js(&up)
}

pub(crate) fn to_js(up: &Uplink) -> JsValue {
    // One string crossing and a native JSON.parse: cheaper than building the
    // object field by field across the boundary. The parse the module
    // loaded with: a page's later JSON.parse cannot break an answer.
    crate::js::parse(&up.to_json()).unwrap_or_else(|| {
        let o = Object::new();
        let _ = Reflect::set(&o, &"ok".into(), &JsValue::FALSE);
        o.into()
    })
}

impl Instance {
    /// Drops the instance for good once its window no longer holds the
    /// document it was built for: a frame's window object outlives its
    /// documents (a reload, a navigation, its first about:blank left for
    /// a page), while the instance serves the one it scans. As
    /// `resetPlayableForTests` drops one: retired, bridge detached, WebMCP
    /// tools withdrawn, the window unmarked (its global, if the new
    /// document kept it, must not read as installed).
    fn drop_if_document_gone(&self) {
        if self.machine.dropped()
            || crate::options::holds_document(&self.document, &options::document_of(&self.window))
        {
            return;
        }
        self.machine.drop_for_good(Dropped::DocumentGone);
        take(&self.bridge);
        take(&self.webmcp);
        crate::marker::mark(&self.window, MARKER, false);
    }

    /// The phase, once the document is checked: an instance whose document
    /// is gone reads `retired`, never `live` against a page that is gone.
    fn phase(&self) -> Phase {
        self.drop_if_document_gone();
        self.machine.phase()
    }

    async fn handle(self: Rc<Self>, projection: playable::Projection) -> JsValue {
        let response = self.machine.handle_projected(&projection).await;
        let up = self.with_screenshot(response.uplink, response.screenshot);
        if self.machine.phase() == Phase::Retired {
            // Retired tools must not linger in the agent's tool list (a
            // dropped publication withdraws them).
            take(&self.webmcp);
        }
        up
    }

    fn with_screenshot(&self, uplink: Uplink, shot: Option<JsValue>) -> JsValue {
        let up = to_js(&uplink);
        match shot {
            Some(shot) if attach(&up, &shot) != Ok(true) => internal(
                uplink.request_id,
                self.machine.page_id(),
                "could not attach the screenshot",
            ),
            _ => up,
        }
    }

    /// [`Instance::handle`] as a boxed future: one type for the bridge,
    /// `handle()` and WebMCP.
    /// The downlink is read here, at the call: a caller that changes (or
    /// reuses) its envelope object once `handle` returned changes nothing.
    pub(crate) fn answer(self: Rc<Self>, down: JsValue) -> Answer {
        // Checked at the call, as the downlink is read: a pageId of a
        // document that is gone must not pass the latch.
        self.drop_if_document_gone();
        let projection = project(&down).map_or_else(
            |e| playable::Projection::threw(crate::js::thrown(&e)),
            |projected| playable::Projection::from_js(&projected),
        );
        Box::pin(self.handle(projection))
    }

    fn attach_bridge(self: &Rc<Self>) -> Result<(), JsError> {
        self.drop_if_document_gone();
        if let Some(why) = self.machine.dropped_why() {
            return Err(JsError::new(&format!(
                "attachWindowBridge: {}",
                why.message()
            )));
        }
        self.attach_listener().map_err(|e| match e {
            // Its options are the first install's: a later installPlayable
            // that passed origins returned this instance as it was.
            AttachError::Origins(bridge::OriginsError::Empty) => {
                JsError::new(&format!("{e}{}", bridge::FIRST_INSTALL_HINT))
            }
            e => JsError::new(&format!("{e}")),
        })
    }

    fn attach_listener(self: &Rc<Self>) -> Result<(), AttachError> {
        let me = Rc::downgrade(self);
        crate::serve::serve_boxed(
            &self.bridge,
            bridge::CHANNEL,
            &self.window,
            &self.allowed_origins,
            Box::new(move |down| Some(me.upgrade()?.answer(down))),
            unpostable,
        )
    }
}

/// `INTERNAL` for an uplink the bridge could not post (`postMessage` threw
/// `why`), with its pageId and requestId.
fn unpostable(up: &JsValue, why: &str) -> JsValue {
    internal(
        crate::js::get(up, "requestId")
            .as_string()
            .unwrap_or_default(),
        crate::js::get(up, "pageId").as_string(),
        &format!("the answer could not be posted through the window bridge: {why}"),
    )
}

/// A publication's owner: the runnable menu, read and run through `handle`.
impl Owner for Instance {
    fn kind(&self) -> Kind {
        Kind::Menu
    }

    fn live(&self) -> bool {
        self.phase() != Phase::Retired
    }

    fn answer(self: Rc<Self>, request: JsValue) -> Answer {
        Instance::answer(self, request)
    }
}

/// `IPlayable`: the window's one instance.
#[wasm_bindgen]
pub struct Playable {
    inner: Rc<Instance>,
}

#[wasm_bindgen]
impl Playable {
    /// The current pageId (`null` before hello).
    #[wasm_bindgen(getter, js_name = pageId)]
    pub fn page_id(&self) -> JsValue {
        self.inner
            .machine
            .page_id()
            .map_or(JsValue::NULL, |id| JsValue::from_str(&id))
    }

    /// `"installed" | "live" | "retired"`.
    #[wasm_bindgen(getter, unchecked_return_type = "string")]
    pub fn phase(&self) -> JsValue {
        self.inner.phase().as_str().into()
    }

    /// Handles one downlink. Never throws, never rejects.
    pub fn handle(&self, down: JsValue) -> Promise {
        crate::serve::promise(Rc::clone(&self.inner).answer(down))
    }

    /// Starts answering `window.postMessage` downlinks (baseline §3).
    #[wasm_bindgen(js_name = attachWindowBridge)]
    pub fn attach_window_bridge(&self) -> Result<(), JsError> {
        self.inner.attach_bridge()
    }

    /// Publishes the runnable menu as WebMCP tools (a no-op without WebMCP).
    /// A second call while publishing returns the same publication.
    #[wasm_bindgen(js_name = publishWebMcp, unchecked_return_type = "WebMcpPublication")]
    pub fn publish_web_mcp(&self) -> JsValue {
        // Before the slot is borrowed: a drop withdraws what it publishes.
        self.inner.drop_if_document_gone();
        Publication::publish(
            &self.inner.webmcp,
            &self.inner.window,
            self.inner.root.clone(),
            &self.inner,
        )
    }
}

/// Empties a slot (a slot in use, which cannot happen, stays as it is).
pub(crate) fn take<T>(slot: &RefCell<Option<T>>) -> Option<T> {
    slot.try_borrow_mut().ok()?.take()
}

/// The instance list, taken out of its cell (put it back with [`put`]).
fn taken() -> Vec<(Window, JsValue, Rc<Instance>)> {
    INSTANCES.with(Cell::take)
}

fn put(list: Vec<(Window, JsValue, Rc<Instance>)>) {
    INSTANCES.with(|cell| cell.set(list));
}

/// The window's instance, while the window still holds its document;
/// one whose document is gone is dropped for good and forgotten, so that
/// the new document gets an instance of its own (a new pageId).
fn find(window: &JsValue) -> Option<JsValue> {
    let list = taken();
    let found = list
        .iter()
        .find(|(w, _, _)| Object::is(w, window))
        .map(|(_, js, inner)| (js.clone(), Rc::clone(inner)));
    put(list);
    let (js, inner) = found?;
    // Dropped outside the list: dropping a bridge or a publication calls
    // out to JS.
    inner.drop_if_document_gone();
    if !inner.machine.dropped() {
        return Some(js);
    }
    let mut list = taken();
    if let Some(at) = list.iter().position(|(_, _, i)| Rc::ptr_eq(i, &inner)) {
        list.swap_remove(at);
    }
    put(list);
    None
}

fn build(options: Options) -> Rc<Instance> {
    let Options {
        root,
        window,
        island_slots,
        capture,
        allowed_origins,
        sense,
        bot,
        bom,
    } = options;
    let crypto = playable::web::crypto(&window);
    let document = options::document_of(&window);
    Rc::new_cyclic(|me: &std::rc::Weak<Instance>| {
        // The last check before a reload escape's reload starts: this
        // instance's escape rule, on a fresh read.
        let me = me.clone();
        // The instance is upgraded when the check runs, not when the
        // reload is scheduled: a turn that never comes holds no instance.
        let still_allowed: bom::StillAllowed = Box::new(move || {
            let me = me.clone();
            Box::pin(async move {
                match me.upgrade() {
                    Some(me) => me.machine.reload_still_allowed().await,
                    None => false,
                }
            })
        });
        let machine = Machine::new(
            SensePort {
                dom: sense::dom::DomSense::new(root.clone(), island_slots),
                js: sense,
                capture,
            },
            BotPort {
                dom: bot::DomBot,
                js: bot,
            },
            BomPort {
                dom: bom::DomBom::new(window.clone(), still_allowed),
                js: bom,
            },
            WebRandom { crypto },
        );
        Instance {
            machine,
            window,
            root,
            document,
            allowed_origins,
            bridge: RefCell::new(None),
            webmcp: RefCell::new(None),
        }
    })
}

/// Installs (or returns) the window's one instance. Synchronous.
#[wasm_bindgen(js_name = installPlayable)]
pub fn install_playable(options: JsValue) -> Result<JsValue, JsValue> {
    // A second call, with any options, returns the window's instance:
    // looked up by the window the options name before they are checked.
    let facts = options::read(&options);
    if let Some(existing) = crate::options::named_window(&facts).and_then(|w| find(&w)) {
        return Ok(existing);
    }
    let options = options::checked(facts).map_err(|e| type_error(&format!("{e}")))?;
    let window = options.window.clone();
    // Marked: the marker holds a value (Reflect.get, already imported,
    // instead of one more import for Reflect.has). Another copy's marker
    // is its own accessor, which a page script cannot delete.
    // (JsError: the same Error object, through the import JsError uses.)
    if Reflect::get(&window, &MARKER.into()).is_ok_and(|m| !m.is_undefined()) {
        return Err(JsError::new(
            "in-page-playable: another copy of the package is already installed in this window; \
             talk to that instance (its window bridge) instead of installing a second one",
        )
        .into());
    }
    // Defined before anything is built: a window that cannot be marked
    // (its marker made non-configurable by another copy or by the page)
    // would let a second copy install beside this one.
    if !crate::marker::mark(&window, MARKER, true) {
        return Err(JsError::new(&format!(
            "in-page-playable: nothing installed: this window's {MARKER} cannot be defined \
             (another copy of the package, or the page, made it non-configurable)"
        ))
        .into());
    }
    let inner = build(options);
    let js: JsValue = Playable {
        inner: Rc::clone(&inner),
    }
    .into();
    crate::js::hold(&js, &["handle", "attachWindowBridge", "publishWebMcp"]);
    let mut list = taken();
    list.push((window, js.clone(), inner));
    put(list);
    Ok(js)
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(&format!("installPlayable: {message}")).into()
}

/// The test hooks, in one export (www/entry.js names them): removes every
/// bridge listener; with `reset` (`resetPlayableForTests`) also drops every
/// instance and its WebMCP publication and unmarks the window (its marker
/// reads `undefined`), else
/// (`detachWindowBridgeForTests`) the instances stay.
#[wasm_bindgen(js_name = forTests)]
pub fn for_tests(reset: bool) {
    let list = taken();
    for (window, _, instance) in &list {
        take(&instance.bridge);
        if reset {
            // The JS object handed out may still be held: it must not act.
            instance.machine.drop_for_good(Dropped::ForTests);
            take(&instance.webmcp);
            crate::marker::mark(window, MARKER, false);
        }
    }
    if !reset {
        put(list);
    }
}

/// What the escape rule reads of an `ISnapshot`: `dirty` and `noReload`. Only those
/// two fields are read: the rest of a snapshot (a screenshot, say) may be
/// large or not JSON at all.
fn escape_inputs(snapshot: &JsValue) -> Result<playable::EscapeInputs, JsError> {
    const EXPECTED: &str = "expected an ISnapshot ({ dirty: string[], noReload: boolean })";
    let refuse = |why: String| JsError::new(&format!("{EXPECTED}: {why}"));
    let is_array =
        |s| crate::js::is_array(s).map_err(|e| refuse(format!("reading the snapshot threw: {e}")));
    if !snapshot.is_object() || is_array(snapshot)? {
        return Err(refuse("not an object".into()));
    }
    // Fail closed: a field that cannot be read, or that JSON cannot hold
    // as itself (a function, a BigInt; a `new Boolean(false)`, which is
    // truthy; a `toJSON` that writes something else than what the array
    // holds), is an error, never "absent" or what JSON would write (either
    // could allow the reload). The strict crossing an agent's request gets.
    let fields = Object::new();
    for key in ["dirty", "noReload"] {
        let value = Reflect::get(snapshot, &key.into())
            .map_err(|e| refuse(format!("reading {key} threw: {}", crate::js::thrown(&e))))?;
        if value.is_undefined() {
            continue;
        }
        let crossed = crate::surface::stringify(&value, surface::crossing::Writing::Strict);
        if let Some(fact) = &crossed.non_json {
            return Err(refuse(format!(
                "{key} is not JSON (it holds {})",
                fact.what()
            )));
        }
        if crossed.thrown.is_some() || crossed.text.is_none() {
            return Err(refuse(format!(
                "{key} is not JSON (a getter inside it threw, or it is cyclic)"
            )));
        }
        let _ = Reflect::set(&fields, &key.into(), &value);
    }
    let json = playable::web::js::stringify(&fields).unwrap_or_default();
    playable::EscapeInputs::from_json(&json)
        .map_err(|e| refuse(playable::bounds::unreadable(&json, &e)))
}

/// `deriveEscapes(snapshot)`: `[{ type: "reload", allowed, reason? }]`.
#[wasm_bindgen(js_name = deriveEscapes)]
pub fn derive_escapes(snapshot: JsValue) -> Result<JsValue, JsError> {
    let json = serde_json::to_string(&escape_inputs(&snapshot)?.escapes()).unwrap_or_default();
    crate::js::parse(&json).ok_or_else(|| JsError::new("could not build escapes"))
}

/// `isEscapeAllowed(snapshot, type)`: the same rule as a boolean; a `type`
/// that is not a string is no escape.
#[wasm_bindgen(js_name = isEscapeAllowed)]
pub fn is_escape_allowed(snapshot: JsValue, kind: JsValue) -> Result<bool, JsError> {
    let inputs = escape_inputs(&snapshot)?;
    Ok(kind.as_string().is_some_and(|kind| inputs.allows(&kind)))
}
