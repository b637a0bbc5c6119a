//! `IInstallPlayableOptions`, checked once at install: wrong types are clear
//! TypeErrors at install time rather than surprises at the first request.
//!
//! The rules are here, pure and natively tested: [`check`] takes the
//! [`OptionFacts`] the web side reads from the options object (each option
//! once, a getter's throw recorded; `islandSlots` and `allowedOrigins`
//! decoded from their JSON text, within the bounds, into [`input`]'s
//! types) and returns the
//! checked [`Options`] or the first problem, in the documented order.
//! `createSurface` checks its `root`, `window` and `allowedOrigins` with
//! the same rules.

use std::fmt;

use sense::IslandSlots;

pub mod input;
#[cfg(target_arch = "wasm32")]
pub(crate) mod web;

// Native only: proptest does not build for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use input::{IslandInput, OriginsInput, SlotsInput};

/// One option as read from its object.
#[derive(Debug, Clone, PartialEq)]
pub enum Read<T> {
    /// `undefined` or `null` (or no object to read it from).
    Absent,
    /// Reading it threw (a getter that throws).
    Threw,
    Value(T),
}

impl<T> Read<T> {
    /// The value, `None` when absent; `Err` names the option whose read threw.
    fn get(self, name: &'static str) -> Result<Option<T>, OptionsError> {
        match self {
            Read::Absent => Ok(None),
            Read::Threw => Err(OptionsError::Threw(name)),
            Read::Value(v) => Ok(Some(v)),
        }
    }
}

/// What the checks know of a JS value: the value itself (`H`, a handle the
/// checks never look into) and the facts they decide on.
#[derive(Debug, Clone, PartialEq)]
pub struct Given<H> {
    pub value: H,
    /// `typeof value === "object"` (arrays included, functions not).
    pub is_object: bool,
    pub is_function: bool,
    /// `value.nodeType`, when it is a number.
    pub node_type: Option<f64>,
    /// `typeof value.postMessage === "function"`: how a window is told
    /// (duck-typed, so a window of another realm counts).
    pub posts_messages: bool,
}

/// The scan root as read, with the windows it points to.
#[derive(Debug, Clone, PartialEq)]
pub struct RootFacts<H> {
    pub root: Given<H>,
    /// `root.defaultView` (a Document's window), when not nullish.
    pub own_view: Option<H>,
    /// `root.ownerDocument.defaultView` (a node's window), when not nullish.
    pub owner_view: Option<H>,
    /// `root.host` is an object: what tells a ShadowRoot from the other
    /// DocumentFragments (which share its `nodeType`, 11).
    pub has_host: bool,
}

/// A data option (`islandSlots`, `allowedOrigins`) as read.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFacts<T> {
    pub is_object: bool,
    /// `Array.isArray(value)`.
    pub is_array: bool,
    /// Its decoding; `Err` when it is not plain data (a function, a DOM
    /// node or a proxy inside, a getter that throws, a cycle) or out of
    /// the bounds.
    pub data: Result<T, DataError>,
}

/// Why a data option was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// Not plain data: why.
    NotData(String),
    /// Its JSON text is out of the bounds (`playable::bounds`): which one.
    OutOfBounds(String),
}

impl From<&str> for DataError {
    fn from(why: &str) -> Self {
        Self::NotData(why.into())
    }
}

/// Everything [`check`] decides on, read once from the options object.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionFacts<H> {
    /// The options argument is `undefined` or `null`.
    pub absent: bool,
    /// The options argument is an object (a function is not).
    pub is_object: bool,
    pub root: Read<RootFacts<H>>,
    /// `globalThis.document`, the default root.
    pub document: Read<RootFacts<H>>,
    pub window: Read<Given<H>>,
    /// `options.window.document` when `window` is given (`Absent`
    /// otherwise): the default root, and the document a `root` given with
    /// it must be of. A stand-in window (an object with `postMessage` and no
    /// `document`) has none: then the global document is the default and
    /// any root is taken as asked.
    pub window_document: Read<RootFacts<H>>,
    /// `globalThis`, the last resort for the window.
    pub global: Given<H>,
    pub capture: Read<Given<H>>,
    pub ports: Read<Given<H>>,
    /// `ports.sense`, `ports.bot`, `ports.bom`.
    pub port: [Read<Given<H>>; 3],
    pub island_slots: Read<DataFacts<SlotsInput>>,
    pub allowed_origins: Read<DataFacts<OriginsInput>>,
}

