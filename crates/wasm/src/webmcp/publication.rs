//! A live WebMCP publication. Its owner (a playable instance: tools = the
//! runnable menu; a Surface: tools = the usable capabilities) is reached
//! only through [`Owner`], so this module depends on neither. The
//! publication is a client like any other: every read and every tool call
//! is a request through the owner's own `handle` — hello, snapshot and run
//! downlinks, or describe and invoke requests — so the menu is read
//! afresh, the latch, actionability and Surface's checks all hold, and a
//! refusal changes nothing. The answer is the tool's result.
//!
//! When to read (a hello first, then after DOM changes under the root and
//! after every call) and what to publish are decided here and in
//! [`super::plan`]; webmcp.js performs the acts: `registerTool` with an
//! abort signal, the abort, the `MutationObserver` (on the root and, looked
//! for again before every read, each open shadow root under it). Retirement, `stop()`
//! and a dropped owner withdraw everything.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use js_sys::{Function, Object, Promise, Reflect};
use playable::bounds::{Limits, ENVELOPE};
use wasm_bindgen::prelude::*;

use super::plan::{self, DescribeAnswer, Kind, MenuAnswer, Resync, Tool, RESYNC_MS};
use crate::js::to_js;
use crate::serve::Answer;

#[wasm_bindgen(module = "/src/webmcp.js")]
extern "C" {
    /// `document.modelContext` (or `navigator.modelContext`) of `window`
    /// when it can register tools, else `null`.
    #[wasm_bindgen(js_name = modelContext)]
    fn model_context(window: &JsValue) -> JsValue;
    /// Registers `tool` on `mc` with `execute: (input) => call(id, input)`;
    /// returns what [`withdraw`] takes.
    fn register(mc: &JsValue, tool: &JsValue, id: &str, call: &Function) -> JsValue;
    /// Withdraws a tool [`register`] registered.
    fn withdraw(registration: &JsValue);

    /// A `MutationObserver` calling `on_change` for each batch of DOM
    /// changes under `root` (child lists, attributes, text); `null` when
    /// `root` cannot be observed.
    fn observe(root: &JsValue, on_change: &Function) -> JsValue;
    /// Makes what [`observe`] returned also observe every open shadow root
    /// under its root it does not observe yet (nested ones too).
    #[wasm_bindgen(js_name = watchShadows)]
    fn watch_shadows(observer: &JsValue);
    /// Disconnects what [`observe`] returned.
    fn disconnect(observer: &JsValue);
}

/// What a publication needs of its owner.
pub(crate) trait Owner {
    /// The tools it has: its menu, or its capabilities.
    fn kind(&self) -> Kind;
    /// Not retired: worth publishing for.
    fn live(&self) -> bool;
    /// One request through the owner's own `handle`.
    fn answer(self: Rc<Self>, request: JsValue) -> Answer;
    /// The publication's own read of what to publish (a snapshot, a
    /// describe): [`Owner::answer`], except that a Surface does not count
    /// it as the session client's last full capability list.
    fn read(self: Rc<Self>, request: JsValue) -> Answer {
        self.answer(request)
    }
}

thread_local! {
    /// Publications started so far: tells request-id prefixes apart should
    /// `crypto` fail.
    static STARTED: Cell<u32> = const { Cell::new(0) };
    /// The publications started, to find the names the others hold.
    static ALL: RefCell<Vec<Weak<State>>> = const { RefCell::new(Vec::new()) };
}

/// The tool names the page's other publications hold (its menu beside
/// its Surface): WebMCP refuses a duplicate name, so the plan counts them
/// as taken.
fn held_elsewhere(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    ALL.with(|all| {
        let mut all = all.borrow_mut();
        all.retain(|w| w.strong_count() > 0);
        for other in all.iter().filter_map(Weak::upgrade) {
            if std::ptr::eq(&*other, state) {
                continue;
            }
            if let Ok(tools) = other.tools.try_borrow() {
                let held = tools.iter().filter(|(_, r)| !refused(r));
                out.extend(held.map(|(t, _)| t.name.clone()));
            }
        }
    });
    out
}

/// The browser refused this registration: webmcp.js's `register` recorded
/// `refused: true` on it (an own data property: the read runs no page
/// code, so it may be made while the tool list is borrowed).
fn refused(registration: &JsValue) -> bool {
    crate::js::get(registration, "refused").is_truthy()
}

