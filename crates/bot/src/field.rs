//! What kind of editable thing an `input` run's target is, and whether the
//! value asked fits it. The DOM adapter (dom.rs) reads the facts; the rules
//! are here, so they test natively.

use std::fmt;

use crate::InputValue;

/// An editable thing, by what the DOM says of it. Its number is what act.js
/// `setValue` is told (which of its acts to perform).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `<input>` of a text-like type (text, number, date, email…) or `<textarea>`.
    Text = 1,
    /// An element whose `isContentEditable` is true.
    ContentEditable = 2,
    Checkbox = 3,
    Radio = 4,
    Select = 5,
    SelectMultiple = 6,
}

/// `<input>` types that hold no typed value: buttons, a file (a page script
/// cannot set it), hidden, and the two whose value is picked, not written.
const NOT_TYPED: [&str; 8] = [
    "button", "submit", "reset", "image", "file", "hidden", "range", "color",
];

/// How many characters of the value asked, or of what the browser would make
/// of it, a refusal quotes (the value may be a mebibyte).
const QUOTE_MAX_CHARS: usize = 40;

/// The facts dom.rs reads of a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FieldFacts<'a> {
    /// `tagName`, as the DOM gives it (upper case for HTML).
    pub tag: &'a str,
    /// An `<input>`'s `type` attribute, if it has one.
    pub input_type: Option<&'a str>,
    /// A `<select>`'s `multiple`.
    pub multiple: bool,
    /// `isContentEditable`.
    pub content_editable: bool,
    /// `checked`: a checkbox's or radio's state now.
    pub checked: bool,
    /// `maxLength` when it is set (the DOM gives -1 when it is not).
    pub max_length: Option<usize>,
}

/// Why an element takes no typed value ([`Field::of`]; `NOT_ACTIONABLE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotEditable {
    /// An `<input>` of this type (lower case), one of [`NOT_TYPED`].
    InputType(String),
    /// Neither a form field nor contenteditable.
    Element,
}

impl fmt::Display for NotEditable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InputType(t) => write!(
                f,
                "the element is an input of type {t}, which takes no typed value"
            ),
            Self::Element => {
                f.write_str("the element is not editable (not a form field or contenteditable)")
            }
        }
    }
}

impl std::error::Error for NotEditable {}

/// Why a field would not hold a text as it is ([`Field::holds`];
/// `BAD_REQUEST`): the input's type and both values, quoted and capped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unheld {
    kind: String,
    asked: String,
    held: String,
}

impl fmt::Display for Unheld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let article = if self.kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        write!(
            f,
            "{article} {} field cannot hold \"{}\" as it is: the browser would make it \"{}\"",
            self.kind, self.asked, self.held
        )
    }
}

impl std::error::Error for Unheld {}

impl Field {
    /// The field `facts` describe, or why the element takes no typed value.
    pub fn of(facts: FieldFacts) -> Result<Field, NotEditable> {
        match facts.tag {
            "TEXTAREA" => Ok(Field::Text),
            "SELECT" if facts.multiple => Ok(Field::SelectMultiple),
            "SELECT" => Ok(Field::Select),
            "INPUT" => {
                let kind = facts.input_type.unwrap_or("text").to_ascii_lowercase();
                match kind.as_str() {
                    "checkbox" => Ok(Field::Checkbox),
                    "radio" => Ok(Field::Radio),
                    t if NOT_TYPED.contains(&t) => Err(NotEditable::InputType(t.into())),
                    _ => Ok(Field::Text),
                }
            }
            _ if facts.content_editable => Ok(Field::ContentEditable),
            _ => Err(NotEditable::Element),
        }
    }

