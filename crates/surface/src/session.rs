//! The host's verified session, and what Surface remembers per session.
//!
//! Surface never authenticates: the host hands it a session it already
//! verified (or none). Surface only enforces expiry, revocation, scope,
//! replay and rate for it.

use crate::codes::{ProtocolCode, ProtocolError};
use crate::json::{listed, number_text, string_list};
use serde_json::Value;

/// Request ids remembered per session for replay detection. Older ids fall
/// out first-in first-out; a client reusing an id more than this many
/// requests later is not caught (the bound keeps memory fixed).
pub const REPLAY_MEMORY: usize = 1024;

/// Sessions whose state (replay ids, rate window, last capability set) is
/// kept at once; the least recently used one is forgotten beyond this.
pub const MAX_TRACKED_SESSIONS: usize = 64;

/// A session value that is neither null nor `{ id: non-empty string,
/// scope?: string[], expiresAt?: number (ms since the epoch), revoked?:
/// boolean }`. It carries no message: the host treats it as no session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedSession;

/// A delegation the host verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub id: String,
    /// Capability ids, or prefixes ending in `*` (`"orders.*"`; `"*"` is all).
    pub scope: Vec<String>,
    /// Milliseconds since the epoch; past it the session is expired.
    pub expires_at: Option<f64>,
    pub revoked: bool,
}

impl Session {
    /// Reads `{ id, scope?, expiresAt?, revoked? } | null` as the host's
    /// `session()` returns it. `Ok(None)` for null/undefined; `Err` for a
    /// malformed session, which the caller treats as no session (fail closed).
    pub fn from_json(value: &Value) -> Result<Option<Self>, MalformedSession> {
        let obj = match value {
            Value::Null => return Ok(None),
            Value::Object(obj) => obj,
            _ => return Err(MalformedSession),
        };
        let id = match obj.get("id") {
            Some(Value::String(id)) if !id.is_empty() => id.clone(),
            _ => return Err(MalformedSession),
        };
        let scope = match obj.get("scope") {
            None | Some(Value::Null) => Vec::new(),
            Some(scope) => string_list(scope).ok_or(MalformedSession)?,
        };
        let expires_at = match obj.get("expiresAt") {
            None | Some(Value::Null) => None,
            // (A JSON number is never NaN.)
            Some(v) => Some(v.as_f64().ok_or(MalformedSession)?),
        };
        let revoked = match obj.get("revoked") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(MalformedSession),
        };
        Ok(Some(Self {
            id,
            scope,
            expires_at,
            revoked,
        }))
    }

    /// Whether the session scope covers `capability`.
    pub fn allows(&self, capability: &str) -> bool {
        for entry in &self.scope {
            if scope_matches(entry, capability) {
                return true;
            }
        }
        false
    }
}

/// A scope entry is an exact id, or a prefix followed by one trailing `*`.
pub fn scope_matches(entry: &str, capability: &str) -> bool {
    match entry.as_bytes().split_last() {
        Some((b'*', prefix)) => capability.as_bytes().starts_with(prefix),
        _ => entry == capability,
    }
}

/// The session check: none or past `expiresAt` → `SESSION_EXPIRED`,
/// `revoked` → `SESSION_REVOKED` (revocation wins when both hold).
pub(crate) fn check_session(
    session: Option<&Session>,
    now_ms: f64,
) -> Result<&Session, ProtocolError> {
    let session = session.ok_or_else(|| {
        ProtocolError::new(
            ProtocolCode::SessionExpired,
            "no valid session: sign in again or request a new delegation",
        )
    })?;
    if session.revoked {
        return Err(ProtocolError::new(
            ProtocolCode::SessionRevoked,
            format!(
                "session `{}` was revoked: request a new delegation",
                session.id
            ),
        ));
    }
    if let Some(expires_at) = session.expires_at {
        // A NaN clock is never `<=` anything: fail closed.
        let valid = now_ms <= expires_at;
        if !valid {
            return Err(ProtocolError::new(
                ProtocolCode::SessionExpired,
                format!(
                    "session `{}` expired at {} (now {}): sign in again or request a new delegation",
                    session.id,
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
    /// Request ids, oldest first. A linear scan over at most
    /// [`REPLAY_MEMORY`] short strings is cheap and keeps hashing code out
    /// of the wasm module.
    seen: Vec<String>,
    /// Times of the invokes admitted in the current window, oldest first.
    invokes: Vec<f64>,
    /// Fingerprint of the capability list last sent in full.
    pub(crate) last_capabilities: Option<u64>,
}

impl SessionState {
    /// Records `request_id`, or refuses it if this session used it before.
    pub(crate) fn admit_request_id(&mut self, request_id: &str) -> Result<(), ProtocolError> {
        if listed(&self.seen, request_id) {
            return Err(ProtocolError::new(
                ProtocolCode::ReplayDetected,
                format!("request id `{request_id}` was already used in this session: use a new id"),
            ));
        }
        if self.seen.len() >= REPLAY_MEMORY {
            self.seen.remove(0);
        }
        self.seen.push(request_id.to_string());
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