/// A plain object (not an array, not null, not a revoked proxy: one whose
/// array check throws has no arguments to read).
fn plain_object(v: &JsValue) -> bool {
    v.is_object() && crate::js::is_array(v) == Ok(false)
}

/// The tool-call closure: `call(id, input)` → the promise of the answer.
type Call = Closure<dyn FnMut(String, JsValue) -> Promise>;
/// The mutation callback and the timer's.
type Tick = Closure<dyn FnMut()>;

struct State {
    kind: Kind,
    owner: Weak<dyn Owner>,
    mc: JsValue,
    window: web_sys::Window,
    root: JsValue,
    /// Request ids never repeat (Surface refuses a replayed id): a random
    /// prefix per publication, then a counter.
    prefix: String,
    seq: Cell<u64>,
    page_id: RefCell<Option<String>>,
    stopped: Cell<bool>,
    syncing: Cell<bool>,
    again: Cell<bool>,
    /// What is registered now, with what withdraws it.
    tools: RefCell<Vec<(Tool, JsValue)>>,
    resync: RefCell<Resync>,
    /// The pending re-read's timer.
    timer: Cell<Option<i32>>,
    observer: RefCell<Option<JsValue>>,
    call: RefCell<Option<Call>>,
    on_change: RefCell<Option<Tick>>,
    on_timer: RefCell<Option<Tick>>,
}

impl State {
    fn next_id(&self) -> String {
        self.seq.set(self.seq.get() + 1);
        format!("{}{}", self.prefix, self.seq.get())
    }

    fn page_id(&self) -> Option<String> {
        self.page_id.borrow().clone()
    }

    /// One request through the owner; `None` once stopped or the owner is gone.
    async fn ask(&self, request: JsValue) -> Option<JsValue> {
        if self.stopped.get() {
            return None;
        }
        let owner = self.owner.upgrade()?;
        Some(owner.answer(request).await)
    }

    /// [`State::ask`] for the publication's own read ([`Owner::read`]).
    async fn read(&self, request: JsValue) -> Option<JsValue> {
        if self.stopped.get() {
            return None;
        }
        let owner = self.owner.upgrade()?;
        Some(owner.read(request).await)
    }

    fn stop(&self) {
        if self.stopped.replace(true) {
            return;
        }
        let observer = self.observer.borrow_mut().take();
        if let Some(observer) = observer {
            disconnect(&observer);
        }
        if let Some(timer) = self.timer.take() {
            self.window.clear_timeout_with_handle(timer);
        }
        let tools = std::mem::take(&mut *self.tools.borrow_mut());
        for (_, registration) in &tools {
            withdraw(registration);
        }
    }

