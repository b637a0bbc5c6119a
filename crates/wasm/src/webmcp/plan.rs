//! What a WebMCP publication publishes, decided from the owner's answer to
//! a read (a snapshot uplink, a describe response): which menu items or
//! Surface capabilities become tools, under which names, with which
//! description, input schema and annotations; which registered tools a new
//! plan withdraws or adds; and the requests a publication sends. Pure:
//! the answers are decoded with serde (from bounded JSON text on the web,
//! and in the tests), the tools are written back with serde-wasm-bindgen.
//!
//! Naming (docs/mcp.md):
//! - an id that is already a valid WebMCP tool name (`[A-Za-z0-9_.-]{1,128}`,
//!   the rule Chromium enforces) is the name;
//! - any other id becomes `{prefix}-{hash}`: every other character replaced
//!   by `_`, cut to 119 characters, then `-` and the 8 hex digits of
//!   [`name_hash`] over its UTF-8 bytes (64-bit FNV-1a, folded to 32 bits),
//!   so the same id always gets the same name and two ids that sanitise
//!   alike still differ;
//! - should a name still be taken (a declared id equal to another's
//!   sanitised form, or a hash clash), `-2`, `-3`, … is appended in document
//!   order.

use std::borrow::Cow;
use std::hash::Hasher;

use fnv::FnvHasher;

use sense::{is_generic_ref, Index};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
// The tests (`use super::*`) build their answers with `json!`.
#[cfg(all(test, not(target_arch = "wasm32")))]
use serde_json::json;
use surface::crossing::object;

/// Whose tools: a playable instance's runnable menu, or a Surface's
/// capabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Menu,
    Capabilities,
}

/// One tool as registered (`execute` is added by the web side, bound to `id`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    /// The menu id or capability id a call runs.
    #[serde(skip)]
    pub id: String,
    pub description: String,
    pub input_schema: Value,
    pub annotations: Annotations,
}

/// WebMCP's tool annotations (hints to the agent and the browser).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// The tool changes nothing: a Surface capability declared `readOnly`.
    #[serde(skip_serializing_if = "is_false")]
    pub read_only_hint: bool,
    /// Its results carry text the page wrote: every tool here (a run's
    /// uplink echoes page-declared ids and words a page's throw; an
    /// invoke's result carries the page's value and its `after` evidence).
    #[serde(skip_serializing_if = "is_false")]
    pub untrusted_content_hint: bool,
    /// Running it has consequences a person must approve: a Surface
    /// capability of risk `"high"`.
    #[serde(skip_serializing_if = "is_false")]
    pub consequential_hint: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The tool-name hash: 64-bit FNV-1a (the `fnv` crate's `FnvHasher`, the
/// module's one hash function) over `bytes`, xor-folded to 32 bits (high
/// half ^ low half: FNV's low bits mix only with low bits) so that a name
/// keeps its 8 hex digits. Pinned by tests/webmcp-plan.test.mjs;
/// mcp/names.mjs computes the same.
pub fn name_hash(bytes: &[u8]) -> u32 {
    let mut hasher = FnvHasher::default();
    hasher.write(bytes);
    let hash = hasher.finish();
    ((hash >> 32) ^ hash) as u32
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'
}

/// A name Chromium's WebMCP accepts as it is: `[A-Za-z0-9_.-]{1,128}`.
pub fn is_tool_name(s: &str) -> bool {
    (1..=128).contains(&s.len()) && s.chars().all(name_char)
}

/// The name for an id that is not a valid tool name (any id, in fact):
/// at most 119 characters, each outside the name set replaced by `_`,
/// then `-` and the 8 hex digits of [`name_hash`] over the id's UTF-8 bytes.
pub fn sanitised_name(id: &str) -> String {
    let mut name: String = id
        .chars()
        .take(119)
        .map(|c| if name_char(c) { c } else { '_' })
        .collect();
    name.push_str(&format!("-{:08x}", name_hash(id.as_bytes())));
    name
}

/// Unique tool names for `ids`, in order: valid ids keep theirs first,
/// the others get their sanitised name, with `-2`, `-3`, … while taken.
/// `elsewhere` is taken from the start: the names the page's other
/// publications hold on the same model context (its menu beside its
/// Surface), which WebMCP would refuse as duplicates.
pub fn names(ids: &[&str], elsewhere: &[String]) -> Vec<String> {
    // A set: the names taken so far (the positions are not used).
    let mut taken = Index::default();
    for name in elsewhere {
        taken.insert(Cow::Borrowed(name.as_str()), 0);
    }
    let mut out: Vec<Option<String>> = ids
        .iter()
        .map(|id| (is_tool_name(id) && taken.insert(Cow::Borrowed(*id), 0)).then(|| id.to_string()))
        .collect();
    for (slot, id) in out.iter_mut().zip(ids) {
        if slot.is_some() {
            continue;
        }
        let base = sanitised_name(id);
        let mut name = base.clone();
        let mut n = 2u32;
        while taken.get(&name).is_some() {
            let suffix = format!("-{n}");
            // `base` is ASCII: any byte index is a character boundary.
            let keep = base.len().min(128 - suffix.len());
            name = format!("{}{suffix}", &base[..keep]);
            n += 1;
        }
        taken.insert(Cow::Owned(name.clone()), 0);
        *slot = Some(name);
    }
    out.into_iter().flatten().collect()
}

/// JavaScript's `String.prototype.trim` white space: Unicode White_Space
/// less U+0085, plus U+FEFF.
fn js_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}'))
}

