//! `bom` performs browser-object actions. Only reload exists: it asks the
//! window to reload and reports `{ ok, retired }`, where `retired: true` means
//! the document that made the request is going away (its instance must stop).

/// The outcome of a browser-object action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    use wasm_bindgen::JsCast;
    use web_sys::Window;

    /// Reloads a real window.
    pub struct DomBom {
        window: Window,
    }

    impl DomBom {
        pub fn new(window: Window) -> Self {
            Self { window }
        }

        /// Schedules `location.reload()` on the next task, so the reply to the
        /// agent is delivered before the document unloads. A window whose
        /// location cannot be read or that cannot schedule (cross-origin,
        /// closed) is `{ ok: false, retired: false }`: no fake retirement.
        pub fn reload(&self) -> Outcome {
            let location = self.window.location();
            if location.href().is_err() {
                return Outcome::FAILED;
            }
            let reload = Closure::once_into_js(move || {
                let _ = location.reload();
            });
            match self
                .window
                .set_timeout_with_callback(reload.unchecked_ref())
            {
                Ok(_) => Outcome::RELOADING,
                Err(_) => Outcome::FAILED,
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use dom::DomBom;
