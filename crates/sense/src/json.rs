//! The snapshot's JSON, through serde: written with `serde_json`, read back
//! (what a JS sense port returned) by any serde deserializer — `serde_json`
//! natively, serde-wasm-bindgen in the shell — with errors that name the
//! field that failed.

use std::fmt;

use serde::Deserializer;

use crate::model::Snapshot;

/// Why a value is not an `ISnapshot`: where (`menu[2]` for a field missing
/// there, `menu[2].visible` for one of the wrong type, or `.` for the value
/// itself) and what serde said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path == "." {
            write!(f, "the snapshot: {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SnapshotError {}

/// Reads an `ISnapshot`. `menu` is required; `pageTitle` absent or `null`
/// is `None`; `event` defaults to `"click"`, `title`/`desc` to `""`,
/// `islands`/`generics`/`dirty` to `[]`, `noReload` to false; unknown
/// fields are ignored (and not descended into). The snapshot's types are
/// not recursive, so reading goes at most five levels deep whatever the input.
pub fn decode_snapshot<'de, D: Deserializer<'de>>(d: D) -> Result<Snapshot, SnapshotError>
where
    D::Error: fmt::Display,
{
    serde_path_to_error::deserialize(d).map_err(|e| SnapshotError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

impl Snapshot {
    /// `ISnapshot` as JSON text.
    pub fn to_json(&self) -> String {
        // Cannot fail: every key is a string and every value plain data.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads an `ISnapshot` from JSON text (see [`decode_snapshot`]): parsed
    /// into a `serde_json::Value` first, so the module carries one copy of
    /// the snapshot's decoder (over a `Value`) rather than one per reader.
    pub fn from_json(text: &str) -> Result<Snapshot, SnapshotError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| SnapshotError {
            path: ".".into(),
            message: e.to_string(),
        })?;
        decode_snapshot(&value)
    }
}

#[cfg(test)]
mod tests;

// proptest pulls getrandom, which does not build for wasm32-unknown-unknown.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod props;
