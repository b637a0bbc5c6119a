//! WebMCP publication (`playable.publishWebMcp()`, `surface.publishWebMcp()`):
//! which menu items or Surface capabilities become tools, under which names,
//! with which description and input schema, planned from the JSON the page
//! answers (a snapshot uplink, a describe response). This part is pure and
//! tested natively; the browser glue (registration, the MutationObserver,
//! sending requests through `handle`) is `webmcp/publication.rs`.
//!
//! Naming (documented in docs/mcp.md):
//! - an id that is already a valid WebMCP tool name (`[A-Za-z0-9_.-]{1,128}`,
//!   the rule Chromium enforces) is the name;
//! - any other id (island slots `{island}:{slot}`, spaces, non-ASCII, longer
//!   than 128) becomes `{prefix}-{hash}`: every other character replaced by
//!   `_`, cut to 119 characters, then `-` and the 8 hex digits of the id's
//!   FNV-1a 32-bit hash, so the same id always gets the same name and two ids
//!   that sanitise alike still differ;
//! - should a name still be taken (a declared id equal to another's sanitised
//!   form, or a hash clash), `-2`, `-3`, … is appended in document order.

use json::{Value, WriteJson};

/// Chromium's tool-name limit.
pub const NAME_MAX: usize = 128;
const HASH_LEN: usize = 9; // "-" + 8 hex digits

/// One tool as published: the name it is registered under, the menu id or
/// capability it runs, and what the agent is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSpec {
    pub name: String,
    pub id: String,
    pub description: String,
    /// The input schema as JSON.
    pub schema: String,
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// `[A-Za-z0-9_.-]{1,128}`.
pub fn is_tool_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= NAME_MAX && s.chars().all(name_char)
}

fn fnv1a(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// `{n:08x}`, without the formatting machinery.
pub(crate) fn push_hex(out: &mut String, n: u32) {
    for shift in (0..8).rev() {
        out.push(char::from_digit((n >> (shift * 4)) & 0xf, 16).unwrap_or('0'));
    }
}

/// The name for an id that is not a valid tool name (see the module docs).
pub fn sanitised_name(id: &str) -> String {
    let mut name = String::new();
    for c in id.chars().take(NAME_MAX - HASH_LEN) {
        name.push(if name_char(c) { c } else { '_' });
    }
    name.push('-');
    push_hex(&mut name, fnv1a(id));
    name
}

/// The input schema (JSON) for an event kind; `None` for an event this
/// module does not know, which is then not published (a run would only
/// answer UNSUPPORTED_EVENT). Arguments are the run payload minus `id`.
pub fn input_schema(event: &str) -> Option<&'static str> {
    Some(match event {
        "click" => r#"{"type":"object","properties":{},"additionalProperties":false}"#,
        "input" => concat!(
            r#"{"type":"object","properties":{"value":{"description":"#,
            r#""Text for a text field or textarea; true or false for a checkbox or radio; "#,
            r#"an option value, or a list of them, for a select.","#,
            r#""anyOf":[{"type":"string"},{"type":"boolean"},{"type":"array","items":{"type":"string"}}]}},"#,
            r#""required":["value"],"additionalProperties":false}"#
        ),
        "scroll" => concat!(
            r#"{"type":"object","properties":{"#,
            r#""to":{"type":"string","enum":["start","center","end"],"description":"Scroll the item into this position."},"#,
            r#""by":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"#,
            r#""additionalProperties":false,"description":"Scroll by this many CSS pixels."}},"#,
            r#""additionalProperties":false}"#
        ),
        "drag" => concat!(
            r#"{"type":"object","properties":{"to":{"type":"string","minLength":1,"#,
            r#""description":"The menu id of the item to drop on."}},"#,
            r#""required":["to"],"additionalProperties":false}"#
        ),
        _ => return None,
    })
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn true_at(v: &Value, key: &str) -> bool {
    v.get(key) == Some(&Value::Bool(true))
}

fn list_at<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A menu item's (`IMenuItem` JSON) or a capability's tool description: its
/// title and description as the page wrote them, plus the id when the name
/// differs from it; without either, a fallback that names the id. WebMCP
/// requires a non-empty description.
fn describe_tool(item: &Value, name: &str, surface: bool) -> String {
    let id = str_at(item, "id");
    let (what, desc) = if surface {
        ("capability", "description")
    } else {
        ("menu item", "desc")
    };
    let (title, desc) = (str_at(item, "title").trim(), str_at(item, desc).trim());
    let mut text = String::from(title);
    if !title.is_empty() && !desc.is_empty() {
        text.push_str(": ");
    }
    text.push_str(desc);
    if text.is_empty() {
        // "Capability \"id\"", "Menu item \"id\" (event)".
        text.push_str(if surface { "Capability " } else { "Menu item " });
        push_quoted(&mut text, id);
        if !surface {
            text.push_str(" (");
            text.push_str(str_at(item, "event"));
            text.push(')');
        }
    } else if name != id {
        text.push_str(" (");
        text.push_str(what);
        text.push(' ');
        push_quoted(&mut text, id);
        text.push(')');
    }
    text
}

/// The id as a JSON string literal (quoted, escaped).
fn push_quoted(out: &mut String, id: &str) {
    json::WriteJson::write_json(id, out);
}

/// A menu item's (`IMenuItem` JSON) tool description.
#[cfg(test)]
pub fn description(item: &Value, name: &str) -> String {
    describe_tool(item, name, false)
}

/// Runnable now: enabled, visible, claimed by one element, with a known event.
pub fn runnable(item: &Value) -> bool {
    true_at(item, "enabled")
        && true_at(item, "visible")
        && !true_at(item, "ambiguous")
        && !str_at(item, "id").is_empty()
        && input_schema(str_at(item, "event")).is_some()
}

fn with_suffix(base: &str, n: usize) -> String {
    let suffix = format!("-{n}");
    let keep = NAME_MAX.saturating_sub(suffix.len()).min(base.len());
    // Names are ASCII, so any byte index is a char boundary.
    let mut name = String::from(base.get(..keep).unwrap_or(base));
    name.push_str(&suffix);
    name
}

/// Unique tool names for `ids`, in order (see the module docs).
pub fn assign_names(ids: &[&str]) -> Vec<String> {
    // Ids that are valid names keep them (a repeat falls through to the
    // sanitised form); "" marks a name still to find. Sanitised names come
    // second, so they never take a declared id's name.
    let mut names: Vec<String> = Vec::with_capacity(ids.len());
    for id in ids {
        let keep = is_tool_name(id) && !names.iter().any(|n| n == id);
        names.push(if keep { id.to_string() } else { String::new() });
    }
    for (i, id) in ids.iter().enumerate() {
        if names.get(i).is_some_and(|n| !n.is_empty()) {
            continue;
        }
        let base = sanitised_name(id);
        let mut name = base.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = with_suffix(&base, n);
            n += 1;
        }
        if let Some(slot) = names.get_mut(i) {
            *slot = name;
        }
    }
    names
}

