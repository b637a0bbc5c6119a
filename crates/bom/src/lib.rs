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

#[cfg(target_arch = "wasm32")]
mod dom {
    use super::Outcome;
    use wasm_bindgen::prelude::*;
    use web_sys::Window;

    #[wasm_bindgen(module = "/src/reload.js")]
    extern "C" {
        #[wasm_bindgen(js_name = reloadSoon, catch)]
        fn reload_soon(win: &Window) -> Result<(), JsValue>;
    }

    /// Reloads a real window.
    pub struct DomBom {
        window: Window,
    }

    impl DomBom {
        pub fn new(window: Window) -> Self {
            Self { window }
        }

        /// Schedules `location.reload()` so that the reply to the agent is
        /// delivered before the document unloads (see reload.js). A window
        /// whose location cannot be read or that cannot schedule
        /// (cross-origin, closed) is `{ ok: false, retired: false }`: no fake
        /// retirement.
        pub fn reload(&self) -> Outcome {
            match reload_soon(&self.window) {
                Ok(()) => Outcome::RELOADING,
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
