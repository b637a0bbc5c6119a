//! [`Surface`]: per-session memory, and the one pipeline every request goes
//! through, from its JSON text to its [`Response`].
//!
//! ```text
//! bounds → shape → session → replay → rate (invoke) → exposure (invoke)
//!   → describe | registration → schema → availability → confirm
//!   → (high risk: session, exposure and availability again) → execute
//!   → expectation → after
//! ```

use crate::bounds;
use crate::codes::{BusinessError, ProtocolCode, ProtocolError};
use crate::config::SurfaceConfig;
use crate::crossing::{CrossedRequest, Unreadable};
use crate::declaration::Registry;
use crate::describe;
use crate::host::{ExecOutcome, Host};
use crate::invoke::{self, Pending};
use crate::page::{Observation, Page, PageError};
use crate::request::{echo_id, parse_request, Request};
use crate::response::{Answer, Response};
use crate::session::{check_session, Session, SessionState, MAX_TRACKED_SESSIONS};
use serde_json::Value;
use std::cell::Cell;
use std::fmt;

/// What Surface remembers per session, least recently used first; at most
/// [`MAX_TRACKED_SESSIONS`] entries, so a linear scan is enough.
type Sessions = Vec<(String, SessionState)>;

/// Who reads a describe's answer. `"changed"` compares a session's list
/// with the last full one that session's client received; the page's own
/// WebMCP publication reads the list too (every re-read asks for all of
/// it), and must not become the client's last read: the client would then
/// be told "unchanged" about capabilities it never saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Reader {
    /// The client of the session (a bridge delivery, `handle`, a tool call).
    #[default]
    Client,
    /// The page's WebMCP publication reading what to publish.
    Publication,
}

/// One Surface endpoint. The per-session memory sits in a `Cell` that is
/// only taken inside plain (never async) functions, so overlapping
/// `handle` calls from JS are safe and no borrow flag is needed.
pub struct Surface {
    config: SurfaceConfig,
    sessions: Cell<Sessions>,
}

impl fmt::Debug for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Surface")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Where a request stands after the checks that need no hook.
enum Begun {
    /// Finished: a describe, or any refusal.
    Done(Response),
    /// An invoke that passed every check up to approval.
    Run(Pending),
}

impl Surface {
    pub fn new(config: SurfaceConfig) -> Self {
        Self {
            config,
            sessions: Cell::new(Vec::new()),
        }
    }

    pub fn config(&self) -> &SurfaceConfig {
        &self.config
    }

    /// Answers one request given as JSON text (what the transport read).
    /// Never fails: text out of bounds or not JSON is `INVALID_REQUEST`,
    /// before any hook is called.
    pub async fn handle(&self, request: &str, host: &impl Host, page: &impl Page) -> Response {
        self.handle_for(Reader::Client, request, host, page).await
    }

    /// [`Surface::handle`] for `reader`.
    pub async fn handle_for(
        &self,
        reader: Reader,
        request: &str,
        host: &impl Host,
        page: &impl Page,
    ) -> Response {
        match bounds::decode::<Value>(request) {
            Ok(value) => self.handle_value_for(reader, &value, host, page).await,
            Err(e) => {
                Response::unreadable(request, &format!("the request must be plain JSON: {e}"))
            }
        }
    }

    /// Answers one request as it crossed from JS ([`CrossedRequest`]):
    /// refused as `INVALID_REQUEST` when it is not plain JSON (echoing the
    /// id among the fields read), else [`Surface::handle`] on its text.
    pub async fn handle_crossed(
        &self,
        request: &CrossedRequest,
        host: &impl Host,
        page: &impl Page,
    ) -> Response {
        self.handle_crossed_for(Reader::Client, request, host, page)
            .await
    }