use sense::json_quote as quote;

/// A tool's description: the title and description the page wrote, plus
/// the id when the name differs from it; without either, a fallback that
/// names the id (WebMCP requires a non-empty description).
fn describe(kind: Kind, id: &str, title: &str, desc: &str, event: &str, name: &str) -> String {
    let qid = quote(id);
    let (title, desc) = (js_trim(title), js_trim(desc));
    let text = if !title.is_empty() && !desc.is_empty() {
        format!("{title}: {desc}")
    } else {
        format!("{title}{desc}")
    };
    match (text.is_empty(), kind) {
        (true, Kind::Menu) => format!("Menu item {qid} ({event})"),
        (true, Kind::Capabilities) => format!("Capability {qid}"),
        (false, _) if name == id => text,
        (false, Kind::Menu) => format!("{text} (menu item {qid})"),
        (false, Kind::Capabilities) => format!("{text} (capability {qid})"),
    }
}

/// The input schemas per event kind, as JSON text: parsed when needed
/// (the JSON parser is in the module anyway; building the values in code
/// costs more).
const CLICK: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;
const INPUT: &str = r#"{"type":"object","properties":{"value":{"description":"Text for a text field or textarea; true or false for a checkbox or radio; an option value, or a list of them, for a select.","anyOf":[{"type":"string"},{"type":"boolean"},{"type":"array","items":{"type":"string"}}]}},"required":["value"],"additionalProperties":false}"#;
const SCROLL: &str = r#"{"type":"object","properties":{"to":{"type":"string","enum":["start","center","end"],"description":"Scroll the item into this position."},"by":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false,"description":"Scroll by this many CSS pixels."}},"additionalProperties":false,"minProperties":1}"#;
const DRAG: &str = r#"{"type":"object","properties":{"to":{"type":"string","minLength":1,"description":"The menu id of the item to drop on."}},"required":["to"],"additionalProperties":false}"#;

/// The input schema per event kind (the run payload minus `id`); `None`
/// for an event a run cannot dispatch, which is not published.
pub fn event_schema(event: &str) -> Option<Value> {
    let text = match event {
        "click" => CLICK,
        "input" => INPUT,
        "scroll" => SCROLL,
        "drag" => DRAG,
        _ => return None,
    };
    serde_json::from_str(text).ok()
}

/// What a plan reads of a snapshot uplink.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MenuAnswer {
    pub ok: bool,
    pub payload: Option<MenuPayload>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MenuPayload {
    pub snapshot: Option<MenuSnapshot>,
    /// A hello's answer.
    pub page_id: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MenuSnapshot {
    pub menu: Vec<MenuEntry>,
}

/// A menu item as the snapshot reports it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MenuEntry {
    pub id: String,
    pub event: String,
    pub title: String,
    pub desc: String,
    pub enabled: bool,
    pub visible: bool,
    pub ambiguous: bool,
}

