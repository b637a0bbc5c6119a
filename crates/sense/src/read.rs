//! The read of one scan root, between gather.js's two calls (see `wire.rs`):
//! [`plan`] decides from the facts of `gather` each element's role, whether
//! it is interactive, and which details `details` must read (states for menu
//! candidates, visibility and names for the elements that may get a name);
//! [`decide`] turns the answers into each element's states and name; then
//! [`Reading::nodes`] gives the [`RawNode`] list that
//! [`build`](crate::build) makes the snapshot of.

use std::borrow::Cow;

use crate::model::RawNode;
use crate::rules;
use crate::wire::{
    self, Details, Facts, DETAIL_DISABLED, DETAIL_VISIBLE, FACT_NORELOAD, FACT_SLOT_DISABLED,
};

/// What is decided before the details are read.
pub struct Plan<'a> {
    roles: Vec<Cow<'a, str>>,
    /// Per element: [`RawNode`] flags known from the facts (dirty, noreload,
    /// interactive), plus [`WANTS_ENABLED`] and [`DISABLED_ABOVE`].
    flags: Vec<u32>,
    /// `[index, bits]` per element whose details are needed.
    asks: Vec<u32>,
}

/// Internal plan bits, above the [`RawNode`] flags.
const WANTS_ENABLED: u32 = 1 << 16;
/// A disabling element is the element itself or encloses it.
const DISABLED_ABOVE: u32 = 1 << 17;
/// The element gets a name (a generic ref or a slot candidate).
const NAMED: u32 = 1 << 18;
const RAW_FLAGS: u32 = (1 << 16) - 1;

impl Plan<'_> {
    /// What `details` must read: `[index, bits]` pairs.
    pub fn asks(&self) -> &[u32] {
        &self.asks
    }
}

/// A marker with a usable id (build.rs's rule) is a playable.
fn is_playable(f: &Facts) -> bool {
    f.kind == Some("playable") && crate::build::usable_id(f.id).is_some()
}

/// Decides roles and interactivity, and what to ask of each element:
/// - playables: visible and enabled (their menu item's states);
/// - slot candidates (inside an island, with a role or an aria-label):
///   states and name (slots match by aria-label or role and name);
/// - other interactive elements (generic refs): visibility and name.
///
/// The name's details are asked only when the aria-label does not name it.
pub fn plan<'a>(facts: &[Facts<'a>]) -> Plan<'a> {
    let mut roles = Vec::with_capacity(facts.len());
    let mut flags = Vec::with_capacity(facts.len());
    let mut asks = Vec::new();
    // Ends of the enclosing islands and of the enclosing disabling elements:
    // the records come in document order, so stacks suffice.
    let mut islands: Vec<usize> = Vec::new();
    let mut disabling: Vec<usize> = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        while islands.last().is_some_and(|&end| end <= i) {
            islands.pop();
        }
        while disabling.last().is_some_and(|&end| end <= i) {
            disabling.pop();
        }
        // Slotted into a disabling element: it and its subtree, as for one
        // it sits in.
        if rules::is_disabling(f) || f.has(FACT_SLOT_DISABLED) {
            disabling.push(f.end);
        }
        let in_island = !islands.is_empty();
        if f.kind == Some("island") {
            islands.push(f.end);
        }
        let role = rules::role(f);
        let interactive = rules::is_interactive(f, &role);
        let playable = is_playable(f);
        let slot_candidate = in_island && (!role.is_empty() || f.aria_label.is_some());
        let mut bits = 0;
        if f.dirty == Some("true") {
            bits |= RawNode::FLAG_DIRTY;
        }
        if f.has(FACT_NORELOAD) {
            bits |= RawNode::FLAG_NORELOAD;
        }
        if interactive {
            bits |= RawNode::FLAG_INTERACTIVE;
        }
        if !disabling.is_empty() {
            bits |= DISABLED_ABOVE;
        }
        let mut ask = 0;
        if playable || slot_candidate {
            bits |= WANTS_ENABLED;
            ask |= DETAIL_VISIBLE | DETAIL_DISABLED;
        }
        if (interactive && !playable) || slot_candidate {
            bits |= NAMED;
            ask |= DETAIL_VISIBLE;
            if rules::name_from_label(f).is_none() {
                ask |= rules::name_asks(f);
            }
        }
        if ask != 0 {
            asks.push(i as u32);
            asks.push(ask);
        }
        roles.push(role);
        flags.push(bits);
    }
    Plan { roles, flags, asks }
}

