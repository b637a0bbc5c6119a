//! The window bridge (baseline §3): a `message` listener that accepts only
//! same-window, allowed-origin, well-wrapped downlinks and hands them on.
//! Any page script can post such a message, so the bridge authenticates
//! nothing: it only filters what is not addressed to it.
//!
//! The wrapper `{ channel, dir, seq, envelope }` and its filters are the same
//! for every protocol on the window; only the channel differs (`"in-page-playable"`
//! here, `"pling.surface"` for Surface), hence the `*_on(channel, …)` forms.
//!
//! The filter is [`accept`], a pure function over the [`MessageFacts`] the
//! web side reads from each event (tested natively); the listener itself is
//! a gloo-events `EventListener` in [`web`], removed when the bridge drops
//! (or, on a page that no longer lets it be removed, silenced).

use std::fmt;

pub const CHANNEL: &str = "in-page-playable";

/// What the filter sees of one `message` event: plain facts, read from the
/// event without any decision.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageFacts {
    /// `event.source` is the bridge's own window.
    pub from_this_window: bool,
    /// `event.origin`, when it is a string.
    pub origin: Option<String>,
    /// The wrapper's fields when `event.data` is an object (arrays
    /// included); `None` for anything else.
    pub wrapper: Option<WrapperFacts>,
}

/// The fields of `event.data` the filter reads; a field that is absent or
/// of another type is `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WrapperFacts {
    /// `data.channel`, when a string.
    pub channel: Option<String>,
    /// `data.dir`, when a string.
    pub dir: Option<String>,
    /// `data.seq`, when a number (any number: the filter decides).
    pub seq: Option<f64>,
}

/// A message the filter accepted: where the reply goes and the seq it echoes.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// `event.origin`, one of the allowed origins: the reply's only target.
    pub origin: String,
    /// The wrapper's `seq`, an integer.
    pub seq: f64,
}

/// The bridge's filter (baseline §3). `Some` only when the message comes
/// from this very window, from exactly one of `origins`, and is wrapped as
/// `{ channel, dir: "down", seq: <integer> }`; `None` means ignore silently:
/// another window or frame, another origin, another channel, a reply
/// (`dir: "up"`, the bridge's own included), a missing or non-integer seq.
pub fn accept(facts: &MessageFacts, origins: &[String], channel: &str) -> Option<Accepted> {
    if !facts.from_this_window {
        return None;
    }
    let origin = facts.origin.as_deref()?;
    if !origins.iter().any(|o| o == origin) {
        return None;
    }
    let wrapper = facts.wrapper.as_ref()?;
    if wrapper.channel.as_deref() != Some(channel) || wrapper.dir.as_deref() != Some("down") {
        return None;
    }
    // Number.isInteger: finite and without a fractional part.
    let seq = wrapper.seq.filter(|s| s.is_finite() && s.fract() == 0.0)?;
    Some(Accepted {
        origin: origin.to_string(),
        seq,
    })
}

/// Why `attachWindowBridge()` refuses its origins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginsError {
    /// `allowedOrigins` is empty (or was not given).
    Empty,
    /// An entry is not an exact origin ([`is_origin`]): `"*"`, empty, a
    /// pattern, a URL with a path, `"null"`.
    NotAnOrigin(String),
}

