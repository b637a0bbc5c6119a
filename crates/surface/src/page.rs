//! The page as Surface sees it: a pure model the DOM side fills in.
//!
//! The DOM gatherer (`dom.rs`, rules in `markers.rs`) reads the page vocabulary —
//! `data-e2e-kind="region" | "record" | "status" | "feedback"`, row-action
//! playables inside records — into one [`Observation`]; everything else
//! here is pure, so tests drive it with an in-memory page.

use crate::json::{put, put_some, put_text};
use serde_json::{Map, Value};

/// A `data-e2e-kind="region"` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub id: String,
    pub title: String,
    /// False when the region is not visible or says `data-e2e-active="false"`.
    pub active: bool,
}

/// A `data-e2e-kind="record"` element.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: String,
    /// `data-e2e-record`, e.g. `order`; row actions `name@kind` target it.
    pub kind: String,
    /// `data-e2e-field` name → trimmed, length-capped text (always a JSON
    /// string; one map type for the whole crate keeps one copy of its code).
    pub fields: serde_json::Map<String, Value>,
    /// `data-e2e-state`.
    pub state: Option<String>,
    /// Id of the nearest enclosing region, if any.
    pub region: Option<String>,
}

impl Record {
    /// `{ id, kind, fields, state?, region? }`
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        put_text(&mut out, "id", &self.id);
        put_text(&mut out, "kind", &self.kind);
        put(&mut out, "fields", Value::Object(self.fields.clone()));
        put_some(&mut out, "state", self.state.as_ref());
        put_some(&mut out, "region", self.region.as_ref());
        Value::Object(out)
    }
}

/// A `data-e2e-kind="feedback"` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub text: String,
    /// `data-e2e-level`, e.g. `error`.
    pub level: Option<String>,
}

impl Feedback {
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        put_text(&mut out, "text", &self.text);
        put_some(&mut out, "level", self.level.as_ref());
        Value::Object(out)
    }
}

/// The state of one action control on the page: a row action inside a
/// record (`record: Some`) or a page-level capability (`record: None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionState {
    pub capability: String,
    pub record: Option<String>,
    pub enabled: bool,
    /// `data-e2e-unavailable`: the page's own words for why not.
    pub unavailable_reason: Option<String>,
}

impl ActionState {
    /// The reason this action cannot run now, if it cannot.
    pub fn unavailable(&self) -> Option<&str> {
        match (&self.unavailable_reason, self.enabled) {
            (Some(reason), _) => Some(reason),
            (None, false) => Some("disabled"),
            (None, true) => None,
        }
    }
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

impl Observation {
    /// `{ title?, documentTitle? }`, or `None` when the page has no identity.
    pub fn page_context(&self) -> Option<Value> {
        let mut page = Map::new();
        if let Some(title) = self.page_title.as_deref().filter(|t| !t.is_empty()) {
            put_text(&mut page, "title", title);
        }
        if !self.document_title.is_empty() {
            put_text(&mut page, "documentTitle", &self.document_title);
        }
        (!page.is_empty()).then_some(Value::Object(page))
    }

    /// The record of `kind` with `id`.
    pub fn record(&self, kind: &str, id: &str) -> Option<&Record> {
        for r in &self.records {
            if r.kind == kind && r.id == id {
                return Some(r);
            }
        }
        None
    }

    /// `Ok` when the record is in an active region or none; `Err(region id)`
    /// otherwise. A region id the page does not list counts as inactive
    /// (fail closed).
    pub fn region_of(&self, record: &Record) -> Result<(), String> {
        match &record.region {
            None => Ok(()),
            Some(region) => {
                for r in &self.regions {
                    if &r.id == region {
                        return if r.active {
                            Ok(())
                        } else {
                            Err(region.clone())
                        };
                    }
                }
                Err(region.clone())
            }
        }
    }

    /// The control for `capability` on `record` (`None` = page level).
    pub fn action(&self, capability: &str, record: Option<&str>) -> Option<&ActionState> {
        for a in &self.actions {
            if a.capability == capability && a.record.as_deref() == record {
                return Some(a);
            }
        }
        None
    }

    /// Whether `text` shows in any status or feedback text.
    pub fn shows_text(&self, text: &str) -> bool {
        self.status.iter().any(|s| contains(s, text))
            || self.feedback.iter().any(|f| contains(&f.text, text))
    }
}

/// `haystack.contains(needle)` without core's two-way searcher, which costs
/// about 2 KB of wasm for texts that are capped at 1,000 characters anyway.
/// A byte match of valid UTF-8 is a character match.
fn contains(haystack: &str, needle: &str) -> bool {
    needle.is_empty()
        || haystack
            .as_bytes()
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
}

/// The page side of Surface.
#[allow(async_fn_in_trait)]
pub trait Page {
    /// One consistent reading of the page. An `Err` is a host fault.
    fn observe(&self) -> Result<Box<Observation>, String>;

    /// Resolves `true` as soon as `text` is in a status or feedback text
    /// (already, or within `within_ms`); `false` on timeout. The DOM side
    /// uses a MutationObserver rather than polling.
    async fn wait_for_text(&self, text: &str, within_ms: f64) -> bool;
}
