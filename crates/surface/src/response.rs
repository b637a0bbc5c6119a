//! Responses: `{ protocol, id, ok: true, result }` or
//! `{ protocol, id, ok: false, error }`.

use crate::codes::{BusinessError, ProtocolError};
use crate::describe::Described;
use crate::invoke::Invoked;
use crate::PROTOCOL;
use serde::Serialize;

/// One answer to one request, in its wire order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Response {
    pub protocol: &'static str,
    /// The request's string id, or `""` when it had none.
    pub id: String,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Answer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ProtocolError>,
}

/// What a valid exchange answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Described(Box<Described>),
    Invoked(Invoked),
    /// `{ error: { code, message } }`: a business failure.
    Failed {
        error: BusinessError,
    },
}

impl Response {
    /// `ok: true`.
    pub fn answered(id: impl Into<String>, result: Answer) -> Self {
        Self {
            protocol: PROTOCOL,
            id: id.into(),
            ok: true,
            result: Some(result),
            error: None,
        }
    }

    /// `ok: false`.
    pub fn refused(id: impl Into<String>, error: ProtocolError) -> Self {
        Self {
            protocol: PROTOCOL,
            id: id.into(),
            ok: false,
            result: None,
            error: Some(error),
        }
    }

    /// `INVALID_REQUEST` for a request the transport could not read
    /// (`problem` says why), echoing the id when `request` — the part that
    /// was read, as JSON text — has a string one.
    pub fn unreadable(request: &str, problem: &str) -> Self {
        Self::refused(echo_id_in(request), ProtocolError::invalid(problem))
    }

    /// The business error inside `result`, if this is one.
    pub fn business_error(&self) -> Option<&BusinessError> {
        match &self.result {
            Some(Answer::Failed { error }) => Some(error),
            _ => None,
        }
    }
}

impl From<Result<Invoked, BusinessError>> for Answer {
    fn from(result: Result<Invoked, BusinessError>) -> Self {
        match result {
            Ok(invoked) => Self::Invoked(invoked),
            Err(error) => Self::Failed { error },
        }
    }
}

/// The string `id` of a request given as JSON text, else `""`: for text
/// the bounds refused (too deep, too many values, too long, a lone
/// surrogate in `input`) the id is still echoed. Text that is not JSON at
/// all has no id. Both are found without recursion, by playable's scanner
/// (its grammar with no limits, then
/// [`playable::bounds::top_level_string`], the way a refused envelope's
/// requestId is found); an `id` that is not a string, or not Unicode
/// text, is not echoed.
pub fn echo_id_in(request: &str) -> String {
    use playable::bounds::{check, Exceeded, Limits};
    let unlimited = Limits {
        depth: usize::MAX,
        values: usize::MAX,
        chars: usize::MAX,
    };
    if let Err(Exceeded::NotJson(_)) = check(request, &unlimited) {
        return String::new();
    }
    playable::bounds::top_level_string(request, "id")
        .and_then(playable::bounds::string_literal)
        .unwrap_or_default()
}
