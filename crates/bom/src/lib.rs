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

/// How long a document that is still here, and saw no `pagehide`, may wait
/// for a reload reported as retiring it: from when `location.reload()`
/// returned (a page that cancelled it), or from when it was scheduled if it
/// was never tried (a page whose timers do not fire). Generous: a slow
/// server delays the pagehide of a reload that goes ahead.
pub const STAYED_AFTER_MS: f64 = 10_000.0;

/// What became of a reload reported as retiring this document: facts only
/// (times in ms since the epoch); [`reload_undone`] decides.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reload {
    /// When it was scheduled.
    pub scheduled_at: f64,
    /// When `location.reload()` returned (`None`: not tried yet).
    pub tried_at: Option<f64>,
    /// Whether this document's `pagehide` followed the try: one not
    /// `persisted` (going into the back/forward cache is not a reload).
    pub left: bool,
    /// Whether it was never tried, for good: the last check before it found
    /// it no longer allowed (unsaved work appeared), or `location.reload()`
    /// threw.
    pub skipped: bool,
}

/// Whether a reload that was reported as retiring this document did not
/// happen: it was skipped; or it was tried, no `pagehide` followed, and
/// [`STAYED_AFTER_MS`] have passed since; or it was never tried and
/// [`STAYED_AFTER_MS`] have passed since it was scheduled.
pub fn reload_undone(reload: &Reload, now_ms: f64) -> bool {
    let waited = |since: f64| now_ms - since >= STAYED_AFTER_MS;
    reload.skipped
        || match reload.tried_at {
            Some(t) => !reload.left && waited(t),
            None => waited(reload.scheduled_at),
        }
}

#[cfg(target_arch = "wasm32")]
mod dom {
    use super::{reload_undone, Outcome, Reload};
    use js_sys::{Object, Reflect};
    use std::cell::RefCell;
    use std::future::Future;
    use std::pin::Pin;
    use wasm_bindgen::prelude::*;
    use web_sys::Window;

    #[wasm_bindgen(module = "/src/reload.js")]
    extern "C" {
        /// Resolves once the reply has gone out, with the timers the module
        /// loaded with (see reload.js).
        #[wasm_bindgen(catch)]
        fn soon(win: &Window) -> Result<js_sys::Promise, JsValue>;
        /// `location.reload()`, recording `triedAt` and `left` in `facts`.
        #[wasm_bindgen(js_name = reload, catch)]
        fn reload_now(win: &Window, facts: &Object) -> Result<(), JsValue>;
        /// `Date.now` as the module loaded it.
        fn now() -> f64;
    }

    /// The last check before a reload starts: whether the escape's rule,
    /// read afresh, still allows it (unsaved work may have appeared since
    /// the escape was answered). Its future runs when the reload's turn
    /// comes.
    pub type StillAllowed = Box<dyn Fn() -> Pin<Box<dyn Future<Output = bool>>>>;

    /// The reload reported as retiring this document, not yet undone. Its
    /// `facts` hold `triedAt` and `left` (reload.js writes them), and
    /// `skipped` and `stale` (written here; stale: forgotten, its turn must
    /// not reload). No page script can reach them.
    struct Pending {
        scheduled_at: f64,
        facts: Object,
    }

    fn flag(facts: &Object, key: &str) -> bool {
        Reflect::get(facts, &key.into()).is_ok_and(|v| v.is_truthy())
    }

    fn raise(facts: &Object, key: &str) {
        let _ = Reflect::set(facts, &key.into(), &JsValue::TRUE);
    }

    /// Reloads a real window.
    pub struct DomBom {
        window: Window,
        still_allowed: StillAllowed,
        pending: RefCell<Option<Pending>>,
    }

    impl DomBom {
        pub fn new(window: Window, still_allowed: StillAllowed) -> Self {
            Self {
                window,
                still_allowed,
                pending: RefCell::new(None),
            }
        }

        /// Whether the last reload reported as retiring this document did
        /// not happen ([`reload_undone`]); it is then forgotten (a turn that
        /// comes later does not reload), so this says so once.
        pub fn undone(&self) -> bool {
            let mut pending = self.pending.borrow_mut();
            let Some(p) = pending.as_ref() else {
                return false;
            };
            let reload = Reload {
                scheduled_at: p.scheduled_at,
                tried_at: Reflect::get(&p.facts, &"triedAt".into())
                    .ok()
                    .and_then(|t| t.as_f64()),
                left: flag(&p.facts, "left"),
                skipped: flag(&p.facts, "skipped"),
            };
            let undone = reload_undone(&reload, now());
            if undone {
                raise(&p.facts, "stale");
                *pending = None;
            }
            undone
        }

        /// Schedules `location.reload()` so that the reply to the agent is
        /// delivered before the document unloads (see reload.js). When its
        /// turn comes it starts only if it was not forgotten meanwhile and
        /// [`StillAllowed`] says yes; else it is skipped (undone at once).
        /// A closed window (a removed frame's, whose location still reads)
        /// or one whose location cannot be read (cross-origin) is
        /// `{ ok: false, retired: false }`: no fake retirement.
        pub fn reload(&self) -> Outcome {
            let Ok(turn) = soon(&self.window) else {
                return Outcome::FAILED;
            };
            let facts = Object::new();
            let (window, mine) = (self.window.clone(), facts.clone());
            let check = (self.still_allowed)();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(turn).await;
                let allowed = check.await;
                if flag(&mine, "stale") {
                    return;
                }
                if !(allowed && reload_now(&window, &mine).is_ok()) {
                    raise(&mine, "skipped");
                }
            });
            let next = Pending {
                scheduled_at: now(),
                facts,
            };
            if let Some(old) = self.pending.replace(Some(next)) {
                raise(&old.facts, "stale");
            }
            Outcome::RELOADING
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use dom::{DomBom, StillAllowed};

#[cfg(test)]
mod tests {
    use super::Outcome;
    use serde_json::json;

    #[test]
    fn a_reload_is_undone_when_skipped_or_when_the_document_stayed_long_after() {
        use super::{reload_undone, Reload, STAYED_AFTER_MS};
        let t = 1_000_000.0;
        let tried = Reload {
            scheduled_at: t - 5.0,
            tried_at: Some(t),
            ..Reload::default()
        };
        assert!(!reload_undone(&tried, t + STAYED_AFTER_MS - 1.0));
        assert!(reload_undone(&tried, t + STAYED_AFTER_MS));
        let left = Reload {
            left: true,
            ..tried
        };
        assert!(!reload_undone(&left, t + 1e9), "pagehide: it went");
        assert!(!reload_undone(&tried, f64::NAN), "a NaN clock");
        // Scheduled, never tried: the page's timers never fired.
        let waiting = Reload {
            scheduled_at: t,
            ..Reload::default()
        };
        assert!(!reload_undone(&waiting, t + STAYED_AFTER_MS - 1.0));
        assert!(reload_undone(&waiting, t + STAYED_AFTER_MS));
        assert!(!reload_undone(&waiting, f64::NAN), "a NaN clock");
        // Skipped by the last check (unsaved work appeared): undone at once.
        let skipped = Reload {
            skipped: true,
            ..waiting
        };
        assert!(reload_undone(&skipped, t));
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
