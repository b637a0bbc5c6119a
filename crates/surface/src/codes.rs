//! The two failure layers of a Surface exchange.
//!
//! A [`ProtocolError`] means the exchange itself was refused (`ok: false`);
//! a [`BusinessError`] travels inside a valid exchange (`ok: true`,
//! `result.error`). Keeping them as two types makes it impossible to put a
//! business code on the protocol layer by accident.

use crate::json::{put, put_text};
use serde_json::{Map, Value};

/// Codes of the protocol layer (`ok: false`, `error.code`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolCode {
    /// The request is not a well-formed `pling.surface/0.1` request.
    InvalidRequest,
    /// The host has no valid session, or it is past `expiresAt`.
    SessionExpired,
    /// The host's session says `revoked: true`.
    SessionRevoked,
    /// The request id was already used in this session.
    ReplayDetected,
    /// Too many invokes in the sliding window.
    RateLimited,
    /// The capability is not in `expose` or not in the session scope.
    CapabilityNotExposed,
    /// The host failed to read its own page (a host fault, not the client's).
    InternalError,
}

impl ProtocolCode {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "INVALID_REQUEST",
            Self::SessionExpired => "SESSION_EXPIRED",
            Self::SessionRevoked => "SESSION_REVOKED",
            Self::ReplayDetected => "REPLAY_DETECTED",
            Self::RateLimited => "RATE_LIMITED",
            Self::CapabilityNotExposed => "CAPABILITY_NOT_EXPOSED",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}

/// A refused exchange: its [`Refusal`], boxed so that the many `Result`s
/// carrying it through the checks stay one pointer wide.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolError(Box<Refusal>);

/// What a [`ProtocolError`] says (its fields are reached through it).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub code: ProtocolCode,
    pub message: String,
    /// Only for [`ProtocolCode::RateLimited`]: how long to wait before the
    /// next invoke can pass, in milliseconds.
    pub retry_after_ms: Option<f64>,
}

impl std::ops::Deref for ProtocolError {
    type Target = Refusal;
    fn deref(&self) -> &Refusal {
        &self.0
    }
}

impl std::ops::DerefMut for ProtocolError {
    fn deref_mut(&mut self) -> &mut Refusal {
        &mut self.0
    }
}

impl ProtocolError {
    pub fn new(code: ProtocolCode, message: impl Into<String>) -> Self {
        Self::boxed(code, message.into())
    }

    /// One (non-generic) copy of the boxing for every message type.
    #[inline(never)]
    fn boxed(code: ProtocolCode, message: String) -> Self {
        Self(Box::new(Refusal {
            code,
            message,
            retry_after_ms: None,
        }))
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new(ProtocolCode::InvalidRequest, message)
    }

    /// `{ code, message, retryAfterMs? }`
    pub fn to_json(&self) -> Value {
        let mut error = Map::new();
        put_text(&mut error, "code", self.code.as_str());
        put_text(&mut error, "message", &self.message);
        if let Some(ms) = self.retry_after_ms {
            put(&mut error, "retryAfterMs", Value::from(ms));
        }
        Value::Object(error)
    }
}

/// Codes the core itself raises inside `result.error`. An executor may pass
/// through codes of its own, so [`BusinessError::code`] is a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusinessCode {
    /// Exposed and scoped, but not registered on this page.
    ActionNotFound,
    /// The input does not satisfy the declared schema.
    InvalidParams,
    /// The action exists but a precondition is not met.
    ActionUnavailable,
    /// A person (or the backend) did not approve.
    PermissionDenied,
    /// The declared success text did not appear in time.
    ExpectationFailed,
}

impl BusinessCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ActionNotFound => "ACTION_NOT_FOUND",
            Self::InvalidParams => "INVALID_PARAMS",
            Self::ActionUnavailable => "ACTION_UNAVAILABLE",
            Self::PermissionDenied => "PERMISSION_DENIED",
            Self::ExpectationFailed => "EXPECTATION_FAILED",
        }
    }
}

/// A business failure inside a valid exchange: its [`Failure`], boxed so
/// that the `Result`s carrying it stay one pointer wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusinessError(Box<Failure>);

/// What a [`BusinessError`] says (its fields are reached through it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: String,
    pub message: String,
}

impl std::ops::Deref for BusinessError {
    type Target = Failure;
    fn deref(&self) -> &Failure {
        &self.0
    }
}

impl BusinessError {
    pub fn new(code: BusinessCode, message: impl Into<String>) -> Self {
        Self::coded(code.as_str(), message.into())
    }

    /// A failure with any code (an executor may pass through its own).
    pub fn coded(code: &str, message: String) -> Self {
        Self(Box::new(Failure {
            code: code.to_string(),
            message,
        }))
    }

    /// `{ code, message }`
    pub fn to_json(&self) -> Value {
        let mut error = Map::new();
        put_text(&mut error, "code", &self.code);
        put_text(&mut error, "message", &self.message);
        Value::Object(error)
    }
}
