//! In-memory twins of the host hooks, and the seed's "orders" page.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
use surface::{
    ActionState, ExecOutcome, Feedback, Host, Observation, Page, PageError, Record, Region,
    Registry, Session, Surface, SurfaceConfig,
};

fn noop_waker() -> Waker {
    const VTABLE: RawWakerVTable = RawWakerVTable::new(
        |_| RawWaker::new(std::ptr::null(), &VTABLE),
        |_| {},
        |_| {},
        |_| {},
    );
    // SAFETY: every vtable function ignores the (null) data pointer.
    unsafe { Waker::from_raw(RawWaker::new(std::ptr::null(), &VTABLE)) }
}

/// Drives a future whose hooks are all in memory. Polls until ready; a
/// fake that never completes would spin, so cap the polls.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let waker = noop_waker();
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    for _ in 0..10_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("future did not complete");
}

/// A future that is pending once before it is ready, so tests exercise the
/// async plumbing (state must not be borrowed across this).
pub struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

pub fn yield_once() -> YieldOnce {
    YieldOnce(false)
}

pub struct FakePage {
    pub obs: RefCell<Observation>,
    pub broken: Cell<bool>,
    pub waits: RefCell<Vec<(String, f64)>>,
}

impl Page for FakePage {
    fn observe(&self) -> Result<Observation, PageError> {
        if self.broken.get() {
            return Err(PageError::Unreadable("root element is gone".into()));
        }
        Ok(self.obs.borrow().clone())
    }

    async fn wait_for_text(&self, text: &str, within_ms: f64) -> bool {
        self.waits.borrow_mut().push((text.to_string(), within_ms));
        yield_once().await;
        self.obs.borrow().shows_text(text)
    }
}

pub struct FakeRegistry(pub RefCell<Registry>);

pub struct FakeConfirm {
    pub configured: bool,
    pub answer: bool,
    pub asked: RefCell<Vec<(String, Value)>>,
    /// What changes on the page or in the session while the person is asked.
    pub meanwhile: RefCell<Option<Meanwhile>>,
}

/// A change made to the fixture while a person is asked.
pub type Meanwhile = Box<dyn Fn(&Fixture)>;

pub struct FakeClock(pub Cell<f64>);

type Effect = Box<dyn Fn(&str, &Value, &mut Observation, &mut Registry) -> ExecOutcome>;

/// The page, its hooks and a Surface, wired together.
pub struct Fixture {
    pub surface: Surface,
    pub registry: FakeRegistry,
    pub session: RefCell<Option<Session>>,
    pub page: FakePage,
    pub confirm: FakeConfirm,
    pub clock: FakeClock,
    pub calls: RefCell<Vec<(String, Value)>>,
    pub effect: RefCell<Effect>,
    /// How often `session()` was read.
    pub session_reads: Cell<u32>,
    /// How often `registry()` was read.
    pub registry_reads: Cell<u32>,
    /// [`Host::clicks_controls`]: a page's own `execute` (false, the
    /// default: the fixture's effect runs the page's path and clicks
    /// nothing, and the seed page has no control for most capabilities) or
    /// the built-in executor (true), which needs the one control to click.
    pub clicks_controls: Cell<bool>,
    next_id: Cell<u32>,
}

/// The page's callbacks, in memory: each async one is pending once before
/// it answers, so tests exercise the awaits.
impl Host for Fixture {
    fn now_ms(&self) -> f64 {
        self.clock.0.get()
    }

    async fn session(&self) -> Option<Session> {
        self.session_reads.set(self.session_reads.get() + 1);
        yield_once().await;
        self.session.borrow().clone()
    }

    async fn registry(&self) -> Registry {
        self.registry_reads.set(self.registry_reads.get() + 1);
        yield_once().await;
        self.registry.0.borrow().clone()
    }

    fn can_confirm(&self) -> bool {
        self.confirm.configured
    }

    async fn confirm(&self, capability: &str, input: &Value) -> bool {
        self.confirm
            .asked
            .borrow_mut()
            .push((capability.to_string(), input.clone()));
        yield_once().await;
        if let Some(meanwhile) = &*self.confirm.meanwhile.borrow() {
            meanwhile(self);
        }
        self.confirm.answer
    }

