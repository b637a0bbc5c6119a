//! The host's verified session, and what Surface remembers per session.
//!
//! Surface never authenticates: the host hands it a session it already
//! verified (or none). Surface only enforces expiry, revocation, scope,
//! replay and rate for it.

use crate::bounds;
use crate::codes::{ProtocolCode, ProtocolError};
use crate::field::from_object;
use crate::json::number_text;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::VecDeque;
use std::fmt;

/// Request ids remembered per session for replay detection. Older ids fall
/// out first-in first-out; a client reusing an id more than this many
/// requests later is not caught (the bound keeps memory fixed).
pub const REPLAY_MEMORY: usize = 1024;

/// Sessions whose state (replay ids, rate window, last capability set) is
/// kept at once; the least recently used one is forgotten beyond this.
pub const MAX_TRACKED_SESSIONS: usize = 64;

/// A session value that is neither null nor `{ id: non-empty string,
/// scope?: string[], expiresAt?: number (ms since the epoch), revoked?:
/// boolean }`, or text that is not such JSON. The host treats it as no
/// session (fail closed), so it carries no detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedSession;

impl fmt::Display for MalformedSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a session must be { id: non-empty string, scope?: string[], expiresAt?: number, revoked?: boolean }")
    }
}

impl std::error::Error for MalformedSession {}

/// A delegation the host verified: `{ id, scope?, expiresAt?, revoked? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SessionWire", rename_all = "camelCase")]
pub struct Session {
    pub id: String,
    /// Capability ids, or prefixes ending in `*` (`"orders.*"`; `"*"` is all).
    pub scope: Vec<String>,
    /// Milliseconds since the epoch; past it the session is expired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<f64>,
    pub revoked: bool,
}

/// A session as the host's `session()` returns it; `null` members are unset.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionWire {
    id: String,
    #[serde(default)]
    scope: Option<Vec<String>>,
    #[serde(default)]
    expires_at: Option<f64>,
    #[serde(default)]
    revoked: Option<bool>,
}

impl TryFrom<SessionWire> for Session {
    type Error = MalformedSession;

    fn try_from(wire: SessionWire) -> Result<Self, MalformedSession> {
        if wire.id.is_empty() {
            return Err(MalformedSession);
        }
        Ok(Self {
            id: wire.id,
            scope: wire.scope.unwrap_or_default(),
            expires_at: wire.expires_at,
            revoked: wire.revoked.unwrap_or(false),
        })
    }
}

impl Session {
    /// Reads `{ id, scope?, expiresAt?, revoked? } | null` as the host's
    /// `session()` returns it. `Ok(None)` for null; `Err` for a malformed
    /// session, which the caller treats as no session (fail closed).
    pub fn from_json(value: &Value) -> Result<Option<Self>, MalformedSession> {
        match value {
            Value::Null => Ok(None),
            Value::Object(map) => {
                let wire = from_object::<SessionWire>(map).ok_or(MalformedSession)?;
                Self::try_from(wire).map(Some)
            }
            _ => Err(MalformedSession),
        }
    }

    /// [`Session::from_json`] over JSON text, within the bounds of
    /// [`crate::bounds`]; text out of bounds or not JSON is malformed.
    pub fn from_json_text(text: &str) -> Result<Option<Self>, MalformedSession> {
        let value: Value = bounds::decode(text).map_err(|_| MalformedSession)?;
        Self::from_json(&value)
    }

    /// Whether the session scope covers `capability`.
    pub fn allows(&self, capability: &str) -> bool {
        self.scope
            .iter()
            .any(|entry| scope_matches(entry, capability))
    }
}

/// A scope entry is an exact id, or a prefix followed by one trailing `*`.
pub fn scope_matches(entry: &str, capability: &str) -> bool {
    match entry.strip_suffix('*') {
        Some(prefix) => capability.starts_with(prefix),
        None => entry == capability,
    }
}

/// The session check: none or past `expiresAt` → `SESSION_EXPIRED`,
/// `revoked` → `SESSION_REVOKED` (revocation wins when both hold). The
/// messages never name the session: its id may be a bearer credential, and
/// any script on the page can read a reply.
pub(crate) fn check_session(
    session: Option<Session>,
    now_ms: f64,
) -> Result<Session, ProtocolError> {
    let session = session.ok_or_else(|| {
        ProtocolError::new(
            ProtocolCode::SessionExpired,
            "no valid session: sign in again or request a new delegation",
        )
    })?;
    if session.revoked {
        return Err(ProtocolError::new(
            ProtocolCode::SessionRevoked,
            "the session was revoked: request a new delegation",
        ));
    }
    if let Some(expires_at) = session.expires_at {
        // A NaN clock is never `<=` anything: fail closed.
        let valid = now_ms <= expires_at;
        if !valid {
            return Err(ProtocolError::new(
                ProtocolCode::SessionExpired,
                format!(
                    "the session expired at {} (now {}): sign in again or request a new delegation",
                    number_text(expires_at),
                    number_text(now_ms)
                ),
            ));
        }
    }
    Ok(session)
}

/// `{ invokes, perMs }`: at most `invokes` invokes in any `per_ms` window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub invokes: u32,
    pub per_ms: f64,
}

impl Default for RateLimit {
    /// 30 invokes per 10 seconds: a brisk agent loop passes, a runaway one
    /// is stopped within seconds.
    fn default() -> Self {
        Self {
            invokes: 30,
            per_ms: 10_000.0,
        }
    }
}

/// What Surface remembers about one session.
#[derive(Debug, Default)]
pub(crate) struct SessionState {
    /// Request ids, oldest first (at most [`REPLAY_MEMORY`]).
    seen: VecDeque<String>,
    /// Times of the invokes admitted in the current window, oldest first.
    invokes: Vec<f64>,
    /// Fingerprint of the capability list last sent in full.
    pub(crate) last_capabilities: Option<u64>,
}

impl SessionState {
    /// Records `request_id`, or refuses it if this session used it before.
    pub(crate) fn admit_request_id(&mut self, request_id: &str) -> Result<(), ProtocolError> {
        if self.seen.iter().any(|seen| seen == request_id) {
            return Err(ProtocolError::new(
                ProtocolCode::ReplayDetected,
                format!("request id `{request_id}` was already used in this session: use a new id"),
            ));
        }
        if self.seen.len() >= REPLAY_MEMORY {
            self.seen.pop_front();
        }
        self.seen.push_back(request_id.to_string());
        Ok(())
    }

    /// Sliding window: admits an invoke at `now_ms` unless `limit.invokes`
    /// were already admitted in the last `limit.per_ms` milliseconds.
    pub(crate) fn admit_invoke(
        &mut self,
        now_ms: f64,
        limit: RateLimit,
    ) -> Result<(), ProtocolError> {
        let stale = self
            .invokes
            .iter()
            .take_while(|&&t| now_ms - t >= limit.per_ms)
            .count();
        self.invokes.copy_within(stale.., 0);
        self.invokes.truncate(self.invokes.len() - stale);
        if self.invokes.len() >= limit.invokes as usize {
            let oldest = self.invokes.first().copied().unwrap_or(now_ms);
            let retry = (oldest + limit.per_ms - now_ms).ceil().max(1.0);
            let mut err = ProtocolError::new(
                ProtocolCode::RateLimited,
                format!(
                    "rate limit of {} invokes per {} ms reached: retry after {} ms with a new request id",
                    number_text(f64::from(limit.invokes)),
                    number_text(limit.per_ms),
                    number_text(retry)
                ),
            );
            err.retry_after_ms = Some(retry);
            return Err(err);
        }
        self.invokes.push(now_ms);
        Ok(())
    }
}
