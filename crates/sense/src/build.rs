//! Pure menu construction from gathered node facts (baseline §2).

use std::borrow::Cow;
use std::collections::hash_map::Entry;

use fnv::FnvHashMap;

use crate::model::{Generic, Island, IslandSlot, MenuItem, RawNode, Snapshot};
use crate::slots::{IslandSlots, SlotSpec};
use crate::text::{
    cap_chars, char_count, prefix_chars, DESC_MAX_CHARS, EVENT_MAX_CHARS, ID_MAX_CHARS,
    TITLE_MAX_CHARS,
};

/// A snapshot plus, for each menu item, the node that a run would target
/// (`None` for ambiguous items: they are never dispatched).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Built {
    pub snapshot: Snapshot,
    pub targets: Vec<Option<usize>>,
}

impl Built {
    /// The target node of menu item `id`, when the id names exactly one element.
    pub fn target_of(&self, id: &str) -> Option<usize> {
        let pos = self.snapshot.menu.iter().position(|m| m.id == id)?;
        self.targets.get(pos).copied().flatten()
    }
}

/// True for the ids with a generic ref's shape (`g0`, `g1`, …), which no run
/// takes: a playable may still carry one (it is in the menu, never runnable).
pub fn is_generic_ref(id: &str) -> bool {
    match id.as_bytes() {
        [b'g', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

/// A usable id: non-empty and at most [`ID_MAX_CHARS`] characters (a
/// longer one is no id, as an empty one is).
pub(crate) fn usable_id(s: Option<&str>) -> Option<&str> {
    non_empty(s).filter(|s| s.len() <= ID_MAX_CHARS || char_count(s) <= ID_MAX_CHARS)
}

fn slot_matches(node: &RawNode, spec: &SlotSpec) -> bool {
    match spec {
        // Compared as names are (the label is the accessible name).
        SlotSpec::AriaLabel(label) => node
            .aria_label
            .is_some_and(|l| cap_chars(l, usize::MAX) == cap_chars(label, usize::MAX)),
        SlotSpec::RoleName { role, name } => {
            node.role
                .is_some_and(|r| r.eq_ignore_ascii_case(role.trim()))
                && cap_chars(node.name.unwrap_or(""), usize::MAX) == cap_chars(name, usize::MAX)
        }
    }
}

/// String → position, for the duplicate-id check and the island-slot table:
/// fnv's hash map (FNV is fast on short keys such as ids; the index lives for
/// one read, so a page flooding it slows only its own snapshot). The first
/// value for a key wins. Public so that the shell's other string tables
/// (the WebMCP tool names) use this one instantiation of the hash table.
#[derive(Default)]
pub struct Index<'a> {
    map: FnvHashMap<Cow<'a, str>, usize>,
}

impl<'a> Index<'a> {
    pub fn get(&self, key: &str) -> Option<usize> {
        self.map.get(key).copied()
    }

    /// Adds `key` unless present (the first value for a key wins); `true`
    /// when it was not there.
    pub fn insert(&mut self, key: Cow<'a, str>, value: usize) -> bool {
        match self.map.entry(key) {
            Entry::Occupied(_) => false,
            Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
        }
    }
}

/// Island id → slot specs, indexed once per build: a page with a thousand
/// islands would otherwise pay a linear search of the table per island.
struct SlotIndex<'s> {
    by_id: Index<'s>,
    slots: &'s IslandSlots,
}

impl<'s> SlotIndex<'s> {
    fn new(slots: &'s IslandSlots) -> Self {
        let mut by_id = Index::default();
        for (i, (id, _)) in slots.islands.iter().enumerate() {
            // The first entry for an id wins, as in `slots_of`.
            by_id.insert(Cow::Borrowed(id.as_str()), i);
        }
        Self { by_id, slots }
    }

    fn get(&self, island: &str) -> &'s [(String, SlotSpec)] {
        match self.by_id.get(island) {
            Some(i) => self.slots.islands[i].1.as_slice(),
            None => &[],
        }
    }
}

/// A menu item for `node` (a playable, or a slot element with its
/// accessible name as the title and no description).
fn menu_item(
    id: String,
    node: &RawNode,
    title: Option<&str>,
    desc: Option<&str>,
    island: Option<String>,
) -> MenuItem {
    MenuItem {
        id,
        event: prefix_chars(non_empty(node.event).unwrap_or("click"), EVENT_MAX_CHARS).to_string(),
        title: cap_chars(title.unwrap_or(""), TITLE_MAX_CHARS),
        desc: cap_chars(desc.unwrap_or(""), DESC_MAX_CHARS),
        enabled: node.has(RawNode::FLAG_ENABLED),
        visible: node.has(RawNode::FLAG_VISIBLE),
        island,
        ambiguous: false,
    }
}

