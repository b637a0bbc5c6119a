//! A run payload, decoded for the item's event before any element is
//! touched: the bot's [`Action`], or (drag) the drop target's menu id, which
//! `run` resolves afterwards. Wrong payloads are `BAD_REQUEST`, unknown
//! events `UNSUPPORTED_EVENT`.

use bot::{Action, Align, InputValue};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::envelope::{fail, quote, type_name, wrong_field, ErrorCode, Failure};

/// The event's own payload fields, checked before any element is touched.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan<'p, T> {
    /// Never `Action::Drag`.
    Ready(Action<T>),
    Drag {
        to: &'p str,
    },
}

/// A scroll's `by`: `{ x: number, y: number }` (other fields ignored).
#[derive(Deserialize)]
struct By {
    x: f64,
    y: f64,
}

fn bad(message: String) -> Failure {
    fail(ErrorCode::BadRequest, message)
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

/// Parses the payload for `event` of item `id` (`qid`: the id quoted, for
/// messages). Never panics, whatever the payload.
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
            match got.map(InputValue::deserialize) {
                Some(Ok(value)) => Ok(Plan::Ready(Action::Input(value))),
                _ => Err(bad(format!(
                    "{qid} is an input item: payload.value must be a string, a boolean or a list of strings, got {}",
                    type_name(got)
                ))),
            }
        }
        "scroll" => {
            let to = match payload.get("to") {
                None => None,
                Some(got) => match Align::deserialize(got) {
                    Ok(align) => Some(align),
                    Err(_) => {
                        return Err(bad(format!(
                            "payload.to must be \"start\", \"center\" or \"end\", got {}",
                            shown(got)
                        )))
                    }
                },
            };
            let by = match payload.get("by") {
                None => None,
                // Only an object (serde would read [x, y] as one too).
                Some(got @ Value::Object(_)) => match By::deserialize(got) {
                    Ok(By { x, y }) => Some((x, y)),
                    Err(_) => return Err(wrong_field("by", "{ x: number, y: number }", Some(got))),
                },
                got => return Err(wrong_field("by", "{ x: number, y: number }", got)),
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
            ("scroll", json!({ "by": { "x": "1", "y": 2 } })),
            ("drag", json!({})),
            ("drag", json!({ "to": 5 })),
            ("drag", json!({ "to": "a" })),
        ] {
            let fields = p(payload.clone());
            let r = plan("a", event, &fields);
            assert_eq!(
                r.map_err(|e| e.code),
                Err(ErrorCode::BadRequest),
                "{event} {payload}"
            );
        }
        assert_eq!(
            plan("a", "hover", &p(json!({}))).map_err(|e| e.code),
            Err(ErrorCode::UnsupportedEvent)
        );
    }
}
