//! `bot` acts on a target the menu resolved: it checks actionability right
//! before dispatch and dispatches exactly once. Its types ([`Action`],
//! [`Report`], [`Refusal`], …) are its own; `playable` builds on them.

mod action;

pub use action::{Action, Align, DispatchError, InputValue, Refusal, Report, Unactionable};

/// What is known about a target at the moment of dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actionability {
    pub connected: bool,
    pub visible: bool,
    pub enabled: bool,
}

impl Actionability {
    /// Names the first failing condition; its reason goes into the
    /// `NOT_ACTIONABLE` message.
    pub fn verdict(self) -> Result<(), Unactionable> {
        if !self.connected {
            Err(Unactionable::Detached)
        } else if !self.visible {
            Err(Unactionable::Hidden)
        } else if !self.enabled {
            Err(Unactionable::Disabled)
        } else {
            Ok(())
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
pub use dom::{element, DomBot};

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
        .as_str()
        .contains("detached"));
        assert!(A {
            visible: false,
            ..ok
        }
        .verdict()
        .unwrap_err()
        .as_str()
        .contains("visible"));
        assert!(A {
            enabled: false,
            ..ok
        }
        .verdict()
        .unwrap_err()
        .as_str()
        .contains("disabled"));
        assert!(A {
            connected: false,
            visible: false,
            enabled: false
        }
        .verdict()
        .unwrap_err()
        .as_str()
        .contains("detached"));
    }
}
