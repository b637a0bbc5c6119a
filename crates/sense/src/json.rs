//! The snapshot's JSON, written and read by hand. Writing goes straight into
//! one `String` (no intermediate `Value`, no serde derives: those cost more
//! wasm than the builder itself); reading takes a `serde_json::Value` that a
//! JS port returned.

use serde_json::{Map, Value};

use crate::model::{Escape, Generic, Island, IslandSlot, MenuItem, Snapshot};

/// Appends `s` as a JSON string literal (json's writer: one copy of the
/// escaping code in the module).
pub fn push_str(out: &mut String, s: &str) {
    out.push_str(&quote(s));
}

/// `s` as a JSON string literal, for messages that name an id or a value.
pub fn quote(s: &str) -> String {
    Value::from(s).to_string()
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
    /// `""`, `islands`/`generics`/`dirty` to `[]`, `noReload` to false. The
    /// error names the first problem, in field order.
    pub fn from_value(v: &Value) -> Result<Snapshot, String> {
        let r = &mut Reader::default();
        let o = r.object(v, "the snapshot");
        let mut snapshot = Snapshot {
            page_title: r.opt_string(o, "pageTitle"),
            ..Snapshot::default()
        };
        r.list(o, "menu", true, &mut |r, v| {
            snapshot.menu.push(menu_item(r, v))
        });
        r.list(o, "islands", false, &mut |r, v| {
            snapshot.islands.push(island(r, v))
        });
        r.list(o, "generics", false, &mut |r, v| {
            snapshot.generics.push(generic(r, v))
        });
        read_escape_inputs(r, o, &mut snapshot);
        r.done(snapshot)
    }
}

/// What `deriveEscapes` / `isEscapeAllowed` read of a snapshot: `dirty`
/// (default `[]`) and `noReload` (default false); the rest is ignored.
pub fn escape_inputs(v: &Value) -> Result<Snapshot, String> {
    let r = &mut Reader::default();
    let o = r.object(v, "the snapshot");
    let mut snapshot = Snapshot::default();
    read_escape_inputs(r, o, &mut snapshot);
    r.done(snapshot)
}

fn read_escape_inputs(r: &mut Reader, o: &Map<String, Value>, snapshot: &mut Snapshot) {
    r.list(o, "dirty", false, &mut |r, v| match v.as_str() {
        Some(s) => snapshot.dirty.push(s.to_string()),
        None => r.fail("dirty must contain only strings".into()),
    });
    snapshot.no_reload = r.boolean(o, "noReload", false);
}

fn menu_item(r: &mut Reader, v: &Value) -> MenuItem {
    let m = r.object(v, "a menu item");
    MenuItem {
        id: r.string(m, "id"),
        event: r.opt_string(m, "event").unwrap_or_else(|| "click".into()),
        title: r.opt_string(m, "title").unwrap_or_default(),
        desc: r.opt_string(m, "desc").unwrap_or_default(),
        enabled: r.boolean(m, "enabled", true),
        visible: r.boolean(m, "visible", true),
        island: r.opt_string(m, "island"),
        ambiguous: r.boolean(m, "ambiguous", false),
    }
}

fn island(r: &mut Reader, v: &Value) -> Island {
    let i = r.object(v, "an island");
    let mut island = Island {
        id: r.string(i, "id"),
        slots: Vec::new(),
    };
    r.list(i, "slots", true, &mut |r, v| island.slots.push(slot(r, v)));
    island
}

fn slot(r: &mut Reader, v: &Value) -> IslandSlot {
    let s = r.object(v, "an island slot");
    IslandSlot {
        name: r.string(s, "name"),
        id: r.string(s, "id"),
        resolved: r.boolean(s, "resolved", true),
    }
}

fn generic(r: &mut Reader, v: &Value) -> Generic {
    let g = r.object(v, "a generic");
    Generic {
        reference: r.string(g, "ref"),
        role: r.string(g, "role"),
        name: r.string(g, "name"),
        // The JSON form has no visibility: a listed generic counts as visible.
        visible: true,
    }
}

impl Escape {
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"type\":");
        push_str(out, self.kind);
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

static NO_FIELDS: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

/// Reads fields of JSON objects and keeps the first problem. Reading goes on
/// with defaults after a problem, so no early return has to drop a
/// half-built snapshot: with `?` between fields, each exit carried its own
/// cleanup code (~4 KB of wasm for this reader alone).
#[derive(Default)]
struct Reader {
    problem: Option<String>,
}

impl Reader {
    fn fail(&mut self, why: String) {
        if self.problem.is_none() {
            self.problem = Some(why);
        }
    }

    fn done<T>(&mut self, value: T) -> Result<T, String> {
        match self.problem.take() {
            Some(why) => Err(why),
            None => Ok(value),
        }
    }

    fn object<'v>(&mut self, v: &'v Value, what: &str) -> &'v Map<String, Value> {
        match v.as_object() {
            Some(o) => o,
            None => {
                self.fail(format!("{what} must be an object"));
                &NO_FIELDS
            }
        }
    }

    fn missing(&mut self, key: &str) {
        self.fail(format!("missing field `{key}`"));
    }

    /// Absent or null is `None`.
    fn opt_string(&mut self, o: &Map<String, Value>, key: &str) -> Option<String> {
        match o.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                self.fail(format!("`{key}` must be a string"));
                None
            }
        }
    }

    fn string(&mut self, o: &Map<String, Value>, key: &str) -> String {
        let s = self.opt_string(o, key);
        if s.is_none() && matches!(o.get(key), None | Some(Value::Null)) {
            self.missing(key);
        }
        s.unwrap_or_default()
    }

    fn boolean(&mut self, o: &Map<String, Value>, key: &str, required: bool) -> bool {
        match o.get(key) {
            None if !required => false,
            None => {
                self.missing(key);
                false
            }
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                self.fail(format!("`{key}` must be a boolean"));
                false
            }
        }
    }

    /// Calls `each` on every item of the array at `key` (one copy of this
    /// loop for every kind of item).
    fn list(
        &mut self,
        o: &Map<String, Value>,
        key: &str,
        required: bool,
        each: &mut dyn FnMut(&mut Reader, &Value),
    ) {
        match o.get(key) {
            None if !required => {}
            None => self.missing(key),
            Some(Value::Array(items)) => {
                for item in items {
                    each(self, item);
                }
            }
            Some(_) => self.fail(format!("`{key}` must be an array")),
        }
    }
}

#[cfg(test)]
mod tests;
