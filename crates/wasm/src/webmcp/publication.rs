//! The live WebMCP publication of one instance's menu: says hello to get the
//! pageId, registers the planned tools, re-plans when the DOM changes, and
//! runs a tool call as a `run` downlink through the instance's `handle`, so
//! it gets the same checks as any other client (fresh menu, latch,
//! actionability, zero side effects on refusal).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use js_sys::{Function, Promise};
use playable::{ErrorCode, OkPayload, Phase, Uplink};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::{diff, input_schema, plan, ToolSpec};
use crate::install::{to_js, Instance};

/// At most this long between a DOM change and the tools reflecting it
/// (plus the time one snapshot takes).
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

type RunFn = Closure<dyn Fn(String, JsValue) -> Promise>;

pub(crate) struct Publication {
    instance: Weak<Instance>,
    context: JsValue,
    page_id: RefCell<String>,
    /// What is registered now, with the function that withdraws each.
    tools: RefCell<Vec<(ToolSpec, Function)>>,
    watcher: RefCell<Option<Watcher>>,
    run: RunFn,
    on_change: Closure<dyn Fn()>,
    stopped: Cell<bool>,
    syncing: Cell<bool>,
    again: Cell<bool>,
    seq: Cell<u32>,
}

fn envelope(page_id: Option<String>, request_id: &str, cmd: &str) -> Value {
    let mut down = Map::new();
    down.insert("pageId".into(), page_id.map_or(Value::Null, Value::String));
    down.insert("requestId".into(), Value::String(request_id.into()));
    down.insert("cmd".into(), Value::String(cmd.into()));
    down.insert("payload".into(), Value::Object(Map::new()));
    Value::Object(down)
}

impl Publication {
    /// Starts publishing `instance`'s menu; `None` where WebMCP is absent
    /// or the instance is retired.
    pub(crate) fn start(instance: &Rc<Instance>) -> Option<Rc<Self>> {
        let context = model_context(&instance.window);
        if context.is_null() || instance.machine.phase() == Phase::Retired {
            return None;
        }
        let publication = Rc::new_cyclic(|me: &Weak<Self>| {
            let run_me = me.clone();
            let sync_me = me.clone();
            Self {
                instance: Rc::downgrade(instance),
                context,
                page_id: RefCell::new(String::new()),
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
                seq: Cell::new(0),
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

    fn next_request_id(&self, what: &str) -> String {
        let n = self.seq.get().wrapping_add(1);
        self.seq.set(n);
        format!("webmcp-{what}-{n}")
    }

    /// Hello (the publication is a client like any other and needs the
    /// pageId), then watch the root and publish the first plan.
    async fn begin(self: Rc<Self>) {
        let Some(instance) = self.instance.upgrade() else {
            return self.stop();
        };
        let hello = envelope(None, &self.next_request_id("hello"), "hello");
        let response = instance.machine.handle(&hello).await;
        let Some(OkPayload::Hello { page_id }) = response.uplink.payload else {
            return self.stop(); // retired: nothing to publish
        };
        if self.stopped() {
            return;
        }
        *self.page_id.borrow_mut() = page_id;
        let watcher = watch(
            &instance.root,
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

    /// Reads the menu afresh and brings the registered tools in line. One at
    /// a time; a change during a sync triggers one more.
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
            let Some(instance) = self.instance.upgrade() else {
                self.stop();
                break;
            };
            let page_id = self.page_id.borrow().clone();
            let down = envelope(Some(page_id), &self.next_request_id("sync"), "snapshot");
            let response = instance.machine.handle(&down).await;
            if self.stopped() {
                break;
            }
            if instance.machine.phase() == Phase::Retired {
                self.stop();
                break;
            }
            if let Some(OkPayload::Snapshot { snapshot, .. }) = response.uplink.payload {
                self.apply(plan(&snapshot.menu));
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
            let Some(schema) = input_schema(&spec.event) else {
                continue;
            };
            let withdraw = register(
                &self.context,
                &spec.name,
                &spec.description,
                schema,
                &spec.id,
                self.run.as_ref().unchecked_ref(),
            );
            tools.push((spec, withdraw));
        }
    }
}

/// One tool call: a `run` downlink through `handle`; the uplink is the result.
async fn execute(me: Weak<Publication>, id: String, input: JsValue) -> JsValue {
    let live = me.upgrade().filter(|p| !p.stopped());
    let (Some(publication), Some(instance)) =
        (live.clone(), live.and_then(|p| p.instance.upgrade()))
    else {
        // A call that raced stop(): the tool is withdrawn, nothing is run.
        let up = Uplink::err(
            None,
            String::new(),
            ErrorCode::NotInMenu,
            format!("{id:?}: this WebMCP tool was withdrawn; nothing was run"),
        );
        return to_js(&up);
    };
    let page_id = publication.page_id.borrow().clone();
    let down = run_envelope(&page_id, &publication.next_request_id("run"), &id, &input);
    let up = instance.handle(down).await;
    // The page may have changed in ways no mutation shows (a hidden item
    // coming back by CSS alone): re-read after every call.
    publication.schedule();
    up
}

/// What `playable.publishWebMcp()` returns: `{ stop() }`.
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