/// The port names, in the order of [`OptionFacts::port`].
pub const PORTS: [&str; 3] = ["sense", "bot", "bom"];

/// The checked options.
#[derive(Debug, Clone, PartialEq)]
pub struct Options<H> {
    pub root: H,
    pub window: H,
    pub capture: Option<H>,
    pub island_slots: IslandSlots,
    /// Copied at install: later changes to the caller's array change nothing.
    pub allowed_origins: Vec<String>,
    pub sense: Option<H>,
    pub bot: Option<H>,
    pub bom: Option<H>,
}

/// Why `installPlayable` (or `createSurface`) refuses its options. The
/// message (its `Display`) names the option and what it must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsError {
    NotAnObject,
    /// Reading `options.{0}` threw.
    Threw(&'static str),
    NoDocument,
    RootNotANode,
    NoWindow,
    NotAWindow,
    /// Reading `options.window.document` threw (a window of another origin).
    WindowDocumentThrew,
    /// `options.root` is no node of `options.window`'s document.
    RootNotInWindow,
    CaptureNotAFunction,
    PortsNotAnObject,
    /// `options.ports.{0}` is not an object.
    PortNotAnObject(&'static str),
    SlotsNotAnObject,
    /// `islandSlots` holds something that is not plain data.
    SlotsNotData(String),
    /// `islandSlots[{0}]` is not an object.
    IslandNotAnObject(String),
    /// A slot spec is neither `{ ariaLabel }` nor `{ role, name }` (sense's message).
    BadSlot(String),
    OriginsNotAnArray,
    OriginNotAString,
    /// `options.{0}` is out of the bounds: which one.
    OutOfBounds(&'static str, String),
}

use sense::json_quote as quote;

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAnObject => f.write_str("installPlayable(options) takes an options object"),
            Self::Threw(name) => write!(f, "reading options.{name} threw"),
            Self::NoDocument => f.write_str("no document to scan: pass options.root"),
            Self::RootNotANode => {
                f.write_str("options.root must be a Document, a ShadowRoot or an Element")
            }
            Self::NoWindow => f.write_str("no window: pass options.window"),
            Self::NotAWindow => f.write_str("options.window must be a Window"),
            Self::WindowDocumentThrew => f.write_str(
                "reading options.window.document threw (a window of another origin cannot be scanned)",
            ),
            Self::RootNotInWindow => f.write_str(
                "options.root is not in options.window's document (leave root out to scan that document)",
            ),
            Self::CaptureNotAFunction => {
                f.write_str("options.captureScreenshot must be a function (scope) => image")
            }
            Self::PortsNotAnObject => {
                f.write_str("options.ports must be an object { sense?, bot?, bom? }")
            }
            Self::PortNotAnObject(name) => write!(f, "options.ports.{name} must be an object"),
            Self::SlotsNotAnObject => f.write_str(
                "options.islandSlots must be an object: { [islandId]: { [slotName]: spec } }",
            ),
            Self::SlotsNotData(why) => write!(f, "options.islandSlots is not plain data: {why}"),
            Self::IslandNotAnObject(island) => {
                write!(
                    f,
                    "islandSlots[{}] must be an object of slots",
                    quote(island)
                )
            }
            Self::BadSlot(message) => f.write_str(message),
            Self::OriginsNotAnArray => {
                f.write_str("options.allowedOrigins must be an array of origin strings")
            }
            Self::OriginNotAString => {
                f.write_str("options.allowedOrigins must contain only strings")
            }
            Self::OutOfBounds(name, why) => write!(f, "options.{name} is out of bounds: {why}"),
        }
    }
}

impl std::error::Error for OptionsError {}

/// Element, Document, ShadowRoot: the roots a scan can start from
/// (`nodeType`, truncated, so a node of any realm counts; a
/// DocumentFragment is one only when it has a host, as a ShadowRoot does:
/// a plain fragment or a template's content is no page an agent could act on).
fn is_root(node_type: Option<f64>, has_host: bool) -> bool {
    matches!(node_type.map(f64::trunc), Some(t) if t == 1.0 || t == 9.0 || (t == 11.0 && has_host))
}

