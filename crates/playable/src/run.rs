//! `run`: one menu id, resolved against a menu read at this moment, one
//! dispatch. Every refusal returns before the bot acts (zero side effects).
//! Surface's built-in executor runs capabilities through this too.

use sense::json::quote;
use sense::{is_generic_ref, MenuItem, Snapshot};
use serde_json::{Map, Value};

use crate::envelope::{fail, type_name, wrong_field, ErrorCode, Failure, OkPayload};
use crate::machine::read_menu;
use crate::ports::{Action, Align, Bot, InputValue, Refusal, Report, Sense};

/// The event's own payload fields, checked before any element is touched.
/// Drag carries the drop target's menu id; it is resolved afterwards.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan<'p, T> {
    /// Never `Action::Drag`.
    Ready(Action<T>),
    Drag {
        to: &'p str,
    },
}

fn bad(message: String) -> Failure {
    fail(ErrorCode::BadRequest, message)
}

/// Parses the payload for `event` of item `id` (`qid`: the id quoted, for
/// messages). Unknown events are `UNSUPPORTED_EVENT`.
pub fn plan<'p, T>(
    id: &str,
    qid: &str,
    event: &str,
    payload: &'p Map<String, Value>,
) -> Result<Plan<'p, T>, Failure> {
    match event {
        "click" => Ok(Plan::Ready(Action::Click)),
        "input" => {
            let got = payload.get("value");
            let value = match got {
                Some(Value::String(s)) => Some(InputValue::Text(s.clone())),
                Some(Value::Bool(b)) => Some(InputValue::Bool(*b)),
                Some(Value::Array(items)) => strings(items).map(InputValue::List),
                _ => None,
            };
            let Some(value) = value else {
                return Err(bad(format!(
                    "{qid} is an input item: payload.value must be a string, a boolean or a list of strings, got {}",
                    type_name(got)
                )));
            };
            Ok(Plan::Ready(Action::Input(value)))
        }
        "scroll" => {
            let to = match payload.get("to") {
                None => None,
                Some(Value::String(s)) if s == "start" => Some(Align::Start),
                Some(Value::String(s)) if s == "center" => Some(Align::Center),
                Some(Value::String(s)) if s == "end" => Some(Align::End),
                Some(other) => {
                    return Err(bad(format!(
                        "payload.to must be \"start\", \"center\" or \"end\", got {}",
                        shown(other)
                    )))
                }
            };
            let by = match payload.get("by") {
                None => None,
                got => {
                    let axis = |k| got?.as_object()?.get(k)?.as_f64();
                    match (axis("x"), axis("y")) {
                        (Some(x), Some(y)) => Some((x, y)),
                        _ => return Err(wrong_field("by", "{ x: number, y: number }", got)),
                    }
                }
            };
            if to.is_none() && by.is_none() {
                return Err(bad(format!(
                    "{qid} is a scroll item: give payload.to (\"start\" | \"center\" | \"end\") or payload.by ({{ x, y }})"
                )));
            }
            Ok(Plan::Ready(Action::Scroll { to, by }))
        }
        "drag" => match payload.get("to") {
            Some(Value::String(to)) if to == id => {
                Err(bad(format!("{qid} cannot be dragged onto itself")))
            }
            Some(Value::String(to)) => Ok(Plan::Drag { to }),
            other => Err(bad(format!(
                "{qid} is a drag item: payload.to must be the drop target's menu id, got {}",
                type_name(other)
            ))),
        },
        other => Err(fail(
            ErrorCode::UnsupportedEvent,
            format!(
                "{qid} declares event {}, which this version cannot dispatch",
                quote(shorten(other))
            ),
        )),
    }
}

/// The items as strings, when they all are.
fn strings(items: &[Value]) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(item.as_str()?.to_string());
    }
    Some(out)
}

fn shorten(s: &str) -> &str {
    sense::prefix_chars(s, 40)
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => quote(shorten(s)),
        other => type_name(Some(other)).to_string(),
    }
}

/// The menu item `id` names, if it is runnable at all.
fn runnable<'a>(snapshot: &'a Snapshot, id: &str, role: &str) -> Result<&'a MenuItem, Failure> {
    let item = snapshot.menu.iter().find(|m| m.id == id);
    let (code, why) = match item {
        None => (ErrorCode::NotInMenu, "is not in the current menu"),
        Some(m) if m.ambiguous => (
            ErrorCode::Ambiguous,
            "is claimed by more than one element; nothing was dispatched",
        ),
        Some(m) if !m.enabled => (ErrorCode::NotActionable, "is disabled"),
        Some(m) if !m.visible => (ErrorCode::NotActionable, "is not visible"),
        Some(m) => return Ok(m),
    };
    Err(fail(code, format!("{role}{} {why}", quote(id))))
}

async fn target<S: Sense>(sense: &S, id: &str) -> Result<S::Target, Failure> {
    let qid = quote(id);
    sense
        .resolve(id)
        .await
        .map_err(|e| fail(ErrorCode::Internal, format!("resolving {qid} failed: {e}")))?
        .ok_or_else(|| {
            fail(
                ErrorCode::NotActionable,
                format!("{qid} has no element to act on (detached)"),
            )
        })
}

