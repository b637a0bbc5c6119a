//! Reading the menu afresh through the sense port: the one read that both
//! the state machine (snapshot, escape) and `run` start from.

use crate::envelope::{fail, ErrorCode, Failure};
use crate::ports::Sense;

/// A fresh read; a port failure is `INTERNAL`.
pub(crate) async fn read_menu<S: Sense>(sense: &S) -> Result<sense::Snapshot, Failure> {
    sense
        .snapshot()
        .await
        .map_err(|e| fail(ErrorCode::Internal, format!("reading the menu failed: {e}")))
}
