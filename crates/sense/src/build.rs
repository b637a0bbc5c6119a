//! Pure menu construction from gathered node facts (baseline §2).

use std::collections::HashMap;

use crate::model::{Generic, Island, IslandSlot, MenuItem, RawNode, Snapshot};
use crate::slots::{IslandSlots, SlotSpec};
use crate::text::{cap_chars, DESC_MAX_CHARS, TITLE_MAX_CHARS};

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

/// True for the ids that are generic refs (`g0`, `g1`, …), which are never runnable.
pub fn is_generic_ref(id: &str) -> bool {
    id.len() > 1 && id.starts_with('g') && id[1..].bytes().all(|b| b.is_ascii_digit())
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.is_empty())
}

fn slot_matches(node: &RawNode, spec: &SlotSpec) -> bool {
    match spec {
        SlotSpec::AriaLabel(label) => node.10.as_deref() == Some(label.as_str()),
        SlotSpec::RoleName { role, name } => {
            node.8
                .as_deref()
                .is_some_and(|r| r.eq_ignore_ascii_case(role.trim()))
                && cap_chars(node.9.as_deref().unwrap_or(""), usize::MAX)
                    == cap_chars(name, usize::MAX)
        }
    }
}

/// Builds the snapshot. Never panics, whatever the nodes say (indices out of
/// range are ignored).
pub fn build(nodes: &[RawNode], slots: &IslandSlots) -> Built {
    let mut snap = Snapshot::default();
    let mut targets: Vec<Option<usize>> = Vec::new();
    // id → menu position, to detect a second claim.
    let mut seen: HashMap<String, usize> = HashMap::new();
    // Nodes that are resolved slot elements: not generic refs.
    let mut slot_nodes: Vec<bool> = vec![false; nodes.len()];

    let mut claim = |snap: &mut Snapshot,
                     targets: &mut Vec<Option<usize>>,
                     item: MenuItem,
                     target: Option<usize>| {
        if let Some(&pos) = seen.get(&item.id) {
            if let Some(m) = snap.menu.get_mut(pos) {
                m.ambiguous = true;
            }
            if let Some(t) = targets.get_mut(pos) {
                *t = None;
            }
            return;
        }
        seen.insert(item.id.clone(), snap.menu.len());
        snap.menu.push(item);
        targets.push(target);
    };

    for (index, node) in nodes.iter().enumerate() {
        if snap.page_title.is_none() {
            if let Some(t) = node.7.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                snap.page_title = Some(cap_chars(t, TITLE_MAX_CHARS));
            }
        }
        if node.has(RawNode::FLAG_DIRTY) {
            snap.dirty.push(node.3.clone().unwrap_or_default());
        }
        if node.has(RawNode::FLAG_NORELOAD) {
            snap.no_reload = true;
        }
        let (Some(kind), Some(id)) = (node.2.as_deref(), non_empty(&node.3)) else {
            continue;
        };
        match kind {
            "playable" => {
                let item = MenuItem {
                    id: id.to_string(),
                    event: non_empty(&node.4).unwrap_or("click").to_string(),
                    title: cap_chars(node.5.as_deref().unwrap_or(""), TITLE_MAX_CHARS),
                    desc: cap_chars(node.6.as_deref().unwrap_or(""), DESC_MAX_CHARS),
                    enabled: node.has(RawNode::FLAG_ENABLED),
                    visible: node.has(RawNode::FLAG_VISIBLE),
                    island: None,
                    ambiguous: false,
                };
                claim(&mut snap, &mut targets, item, Some(index));
            }
            "island" => {
                let mut island = Island {
                    id: id.to_string(),
                    slots: Vec::new(),
                };
                for (name, spec) in slots.slots_of(id) {
                    let slot_id = format!("{id}:{name}");
                    let matches: Vec<usize> = nodes
                        .iter()
                        .enumerate()
                        .skip(index + 1)
                        // Descendants follow their island contiguously in document order.
                        .take_while(|(_, n)| n.1.contains(&index))
                        .filter(|(_, n)| slot_matches(n, spec))
                        .map(|(i, _)| i)
                        .collect();
                    island.slots.push(IslandSlot {
                        name: name.clone(),
                        id: slot_id.clone(),
                        resolved: !matches.is_empty(),
                    });
                    let Some(&first) = matches.first() else {
                        continue;
                    };
                    for &m in &matches {
                        if let Some(s) = slot_nodes.get_mut(m) {
                            *s = true;
                        }
                    }
                    let el = nodes.get(first).cloned().unwrap_or_default();
                    let item = MenuItem {
                        id: slot_id,
                        event: non_empty(&el.4).unwrap_or("click").to_string(),
                        title: cap_chars(el.9.as_deref().unwrap_or(""), TITLE_MAX_CHARS),
                        desc: String::new(),
                        enabled: el.has(RawNode::FLAG_ENABLED),
                        visible: el.has(RawNode::FLAG_VISIBLE),
                        island: Some(id.to_string()),
                        ambiguous: false,
                    };
                    claim(&mut snap, &mut targets, item, Some(first));
                    if matches.len() > 1 {
                        // Claimed again: marks it ambiguous and drops the target.
                        let again = MenuItem {
                            id: format!("{id}:{name}"),
                            ..MenuItem::default()
                        };
                        claim(&mut snap, &mut targets, again, None);
                    }
                }
                snap.islands.push(island);
            }
            _ => {}
        }
    }

    for (index, node) in nodes.iter().enumerate() {
        let is_playable = node.2.as_deref() == Some("playable") && non_empty(&node.3).is_some();
        if !node.has(RawNode::FLAG_INTERACTIVE)
            || is_playable
            || slot_nodes.get(index).copied().unwrap_or(false)
        {
            continue;
        }
        snap.generics.push(Generic {
            reference: format!("g{}", snap.generics.len()),
            role: node.8.clone().unwrap_or_default(),
            name: cap_chars(node.9.as_deref().unwrap_or(""), TITLE_MAX_CHARS),
        });
    }

    Built {
        snapshot: snap,
        targets,
    }
}

#[cfg(test)]
mod tests;
