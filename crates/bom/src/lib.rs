//! `bom` performs browser-object actions. Only reload exists: it asks the
//! window to reload and reports `{ ok, retired }`, where `retired: true` means
//! the document that made the request is going away (its instance must stop).

use serde::{Deserialize, Serialize};

/// The outcome of a browser-object action: `{ ok, retired }` on the wire (a
/// JS bom port's answer; a missing flag is `false`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Outcome {
    pub ok: bool,
    pub retired: bool,
}

impl Outcome {
    pub const RELOADING: Outcome = Outcome {
        ok: true,
        retired: true,
    };
    pub const FAILED: Outcome = Outcome {
        ok: false,
        retired: false,
    };
}

/// How long after `location.reload()` returned a document that is still
/// here, and saw no `pagehide`, counts as one whose reload was cancelled.
/// Generous: a slow server delays the pagehide of a reload that goes ahead.
pub const STAYED_AFTER_MS: f64 = 10_000.0;

/// Whether a reload that was reported as retiring this document did not
/// happen: it was tried (`tried_at`, ms since the epoch; `None`: not yet),
/// no `pagehide` followed, and [`STAYED_AFTER_MS`] have passed since.
pub fn reload_undone(tried_at: Option<f64>, left: bool, now_ms: f64) -> bool {
    tried_at.is_some_and(|t| !left && now_ms - t >= STAYED_AFTER_MS)
}

#[cfg(target_arch = "wasm32")]
mod dom {
    use super::{reload_undone, Outcome};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use web_sys::Window;

    #[wasm_bindgen(module = "/src/reload.js")]
    extern "C" {
        /// Schedules the reload; `{ triedAt, left }`, which it keeps up to date.
        #[wasm_bindgen(js_name = reloadSoon, catch)]
        fn reload_soon(win: &Window) -> Result<JsValue, JsValue>;
    }

    /// Reloads a real window.
    pub struct DomBom {
        window: Window,
        /// The facts of the last reload scheduled (see reload.js).
        pending: RefCell<Option<JsValue>>,
    }

    impl DomBom {
        pub fn new(window: Window) -> Self {
            Self {
                window,
                pending: RefCell::new(None),
            }
        }

        /// Whether the last reload reported as retiring this document was
        /// cancelled by the page ([`reload_undone`]); it is then forgotten,
        /// so this says so once.
        pub fn undone(&self) -> bool {
            let mut pending = self.pending.borrow_mut();
            let Some(facts) = pending.as_ref() else {
                return false;
            };
            let read = |key: &str| js_sys::Reflect::get(facts, &key.into()).unwrap_or_default();
            let tried_at = read("triedAt").as_f64().filter(|t| *t > 0.0);
            let undone = reload_undone(tried_at, read("left").is_truthy(), js_sys::Date::now());
            if undone {
                *pending = None;
            }
            undone
        }

        /// Schedules `location.reload()` so that the reply to the agent is
        /// delivered before the document unloads (see reload.js). A window
        /// whose location cannot be read or that cannot schedule
        /// (cross-origin, closed) is `{ ok: false, retired: false }`: no fake
        /// retirement.
        pub fn reload(&self) -> Outcome {
            match reload_soon(&self.window) {
                Ok(facts) => {
                    *self.pending.borrow_mut() = Some(facts);
                    Outcome::RELOADING
                }
                Err(_) => Outcome::FAILED,
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use dom::DomBom;

#[cfg(test)]
mod tests {
    use super::Outcome;
    use serde_json::json;

    #[test]
    fn a_reload_is_undone_only_when_tried_long_ago_and_the_document_stayed() {
        use super::{reload_undone, STAYED_AFTER_MS};
        let t = 1_000_000.0;
        assert!(!reload_undone(None, false, t + 1e9), "not tried yet");
        assert!(!reload_undone(Some(t), false, t + STAYED_AFTER_MS - 1.0));
        assert!(reload_undone(Some(t), false, t + STAYED_AFTER_MS));
        assert!(!reload_undone(Some(t), true, t + 1e9), "pagehide: it went");
        assert!(!reload_undone(Some(t), false, f64::NAN), "a NaN clock");
    }

    #[test]
    fn outcome_wire_shape() {
        assert_eq!(
            serde_json::to_value(Outcome::RELOADING).ok(),
            Some(json!({ "ok": true, "retired": true }))
        );
        let read = |v| serde_json::from_value::<Outcome>(v).ok();
        assert_eq!(
            read(json!({ "ok": true })),
            Some(Outcome {
                ok: true,
                retired: false
            })
        );
        assert_eq!(read(json!({})), Some(Outcome::FAILED));
        assert_eq!(read(json!({ "ok": "yes" })), None);
    }
}
