//! `bot` acts on a target the menu resolved: it checks actionability right
//! before dispatch and dispatches exactly once.

/// What is known about a target at the moment of dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actionability {
    pub connected: bool,
    pub visible: bool,
    pub enabled: bool,
}

impl Actionability {
    /// `Err(reason)` names the first failing condition; the reason goes into
    /// the `NOT_ACTIONABLE` message.
    pub fn verdict(self) -> Result<(), &'static str> {
        if !self.connected {
            Err("the element is detached from the document")
        } else if !self.visible {
            Err("the element is not visible")
        } else if !self.enabled {
            Err("the element is disabled")
        } else {
            Ok(())
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
pub use dom::DomBot;

#[cfg(test)]
mod tests {
    use super::Actionability as A;

    #[test]
    fn first_failing_condition_is_reported() {
        let ok = A {
            connected: true,
            visible: true,
            enabled: true,
        };
        assert_eq!(ok.verdict(), Ok(()));
        assert!(A {
            connected: false,
            ..ok
        }
        .verdict()
        .unwrap_err()
        .contains("detached"));
        assert!(A {
            visible: false,
            ..ok
        }
        .verdict()
        .unwrap_err()
        .contains("visible"));
        assert!(A {
            enabled: false,
            ..ok
        }
        .verdict()
        .unwrap_err()
        .contains("disabled"));
        assert!(A {
            connected: false,
            visible: false,
            enabled: false
        }
        .verdict()
        .unwrap_err()
        .contains("detached"));
    }
}
