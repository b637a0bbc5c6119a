//! Native tests of the state machine over in-memory fakes.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use sense::{Beyond, MenuItem, Snapshot};
use serde_json::{json, Value};

use crate::ports::{
    Action, Bom, Bot, DispatchError, InputValue, Outcome, PortError, Random, Refusal, Report, Sense,
};
use crate::{Dropped, Machine, Phase};

/// Drives a future whose fakes never wait.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[derive(Default)]
pub struct FakeSense {
    pub snapshot: RefCell<Snapshot>,
    pub reads: Cell<u32>,
    pub fail: Cell<bool>,
    pub shot: Option<&'static str>,
    /// What `beyond_root` answers; `fail_beyond`: it fails.
    pub beyond: RefCell<Beyond>,
    pub fail_beyond: Cell<bool>,
}

impl Sense for FakeSense {
    type Target = String;
    type Shot = &'static str;
    async fn snapshot(&self) -> Result<Snapshot, PortError> {
        self.reads.set(self.reads.get() + 1);
        if self.fail.get() {
            return Err("boom".into());
        }
        Ok(self.snapshot.borrow().clone())
    }
    async fn resolve(&self, id: &str) -> Result<Option<String>, PortError> {
        let snap = self.snapshot.borrow();
        Ok(snap
            .menu
            .iter()
            .find(|m| m.id == id && !m.ambiguous)
            .map(|m| m.id.clone()))
    }
    async fn capture(&self) -> Result<Option<&'static str>, PortError> {
        Ok(self.shot)
    }
    async fn beyond_root(&self) -> Result<Beyond, PortError> {
        if self.fail_beyond.get() {
            return Err("frame boom".into());
        }
        Ok(self.beyond.borrow().clone())
    }
}

/// Records every dispatch as "target" (click) or "target <action>".
#[derive(Default)]
pub struct FakeBot {
    pub clicks: RefCell<Vec<String>>,
    pub refuse: RefCell<Option<Refusal>>,
    pub fail: Cell<bool>,
}

impl Bot<String> for FakeBot {
    async fn check(&self, _t: &String, _a: &Action<String>) -> Result<(), Refusal> {
        match self.refuse.borrow().clone() {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }
    async fn dispatch(&self, t: &String, a: &Action<String>) -> Result<Report, DispatchError> {
        if self.fail.get() {
            return Err("the handler threw".into());
        }
        let (entry, report) = match a {
            Action::Click => (t.clone(), Report::Done),
            Action::Input(v) => (format!("{t} input {v:?}"), Report::Done),
            Action::Scroll { to, by } => (
                format!("{t} scroll {to:?} {by:?}"),
                Report::Scrolled { left: 3, top: 40 },
            ),
            Action::Drag { to } => (format!("{t} drag {to}"), Report::Done),
        };
        self.clicks.borrow_mut().push(entry);
        Ok(report)
    }
}

pub struct FakeBom {
    pub outcome: Cell<Outcome>,
    pub reloads: Cell<u32>,
    /// What `reload_undone` says next (then `false`: it says so once).
    pub undone: Cell<bool>,
}

impl Default for FakeBom {
    fn default() -> Self {
        Self {
            outcome: Cell::new(Outcome {
                ok: true,
                retired: true,
            }),
            reloads: Cell::new(0),
            undone: Cell::new(false),
        }
    }
}

impl Bom for FakeBom {
    async fn reload(&self) -> Result<Outcome, PortError> {
        self.reloads.set(self.reloads.get() + 1);
        Ok(self.outcome.get())
    }

    fn reload_undone(&self) -> bool {
        self.undone.replace(false)
    }
}

#[derive(Default)]
pub struct FakeRandom(pub Cell<u8>);

impl Random for FakeRandom {
    fn fill(&self, buf: &mut [u8]) -> Result<(), PortError> {
        let n = self.0.get();
        self.0.set(n.wrapping_add(1));
        buf.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = n ^ i as u8);
        Ok(())
    }
}

pub type Fake = Machine<FakeSense, FakeBot, FakeBom, FakeRandom>;

pub fn item(id: &str) -> MenuItem {
    MenuItem {
        id: id.into(),
        event: "click".into(),
        title: id.into(),
        enabled: true,
        visible: true,
        ..MenuItem::default()
    }
}

pub fn machine(menu: Vec<MenuItem>) -> Fake {
    let sense = FakeSense::default();
    sense.snapshot.borrow_mut().menu = menu;
    Machine::new(
        sense,
        FakeBot::default(),
        FakeBom::default(),
        FakeRandom::default(),
    )
}

pub fn send(m: &Fake, v: Value) -> Value {
    send_text(m, &v.to_string())
}

/// Sends a downlink as the JSON text the boundary hands over.
pub fn send_text(m: &Fake, text: &str) -> Value {
    serde_json::from_str(&block_on(m.handle(text)).uplink.to_json()).unwrap()
}

pub fn down(page_id: Value, cmd: &str, payload: Value) -> Value {
    json!({ "pageId": page_id, "requestId": "r1", "cmd": cmd, "payload": payload })
}

pub fn hello(m: &Fake) -> Value {
    let up = send(m, down(Value::Null, "hello", json!({})));
    up["payload"]["pageId"].clone()
}

fn code(up: &Value) -> &str {
    up["error"]["code"].as_str().unwrap_or("")
}

fn assert_untouched(m: &Fake) {
    assert!(m.bot.clicks.borrow().is_empty(), "a refusal clicked");
    assert_eq!(m.bom.reloads.get(), 0, "a refusal reloaded");
}

mod machine;
#[cfg(not(target_arch = "wasm32"))]
mod props;
