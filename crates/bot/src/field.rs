//! What kind of editable thing an `input` run's target is, and whether the
//! value asked fits it. The DOM adapter (dom.rs) reads the facts; the rules
//! are here, so they test natively.

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
}

impl Field {
    /// The field `facts` describe, or the `NOT_ACTIONABLE` reason why the
    /// element takes no typed value.
    pub fn of(facts: FieldFacts) -> Result<Field, String> {
        match facts.tag {
            "TEXTAREA" => Ok(Field::Text),
            "SELECT" if facts.multiple => Ok(Field::SelectMultiple),
            "SELECT" => Ok(Field::Select),
            "INPUT" => {
                let kind = facts.input_type.unwrap_or("text").to_ascii_lowercase();
                match kind.as_str() {
                    "checkbox" => Ok(Field::Checkbox),
                    "radio" => Ok(Field::Radio),
                    t if NOT_TYPED.contains(&t) => Err(format!(
                        "the element is an input of type {t}, which takes no typed value"
                    )),
                    _ => Ok(Field::Text),
                }
            }
            _ if facts.content_editable => Ok(Field::ContentEditable),
            _ => Err("the element is not editable (not a form field or contenteditable)".into()),
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
    /// e.g. a number field turns `"abc"` into `""`). The `BAD_REQUEST`
    /// message when not, so that an ok answer never claims a value the field
    /// does not hold.
    pub fn holds(asked: &str, held: &str, input_type: &str) -> Result<(), String> {
        if asked == held {
            return Ok(());
        }
        let kind = quote(&input_type.to_ascii_lowercase());
        let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        Err(format!(
            "{article} {kind} field cannot hold \"{}\" as it is: the browser would make it \"{}\"",
            quote(asked),
            quote(held)
        ))
    }
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

/// The option values of `wanted` that `have` (each option's value and
/// whether it is disabled) lacks, for the refusal: each
/// quoted as [`quote`] caps it (`""` for the empty value), the first
/// [`MISSING_NAMED`] joined with ", ", then how many more (`None` when all
/// exist).
pub fn missing_options(have: &[(String, bool)], wanted: &[String]) -> Option<String> {
    let missing: Vec<&String> = wanted
        .iter()
        .filter(|w| !have.iter().any(|(v, _)| v == *w))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let named: Vec<String> = missing
        .iter()
        .take(MISSING_NAMED)
        .map(|w| {
            if w.is_empty() {
                "\"\"".into()
            } else {
                quote(w)
            }
        })
        .collect();
    let mut out = named.join(", ");
    if missing.len() > MISSING_NAMED {
        out.push_str(&format!(" and {} more", missing.len() - MISSING_NAMED));
    }
    Some(out)
}

/// The first of `wanted` that only a disabled option of the select holds
/// (`have`: each option's value and whether it is disabled), quoted: a
/// person cannot pick it, so neither may an agent (`NOT_ACTIONABLE`).
pub fn disabled_option(have: &[(String, bool)], wanted: &[String]) -> Option<String> {
    wanted
        .iter()
        .find(|w| {
            let mut named = have.iter().filter(|(v, _)| v == *w).peekable();
            named.peek().is_some() && named.all(|(_, disabled)| *disabled)
        })
        .map(|w| format!("the option \"{}\" is disabled", quote(w)))
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
            }),
            Err("the element is an input of type range, which takes no typed value".into())
        );
        assert!(Field::of(FieldFacts::default())
            .is_err_and(|e| e.contains("not editable (not a form field or contenteditable)")));
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
        assert_eq!(Field::holds("12.5", "12.5", "number"), Ok(()));
        assert_eq!(Field::holds("", "", "number"), Ok(()));
        assert_eq!(
            Field::holds("abc", "", "NUMBER"),
            Err(
                "a number field cannot hold \"abc\" as it is: the browser would make it \"\""
                    .into()
            )
        );
        assert!(Field::holds("a b", "", "email")
            .is_err_and(|e| e.starts_with("an email field cannot hold")));
        let lines = Field::holds("a\nb", "ab", "text").expect_err("changed");
        assert!(
            lines.contains("\"a\\nb\"") && lines.ends_with("\"ab\""),
            "{lines}"
        );
        let long = "9".repeat(1 << 20);
        let why = Field::holds(&long, "", "date").expect_err("changed");
        assert!(why.len() < 200 && why.contains("9…\""), "{why}");
        assert!(Field::holds("\u{7}", "", "text")
            .expect_err("changed")
            .contains("\"\u{fffd}\""));
    }

    #[test]
    fn a_value_only_a_disabled_option_holds_is_named() {
        let have = |o: &[(&str, bool)]| -> Vec<(String, bool)> {
            o.iter().map(|(v, d)| (v.to_string(), *d)).collect()
        };
        let want = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let opts = have(&[("a", false), ("b", true), ("c", true), ("c", false)]);
        assert_eq!(disabled_option(&opts, &want(&["a", "c"])), None);
        assert_eq!(
            disabled_option(&opts, &want(&["a", "b"])),
            Some("the option \"b\" is disabled".into())
        );
        assert_eq!(
            disabled_option(&opts, &want(&["z"])),
            None,
            "missing is not disabled"
        );
    }

    #[test]
    fn missing_options_are_named_in_order() {
        let have = [("a".to_string(), false), ("b".to_string(), true)];
        let want = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(missing_options(&have, &want(&["a", "b"])), None);
        assert_eq!(
            missing_options(&have, &want(&["z", "a", "y"])),
            Some("z, y".into())
        );
        assert_eq!(missing_options(&[], &want(&[""])), Some("\"\"".into()));
        let many: Vec<String> = (0..8).map(|i| format!("v{i}")).collect();
        assert_eq!(
            missing_options(&have, &many),
            Some("v0, v1, v2, v3, v4 and 3 more".into())
        );
    }
}
