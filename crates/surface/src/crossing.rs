//! What crossed from JavaScript, and what Surface makes of it: a request,
//! a host callback's result, `createSurface`'s data options.
//!
//! The JS side (the shell's boundary.js) decides nothing. It reads the
//! request's fields in order ([`REQUEST_FIELDS`]), reporting what a getter
//! threw, and runs one `JSON.stringify` on the request's `input` and on
//! every callback result, reporting as facts what JSON cannot hold and what
//! threw: a [`Projection`], the same one the playable downlink crosses as.
//! Everything is decided here, once: which scalar a field holds (a string
//! longer than [`MAX_SCALAR_CHARS`] is only measured), whether a value is
//! plain JSON, and the message that says why not; the bounds (depth,
//! values, characters) are then the one scanner's ([`crate::bounds`]), on
//! the text.

use crate::bounds::{self, DecodeError, MAX_VALUES};
use crate::declaration::Registry;
use crate::host::CallbackError;
use playable::bounds::{ENVELOPE, MAX_TEXT_UNITS};
use serde_json::{Map, Number, Value};
use std::fmt;
// The tests (`use super::*`) build their values with `json!`.
#[cfg(test)]
use serde_json::json;

pub use playable::{NonJson, Projection};

/// How boundary.js's `stringify` writes a value that crosses (its
/// `level`): what crosses as JSON writes it, rather than as a fact that
/// makes the value no plain JSON. A BigInt, which JSON cannot write, is a
/// fact at every level; a cycle or a getter that threw leaves no text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writing {
    /// An agent's request (`input`) and `confirm`'s answer: nothing.
    Strict = 0,
    /// A page's own value (`session()`'s, the data options, the registry
    /// whole): a String, Number, Boolean or BigInt object, a collection, a
    /// `toJSON` (a `Date` crosses as its ISO text).
    Page = 1,
    /// One declaration of a registry that did not cross whole: also a
    /// function or symbol that is its own member under a key the
    /// declaration does not define ([`crate::DECLARATION_FIELDS`]), which
    /// JSON leaves out (the handler the page's helper calls). One under a
    /// defined key (`risk: () => "high"`) or nested deeper (in `input`'s
    /// schema) is a fact, and the declaration is skipped alone: left out,
    /// it would read as absent (a high-risk action as low risk, a schema
    /// as looser).
    Declarations = 2,
    /// `execute`'s result: also every function and symbol, and NaN and
    /// ±Infinity, which JSON writes as `null` (the action ran: its value
    /// crosses as JSON writes it).
    Result = 3,
}

/// The request's fields, in the order they are read: the four scalars,
/// then the one nested value, `input`.
pub const REQUEST_FIELDS: [&str; 5] = ["protocol", "id", "method", "capability", "input"];

/// How many of [`REQUEST_FIELDS`] are scalars (the rest is `input`).
pub const REQUEST_SCALARS: usize = 4;

/// Longest string a scalar field carries as itself, in UTF-16 units;
/// a longer one crosses as `{ "length": n }` (no valid request has one:
/// the longest valid scalar is a capability id of this many units).
pub const MAX_SCALAR_CHARS: usize = crate::request::MAX_CAPABILITY_CHARS;

/// One scalar field of a request, as read in JS.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// `undefined`: the member is absent.
    Absent,
    Null,
    Bool(bool),
    /// Any number, NaN and the infinities included.
    Number(f64),
    /// A string of `units` UTF-16 units; `text` is `None` when it was not
    /// copied ([`Scalar::copies`] said no).
    String {
        units: usize,
        text: Option<String>,
    },
    /// Anything else, by its `typeof`: `"object"`, `"bigint"`,
    /// `"function"`, `"symbol"`.
    Other(String),
    /// A string holding this lone surrogate (the first one): no Unicode
    /// text, so the request is refused ([`CrossedRequest::admit`]) rather
    /// than read with a replacement character (two different ids would
    /// then be one).
    LoneSurrogate(u16),
}

/// A JSON object of `entries`, in their order (each value is taken out of
/// the slice): what `json!` builds, without its `to_value` call and
/// `unwrap` per value; one copy for every object the module builds.
pub fn object(entries: &mut [(&str, Value)]) -> Value {
    let mut map = Map::new();
    for (key, value) in entries {
        map.insert((*key).to_string(), std::mem::take(value));
    }
    Value::Object(map)
}

impl Scalar {
    /// Whether a string of `units` UTF-16 units is copied out of JS (a
    /// longer one is only measured).
    pub fn copies(units: usize) -> bool {
        units <= MAX_SCALAR_CHARS
    }

