//! The page as Surface sees it: a pure model the DOM side fills in.
//!
//! The DOM gatherer (`dom.rs`, rules in `markers.rs`) reads the page vocabulary —
//! `data-e2e-kind="region" | "record" | "status" | "feedback"`, row-action
//! playables inside records — into one [`Observation`]; everything else
//! here is pure, so tests drive it with an in-memory page.

use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// Field, status and feedback text: at most this many characters, its
/// whitespace runs collapsed to one space and trimmed.
pub const MAX_TEXT_CHARS: usize = sense::DESC_MAX_CHARS;

/// A `data-e2e-kind="region"` element: `{ id, title, active }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Region {
    pub id: String,
    pub title: String,
    /// False when the region is not visible or says `data-e2e-active="false"`
    /// (in describe, also when another region with its id is).
    pub active: bool,
}

/// A `data-e2e-kind="record"` element: `{ id, kind, fields, state?, region? }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    pub id: String,
    /// `data-e2e-record`, e.g. `order`; row actions `name@kind` target it.
    pub kind: String,
    /// `data-e2e-field` name → trimmed, length-capped text (a JSON string),
    /// in document order.
    pub fields: Map<String, Value>,
    /// `data-e2e-state`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Id of the nearest enclosing region, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// A `data-e2e-kind="feedback"` element: `{ text, level? }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feedback {
    pub text: String,
    /// `data-e2e-level`, e.g. `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

/// The state of one action control on the page: a row action inside a
/// record (`record: Some`) or a page-level capability (`record: None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionState {
    pub capability: String,
    pub record: Option<String>,
    pub enabled: bool,
    /// Whether a person can see the control (sense's visibility check).
    pub visible: bool,
    /// `data-e2e-unavailable`: the page's own words for why not.
    pub unavailable_reason: Option<String>,
}

/// Why an action cannot run now ([`Observation::availability`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailability {
    /// invoke's `ACTION_UNAVAILABLE` message: the page's own reason when it
    /// gives one, else what stops the action.
    pub message: String,
    /// The control is disabled (and the page gives no reason).
    pub disabled: bool,
}

impl Unavailability {
    fn new(message: String) -> Self {
        Self {
            message,
            disabled: false,
        }
    }

    /// describe's `reason`: the message, except `"disabled"` for a disabled
    /// control (the entry names the capability and the record already).
    pub fn reason(&self) -> &str {
        match self.disabled {
            true => "disabled",
            false => &self.message,
        }
    }
}

/// `context.page`: `{ title?, documentTitle? }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageIdentity {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_title: Option<String>,
}

/// One reading of the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Observation {
    /// Changes when the document is replaced or navigated (a counter, or a
    /// hash of the URL plus a load counter). A difference across an invoke
    /// means incremental `after` evidence would be misleading.
    pub document_id: u64,
    /// The page-title marker's text.
    pub page_title: Option<String>,
    /// `document.title`.
    pub document_title: String,
    pub regions: Vec<Region>,
    /// Every record, in document order.
    pub records: Vec<Record>,
    /// Status texts, in document order.
    pub status: Vec<String>,
    pub feedback: Vec<Feedback>,
    pub actions: Vec<ActionState>,
}

/// Where a record stands with respect to regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement<'a> {
    /// In an active region, or in none.
    Active,
    /// In this region, which is inactive or not listed (fail closed).
    Inactive(&'a str),
}

impl Observation {
    /// `{ title?, documentTitle? }`, or `None` when the page has no identity.
    pub fn page_context(&self) -> Option<PageIdentity> {
        let title = self.page_title.clone().filter(|t| !t.is_empty());
        let document_title = Some(self.document_title.clone()).filter(|t| !t.is_empty());
        if title.is_none() && document_title.is_none() {
            return None;
        }
        Some(PageIdentity {
            title,
            document_title,
        })
    }