    /// A DOM change, or a call: a re-read within [`RESYNC_MS`] (one timer
    /// per burst).
    fn schedule(&self) {
        if self.stopped.get() || !self.resync.borrow_mut().change() {
            return;
        }
        let handle = self.on_timer.borrow().as_ref().and_then(|tick| {
            self.window
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    RESYNC_MS,
                )
                .ok()
        });
        if handle.is_none() {
            self.resync.borrow_mut().fired(); // no timer: the next change tries again
        }
        self.timer.set(handle);
    }

    /// Brings the registered tools in line with the plan for `answer`.
    fn publish(&self, answer: JsValue) {
        let elsewhere = held_elsewhere(self);
        // No usable answer this time: keep what is published.
        let Some(planned) = plan_for(self.kind, &answer, &elsewhere) else {
            return;
        };
        let registered: Vec<Tool> = {
            // A refused registration is registered again by this plan.
            let mut tools = self.tools.borrow_mut();
            plan::drop_refused(&mut tools, refused);
            tools.iter().map(|(t, _)| t.clone()).collect()
        };
        let (gone, new) = plan::changes(&registered, &planned);
        // No borrow is held across a JS call: a page's listener could stop
        // the publication from inside one.
        let withdrawn: Vec<JsValue> = {
            let mut tools = self.tools.borrow_mut();
            let (out, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut *tools)
                .into_iter()
                .partition(|(tool, _)| gone.contains(&tool.name));
            *tools = kept;
            out.into_iter()
                .map(|(_, registration)| registration)
                .collect()
        };
        for registration in &withdrawn {
            withdraw(registration);
        }
        let Some(call) = self.call.borrow().as_ref().map(|c| c.as_ref().clone()) else {
            return;
        };
        for tool in new {
            if self.stopped.get() {
                return;
            }
            let registration = register(&self.mc, &to_js(tool), &tool.id, call.unchecked_ref());
            if self.stopped.get() {
                withdraw(&registration);
                return;
            }
            self.tools.borrow_mut().push((tool.clone(), registration));
        }
    }

    /// The request a tool call sends: a run downlink whose payload is the
    /// tool's arguments plus its menu id, or an invoke of the capability
    /// with the arguments as its input.
    fn call_request(&self, id: &str, input: &JsValue) -> JsValue {
        let request_id = self.next_id();
        match self.kind {
            Kind::Menu => {
                let request = to_js(&surface::crossing::object(&mut [
                    ("pageId", self.page_id().into()),
                    ("requestId", request_id.into()),
                    ("cmd", "run".into()),
                ]));
                let _ = Reflect::set(&request, &"payload".into(), &run_payload(id, input));
                request
            }
            Kind::Capabilities => {
                let request = to_js(&surface::crossing::object(&mut [
                    ("protocol", "pling.surface/0.1".into()),
                    ("id", request_id.into()),
                    ("method", "invoke".into()),
                    ("capability", id.into()),
                ]));
                // No arguments is `{}`; anything else goes to Surface as
                // given, whose shape check refuses what is not an object
                // (an array, say) before anything runs.
                let input = if input.is_undefined() || input.is_null() {
                    Object::new().into()
                } else {
                    input.clone()
                };
                let _ = Reflect::set(&request, &"input".into(), &input);
                request
            }
        }
    }
}

/// The tool's arguments (own string keys, read through `Reflect`, so
/// unreadable arguments run with the id alone) plus `id`.
fn run_payload(id: &str, input: &JsValue) -> JsValue {
    let payload = Object::new();
    if plain_object(input) {
        for key in Reflect::own_keys(input.unchecked_ref())
            .map(|k| k.to_vec())
            .unwrap_or_default()
        {
            // `__proto__` would set the copy's prototype, not a field.
            if key.as_string().is_none_or(|k| k == "__proto__") {
                continue;
            }
            if let Ok(value) = Reflect::get(input, &key) {
                let _ = Reflect::set(&payload, &key, &value);
            }
        }
    }
    let _ = Reflect::set(&payload, &"id".into(), &id.into());
    payload.into()
}

/// Reads afresh and brings the tools in line; one at a time, and a change
/// during a sync triggers one more.
async fn sync(state: Rc<State>) {
    if state.stopped.get() {
        return;
    }
    if state.syncing.replace(true) {
        state.again.set(true);
        return;
    }
    loop {
        state.again.set(false);
        // Before the read: a shadow root attached since the last one is
        // watched, and what changed in it before now, this read sees. (A
        // clone: a page getter run by the walk may stop the publication.)
        let observer = state.observer.borrow().clone();
        if let Some(observer) = observer.filter(|o| !o.is_null()) {
            watch_shadows(&observer);
        }
        let request = plan::read_request(state.kind, &state.next_id(), state.page_id().as_deref());
        let answer = state.read(to_js(&request)).await;
        if state.stopped.get() {
            break;
        }
        let Some(answer) = answer else {
            state.stop(); // the owner is gone
            break;
        };
        state.publish(answer);
        if !state.again.get() {
            break;
        }
    }
    state.syncing.set(false);
}

/// The limits of an owner's answer as a publication reads it (the test
/// hook's value too). The depth is bounded so that no recursive decoder
/// goes deeper than the bounds let a page's data go (a capability's
/// `input` is a `serde_json::Value`; a describe response wraps a
/// registry's schema, itself within 32 levels, in 4 more). The values and
/// characters are not: the answer is the module's own full snapshot, which
/// a large page makes longer than the envelope's 10,000 values.
const ANSWER: Limits = Limits {
    depth: ENVELOPE.depth + 4,
    values: usize::MAX,
    chars: usize::MAX,
};

