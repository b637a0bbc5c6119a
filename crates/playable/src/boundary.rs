//! A downlink as it crossed from JavaScript, and the decision whether it is
//! admitted. The JS side (the shell's boundary.js `project`) only reads the
//! four envelope fields and runs one `JSON.stringify`, reporting as facts
//! what JSON cannot hold; everything is decided here, before `serde_json`
//! sees the text: plain JSON or not, then the [`bounds`](crate::bounds).

use crate::bounds::MAX_TEXT_UNITS;
use crate::envelope::{request_id_in, usable_request_id, ErrorCode};

/// The first value `JSON.stringify` met that JSON cannot hold (as itself:
/// a boxed primitive, a collection or a `toJSON` would be written as
/// something else).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonJson {
    /// Its `typeof` (`"bigint"`, `"function"`, `"symbol"` or `"number"`);
    /// `"boxed"` for a String, Number, Boolean or BigInt object;
    /// `"collection"` for a Map, Set, WeakMap or WeakSet (written `{}`
    /// whatever it holds); `"toJSON"` for an object with a `toJSON` method
    /// (a Date, say).
    pub kind: String,
    /// The key (or array index) it sat under; `""` for the envelope itself.
    pub key: String,
    /// For a number: how JS writes it (`NaN`, `Infinity`, `-Infinity`);
    /// for a boxed primitive or a collection: its type (`String`, `Map`…).
    pub shown: String,
}

impl NonJson {
    /// The value in words, for a refusal: "a BigInt", "the number NaN".
    pub fn what(&self) -> String {
        match self.kind.as_str() {
            "bigint" => "a BigInt".to_string(),
            "function" => "a function".to_string(),
            "symbol" => "a symbol".to_string(),
            "number" => format!("the number {}", self.shown),
            "boxed" | "collection" => format!("a {} object", self.shown),
            "toJSON" => "an object with a toJSON method".to_string(),
            other => format!("a {other}"),
        }
    }
}

/// What the boundary handed over for one downlink. [`Projection::admit`]
/// decides what only the JS side could see; the bounds and the shape are
/// [`parse_downlink`](crate::parse_downlink)'s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Projection {
    /// The JSON text of `{ pageId, requestId, cmd, payload }` (or of the
    /// value itself when it is no object). `None` when there is no text
    /// (reading the envelope threw, or it is `undefined`), or when it was
    /// too long to copy.
    pub text: Option<String>,
    /// The text's length in UTF-16 units (known even when it was not copied).
    pub units: usize,
    pub non_json: Option<NonJson>,
    /// What `JSON.stringify` or a getter threw (a cycle, a throwing proxy…).
    pub thrown: Option<String>,
    /// The requestId as it was read on its own (a string's first
    /// `2 × REQUEST_ID_MAX_CHARS` UTF-16 units at most: a longer one is
    /// `""`, as is one with a lone surrogate), whatever the other fields
    /// hold: a refusal echoes it when it is usable. `None` when it was no
    /// string (or not read apart): the requestId is then looked for in
    /// `text`.
    pub request_id: Option<String>,
}

/// A downlink refused before its shape was read: always `BAD_REQUEST`, with
/// the requestId to echo (`""` when none is usable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotPlain {
    pub request_id: String,
    pub message: String,
}

impl NotPlain {
    pub const CODE: ErrorCode = ErrorCode::BadRequest;
}

impl Projection {
    /// A text that crossed whole, with nothing to report.
    pub fn text(text: impl Into<String>) -> Self {
        let text = text.into();
        Self {
            units: text.encode_utf16().count(),
            text: Some(text),
            ..Self::default()
        }
    }

    /// What a refusal (or the JS side) could not read at all: `thrown`.
    pub fn threw(thrown: impl Into<String>) -> Self {
        Self {
            thrown: Some(thrown.into()),
            ..Self::default()
        }
    }

    /// The requestId a refusal echoes: the one read on its own when there
    /// is one, else the one found in the text; `""` unless it is usable.
    fn echo(&self) -> String {
        match &self.request_id {
            Some(id) if usable_request_id(id) => id.clone(),
            Some(_) => String::new(),
            None => self.text.as_deref().map(request_id_in).unwrap_or_default(),
        }
    }

    /// The admitted JSON text, or why it is refused. In order: the text is
    /// too long to be within bounds; reading the envelope threw; a value
    /// JSON cannot hold was met. The requestId is echoed when it is usable,
    /// whatever the other fields hold.
    pub fn admit(&self) -> Result<&str, NotPlain> {
        let refuse = |why: String| NotPlain {
            request_id: self.echo(),
            message: format!("the envelope must be plain JSON: {why}"),
        };
        if self.units > MAX_TEXT_UNITS {
            return Err(refuse(crate::bounds::too_long(self.units)));
        }
        if let Some(thrown) = &self.thrown {
            return Err(refuse(format!(
                "reading it threw (a cycle, nesting too deep to read, a throwing getter or proxy): {thrown}"
            )));
        }
        let Some(text) = self.text.as_deref() else {
            return Err(refuse("it is undefined".into()));
        };
        if let Some(n) = &self.non_json {
            let what = n.what();
            let place = if n.key.is_empty() {
                "the envelope".to_string()
            } else {
                format!("the value at key {}", crate::envelope::quote(&n.key))
            };
            return Err(refuse(format!("{place} is {what}, which JSON cannot hold")));
        }
        Ok(text)
    }
}

#[cfg(target_arch = "wasm32")]
mod js {
    use js_sys::{Array, JsString};
    use wasm_bindgen::JsCast;

    use super::{NonJson, Projection, MAX_TEXT_UNITS};
    use crate::envelope::REQUEST_ID_MAX_CHARS;