    /// [`Surface::handle_crossed`] for `reader`.
    pub async fn handle_crossed_for(
        &self,
        reader: Reader,
        request: &CrossedRequest,
        host: &impl Host,
        page: &impl Page,
    ) -> Response {
        match request.admit() {
            Ok(text) => self.handle_for(reader, &text, host, page).await,
            Err(Unreadable { read, problem }) => {
                Response::unreadable(&read, &format!("the request must be plain JSON: {problem}"))
            }
        }
    }

    /// Answers one request already parsed: the steps in order, each a plain
    /// function, with the page's hooks awaited in between — `session()`,
    /// then for an invoke `confirm` (high risk), `execute`, and the wait
    /// for the declared text.
    pub async fn handle_value(
        &self,
        request: &Value,
        host: &impl Host,
        page: &impl Page,
    ) -> Response {
        self.handle_value_for(Reader::Client, request, host, page)
            .await
    }

    /// [`Surface::handle_value`] for `reader`.
    async fn handle_value_for(
        &self,
        reader: Reader,
        request: &Value,
        host: &impl Host,
        page: &impl Page,
    ) -> Response {
        // The shape first: a malformed request is refused without asking
        // the host for a session (which may never answer).
        let parsed = match parse_request(request) {
            Ok(parsed) => parsed,
            Err(error) => return Response::refused(echo_id(request), error),
        };
        let session = host.session().await;
        let session = match self.admit(&parsed, session, host.now_ms()) {
            Ok(session) => session,
            Err(error) => return Response::refused(parsed.id().to_string(), error),
        };
        // Read only once every protocol check passed, and awaited: a page's
        // registry() may return a promise.
        let registry = host.registry().await;
        let mut p = match self.begin(reader, parsed, session, registry, host, page) {
            Begun::Done(response) => return response,
            Begun::Run(p) => p,
        };
        let approved = !p.ask || host.confirm(&p.capability, &p.input).await;
        let outcome: ExecOutcome = match approved {
            false => p.declined(),
            true if p.ask => {
                let session = host.session().await;
                match self.after_approval(&mut p, session, host.now_ms(), || page.observe()) {
                    Err(error) => return Response::refused(echo_id(request), error),
                    Ok(Err(unavailable)) => Err(unavailable),
                    Ok(Ok(())) => host.execute(&p.capability, &p.input).await,
                }
            }
            true => host.execute(&p.capability, &p.input).await,
        };
        // An executor's protocol code (its backend revoked the session, rate
        // limited it) refuses the exchange; it never rides in `result.error`.
        if let Some(refusal) = outcome.as_ref().err().and_then(BusinessError::lifted) {
            return Response::refused(echo_id(request), refusal);
        }
        let shown = match (&outcome, p.expect()) {
            (Ok(_), Some(e)) => page.wait_for_text(&e.text, e.within_ms).await,
            _ => true,
        };
        let result = invoke::finish(
            &self.config,
            p,
            outcome,
            shown,
            || host.registry(),
            || page.observe(),
        )
        .await;
        Response::answered(echo_id(request), result.into())
    }

    /// The protocol checks after the shape, in order: session → replay →
    /// rate (invoke) → exposure (invoke). Nothing of the page (registry,
    /// DOM) is read before they pass.
    fn admit(
        &self,
        request: &Request,
        session: Option<Session>,
        now: f64,
    ) -> Result<Session, ProtocolError> {
        let session = check_session(session, now)?;
        let invoking = matches!(request, Request::Invoke { .. });
        self.with_memory(&session.id, |memory| {
            memory.admit_request_id(request.id())?;
            match invoking {
                true => memory.admit_invoke(now, self.config.rate_limit),
                false => Ok(()),
            }
        })?;
        if let Request::Invoke { capability, .. } = request {
            if !self.config.is_exposed(&session, capability) {
                return Err(not_exposed(capability));
            }
        }
        Ok(session)
    }