    /// A string read whole (natively: tests and other hosts).
    pub fn string(s: &str) -> Self {
        let units = s.encode_utf16().count();
        Self::String {
            units,
            text: Self::copies(units).then(|| s.to_string()),
        }
    }

    /// A string as JS holds it, as UTF-16 code units: itself, or its
    /// first lone surrogate.
    pub fn from_utf16(units: &[u16]) -> Self {
        match char::decode_utf16(units.iter().copied()).find_map(Result::err) {
            Some(e) => Self::LoneSurrogate(e.unpaired_surrogate()),
            None => Self::String {
                units: units.len(),
                text: Self::copies(units.len()).then(|| String::from_utf16_lossy(units)),
            },
        }
    }

    /// The member this field becomes; `None` when it is absent (or not
    /// Unicode text, which [`CrossedRequest::admit`] refuses first). A string
    /// too long to carry is `{ "length": n }`, a finite number itself, and
    /// anything that is not a JSON scalar `{ "type": typeof }`: each then
    /// fails the shape check with the field's own message ("`id` must be a
    /// non-empty string…").
    pub fn to_json(&self) -> Option<Value> {
        Some(match self {
            Self::Absent | Self::LoneSurrogate(_) => return None,
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(*b),
            Self::Number(n) => match number(*n) {
                Some(n) => Value::Number(n),
                None => object(&mut [("type", "number".into())]),
            },
            Self::String {
                units,
                text: Some(text),
            } if Self::copies(*units) => Value::String(text.clone()),
            Self::String { units, .. } => object(&mut [("length", (*units).into())]),
            Self::Other(kind) => object(&mut [("type", kind.as_str().into())]),
        })
    }
}

/// A finite number as JSON writes it (an integer without a fraction).
fn number(n: f64) -> Option<Number> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() <= EXACT {
        // Exact: a whole f64 within ±2^53 converts to i64 without rounding.
        Some(Number::from(n as i64))
    } else {
        Number::from_f64(n)
    }
}

/// A request as it crossed from JS.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrossedRequest {
    /// The scalar fields read, in [`REQUEST_FIELDS`] order (one whose
    /// getter threw is absent; the others are still read, so the `id` is
    /// echoed whichever field threw); `None` when the request has no
    /// fields to read (it is not an object, or it is an array).
    pub scalars: Option<Vec<Scalar>>,
    /// `input` as stringified; `None` when it is absent or was not read.
    pub input: Option<Projection>,
    /// What a getter (or a proxy) threw while the fields were read.
    pub thrown: Option<String>,
}

/// A request refused before its text was parsed: `INVALID_REQUEST` with
/// `problem`, echoing the id found in `read`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The fields that could be read, as JSON text.
    pub read: String,
    /// Why the request is not plain JSON.
    pub problem: String,
}

impl CrossedRequest {
    /// A request given as a JSON value (natively: tests and other hosts);
    /// `input` crosses as its JSON text.
    pub fn from_value(request: &Value) -> Self {
        let Some(object) = request.as_object() else {
            return Self::default();
        };
        let scalars = REQUEST_FIELDS[..REQUEST_SCALARS]
            .iter()
            .map(|name| match object.get(*name) {
                None => Scalar::Absent,
                Some(Value::Null) => Scalar::Null,
                Some(Value::Bool(b)) => Scalar::Bool(*b),
                Some(Value::Number(n)) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
                Some(Value::String(s)) => Scalar::string(s),
                Some(Value::Array(_) | Value::Object(_)) => Scalar::Other("object".into()),
            })
            .collect();
        Self {
            scalars: Some(scalars),
            input: object
                .get(REQUEST_FIELDS[REQUEST_SCALARS])
                .map(|input| Projection::text(serde_json::to_string(input).unwrap_or_default())),
            thrown: None,
        }
    }

