//! `invoke`, after the protocol checks passed: registration → input schema
//! → availability → approval → execution → expectation → evidence.
//! Every failure here is a business error inside an `ok: true` exchange.
//!
//! The checks before the page's hooks run ([`prepare`]) and the answer
//! after them ([`finish`]) are plain functions; `Surface::handle` awaits the
//! hooks in between.

use crate::codes::{BusinessCode, BusinessError};
use crate::config::SurfaceConfig;
use crate::declaration::{CapabilityDeclaration, Expectation, Registry, Risk};
use crate::host::ExecOutcome;
use crate::json::number_text;
use crate::page::{Observation, PageError, Record};
use crate::schema::{self, SchemaError};
use crate::session::Session;
use serde::Serialize;
use serde_json::Value;
use std::future::Future;

/// An invoke result: `{ value?, after? }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Invoked {
    /// What the executor returned, when it returned a value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Absent when the document changed or the page could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<After>,
}

/// `after: { capabilities, records, removedRecords?, recordsTruncated?,
/// status }`: evidence of what the page showed after the run, not proof of
/// approval or of a committed transaction.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct After {
    /// Ids visible after (registry re-read) but not before.
    pub capabilities: Vec<String>,
    /// Records new or whose fields, state or region changed, at most
    /// `recordLimit`.
    pub records: Vec<Record>,
    /// Records read before and gone after, at most `recordLimit`; omitted
    /// when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_records: Vec<RecordRef>,
    /// `true` when more records changed, or more were removed, than
    /// `records` or `removedRecords` holds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub records_truncated: bool,
    /// The status texts now.
    pub status: Vec<String>,
}

/// `{ kind, id }`: a record that is no longer on the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordRef {
    pub kind: String,
    pub id: String,
}

/// An invoke that passed every check up to approval; `Surface::handle`
/// runs its hooks and [`finish`] answers it.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) session: Session,
    pub(crate) capability: String,
    /// The validated input, keys in the order given.
    pub(crate) input: Value,
    /// High risk: a person must approve through the confirm hook first.
    pub(crate) ask: bool,
    /// [`crate::Host::clicks_controls`], for the check after approval.
    clicks: bool,
    /// The registry and page read before running, for the `after` evidence
    /// (the registry also holds the declaration's `expect`).
    registry: Registry,
    before: Result<Observation, PageError>,
}

/// registration → input schema → availability → "can a person be asked"
/// (availability is checked again after approval: [`Pending::recheck`]).
pub(crate) fn prepare(
    session: Session,
    capability: String,
    input: Value,
    registry: Registry,
    observe: impl FnOnce() -> Result<Observation, PageError>,
    can_ask: bool,
    clicks: bool,
) -> Result<Pending, BusinessError> {
    let Some(decl) = registry.get(&capability) else {
        return Err(BusinessError::new(
            BusinessCode::ActionNotFound,
            format!("`{capability}` is not registered on this page: describe the page again"),
        ));
    };
    check_input(decl, &input)?;
    let before = observe();
    if let Err(why) = availability(decl, &input, &before, clicks) {
        return Err(BusinessError::new(BusinessCode::ActionUnavailable, why));
    }
    let ask = decl.risk == Risk::High;
    if ask && !can_ask {
        return Err(BusinessError::new(
            BusinessCode::PermissionDenied,
            format!("`{capability}` is high-risk and needs a person's consent, but this page has no confirm hook: stop and report"),
        ));
    }
    Ok(Pending {
        session,
        capability,
        input,
        ask,
        clicks,
        registry,
        before,
    })
}

impl Pending {
    /// The declared text to wait for after a successful run.
    pub(crate) fn expect(&self) -> Option<&Expectation> {
        self.registry.get(&self.capability)?.expect.as_ref()
    }

    /// Availability on the page read again after approval; that reading
    /// becomes the `before` of the evidence.
    pub(crate) fn recheck(
        &mut self,
        page: Result<Observation, PageError>,
    ) -> Result<(), BusinessError> {
        if let Some(decl) = self.registry.get(&self.capability) {
            availability(decl, &self.input, &page, self.clicks)
                .map_err(|why| BusinessError::new(BusinessCode::ActionUnavailable, why))?;
        }
        self.before = page;
        Ok(())
    }