    /// The record of `kind` with `id`.
    pub fn record(&self, kind: &str, id: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.kind == kind && r.id == id)
    }

    /// Whether `record` is in an active region. A region id the page does
    /// not list counts as inactive (fail closed).
    pub fn placement<'r>(&self, record: &'r Record) -> Placement<'r> {
        match &record.region {
            Some(region) if !self.region_active(region) => Placement::Inactive(region),
            _ => Placement::Active,
        }
    }

    /// Whether the region `id` is active: listed, and active everywhere it
    /// is listed. Fail closed: a record knows only its region's id, so when
    /// two regions claim one id, a hidden one must not pass as the visible.
    pub fn region_active(&self, id: &str) -> bool {
        let mut claimed = self.regions.iter().filter(|r| r.id == id).peekable();
        claimed.peek().is_some() && claimed.all(|r| r.active)
    }

    /// The control for `capability` on `record` (`None` = page level).
    pub fn action(&self, capability: &str, record: Option<&str>) -> Option<&ActionState> {
        self.actions
            .iter()
            .find(|a| a.capability == capability && a.record.as_deref() == record)
    }

    /// Why the page stops `capability` now, if it does: the one rule behind
    /// describe's `unavailable` and invoke's `ACTION_UNAVAILABLE`. `row` is
    /// `(kind, record id)` for a row action, `None` for a page-level
    /// capability. A row action needs exactly one record of that kind with
    /// that id, in an active region; either way a control the page shows
    /// for it must be the only one, not marked unavailable, enabled and
    /// visible. `clicks` is [`crate::Host::clicks_controls`]: the built-in
    /// executor clicks that one control, so without one the action cannot
    /// run (refused here, before a person is asked to approve it); with
    /// the page's own executor, no control stops nothing (it may act on a
    /// row without buttons), and only what the page marks
    /// (`data-e2e-unavailable`, disabled) on any of its controls stops the
    /// action, since that executor does not click the control.
    pub fn availability(
        &self,
        capability: &str,
        row: Option<(&str, &str)>,
        clicks: bool,
    ) -> Result<(), Unavailability> {
        let record = match row {
            None => None,
            Some((kind, id)) => {
                let mut claims = self.records.iter().filter(|r| r.id == id);
                let Some(record) = claims.clone().find(|r| r.kind == kind) else {
                    return Err(Unavailability::new(match claims.next() {
                        Some(other) => format!(
                            "record `{id}` is a `{}`, but `{capability}` acts on `{kind}` records",
                            other.kind
                        ),
                        None => format!(
                            "no `{kind}` record `{id}` on the page: describe the page again"
                        ),
                    }));
                };
                if claims.filter(|r| r.kind == kind).nth(1).is_some() {
                    return Err(Unavailability::new(format!(
                        "more than one `{kind}` record claims id `{id}`"
                    )));
                }
                if let Placement::Inactive(region) = self.placement(record) {
                    return Err(Unavailability::new(format!(
                        "record `{id}` is in region `{region}`, which is not active"
                    )));
                }
                Some(id)
            }
        };
        let controls = || {
            self.actions
                .iter()
                .filter(|a| a.capability == capability && a.record.as_deref() == record)
        };
        let place = match record {
            Some(id) => format!("for record `{id}`"),
            None => "on the page".to_string(),
        };
        // The built-in executor runs the control as the playable whose id is
        // the capability's: one shaped like a generic ref (g + digits) no run
        // takes (NOT_IN_MENU), so it could never act.
        if clicks && sense::is_generic_ref(capability) {
            return Err(Unavailability::new(format!(
                "`{capability}` has a generic ref's shape (g + digits): no run takes its control; the page should give it another id"
            )));
        }
        let Some(first) = controls().next() else {
            return match clicks {
                true => Err(Unavailability::new(format!(
                    "`{capability}` has no control {place}"
                ))),
                false => Ok(()),
            };
        };
        if clicks && controls().nth(1).is_some() {
            return Err(Unavailability::new(format!(
                "`{capability}` has more than one control {place}"
            )));
        }
        // The built-in executor clicks the one control; the page's own
        // executor heeds what the page marks on any of them.
        let control = match clicks {
            true => first,
            false => controls()
                .find(|a| a.unavailable_reason.is_some())
                .or_else(|| controls().find(|a| !a.enabled))
                .unwrap_or(first),
        };
        match (
            &control.unavailable_reason,
            control.enabled,
            control.visible || !clicks,
        ) {
            (Some(reason), ..) => Err(Unavailability::new(reason.clone())),
            (None, false, _) => Err(Unavailability {
                message: format!("`{capability}` is disabled {place}"),
                disabled: true,
            }),
            (None, true, false) => Err(Unavailability::new(format!(
                "`{capability}`'s control is hidden {place}"
            ))),
            (None, true, true) => Ok(()),
        }
    }

    /// Whether `text` shows in any status or feedback text.
    pub fn shows_text(&self, text: &str) -> bool {
        self.status.iter().any(|s| contains(s, text))
            || self.feedback.iter().any(|f| contains(&f.text, text))
    }
}

/// `haystack.contains(needle)` by byte windows (a byte match of valid
/// UTF-8 is a character match): core's two-way searcher is about 1.5 KB of
/// wasm, for texts capped at 1,000 characters.
fn contains(haystack: &str, needle: &str) -> bool {
    needle.is_empty()
        || haystack
            .as_bytes()
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
}

/// The page could not be read: a host fault, never the client's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageError {
    /// The scan root could not be read (the browser's message).
    Unreadable(String),
    /// The gatherer's data did not have its documented shape.
    BadMarkerData,
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable(why) => f.write_str(why),
            Self::BadMarkerData => {
                f.write_str("bad marker data: expected [serial, href, title, rows]")
            }
        }
    }
}

impl std::error::Error for PageError {}

/// The page side of Surface: reading it, and waiting for text on it.
#[allow(async_fn_in_trait)]
pub trait Page {
    /// One consistent reading of the page.
    fn observe(&self) -> Result<Observation, PageError>;

    /// Resolves `true` as soon as `text` is in a status or feedback text
    /// (already, or within `within_ms`); `false` on timeout. The DOM side
    /// uses a MutationObserver rather than polling.
    async fn wait_for_text(&self, text: &str, within_ms: f64) -> bool;
}
