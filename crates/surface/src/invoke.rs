//! `invoke`, after the protocol checks passed: registration → input schema
//! → availability → approval → execution → expectation → evidence.
//! Every failure here is a business error inside an `ok: true` exchange.
//!
//! Only approval, execution and the expectation wait are asynchronous; the
//! checks before them ([`prepare`]) and the answer after them ([`finish`])
//! are plain functions, so the host's async driver stays small.

use crate::codes::{BusinessCode, BusinessError};
use crate::declaration::{CapabilityDeclaration, Expectation, Registry, Risk, RowActionId};
use crate::describe::visible_capabilities;
use crate::hooks::{ExecOutcome, RegistrySource};
use crate::json::{put, strings, text};
use crate::page::Observation;
use crate::schema::{self, SchemaError};
use crate::session::Session;
use crate::surface::{Observe, SurfaceConfig};
use serde_json::{Map, Value};

/// An invoke that passed every check up to approval
/// ([`crate::Surface::begin`]); [`crate::Surface::finish`] answers it.
/// Boxed, so moving it through the checks and across the host's awaits
/// copies a pointer rather than the page reading it carries.
#[derive(Debug)]
pub struct Pending<'s>(Box<Run<'s>>);

#[derive(Debug)]
struct Run<'s> {
    session: &'s Session,
    capability: String,
    input: Value,
    ask: bool,
    /// The registry and page read before running, for the `after` evidence
    /// (the registry also holds the declaration's `expect`).
    registry: Registry,
    before: Result<Box<Observation>, String>,
}

/// registration → input schema → availability → "can a person be asked".
pub(crate) fn prepare<'s>(
    session: &'s Session,
    capability: String,
    input: Value,
    registry: Registry,
    observe: Observe,
    can_ask: bool,
) -> Result<Pending<'s>, BusinessError> {
    let Some(decl) = registry.get(&capability) else {
        return Err(BusinessError::new(
            BusinessCode::ActionNotFound,
            format!("`{capability}` is not registered on this page: describe the page again"),
        ));
    };
    check_input(decl, &input)?;
    let before = observe();
    check_available(decl, &input, &before)?;
    let ask = decl.risk == Risk::High;
    if ask && !can_ask {
        return Err(BusinessError::new(
            BusinessCode::PermissionDenied,
            format!("`{capability}` is high-risk and needs a person's consent, but this page has no confirm hook: stop and report"),
        ));
    }
    Ok(Pending(Box::new(Run {
        session,
        capability,
        input,
        ask,
        registry,
        before,
    })))
}

impl Pending<'_> {
    /// The capability id to run.
    pub fn capability(&self) -> &str {
        &self.0.capability
    }

    /// The validated input (including `record` for row actions).
    pub fn input(&self) -> &Value {
        &self.0.input
    }

    /// High risk: a person must approve through the confirm hook first.
    pub fn ask(&self) -> bool {
        self.0.ask
    }

    /// The declared text to wait for after a successful run.
    pub fn expect(&self) -> Option<&Expectation> {
        self.0.registry.get(&self.0.capability)?.expect.as_ref()
    }

    /// The outcome when the person said no.
    pub fn declined(&self) -> ExecOutcome {
        Err(BusinessError::new(
            BusinessCode::PermissionDenied,
            format!(
                "approval for `{}` was declined: stop and report",
                self.0.capability
            ),
        ))
    }
}

/// The invoke result from the execution's outcome and whether the expected
/// text showed (`shown` is ignored without an expectation or on failure).
pub(crate) fn finish(
    config: &SurfaceConfig,
    p: Pending<'_>,
    outcome: ExecOutcome,
    shown: bool,
    registry: &dyn RegistrySource,
    observe: Observe,
) -> Result<Value, BusinessError> {
    let value = outcome?;
    if let Some(expect) = p.expect() {
        if !shown {
            return Err(BusinessError::new(
                BusinessCode::ExpectationFailed,
                format!(
                    "`{}` ran, but \"{}\" did not appear in status or feedback within {} ms: describe the page again",
                    p.capability(),
                    expect.text,
                    crate::json::number_text(expect.within_ms)
                ),
            ));
        }
    }
    let p = p.0;
    let mut result = Map::new();
    if let Some(value) = value {
        put(&mut result, "value", value);
    }
    if let (Ok(before), Ok(after)) = (&p.before, observe()) {
        if before.document_id == after.document_id {
            let after_registry = registry.registry();
            let old = visible_capabilities(&p.registry, &config.expose, p.session);
            let mut appeared = Vec::new();
            for d in visible_capabilities(&after_registry, &config.expose, p.session) {
                if !old.iter().any(|o| o.id == d.id) {
                    appeared.push(text(&d.id));
                }
            }
            put(
                &mut result,
                "after",
                evidence(config, appeared, before, &after),
            );
        }
    }
    Ok(Value::Object(result))
}

