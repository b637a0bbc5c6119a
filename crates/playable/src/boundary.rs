//! A downlink as it crossed from JavaScript, and the decision whether it is
//! admitted. The JS side (the shell's boundary.js `project`) only reads the
//! four envelope fields and runs one `JSON.stringify`, reporting as facts
//! what JSON cannot hold; everything is decided here, before `serde_json`
//! sees the text: plain JSON or not, then the [`bounds`](crate::bounds).

use crate::bounds::MAX_TEXT_UNITS;
use crate::envelope::{request_id_in, ErrorCode};

/// The first value `JSON.stringify` met that JSON cannot hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonJson {
    /// Its `typeof`: `"bigint"`, `"function"`, `"symbol"` or `"number"`.
    pub kind: String,
    /// The key (or array index) it sat under; `""` for the envelope itself.
    pub key: String,
    /// For a number: how JS writes it (`NaN`, `Infinity`, `-Infinity`).
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
    /// value itself when it is no object). When reading the envelope threw,
    /// the text of the first three fields alone, if they could be read.
    /// `None` when there is no text (or when it was too long to copy).
    pub text: Option<String>,
    /// The text's length in UTF-16 units (known even when it was not copied).
    pub units: usize,
    pub non_json: Option<NonJson>,
    /// What `JSON.stringify` or a getter threw (a cycle, a throwing proxy…).
    pub thrown: Option<String>,
    /// The text of `{ pageId, requestId, cmd }` alone, when `text` was too
    /// long to copy: the requestId is still echoed from it.
    pub head: Option<String>,
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

    /// The admitted JSON text, or why it is refused. In order: the text is
    /// too long to be within bounds; reading the envelope threw; a value
    /// JSON cannot hold was met. The requestId is echoed when it is usable
    /// and can be found.
    pub fn admit(&self) -> Result<&str, NotPlain> {
        let refuse = |request_id: String, why: String| NotPlain {
            request_id,
            message: format!("the envelope must be plain JSON: {why}"),
        };
        if self.units > MAX_TEXT_UNITS {
            return Err(refuse(
                self.head.as_deref().map(request_id_in).unwrap_or_default(),
                crate::bounds::too_long(self.units),
            ));
        }
        let text = self.text.as_deref();
        let echo = || text.map(request_id_in).unwrap_or_default();
        if let Some(thrown) = &self.thrown {
            return Err(refuse(
                echo(),
                format!("reading it threw (a cycle, a throwing getter or proxy): {thrown}"),
            ));
        }
        let Some(text) = text else {
            return Err(refuse(String::new(), "it is undefined".into()));
        };
        if let Some(n) = &self.non_json {
            let what = n.what();
            let place = if n.key.is_empty() {
                "the envelope".to_string()
            } else {
                format!("the value at key {}", crate::envelope::quote(&n.key))
            };
            return Err(refuse(
                echo(),
                format!("{place} is {what}, which JSON cannot hold"),
            ));
        }
        Ok(text)
    }
}

#[cfg(target_arch = "wasm32")]
mod js {
    use js_sys::{Array, JsString};
    use wasm_bindgen::JsCast;

    use super::{NonJson, Projection, MAX_TEXT_UNITS};

    impl Projection {
        /// Reads boundary.js's `[text, fact, thrown, head?]`: `text` a
        /// string or null, `fact` null or `[typeof, key, shown]`, `thrown`
        /// a string or null, `head` (a downlink's first three fields) a
        /// string or absent. A text longer than [`MAX_TEXT_UNITS`] is not
        /// copied; `head` is copied only then, and only when it is short.
        pub fn from_js(projected: &Array) -> Self {
            let copy = |at: u32| {
                let text = projected.get(at).dyn_into::<JsString>().ok();
                let units = text.as_ref().map_or(0, |t| t.length() as usize);
                let text = text
                    .filter(|_| units <= MAX_TEXT_UNITS)
                    .and_then(|t| t.as_string());
                (text, units)
            };
            let (text, units) = copy(0);
            let head = (units > MAX_TEXT_UNITS).then(|| copy(3).0).flatten();
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
                head,
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

        // With the first three fields' text, a usable requestId is echoed.
        let head = |h: &str| Projection {
            units: MAX_TEXT_UNITS + 1,
            head: Some(h.into()),
            ..Projection::default()
        };
        let r = refused(&head(r#"{"pageId":null,"requestId":"r8","cmd":"hello"}"#));
        assert_eq!(r.request_id, "r8");
        assert!(
            r.message.contains("more than the bounds allow"),
            "{}",
            r.message
        );
        let unusable = format!(r#"{{"requestId":"{}"}}"#, "x".repeat(129));
        assert_eq!(refused(&head(&unusable)).request_id, "");
        assert_eq!(refused(&head(r#"{"requestId":5}"#)).request_id, "");
    }
}