/// The window a root belongs to: a Document's own, else its owner document's.
fn window_of<H>(root: &Given<H>, own_view: Option<H>, owner_view: Option<H>) -> Option<H> {
    if root.node_type.map(f64::trunc) == Some(9.0) {
        own_view
    } else {
        owner_view
    }
}

/// The window these options name, read as far as they can be: the one
/// [`check`] chooses when they are valid (`window`, else the root's, else
/// the global one), and otherwise the best guess the readable ones give.
/// How a second install finds the window's instance before any check, so
/// that it returns it whatever the options are.
pub fn named_window<H: Clone>(facts: &OptionFacts<H>) -> Option<H> {
    match &facts.window {
        Read::Value(w) if w.posts_messages => return Some(w.value.clone()),
        Read::Value(_) => return None,
        _ => {}
    }
    let root = match &facts.root {
        Read::Value(root) => Some(root),
        Read::Absent => match &facts.document {
            Read::Value(document) => Some(document),
            _ => None,
        },
        Read::Threw => None,
    };
    root.and_then(|r| window_of(&r.root, r.own_view.clone(), r.owner_view.clone()))
        .or_else(|| {
            facts
                .global
                .posts_messages
                .then(|| facts.global.value.clone())
        })
}

/// Whether a window still holds the document an instance was built for:
/// `built_for` is `window.document` as read at install, `now` as read now.
/// A frame's window object (its WindowProxy) stays the same when the frame
/// reloads or navigates, and even its global when it leaves its first
/// about:blank for a same-origin page; its document never does. So the
/// document, not the window, tells whether the instance still serves the
/// page: another document, or one that now throws (the frame went to
/// another origin), is another page. A stand-in window has no document
/// (`Absent` both times) and keeps its instance; so does a window whose
/// document threw at install as it throws now (nothing tells them apart).
pub fn holds_document<H: PartialEq>(built_for: &Read<H>, now: &Read<H>) -> bool {
    match (built_for, now) {
        (Read::Value(then), Read::Value(now)) => then == now,
        (Read::Absent, Read::Absent) | (Read::Threw, Read::Threw) => true,
        _ => false,
    }
}

/// The checks, in order: the options object, `root` (default: `window`'s
/// document when `window` is given and has one, else the global
/// document), `window` (default: the root's, else the global window; a
/// `root` given with a `window` that has a document must be of that
/// document's window, or of no window at all),
/// `captureScreenshot`, `ports`, `islandSlots`, `allowedOrigins`, then each
/// port. The first problem is the answer.
pub fn check<H: PartialEq + Clone>(facts: OptionFacts<H>) -> Result<Options<H>, OptionsError> {
    if !facts.absent && !facts.is_object {
        return Err(OptionsError::NotAnObject);
    }
    let root_given = !matches!(facts.root, Read::Absent);
    // A window given: its own document, and `held_to`, the window a given
    // root must be of (that document's). A window of another origin throws
    // on its document (it is then its own `held_to`); a stand-in window
    // (`postMessage` and listeners, no `document`) has neither.
    let named = match &facts.window {
        Read::Value(w) if w.posts_messages => Some(&w.value),
        _ => None,
    };
    let (window_document, held_to) = match (facts.window_document, named) {
        (Read::Value(d), Some(w)) => {
            let view = window_of(&d.root, d.own_view.clone(), d.owner_view.clone());
            let held_to = view.unwrap_or_else(|| w.clone());
            (Read::Value(d), Some(held_to))
        }
        (Read::Threw, Some(w)) => (Read::Threw, Some(w.clone())),
        _ => (Read::Absent, None),
    };
    let RootFacts {
        root,
        own_view,
        owner_view,
        has_host,
    } = match facts.root.get("root")? {
        Some(root) => root,
        // The window's own document, not this one's: a window scanned in
        // another's document would click there and reload here.
        None => match window_document {
            Read::Value(document) => document,
            Read::Threw => return Err(OptionsError::WindowDocumentThrew),
            // No window, or one with no document: the seed's default.
            Read::Absent => facts
                .document
                .get("document")?
                .ok_or(OptionsError::NoDocument)?,
        },
    };
    if !is_root(root.node_type, has_host) {
        return Err(OptionsError::RootNotANode);
    }
    let window = match facts.window.get("window")? {
        Some(w) if w.posts_messages => {
            // Scanned in one window, marked, bridged and reloaded in
            // another: refused rather than half of each. A root of no
            // window at all (a DOMParser document) is scanned as asked,
            // and so is any root with a stand-in window (no document to
            // hold it to).
            if root_given
                && matches!((window_of(&root, own_view, owner_view), held_to),
                    (Some(view), Some(held_to)) if view != held_to)
            {
                return Err(OptionsError::RootNotInWindow);
            }
            w.value
        }
        Some(_) => return Err(OptionsError::NotAWindow),
        None => match window_of(&root, own_view, owner_view) {
            Some(view) => view,
            None if facts.global.posts_messages => facts.global.value,
            None => return Err(OptionsError::NoWindow),
        },
    };
    let capture = match facts.capture.get("captureScreenshot")? {
        Some(c) if c.is_function => Some(c.value),
        Some(_) => return Err(OptionsError::CaptureNotAFunction),
        None => None,
    };
    if let Some(ports) = facts.ports.get("ports")? {
        if !ports.is_object {
            return Err(OptionsError::PortsNotAnObject);
        }
    }
    let island_slots = match facts.island_slots.get("islandSlots")? {
        Some(slots) => island_slots(slots)?,
        None => IslandSlots::default(),
    };
    let allowed_origins = match facts.allowed_origins.get("allowedOrigins")? {
        Some(origins) => allowed_origins(origins)?,
        None => Vec::new(),
    };
    let [sense, bot, bom] = facts.port;
    Ok(Options {
        sense: port(sense, "ports.sense", "sense")?,
        bot: port(bot, "ports.bot", "bot")?,
        bom: port(bom, "ports.bom", "bom")?,
        root: root.value,
        window,
        capture,
        island_slots,
        allowed_origins,
    })
}

