//! `Surface`: configuration, per-session memory, and the check pipeline
//! every request goes through.

use crate::codes::{ProtocolCode, ProtocolError};
use crate::describe;
use crate::hooks::{Clock, Confirm, Executor, RegistrySource};
use crate::invoke;
use crate::json::{object, text};
use crate::page::Page;
use crate::request::{echo_id, parse_request, Request, MAX_RECORD_LIMIT};
use crate::session::{check_session, RateLimit, Session, SessionState, MAX_TRACKED_SESSIONS};
use crate::PROTOCOL;
use json::Value;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;

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
        let Some(obj) = options.as_object() else {
            return err("createSurface options must be an object");
        };
        let Some(app) = obj.get("app").and_then(Value::as_str) else {
            return err("`app` must be a string");
        };
        let expose = match obj.get("expose").and_then(Value::as_array) {
            Some(ids) => match ids
                .iter()
                .map(|id| id.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
            {
                Some(ids) => ids,
                None => return err("`expose` must be an array of capability ids"),
            },
            None => return err("`expose` must be an array of capability ids"),
        };
        let mut config = Self::new(app, expose);
        match obj.get("recordLimit") {
            None | Some(Value::Null) => {}
            Some(v) => match crate::schema::as_count(v) {
                Some(n @ 1..) if n as usize <= MAX_RECORD_LIMIT => config.record_limit = n as usize,
                _ => {
                    return Err(ConfigError(format!(
                        "`recordLimit` must be an integer from 1 to {MAX_RECORD_LIMIT}"
                    )))
                }
            },
        }
        match obj.get("rateLimit") {
            None | Some(Value::Null) => {}
            Some(v) => {
                let invokes = v.get("invokes").and_then(crate::schema::as_count);
                let per_ms = v.get("perMs").and_then(Value::as_f64);
                match (invokes, per_ms) {
                    (Some(invokes @ 1..), Some(per_ms)) if per_ms.is_finite() && per_ms > 0.0 => {
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

#[derive(Debug, Default)]
struct State {
    /// Least recently used first; at most [`MAX_TRACKED_SESSIONS`] entries.
    /// A linear scan over so few beats pulling hashing code into the wasm
    /// module.
    sessions: VecDeque<(String, SessionState)>,
}

impl State {
    /// Runs `f` on the memory of `session_id` (created on first use) and
    /// marks it most recently used; beyond [`MAX_TRACKED_SESSIONS`] the least
    /// recently used session is forgotten.
    fn with_session<T>(&mut self, session_id: &str, f: impl FnOnce(&mut SessionState) -> T) -> T {
        let found = self
            .sessions
            .iter()
            .position(|(id, _)| id == session_id)
            .and_then(|i| self.sessions.remove(i));
        let (id, mut memory) = match found {
            Some(entry) => entry,
            None => {
                if self.sessions.len() >= MAX_TRACKED_SESSIONS {
                    self.sessions.pop_front();
                }
                (session_id.to_string(), SessionState::default())
            }
        };
        let out = f(&mut memory);
        self.sessions.push_back((id, memory));
        out
    }
}

/// One Surface endpoint. State lives in a `RefCell` that is only borrowed
/// between awaits, so concurrent `handle` calls from JS are safe.
#[derive(Debug)]
pub struct Surface {
    config: SurfaceConfig,
    state: RefCell<State>,
}

impl Surface {
    pub fn new(config: SurfaceConfig) -> Self {
        Self {
            config,
            state: RefCell::new(State::default()),
        }
    }

    pub fn config(&self) -> &SurfaceConfig {
        &self.config
    }

    /// Answers one request. Never fails: every outcome is a response
    /// `{ protocol, id, ok, result | error }`.
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
        let id = echo_id(request);
        match self.checked(request, host).await {
            Ok(result) => object([
                ("protocol", text(PROTOCOL)),
                ("id", text(id)),
                ("ok", Value::Bool(true)),
                ("result", result),
            ]),
            Err(error) => object([
                ("protocol", text(PROTOCOL)),
                ("id", text(id)),
                ("ok", Value::Bool(false)),
                ("error", error.to_json()),
            ]),
        }
    }

    /// The check order: shape → session → replay → rate (invoke) →
    /// exposure (invoke) → the method itself.
    async fn checked<R, P, E, C, K>(
        &self,
        request: &Value,
        host: &Host<'_, R, P, E, C, K>,
    ) -> Result<Value, ProtocolError>
    where
        R: RegistrySource,
        P: Page,
        E: Executor,
        C: Confirm,
        K: Clock,
    {
        let request = parse_request(request)?;
        let now = host.clock.now_ms();
        let session = check_session(host.session, now)?;
        self.state
            .borrow_mut()
            .with_session(&session.id, |memory| {
                memory.admit_request_id(request.id())?;
                if matches!(request, Request::Invoke { .. }) {
                    memory.admit_invoke(now, self.config.rate_limit)?;
                }
                Ok(())
            })?;
        match request {
            Request::Describe { input, .. } => {
                let registry = host.registry.registry();
                let observation = host.page.observe().map_err(|e| {
                    ProtocolError::new(
                        ProtocolCode::InternalError,
                        format!("the page could not be read: {e}"),
                    )
                })?;
                Ok(self.state.borrow_mut().with_session(&session.id, |memory| {
                    describe::describe(
                        &self.config,
                        session,
                        &registry,
                        &observation,
                        &input,
                        &mut memory.last_capabilities,
                    )
                }))
            }
            Request::Invoke {
                capability, input, ..
            } => {
                if !self.is_exposed(session, &capability) {
                    return Err(ProtocolError::new(
                        ProtocolCode::CapabilityNotExposed,
                        format!(
                            "capability `{capability}` is not exposed to this session: describe again, or request a scope that includes it"
                        ),
                    ));
                }
                Ok(invoke::invoke(&self.config, session, &capability, input, host).await)
            }
        }
    }

    /// In the site's `expose` list and covered by the session scope.
    pub fn is_exposed(&self, session: &Session, capability: &str) -> bool {
        self.config.expose.iter().any(|e| e == capability) && session.allows(capability)
    }
}