    async fn execute(&self, capability: &str, args: &Value) -> ExecOutcome {
        self.calls
            .borrow_mut()
            .push((capability.to_string(), args.clone()));
        yield_once().await;
        let effect = self.effect.borrow();
        let mut obs = self.page.obs.borrow_mut();
        let mut registry = self.registry.0.borrow_mut();
        effect(capability, args, &mut obs, &mut registry)
    }

    fn clicks_controls(&self) -> bool {
        self.clicks_controls.get()
    }
}

pub const NOW: f64 = 1_700_000_000_000.0;

/// `Registry::from_json`, remembered for the seed's registry (fuzzing
/// builds a fixture per case).
fn parsed_registry(registry: &Value) -> Registry {
    thread_local! {
        static SEED: Registry = Registry::from_json(&seed_registry());
    }
    if *registry == seed_registry() {
        return SEED.with(Registry::clone);
    }
    Registry::from_json(registry)
}

pub fn seed_registry() -> Value {
    json!([
        {
            "id": "orders.search",
            "title": "搜索订单",
            "description": "按客户或单号搜索",
            "input": {
                "type": "object",
                "properties": { "query": { "type": "string", "minLength": 1 } },
                "required": ["query"],
                "additionalProperties": false
            }
        },
        {
            "id": "orders.open",
            "title": "打开订单",
            "input": { "type": "object", "properties": { "order": { "type": "string" } }, "required": ["order"] }
        },
        {
            "id": "orders.update_note@order",
            "title": "更新备注",
            "input": {
                "type": "object",
                "properties": { "note": { "type": "string", "maxLength": 200 } },
                "required": ["note"]
            },
            "expect": { "text": "备注已保存" }
        },
        {
            "id": "orders.cancel@order",
            "title": "取消订单",
            "risk": "high"
        },
        {
            "id": "orders.refund",
            "title": "退款"
        }
    ])
}

fn record(id: &str, customer: &str, state: &str, region: &str) -> Record {
    Record {
        id: id.into(),
        kind: "order".into(),
        fields: serde_json::Map::from_iter([
            ("customer".to_string(), Value::from(customer)),
            ("note".to_string(), Value::from("")),
        ]),
        state: Some(state.into()),
        region: Some(region.into()),
    }
}

fn row(capability: &str, record: &str, enabled: bool, reason: Option<&str>) -> ActionState {
    ActionState {
        capability: capability.into(),
        record: Some(record.into()),
        enabled,
        visible: true,
        unavailable_reason: reason.map(str::to_string),
    }
}

/// The seed's orders page: SO-1002 is locked; SO-1009 sits in an inactive
/// archive region.
pub fn seed_page() -> Observation {
    let note = "orders.update_note@order";
    Observation {
        document_id: 1,
        page_title: Some("订单".into()),
        document_title: "订单 - Pling".into(),
        regions: vec![
            Region {
                id: "list".into(),
                title: "订单列表".into(),
                active: true,
            },
            Region {
                id: "archive".into(),
                title: "归档".into(),
                active: false,
            },
        ],
        records: vec![
            record("SO-1001", "王芳", "open", "list"),
            record("SO-1002", "李雷", "locked", "list"),
            record("SO-1003", "韩梅梅", "open", "list"),
            record("SO-1009", "张伟", "archived", "archive"),
        ],
        status: vec!["共 4 条订单".into()],
        feedback: vec![],
        actions: vec![
            row(note, "SO-1001", true, None),
            row(note, "SO-1002", false, Some("记录已锁定")),
            row(note, "SO-1003", true, None),
            row(note, "SO-1009", true, None),
            row("orders.cancel@order", "SO-1001", true, None),
        ],
    }
}

pub fn seed_session() -> Session {
    Session {
        id: "sess-1".into(),
        scope: vec!["orders.*".into()],
        expires_at: Some(NOW + 3_600_000.0),
        revoked: false,
    }
}

/// Saving a note updates the record and shows "备注已保存".
fn default_effect() -> Effect {
    Box::new(|capability, args, obs, _registry| {
        if capability == "orders.update_note@order" {
            let target = args["record"].as_str().unwrap_or_default();
            let note = args["note"].as_str().unwrap_or_default();
            if let Some(r) = obs.records.iter_mut().find(|r| r.id == target) {
                r.fields.insert("note".into(), Value::from(note));
            }
            obs.status = vec!["备注已保存".into()];
            obs.feedback = vec![Feedback {
                text: "已更新".into(),
                level: Some("success".into()),
            }];
        }
        Ok(Some(json!({ "done": capability })))
    })
}

