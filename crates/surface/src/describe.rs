//! `describe`: what the page shows and which capabilities this session may use.

use crate::declaration::{CapabilityDeclaration, Registry, Risk, RowActionId};
use crate::json::{fnv1a, listed, put, put_some, put_text, single, strings, FNV_START};
use crate::page::{Observation, Record};
use crate::request::{CapabilityMode, DescribeInput, RecordSelection, MAX_RECORD_LIMIT};
use crate::session::Session;
use crate::surface::SurfaceConfig;
use crate::PROTOCOL;
use serde_json::{Map, Value};

/// registry ∩ expose ∩ scope, in registry order.
pub(crate) fn visible_capabilities<'r>(
    registry: &'r Registry,
    expose: &[String],
    session: &Session,
) -> Vec<&'r CapabilityDeclaration> {
    let mut visible = Vec::new();
    for d in &registry.declarations {
        if listed(expose, &d.id) && session.allows(&d.id) {
            visible.push(d);
        }
    }
    visible
}

/// `{ id, title, description?, input, risk?, readOnly? }`; `risk` only when
/// high, so a client knows a person will be asked; `readOnly` only when
/// declared true.
pub(crate) fn capability_json(decl: &CapabilityDeclaration) -> Value {
    let mut out = Map::new();
    put_text(&mut out, "id", &decl.id);
    put_text(&mut out, "title", &decl.title);
    put_some(&mut out, "description", decl.description.as_ref());
    put(&mut out, "input", decl.effective_schema());
    if decl.risk == Risk::High {
        put_text(&mut out, "risk", "high");
    }
    if decl.read_only {
        put(&mut out, "readOnly", Value::Bool(true));
    }
    Value::Object(out)
}

/// FNV-1a: a fixed, tiny hash so "changed" compares without keeping the
/// whole capability list per session.
fn fingerprint(text: &str) -> u64 {
    fnv1a(FNV_START, text.as_bytes())
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
    let mut capabilities = Vec::new();
    for d in &visible {
        capabilities.push(capability_json(d));
    }
    let capabilities = Value::Array(capabilities);
    let print = fingerprint(&serde_json::to_string(&capabilities).unwrap_or_default());

    let mut out = Map::new();
    put_text(&mut out, "app", &config.app);
    put_text(&mut out, "protocol", PROTOCOL);
    // "changed" before any full read behaves as "all".
    let unchanged =
        input.capabilities == CapabilityMode::Changed && *last_capabilities == Some(print);
    if unchanged {
        put(&mut out, "capabilities", Value::Array(Vec::new()));
    } else {
        put(&mut out, "capabilities", capabilities);
        *last_capabilities = Some(print);
    }
    if input.capabilities == CapabilityMode::Changed {
        put(&mut out, "capabilitiesUnchanged", Value::Bool(unchanged));
    }
    if let Some(page) = observation.page_context() {
        put(&mut out, "context", single("page", page));
    }
    let mut regions = Vec::new();
    for r in &observation.regions {
        let mut region = Map::new();
        put_text(&mut region, "id", &r.id);
        put_text(&mut region, "title", &r.title);
        put(&mut region, "active", Value::Bool(r.active));
        regions.push(Value::Object(region));
    }
    put(&mut out, "regions", Value::Array(regions));

    let records = select_records(config, observation, &input.records, &mut out);
    let mut listed = Vec::new();
    for r in &records {
        listed.push(r.to_json());
    }
    put(&mut out, "records", Value::Array(listed));
    put(&mut out, "status", strings(&observation.status));
    let mut feedback = Vec::new();
    for f in &observation.feedback {
        feedback.push(f.to_json());
    }
    put(&mut out, "feedback", Value::Array(feedback));
    put(
        &mut out,
        "unavailable",
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
            let mut window = Vec::new();
            let rest = all.get(*offset..).unwrap_or_default();
            for r in rest.get(..limit).unwrap_or(rest) {
                window.push(r);
            }
            let mut window_json = Map::new();
            put(&mut window_json, "offset", Value::from(*offset));
            put(&mut window_json, "limit", Value::from(limit));
            put(&mut window_json, "total", Value::from(all.len()));
            put(out, "recordWindow", Value::Object(window_json));
            window
        }
        RecordSelection::Ids(ids) => {
            let mut found = Vec::new();
            let mut missing = Vec::new();
            for id in ids {
                let before = found.len();
                for r in all {
                    if &r.id == id {
                        found.push(r);
                    }
                }
                if found.len() == before {
                    missing.push(Value::from(id.clone()));
                }
            }
            put(out, "missing", Value::Array(missing));
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
    // `{ capability, record?, reason }` when the control says so.
    let mut check = |capability: &String, record: Option<&String>| {
        let action = observation.action(capability, record.map(String::as_str));
        if let Some(reason) = action.and_then(|a| a.unavailable()) {
            let mut entry = Map::new();
            put_text(&mut entry, "capability", capability);
            put_some(&mut entry, "record", record);
            put_text(&mut entry, "reason", reason);
            out.push(Value::Object(entry));
        }
    };
    for decl in visible {
        match RowActionId::parse(&decl.id) {
            Some(row) => {
                for record in records {
                    if record.kind == row.kind {
                        check(&decl.id, Some(&record.id));
                    }
                }
            }
            None => check(&decl.id, None),
        }
    }
    out
}