/// What a plan reads of a describe response.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DescribeAnswer {
    pub ok: bool,
    pub result: Option<DescribeResult>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DescribeResult {
    pub capabilities: Vec<Capability>,
    pub unavailable: Vec<Unavailable>,
}

/// A capability as describe reports it.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Capability {
    pub id: String,
    pub title: String,
    pub description: String,
    /// The schema Surface enforces for it.
    pub input: Option<Value>,
    pub risk: Option<String>,
    pub read_only: bool,
}

/// An `unavailable` entry: with a `record`, only that record's row action
/// is unavailable; without, the capability as a whole.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Unavailable {
    pub capability: String,
    pub record: Option<Value>,
}

/// The tools for a snapshot uplink, or `None` to keep what is published
/// (a refused read: RETIRED, PAGE_MISMATCH…): the runnable menu items,
/// enabled, visible, claimed by one element, with an event a run dispatches
/// and an id no run refuses (not a generic ref's shape).
pub fn plan_menu(answer: &MenuAnswer, elsewhere: &[String]) -> Option<Vec<Tool>> {
    if !answer.ok {
        return None;
    }
    let snapshot = answer.payload.as_ref()?.snapshot.as_ref()?;
    let items: Vec<(&MenuEntry, Value)> = snapshot
        .menu
        .iter()
        .filter(|i| {
            i.enabled && i.visible && !i.ambiguous && !i.id.is_empty() && !is_generic_ref(&i.id)
        })
        .filter_map(|i| Some((i, event_schema(&i.event)?)))
        .collect();
    let ids: Vec<&str> = items.iter().map(|(i, _)| i.id.as_str()).collect();
    let tools = names(&ids, elsewhere)
        .into_iter()
        .zip(items)
        .map(|(name, (item, schema))| Tool {
            description: describe(
                Kind::Menu,
                &item.id,
                &item.title,
                &item.desc,
                &item.event,
                &name,
            ),
            name,
            id: item.id.clone(),
            input_schema: schema,
            annotations: Annotations {
                untrusted_content_hint: true,
                ..Annotations::default()
            },
        })
        .collect();
    Some(tools)
}

/// The tools for a describe response: its capabilities (already exposed ∩
/// session scope ∩ registered) less those unavailable as a whole (row
/// actions unavailable for one record stay: that depends on
/// `input.record`), each with the schema Surface enforces; none without a
/// session (a refused describe).
pub fn plan_capabilities(answer: &DescribeAnswer, elsewhere: &[String]) -> Vec<Tool> {
    let Some(result) = answer.result.as_ref().filter(|_| answer.ok) else {
        return Vec::new();
    };
    let whole = |id: &str| {
        result
            .unavailable
            .iter()
            .any(|u| u.record.is_none() && u.capability == id)
    };
    let items: Vec<&Capability> = result
        .capabilities
        .iter()
        .filter(|c| !c.id.is_empty() && !whole(&c.id))
        .collect();
    let ids: Vec<&str> = items.iter().map(|c| c.id.as_str()).collect();
    names(&ids, elsewhere)
        .into_iter()
        .zip(items)
        .map(|(name, c)| Tool {
            description: describe(
                Kind::Capabilities,
                &c.id,
                &c.title,
                &c.description,
                "",
                &name,
            ),
            name,
            id: c.id.clone(),
            input_schema: match &c.input {
                Some(schema @ Value::Object(_)) => schema.clone(),
                _ => object(&mut [("type", "object".into())]),
            },
            annotations: Annotations {
                read_only_hint: c.read_only,
                untrusted_content_hint: true,
                consequential_hint: c.risk.as_deref() == Some("high"),
            },
        })
        .collect()
}

/// How the registered tools follow a new plan: the names to withdraw
/// (gone, or changed in any way), then the tools to register (new, or
/// changed), so a replaced tool can take its name again. Names are unique
/// on each side, so each tool is looked up by name once.
pub fn changes<'p>(registered: &[Tool], planned: &'p [Tool]) -> (Vec<String>, Vec<&'p Tool>) {
    let wanted = ByName::new(planned);
    let withdraw: Vec<String> = registered
        .iter()
        .filter(|r| wanted.get(&r.name) != Some(r))
        .map(|r| r.name.clone())
        .collect();
    let kept = ByName::new(registered);
    let register = planned
        .iter()
        .filter(|p| kept.get(&p.name) != Some(p))
        .collect();
    (withdraw, register)
}

