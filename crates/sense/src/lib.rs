//! `sense` reads a page's declared menu.
//!
//! The work is split in two so most of it tests natively:
//! - [`build`] turns a flat list of [`RawNode`] facts (what the DOM said about
//!   each marked or interactive element, in document order) into a
//!   [`Snapshot`]: page title, menu, islands, generic refs, dirty, noReload.
//! - `dom` (wasm32 only) gathers raw facts from a live root in one bulk
//!   read (decoded by [`wire`]), where [`rules`] decide each element's role,
//!   interactivity, disabled state and name and [`read`] which details a
//!   second bulk read fetches; it keeps the matching elements so a run can
//!   resolve its target.
//! - `json` writes the snapshot's JSON directly and reads one back.

mod build;
pub mod json;
mod model;
pub mod read;
pub mod rules;
mod slots;
mod text;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod dom;

pub use build::{build, is_generic_ref, Built};
pub use model::{Escape, Generic, Island, IslandSlot, MenuItem, RawNode, Snapshot};
pub use slots::{IslandSlots, SlotSpec};
pub use text::{cap_chars, char_count, join, prefix_chars, DESC_MAX_CHARS, TITLE_MAX_CHARS};

/// Why reload is not allowed now (`None`: allowed). Nothing may forbid it
/// and nothing may be dirty (an agent never throws away unsaved work).
pub fn reload_refusal(snapshot: &Snapshot) -> Option<String> {
    if snapshot.no_reload {
        Some("the page forbids reload (data-e2e-noreload)".to_string())
    } else if !snapshot.dirty.is_empty() {
        Some(format!(
            "unsaved work would be lost (dirty: {})",
            join(
                snapshot.dirty.iter().map(|d| if d.is_empty() {
                    "(unnamed)"
                } else {
                    d.as_str()
                }),
                ", "
            )
        ))
    } else {
        None
    }
}

/// `deriveEscapes`: one reload escape, allowed per [`reload_refusal`].
pub fn derive_escapes(snapshot: &Snapshot) -> Vec<Escape> {
    let reason = reload_refusal(snapshot);
    vec![Escape {
        kind: "reload",
        allowed: reason.is_none(),
        reason,
    }]
}

/// The same rule as [`derive_escapes`], as a boolean. (The package's
/// `isEscapeAllowed` answers from `deriveEscapes` in www/entry.js; this is
/// the rule's Rust form for callers of the crate.)
pub fn is_escape_allowed(snapshot: &Snapshot, kind: &str) -> bool {
    kind == "reload" && reload_refusal(snapshot).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(dirty: &[&str], no_reload: bool) -> Snapshot {
        Snapshot {
            dirty: dirty.iter().map(|s| s.to_string()).collect(),
            no_reload,
            ..Snapshot::default()
        }
    }

    #[test]
    fn reload_allowed_only_when_clean_and_not_forbidden() {
        assert!(is_escape_allowed(&snap(&[], false), "reload"));
        assert!(!is_escape_allowed(&snap(&["note"], false), "reload"));
        assert!(!is_escape_allowed(&snap(&[], true), "reload"));
        assert!(!is_escape_allowed(&snap(&[], false), "back"));
        let e = derive_escapes(&snap(&[""], false));
        assert_eq!(e.len(), 1);
        assert!(!e[0].allowed);
        assert!(e[0].reason.as_deref().unwrap_or("").contains("unsaved"));
    }

    #[test]
    fn escape_json_shape() {
        let mut out = String::new();
        Escape::list_json(&derive_escapes(&snap(&[], false)), &mut out);
        assert_eq!(out, r#"[{"type":"reload","allowed":true}]"#);
    }
}