    impl Projection {
        /// Reads boundary.js's `[text, fact, thrown, requestId?]`: `text` a
        /// string or null, `fact` null or `[kind, key, shown]`, `thrown` a
        /// string or null, `requestId` (a downlink's, read on its own) a
        /// string or absent. A text longer than [`MAX_TEXT_UNITS`] is not
        /// copied, nor a requestId too long to be usable.
        pub fn from_js(projected: &Array) -> Self {
            let text = projected.get(0).dyn_into::<JsString>().ok();
            let units = text.as_ref().map_or(0, |t| t.length() as usize);
            let text = text
                .filter(|_| units <= MAX_TEXT_UNITS)
                .and_then(|t| t.as_string());
            // Unit by unit: a lone surrogate is no Unicode text, never echoed
            // (as the text's `\udXXX` is not).
            let request_id = projected.get(3).dyn_into::<JsString>().ok().map(|id| {
                if id.length() as usize > 2 * REQUEST_ID_MAX_CHARS {
                    return String::new();
                }
                String::from_utf16(&id.iter().collect::<Vec<u16>>()).unwrap_or_default()
            });
            let fact = projected.get(1);
            let non_json = fact.dyn_ref::<Array>().map(|f| NonJson {
                kind: f.get(0).as_string().unwrap_or_default(),
                key: f.get(1).as_string().unwrap_or_default(),
                shown: f.get(2).as_string().unwrap_or_default(),
            });
            Projection {
                text,
                units,
                non_json,
                thrown: projected.get(2).as_string(),
                request_id,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(p: &Projection) -> NotPlain {
        p.admit().expect_err("refused")
    }

    #[test]
    fn plain_text_is_admitted_as_is() {
        let p = Projection::text(r#"{"requestId":"r","cmd":"hello","payload":{}}"#);
        assert_eq!(
            p.admit(),
            Ok(r#"{"requestId":"r","cmd":"hello","payload":{}}"#)
        );
    }

    #[test]
    fn facts_are_refusals_that_still_echo_a_usable_request_id() {
        let mut p = Projection::text(r#"{"requestId":"b","cmd":"hello","payload":{"n":null}}"#);
        p.non_json = Some(NonJson {
            kind: "bigint".into(),
            key: "n".into(),
            shown: String::new(),
        });
        let r = refused(&p);
        assert_eq!(r.request_id, "b");
        assert!(
            r.message.contains("\"n\"") && r.message.contains("BigInt"),
            "{}",
            r.message
        );

        let mut p = Projection::text(r#"{"requestId":"c","cmd":"hello"}"#);
        p.thrown = Some("Converting circular structure to JSON".into());
        let r = refused(&p);
        assert_eq!(r.request_id, "c");
        assert!(r.message.contains("circular"), "{}", r.message);

        let p = Projection {
            thrown: Some("proxy".into()),
            ..Projection::default()
        };
        assert_eq!(refused(&p).request_id, "");
        assert!(refused(&Projection::default())
            .message
            .contains("undefined"));
    }

    #[test]
    fn too_long_to_copy_is_refused_on_its_length_alone() {
        let p = Projection {
            units: MAX_TEXT_UNITS + 1,
            ..Projection::default()
        };
        let r = refused(&p);
        assert!(
            r.message.contains("more than the bounds allow"),
            "{}",
            r.message
        );
        assert_eq!(r.request_id, "");
        assert_eq!(Projection::text("é😀").units, 3);

        // With the requestId read on its own, a usable one is echoed.
        let read = |id: &str| Projection {
            units: MAX_TEXT_UNITS + 1,
            request_id: Some(id.into()),
            ..Projection::default()
        };
        let r = refused(&read("r8"));
        assert_eq!(r.request_id, "r8");
        assert!(
            r.message.contains("more than the bounds allow"),
            "{}",
            r.message
        );
        assert_eq!(refused(&read(&"x".repeat(129))).request_id, "");
        assert_eq!(refused(&read("")).request_id, "");
        assert_eq!(
            refused(&read(&"😀".repeat(128))).request_id,
            "😀".repeat(128)
        );
    }

    #[test]
    fn the_request_id_read_on_its_own_is_echoed_whatever_the_other_fields_hold() {
        // A sibling field that is cyclic or throws: no text at all.
        let threw = Projection {
            request_id: Some("pc".into()),
            ..Projection::threw("Converting circular structure to JSON")
        };
        let r = refused(&threw);
        assert_eq!(r.request_id, "pc");
        assert!(r.message.contains("circular"), "{}", r.message);
        // It is preferred to the text's (they are one value when both exist).
        let mut p = Projection::text(r#"{"requestId":null,"cmd":"hello","payload":{}}"#);
        p.non_json = Some(NonJson {
            kind: "boxed".into(),
            key: "requestId".into(),
            shown: "String".into(),
        });
        let r = refused(&p);
        assert_eq!(r.request_id, "", "a String object is no usable requestId");
        assert!(
            r.message.contains(
                "the value at key \"requestId\" is a String object, which JSON cannot hold"
            ),
            "{}",
            r.message
        );
    }

    #[test]
    fn boxed_primitives_collections_and_to_json_are_named_as_what_json_cannot_hold() {
        let fact = |kind: &str, shown: &str| NonJson {
            kind: kind.into(),
            key: "id".into(),
            shown: shown.into(),
        };
        assert_eq!(fact("boxed", "Boolean").what(), "a Boolean object");
        assert_eq!(fact("collection", "Map").what(), "a Map object");
        assert_eq!(fact("toJSON", "").what(), "an object with a toJSON method");
    }
}
