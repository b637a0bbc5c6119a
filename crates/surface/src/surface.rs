//! `Surface`: configuration, per-session memory, and the check pipeline
//! every request goes through.

use crate::codes::{BusinessError, ProtocolCode, ProtocolError};
use crate::describe;
use crate::hooks::{Clock, Confirm, ExecOutcome, Executor, RegistrySource};
use crate::invoke::{self, Pending};
use crate::json::{listed, put, put_text, single, string_list};
use crate::page::{Observation, Page};
use crate::request::{echo_id, parse_request, Request, MAX_RECORD_LIMIT};
use crate::session::{check_session, RateLimit, Session, SessionState, MAX_TRACKED_SESSIONS};
use crate::PROTOCOL;
use serde_json::{Map, Value};
use std::cell::Cell;
use std::fmt;

const _: () = assert!(MAX_RECORD_LIMIT == 100); // spelled out in a message

/// Default `recordLimit`: the describe window when the request sets no `limit`.
pub const DEFAULT_RECORD_LIMIT: usize = 8;

/// The data half of `createSurface({ app, expose, recordLimit, rateLimit })`.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceConfig {
    pub app: String,
    /// The site's allow-list: exact capability ids.
    pub expose: Vec<String>,
    /// Default describe window, 1..=[`MAX_RECORD_LIMIT`].
    pub record_limit: usize,
    pub rate_limit: RateLimit,
}

impl SurfaceConfig {
    /// Defaults for everything but `app` and `expose`.
    pub fn new(
        app: impl Into<String>,
        expose: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Self {
            app: app.into(),
            expose: expose.into_iter().map(Into::into).collect(),
            record_limit: DEFAULT_RECORD_LIMIT,
            rate_limit: RateLimit::default(),
        }
    }

    /// Reads `{ app, expose, recordLimit?, rateLimit?: { invokes, perMs } }`
    /// (the function-valued options are the shell's business).
    pub fn from_json(options: &Value) -> Result<Self, ConfigError> {
        let err = |m: &str| Err(ConfigError(m.to_string()));
        // A non-object has no `app` (the shell passes an object anyway).
        let Some(app) = options.get("app").and_then(Value::as_str) else {
            return err("`app` must be a string");
        };
        let Some(expose) = options.get("expose").and_then(string_list) else {
            return err("`expose` must be an array of capability ids");
        };
        let mut config = Self {
            app: app.to_string(),
            expose,
            record_limit: DEFAULT_RECORD_LIMIT,
            rate_limit: RateLimit::default(),
        };
        match options.get("recordLimit") {
            None | Some(Value::Null) => {}
            Some(v) => match crate::schema::as_count(v) {
                Some(n @ 1..) if n as usize <= MAX_RECORD_LIMIT => config.record_limit = n as usize,
                _ => return err("`recordLimit` must be an integer from 1 to 100"),
            },
        }
        match options.get("rateLimit") {
            None | Some(Value::Null) => {}
            Some(v) => {
                let invokes = v.get("invokes").and_then(crate::schema::as_count);
                let per_ms = v.get("perMs").and_then(Value::as_f64);
                match (invokes, per_ms) {
                    // (A JSON number is always finite.)
                    (Some(invokes @ 1..), Some(per_ms)) if per_ms > 0.0 => {
                        config.rate_limit = RateLimit {
                            invokes: u32::try_from(invokes).unwrap_or(u32::MAX),
                            per_ms,
                        }
                    }
                    _ => return err(
                        "`rateLimit` must be { invokes: positive integer, perMs: positive number }",
                    ),
                }
            }
        }
        Ok(config)
    }
}

/// An invalid `createSurface` option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// Everything the host provides for one request.
pub struct Host<'a, R, P, E, C, K> {
    /// Read per request.
    pub registry: &'a R,
    /// What the host's `session()` returned, already verified by the host.
    pub session: Option<&'a Session>,
    pub page: &'a P,
    pub executor: &'a E,
    /// [`crate::NoConfirm`] when the host configured none.
    pub confirm: &'a C,
    pub clock: &'a K,
}