/// Runs menu item `id` with the run payload (`value`, `to`, `by` as its event needs).
pub async fn run_item<'a, S, B>(
    sense: &S,
    bot: &B,
    id: &'a str,
    payload: &'a Map<String, Value>,
) -> Result<OkPayload<'a>, Failure>
where
    S: Sense,
    B: Bot<S::Target>,
{
    if id.is_empty() {
        return Err(fail(
            ErrorCode::NotInMenu,
            "run needs a menu id; \"\" is none".into(),
        ));
    }
    if is_generic_ref(id) {
        return Err(fail(
            ErrorCode::NotInMenu,
            format!(
                "{} is a generic ref: visible to agents, never runnable",
                quote(id)
            ),
        ));
    }
    let snapshot = read_menu(sense).await?;
    let qid = quote(id);
    let item = runnable(&snapshot, id, "")?;
    let plan = plan(id, &qid, &item.event, payload)?;
    let element = target(sense, id).await?;
    let action = match plan {
        Plan::Ready(action) => action,
        Plan::Drag { to } => {
            runnable(&snapshot, to, "drop target ")?;
            Action::Drag {
                to: target(sense, to).await?,
            }
        }
    };
    bot.check(&element, &action).await.map_err(|r| {
        let (code, why) = match r {
            Refusal::BadRequest(why) => (ErrorCode::BadRequest, why),
            Refusal::NotActionable(why) => (ErrorCode::NotActionable, why),
        };
        fail(code, format!("{qid}: {why}"))
    })?;
    let report = bot
        .dispatch(&element, &action)
        .await
        .map_err(|e| fail(ErrorCode::DispatchFailed, format!("{qid}: {e}")))?;
    let echo = match action {
        Action::Input(_) => Some("value"),
        Action::Drag { .. } => Some("to"),
        _ => None,
    };
    Ok(match (report, echo) {
        (Report::Scrolled { left, top }, _) => OkPayload::RunScroll {
            id,
            scroll_left: left,
            scroll_top: top,
        },
        (_, Some(key)) => OkPayload::RunEcho {
            id,
            key,
            value: payload.get(key).unwrap_or(&Value::Null),
        },
        _ => OkPayload::Run { id },
    })
}

/// Runs a click-style menu item with no payload (Surface's built-in executor).
pub async fn run_menu_item<S, B>(sense: &S, bot: &B, id: &str) -> Result<(), (ErrorCode, String)>
where
    S: Sense,
    B: Bot<S::Target>,
{
    match run_item(sense, bot, id, &Map::new()).await {
        Ok(_) => Ok(()),
        Err(failure) => Err(*failure),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan<'p>(
        id: &str,
        event: &str,
        payload: &'p Map<String, Value>,
    ) -> Result<Plan<'p, ()>, Failure> {
        super::plan(id, &quote(id), event, payload)
    }

    fn p(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn plans_per_event() {
        assert_eq!(
            plan("a", "click", &p(json!({}))),
            Ok(Plan::Ready(Action::Click))
        );
        assert_eq!(
            plan("a", "input", &p(json!({ "value": "hi" }))),
            Ok(Plan::Ready(Action::Input(InputValue::Text("hi".into()))))
        );
        assert_eq!(
            plan("a", "input", &p(json!({ "value": true }))),
            Ok(Plan::Ready(Action::Input(InputValue::Bool(true))))
        );
        assert_eq!(
            plan("a", "input", &p(json!({ "value": ["x", "y"] }))),
            Ok(Plan::Ready(Action::Input(InputValue::List(vec![
                "x".into(),
                "y".into()
            ]))))
        );
        assert_eq!(
            plan(
                "a",
                "scroll",
                &p(json!({ "to": "end", "by": { "x": 1, "y": -2.5 } }))
            ),
            Ok(Plan::Ready(Action::Scroll {
                to: Some(Align::End),
                by: Some((1.0, -2.5))
            }))
        );
        assert_eq!(
            plan("a", "drag", &p(json!({ "to": "b" }))),
            Ok(Plan::Drag { to: "b" })
        );
    }

    #[test]
    fn bad_payloads_are_bad_requests_and_unknown_events_unsupported() {
        for (event, payload) in [
            ("input", json!({})),
            ("input", json!({ "value": 3 })),
            ("input", json!({ "value": null })),
            ("input", json!({ "value": ["x", 1] })),
            ("input", json!({ "value": {} })),
            ("scroll", json!({})),
            ("scroll", json!({ "to": "middle" })),
            ("scroll", json!({ "to": 1 })),
            ("scroll", json!({ "by": { "x": 1 } })),
            ("scroll", json!({ "by": [1, 2] })),
            ("drag", json!({})),
            ("drag", json!({ "to": 5 })),
            ("drag", json!({ "to": "a" })),
        ] {
            let fields = p(payload.clone());
            let r = plan("a", event, &fields);
            assert_eq!(
                r.map_err(|e| e.0),
                Err(ErrorCode::BadRequest),
                "{event} {payload}"
            );
        }
        assert_eq!(
            plan("a", "hover", &p(json!({}))).map_err(|e| e.0),
            Err(ErrorCode::UnsupportedEvent)
        );
    }
}