/// Builds the snapshot. Never panics, whatever the nodes say (indices out of
/// range are ignored).
pub fn build<'a>(nodes: &[RawNode<'a>], slots: &IslandSlots) -> Built {
    let mut snap = Snapshot::default();
    let mut targets: Vec<Option<usize>> = Vec::new();
    // id → menu position, to detect a second claim.
    let mut seen = Index::default();
    let slot_index = SlotIndex::new(slots);
    // Nodes that are resolved slot elements: not generic refs.
    let mut slot_nodes: Vec<bool> = vec![false; nodes.len()];

    let mut claim = |snap: &mut Snapshot,
                     targets: &mut Vec<Option<usize>>,
                     key: Cow<'a, str>,
                     item: MenuItem,
                     target: Option<usize>| {
        if let Some(pos) = seen.get(&key) {
            if let Some(m) = snap.menu.get_mut(pos) {
                m.ambiguous = true;
            }
            if let Some(t) = targets.get_mut(pos) {
                *t = None;
            }
            return;
        }
        seen.insert(key, snap.menu.len());
        snap.menu.push(item);
        targets.push(target);
    };

    for (index, node) in nodes.iter().enumerate() {
        if snap.page_title.is_none() {
            if let Some(t) = node.page_title.map(str::trim).filter(|t| !t.is_empty()) {
                snap.page_title = Some(cap_chars(t, TITLE_MAX_CHARS));
            }
        }
        if node.has(RawNode::FLAG_DIRTY) {
            // Still dirty, so reload stays forbidden; unnamed when its id is no id.
            snap.dirty
                .push(usable_id(node.id).unwrap_or_default().to_string());
        }
        if node.has(RawNode::FLAG_NORELOAD) {
            snap.no_reload = true;
        }
        let (Some(kind), Some(id)) = (node.kind, usable_id(node.id)) else {
            continue;
        };
        match kind {
            "playable" => {
                let item = menu_item(id.to_string(), node, node.title, node.desc, None);
                claim(
                    &mut snap,
                    &mut targets,
                    Cow::Borrowed(id),
                    item,
                    Some(index),
                );
            }
            "island" => {
                let mut island = Island {
                    id: id.to_string(),
                    slots: Vec::new(),
                };
                // Descendants follow their island contiguously in document order.
                let inside = nodes
                    .get(index + 1..node.end.min(nodes.len()))
                    .unwrap_or(&[]);
                for (name, spec) in slot_index.get(id) {
                    let slot_id = format!("{id}:{name}");
                    // Every matching node is a slot element (not a generic ref).
                    let mut first = None;
                    let mut again = false;
                    for (i, n) in inside.iter().enumerate() {
                        if slot_matches(n, spec) {
                            let at = index + 1 + i;
                            slot_nodes[at] = true;
                            again = first.is_some();
                            first = first.or(Some(at));
                        }
                    }
                    island.slots.push(IslandSlot {
                        name: name.clone(),
                        id: slot_id.clone(),
                        resolved: first.is_some(),
                    });
                    let Some(first) = first else {
                        continue;
                    };
                    let el = &nodes[first];
                    let item = menu_item(slot_id.clone(), el, el.name, None, Some(id.to_string()));
                    claim(
                        &mut snap,
                        &mut targets,
                        Cow::Owned(slot_id.clone()),
                        item,
                        Some(first),
                    );
                    if again {
                        // Claimed again: marks it ambiguous and drops the target.
                        let again = MenuItem::default();
                        claim(&mut snap, &mut targets, Cow::Owned(slot_id), again, None);
                    }
                }
                snap.islands.push(island);
            }
            _ => {}
        }
    }

    for (index, node) in nodes.iter().enumerate() {
        let is_playable = node.kind == Some("playable") && usable_id(node.id).is_some();
        if !node.has(RawNode::FLAG_INTERACTIVE) || is_playable || slot_nodes[index] {
            continue;
        }
        snap.generics.push(Generic {
            reference: format!("g{}", snap.generics.len()),
            // Page-authored like the name (a `role` token may be any length).
            role: cap_chars(node.role.unwrap_or_default(), TITLE_MAX_CHARS),
            name: cap_chars(node.name.unwrap_or(""), TITLE_MAX_CHARS),
            visible: node.has(RawNode::FLAG_VISIBLE),
        });
    }

    Built {
        snapshot: snap,
        targets,
    }
}

#[cfg(test)]
mod tests;