    /// The request's JSON text, for the bounds and the shape check; or why
    /// it is refused first. In order: a getter threw while the fields were
    /// read; `input` is no plain JSON ([`plain_text`]). A request with no
    /// fields to read is the text `null` (the shape check says it must be
    /// an object).
    pub fn admit(&self) -> Result<String, Unreadable> {
        let Some(scalars) = &self.scalars else {
            return match &self.thrown {
                Some(t) => Err(Unreadable {
                    read: "{}".into(),
                    problem: format!("reading the envelope threw: {t}"),
                }),
                None => Ok("null".into()),
            };
        };
        let mut head = Map::new();
        for (name, scalar) in REQUEST_FIELDS.iter().zip(scalars) {
            if let Some(value) = scalar.to_json() {
                head.insert((*name).to_string(), value);
            }
        }
        let head = serde_json::to_string(&Value::Object(head)).unwrap_or_default();
        let refuse = |problem: String| {
            Err(Unreadable {
                read: head.clone(),
                problem,
            })
        };
        if let Some(t) = &self.thrown {
            return refuse(format!("reading the envelope threw: {t}"));
        }
        let broken = REQUEST_FIELDS
            .iter()
            .zip(scalars)
            .find_map(|(name, s)| match s {
                Scalar::LoneSurrogate(unit) => Some((name, unit)),
                _ => None,
            });
        if let Some((name, unit)) = broken {
            return refuse(format!(
                "`{name}` holds a lone surrogate (\\u{unit:04x}), which is not Unicode text"
            ));
        }
        let Some(input) = &self.input else {
            return Ok(head);
        };
        match plain_text("input", input) {
            Err(why) => refuse(why.to_string()),
            Ok(None) => Ok(head),
            // `text` is one JSON value (what JSON.stringify wrote), the
            // last member: the bounds then scan the request whole.
            Ok(Some(text)) => {
                let open = head.strip_suffix('}').unwrap_or("{");
                let comma = if open.len() > 1 { "," } else { "" };
                let name = REQUEST_FIELDS[REQUEST_SCALARS];
                Ok(format!("{open}{comma}\"{name}\":{text}}}"))
            }
        }
    }
}

/// Why a value that crossed is not plain JSON ([`plain_text`]); in words,
/// it is named by `label`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotPlainJson<'p> {
    pub label: &'p str,
    pub why: NotPlain<'p>,
}

/// What [`NotPlainJson`] found, in the order [`plain_text`] looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotPlain<'p> {
    /// Its text is this many UTF-16 units, more than [`MAX_TEXT_UNITS`]:
    /// too long to be within the bounds.
    TooLong(usize),
    /// Stringifying it threw this (a cycle, a throwing getter, proxy or
    /// `toJSON`).
    Threw(&'p str),
    /// It holds a value JSON cannot hold.
    Holds(&'p NonJson),
}

impl fmt::Display for NotPlainJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = self.label;
        match self.why {
            NotPlain::TooLong(units) => write!(
                f,
                "{label} is {units} characters of JSON, more than the bounds allow ({} values, {} string characters)",
                ENVELOPE.values, ENVELOPE.chars
            ),
            NotPlain::Threw(t) => write!(
                f,
                "{label} cannot be written as JSON (it is cyclic, or a getter, proxy or toJSON threw): {t}"
            ),
            NotPlain::Holds(n) if n.key.is_empty() => {
                write!(f, "{label} is {}, not JSON", n.what())
            }
            NotPlain::Holds(n) => {
                let key = serde_json::to_string(&n.key).unwrap_or_default();
                write!(f, "{label} holds {} under the key {key}, not JSON", n.what())
            }
        }
    }
}

impl std::error::Error for NotPlainJson<'_> {}

/// A value's JSON text as it crossed (`None` for `undefined`), or why it
/// is not plain JSON, naming it `label`. In order: its text is too long to
/// be within the bounds; stringifying it threw (a cycle, a throwing getter,
/// proxy or `toJSON`); it holds a value JSON cannot hold.
pub fn plain_text<'p>(
    label: &'p str,
    p: &'p Projection,
) -> Result<Option<&'p str>, NotPlainJson<'p>> {
    let why = if p.units > MAX_TEXT_UNITS {
        NotPlain::TooLong(p.units)
    } else if let Some(t) = &p.thrown {
        NotPlain::Threw(t)
    } else if let Some(n) = &p.non_json {
        NotPlain::Holds(n)
    } else {
        return Ok(p.text.as_deref());
    };
    Err(NotPlainJson { label, why })
}

/// A host callback's result (or the data options) as it crossed: its JSON
/// text (`null` for `undefined`), or [`CallbackError::NotJson`] saying why
/// there is none. The bounds are the reader's ([`crate::bounds::decode`]).
pub fn callback_text(label: &str, p: &Projection) -> Result<String, CallbackError> {
    plain_text(label, p)
        .map(|text| text.unwrap_or("null").to_string())
        .map_err(|e| CallbackError::NotJson(e.to_string()))
}