    /// What the field takes: the `BAD_REQUEST` message when the value does not fit.
    pub fn takes(self) -> &'static str {
        match self {
            Field::Text => "a text field takes a string",
            Field::ContentEditable => "a contenteditable takes a string",
            Field::Checkbox => "a checkbox takes a boolean",
            Field::Radio => "a radio takes a boolean",
            Field::Select => "a select takes a string (an option value)",
            Field::SelectMultiple => {
                "a multiple select takes a string or a list of strings (option values)"
            }
        }
    }

    /// Whether `value` is of the type the field takes (else [`Field::takes`]).
    pub fn fits(self, value: &InputValue) -> bool {
        let toggles = matches!(self, Field::Checkbox | Field::Radio);
        match value {
            InputValue::Bool(_) => toggles,
            InputValue::Text(_) => !toggles,
            InputValue::List(l) => {
                self == Field::SelectMultiple || (self == Field::Select && l.len() == 1)
            }
        }
    }

    /// Whether the field would hold `asked` as it is, given what the browser
    /// makes of it (`held`: an `<input>` of the same type sanitizes its value,
    /// e.g. a number field turns `"abc"` into `""`). Refused when not, so
    /// that an ok answer never claims a value the field does not hold.
    pub fn holds(asked: &str, held: &str, input_type: &str) -> Result<(), Unheld> {
        if asked == held {
            return Ok(());
        }
        Err(Unheld {
            kind: quote(&input_type.to_ascii_lowercase()),
            asked: quote(asked),
            held: quote(held),
        })
    }

    /// Whether the field `facts` describe may be given `value`, of the type
    /// it takes ([`Field::fits`]): not `false` when it is a checked radio,
    /// nor a text longer than a `maxlength` that bounds it (a textarea's,
    /// or an input's of a type it applies to).
    ///
    /// No click unchecks a radio, and frameworks do not see one unchecked
    /// otherwise (React listens for the click, Vue assigns the radio's value
    /// on change): the page's state and the DOM would part. A text over the
    /// maxlength is one a person could not type, and constraint validation
    /// would not catch it (`tooLong` follows user edits only); lengths are
    /// in UTF-16 code units, as the browser counts.
    pub fn bounds(self, facts: FieldFacts, value: &InputValue) -> Result<(), String> {
        match (self, value) {
            (Field::Radio, InputValue::Bool(false)) if facts.checked => {
                Err(
                    "the element is a checked radio: it is unchecked by checking another radio of its group"
                        .into(),
                )
            }
            (Field::Text, InputValue::Text(text)) => {
                // The `<input>` types maxlength does not apply to (the HTML
                // spec's table: it does to text, search, url, tel, email and
                // password, and an unknown type is text).
                let kind = facts.input_type.unwrap_or("text").to_ascii_lowercase();
                let bounded = facts.tag == "TEXTAREA"
                    || !matches!(
                        kind.as_str(),
                        "number" | "date" | "month" | "week" | "time" | "datetime-local"
                    );
                let got = value_length(text);
                match facts.max_length {
                    Some(max) if bounded && got > max => Err(format!("the field holds at most {max} characters, got {got}")),
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }
}

/// `text`'s length as a textarea's or input's value has it: UTF-16 code
/// units, a CRLF one line break (the value normalizes it to LF).
fn value_length(text: &str) -> usize {
    let mut cr = false;
    let mut n = 0;
    for c in text.chars() {
        if !(cr && c == '\n') {
            n += c.len_utf16();
        }
        cr = c == '\r';
    }
    n
}

/// `s` up to [`QUOTE_MAX_CHARS`] characters, with "…" when cut; line breaks
/// and other controls escaped, so the message stays one readable line.
fn quote(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == QUOTE_MAX_CHARS {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// How many missing option values a refusal names.
const MISSING_NAMED: usize = 5;

/// Why a select cannot take the option values asked ([`options_hold`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsRefusal {
    /// Values no option has (`BAD_REQUEST`): the first [`MISSING_NAMED`],
    /// each quoted as [`quote`] caps it (`""` for the empty value), and how
    /// many more.
    Missing { named: Vec<String>, more: usize },
    /// A value only disabled options hold, quoted: a person cannot pick it,
    /// so neither may an agent (`NOT_ACTIONABLE`).
    Disabled(String),
}

impl fmt::Display for OptionsRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { named, more } => {
                write!(f, "no option with value {}", named.join(", "))?;
                if *more > 0 {
                    write!(f, " and {more} more")?;
                }
                Ok(())
            }
            Self::Disabled(v) => write!(f, "the option \"{v}\" is disabled"),
        }
    }
}

impl std::error::Error for OptionsRefusal {}

