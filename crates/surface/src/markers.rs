//! The page vocabulary: gathered marker facts → [`Observation`].
//!
//! The DOM side (`observe.js`) reads every marked element in one pass and
//! hands over one JSON string; the rules — which marks count, what belongs
//! to which record or region, how long page text may be — live here, so they
//! are tested natively.
//!
//! The string is `[documentSerial, href, documentTitle, rows]`, each row
//! `[parent, flags, kind, id, field, record, title, state, active,
//! unavailable, level, pagetitle, text]` in document order. `parent` is the
//! index of the nearest enclosing region or record row (`-1`: none);
//! `flags` is [`FLAG_VISIBLE`] and, for playables, sense's disabled facts
//! ([`DISABLED_FACTS`]); the
//! strings are attribute values (`null` when absent) and `text` is the
//! element's text as a person sees it (observe.js `seen`) for fields,
//! status and feedback.

use crate::declaration::RowActionId;
use crate::page::{ActionState, Feedback, Observation, PageError, Record, Region};
use fnv::FnvHasher;
use sense::{cap_chars, TITLE_MAX_CHARS};
use serde_json::Value;
use std::hash::Hasher;

/// `flags` bit: the element is visible (measured for regions, status,
/// feedback and playables).
pub const FLAG_VISIBLE: u64 = 1;
/// `flags` bits above [`FLAG_VISIBLE`]: a playable's disabled facts, as
/// sense reads them for its own snapshot (`sense::wire::Disabling`);
/// whether they disable it is sense's rule ([`sense::rules::is_disabled`]).
pub const DISABLED_FACTS: u64 = u32::MAX as u64 & !FLAG_VISIBLE;
/// Ids (region, record, capability) longer than this are ignored, not cut:
/// a cut id would name something else.
pub const MAX_ID_CHARS: usize = 200;
/// Titles, field names, states, levels and reasons: at most this many characters.
pub const MAX_LABEL_CHARS: usize = TITLE_MAX_CHARS;
pub use crate::page::MAX_TEXT_CHARS;
/// Fields kept per record (the first ones in document order).
pub const MAX_FIELDS_PER_RECORD: usize = 64;

/// One gathered row, borrowed from the parsed JSON.
struct Row<'a>(&'a [Value]);

impl<'a> Row<'a> {
    fn str(&self, i: usize) -> Option<&'a str> {
        self.0.get(i).and_then(Value::as_str)
    }
    fn parent(&self) -> Option<usize> {
        self.0
            .first()
            .and_then(Value::as_i64)
            .and_then(|p| usize::try_from(p).ok())
    }
    fn flags(&self) -> u64 {
        self.0.get(1).and_then(Value::as_u64).unwrap_or(0)
    }
    fn has(&self, flag: u64) -> bool {
        self.flags() & flag != 0
    }
    /// Enabled by sense's rule on the facts observe.js read.
    fn enabled(&self) -> bool {
        let facts = (self.flags() & DISABLED_FACTS) as u32;
        !sense::rules::is_disabled(&sense::wire::Disabling::from_bits(facts))
    }
    /// A usable id: non-empty and at most [`MAX_ID_CHARS`] characters.
    fn id(&self, i: usize) -> Option<&'a str> {
        self.str(i)
            .filter(|s| !s.is_empty() && sense::char_count(s) <= MAX_ID_CHARS)
    }
    fn label(&self, i: usize) -> Option<String> {
        self.str(i)
            .map(|s| cap_chars(s, MAX_LABEL_CHARS))
            .filter(|s| !s.is_empty())
    }
    fn text(&self) -> String {
        cap_chars(self.str(12).unwrap_or_default(), MAX_TEXT_CHARS)
    }
}