/// What Surface remembers per session, least recently used first; at most
/// [`MAX_TRACKED_SESSIONS`] entries. A linear scan over so few beats pulling
/// hashing code into the wasm module.
type Sessions = Vec<(String, SessionState)>;

/// One Surface endpoint. The per-session memory sits in a `Cell` that is
/// only taken inside plain (never async) functions, so concurrent `handle`
/// calls from JS are safe and no borrow flag is needed.
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

impl Surface {
    /// The session memory, taken out of its `Cell` with `session_id`'s
    /// entry (created on first use) moved last, as the most recently used;
    /// beyond [`MAX_TRACKED_SESSIONS`] the least recently used session is
    /// forgotten. The caller works on the last entry, then puts the list
    /// back (in the same plain function).
    fn take_sessions(&self, session_id: &str) -> Sessions {
        let mut sessions = self.sessions.take();
        let mut at = None;
        for (i, (id, _)) in sessions.iter().enumerate() {
            if id == session_id {
                at = Some(i);
                break;
            }
        }
        let at = match at {
            Some(i) => i,
            None => {
                let fresh = (session_id.to_string(), SessionState::default());
                if sessions.len() < MAX_TRACKED_SESSIONS {
                    sessions.push(fresh);
                    sessions.len() - 1
                } else {
                    // Full: the least recently used entry makes room.
                    if let Some(lru) = sessions.first_mut() {
                        *lru = fresh;
                    }
                    0
                }
            }
        };
        // Moved to the end (most recently used) by swaps: no `Vec::remove`.
        for i in at + 1..sessions.len() {
            sessions.swap(i - 1, i);
        }
        sessions
    }
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

    /// Answers one request. Never fails: every outcome is a response
    /// `{ protocol, id, ok, result | error }`.
    ///
    /// Only the host's async hooks (approval, execution, the expectation
    /// wait) are awaited here; every check and every answer is built by
    /// plain functions ([`Surface::begin`], `invoke::finish`).
    pub async fn handle<R, P, E, C, K>(
        &self,
        request: &Value,
        host: &Host<'_, R, P, E, C, K>,
    ) -> Value
    where
        R: RegistrySource,
        P: Page,
        E: Executor,
        C: Confirm,
        K: Clock,
    {
        let observe = || host.page.observe();
        let p = match self.begin(
            request,
            host.session,
            host.clock.now_ms(),
            host.registry,
            &observe,
            host.confirm.can_ask(),
        ) {
            Ok(p) => p,
            Err(response) => return response,
        };
        let approved = !p.ask() || host.confirm.approve(p.capability(), p.input()).await;
        let outcome = match approved {
            true => host.executor.execute(p.capability(), p.input()).await,
            false => p.declined(),
        };
        let shown = match (&outcome, p.expect()) {
            (Ok(_), Some(e)) => host.page.wait_for_text(&e.text, e.within_ms).await,
            _ => true,
        };
        self.finish(request, p, outcome, shown, host.registry, &observe)
    }

    /// The second half of [`Surface::handle`], after its awaits: the
    /// response for a [`Pending`] invoke given the execution's outcome and
    /// whether the expected text showed (ignored without an expectation or
    /// on failure). `registry` and `observe` are read again for `after`.
    pub fn finish(
        &self,
        request: &Value,
        p: Pending<'_>,
        outcome: ExecOutcome,
        shown: bool,
        registry: &dyn RegistrySource,
        observe: Observe,
    ) -> Value {
        let result = invoke::finish(&self.config, p, outcome, shown, registry, observe);
        respond(request, Ok(business(result)))
    }