/// Every element's decided facts: what [`RawNode`]s are made of.
pub struct Reading<'a> {
    roles: Vec<Cow<'a, str>>,
    names: Vec<Option<Cow<'a, str>>>,
    flags: Vec<u32>,
    /// `[index, FALLBACK_ASKS]` of the elements whose name waits for them.
    fallback_asks: Vec<u32>,
}

/// States and names from the details of `plan`'s asks (one per ask, in
/// order; `None` when they do not fit the asks) and whether an ancestor of
/// the scan root (outside it) is disabling.
pub fn decide<'a>(
    facts: &[Facts<'a>],
    plan: Plan<'a>,
    details: &[Details<'a>],
    root_disabled: bool,
) -> Option<Reading<'a>> {
    let Plan {
        roles,
        mut flags,
        asks,
    } = plan;
    if asks.len() != 2 * details.len() {
        return None;
    }
    let mut names: Vec<Option<Cow<'a, str>>> = vec![None; facts.len()];
    let mut fallback_asks = Vec::new();
    for (ask, d) in asks.chunks_exact(2).zip(details) {
        let (index, bits) = (ask[0] as usize, ask[1]);
        let f = facts.get(index)?;
        let flag = flags.get_mut(index)?;
        if *flag & WANTS_ENABLED != 0 {
            let disabling = wire::Disabling {
                disabling: *flag & DISABLED_ABOVE != 0 || root_disabled,
                ..d.disabling()
            };
            if !rules::is_disabled(&disabling) {
                *flag |= RawNode::FLAG_ENABLED;
            }
        }
        if d.has(DETAIL_VISIBLE) {
            *flag |= RawNode::FLAG_VISIBLE;
        }
        if bits & !(DETAIL_VISIBLE | DETAIL_DISABLED) == 0 {
            continue;
        }
        names[index] = match rules::name(f, d) {
            rules::Name::Known(name) => Some(name),
            rules::Name::BlankText => {
                fallback_asks.extend([index as u32, rules::FALLBACK_ASKS]);
                None
            }
        };
    }
    // Named by their aria-label: no details were needed.
    for ((f, flag), name) in facts.iter().zip(&flags).zip(names.iter_mut()) {
        if flag & NAMED != 0 && name.is_none() {
            *name = rules::name_from_label(f).map(Cow::Borrowed);
        }
    }
    Some(Reading {
        roles,
        names,
        flags,
        fallback_asks,
    })
}

impl<'a> Reading<'a> {
    /// What a second `details` call must read (empty: nothing): the
    /// fallbacks of the elements whose text is blank.
    pub fn fallback_asks(&self) -> &[u32] {
        &self.fallback_asks
    }

    /// Names from the answers to [`fallback_asks`](Self::fallback_asks)
    /// (one per ask; `None` when they do not fit).
    pub fn with_fallbacks(&mut self, details: &[Details]) -> Option<()> {
        if self.fallback_asks.len() != 2 * details.len() {
            return None;
        }
        for (ask, d) in self.fallback_asks.chunks_exact(2).zip(details) {
            let name = rules::name_from_fallbacks(d);
            *self.names.get_mut(ask[0] as usize)? = Some(Cow::Owned(name.to_string()));
        }
        self.fallback_asks.clear();
        Some(())
    }

    /// The elements as [`build`](crate::build) reads them.
    pub fn nodes<'n>(&'n self, facts: &[Facts<'n>]) -> Vec<RawNode<'n>> {
        facts
            .iter()
            .zip(&self.roles)
            .zip(&self.names)
            .zip(&self.flags)
            .map(|(((f, role), name), &flags)| RawNode {
                flags: flags & RAW_FLAGS,
                end: f.end,
                kind: f.kind,
                id: f.id,
                event: f.event,
                title: f.title,
                desc: f.desc,
                page_title: f.page_title,
                role: (!role.is_empty()).then_some(role.as_ref()),
                name: name.as_deref(),
                aria_label: f.aria_label,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
