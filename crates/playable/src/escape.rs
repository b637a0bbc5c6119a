//! The escape policy: what a snapshot allows an agent to do outside the
//! menu. Only reload exists; it is allowed iff nothing forbids it and
//! nothing is dirty (an agent never throws away unsaved work).

use std::fmt;

use sense::{join, Escape, Snapshot};
use serde::{Deserialize, Deserializer};

/// How many dirty elements the reason names; the rest are counted.
const DIRTY_NAMED: usize = 10;

/// Why reload is not allowed now (`None`: allowed).
pub fn reload_refusal(dirty: &[String], no_reload: bool) -> Option<String> {
    if no_reload {
        Some("the page forbids reload (data-e2e-noreload)".to_string())
    } else if !dirty.is_empty() {
        let named = join(
            dirty.iter().take(DIRTY_NAMED).map(|d| {
                if d.is_empty() {
                    "(unnamed)"
                } else {
                    d.as_str()
                }
            }),
            ", ",
        );
        let more = match dirty.len().saturating_sub(DIRTY_NAMED) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Some(format!("unsaved work would be lost (dirty: {named}{more})"))
    } else {
        None
    }
}

/// `deriveEscapes`: one reload escape, allowed per [`reload_refusal`].
pub fn derive_escapes(snapshot: &Snapshot) -> Vec<Escape> {
    EscapeInputs::of(snapshot).escapes()
}

/// The same rule as [`derive_escapes`], as a boolean (`false` for any type
/// but `"reload"`).
pub fn is_escape_allowed(snapshot: &Snapshot, kind: &str) -> bool {
    EscapeInputs::of(snapshot).allows(kind)
}

/// What the policy reads of a snapshot: `dirty` (default `[]`) and
/// `noReload` (default false); the rest is ignored. `deriveEscapes` reads
/// any object of this shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EscapeInputs {
    #[serde(default)]
    pub dirty: Vec<String>,
    #[serde(default)]
    pub no_reload: bool,
}

/// Why a value is not `{ dirty: string[], noReload: boolean }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapeInputsError(pub String);

impl fmt::Display for EscapeInputsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EscapeInputsError {}

impl EscapeInputs {
    pub fn of(snapshot: &Snapshot) -> Self {
        Self {
            dirty: snapshot.dirty.clone(),
            no_reload: snapshot.no_reload,
        }
    }

    /// Reads them from any serde deserializer; the error names the field.
    pub fn decode<'de, D: Deserializer<'de>>(d: D) -> Result<Self, EscapeInputsError>
    where
        D::Error: fmt::Display,
    {
        serde_path_to_error::deserialize(d).map_err(|e| {
            let path = e.path().to_string();
            if path == "." {
                EscapeInputsError(e.inner().to_string())
            } else {
                EscapeInputsError(format!("{path}: {}", e.inner()))
            }
        })
    }

    /// Reads them from JSON text (through a `serde_json::Value`, like
    /// [`sense::Snapshot::from_json`]), within the [`crate::bounds`] first:
    /// the text is what the page handed `deriveEscapes`.
    pub fn from_json(text: &str) -> Result<Self, EscapeInputsError> {
        crate::bounds::admit(text).map_err(|e| EscapeInputsError(e.to_string()))?;
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| EscapeInputsError(e.to_string()))?;
        Self::decode(&value)
    }

    /// `isEscapeAllowed`: whether [`Self::escapes`] allows `kind` (`false`
    /// for any type but `"reload"`).
    pub fn allows(&self, kind: &str) -> bool {
        kind == "reload" && reload_refusal(&self.dirty, self.no_reload).is_none()
    }

    pub fn escapes(&self) -> Vec<Escape> {
        let reason = reload_refusal(&self.dirty, self.no_reload);
        vec![Escape {
            kind: "reload",
            allowed: reason.is_none(),
            reason,
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert!(e[0].reason.as_deref().unwrap_or("").contains("(unnamed)"));
    }

    #[test]
    fn the_reason_names_ten_dirty_elements_and_counts_the_rest() {
        let ids: Vec<String> = (0..25).map(|i| format!("d{i}")).collect();
        let why = reload_refusal(&ids, false).unwrap_or_default();
        assert_eq!(
            why,
            "unsaved work would be lost (dirty: d0, d1, d2, d3, d4, d5, d6, d7, d8, d9 and 15 more)"
        );
        let ten = reload_refusal(&ids[..10], false).unwrap_or_default();
        assert!(ten.ends_with("d9)"), "{ten}");
    }

    #[test]
    fn escape_json_shape() {
        let out = serde_json::to_string(&derive_escapes(&snap(&[], false))).expect("serializes");
        assert_eq!(out, r#"[{"type":"reload","allowed":true}]"#);
    }

    #[test]
    fn inputs_read_dirty_and_no_reload_only() {
        let read = |v: serde_json::Value| EscapeInputs::decode(&v);
        assert_eq!(
            read(json!({ "dirty": ["f"], "noReload": true, "menu": 5 })),
            Ok(EscapeInputs {
                dirty: vec!["f".into()],
                no_reload: true
            })
        );
        assert_eq!(read(json!({})), Ok(EscapeInputs::default()));
        let e = read(json!({ "dirty": "x" })).unwrap_err();
        assert!(e.0.starts_with("dirty: invalid type"), "{e}");
        let e = read(json!({ "dirty": ["a", 2] })).unwrap_err();
        assert!(e.0.starts_with("dirty[1]:"), "{e}");
        assert!(read(json!(3)).is_err());
    }

    #[test]
    fn inputs_out_of_the_bounds_are_refused_before_they_are_read() {
        let err = |text: String| EscapeInputs::from_json(&text).unwrap_err().0;
        let deep = format!(
            "{{\"noReload\":false,\"x\":{}{}}}",
            "[".repeat(40),
            "]".repeat(40)
        );
        assert!(err(deep).starts_with("it nests deeper than 32 levels (bounds: 32 levels, 10000 values, 1048576 string characters)"));
        let many = format!("{{\"dirty\":[{}]}}", vec!["\"d\""; 10_000].join(","));
        assert!(err(many).starts_with("it has more than 10000 values"));
        let long = format!("{{\"dirty\":[\"{}\"]}}", "d".repeat(1 << 20));
        assert!(err(long).starts_with("its strings are longer than 1048576 characters"));
        // Within them: read.
        let dirty = format!("{{\"dirty\":[{}]}}", vec!["\"d\""; 9_998].join(","));
        assert_eq!(
            EscapeInputs::from_json(&dirty).map(|i| i.dirty.len()),
            Ok(9_998)
        );
    }
}
