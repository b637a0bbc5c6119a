use serde::{Deserialize, Serialize};

/// What one gathered element told us, in document order. Produced by the DOM
/// gatherer (or a test) as a JSON array per node; see `gather.js`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct RawNode(
    /// Bit flags, see the `FLAG_*` constants.
    pub u32,
    /// Indices (into the node list) of the islands this node sits inside.
    pub Vec<usize>,
    /// data-e2e-kind
    pub Option<String>,
    /// data-e2e-id
    pub Option<String>,
    /// data-e2e-event
    pub Option<String>,
    /// data-e2e-title
    pub Option<String>,
    /// data-e2e-desc
    pub Option<String>,
    /// data-e2e-pagetitle
    pub Option<String>,
    /// role (explicit, else implicit from the tag)
    pub Option<String>,
    /// accessible name
    pub Option<String>,
    /// aria-label
    pub Option<String>,
);

impl RawNode {
    pub const FLAG_DIRTY: u32 = 1;
    pub const FLAG_NORELOAD: u32 = 2;
    /// An interactive element (link, button, form control, interactive role…).
    pub const FLAG_INTERACTIVE: u32 = 4;
    pub const FLAG_ENABLED: u32 = 8;
    pub const FLAG_VISIBLE: u32 = 16;

    pub fn has(&self, flag: u32) -> bool {
        self.0 & flag != 0
    }
}

/// `ISnapshot` (baseline §2).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub page_title: Option<String>,
    pub menu: Vec<MenuItem>,
    #[serde(default)]
    pub islands: Vec<Island>,
    #[serde(default)]
    pub generics: Vec<Generic>,
    #[serde(default)]
    pub dirty: Vec<String>,
    #[serde(default)]
    pub no_reload: bool,
}

/// `IMenuItem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MenuItem {
    pub id: String,
    #[serde(default = "click")]
    pub event: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub desc: String,
    pub enabled: bool,
    pub visible: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambiguous: bool,
}

fn click() -> String {
    "click".to_string()
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Island {
    pub id: String,
    pub slots: Vec<IslandSlot>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IslandSlot {
    pub name: String,
    pub id: String,
    pub resolved: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Generic {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: String,
    pub name: String,
}

/// `IEscape`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Escape {
    #[serde(rename = "type")]
    pub kind: String,
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
