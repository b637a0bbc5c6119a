//! The state machine: `installed → live → retired`, the pageId latch, and the
//! four commands. Checks run in baseline order (shape → cmd → phase → latch →
//! command-specific); every refusal returns before any port is asked to act.

use std::cell::RefCell;

use crate::boundary::Projection;
use crate::envelope::{
    fail, parse_downlink, payload_bool, payload_count, payload_opt_str, payload_str, quote,
    Command, Downlink, ErrorCode, Failure, OkPayload, SnapshotView, Uplink,
};
use crate::escape::{derive_escapes, reload_refusal};
use crate::fifo::Fifo;
use crate::menu::read_menu;
use crate::ports::{Bom, Bot, Random, Sense};
use crate::run::run_item;
use crate::window::Query;

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

/// Why an instance was dropped for good: what its `RETIRED` message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    /// `resetPlayableForTests` dropped every instance.
    ForTests,
    /// Its window no longer holds the document it was built for (a frame
    /// that reloaded or navigated): the new document gets an instance of
    /// its own.
    DocumentGone,
}

impl Dropped {
    pub fn message(self) -> &'static str {
        match self {
            Dropped::ForTests => {
                "this instance was dropped (resetPlayableForTests); install a new one"
            }
            Dropped::DocumentGone => {
                "this instance's document is gone (its window reloaded or navigated); \
                 installPlayable again for the new document"
            }
        }
    }
}

/// An uplink plus the screenshot a snapshot carried (kept out of the JSON
/// so the boundary can hand back exactly what the capturer returned).
pub struct Response<Shot> {
    pub uplink: Uplink,
    pub screenshot: Option<Shot>,
}

struct State {
    phase: Phase,
    page_id: Option<String>,
    /// Dropped by its owner, and why: retired for good.
    dropped: Option<Dropped>,
}

pub struct Machine<S, B, M, R> {
    pub sense: S,
    pub bot: B,
    pub bom: M,
    pub random: R,
    state: RefCell<State>,
    fifo: Fifo,
}

