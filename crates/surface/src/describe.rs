//! `describe`: what the page shows and which capabilities this session may use.

use crate::config::SurfaceConfig;
use crate::declaration::{CapabilityDeclaration, Registry, Risk, RowActionId};
use crate::page::{Feedback, Observation, PageIdentity, Record, Region};
use crate::request::{CapabilityMode, DescribeInput, RecordSelection, MAX_RECORD_LIMIT};
use crate::session::Session;
use crate::PROTOCOL;
use fnv::FnvHasher;
use serde::Serialize;
use serde_json::Value;
use std::hash::Hasher;

/// A describe result, in its wire order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Described {
    pub app: String,
    pub protocol: &'static str,
    /// `[]` with `capabilitiesUnchanged: true` when unchanged since the
    /// last full list.
    pub capabilities: Vec<CapabilityView>,
    /// Only with `capabilities: "changed"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities_unchanged: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Context>,
    pub regions: Vec<Region>,
    /// Every describe: an id read's window is the ids it asked for.
    pub record_window: RecordWindow,
    /// Id reads only: the ids no record has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
    pub records: Vec<Record>,
    /// Id reads only, `true` when the records holding the ids asked for
    /// were more than [`MAX_RECORD_LIMIT`] (several records, of different
    /// kinds, may share an id): `records` holds the first of them, in the
    /// order asked. Omitted otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub records_truncated: bool,
    pub status: Vec<String>,
    pub feedback: Vec<Feedback>,
    pub unavailable: Vec<Unavailable>,
}

/// A capability as described: `{ id, title, description?, input, risk?, readOnly? }`.
/// `input` is the schema enforced; `risk` only when high, so a client knows
/// a person will be asked; `readOnly` only when declared true.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapabilityView {
    pub id: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub input: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<Risk>,
    #[serde(rename = "readOnly", skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
}

impl From<&CapabilityDeclaration> for CapabilityView {
    fn from(decl: &CapabilityDeclaration) -> Self {
        Self {
            id: decl.id.clone(),
            title: decl.title.clone(),
            description: decl.description.clone(),
            input: decl.effective_schema(),
            risk: (decl.risk == Risk::High).then_some(Risk::High),
            read_only: decl.read_only,
        }
    }
}

/// `context: { page }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Context {
    pub page: PageIdentity,
}

/// `recordWindow: { offset, limit, total }`. An id read's is `{ 0, number
/// of ids given, total }`: `total` counts every record on the page either
/// way (an id read's cut shows as `recordsTruncated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RecordWindow {
    /// As asked, up to 2^53 (past `total` it shows no records).
    pub offset: u64,
    pub limit: usize,
    pub total: usize,
}

/// `{ capability, record?, reason }`: a visible capability the page stops
/// now (the rule invoke's `ACTION_UNAVAILABLE` applies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unavailable {
    pub capability: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    pub reason: String,
}

/// FNV-1a of the list's JSON: "changed" compares without keeping the whole
/// capability list per session.
fn fingerprint(capabilities: &[CapabilityView]) -> u64 {
    let mut hash = FnvHasher::default();
    hash.write(&serde_json::to_vec(capabilities).unwrap_or_default());
    hash.finish()
}

/// Builds the describe result. `last_capabilities` is this session's
/// fingerprint of the list it last received in full; it is updated
/// whenever the full list is sent.
pub(crate) fn describe(
    config: &SurfaceConfig,
    session: &Session,
    registry: &Registry,
    observation: &Observation,
    input: &DescribeInput,
    last_capabilities: &mut Option<u64>,
    clicks: bool,
) -> Described {
    let visible = config.visible(registry, session);
    let capabilities: Vec<CapabilityView> = visible.iter().map(|&d| d.into()).collect();
    let print = fingerprint(&capabilities);
    let changed_mode = input.capabilities == CapabilityMode::Changed;
    // "changed" before any full read behaves as "all".
    let unchanged = changed_mode && *last_capabilities == Some(print);
    if !unchanged {
        *last_capabilities = Some(print);
    }
    let Selected {
        records,
        window: record_window,
        missing,
        truncated,
    } = select_records(config, observation, &input.records);
    Described {
        app: config.app.clone(),
        protocol: PROTOCOL,
        capabilities: if unchanged { Vec::new() } else { capabilities },
        capabilities_unchanged: changed_mode.then_some(unchanged),
        context: observation.page_context().map(|page| Context { page }),
        // As placement judges them: an id claimed twice is active only if
        // every claimant is.
        regions: observation
            .regions
            .iter()
            .map(|r| Region {
                active: observation.region_active(&r.id),
                ..r.clone()
            })
            .collect(),
        record_window,
        missing,
        unavailable: unavailable(&visible, observation, &records, clicks),
        records: records.into_iter().cloned().collect(),
        records_truncated: truncated,
        status: observation.status.clone(),
        feedback: observation.feedback.clone(),
    }
}