/// Whether a select whose options are `have` (each one's value and whether
/// it is disabled) can take every value of `wanted`: first the values no
/// option has, in order, then the first that only disabled options hold.
pub fn options_hold(have: &[(String, bool)], wanted: &[String]) -> Result<(), OptionsRefusal> {
    let mut missing = wanted.iter().filter(|w| !have.iter().any(|(v, _)| v == *w));
    let named: Vec<String> = missing
        .by_ref()
        .take(MISSING_NAMED)
        .map(|w| {
            if w.is_empty() {
                "\"\"".into()
            } else {
                quote(w)
            }
        })
        .collect();
    if !named.is_empty() {
        let more = missing.count();
        return Err(OptionsRefusal::Missing { named, more });
    }
    match wanted.iter().find(|w| {
        let mut named = have.iter().filter(|(v, _)| v == *w).peekable();
        named.peek().is_some() && named.all(|(_, disabled)| *disabled)
    }) {
        Some(w) => Err(OptionsRefusal::Disabled(quote(w))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(tag: &str, input_type: Option<&str>) -> Option<Field> {
        Field::of(FieldFacts {
            tag,
            input_type,
            ..FieldFacts::default()
        })
        .ok()
    }

    #[test]
    fn each_element_is_its_kind_of_field() {
        assert_eq!(of("TEXTAREA", None), Some(Field::Text));
        assert_eq!(of("INPUT", None), Some(Field::Text));
        for t in [
            "text", "number", "date", "EMAIL", "search", "password", "bogus",
        ] {
            assert_eq!(of("INPUT", Some(t)), Some(Field::Text), "{t}");
        }
        assert_eq!(of("INPUT", Some("CheckBox")), Some(Field::Checkbox));
        assert_eq!(of("INPUT", Some("radio")), Some(Field::Radio));
        for t in NOT_TYPED {
            assert_eq!(of("INPUT", Some(t)), None, "{t}");
        }
        assert_eq!(of("SELECT", None), Some(Field::Select));
        let multiple = FieldFacts {
            tag: "SELECT",
            multiple: true,
            ..FieldFacts::default()
        };
        assert_eq!(Field::of(multiple), Ok(Field::SelectMultiple));
        assert_eq!(of("DIV", None), None);
        assert_eq!(
            Field::of(FieldFacts {
                tag: "INPUT",
                input_type: Some("Range"),
                ..FieldFacts::default()
            })
            .map_err(|e| e.to_string()),
            Err("the element is an input of type range, which takes no typed value".into())
        );
        assert!(Field::of(FieldFacts::default()).is_err_and(|e| e
            .to_string()
            .contains("not editable (not a form field or contenteditable)")));
        let editable = FieldFacts {
            tag: "DIV",
            content_editable: true,
            ..FieldFacts::default()
        };
        assert_eq!(Field::of(editable), Ok(Field::ContentEditable));
        // A form field is its own kind even inside a contenteditable.
        let inside = FieldFacts {
            tag: "INPUT",
            input_type: Some("checkbox"),
            content_editable: true,
            ..FieldFacts::default()
        };
        assert_eq!(Field::of(inside), Ok(Field::Checkbox));
    }

    #[test]
    fn a_value_fits_by_type() {
        let text = InputValue::Text("a".into());
        let on = InputValue::Bool(true);
        let one = InputValue::List(vec!["a".into()]);
        let two = InputValue::List(vec!["a".into(), "b".into()]);
        assert!(Field::Text.fits(&text) && !Field::Text.fits(&on) && !Field::Text.fits(&one));
        assert!(Field::ContentEditable.fits(&text) && !Field::ContentEditable.fits(&on));
        assert!(Field::Checkbox.fits(&on) && !Field::Checkbox.fits(&text));
        assert!(Field::Radio.fits(&on) && !Field::Radio.fits(&one));
        assert!(Field::Select.fits(&text) && Field::Select.fits(&one) && !Field::Select.fits(&two));
        assert!(Field::SelectMultiple.fits(&two) && Field::SelectMultiple.fits(&text));
        assert!(!Field::SelectMultiple.fits(&on));
        assert_eq!(Field::Checkbox.takes(), "a checkbox takes a boolean");
    }

    #[test]
    fn a_value_the_browser_would_change_is_refused_with_both_quoted() {
        let holds = |asked, held, input_type| {
            Field::holds(asked, held, input_type).map_err(|e| e.to_string())
        };
        assert_eq!(Field::holds("12.5", "12.5", "number"), Ok(()));
        assert_eq!(holds("", "", "number"), Ok(()));
        assert_eq!(
            holds("abc", "", "NUMBER"),
            Err(
                "a number field cannot hold \"abc\" as it is: the browser would make it \"\""
                    .into()
            )
        );
        assert!(
            holds("a b", "", "email").is_err_and(|e| e.starts_with("an email field cannot hold"))
        );
        let lines = holds("a\nb", "ab", "text").expect_err("changed");
        assert!(
            lines.contains("\"a\\nb\"") && lines.ends_with("\"ab\""),
            "{lines}"
        );
        let long = "9".repeat(1 << 20);
        let why = holds(&long, "", "date").expect_err("changed");
        assert!(why.len() < 200 && why.contains("9…\""), "{why}");
        assert!(holds("\u{7}", "", "text")
            .expect_err("changed")
            .contains("\"\u{fffd}\""));
    }

    #[test]
    fn a_checked_radio_is_not_set_to_false() {
        let radio = |checked| FieldFacts {
            tag: "INPUT",
            input_type: Some("radio"),
            checked,
            ..FieldFacts::default()
        };
        let (on, off) = (InputValue::Bool(true), InputValue::Bool(false));
        assert_eq!(
            Field::Radio.bounds(radio(true), &off),
            Err("the element is a checked radio: it is unchecked by checking another radio of its group".into())
        );
        // Already unchecked: ok, and nothing is dispatched (act.js).
        assert_eq!(Field::Radio.bounds(radio(false), &off), Ok(()));
        assert_eq!(Field::Radio.bounds(radio(true), &on), Ok(()));
        assert_eq!(Field::Radio.bounds(radio(false), &on), Ok(()));
        // A checkbox unchecks by a click.
        let checkbox = FieldFacts {
            input_type: Some("checkbox"),
            ..radio(true)
        };
        assert_eq!(Field::Checkbox.bounds(checkbox, &off), Ok(()));
    }

    #[test]
    fn a_text_longer_than_maxlength_is_refused_where_maxlength_applies() {
        let field = |tag, input_type, max_length| FieldFacts {
            tag,
            input_type,
            max_length,
            ..FieldFacts::default()
        };
        let too_long = |facts: FieldFacts, text: &str| {
            Field::Text.bounds(facts, &InputValue::Text(text.into()))
        };
        let three = |t| field("INPUT", t, Some(3));
        assert_eq!(too_long(three(None), "abc"), Ok(()));
        assert_eq!(
            too_long(three(None), "abcdef"),
            Err("the field holds at most 3 characters, got 6".into())
        );
        for t in ["text", "Search", "url", "tel", "email", "password", "bogus"] {
            assert!(too_long(three(Some(t)), "abcd").is_err(), "{t}");
        }
        for t in ["number", "date", "month", "week", "time", "datetime-local"] {
            assert_eq!(too_long(three(Some(t)), "12345"), Ok(()), "{t}");
        }
        assert_eq!(too_long(three(Some("NUMBER")), "12345"), Ok(()));
        // A textarea has no type; a type attribute on one changes nothing.
        let area = field("TEXTAREA", Some("number"), Some(3));
        assert!(too_long(area, "abcd").is_err());
        assert_eq!(too_long(field("INPUT", None, None), "abcdef"), Ok(()));
        assert_eq!(
            too_long(field("INPUT", None, Some(0)), "a"),
            Err("the field holds at most 0 characters, got 1".into())
        );
        assert_eq!(too_long(field("INPUT", None, Some(0)), ""), Ok(()));
        // UTF-16 code units, as the browser counts: an astral emoji is two,
        // "é" one; a CRLF is one line break in a textarea's value.
        assert_eq!(
            too_long(three(None), "a\u{1f600}b"),
            Err("the field holds at most 3 characters, got 4".into())
        );
        assert_eq!(too_long(three(None), "\u{e9}\u{e9}\u{e9}"), Ok(()));
        assert_eq!(too_long(area, "a\r\nb"), Ok(()));
        assert!(too_long(area, "a\n\nb").is_err());
        // Only a text field's text is bounded.
        let editable = FieldFacts {
            content_editable: true,
            ..field("DIV", None, Some(1))
        };
        assert_eq!(
            Field::ContentEditable.bounds(editable, &InputValue::Text("abc".into())),
            Ok(())
        );
    }

    #[test]
    fn a_value_only_a_disabled_option_holds_is_named() {
        let have = |o: &[(&str, bool)]| -> Vec<(String, bool)> {
            o.iter().map(|(v, d)| (v.to_string(), *d)).collect()
        };
        let want = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let opts = have(&[("a", false), ("b", true), ("c", true), ("c", false)]);
        let disabled = |w: &[&str]| match options_hold(&opts, &want(w)) {
            Err(e @ OptionsRefusal::Disabled(_)) => Some(e.to_string()),
            _ => None,
        };
        assert_eq!(disabled(&["a", "c"]), None);
        assert_eq!(options_hold(&opts, &want(&["a", "c"])), Ok(()));
        assert_eq!(
            disabled(&["a", "b"]),
            Some("the option \"b\" is disabled".into())
        );
        assert_eq!(disabled(&["z"]), None, "missing is not disabled");
    }

    #[test]
    fn missing_options_are_named_in_order() {
        let have = [("a".to_string(), false), ("b".to_string(), true)];
        let want = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let missing = |have: &[(String, bool)], w: &[String]| match options_hold(have, w) {
            Err(e @ OptionsRefusal::Missing { .. }) => Some(e.to_string()),
            _ => None,
        };
        assert_eq!(missing(&have, &want(&["a", "b"])), None);
        assert_eq!(
            missing(&have, &want(&["z", "a", "y"])),
            Some("no option with value z, y".into())
        );
        assert_eq!(
            missing(&[], &want(&[""])),
            Some("no option with value \"\"".into())
        );
        let many: Vec<String> = (0..8).map(|i| format!("v{i}")).collect();
        assert_eq!(
            missing(&have, &many),
            Some("no option with value v0, v1, v2, v3, v4 and 3 more".into())
        );
    }
}