/// The tools for `items` (menu items, or capabilities when `surface`), in
/// order, with unique names.
fn tools(items: &[&Value], surface: bool) -> Vec<ToolSpec> {
    let mut ids = Vec::with_capacity(items.len());
    for item in items {
        ids.push(str_at(item, "id"));
    }
    let mut out = Vec::with_capacity(items.len());
    for ((item, id), name) in items.iter().zip(&ids).zip(assign_names(&ids)) {
        let schema = if surface {
            let mut schema = String::new();
            match item.get("input").filter(|s| s.is_object()) {
                Some(input) => input.write_json(&mut schema),
                None => schema.push_str(r#"{"type":"object"}"#),
            }
            schema
        } else {
            input_schema(str_at(item, "event"))
                .unwrap_or_default()
                .to_string()
        };
        out.push(ToolSpec {
            description: describe_tool(item, &name, surface),
            name,
            id: id.to_string(),
            schema,
        });
    }
    out
}

/// The tools a snapshot's menu (`ISnapshot.menu` JSON) should publish, in
/// document order, with unique names.
pub fn plan(menu: &[Value]) -> Vec<ToolSpec> {
    let mut items = Vec::new();
    for item in menu {
        if runnable(item) {
            items.push(item);
        }
    }
    tools(&items, false)
}

/// The tools a Surface describe result should publish: its capabilities
/// (already exposed ∩ session scope ∩ registered), less those unavailable as
/// a whole (an `unavailable` entry without a record); row actions stay, as
/// their availability depends on `input.record`. Each schema is the one the
/// Surface enforces.
pub fn plan_capabilities(result: &Value) -> Vec<ToolSpec> {
    let unavailable = list_at(result, "unavailable");
    let mut caps = Vec::new();
    for cap in list_at(result, "capabilities") {
        let id = str_at(cap, "id");
        let gone = unavailable
            .iter()
            .any(|u| u.get("record").is_none() && str_at(u, "capability") == id);
        if !id.is_empty() && !gone {
            caps.push(cap);
        }
    }
    tools(&caps, true)
}

/// What a publication does with the page's answer to its read: the tools to
/// publish, or `None` to keep what is published (no usable answer this
/// time). `response` is a snapshot uplink, or a Surface describe response.
pub fn plan_response(surface: bool, response: &Value) -> Option<Vec<ToolSpec>> {
    let ok = true_at(response, "ok");
    if surface {
        // No session (or an expired or revoked one): nothing is usable.
        let result = response.get("result").filter(|_| ok);
        return Some(result.map(plan_capabilities).unwrap_or_default());
    }
    let snapshot = response.get("payload")?.get("snapshot").filter(|_| ok)?;
    Some(plan(list_at(snapshot, "menu")))
}

/// The plan as the JS side takes it: `[[name, id, description, schema], …]`.
pub fn plan_json(tools: &[ToolSpec]) -> String {
    let mut out = String::from("[");
    for t in tools {
        if out.len() > 1 {
            out.push(',');
        }
        let mut sep = '[';
        for field in [&t.name, &t.id, &t.description, &t.schema] {
            out.push(sep);
            field.as_str().write_json(&mut out);
            sep = ',';
        }
        out.push(']');
    }
    out.push(']');
    out
}

#[cfg(target_arch = "wasm32")]
mod publication;
#[cfg(target_arch = "wasm32")]
pub(crate) use publication::{Owner, Publication, WebMcpPublication};

#[cfg(test)]
mod tests;
