//! A live WebMCP publication: registers the tools a [`Source`] plans,
//! re-plans when the DOM under its root changes (and after every call), and
//! hands each tool call to the source, which sends it through the same
//! `handle` as any other client. Two sources exist: a playable instance's
//! menu (`PlayableSource`) and a Surface's capabilities (`SurfaceSource`).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};

use js_sys::{Function, Promise};
use playable::{ErrorCode, OkPayload, Phase, Uplink};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::{diff, plan, ToolSpec};
use crate::install::{to_js, Instance};

/// At most this long between a DOM change and the tools reflecting it
/// (plus the time one read takes).
const RESYNC_MS: u32 = 50;

#[wasm_bindgen(module = "/src/webmcp.js")]
extern "C" {
    #[wasm_bindgen(js_name = modelContext)]
    fn model_context(window: &JsValue) -> JsValue;
    fn register(
        context: &JsValue,
        name: &str,
        description: &str,
        schema: &str,
        id: &str,
        run: &Function,
    ) -> Function;
    #[wasm_bindgen(js_name = runEnvelope)]
    fn run_envelope(page_id: &str, request_id: &str, id: &str, input: &JsValue) -> JsValue;

    type Watcher;
    fn watch(root: &JsValue, ms: u32, on_change: &Function) -> Watcher;
    #[wasm_bindgen(method)]
    fn schedule(this: &Watcher);
    #[wasm_bindgen(method)]
    fn stop(this: &Watcher);
}

pub(crate) type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// What a read found.
pub(crate) enum Read {
    /// Publish exactly these.
    Tools(Vec<ToolSpec>),
    /// Could not read this time; keep what is published.
    Keep,
    /// The owner is gone or retired: withdraw everything for good.
    Stop,
}

/// What a publication publishes and how a call runs.
pub(crate) trait Source {
    /// Once, before the first read (playable: hello). `false` stops.
    fn begin(&self) -> LocalFuture<'_, bool>;
    fn read(&self) -> LocalFuture<'_, Read>;
    /// Runs tool `id` with the agent's input; the result goes to the agent.
    fn call(&self, id: String, input: JsValue) -> LocalFuture<'_, JsValue>;
    /// The answer to a call that raced `stop()`: nothing is run.
    fn withdrawn(&self, id: &str) -> JsValue;
}

type RunFn = Closure<dyn Fn(String, JsValue) -> Promise>;

pub(crate) struct Publication {
    source: Box<dyn Source>,
    context: JsValue,
    root: JsValue,
    /// What is registered now, with the function that withdraws each.
    tools: RefCell<Vec<(ToolSpec, Function)>>,
    watcher: RefCell<Option<Watcher>>,
    run: RunFn,
    on_change: Closure<dyn Fn()>,
    stopped: Cell<bool>,
    syncing: Cell<bool>,
    again: Cell<bool>,
}

impl Publication {
    /// Starts publishing; `None` where WebMCP is absent in `window`.
    pub(crate) fn start(
        window: &JsValue,
        root: JsValue,
        source: Box<dyn Source>,
    ) -> Option<Rc<Self>> {
        let context = model_context(window);
        if context.is_null() {
            return None;
        }
        let publication = Rc::new_cyclic(|me: &Weak<Self>| {
            let run_me = me.clone();
            let sync_me = me.clone();
            Self {
                source,
                context,
                root,
                tools: RefCell::new(Vec::new()),
                watcher: RefCell::new(None),
                run: Closure::new(move |id: String, input: JsValue| {
                    let me = run_me.clone();
                    future_to_promise(async move { Ok(execute(me, id, input).await) })
                }),
                on_change: Closure::new(move || {
                    if let Some(me) = sync_me.upgrade() {
                        wasm_bindgen_futures::spawn_local(me.sync());
                    }
                }),
                stopped: Cell::new(false),
                syncing: Cell::new(false),
                again: Cell::new(false),
            }
        });
        wasm_bindgen_futures::spawn_local(Rc::clone(&publication).begin());
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
        if let Some(watcher) = self.watcher.borrow_mut().take() {
            watcher.stop();
        }
        for (_, withdraw) in self.tools.borrow_mut().drain(..) {
            let _ = withdraw.call0(&JsValue::NULL);
        }
    }

    async fn begin(self: Rc<Self>) {
        if !self.source.begin().await {
            return self.stop();
        }
        if self.stopped() {
            return;
        }
        let watcher = watch(
            &self.root,
            RESYNC_MS,
            self.on_change.as_ref().unchecked_ref(),
        );
        *self.watcher.borrow_mut() = Some(watcher);
        self.sync().await;
    }