/// The implicit `record` string for row actions, then the declared schema.
fn check_input(decl: &CapabilityDeclaration, input: &Value) -> Result<(), BusinessError> {
    let result = match input.get("record") {
        _ if decl.row_action().is_none() => Ok(()),
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err(SchemaError::new("/record", "expected a record id string")),
        None => Err(SchemaError::new("/record", "required property is missing")),
    };
    result
        .and_then(|()| schema::validate(&decl.effective_schema(), input))
        .map_err(|e| {
            BusinessError::new(
                BusinessCode::InvalidParams,
                format!("invalid input for `{}`: {e}", decl.id),
            )
        })
}

fn check_available(
    decl: &CapabilityDeclaration,
    input: &Value,
    before: &Result<Box<Observation>, String>,
) -> Result<(), BusinessError> {
    availability(decl, input, before)
        .map_err(|message| BusinessError::new(BusinessCode::ActionUnavailable, message))
}

/// Why `decl` cannot run now, if it cannot.
fn availability(
    decl: &CapabilityDeclaration,
    input: &Value,
    before: &Result<Box<Observation>, String>,
) -> Result<(), String> {
    let id = &decl.id;
    let Some(RowActionId { kind, .. }) = decl.row_action() else {
        // Page-level capability: only an explicit mark on the page stops it.
        if let Ok(page) = before {
            if let Some(action) = page.action(id, None) {
                if let Some(reason) = &action.unavailable_reason {
                    return Err(reason.clone());
                }
                if !action.enabled {
                    return Err(format!("`{id}` is disabled on the page"));
                }
            }
        }
        return Ok(());
    };
    let record_id = input
        .get("record")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let page = before
        .as_ref()
        .map_err(|e| format!("could not read the page to find record `{record_id}`: {e}"))?;
    let Some(record) = page.record(kind, record_id) else {
        for r in &page.records {
            if r.id == record_id {
                return Err(format!(
                    "record `{record_id}` is a `{}`, but `{id}` acts on `{kind}` records",
                    r.kind
                ));
            }
        }
        return Err(format!(
            "no `{kind}` record `{record_id}` on the page: describe the page again"
        ));
    };
    if let Err(region) = page.region_of(record) {
        return Err(format!(
            "record `{record_id}` is in region `{region}`, which is not active"
        ));
    }
    if let Some(action) = page.action(id, Some(record_id)) {
        if let Some(reason) = &action.unavailable_reason {
            return Err(reason.clone());
        }
        if !action.enabled {
            return Err(format!("`{id}` is disabled for record `{record_id}`"));
        }
    }
    Ok(())
}

/// `after`: capabilities that appeared, records new or changed (fields or
/// state), and the current status. Bounded by `recordLimit`; beyond it
/// `recordsTruncated: true` says to describe again.
fn evidence(
    config: &SurfaceConfig,
    appeared: Vec<Value>,
    before: &Observation,
    after: &Observation,
) -> Value {
    let mut records = Vec::new();
    let mut truncated = false;
    for r in &after.records {
        let changed = before
            .record(&r.kind, &r.id)
            .is_none_or(|old| old.fields != r.fields || old.state != r.state);
        if changed {
            if records.len() == config.record_limit {
                truncated = true;
                break;
            }
            records.push(r.to_json());
        }
    }
    let mut out = Map::new();
    put(&mut out, "capabilities", Value::Array(appeared));
    put(&mut out, "records", Value::Array(records));
    if truncated {
        put(&mut out, "recordsTruncated", Value::Bool(true));
    }
    put(&mut out, "status", strings(&after.status));
    Value::Object(out)
}