    /// The first half of [`Surface::handle`], every check up to its first
    /// await: `Ok` is an invoke to run (ask for approval when
    /// [`Pending::ask`], execute, wait for [`Pending::expect`], then
    /// [`Surface::finish`]); `Err` the finished response (a describe, or any
    /// refusal). `can_ask`: the host has a confirm hook.
    pub fn begin<'s>(
        &self,
        request: &Value,
        session: Option<&'s Session>,
        now: f64,
        registry: &dyn RegistrySource,
        observe: Observe,
        can_ask: bool,
    ) -> Result<Pending<'s>, Value> {
        match self.checked(request, session, now, registry, observe, can_ask) {
            Ok(Ok(p)) => Ok(p),
            Ok(Err(result)) => Err(respond(request, Ok(result))),
            Err(error) => Err(respond(request, Err(error))),
        }
    }

    /// The check order: shape → session → replay → rate (invoke) →
    /// exposure (invoke) → the method itself. `Ok(Err(result))` is a
    /// finished exchange (a describe, or a business error).
    fn checked<'s>(
        &self,
        request: &Value,
        session: Option<&'s Session>,
        now: f64,
        registry: &dyn RegistrySource,
        observe: Observe,
        can_ask: bool,
    ) -> Result<Result<Pending<'s>, Value>, ProtocolError> {
        let request = parse_request(request)?;
        let session = check_session(session, now)?;
        let invoking = matches!(request, Request::Invoke { .. });
        let mut sessions = self.take_sessions(&session.id);
        let mut admitted = Ok(());
        if let Some((_, memory)) = sessions.last_mut() {
            admitted = memory
                .admit_request_id(request.id())
                .and_then(|()| match invoking {
                    true => memory.admit_invoke(now, self.config.rate_limit),
                    false => Ok(()),
                });
        }
        self.sessions.set(sessions);
        admitted?;
        match request {
            Request::Describe { input, .. } => {
                let registry = registry.registry();
                let observation = observe().map_err(|e| {
                    ProtocolError::new(
                        ProtocolCode::InternalError,
                        format!("the page could not be read: {e}"),
                    )
                })?;
                let mut sessions = self.take_sessions(&session.id);
                let mut result = Value::Null;
                if let Some((_, memory)) = sessions.last_mut() {
                    result = describe::describe(
                        &self.config,
                        session,
                        &registry,
                        &observation,
                        &input,
                        &mut memory.last_capabilities,
                    );
                }
                self.sessions.set(sessions);
                Ok(Err(result))
            }
            Request::Invoke {
                capability, input, ..
            } => {
                if !self.is_exposed(session, capability) {
                    return Err(ProtocolError::new(
                        ProtocolCode::CapabilityNotExposed,
                        format!(
                            "`{capability}` is not exposed to this session: describe again, or request a scope that includes it"
                        ),
                    ));
                }
                let prepared = invoke::prepare(
                    session,
                    capability.to_string(),
                    Value::Object(input.cloned().unwrap_or_default()),
                    registry.registry(),
                    observe,
                    can_ask,
                );
                Ok(prepared.map_err(|e| business(Err(e))))
            }
        }
    }

    /// In the site's `expose` list and covered by the session scope.
    pub fn is_exposed(&self, session: &Session, capability: &str) -> bool {
        listed(&self.config.expose, capability) && session.allows(capability)
    }
}

/// How the core reads the page: [`Page::observe`].
pub type Observe<'a> = &'a dyn Fn() -> Result<Box<Observation>, String>;

/// `{ protocol, id, ok, result | error }`, echoing the request's id.
pub fn respond(request: &Value, answer: Result<Value, ProtocolError>) -> Value {
    let (ok, key, body) = match answer {
        Ok(result) => (true, "result", result),
        Err(error) => (false, "error", error.to_json()),
    };
    let mut response = Map::new();
    put_text(&mut response, "protocol", PROTOCOL);
    put_text(&mut response, "id", echo_id(request));
    put(&mut response, "ok", Value::Bool(ok));
    put(&mut response, key, body);
    Value::Object(response)
}

/// An invoke result: the value, or `{ error }` for a business failure.
fn business(result: Result<Value, BusinessError>) -> Value {
    result.unwrap_or_else(|e| single("error", e.to_json()))
}