impl Fixture {
    pub fn with(config: SurfaceConfig, registry: Value, page: Observation) -> Self {
        Self {
            surface: Surface::new(config),
            registry: FakeRegistry(RefCell::new(parsed_registry(&registry))),
            session: RefCell::new(Some(seed_session())),
            page: FakePage {
                obs: RefCell::new(page),
                broken: Cell::new(false),
                waits: RefCell::new(Vec::new()),
            },
            confirm: FakeConfirm {
                configured: false,
                answer: false,
                asked: RefCell::new(Vec::new()),
                meanwhile: RefCell::new(None),
            },
            clock: FakeClock(Cell::new(NOW)),
            calls: RefCell::new(Vec::new()),
            effect: RefCell::new(default_effect()),
            session_reads: Cell::new(0),
            registry_reads: Cell::new(0),
            clicks_controls: Cell::new(false),
            next_id: Cell::new(0),
        }
    }

    /// The seed's configuration plus a high-risk row action, a registered
    /// but unexposed capability, and an exposed but unregistered one.
    pub fn orders() -> Self {
        Self::with(
            SurfaceConfig::new(
                "orders",
                [
                    "orders.search",
                    "orders.open",
                    "orders.update_note@order",
                    "orders.cancel@order",
                    "orders.export",
                ],
            ),
            seed_registry(),
            seed_page(),
        )
    }

    /// One request through the whole pipeline, as JSON text (the way the
    /// shell hands it over); the response as JSON.
    pub fn send(&self, request: &Value) -> Value {
        let text = serde_json::to_string(request).expect("JSON");
        self.send_text(&text, request)
    }

    /// [`Fixture::send`] for text that `request` (if JSON) describes.
    pub fn send_text(&self, text: &str, request: &Value) -> Value {
        let response = block_on(self.surface.handle(text, self, &self.page));
        let response = serde_json::to_value(&response).expect("a response serializes");
        assert_well_formed(request, &response);
        response
    }

    pub fn fresh_id(&self) -> String {
        let n = self.next_id.get() + 1;
        self.next_id.set(n);
        format!("req-{n}")
    }

    pub fn describe(&self, input: Value) -> Value {
        self.send(&json!({
            "protocol": "pling.surface/0.1",
            "id": self.fresh_id(),
            "method": "describe",
            "input": input
        }))
    }

    pub fn invoke(&self, capability: &str, input: Value) -> Value {
        self.send(&json!({
            "protocol": "pling.surface/0.1",
            "id": self.fresh_id(),
            "method": "invoke",
            "capability": capability,
            "input": input
        }))
    }
}

/// Every response: `{ protocol, id, ok, result | error }`, id echoed.
pub fn assert_well_formed(request: &Value, response: &Value) {
    let obj = response.as_object().expect("response is an object");
    assert_eq!(obj["protocol"], "pling.surface/0.1");
    let echoed = request.get("id").and_then(Value::as_str).unwrap_or("");
    assert_eq!(obj["id"], echoed);
    match obj["ok"] {
        Value::Bool(true) => {
            assert!(obj["result"].is_object(), "ok response has a result object");
            assert_eq!(obj.len(), 4);
        }
        Value::Bool(false) => {
            let error = obj["error"].as_object().expect("error object");
            assert!(error["code"].is_string());
            assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
            assert_eq!(obj.len(), 4);
        }
        _ => panic!("ok must be a boolean: {response}"),
    }
}

/// The protocol error code, or panics with the response.
pub fn protocol_code(response: &Value) -> &str {
    assert_eq!(
        response["ok"], false,
        "expected a protocol error: {response}"
    );
    response["error"]["code"].as_str().unwrap_or_default()
}

/// The business error code inside `result.error`, or panics.
pub fn business_code(response: &Value) -> &str {
    assert_eq!(response["ok"], true, "expected ok: true: {response}");
    response["result"]["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("expected result.error: {response}"))
}

pub fn message(response: &Value) -> &str {
    if response["ok"] == true {
        response["result"]["error"]["message"]
            .as_str()
            .unwrap_or_default()
    } else {
        response["error"]["message"].as_str().unwrap_or_default()
    }
}
