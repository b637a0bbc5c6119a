//! `invoke`, after the protocol checks passed: registration → input schema
//! → availability → approval → execution → expectation → evidence.
//! Every failure here is a business error inside an `ok: true` exchange.

use crate::codes::{BusinessCode, BusinessError};
use crate::declaration::{CapabilityDeclaration, Risk, RowActionId};
use crate::describe::visible_capabilities;
use crate::hooks::{Clock, Confirm, Executor, RegistrySource};
use crate::json::{object, strings};
use crate::page::{Observation, Page};
use crate::schema;
use crate::session::Session;
use crate::surface::{Host, SurfaceConfig};
use json::{Map, Value};

pub(crate) async fn invoke<R, P, E, C, K>(
    config: &SurfaceConfig,
    session: &Session,
    capability: &str,
    input: Map<String, Value>,
    host: &Host<'_, R, P, E, C, K>,
) -> Value
where
    R: RegistrySource,
    P: Page,
    E: Executor,
    C: Confirm,
    K: Clock,
{
    match run(config, session, capability, Value::Object(input), host).await {
        Ok(result) => result,
        Err(error) => object([("error", error.to_json())]),
    }
}

async fn run<R, P, E, C, K>(
    config: &SurfaceConfig,
    session: &Session,
    capability: &str,
    input: Value,
    host: &Host<'_, R, P, E, C, K>,
) -> Result<Value, BusinessError>
where
    R: RegistrySource,
    P: Page,
    E: Executor,
    C: Confirm,
    K: Clock,
{
    let registry = host.registry.registry();
    let decl = registry.get(capability).ok_or_else(|| {
        BusinessError::new(
            BusinessCode::ActionNotFound,
            format!(
                "`{capability}` is not registered on the current page: describe the page again"
            ),
        )
    })?;
    check_input(decl, &input)?;
    let before = host.page.observe();
    check_available(decl, &input, &before)?;
    if decl.risk == Risk::High {
        check_approval(decl, &input, host.confirm).await?;
    }
    let value = host.executor.execute(capability, &input).await?;
    if let Some(expect) = &decl.expect {
        if !host
            .page
            .wait_for_text(&expect.text, expect.within_ms)
            .await
        {
            return Err(BusinessError::new(
                BusinessCode::ExpectationFailed,
                format!(
                    "`{capability}` ran, but \"{}\" did not appear in status or feedback within {} ms: describe the page before deciding",
                    expect.text,
                    crate::json::number_text(expect.within_ms)
                ),
            ));
        }
    }
    let mut result = Map::new();
    if let Some(value) = value {
        result.insert("value".into(), value);
    }
    if let (Ok(before), Ok(after)) = (&before, host.page.observe()) {
        if before.document_id == after.document_id {
            let after_registry = host.registry.registry();
            let old: Vec<&str> = visible_capabilities(&registry, &config.expose, session)
                .iter()
                .map(|d| d.id.as_str())
                .collect();
            let appeared: Vec<&str> =
                visible_capabilities(&after_registry, &config.expose, session)
                    .iter()
                    .map(|d| d.id.as_str())
                    .filter(|id| !old.contains(id))
                    .collect();
            result.insert("after".into(), evidence(config, &appeared, before, &after));
        }
    }
    Ok(Value::Object(result))
}

/// The implicit `record` string for row actions, then the declared schema.
fn check_input(decl: &CapabilityDeclaration, input: &Value) -> Result<(), BusinessError> {
    let invalid = |detail: String| {
        BusinessError::new(
            BusinessCode::InvalidParams,
            format!("invalid input for `{}`: {detail}", decl.id),
        )
    };
    if decl.row_action().is_some() {
        match input.get("record") {
            Some(Value::String(_)) => {}
            Some(_) => return Err(invalid("/record: expected a record id string".into())),
            None => {
                return Err(invalid(
                    "/record: required property is missing (the target record id)".into(),
                ))
            }
        }
    }
    schema::validate(&decl.effective_schema(), input).map_err(|e| invalid(e.to_string()))
}

fn check_available(
    decl: &CapabilityDeclaration,
    input: &Value,
    before: &Result<Observation, String>,
) -> Result<(), BusinessError> {
    let unavailable =
        |message: String| BusinessError::new(BusinessCode::ActionUnavailable, message);
    let id = &decl.id;
    let Some(RowActionId { kind, .. }) = decl.row_action() else {
        // Page-level capability: only an explicit mark on the page stops it.
        if let Ok(page) = before {
            if let Some(action) = page.action(id, None) {
                if let Some(reason) = &action.unavailable_reason {
                    return Err(unavailable(reason.clone()));
                }
                if !action.enabled {
                    return Err(unavailable(format!("`{id}` is disabled on the page")));
                }
            }
        }
        return Ok(());
    };
    let record_id = input
        .get("record")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let page = before.as_ref().map_err(|e| {
        unavailable(format!(
            "could not read the page to find record `{record_id}`: {e}"
        ))
    })?;
    let Some(record) = page.record(kind, record_id) else {
        let other = page.records.iter().find(|r| r.id == record_id);
        return Err(unavailable(match other {
            Some(r) => format!(
                "record `{record_id}` is a `{}`, but `{id}` acts on `{kind}` records",
                r.kind
            ),
            None => {
                format!("no `{kind}` record `{record_id}` on the page: describe the page again")
            }
        }));
    };
    if let Err(region) = page.region_of(record) {
        return Err(unavailable(format!(
            "record `{record_id}` is in region `{region}`, which is not active"
        )));
    }
    if let Some(action) = page.action(id, Some(record_id)) {
        if let Some(reason) = &action.unavailable_reason {
            return Err(unavailable(reason.clone()));
        }
        if !action.enabled {
            return Err(unavailable(format!(
                "`{id}` is disabled for record `{record_id}`"
            )));
        }
    }
    Ok(())
}

/// High risk needs a person's yes through the host's hook; nothing in the
/// request can stand in for it.
async fn check_approval<C: Confirm>(
    decl: &CapabilityDeclaration,
    input: &Value,
    confirm: &C,
) -> Result<(), BusinessError> {
    let denied = |message: String| BusinessError::new(BusinessCode::PermissionDenied, message);
    if !confirm.can_ask() {
        return Err(denied(format!(
            "`{}` is high-risk and needs a person's approval, but this page has no confirm hook; consent cannot be granted by the request: stop and report",
            decl.id
        )));
    }
    if !confirm.approve(&decl.id, input).await {
        return Err(denied(format!(
            "approval for `{}` was declined: stop and report",
            decl.id
        )));
    }
    Ok(())
}

/// `after`: capabilities that appeared, records new or changed (fields or
/// state), and the current status. Bounded by `recordLimit`; beyond it
/// `recordsTruncated: true` says to describe again.
fn evidence(
    config: &SurfaceConfig,
    appeared: &[&str],
    before: &Observation,
    after: &Observation,
) -> Value {
    let changed: Vec<Value> = after
        .records
        .iter()
        .filter(|r| {
            before
                .record(&r.kind, &r.id)
                .map_or(true, |old| old.fields != r.fields || old.state != r.state)
        })
        .map(|r| r.to_json())
        .collect();
    let truncated = changed.len() > config.record_limit;
    let records: Vec<Value> = changed.into_iter().take(config.record_limit).collect();
    let mut out = Map::new();
    out.insert("capabilities".into(), strings(appeared));
    out.insert("records".into(), Value::Array(records));
    if truncated {
        out.insert("recordsTruncated".into(), Value::from(true));
    }
    out.insert("status".into(), strings(&after.status));
    Value::Object(out)
}
