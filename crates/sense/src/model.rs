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

/// `ISnapshot` (baseline §2). JSON in and out by hand (`json.rs`): serde's
/// derives cost more wasm than the whole snapshot builder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    pub page_title: Option<String>,
    pub menu: Vec<MenuItem>,
    pub islands: Vec<Island>,
    pub generics: Vec<Generic>,
    pub dirty: Vec<String>,
    pub no_reload: bool,
}

/// `IMenuItem`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MenuItem {
    pub id: String,
    pub event: String,
    pub title: String,
    pub desc: String,
    pub enabled: bool,
    pub visible: bool,
    /// Slots only.
    pub island: Option<String>,
    /// Listed once when several elements claim the id; `true` only in JSON.
    pub ambiguous: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Island {
    pub id: String,
    pub slots: Vec<IslandSlot>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct IslandSlot {
    pub name: String,
    pub id: String,
    pub resolved: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generic {
    /// `ref` in JSON.
    pub reference: String,
    pub role: String,
    pub name: String,
    /// Visible by the rule menu items use (not in JSON: issue 13's window
    /// leaves hidden generics out instead).
    pub visible: bool,
}

/// `IEscape`.
#[derive(Debug, Clone, PartialEq)]
pub struct Escape {
    /// `type` in JSON.
    pub kind: &'static str,
    pub allowed: bool,
    pub reason: Option<String>,
}
