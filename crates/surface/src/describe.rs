//! `describe`: what the page shows and which capabilities this session may use.

use crate::declaration::{CapabilityDeclaration, Registry, Risk, RowActionId};
use crate::json::{object, strings, text};
use crate::page::{Observation, Record};
use crate::request::{CapabilityMode, DescribeInput, RecordSelection, MAX_RECORD_LIMIT};
use crate::session::Session;
use crate::surface::SurfaceConfig;
use crate::PROTOCOL;
use json::{Map, Value};

/// registry ∩ expose ∩ scope, in registry order.
pub(crate) fn visible_capabilities<'r>(
    registry: &'r Registry,
    expose: &[String],
    session: &Session,
) -> Vec<&'r CapabilityDeclaration> {
    registry
        .declarations
        .iter()
        .filter(|d| expose.iter().any(|e| e == &d.id) && session.allows(&d.id))
        .collect()
}

/// `{ id, title, description?, input, risk? }`; `risk` only when high, so
/// a client knows a person will be asked.
pub(crate) fn capability_json(decl: &CapabilityDeclaration) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), Value::from(decl.id.clone()));
    out.insert("title".into(), Value::from(decl.title.clone()));
    if let Some(d) = &decl.description {
        out.insert("description".into(), Value::from(d.clone()));
    }
    out.insert("input".into(), decl.effective_schema());
    if decl.risk == Risk::High {
        out.insert("risk".into(), Value::from("high"));
    }
    Value::Object(out)
}

/// FNV-1a: a fixed, tiny hash so "changed" compares without keeping the
/// whole capability list per session.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
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
) -> Value {
    let visible = visible_capabilities(registry, &config.expose, session);
    let capabilities: Vec<Value> = visible.iter().map(|d| capability_json(d)).collect();
    let print = fingerprint(&Value::Array(capabilities.clone()).to_string());

    let mut out = Map::new();
    out.insert("app".into(), Value::from(config.app.clone()));
    out.insert("protocol".into(), Value::from(PROTOCOL));
    // "changed" before any full read behaves as "all".
    let unchanged =
        input.capabilities == CapabilityMode::Changed && *last_capabilities == Some(print);
    if unchanged {
        out.insert("capabilities".into(), Value::Array(Vec::new()));
    } else {
        out.insert("capabilities".into(), Value::Array(capabilities));
        *last_capabilities = Some(print);
    }
    if input.capabilities == CapabilityMode::Changed {
        out.insert("capabilitiesUnchanged".into(), Value::from(unchanged));
    }
    if let Some(page) = observation.page_context() {
        out.insert("context".into(), object([("page", page)]));
    }
    let regions: Vec<Value> = observation
        .regions
        .iter()
        .map(|r| {
            object([
                ("id", text(&r.id)),
                ("title", text(&r.title)),
                ("active", Value::from(r.active)),
            ])
        })
        .collect();
    out.insert("regions".into(), Value::Array(regions));

    let records = select_records(config, observation, &input.records, &mut out);
    out.insert(
        "records".into(),
        Value::Array(records.iter().map(|r| r.to_json()).collect()),
    );
    out.insert("status".into(), strings(&observation.status));
    out.insert(
        "feedback".into(),
        Value::Array(observation.feedback.iter().map(|f| f.to_json()).collect()),
    );
    out.insert(
        "unavailable".into(),
        Value::Array(unavailable(&visible, observation, &records)),
    );
    Value::Object(out)
}

/// The records asked for; adds `recordWindow` (window reads) or `missing`
/// (id reads) to `out`.
fn select_records<'o>(
    config: &SurfaceConfig,
    observation: &'o Observation,
    selection: &RecordSelection,
    out: &mut Map<String, Value>,
) -> Vec<&'o Record> {
    let all = &observation.records;
    match selection {
        RecordSelection::Window { offset, limit } => {
            let limit = limit.unwrap_or(config.record_limit).min(MAX_RECORD_LIMIT);
            let window: Vec<&Record> = all.iter().skip(*offset).take(limit).collect();
            out.insert(
                "recordWindow".into(),
                object([
                    ("offset", Value::from(*offset)),
                    ("limit", Value::from(limit)),
                    ("total", Value::from(all.len())),
                ]),
            );
            window
        }
        RecordSelection::Ids(ids) => {
            let mut found = Vec::new();
            let mut missing = Vec::new();
            for id in ids {
                let before = found.len();
                found.extend(all.iter().filter(|r| &r.id == id));
                if found.len() == before {
                    missing.push(Value::from(id.clone()));
                }
            }
            out.insert("missing".into(), Value::Array(missing));
            found
        }
    }
}

/// Visible capabilities the page marks disabled or unavailable: row actions
/// on the returned records, and page-level controls.
fn unavailable(
    visible: &[&CapabilityDeclaration],
    observation: &Observation,
    records: &[&Record],
) -> Vec<Value> {
    let mut out = Vec::new();
    for decl in visible {
        match RowActionId::parse(&decl.id) {
            Some(row) => {
                for record in records.iter().filter(|r| r.kind == row.kind) {
                    let reason = observation
                        .action(&decl.id, Some(&record.id))
                        .and_then(|a| a.unavailable());
                    if let Some(reason) = reason {
                        out.push(object([
                            ("capability", text(&decl.id)),
                            ("record", text(&record.id)),
                            ("reason", text(reason)),
                        ]));
                    }
                }
            }
            None => {
                if let Some(reason) = observation
                    .action(&decl.id, None)
                    .and_then(|a| a.unavailable())
                {
                    out.push(object([
                        ("capability", text(&decl.id)),
                        ("reason", text(reason)),
                    ]));
                }
            }
        }
    }
    out
}