/// `options.ports.{name}`: absent, or an object.
fn port<H>(
    read: Read<Given<H>>,
    path: &'static str,
    name: &'static str,
) -> Result<Option<H>, OptionsError> {
    match read.get(path)? {
        Some(p) if p.is_object => Ok(Some(p.value)),
        Some(_) => Err(OptionsError::PortNotAnObject(name)),
        None => Ok(None),
    }
}

/// `{ [islandId]: { [slotName]: { ariaLabel } | { role, name } } }`; the
/// slot rule is sense's ([`IslandSlots::parse_spec`]).
fn island_slots(facts: DataFacts<SlotsInput>) -> Result<IslandSlots, OptionsError> {
    if !facts.is_object {
        return Err(OptionsError::SlotsNotAnObject);
    }
    let SlotsInput(islands) = facts.data.map_err(|e| match e {
        DataError::NotData(why) => OptionsError::SlotsNotData(why),
        DataError::OutOfBounds(why) => OptionsError::OutOfBounds("islandSlots", why),
    })?;
    let mut out = Vec::with_capacity(islands.len());
    for (island, slots) in islands {
        let IslandInput::Slots(slots) = slots else {
            return Err(OptionsError::IslandNotAnObject(island));
        };
        let mut list = Vec::with_capacity(slots.len());
        for (slot, spec) in slots {
            let spec =
                IslandSlots::parse_spec(&island, &slot, spec.aria_label, spec.role, spec.name)
                    .map_err(|e| OptionsError::BadSlot(e.0))?;
            list.push((slot, spec));
        }
        out.push((island, list));
    }
    Ok(IslandSlots { islands: out })
}

fn allowed_origins(facts: DataFacts<OriginsInput>) -> Result<Vec<String>, OptionsError> {
    if !facts.is_array {
        return Err(OptionsError::OriginsNotAnArray);
    }
    // An array that is not plain data holds something that is no string.
    let OriginsInput(list) = facts.data.map_err(|e| match e {
        DataError::NotData(_) => OptionsError::OriginNotAString,
        DataError::OutOfBounds(why) => OptionsError::OutOfBounds("allowedOrigins", why),
    })?;
    list.into_iter()
        .map(|o| o.ok_or(OptionsError::OriginNotAString))
        .collect()
}
