//! The two failure layers of a Surface exchange.
//!
//! A [`ProtocolError`] means the exchange itself was refused (`ok: false`);
//! a [`BusinessError`] travels inside a valid exchange (`ok: true`,
//! `result.error`). Keeping them as two types makes it impossible to put a
//! business code on the protocol layer by accident; the other way round, a
//! [`BusinessError`] an executor spelled with a protocol code is lifted
//! ([`BusinessError::lifted`]) before it is answered.

use serde::{Serialize, Serializer};

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
    /// Every protocol code, in the order `docs/surface.md` lists them.
    pub const ALL: [Self; 7] = [
        Self::InvalidRequest,
        Self::SessionExpired,
        Self::SessionRevoked,
        Self::ReplayDetected,
        Self::RateLimited,
        Self::CapabilityNotExposed,
        Self::InternalError,
    ];

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

    /// The code spelled `wire` exactly, if it is one.
    pub fn from_wire(wire: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == wire)
    }
}

/// Serialized as its wire spelling ([`ProtocolCode::as_str`]: one table).
impl Serialize for ProtocolCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A refused exchange: `error: { code, message, retryAfterMs? }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolError {
    pub code: ProtocolCode,
    pub message: String,
    /// Only for [`ProtocolCode::RateLimited`]: how long to wait before the
    /// next invoke can pass, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<f64>,
}

impl ProtocolError {
    pub fn new(code: ProtocolCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// An `INVALID_REQUEST` refusal.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ProtocolCode::InvalidRequest, message)
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
    /// The page's executor threw, rejected, or returned neither result shape.
    ExecutionFailed,
}

impl BusinessCode {
    /// Every code the core raises, in the order `docs/surface.md` lists them.
    pub const ALL: [Self; 6] = [
        Self::ActionNotFound,
        Self::InvalidParams,
        Self::ActionUnavailable,
        Self::PermissionDenied,
        Self::ExpectationFailed,
        Self::ExecutionFailed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ActionNotFound => "ACTION_NOT_FOUND",
            Self::InvalidParams => "INVALID_PARAMS",
            Self::ActionUnavailable => "ACTION_UNAVAILABLE",
            Self::PermissionDenied => "PERMISSION_DENIED",
            Self::ExpectationFailed => "EXPECTATION_FAILED",
            Self::ExecutionFailed => "EXECUTION_FAILED",
        }
    }
}

/// A business failure inside a valid exchange: `{ code, message }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BusinessError {
    pub code: String,
    pub message: String,
}

impl BusinessError {
    pub fn new(code: BusinessCode, message: impl Into<String>) -> Self {
        Self::coded(code.as_str(), message.into())
    }

    /// A failure with any code (an executor may pass through its own).
    pub fn coded(code: &str, message: String) -> Self {
        Self {
            code: code.to_string(),
            message,
        }
    }

    /// The refusal this failure stands for when its code is a protocol
    /// code: an executor passing on what its backend said (the session was
    /// revoked, a rate limit was hit) speaks of the exchange, so the client
    /// must see it where it checks for that, `ok: false` (baseline §5
    /// puts these codes on that layer only), with the page's message.
    pub fn lifted(&self) -> Option<ProtocolError> {
        let code = ProtocolCode::from_wire(&self.code)?;
        let message = match self.message.is_empty() {
            true => format!("the page's execute answered {}", code.as_str()),
            false => self.message.clone(),
        };
        Some(ProtocolError::new(code, message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialize_as_their_wire_spelling() {
        for code in ProtocolCode::ALL {
            let json = serde_json::to_value(code).expect("serializes");
            assert_eq!(json, code.as_str());
        }
        let mut limited = ProtocolError::new(ProtocolCode::RateLimited, "wait");
        assert_eq!(
            serde_json::to_string(&limited).expect("serializes"),
            r#"{"code":"RATE_LIMITED","message":"wait"}"#
        );
        limited.retry_after_ms = Some(1500.0);
        assert_eq!(
            serde_json::to_value(&limited).expect("serializes")["retryAfterMs"],
            1500.0
        );
        let names: Vec<_> = BusinessCode::ALL.iter().map(|c| c.as_str()).collect();
        assert!(names.contains(&"EXECUTION_FAILED"));
    }

    #[test]
    fn a_business_error_spelled_with_a_protocol_code_lifts_to_that_refusal() {
        for code in ProtocolCode::ALL {
            assert_eq!(ProtocolCode::from_wire(code.as_str()), Some(code));
            let lifted = BusinessError::coded(code.as_str(), "backend says no".into()).lifted();
            assert_eq!(lifted, Some(ProtocolError::new(code, "backend says no")));
        }
        let bare = BusinessError::coded("SESSION_REVOKED", String::new()).lifted();
        assert_eq!(
            bare.map(|e| e.message),
            Some("the page's execute answered SESSION_REVOKED".into()),
            "a refusal always says something"
        );
        // Business codes, the page's own and near misses stay business errors.
        for code in BusinessCode::ALL.map(BusinessCode::as_str) {
            assert_eq!(
                BusinessError::coded(code, "m".into()).lifted(),
                None,
                "{code}"
            );
        }
        for code in ["QUOTA_EXCEEDED", "session_revoked", " SESSION_REVOKED", ""] {
            assert_eq!(
                BusinessError::coded(code, "m".into()).lifted(),
                None,
                "{code:?}"
            );
        }
    }
}