/// The records a describe reads.
struct Selected<'o> {
    records: Vec<&'o Record>,
    window: RecordWindow,
    /// Id reads only: the ids no record has.
    missing: Option<Vec<String>>,
    /// Id reads only: more records hold the ids than `records` has room for.
    truncated: bool,
}

/// The records asked for, with their `recordWindow`, and for an id read
/// `missing` and whether it was cut.
fn select_records<'o>(
    config: &SurfaceConfig,
    observation: &'o Observation,
    selection: &RecordSelection,
) -> Selected<'o> {
    let all = &observation.records;
    let total = all.len();
    match selection {
        RecordSelection::Window { offset, limit } => {
            let limit = limit.unwrap_or(config.record_limit).min(MAX_RECORD_LIMIT);
            let skip = usize::try_from(*offset).unwrap_or(usize::MAX);
            let window = all.iter().skip(skip).take(limit).collect();
            let shown = RecordWindow {
                offset: *offset,
                limit,
                total,
            };
            Selected {
                records: window,
                window: shown,
                missing: None,
                truncated: false,
            }
        }
        RecordSelection::Ids(ids) => {
            let mut found = Vec::new();
            let mut missing = Vec::new();
            let mut truncated = false;
            // An id asked twice is read once: each record (and its
            // unavailable actions) is listed once.
            for (at, id) in ids.iter().enumerate() {
                if ids[..at].contains(id) {
                    continue;
                }
                let mut holding = all.iter().filter(|r| &r.id == id).peekable();
                if holding.peek().is_none() {
                    missing.push(id.clone());
                }
                // Records of different kinds may share an id, so the ids
                // alone do not bound the read: a window's maximum does.
                for r in holding {
                    if found.len() == MAX_RECORD_LIMIT {
                        truncated = true;
                        break;
                    }
                    found.push(r);
                }
            }
            // The window the ids asked for, so `total` shows on every
            // describe (baseline §5 lists `recordWindow` without exception).
            let shown = RecordWindow {
                offset: 0,
                limit: ids.len(),
                total,
            };
            Selected {
                records: found,
                window: shown,
                missing: Some(missing),
                truncated,
            }
        }
    }
}

/// Visible capabilities the page stops now, by the rule invoke checks
/// ([`Observation::availability`]): row actions on the returned records
/// (a record id claimed twice is listed once), and page-level capabilities.
fn unavailable(
    visible: &[&CapabilityDeclaration],
    observation: &Observation,
    records: &[&Record],
    clicks: bool,
) -> Vec<Unavailable> {
    let mut out = Vec::new();
    let mut check = |capability: &str, row: Option<(&str, &str)>| {
        if let Err(why) = observation.availability(capability, row, clicks) {
            out.push(Unavailable {
                capability: capability.to_string(),
                record: row.map(|(_, id)| id.to_string()),
                reason: why.reason().to_string(),
            });
        }
    };
    for decl in visible {
        match RowActionId::parse(&decl.id) {
            Some(row) => {
                for (at, r) in records.iter().enumerate() {
                    let twin = records[..at]
                        .iter()
                        .any(|o| o.id == r.id && o.kind == r.kind);
                    if r.kind == row.kind && !twin {
                        check(&decl.id, Some((row.kind, &r.id)));
                    }
                }
            }
            None => check(&decl.id, None),
        }
    }
    out
}