/// The registry as it crossed, and the one console warning it calls for.
/// `whole` is the registry written at [`Writing::Page`], or what
/// `registry()` threw. When it is no plain JSON (a BigInt or a non-finite
/// number in it, a cycle, a getter that threw), `each(max)` writes it
/// again declaration by declaration (`None` when it is no array, or has
/// more than `max` entries, which the bounds would refuse anyway): one
/// that does not cross is skipped alone, with why, and the others are read
/// as ever. The bounds ([`crate::bounds`]) apply to the registry whole.
pub fn registry_from_crossing(
    whole: Result<Projection, String>,
    each: impl FnOnce(usize) -> Option<Vec<Projection>>,
) -> (Registry, Option<String>) {
    let refused = |why: String| {
        let warning = format!("the registry is not plain JSON: {why}");
        (Registry::default(), Some(warning))
    };
    let whole = match whole {
        Ok(whole) => whole,
        Err(threw) => {
            return (
                Registry::default(),
                Some(format!("registry() threw: {threw}")),
            )
        }
    };
    let read = match plain_text("registry", &whole) {
        Ok(text) => Registry::from_json_text(text.unwrap_or("null")),
        Err(why) => match each(MAX_VALUES) {
            Some(items) => declarations(&items),
            None => return refused(why.to_string()),
        },
    };
    match read {
        Ok(registry) => {
            let warning = registry.warning();
            (registry, warning)
        }
        Err(e) => refused(e.to_string()),
    }
}

