//! What the bot is asked to do and what it answers: bot's own types, pure
//! and natively compiled. `playable` decodes a run payload into an
//! [`Action`] and hands it to a bot.

use std::fmt;

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

/// The value an `input` run sets. On the wire (a run payload's `value`):
/// a string, a boolean, or a list of strings.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValue {
    /// Text fields, textareas, contenteditable, single selects (by option value).
    Text(String),
    /// Checkboxes and radios.
    Bool(bool),
    /// Multiple selects (by option values).
    List(Vec<String>),
}

/// What `#[serde(untagged)]` would read, by the value's own type: a string,
/// a boolean, or a sequence of strings; anything else is an error. Written
/// as a visitor because the untagged derive first copies the value into
/// serde's internal buffer and then tries each variant against it, which
/// costs the module about 1 KB gzip for these three shapes.
impl<'de> Deserialize<'de> for InputValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(InputVisitor)
    }
}

struct InputVisitor;

impl<'de> Visitor<'de> for InputVisitor {
    type Value = InputValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, a boolean or a list of strings")
    }

    fn visit_str<E>(self, s: &str) -> Result<InputValue, E> {
        Ok(InputValue::Text(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<InputValue, E> {
        Ok(InputValue::Text(s))
    }

    fn visit_bool<E>(self, b: bool) -> Result<InputValue, E> {
        Ok(InputValue::Bool(b))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<InputValue, A::Error> {
        let mut list = Vec::new();
        while let Some(item) = seq.next_element::<String>()? {
            list.push(item);
        }
        Ok(InputValue::List(list))
    }
}

/// Where a `scroll` run puts the element. On the wire (a run payload's
/// `to`): `"start"`, `"center"` or `"end"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    Start,
    Center,
    End,
}

impl Align {
    /// Which point of the element meets the same point of its scroll
    /// container, on both axes: 0 their starts, 0.5 their centres, 1 their
    /// ends (act.js `scroll` applies it; a self-scrolling element goes that
    /// far through its own scroll range).
    pub fn fraction(self) -> f64 {
        match self {
            Align::Start => 0.0,
            Align::Center => 0.5,
            Align::End => 1.0,
        }
    }
}

/// What a run asks the bot to do; `T` is the target type (a drag's drop target).
#[derive(Debug, Clone, PartialEq)]
pub enum Action<T> {
    Click,
    Input(InputValue),
    Scroll {
        to: Option<Align>,
        by: Option<(f64, f64)>,
    },
    Drag {
        to: T,
    },
}

/// Why the bot refuses before dispatching anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The payload does not fit the element (a boolean for a text field…).
    BadRequest(String),
    /// Detached, hidden, moving, covered, disabled, read-only…
    NotActionable(String),
}

impl Refusal {
    /// The reason, for a message.
    pub fn reason(&self) -> &str {
        match self {
            Refusal::BadRequest(why) | Refusal::NotActionable(why) => why,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

/// What a dispatch observed, for the ok payload.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Report {
    Done,
    /// The scroll container's position after a scroll run.
    Scrolled {
        left: i64,
        top: i64,
    },
}

/// Why a dispatch failed once the checks had passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DispatchError {
    /// The page threw while the event was dispatched (its message).
    Threw(String),
    /// The dispatcher could not act or reported failure (why).
    Failed(String),
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DispatchError::Threw(why) => write!(f, "the page threw while dispatching: {why}"),
            DispatchError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DispatchError {}

/// A port's failure message (an injected bot that rejected, or said no).
impl From<String> for DispatchError {
    fn from(why: String) -> Self {
        DispatchError::Failed(why)
    }
}

impl From<&str> for DispatchError {
    fn from(why: &str) -> Self {
        DispatchError::Failed(why.to_string())
    }
}

/// Why an element cannot be acted on now ([`crate::Actionability::verdict`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unactionable {
    Detached,
    Hidden,
    Unstable,
    /// Another element, named, would receive the event.
    Obscured(String),
    Disabled,
    ReadOnly,
    /// Reading it threw: the page's own code (a method or getter it replaced
    /// on a prototype, such as `getBoundingClientRect`), with its message.
    Unreadable(String),
}

impl Unactionable {
    /// The reason, said of `subject` ("the element", "the drop target"),
    /// whose `act` ("event", "drop") another element would receive.
    fn said_of(&self, subject: &str, act: &str) -> String {
        match self {
            Unactionable::Detached => format!("{subject} is detached from the document"),
            Unactionable::Hidden => format!("{subject} is not visible"),
            Unactionable::Unstable => format!(
                "{subject} is not stable (it moved or resized between two animation frames)"
            ),
            Unactionable::Obscured(other) => {
                format!("another element ({other}) would receive the {act} at {subject}'s centre")
            }
            Unactionable::Disabled => format!("{subject} is disabled"),
            Unactionable::ReadOnly => format!("{subject} is read-only"),
            Unactionable::Unreadable(why) => {
                format!("the page threw while reading {subject}: {why}")
            }
        }
    }

    /// The reason, said of a drag's drop target.
    pub fn of_drop_target(&self) -> String {
        self.said_of("the drop target", "drop")
    }
}

impl fmt::Display for Unactionable {
    /// The reason that goes into a `NOT_ACTIONABLE` message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said_of("the element", "event"))
    }
}

impl std::error::Error for Unactionable {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_values_decode_to_their_variants() {
        let value = |v| serde_json::from_value::<InputValue>(v).ok();
        assert_eq!(value(json!("hi")), Some(InputValue::Text("hi".into())));
        assert_eq!(value(json!(false)), Some(InputValue::Bool(false)));
        assert_eq!(
            value(json!(["a", "b"])),
            Some(InputValue::List(vec!["a".into(), "b".into()]))
        );
        for bad in [json!(3), json!(null), json!(["a", 1]), json!({})] {
            assert_eq!(value(bad.clone()), None, "{bad}");
        }
        let align = |v| serde_json::from_value::<Align>(v).ok();
        assert_eq!(align(json!("center")), Some(Align::Center));
        assert_eq!(align(json!("middle")), None);
        assert_eq!(align(json!("End")), None);
        assert_eq!(
            [Align::Start, Align::Center, Align::End].map(Align::fraction),
            [0.0, 0.5, 1.0]
        );
    }

    #[test]
    fn a_drop_target_s_reasons_name_it() {
        assert_eq!(
            Unactionable::Hidden.of_drop_target(),
            "the drop target is not visible"
        );
        assert_eq!(
            Unactionable::Detached.of_drop_target(),
            "the drop target is detached from the document"
        );
        assert!(Unactionable::Unstable
            .of_drop_target()
            .starts_with("the drop target is not stable ("));
        assert_eq!(
            Unactionable::Obscured("div#lid".into()).of_drop_target(),
            "another element (div#lid) would receive the drop at the drop target's centre"
        );
        let threw = Unactionable::Unreadable("broken".into());
        assert_eq!(
            threw.of_drop_target(),
            "the page threw while reading the drop target: broken"
        );
        assert_eq!(
            threw.to_string(),
            "the page threw while reading the element: broken"
        );
    }

    #[test]
    fn errors_read_as_their_reasons() {
        assert_eq!(
            DispatchError::Threw("boom".into()).to_string(),
            "the page threw while dispatching: boom"
        );
        assert_eq!(DispatchError::from("no").to_string(), "no");
        assert_eq!(Refusal::BadRequest("x".into()).to_string(), "x");
    }
}
