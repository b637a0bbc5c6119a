//! A live WebMCP publication. Its owner is a playable instance (tools = the
//! runnable menu) or a Surface (tools = the usable capabilities). It is a
//! client like any other: every read and every tool call is a request sent
//! through the owner's own `handle` — hello, snapshot and run downlinks, or
//! describe and invoke requests — so the menu is read afresh, the latch,
//! actionability and Surface's checks all hold, and a refusal changes
//! nothing. The answer is the tool's result. Re-reads follow DOM changes
//! under the root and every call; retirement and `stop()` withdraw all.

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicU32, Ordering};

use js_sys::Function;
use playable::Phase;
use wasm_bindgen::prelude::*;

use crate::install::Instance;

/// At most this long between a DOM change and the tools reflecting it
/// (plus the time one read takes).
const RESYNC_MS: u32 = 50;

#[wasm_bindgen(module = "/src/webmcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = modelContext)]
    fn model_context(window: &JsValue) -> JsValue;
    fn publish(
        context: &JsValue,
        tools: &js_sys::Map,
        response: &JsValue,
        surface: bool,
        run: &Function,
    );
    #[wasm_bindgen(js_name = withdrawAll)]
    fn withdraw_all(tools: &js_sys::Map);
    fn request(
        surface: bool,
        request_id: &str,
        page_id: Option<&str>,
        cmd: &str,
        id: &str,
        input: &JsValue,
    ) -> JsValue;
    #[wasm_bindgen(js_name = helloPageId)]
    fn hello_page_id(uplink: &JsValue) -> JsValue;
    fn withdrawn(surface: bool, page_id: Option<&str>, id: &str) -> JsValue;

    type Watcher;
    fn watch(root: &JsValue, ms: u32, on_change: &Function) -> Watcher;
    #[wasm_bindgen(method)]
    fn schedule(this: &Watcher);
    #[wasm_bindgen(method)]
    fn stop(this: &Watcher);
}

/// `{n:08x}`, without the formatting machinery.
fn push_hex(out: &mut String, n: u32) {
    for shift in (0..8).rev() {
        out.push(char::from_digit((n >> (shift * 4)) & 0xf, 16).unwrap_or('0'));
    }
}

/// Publications started so far (see the request-id prefix).
static STARTED: AtomicU32 = AtomicU32::new(0);

/// Whose tools these are.
pub(crate) enum Owner {
    Playable(Weak<Instance>),
    Surface(Weak<crate::surface::Inner>),
}

impl Owner {
    fn surface(&self) -> bool {
        matches!(self, Owner::Surface(_))
    }

    /// Sends one request through the owner's `handle`; `None` when it is gone.
    async fn handle(&self, request: JsValue) -> Option<JsValue> {
        let answer = match self {
            Owner::Playable(instance) => instance.upgrade()?.answer(request),
            Owner::Surface(surface) => {
                let surface = surface.upgrade()?;
                Box::pin(async move { surface.handle(request).await })
            }
        };
        Some(answer.await)
    }

    fn retired(&self) -> bool {
        match self {
            Owner::Playable(instance) => instance
                .upgrade()
                .is_none_or(|i| i.machine.phase() == Phase::Retired),
            Owner::Surface(surface) => surface.upgrade().is_none(),
        }
    }
}

/// The module's one closure type (the bridge listener's, crates/task's): one
/// wasm-bindgen invoke shim serves them all. It never returns an error.
type Callback = Closure<dyn FnMut(JsValue) -> Result<(), JsError>>;

pub(crate) struct Publication {
    owner: Owner,
    context: JsValue,
    root: JsValue,
    /// Request ids never repeat (Surface refuses a replayed id): a random
    /// prefix per publication, then a counter.
    prefix: String,
    seq: Cell<u32>,
    page_id: OnceCell<String>,
    /// What is registered now (name → { key, withdraw }, kept by webmcp.js).
    tools: js_sys::Map,
    watcher: Cell<Option<Watcher>>,
    /// A tool call `[id, input, resolve]`: resolves with the answer's promise.
    run: Callback,
    on_change: Callback,
    stopped: Cell<bool>,
    syncing: Cell<bool>,
    again: Cell<bool>,
}

impl Publication {
    /// Starts publishing; `None` where WebMCP is absent in `window`.
    pub(crate) fn start(window: &JsValue, root: JsValue, owner: Owner) -> Option<Rc<Self>> {
        let context = model_context(window);
        if context.is_null() || owner.retired() {
            return None;
        }
        // crypto.getRandomValues (already imported for pageIds); should it
        // fail, the count of publications started still tells them apart.
        let mut bytes = [0u8; 4];
        if let Some(crypto) = crate::ports::crypto(window) {
            let _ = crypto.get_random_values_with_u8_array(&mut bytes);
        }
        let nonce = u32::from_le_bytes(bytes) ^ STARTED.fetch_add(1, Ordering::Relaxed);
        let mut prefix = String::from("webmcp-");
        push_hex(&mut prefix, nonce);
        prefix.push('-');
        let publication = Rc::new_cyclic(|me: &Weak<Self>| {
            let run_me = me.clone();
            let sync_me = me.clone();
            Self {
                owner,
                context,
                root,
                prefix,
                seq: Cell::new(0),
                page_id: OnceCell::new(),
                tools: js_sys::Map::new(),
                watcher: Cell::new(None),
                run: Closure::new(move |call: JsValue| {
                    let call: js_sys::Array = call.unchecked_into();
                    let answer = execute(run_me.clone(), call.get(0), call.get(1));
                    let resolve: Function = call.get(2).unchecked_into();
                    let _ = resolve.call1(
                        &JsValue::UNDEFINED,
                        &crate::serve::promise(Box::pin(answer)),
                    );
                    Ok(())
                }),
                on_change: Closure::new(move |_: JsValue| {
                    if let Some(me) = sync_me.upgrade() {
                        task::spawn_local(me.sync());
                    }
                    Ok(())
                }),
                stopped: Cell::new(false),
                syncing: Cell::new(false),
                again: Cell::new(false),
            }
        });
        task::spawn_local(Rc::clone(&publication).begin());
        Some(publication)
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped.get()
    }