    fn schedule(&self) {
        if let Some(watcher) = self.watcher.borrow().as_ref() {
            watcher.schedule();
        }
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
            let read = self.source.read().await;
            if self.stopped() {
                break;
            }
            match read {
                Read::Tools(wanted) => self.apply(wanted),
                Read::Keep => {}
                Read::Stop => {
                    self.stop();
                    break;
                }
            }
            if !self.again.get() {
                break;
            }
        }
        self.syncing.set(false);
    }

    fn apply(&self, wanted: Vec<ToolSpec>) {
        let mut tools = self.tools.borrow_mut();
        let specs: Vec<ToolSpec> = tools.iter().map(|(spec, _)| spec.clone()).collect();
        let (remove, add) = diff(&specs, wanted);
        // Withdraw first so a replaced tool can take its name again.
        for i in remove.into_iter().rev() {
            if i < tools.len() {
                let (_, withdraw) = tools.remove(i);
                let _ = withdraw.call0(&JsValue::NULL);
            }
        }
        for spec in add {
            let withdraw = register(
                &self.context,
                &spec.name,
                &spec.description,
                &spec.schema,
                &spec.id,
                self.run.as_ref().unchecked_ref(),
            );
            tools.push((spec, withdraw));
        }
    }
}

/// One tool call, handed to the source; its answer is the result.
async fn execute(me: Weak<Publication>, id: String, input: JsValue) -> JsValue {
    let Some(publication) = me.upgrade() else {
        return JsValue::NULL;
    };
    if publication.stopped() {
        return publication.source.withdrawn(&id);
    }
    let up = publication.source.call(id, input).await;
    // The page may have changed in ways no mutation shows (an item hidden
    // by CSS alone): re-read after every call.
    publication.schedule();
    up
}

fn envelope(page_id: Option<String>, request_id: &str, cmd: &str) -> Value {
    let mut down = Map::new();
    down.insert("pageId".into(), page_id.map_or(Value::Null, Value::String));
    down.insert("requestId".into(), Value::String(request_id.into()));
    down.insert("cmd".into(), Value::String(cmd.into()));
    down.insert("payload".into(), Value::Object(Map::new()));
    Value::Object(down)
}

/// A playable instance's runnable menu. The publication is a client like
/// any other: it says hello for the pageId, reads with `snapshot`, and a
/// call is a `run` downlink through `Instance::handle` (fresh menu, latch,
/// actionability, zero side effects on refusal); the uplink is the result.
pub(crate) struct PlayableSource {
    instance: Weak<Instance>,
    page_id: RefCell<Option<String>>,
    seq: Cell<u32>,
}

impl PlayableSource {
    pub(crate) fn boxed(instance: &Rc<Instance>) -> Box<dyn Source> {
        Box::new(Self {
            instance: Rc::downgrade(instance),
            page_id: RefCell::new(None),
            seq: Cell::new(0),
        })
    }

    fn request_id(&self, what: &str) -> String {
        let n = self.seq.get().wrapping_add(1);
        self.seq.set(n);
        format!("webmcp-{what}-{n}")
    }
}

impl Source for PlayableSource {
    fn begin(&self) -> LocalFuture<'_, bool> {
        Box::pin(async move {
            let Some(instance) = self.instance.upgrade() else {
                return false;
            };
            let hello = envelope(None, &self.request_id("hello"), "hello");
            let response = instance.machine.handle(&hello).await;
            let Some(OkPayload::Hello { page_id }) = response.uplink.payload else {
                return false; // retired: nothing to publish
            };
            *self.page_id.borrow_mut() = Some(page_id);
            true
        })
    }

    fn read(&self) -> LocalFuture<'_, Read> {
        Box::pin(async move {
            let Some(instance) = self.instance.upgrade() else {
                return Read::Stop;
            };
            let page_id = self.page_id.borrow().clone();
            let down = envelope(page_id, &self.request_id("sync"), "snapshot");
            let response = instance.machine.handle(&down).await;
            if instance.machine.phase() == Phase::Retired {
                return Read::Stop;
            }
            match response.uplink.payload {
                Some(OkPayload::Snapshot { snapshot, .. }) => Read::Tools(plan(&snapshot.menu)),
                _ => Read::Keep,
            }
        })
    }

    fn call(&self, id: String, input: JsValue) -> LocalFuture<'_, JsValue> {
        Box::pin(async move {
            let Some(instance) = self.instance.upgrade() else {
                return self.withdrawn(&id);
            };
            let page_id = self.page_id.borrow().clone().unwrap_or_default();
            let down = run_envelope(&page_id, &self.request_id("run"), &id, &input);
            instance.handle(down).await
        })
    }

    fn withdrawn(&self, id: &str) -> JsValue {
        let up = Uplink::err(
            self.page_id.borrow().clone(),
            String::new(),
            ErrorCode::NotInMenu,
            format!("{id:?}: this WebMCP tool was withdrawn; nothing was run"),
        );
        to_js(&up)
    }
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
