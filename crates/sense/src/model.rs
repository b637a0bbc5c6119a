use serde::{Deserialize, Deserializer, Serialize};

/// What one gathered element told us, in document order: the DOM gatherer's
/// facts, borrowed from the one text it sent (see `wire.rs` and `gather.js`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RawNode<'a> {
    /// Bit flags, see the `FLAG_*` constants.
    pub flags: u32,
    /// For an island: one past the index of its last descendant (descendants
    /// follow their island contiguously in document order). Unused otherwise.
    pub end: usize,
    /// data-e2e-kind
    pub kind: Option<&'a str>,
    /// data-e2e-id
    pub id: Option<&'a str>,
    /// data-e2e-event
    pub event: Option<&'a str>,
    /// data-e2e-title
    pub title: Option<&'a str>,
    /// data-e2e-desc
    pub desc: Option<&'a str>,
    /// data-e2e-pagetitle
    pub page_title: Option<&'a str>,
    /// role (explicit, else implicit from the tag)
    pub role: Option<&'a str>,
    /// accessible name (only where the menu can use it: generics, slot candidates)
    pub name: Option<&'a str>,
    /// aria-label
    pub aria_label: Option<&'a str>,
}

impl RawNode<'_> {
    pub const FLAG_DIRTY: u32 = 1;
    pub const FLAG_NORELOAD: u32 = 2;
    /// An interactive element (link, button, form control, interactive role…).
    pub const FLAG_INTERACTIVE: u32 = 4;
    pub const FLAG_ENABLED: u32 = 8;
    pub const FLAG_VISIBLE: u32 = 16;

    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

/// `ISnapshot` (baseline §2), with its wire names. Read back (what a JS
/// sense port returns) with the defaults of [`crate::decode_snapshot`]:
/// `islands`/`generics`/`dirty` `[]`, `noReload` false, unknown fields ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// `null` when no element gives one (always written).
    #[serde(default)]
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
    /// Absent or `null` reads as `"click"`.
    #[serde(default = "click", deserialize_with = "or_click")]
    pub event: String,
    /// Absent or `null` reads as `""`.
    #[serde(default, deserialize_with = "or_default")]
    pub title: String,
    #[serde(default, deserialize_with = "or_default")]
    pub desc: String,
    pub enabled: bool,
    pub visible: bool,
    /// Slots only (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<String>,
    /// Listed once when several elements claim the id; written only when true.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambiguous: bool,
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

/// An unmarked interactive element, `{ ref, role, name }` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generic {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: String,
    pub name: String,
    /// Whether the element is visible (the menu's rule). Never on the wire:
    /// a windowed snapshot leaves hidden generics out and counts them.
    /// Read back as `true`.
    #[serde(skip, default = "yes")]
    pub visible: bool,
}

impl Default for Generic {
    fn default() -> Self {
        Self {
            reference: String::new(),
            role: String::new(),
            name: String::new(),
            visible: true,
        }
    }
}

/// `IEscape`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Escape {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn yes() -> bool {
    true
}

fn click() -> String {
    "click".to_string()
}

/// A string field where `null` means "use the default".
fn or_default<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

fn or_click<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_else(click))
}

/// The reload markers beyond a scan root (`dom::beyond_root`): `dirty` and
/// `noReload` as a snapshot holds them, and whether the frame bounds left
/// same-origin frames unread (their unsaved work unknown).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Beyond {
    pub dirty: Vec<String>,
    pub no_reload: bool,
    pub unread: Option<FrameBound>,
}

/// The bound of [`crate::rules::FRAMES_MAX`] frames or
/// [`crate::rules::FRAME_DEPTH`] levels that a read beyond the scan root
/// reached with same-origin frames left to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameBound {
    Count,
    Depth,
}

impl FrameBound {
    /// Why a reload is refused when this bound left frames unread (the
    /// numbers are [`crate::rules`]'; a test keeps them in step).
    pub fn reason(self) -> &'static str {
        match self {
            Self::Count => {
                "too many frames to check for unsaved work: more than 64 same-origin frames"
            }
            Self::Depth => "too many frames to check for unsaved work: same-origin frames nested more than 8 levels deep",
        }
    }
}

/// Why a DOM read of the menu failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GatherError {
    /// A DOM method or getter the read calls threw (the root is checked at
    /// install, so this is a page script that replaced one on a prototype):
    /// what it threw.
    Threw(String),
    /// The gather's answer was not what sense's wire format says.
    Malformed,
}

impl std::fmt::Display for GatherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Threw(why) => write!(f, "sense: the page threw while reading the DOM: {why}"),
            Self::Malformed => f.write_str("sense: malformed gather data"),
        }
    }
}

impl std::error::Error for GatherError {}
