//! The state machine: `installed → live → retired`, the pageId latch, and the
//! four commands. Checks run in baseline order (shape → cmd → phase → latch →
//! command-specific); every refusal returns before any port is asked to act.

use std::cell::RefCell;

use serde_json::Value;

use crate::envelope::{
    fail, parse_downlink, payload_bool, payload_str, Command, Downlink, ErrorCode, Failure,
    OkPayload, Uplink,
};
use crate::fifo::Fifo;
use crate::ports::{Bom, Bot, Random, Sense};
use crate::run::run_item;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Installed,
    Live,
    Retired,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Installed => "installed",
            Phase::Live => "live",
            Phase::Retired => "retired",
        }
    }
}

/// An uplink plus the screenshot a snapshot carried (kept out of the JSON
/// so the boundary can hand back exactly what the capturer returned).
pub struct Response<'a, Shot> {
    pub uplink: Uplink<'a>,
    pub screenshot: Option<Shot>,
}

struct State {
    phase: Phase,
    page_id: Option<String>,
}

pub struct Machine<S, B, M, R> {
    pub sense: S,
    pub bot: B,
    pub bom: M,
    pub random: R,
    state: RefCell<State>,
    fifo: Fifo,
}

type Outcome<'a> = Result<OkPayload<'a>, Failure>;

impl<S, B, M, R> Machine<S, B, M, R>
where
    S: Sense,
    B: Bot<S::Target>,
    M: Bom,
    R: Random,
{
    pub fn new(sense: S, bot: B, bom: M, random: R) -> Self {
        Self {
            sense,
            bot,
            bom,
            random,
            state: RefCell::new(State {
                phase: Phase::Installed,
                page_id: None,
            }),
            fifo: Fifo::default(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.state.borrow().phase
    }

    pub fn page_id(&self) -> Option<String> {
        self.state.borrow().page_id.clone()
    }

    /// Handles one downlink; requests queue in arrival order. Never panics.
    pub async fn handle<'v>(&self, value: &'v Value) -> Response<'v, S::Shot> {
        let _turn = self.fifo.lock().await;
        let down = match parse_downlink(value) {
            Ok(down) => down,
            Err(refusal) => {
                return Response {
                    uplink: Uplink::err(
                        self.page_id(),
                        refusal.request_id,
                        refusal.code,
                        refusal.message,
                    ),
                    screenshot: None,
                }
            }
        };
        let mut screenshot = None;
        let outcome = match self.gate(&down) {
            Err(refusal) => Err(refusal),
            Ok(()) => match down.cmd {
                Command::Hello => self.hello(),
                Command::Run => self.run(&down).await,
                Command::Snapshot | Command::Escape => self.read_then(&down, &mut screenshot).await,
            },
        };
        let page_id = self.page_id();
        let uplink = match outcome {
            Ok(payload) => Uplink::ok(page_id, down.request_id, payload),
            Err(failure) => {
                let (code, message) = *failure;
                Uplink::err(page_id, down.request_id, code, message)
            }
        };
        Response { uplink, screenshot }
    }

    /// Phase, then latch.
    fn gate(&self, down: &Downlink<'_>) -> Result<(), Failure> {
        let state = self.state.borrow();
        match state.phase {
            Phase::Retired => {
                return Err(fail(
                    ErrorCode::Retired,
                    "this instance was retired by a reload escape; talk to the new document".into(),
                ))
            }
            Phase::Installed if down.cmd != Command::Hello => {
                return Err(fail(
                    ErrorCode::NotLive,
                    "say hello first: no pageId has been issued yet".into(),
                ))
            }
            _ => {}
        }
        if down.cmd != Command::Hello && down.page_id != state.page_id.as_deref() {
            return Err(fail(
                ErrorCode::PageMismatch,
                format!(
                    "pageId {} is not this page's current pageId; say hello again",
                    sense::json::quote(down.page_id.unwrap_or("null"))
                ),
            ));
        }
        Ok(())
    }

    fn hello(&self) -> Outcome<'static> {
        if let Some(id) = self.page_id() {
            return Ok(OkPayload::Hello { page_id: id });
        }
        let mut bytes = [0u8; 16];
        self.random.fill(&mut bytes).map_err(|e| {
            fail(
                ErrorCode::Internal,
                format!("no randomness for a pageId: {e}"),
            )
        })?;
        // Lowercase hex by table: no integer formatting per byte.
        let mut hex = Vec::with_capacity(32);
        for b in bytes {
            hex.push(b"0123456789abcdef"[usize::from(b >> 4)]);
            hex.push(b"0123456789abcdef"[usize::from(b & 15)]);
        }
        let id = String::from_utf8(hex).unwrap_or_default();
        let mut state = self.state.borrow_mut();
        state.page_id = Some(id.clone());
        state.phase = Phase::Live;
        Ok(OkPayload::Hello { page_id: id })
    }

    async fn run<'v>(&self, down: &Downlink<'v>) -> Outcome<'v> {
        let id = payload_str(down.payload, "id")?;
        run_item(&self.sense, &self.bot, id, down.payload).await
    }

    /// `snapshot` and `escape`: their payload checks, then one fresh read of
    /// the menu (one await of the reader for both commands).
    async fn read_then(&self, down: &Downlink<'_>, shot: &mut Option<S::Shot>) -> Outcome<'static> {
        let escape = down.cmd == Command::Escape;
        let want_shot = if escape {
            let kind = payload_str(down.payload, "type")?;
            if kind != "reload" {
                let shown = sense::prefix_chars(kind, 40);
                return Err(fail(
                    ErrorCode::EscapeNotAllowed,
                    format!(
                        "escape type {} is not offered; only \"reload\" exists",
                        sense::json::quote(shown)
                    ),
                ));
            }
            false
        } else {
            payload_bool(down.payload, "screenshot")?
        };
        let snapshot = read_menu(&self.sense).await?;
        if escape {
            if let Some(reason) = sense::reload_refusal(&snapshot) {
                return Err(fail(
                    ErrorCode::EscapeNotAllowed,
                    format!("reload is not allowed now: {reason}"),
                ));
            }
            drop(snapshot);
            return self.reload().await;
        }
        if want_shot {
            *shot = self.sense.capture().await.map_err(|e| {
                fail(
                    ErrorCode::Internal,
                    format!("captureScreenshot failed: {e}"),
                )
            })?;
        }
        Ok(OkPayload::Snapshot { snapshot })
    }

    /// The reload escape, once the fresh menu allows it.
    async fn reload(&self) -> Outcome<'static> {
        let outcome = self
            .bom
            .reload()
            .await
            .map_err(|e| fail(ErrorCode::DispatchFailed, format!("reload failed: {e}")))?;
        if !outcome.retired {
            return Err(fail(
                ErrorCode::DispatchFailed,
                format!(
                    "reload reported ok:{} retired:false; the page is still live",
                    outcome.ok
                ),
            ));
        }
        self.state.borrow_mut().phase = Phase::Retired;
        Ok(OkPayload::Escape {
            kind: "reload",
            retired: true,
        })
    }
}

pub(crate) async fn read_menu<S: Sense>(sense: &S) -> Result<sense::Snapshot, Failure> {
    sense
        .snapshot()
        .await
        .map_err(|e| fail(ErrorCode::Internal, format!("reading the menu failed: {e}")))
}
