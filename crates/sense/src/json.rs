//! The snapshot's JSON, written and read by hand. Writing goes straight into
//! one `String` (no intermediate `Value`, no serde derives: those cost more
//! wasm than the builder itself); reading takes a `json::Value` that a
//! JS port returned.

use json::{Map, Value};

use crate::model::{Escape, Generic, Island, IslandSlot, MenuItem, Snapshot};

/// Appends `s` as a JSON string literal (the same escapes as json).
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 15)] as char);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends `,"key":` (keys here never need escaping).
pub fn push_key(out: &mut String, key: &str) {
    out.push_str(",\"");
    out.push_str(key);
    out.push_str("\":");
}

pub fn push_bool(out: &mut String, b: bool) {
    out.push_str(if b { "true" } else { "false" });
}

fn push_list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

impl MenuItem {
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"id\":");
        push_str(out, &self.id);
        push_key(out, "event");
        push_str(out, &self.event);
        push_key(out, "title");
        push_str(out, &self.title);
        push_key(out, "desc");
        push_str(out, &self.desc);
        push_key(out, "enabled");
        push_bool(out, self.enabled);
        push_key(out, "visible");
        push_bool(out, self.visible);
        if let Some(island) = &self.island {
            push_key(out, "island");
            push_str(out, island);
        }
        if self.ambiguous {
            out.push_str(",\"ambiguous\":true");
        }
        out.push('}');
    }
}

impl Snapshot {
    /// Appends `ISnapshot` as JSON.
    pub fn write_json(&self, out: &mut String) {
        out.reserve(64 + self.menu.len() * 96 + self.generics.len() * 48);
        out.push_str("{\"pageTitle\":");
        match &self.page_title {
            Some(t) => push_str(out, t),
            None => out.push_str("null"),
        }
        push_key(out, "menu");
        push_list(out, &self.menu, |out, m| m.write_json(out));
        push_key(out, "islands");
        push_list(out, &self.islands, |out, island| {
            out.push_str("{\"id\":");
            push_str(out, &island.id);
            push_key(out, "slots");
            push_list(out, &island.slots, |out, s| {
                out.push_str("{\"name\":");
                push_str(out, &s.name);
                push_key(out, "id");
                push_str(out, &s.id);
                push_key(out, "resolved");
                push_bool(out, s.resolved);
                out.push('}');
            });
            out.push('}');
        });
        push_key(out, "generics");
        push_list(out, &self.generics, |out, g| {
            out.push_str("{\"ref\":");
            push_str(out, &g.reference);
            push_key(out, "role");
            push_str(out, &g.role);
            push_key(out, "name");
            push_str(out, &g.name);
            out.push('}');
        });
        push_key(out, "dirty");
        push_list(out, &self.dirty, |out, d| push_str(out, d));
        push_key(out, "noReload");
        push_bool(out, self.no_reload);
        out.push('}');
    }

    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Reads an `ISnapshot` (what `ports.sense.snapshot()` returned). Unknown
    /// fields are ignored; `event` defaults to `"click"`, `title`/`desc` to
    /// `""`, `islands`/`generics`/`dirty` to `[]`, `noReload` to false.
    pub fn from_value(v: &Value) -> Result<Snapshot, String> {
        let o = object(v, "the snapshot")?;
        Ok(Snapshot {
            page_title: opt_string(o, "pageTitle")?,
            menu: list(o, "menu", true, |v| {
                let m = object(v, "a menu item")?;
                Ok(MenuItem {
                    id: string(m, "id")?,
                    event: opt_string(m, "event")?.unwrap_or_else(|| "click".into()),
                    title: opt_string(m, "title")?.unwrap_or_default(),
                    desc: opt_string(m, "desc")?.unwrap_or_default(),
                    enabled: boolean(m, "enabled", true)?,
                    visible: boolean(m, "visible", true)?,
                    island: opt_string(m, "island")?,
                    ambiguous: boolean(m, "ambiguous", false)?,
                })
            })?,
            islands: list(o, "islands", false, |v| {
                let i = object(v, "an island")?;
                Ok(Island {
                    id: string(i, "id")?,
                    slots: list(i, "slots", true, |v| {
                        let s = object(v, "an island slot")?;
                        Ok(IslandSlot {
                            name: string(s, "name")?,
                            id: string(s, "id")?,
                            resolved: boolean(s, "resolved", true)?,
                        })
                    })?,
                })
            })?,
            generics: list(o, "generics", false, |v| {
                let g = object(v, "a generic")?;
                Ok(Generic {
                    reference: string(g, "ref")?,
                    role: string(g, "role")?,
                    name: string(g, "name")?,
                })
            })?,
            dirty: list(o, "dirty", false, |v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| "dirty must contain only strings".to_string())
            })?,
            no_reload: boolean(o, "noReload", false)?,
        })
    }
}

/// What `deriveEscapes` / `isEscapeAllowed` read of a snapshot: `dirty`
/// (default `[]`) and `noReload` (default false); the rest is ignored.
pub fn escape_inputs(v: &Value) -> Result<Snapshot, String> {
    let o = object(v, "the snapshot")?;
    Ok(Snapshot {
        dirty: list(o, "dirty", false, |v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| "dirty must contain only strings".to_string())
        })?,
        no_reload: boolean(o, "noReload", false)?,
        ..Snapshot::default()
    })
}

impl Escape {
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"type\":");
        push_str(out, &self.kind);
        push_key(out, "allowed");
        push_bool(out, self.allowed);
        if let Some(reason) = &self.reason {
            push_key(out, "reason");
            push_str(out, reason);
        }
        out.push('}');
    }

    /// `IEscape[]` as JSON.
    pub fn list_json(escapes: &[Escape], out: &mut String) {
        push_list(out, escapes, |out, e| e.write_json(out));
    }
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{what} must be an object"))
}

fn missing(key: &str) -> String {
    format!("missing field `{key}`")
}

fn string(o: &Map<String, Value>, key: &str) -> Result<String, String> {
    opt_string(o, key)?.ok_or_else(|| missing(key))
}

/// Absent or null is `None`.
fn opt_string(o: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{key}` must be a string")),
    }
}

fn boolean(o: &Map<String, Value>, key: &str, required: bool) -> Result<bool, String> {
    match o.get(key) {
        None if !required => Ok(false),
        None => Err(missing(key)),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("`{key}` must be a boolean")),
    }
}

fn list<T>(
    o: &Map<String, Value>,
    key: &str,
    required: bool,
    each: impl Fn(&Value) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    match o.get(key) {
        None if !required => Ok(Vec::new()),
        None => Err(missing(key)),
        Some(Value::Array(items)) => {
            // A loop, not `collect::<Result<_>>()`: that adapter costs a
            // few hundred bytes of wasm per element type.
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(each(item)?);
            }
            Ok(out)
        }
        Some(_) => Err(format!("`{key}` must be an array")),
    }
}

#[cfg(test)]
mod tests;