    /// The outcome when the person said no.
    pub(crate) fn declined(&self) -> ExecOutcome {
        Err(BusinessError::new(
            BusinessCode::PermissionDenied,
            format!(
                "approval for `{}` was declined: stop and report",
                self.capability
            ),
        ))
    }
}

/// The invoke result from the execution's outcome and whether the expected
/// text showed (`shown` is ignored without an expectation or on failure);
/// `registry` and `after` are the page's declarations and page read again
/// (the registry only when the page read shows the same document).
pub(crate) async fn finish<R: Future<Output = Registry>>(
    config: &SurfaceConfig,
    p: Pending,
    outcome: ExecOutcome,
    shown: bool,
    registry: impl FnOnce() -> R,
    after: impl FnOnce() -> Result<Observation, PageError>,
) -> Result<Invoked, BusinessError> {
    let value = outcome?;
    if let Some(expect) = p.expect() {
        if !shown {
            return Err(BusinessError::new(
                BusinessCode::ExpectationFailed,
                format!(
                    "`{}` ran, but \"{}\" did not appear in status or feedback within {} ms: describe the page again",
                    p.capability,
                    expect.text,
                    number_text(expect.within_ms)
                ),
            ));
        }
    }
    let mut evidence = None;
    if let (Ok(before), Ok(after)) = (&p.before, after()) {
        if before.document_id == after.document_id {
            let after_registry = registry().await;
            let old = config.visible(&p.registry, &p.session);
            let appeared = config
                .visible(&after_registry, &p.session)
                .into_iter()
                .filter(|d| !old.iter().any(|o| o.id == d.id))
                .map(|d| d.id.clone())
                .collect();
            evidence = Some(changes(config, appeared, before, &after));
        }
    }
    Ok(Invoked {
        value,
        after: evidence,
    })
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

/// Why `decl` cannot run now, if it cannot: the page's rule
/// ([`Observation::availability`], which describe's `unavailable` uses
/// too). Unreadable, the page stops a row action (its record cannot be
/// found) but not a page-level capability.
fn availability(
    decl: &CapabilityDeclaration,
    input: &Value,
    before: &Result<Observation, PageError>,
    clicks: bool,
) -> Result<(), String> {
    let record_id = input
        .get("record")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let row = decl.row_action().map(|r| (r.kind, record_id));
    match before {
        Ok(page) => page
            .availability(&decl.id, row, clicks)
            .map_err(|u| u.message),
        Err(e) if row.is_some() => Err(format!(
            "could not read the page to find record `{record_id}`: {e}"
        )),
        Err(_) => Ok(()),
    }
}

/// `after`: capabilities that appeared, records new or changed (fields,
/// state or region: a record moved into an inactive region can no longer
/// be acted on), records gone, and the current status. Each record list is
/// bounded by `recordLimit`; beyond it `recordsTruncated: true` says to
/// describe again.
fn changes(
    config: &SurfaceConfig,
    appeared: Vec<String>,
    before: &Observation,
    after: &Observation,
) -> After {
    let limit = config.record_limit;
    let mut truncated = false;
    let mut records = Vec::new();
    for r in &after.records {
        let changed = match before.record(&r.kind, &r.id) {
            Some(old) => old.fields != r.fields || old.state != r.state || old.region != r.region,
            None => true,
        };
        if changed {
            if records.len() == limit {
                truncated = true;
                break;
            }
            records.push(r.clone());
        }
    }
    let mut removed: Vec<RecordRef> = Vec::new();
    for r in &before.records {
        // A record id claimed twice is one record gone, reported once.
        let listed = removed.iter().any(|o| o.id == r.id && o.kind == r.kind);
        if listed || after.record(&r.kind, &r.id).is_some() {
            continue;
        }
        if removed.len() == limit {
            truncated = true;
            break;
        }
        removed.push(RecordRef {
            kind: r.kind.clone(),
            id: r.id.clone(),
        });
    }
    After {
        capabilities: appeared,
        records,
        removed_records: removed,
        records_truncated: truncated,
        status: after.status.clone(),
    }
}