type Outcome = Result<OkPayload, Failure>;

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
                dropped: None,
            }),
            fifo: Fifo::default(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.revive_if_reload_undone();
        self.state.borrow().phase
    }

    /// Retires the instance for good: its owner dropped it (a JS object
    /// handed out earlier must not keep acting on the page). Every command
    /// is then `RETIRED`, saying `why`. The first reason stands.
    pub fn drop_for_good(&self, why: Dropped) {
        let mut state = self.state.borrow_mut();
        state.phase = Phase::Retired;
        state.dropped.get_or_insert(why);
    }

    /// Why [`Machine::drop_for_good`] was called, if it was.
    pub fn dropped_why(&self) -> Option<Dropped> {
        self.state.borrow().dropped
    }

    /// Whether [`Machine::drop_for_good`] was called.
    pub fn dropped(&self) -> bool {
        self.dropped_why().is_some()
    }

    /// A retired instance whose reload the page cancelled is live again:
    /// the document it serves is still here (no fake retirement).
    fn revive_if_reload_undone(&self) {
        let state = self.state.borrow();
        let retired = state.phase == Phase::Retired && state.dropped.is_none();
        drop(state);
        if retired && self.bom.reload_undone() {
            self.state.borrow_mut().phase = Phase::Live;
        }
    }

    /// The last check before a reload escape's reload starts, some time
    /// after the escape was answered: the escape rule on a fresh read (unsaved
    /// work may have appeared since). `false` when the menu cannot be read
    /// or the instance was dropped: no reload that might lose work.
    pub async fn reload_still_allowed(&self) -> bool {
        if self.dropped() {
            return false;
        }
        read_menu(&self.sense)
            .await
            .is_ok_and(|s| reload_refusal(&s.dirty, s.no_reload).is_none())
            && self.reload_refusal_beyond_root().await.is_ok()
    }

    /// The escape rule over what the reload reloads beyond the scan root;
    /// a read that failed refuses too (the page could not be checked).
    async fn reload_refusal_beyond_root(&self) -> Result<(), Failure> {
        let beyond = self.sense.beyond_root().await.map_err(|e| {
            fail(
                ErrorCode::Internal,
                format!("reading the page beyond the scan root failed: {e}"),
            )
        })?;
        // Unsaved work found names itself; else frames left unread refuse
        // too: what they hold is unknown (fail closed).
        let reason = match (
            reload_refusal(&beyond.dirty, beyond.no_reload),
            beyond.unread,
        ) {
            (None, None) => return Ok(()),
            (Some(reason), _) => reason + ", outside the scan root",
            (None, Some(bound)) => bound.reason().to_string(),
        };
        Err(fail(
            ErrorCode::EscapeNotAllowed,
            format!("reload is not allowed now: {reason} (a reload reloads the whole page)"),
        ))
    }

    pub fn page_id(&self) -> Option<String> {
        self.state.borrow().page_id.clone()
    }

    /// Handles one downlink given as JSON text; requests queue in arrival
    /// order. Never panics, whatever the text.
    pub async fn handle(&self, text: &str) -> Response<S::Shot> {
        let _turn = self.fifo.lock().await;
        self.serve(text).await
    }

    /// Handles one downlink as the JS boundary projected it: what only JS
    /// could see is decided first ([`Projection::admit`]), then the text
    /// goes the way of [`Machine::handle`].
    pub async fn handle_projected(&self, projection: &Projection) -> Response<S::Shot> {
        let _turn = self.fifo.lock().await;
        match projection.admit() {
            Ok(text) => self.serve(text).await,
            Err(refused) => Response {
                uplink: Uplink::err(
                    self.page_id(),
                    refused.request_id,
                    ErrorCode::BadRequest,
                    refused.message,
                ),
                screenshot: None,
            },
        }
    }

    async fn serve(&self, text: &str) -> Response<S::Shot> {
        let down = match parse_downlink(text) {
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
            Err(Failure { code, message }) => Uplink::err(page_id, down.request_id, code, message),
        };
        Response { uplink, screenshot }
    }

    /// Phase, then latch.
    fn gate(&self, down: &Downlink) -> Result<(), Failure> {
        self.revive_if_reload_undone();
        let state = self.state.borrow();
        // Dropped is retired for good, whatever the phase would say.
        if let Some(why) = state.dropped {
            return Err(fail(ErrorCode::Retired, why.message().into()));
        }
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
        if down.cmd != Command::Hello && down.page_id != state.page_id {
            return Err(fail(
                ErrorCode::PageMismatch,
                format!(
                    "pageId {} is not this page's current pageId; say hello again",
                    // A pageId that is not a string is read as null.
                    down.page_id
                        .as_deref()
                        .map_or_else(|| "null (absent, or not a string)".to_string(), quote)
                ),
            ));
        }
        Ok(())
    }

    fn hello(&self) -> Outcome {
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

    async fn run(&self, down: &Downlink) -> Outcome {
        let id = payload_str(&down.payload, "id")?;
        run_item(&self.sense, &self.bot, id, &down.payload).await
    }

    /// `snapshot` and `escape`: their payload checks, then one fresh read of
    /// the menu (one await of the reader for both commands).
    async fn read_then(&self, down: &Downlink, shot: &mut Option<S::Shot>) -> Outcome {
        let payload = &down.payload;
        let escape = down.cmd == Command::Escape;
        let (want_shot, query) = if escape {
            let kind = payload_str(payload, "type")?;
            if kind != "reload" {
                let shown = sense::prefix_chars(kind, 40);
                return Err(fail(
                    ErrorCode::EscapeNotAllowed,
                    format!(
                        "escape type {} is not offered; only \"reload\" exists",
                        quote(shown)
                    ),
                ));
            }
            (false, None)
        } else {
            let want_shot = payload_bool(payload, "screenshot")?;
            let query = payload_opt_str(payload, "query")?;
            let offset = payload_count(payload, "offset")?;
            let limit = payload_count(payload, "limit")?;
            let windowed = query.is_some() || offset.is_some() || limit.is_some();
            let query =
                windowed.then(|| Query::new(query.unwrap_or(""), offset.unwrap_or(0), limit));
            (want_shot, query)
        };
        let mut snapshot = read_menu(&self.sense).await?;
        if escape {
            if let Some(reason) = reload_refusal(&snapshot.dirty, snapshot.no_reload) {
                return Err(fail(
                    ErrorCode::EscapeNotAllowed,
                    format!("reload is not allowed now: {reason}"),
                ));
            }
            drop(snapshot);
            self.reload_refusal_beyond_root().await?;
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
        // The escapes come from the full read; the window only trims rows
        // and islands.
        let escapes = derive_escapes(&snapshot);
        let windows = query.map(|query| query.apply(&mut snapshot));
        Ok(OkPayload::Snapshot {
            snapshot: SnapshotView {
                snapshot,
                menu_window: windows.map(|w| w.menu),
                generics_window: windows.map(|w| w.generics),
                islands_total: windows.map(|w| w.islands_total),
            },
            escapes,
        })
    }

    /// The reload escape, once the fresh menu allows it.
    async fn reload(&self) -> Outcome {
        let outcome = self
            .bom
            .reload()
            .await
            .map_err(|e| fail(ErrorCode::DispatchFailed, format!("reload failed: {e}")))?;
        // `retired: true` retires, whatever `ok` says (baseline §1, and the
        // seed: "bom 返回 retired:true 才真正把本 pageId 标成 retired"): a
        // bom that says the page is going away must not leave an instance
        // that keeps acting. Anything else is no retirement (no fake one).
        if !outcome.retired {
            return Err(fail(
                ErrorCode::DispatchFailed,
                format!(
                    "the reload did not report retired: true (it reported ok: {}, retired: {}; anything but true reads as false): the page is still live",
                    outcome.ok, outcome.retired
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
