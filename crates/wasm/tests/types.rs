//! Types tied to the code: the code unions of www/index.d.ts are exactly
//! the wire names of the Rust enums. Each enum's variants are read from
//! its source, so a variant added there fails this test until it is also
//! listed below (which gives its wire name) and in the d.ts union.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use playable::ErrorCode;
use surface::{BusinessCode, ProtocolCode};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The string literals of `export type {name} = | "A" | "B";` in the d.ts.
fn union(dts: &str, name: &str) -> BTreeSet<String> {
    let start = dts
        .find(&format!("export type {name} ="))
        .unwrap_or_else(|| panic!("www/index.d.ts has no {name}"));
    let body = &dts[start..];
    let body = &body[..body.find(';').expect("the union ends")];
    body.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The variant names of `pub enum {name}` in the `.rs` files under `dir`
/// (doc comments and attributes skipped).
fn variants(dir: &Path, name: &str) -> BTreeSet<String> {
    let mut files = vec![dir.to_path_buf()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("a source folder").flatten() {
                files.push(entry.path());
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = read(&path);
        let Some(at) = text.find(&format!("pub enum {name} {{")) else {
            continue;
        };
        let body = &text[at..];
        let body = &body[body.find('{').expect("a body") + 1..body.find("\n}").expect("the end")];
        return body
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#["))
            .map(|l| {
                l.trim_end_matches(',')
                    .split([' ', '(', '{'])
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
    }
    panic!("no `pub enum {name}` under {}", dir.display());
}

fn debug_names<T: std::fmt::Debug>(list: &[T]) -> BTreeSet<String> {
    list.iter().map(|v| format!("{v:?}")).collect()
}

/// Every variant; its wire name comes from the enum's own `as_str`.
const PLAYABLE: [ErrorCode; 12] = [
    ErrorCode::BadRequest,
    ErrorCode::UnknownCmd,
    ErrorCode::NotLive,
    ErrorCode::Retired,
    ErrorCode::PageMismatch,
    ErrorCode::NotInMenu,
    ErrorCode::Ambiguous,
    ErrorCode::NotActionable,
    ErrorCode::UnsupportedEvent,
    ErrorCode::EscapeNotAllowed,
    ErrorCode::DispatchFailed,
    ErrorCode::Internal,
];

const PROTOCOL: [ProtocolCode; 7] = [
    ProtocolCode::InvalidRequest,
    ProtocolCode::SessionExpired,
    ProtocolCode::SessionRevoked,
    ProtocolCode::ReplayDetected,
    ProtocolCode::RateLimited,
    ProtocolCode::CapabilityNotExposed,
    ProtocolCode::InternalError,
];

const BUSINESS: [BusinessCode; 6] = [
    BusinessCode::ActionNotFound,
    BusinessCode::InvalidParams,
    BusinessCode::ActionUnavailable,
    BusinessCode::PermissionDenied,
    BusinessCode::ExpectationFailed,
    BusinessCode::ExecutionFailed,
];

fn wire(names: impl Iterator<Item = &'static str>) -> BTreeSet<String> {
    names.map(str::to_string).collect()
}

#[test]
fn the_lists_here_hold_every_variant() {
    let crates = root().join("crates");
    assert_eq!(
        debug_names(&PLAYABLE),
        variants(&crates.join("playable/src"), "ErrorCode")
    );
    assert_eq!(
        debug_names(&PROTOCOL),
        variants(&crates.join("surface/src"), "ProtocolCode")
    );
    assert_eq!(
        debug_names(&BUSINESS),
        variants(&crates.join("surface/src"), "BusinessCode")
    );
}

#[test]
fn the_dts_code_unions_are_the_rust_wire_names() {
    let dts = read(&root().join("www/index.d.ts"));
    assert_eq!(
        union(&dts, "TPlayableErrorCode"),
        wire(PLAYABLE.iter().map(|c| c.as_str()))
    );
    assert_eq!(
        union(&dts, "TSurfaceProtocolErrorCode"),
        wire(PROTOCOL.iter().map(|c| c.as_str()))
    );
    // EXECUTION_FAILED (a page's execute that misbehaves) is one of them.
    let business = wire(BUSINESS.iter().map(|c| c.as_str()));
    assert_eq!(union(&dts, "TSurfaceBusinessErrorCode"), business);
}

#[test]
fn the_readers_see_what_is_there() {
    let dts = "export type T =\n  | \"A\"\n  | \"B\";\nexport type U = \"C\";";
    assert_eq!(
        union(dts, "T"),
        BTreeSet::from(["A", "B"].map(String::from))
    );
    assert_eq!(union(dts, "U"), BTreeSet::from(["C"].map(String::from)));
    let dir = std::env::temp_dir().join(format!("types-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    std::fs::write(
        dir.join("codes.rs"),
        "/// Codes.\n#[derive(Debug)]\npub enum Code {\n    /// First.\n    A,\n    #[default]\n    B(u8),\n    C { x: u8 },\n}\n",
    )
    .expect("written");
    assert_eq!(
        variants(&dir, "Code"),
        BTreeSet::from(["A", "B", "C"].map(String::from))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