/// A registry's declarations, each as it crossed, read as one list within
/// the bounds. One that did not cross stands as `null` in the list (so
/// every index stays, and the others are bounded together) and is skipped
/// with why.
fn declarations(items: &[Projection]) -> Result<Registry, DecodeError> {
    let mut text = String::from("[");
    let mut unreadable = Vec::new();
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        match plain_text("the declaration", item) {
            Ok(written) => text.push_str(written.unwrap_or("null")),
            Err(why) => {
                unreadable.push((index, why.to_string()));
                text.push_str("null");
            }
        }
    }
    text.push(']');
    bounds::decode(&text).map(|list| Registry::from_json_without(&list, &unreadable))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(kind: &str, key: &str, shown: &str) -> Option<NonJson> {
        Some(NonJson {
            kind: kind.into(),
            key: key.into(),
            shown: shown.into(),
        })
    }

    fn request(scalars: Vec<Scalar>, input: Option<Projection>) -> CrossedRequest {
        CrossedRequest {
            scalars: Some(scalars),
            input,
            thrown: None,
        }
    }

    fn s(text: &str) -> Scalar {
        Scalar::string(text)
    }

    #[test]
    fn scalars_become_members_and_what_is_no_scalar_says_its_type() {
        assert_eq!(Scalar::Absent.to_json(), None);
        assert_eq!(Scalar::Null.to_json(), Some(Value::Null));
        assert_eq!(Scalar::Bool(true).to_json(), Some(json!(true)));
        assert_eq!(Scalar::Number(5.0).to_json(), Some(json!(5)));
        assert_eq!(Scalar::Number(-0.0).to_json(), Some(json!(0)));
        assert_eq!(Scalar::Number(0.5).to_json(), Some(json!(0.5)));
        for n in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                Scalar::Number(n).to_json(),
                Some(json!({ "type": "number" }))
            );
        }
        assert_eq!(
            Scalar::Other("bigint".into()).to_json(),
            Some(json!({ "type": "bigint" }))
        );
        // Strings: whole up to 4096 UTF-16 units, measured beyond.
        assert!(Scalar::copies(MAX_SCALAR_CHARS) && !Scalar::copies(MAX_SCALAR_CHARS + 1));
        let at = "x".repeat(MAX_SCALAR_CHARS);
        assert_eq!(s(&at).to_json(), Some(Value::String(at.clone())));
        assert_eq!(
            s(&(at + "x")).to_json(),
            Some(json!({ "length": MAX_SCALAR_CHARS + 1 }))
        );
        // 😀 is two units: 2049 of them are 4098.
        assert_eq!(
            s(&"😀".repeat(2049)).to_json(),
            Some(json!({ "length": 4098 }))
        );
        let not_copied = Scalar::String {
            units: 10_000_000,
            text: None,
        };
        assert_eq!(not_copied.to_json(), Some(json!({ "length": 10_000_000 })));
    }

    #[test]
    fn a_request_is_its_scalars_then_its_input_as_one_text() {
        let r = request(
            vec![s("p"), Scalar::Number(5.0), s("describe"), Scalar::Absent],
            Some(Projection::text(r#"{"limit":1}"#)),
        );
        assert_eq!(
            r.admit(),
            Ok(r#"{"protocol":"p","id":5,"method":"describe","input":{"limit":1}}"#.into())
        );
        let r = request(vec![], Some(Projection::text("[]")));
        assert_eq!(r.admit(), Ok(r#"{"input":[]}"#.into()));
        let r = request(vec![s("p"), Scalar::Other("symbol".into())], None);
        assert_eq!(
            r.admit(),
            Ok(r#"{"protocol":"p","id":{"type":"symbol"}}"#.into())
        );
        // `undefined` input (stringify wrote nothing) is absent.
        let r = request(vec![s("p")], Some(Projection::default()));
        assert_eq!(r.admit(), Ok(r#"{"protocol":"p"}"#.into()));
        // No fields to read: the shape check's "must be a JSON object".
        assert_eq!(CrossedRequest::default().admit(), Ok("null".into()));
    }

    #[test]
    fn refusals_keep_what_was_read_to_echo_the_id() {
        let mut r = request(vec![s("p"), s("x10"), s("invoke"), s("c")], None);
        r.thrown = Some("getter".into());
        assert_eq!(
            r.admit(),
            Err(Unreadable {
                read: r#"{"protocol":"p","id":"x10","method":"invoke","capability":"c"}"#.into(),
                problem: "reading the envelope threw: getter".into()
            })
        );
        let r = CrossedRequest {
            thrown: Some("proxy".into()),
            ..CrossedRequest::default()
        };
        assert_eq!(r.admit().map_err(|u| u.read), Err("{}".into()));

        let cyclic = Projection {
            thrown: Some("Converting circular structure to JSON".into()),
            ..Projection::default()
        };
        let r = request(vec![s("p"), s("x8")], Some(cyclic));
        let u = r.admit().expect_err("refused");
        assert_eq!(u.read, r#"{"protocol":"p","id":"x8"}"#);
        assert_eq!(
            u.problem,
            "input cannot be written as JSON (it is cyclic, or a getter, proxy or toJSON threw): Converting circular structure to JSON"
        );

        let mut big = Projection::text(r#"{"q":null}"#);
        big.non_json = fact("bigint", "q", "");
        let u = request(vec![s("p"), s("x7")], Some(big))
            .admit()
            .expect_err("refused");
        assert_eq!(u.read, r#"{"protocol":"p","id":"x7"}"#);
        assert_eq!(
            u.problem,
            r#"input holds a BigInt under the key "q", not JSON"#
        );
    }

    #[test]
    fn plain_text_refuses_in_order_length_then_throw_then_fact() {
        let mut p = Projection::text("null");
        p.non_json = fact("number", "", "NaN");
        fn words(label: &str, p: &Projection) -> Result<Option<String>, String> {
            plain_text(label, p)
                .map(|t| t.map(str::to_string))
                .map_err(|e| e.to_string())
        }
        assert_eq!(
            words("result", &p),
            Err("result is the number NaN, not JSON".into())
        );
        p.thrown = Some("no".into());
        assert!(words("result", &p).is_err_and(|m| m.ends_with("threw): no")));
        p.units = MAX_TEXT_UNITS + 1;
        p.text = None;
        assert!(words("result", &p).is_err_and(|m| m.contains("more than the bounds allow")));
        let mut f = Projection::text(r#"{"a":[null]}"#);
        f.non_json = fact("function", "0", "");
        assert_eq!(
            words("registry", &f),
            Err(r#"registry holds a function under the key "0", not JSON"#.into())
        );
        let exactly = Projection {
            units: MAX_TEXT_UNITS,
            ..Projection::text("1")
        };
        assert_eq!(plain_text("result", &exactly), Ok(Some("1")));
    }

    #[test]
    fn a_callback_result_is_its_text_or_not_json() {
        assert_eq!(
            callback_text("result", &Projection::text(r#"{"ok":true}"#)),
            Ok(r#"{"ok":true}"#.into())
        );
        assert_eq!(
            callback_text("result", &Projection::default()),
            Ok("null".into()),
            "undefined is null"
        );
        let mut p = Projection::text(r#"{"ok":true,"value":null}"#);
        p.non_json = fact("bigint", "value", "");
        assert_eq!(
            callback_text("result", &p),
            Err(CallbackError::NotJson(
                r#"result holds a BigInt under the key "value", not JSON"#.into()
            ))
        );
    }

    #[test]
    fn a_value_request_crosses_as_the_shell_reads_one() {
        let r = CrossedRequest::from_value(&json!({
            "protocol": "p", "id": "r", "method": ["m"], "input": { "a": [1] }, "other": 1
        }));
        assert_eq!(
            r.admit(),
            Ok(r#"{"protocol":"p","id":"r","method":{"type":"object"},"input":{"a":[1]}}"#.into())
        );
        assert_eq!(
            CrossedRequest::from_value(&json!([1])).admit(),
            Ok("null".into())
        );
    }
}