/// An owner's answer (a JSON value the module wrote, or what the test hook
/// was handed) read through its JSON text within [`ANSWER`]; `None` when
/// it is no `T`.
fn read_answer<T: serde::de::DeserializeOwned>(answer: &JsValue) -> Option<T> {
    playable::web::js::read(answer, &ANSWER).ok()
}

/// The plan for `answer`, `None` to keep what is published: what
/// [`State::publish`] applies and `webMcpPlanForTests` shows.
fn plan_for(kind: Kind, answer: &JsValue, elsewhere: &[String]) -> Option<Vec<Tool>> {
    match kind {
        Kind::Menu => {
            read_answer::<MenuAnswer>(answer).and_then(|a| plan::plan_menu(&a, elsewhere))
        }
        Kind::Capabilities => {
            read_answer::<DescribeAnswer>(answer).map(|a| plan::plan_capabilities(&a, elsewhere))
        }
    }
}

/// A menu publication says hello first (it needs the pageId); then it
/// watches the root and publishes the first plan.
async fn begin(state: Rc<State>) {
    if state.kind == Kind::Menu {
        let hello = to_js(&plan::hello_request(&state.next_id()));
        let page_id = match state.ask(hello).await {
            Some(up) => read_answer::<MenuAnswer>(&up)
                .filter(|a| a.ok)
                .and_then(|a| a.payload?.page_id),
            None => None,
        };
        let Some(page_id) = page_id else {
            return state.stop(); // retired: nothing to publish
        };
        *state.page_id.borrow_mut() = Some(page_id);
    }
    if state.stopped.get() {
        return;
    }
    let weak = Rc::downgrade(&state);
    let on_timer: Tick = Closure::new(move || {
        if let Some(state) = weak.upgrade() {
            state.timer.set(None);
            state.resync.borrow_mut().fired();
            wasm_bindgen_futures::spawn_local(sync(state));
        }
    });
    *state.on_timer.borrow_mut() = Some(on_timer);
    let weak = Rc::downgrade(&state);
    let on_change: Tick = Closure::new(move || {
        if let Some(state) = weak.upgrade() {
            state.schedule();
        }
    });
    *state.observer.borrow_mut() = Some(observe(&state.root, on_change.as_ref().unchecked_ref()));
    *state.on_change.borrow_mut() = Some(on_change);
    sync(state).await;
}

/// One tool call: a run (or invoke) through the owner; then a re-read,
/// since the page may have changed in ways no mutation shows (an item
/// hidden by a stylesheet rule alone).
fn call(weak: &Weak<State>, kind: Kind, id: String, input: JsValue) -> Promise {
    let Some(state) = weak.upgrade() else {
        return Promise::resolve(&to_js(&plan::withdrawn(kind, None, &id)));
    };
    // Boxed into the shell's one `future_to_promise` (crate::serve::promise).
    crate::serve::promise(Box::pin(async move {
        let answer = state.ask(state.call_request(&id, &input)).await;
        state.schedule();
        answer.unwrap_or_else(|| to_js(&plan::withdrawn(kind, state.page_id().as_deref(), &id)))
    }))
}

fn random_u32(window: &JsValue) -> Option<u32> {
    let mut bytes = [0u8; 4];
    playable::web::crypto(window)?
        .get_random_values_with_u8_array(&mut bytes)
        .ok()?;
    Some(u32::from_le_bytes(bytes))
}

/// What `publishWebMcp()` returns: `{ active, stop() }`.
#[wasm_bindgen]
pub struct WebMcpPublication {
    state: Rc<State>,
}

#[wasm_bindgen]
impl WebMcpPublication {
    /// True while tools are published: false without WebMCP, after
    /// `stop()`, after retirement.
    #[wasm_bindgen(getter)]
    pub fn active(&self) -> bool {
        !self.state.stopped.get()
    }

    /// Withdraws every tool and stops following the page. Idempotent.
    pub fn stop(&self) {
        self.state.stop();
    }
}

/// The owner's side of a publication, kept in the owner's slot: dropping it
/// (the owner retired or went away) withdraws every tool.
pub(crate) struct Publication {
    /// The JS object handed out (the same one on every call while active).
    js: JsValue,
    state: Rc<State>,
}