/// Registrations the browser refused (`registerTool` threw, or its promise
/// rejected) do not count: they leave `registered`, so the plan registers
/// them again and their names are free for the page's other publication.
/// Called when a plan is about to be applied: a refused tool is tried again
/// at the next re-read (after a DOM change or a call), never by a re-read
/// of its own, which would loop on a name the browser always refuses.
pub fn drop_refused<R>(registered: &mut Vec<(Tool, R)>, refused: impl Fn(&R) -> bool) {
    registered.retain(|(_, r)| !refused(r));
}

/// Tools looked up by name (sense's string index: one hash table type in
/// the module).
struct ByName<'t> {
    tools: &'t [Tool],
    index: Index<'t>,
}

impl<'t> ByName<'t> {
    fn new(tools: &'t [Tool]) -> Self {
        let mut index = Index::default();
        for (i, t) in tools.iter().enumerate() {
            index.insert(Cow::Borrowed(t.name.as_str()), i);
        }
        Self { tools, index }
    }

    fn get(&self, name: &str) -> Option<&'t Tool> {
        self.index.get(name).map(|i| &self.tools[i])
    }
}

/// At most this long (ms) between a DOM change and the re-read that follows it.
pub const RESYNC_MS: i32 = 50;

/// When a publication re-reads after DOM changes (and after each call): one
/// timer of [`RESYNC_MS`] from the first change of a burst; later changes
/// join it, never postpone it.
#[derive(Debug, Default)]
pub struct Resync {
    pending: bool,
}

impl Resync {
    /// A change was seen: `true` when a timer must start now.
    pub fn change(&mut self) -> bool {
        !std::mem::replace(&mut self.pending, true)
    }

    /// The timer fired: the re-read starts, the next change starts a timer.
    pub fn fired(&mut self) {
        self.pending = false;
    }
}

/// Surface's protocol name, in every request.
const SURFACE: &str = "pling.surface/0.1";

/// The read a publication sends: a snapshot downlink, or a describe of
/// every capability (one record: the tools need none).
pub fn read_request(kind: Kind, request_id: &str, page_id: Option<&str>) -> Value {
    match kind {
        Kind::Menu => object(&mut [
            ("pageId", page_id.into()),
            ("requestId", request_id.into()),
            ("cmd", "snapshot".into()),
            ("payload", Value::Object(Map::new())),
        ]),
        Kind::Capabilities => object(&mut [
            ("protocol", SURFACE.into()),
            ("id", request_id.into()),
            ("method", "describe".into()),
            (
                "input",
                object(&mut [("capabilities", "all".into()), ("limit", 1.into())]),
            ),
        ]),
    }
}

/// The hello a menu publication sends first (it needs the pageId).
pub fn hello_request(request_id: &str) -> Value {
    object(&mut [
        ("pageId", Value::Null),
        ("requestId", request_id.into()),
        ("cmd", "hello".into()),
        ("payload", Value::Object(Map::new())),
    ])
}

/// The answer to a call that raced `stop()`: nothing was run.
pub fn withdrawn(kind: Kind, page_id: Option<&str>, id: &str) -> Value {
    let message = format!(
        "{}: this WebMCP tool was withdrawn; nothing was run",
        quote(id)
    );
    let (head, code) = match kind {
        Kind::Menu => (("pageId", page_id.into()), "NOT_IN_MENU"),
        Kind::Capabilities => (("protocol", SURFACE.into()), "CAPABILITY_NOT_EXPOSED"),
    };
    let id_key = match kind {
        Kind::Menu => "requestId",
        Kind::Capabilities => "id",
    };
    object(&mut [
        head,
        (id_key, "".into()),
        ("ok", false.into()),
        (
            "error",
            object(&mut [("code", code.into()), ("message", message.into())]),
        ),
    ])
}

/// The request-id prefix of a publication: `webmcp-{8 hex digits}-`.
pub fn request_prefix(nonce: u32) -> String {
    format!("webmcp-{nonce:08x}-")
}

// Native only: proptest does not build for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