/// Builds the observation from the gatherer's JSON.
pub fn read_observation(json: &str) -> Result<Observation, PageError> {
    // Our own JS wrote it: unparsable text gets the shape error below.
    let value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let parts = value.as_array().map(Vec::as_slice).unwrap_or_default();
    let [serial, href, title, rows] = parts else {
        return Err(PageError::BadMarkerData);
    };
    let mut obs = Observation {
        document_id: document_id(serial, href),
        document_title: cap_chars(title.as_str().unwrap_or_default(), MAX_LABEL_CHARS),
        ..Observation::default()
    };
    let rows = rows.as_array().map(Vec::as_slice).unwrap_or_default();
    // Per row: the nearest valid record / region at or above it (indices
    // into obs.records / obs.regions; `usize::MAX`, which `get` misses, for
    // none). Parents precede children.
    let mut at: Vec<(usize, usize)> = Vec::new();
    for raw in rows {
        let row = Row(raw.as_array().map(Vec::as_slice).unwrap_or_default());
        let (record, region) = row
            .parent()
            .and_then(|p| at.get(p).copied())
            .unwrap_or((usize::MAX, usize::MAX));
        let mut own_record = record;
        let mut own_region = region;
        if let Some(name) = row.str(4).map(|n| cap_chars(n, MAX_LABEL_CHARS)) {
            if let Some(r) = obs.records.get_mut(record) {
                if !name.is_empty()
                    && r.fields.len() < MAX_FIELDS_PER_RECORD
                    && !r.fields.contains_key(name.as_str())
                {
                    r.fields.insert(name, Value::String(row.text()));
                }
            }
        }
        match row.str(2).unwrap_or_default() {
            "region" => {
                if let Some(id) = row.id(3) {
                    let active = row.has(FLAG_VISIBLE) && row.str(8) != Some("false");
                    own_region = obs.regions.len();
                    obs.regions.push(Region {
                        id: id.to_string(),
                        title: row.label(6).unwrap_or_default(),
                        active,
                    });
                }
            }
            "record" => {
                if let (Some(id), Some(kind)) = (row.id(3), row.id(5)) {
                    own_record = obs.records.len();
                    obs.records.push(Record {
                        id: id.to_string(),
                        kind: kind.to_string(),
                        fields: Default::default(),
                        state: row.label(7),
                        region: obs.regions.get(region).map(|r| r.id.clone()),
                    });
                }
            }
            "playable" => {
                if let Some(id) = row.id(3) {
                    // Only a `name@kind` id inside a record is that record's
                    // row action; any other id is a page-level control.
                    let record = obs
                        .records
                        .get(record)
                        .filter(|_| RowActionId::parse(id).is_some())
                        .map(|r| r.id.clone());
                    let unavailable_reason = row
                        .str(9)
                        .map(|r| row_reason(&cap_chars(r, MAX_LABEL_CHARS)));
                    obs.actions.push(ActionState {
                        capability: id.to_string(),
                        record,
                        enabled: row.enabled(),
                        visible: row.has(FLAG_VISIBLE),
                        unavailable_reason,
                    });
                }
            }
            // Only what a person can see: a hidden status or feedback
            // neither describes the page nor meets an `expect`.
            "status" if row.has(FLAG_VISIBLE) => {
                let text = row.text();
                if !text.is_empty() {
                    obs.status.push(text);
                }
            }
            "feedback" if row.has(FLAG_VISIBLE) => {
                let text = row.text();
                if !text.is_empty() {
                    obs.feedback.push(Feedback {
                        text,
                        level: row.label(10),
                    });
                }
            }
            _ => {}
        }
        if obs.page_title.is_none() {
            obs.page_title = row.label(11);
        }
        at.push((own_record, own_region));
    }
    Ok(obs)
}

/// `data-e2e-unavailable=""` still means unavailable, just without words.
fn row_reason(reason: &str) -> String {
    if reason.is_empty() {
        "unavailable".to_string()
    } else {
        reason.to_string()
    }
}

/// FNV-1a over the document's serial and URL: a different document, or a
/// navigation (history or hash), gives a different id.
fn document_id(serial: &Value, href: &Value) -> u64 {
    let mut hash = FnvHasher::default();
    hash.write(&serial.as_u64().unwrap_or(0).to_le_bytes());
    hash.write(href.as_str().unwrap_or_default().as_bytes());
    hash.finish()
}

#[cfg(test)]
mod tests;