impl Drop for Publication {
    fn drop(&mut self) {
        self.state.stop();
    }
}

impl Publication {
    fn start(
        window: &JsValue,
        root: JsValue,
        owner: Weak<dyn Owner>,
        kind: Kind,
        live: bool,
    ) -> Self {
        let mc = if live {
            model_context(window)
        } else {
            JsValue::NULL
        };
        let nonce = STARTED.with(|n| {
            let count = n.get();
            n.set(count.wrapping_add(1));
            count ^ random_u32(window).unwrap_or(0)
        });
        let state = Rc::new(State {
            kind,
            owner,
            stopped: Cell::new(mc.is_null() || mc.is_undefined()),
            mc,
            window: window.clone().unchecked_into(),
            root,
            prefix: plan::request_prefix(nonce),
            seq: Cell::new(0),
            page_id: RefCell::new(None),
            syncing: Cell::new(false),
            again: Cell::new(false),
            tools: RefCell::new(Vec::new()),
            resync: RefCell::new(Resync::default()),
            timer: Cell::new(None),
            observer: RefCell::new(None),
            call: RefCell::new(None),
            on_change: RefCell::new(None),
            on_timer: RefCell::new(None),
        });
        let weak = Rc::downgrade(&state);
        let call: Call =
            Closure::new(move |id: String, input: JsValue| call(&weak, kind, id, input));
        *state.call.borrow_mut() = Some(call);
        if !state.stopped.get() {
            ALL.with(|all| all.borrow_mut().push(Rc::downgrade(&state)));
            wasm_bindgen_futures::spawn_local(begin(Rc::clone(&state)));
        }
        let js = WebMcpPublication {
            state: Rc::clone(&state),
        }
        .into();
        // Handed out again by every publishWebMcp() while active: free()
        // must not leave that object throwing; `stop` works detached too.
        crate::js::hold(&js, &["stop"]);
        Self { js, state }
    }

    /// `publishWebMcp()` for an owner that keeps its publication in `slot`:
    /// a second call while publishing returns the same publication.
    pub(crate) fn publish<O: Owner + 'static>(
        slot: &RefCell<Option<Publication>>,
        window: &JsValue,
        root: JsValue,
        owner: &Rc<O>,
    ) -> JsValue {
        let weak: Weak<dyn Owner> = Rc::downgrade(owner) as Weak<dyn Owner>;
        let Ok(mut slot) = slot.try_borrow_mut() else {
            return Self::start(window, root, weak, owner.kind(), false)
                .js
                .clone();
        };
        if let Some(live) = slot.as_ref().filter(|p| !p.state.stopped.get()) {
            return live.js.clone();
        }
        let publication = Self::start(window, root, weak, owner.kind(), owner.live());
        let js = publication.js.clone();
        *slot = Some(publication);
        js
    }
}

/// For tests/webmcp-plan.test.mjs: the plan for `answer` (a snapshot
/// uplink, or with `surface` a describe response) as `[name, id,
/// description, schema JSON][]`, or `undefined` to keep what is published.
#[wasm_bindgen(js_name = webMcpPlanForTests)]
pub fn plan_for_tests(surface: bool, answer: JsValue) -> JsValue {
    // What a publication plans for this answer, read as it reads one.
    let kind = if surface {
        Kind::Capabilities
    } else {
        Kind::Menu
    };
    let Some(tools) = plan_for(kind, &answer, &[]) else {
        return JsValue::UNDEFINED;
    };
    let rows: Vec<[String; 4]> = tools
        .into_iter()
        .map(|t| {
            let schema = serde_json::to_string(&t.input_schema).unwrap_or_default();
            [t.name, t.id, t.description, schema]
        })
        .collect();
    to_js(&rows)
}

/// For tests/webmcp-plan.test.mjs: the hashed name of any id. An id that is
/// not a string is a clear error (a `&str` parameter would let the glue pass
/// a number into wasm memory as a string's pointer).
#[wasm_bindgen(js_name = webMcpNameForTests)]
pub fn name_for_tests(id: JsValue) -> Result<String, JsError> {
    match id.as_string() {
        Some(id) => Ok(plan::sanitised_name(&id)),
        None => Err(JsError::new("webMcpNameForTests: the id must be a string")),
    }
}