    /// Withdraws every tool and stops watching. Idempotent.
    pub(crate) fn stop(&self) {
        if self.stopped.replace(true) {
            return;
        }
        if let Some(watcher) = self.watcher.take() {
            watcher.stop();
        }
        withdraw_all(&self.tools);
    }

    /// The request for `cmd` with a fresh request id.
    fn request(&self, cmd: &str, id: &str, input: &JsValue) -> JsValue {
        let n = self.seq.get().wrapping_add(1);
        self.seq.set(n);
        let mut request_id = self.prefix.clone();
        request_id.push_str(&n.to_string());
        request(
            self.owner.surface(),
            &request_id,
            self.page_id.get().map(String::as_str),
            cmd,
            id,
            input,
        )
    }

    /// A playable publication says hello first (it needs the pageId); then
    /// it watches the root and publishes the first plan.
    async fn begin(self: Rc<Self>) {
        if !self.owner.surface() {
            let hello = self.request("hello", "", &JsValue::UNDEFINED);
            let page_id = match self.owner.handle(hello).await {
                Some(up) => hello_page_id(&up).as_string(),
                None => None,
            };
            let Some(page_id) = page_id else {
                return self.stop(); // retired: nothing to publish
            };
            let _ = self.page_id.set(page_id);
        }
        if self.stopped() {
            return;
        }
        let on_change: &Function = self.on_change.as_ref().unchecked_ref();
        self.watcher
            .set(Some(watch(&self.root, RESYNC_MS, on_change)));
        self.sync().await;
    }

    fn schedule(&self) {
        let watcher = self.watcher.take();
        if let Some(watcher) = &watcher {
            watcher.schedule();
        }
        self.watcher.set(watcher);
    }

    /// Reads afresh and brings the registered tools in line. One at a time;
    /// a change during a sync triggers one more.
    async fn sync(self: Rc<Self>) {
        if self.stopped() {
            return;
        }
        if self.syncing.replace(true) {
            self.again.set(true);
            return;
        }
        loop {
            self.again.set(false);
            let cmd = if self.owner.surface() {
                "describe"
            } else {
                "snapshot"
            };
            let response = self
                .owner
                .handle(self.request(cmd, "", &JsValue::UNDEFINED))
                .await;
            if self.stopped() {
                break;
            }
            let Some(response) = response.filter(|_| !self.owner.retired()) else {
                self.stop();
                break;
            };
            let run: &Function = self.run.as_ref().unchecked_ref();
            publish(
                &self.context,
                &self.tools,
                &response,
                self.owner.surface(),
                run,
            );
            if !self.again.get() {
                break;
            }
        }
        self.syncing.set(false);
    }
}

/// One tool call: a run (or invoke) through the owner's `handle`.
async fn execute(me: Weak<Publication>, id: JsValue, input: JsValue) -> JsValue {
    let id = id.as_string().unwrap_or_default();
    let Some(publication) = me.upgrade() else {
        return withdrawn(false, None, &id);
    };
    let surface = publication.owner.surface();
    let answer = if publication.stopped() {
        None
    } else {
        let cmd = if surface { "invoke" } else { "run" };
        let request = publication.request(cmd, &id, &input);
        publication.owner.handle(request).await
    };
    // The page may have changed in ways no mutation shows (an item hidden
    // by a stylesheet rule alone): re-read after every call.
    publication.schedule();
    answer.unwrap_or_else(|| withdrawn(surface, publication.page_id.get().map(String::as_str), &id))
}

/// What `publishWebMcp()` returns: `{ active, stop() }`.
#[wasm_bindgen]
pub struct WebMcpPublication {
    inner: Option<Rc<Publication>>,
}

impl WebMcpPublication {
    pub(crate) fn new(inner: Option<Rc<Publication>>) -> Self {
        Self { inner }
    }

    /// `publishWebMcp()` for an owner that keeps its publication in `slot`:
    /// a second call while publishing returns the same publication.
    pub(crate) fn publish(
        slot: &RefCell<Option<Rc<Publication>>>,
        window: &JsValue,
        root: JsValue,
        owner: Owner,
    ) -> Self {
        let Ok(mut slot) = slot.try_borrow_mut() else {
            return Self::new(None);
        };
        if let Some(live) = slot.as_ref().filter(|p| !p.stopped()) {
            return Self::new(Some(Rc::clone(live)));
        }
        *slot = Publication::start(window, root, owner);
        Self::new(slot.clone())
    }
}

#[wasm_bindgen]
impl WebMcpPublication {
    /// True while tools are published (false where WebMCP is absent, after
    /// `stop()`, and after the page retired).
    #[wasm_bindgen(getter)]
    pub fn active(&self) -> bool {
        self.inner.as_ref().is_some_and(|p| !p.stopped())
    }

    /// Withdraws every tool. Idempotent.
    pub fn stop(&self) {
        if let Some(p) = &self.inner {
            p.stop();
        }
    }
}