    /// Every check of an admitted request up to the first hook of an invoke.
    fn begin(
        &self,
        reader: Reader,
        request: Request,
        session: Session,
        registry: Registry,
        host: &impl Host,
        page: &impl Page,
    ) -> Begun {
        let id = request.id().to_string();
        match self.checked(reader, request, session, registry, host, page) {
            Ok(Ok(p)) => Begun::Run(p),
            Ok(Err(answer)) => Begun::Done(Response::answered(id, answer)),
            Err(error) => Begun::Done(Response::refused(id, error)),
        }
    }

    /// The method itself, on the registry read for this request.
    /// `Ok(Err(answer))` is a finished exchange (a describe, or a business
    /// error).
    fn checked(
        &self,
        reader: Reader,
        request: Request,
        session: Session,
        registry: Registry,
        host: &impl Host,
        page: &impl Page,
    ) -> Result<Result<Pending, Answer>, ProtocolError> {
        match request {
            Request::Describe { input, .. } => {
                let observation = page.observe().map_err(|e| {
                    ProtocolError::new(
                        ProtocolCode::InternalError,
                        format!("the page could not be read: {e}"),
                    )
                })?;
                let described = self.with_memory(&session.id, |memory| {
                    // The publication's read leaves the client's last one as it was.
                    let mut unrecorded = memory.last_capabilities;
                    let last = match reader {
                        Reader::Client => &mut memory.last_capabilities,
                        Reader::Publication => &mut unrecorded,
                    };
                    describe::describe(
                        &self.config,
                        &session,
                        &registry,
                        &observation,
                        &input,
                        last,
                        host.clicks_controls(),
                    )
                });
                Ok(Err(Answer::Described(Box::new(described))))
            }
            Request::Invoke {
                capability, input, ..
            } => {
                let prepared = invoke::prepare(
                    session,
                    capability,
                    Value::Object(input),
                    registry,
                    || page.observe(),
                    host.can_confirm(),
                    host.clicks_controls(),
                );
                Ok(prepared.map_err(|error| Answer::Failed { error }))
            }
        }
    }

    /// The checks again once a person approved `p`: approval can take
    /// minutes, so the session, read again, must still be the same one,
    /// valid and in scope (protocol errors), and the page, read again, must
    /// still allow the action (`ACTION_UNAVAILABLE`); that reading is then
    /// the `before` of the evidence.
    fn after_approval(
        &self,
        p: &mut Pending,
        session: Option<Session>,
        now_ms: f64,
        observe: impl FnOnce() -> Result<Observation, PageError>,
    ) -> Result<Result<(), BusinessError>, ProtocolError> {
        let session = check_session(session, now_ms)?;
        if session.id != p.session.id {
            return Err(ProtocolError::new(
                ProtocolCode::SessionExpired,
                "the session changed while a person was asked: describe again in the new session",
            ));
        }
        if !self.config.is_exposed(&session, &p.capability) {
            return Err(not_exposed(&p.capability));
        }
        p.session = session;
        Ok(p.recheck(observe()))
    }

    /// Runs `f` on `session_id`'s memory (created on first use), which then
    /// counts as the most recently used; beyond [`MAX_TRACKED_SESSIONS`]
    /// the least recently used session is forgotten. A plain function: the
    /// memory is never out of its `Cell` across an await.
    fn with_memory<T>(&self, session_id: &str, f: impl FnOnce(&mut SessionState) -> T) -> T {
        let mut sessions = self.sessions.take();
        let mut entry = match sessions.iter().position(|(id, _)| id == session_id) {
            Some(at) => sessions.remove(at),
            None => {
                if sessions.len() >= MAX_TRACKED_SESSIONS {
                    sessions.remove(0);
                }
                (session_id.to_string(), SessionState::default())
            }
        };
        let out = f(&mut entry.1);
        sessions.push(entry);
        self.sessions.set(sessions);
        out
    }
}

fn not_exposed(capability: &str) -> ProtocolError {
    ProtocolError::new(
        ProtocolCode::CapabilityNotExposed,
        format!(
            "`{capability}` is not exposed to this session: describe again, or request a scope that includes it"
        ),
    )
}