impl fmt::Display for OriginsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str(
                "attachWindowBridge() needs a non-empty allowedOrigins option \
                 (the exact origins allowed to post, e.g. [location.origin])",
            ),
            Self::NotAnOrigin(bad) => {
                write!(
                    f,
                    "allowedOrigins entry {} is not an origin: list exact origins such as \"https://example.com\"",
                    quote(bad)
                )?;
                if bad == "null" {
                    // What `location.origin` says in a srcdoc or
                    // about:blank frame, whose real origin (the one
                    // `event.origin` carries) is its creator's.
                    f.write_str(
                        " (in a srcdoc or about:blank iframe location.origin is \"null\": \
                         use window.origin, the origin the frame inherited)",
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for OriginsError {}

/// Said after [`OriginsError::Empty`] by an `installPlayable` instance:
/// its options are the first install's, and a later `installPlayable`
/// returns it as it is, whatever origins that call passed.
pub const FIRST_INSTALL_HINT: &str =
    "; this window's instance was installed without allowedOrigins \
     by the first installPlayable() call in this window, and a later installPlayable() \
     returns that instance and ignores its options";

/// Why `attachWindowBridge()` attached nothing. Either way nothing is left
/// half-attached: a later attach starts afresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachError {
    /// The origins are refused ([`check_origins`]).
    Origins(OriginsError),
    /// Trying the window's `method` (`addEventListener` or
    /// `removeEventListener`, which a page script may replace) threw
    /// `thrown`.
    Threw { method: String, thrown: String },
}

impl fmt::Display for AttachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Origins(e) => e.fmt(f),
            Self::Threw { method, thrown } => {
                write!(
                    f,
                    "attachWindowBridge() attached no listener: the page's {method} threw ({thrown})"
                )?;
                if method == "removeEventListener" {
                    // Its listener could never be removed, only silenced
                    // (`WindowBridge`'s drop): a bridge that cannot be
                    // detached is not attached.
                    f.write_str(", so the bridge could never be detached")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for AttachError {}

impl From<OriginsError> for AttachError {
    fn from(e: OriginsError) -> Self {
        Self::Origins(e)
    }
}

use sense::json_quote as quote;

/// The origins a bridge may listen to: a non-empty list of exact origins.
pub fn check_origins(origins: &[String]) -> Result<(), OriginsError> {
    if origins.is_empty() {
        return Err(OriginsError::Empty);
    }
    match origins.iter().find(|o| !is_origin(o)) {
        Some(bad) => Err(OriginsError::NotAnOrigin(bad.clone())),
        None => Ok(()),
    }
}

/// Schemes no document that could post to this window has as its origin:
/// sockets, and URLs whose documents take an opaque or their creator's origin.
const NOT_DOCUMENT_SCHEMES: [&str; 7] = [
    "ws",
    "wss",
    "javascript",
    "data",
    "blob",
    "about",
    "filesystem",
];

/// Whether `s` is an origin as the browser writes `event.origin` for a
/// page it can answer: `scheme://host` or `scheme://host:port`, lower
/// case, nothing after it, a port in plain decimal and never the scheme's
/// default. The entry is compared exactly, so anything else could never
/// match, or would match what it does not say: `"*"`, `""`, a pattern
/// (`https://*.example.com`), a path or a trailing slash, spaces, capitals,
/// `:443` after `https`, `:08080`. `"null"` (an opaque origin) is refused too: a reply cannot be
/// addressed to it, so its requests would act without an answer.
pub fn is_origin(s: &str) -> bool {
    let Some((scheme, authority)) = s.split_once("://") else {
        return false;
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_lowercase())
        && scheme
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-.".contains(c))
        && !NOT_DOCUMENT_SCHEMES.contains(&scheme);
    let lower_hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
    // The host, then an optional `:port`; an IPv6 host is bracketed (its
    // colons are not the port's).
    let (host_ok, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let Some((inside, after)) = v6.split_once(']') else {
                return false;
            };
            let port = match after {
                "" => "",
                _ => match after.strip_prefix(':') {
                    Some(port) => port,
                    None => return false,
                },
            };
            let host_ok =
                !inside.is_empty() && inside.chars().all(|c| lower_hex(c) || ":.".contains(c));
            (host_ok, port)
        }
        None => {
            let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
            let host_ok = !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c));
            (host_ok, port)
        }
    };
    // The browser writes a port in plain decimal, and never the scheme's
    // default one (`https://a.test:443` is `https://a.test`).
    let port_ok = match port {
        "" => !authority.ends_with(':'),
        _ => port.parse::<u16>().is_ok_and(|n| {
            port.chars().all(|c| c.is_ascii_digit())
                && n.to_string() == port
                && default_port(scheme) != Some(n)
        }),
    };
    scheme_ok && host_ok && port_ok
}

/// The port the URL standard leaves out of an origin for its special schemes.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::{accept_event, accept_event_on, reply, reply_on, Delivery, WindowBridge};

// Native only: proptest does not build for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
