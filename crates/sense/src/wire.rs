//! The gatherer's compact wire format (see `gather.js`): one text holding
//! every present field value back to back, and one integer list saying
//! which fields each node has and how long they are. Two crossings per
//! snapshot, one UTF-16 → UTF-8 conversion, no JSON parse.
//!
//! Per node, in document order, the integers are:
//! - `head`: the node's `FLAG_*` bits, plus [`HAS_END`], plus bit
//!   `FIELD_SHIFT + k` when field `k` is present (fields in [`RawNode`]
//!   order: kind, id, event, title, desc, pagetitle, role, name, aria-label);
//! - when `HAS_END`: the island's `end` index;
//! - for each present field: its length in UTF-16 code units.

use crate::model::RawNode;

/// The node is an island and one `end` integer follows its head.
pub const HAS_END: u32 = 1 << 5;
/// Presence bit of the first field.
pub const FIELD_SHIFT: u32 = 8;
const FIELDS: u32 = 9;

/// Reads the fields back out of `text`, counting UTF-16 units as JS did.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    /// UTF-16 units already consumed by the previous field: a lone high
    /// surrogate ending one value and a lone low one starting the next were
    /// joined into one character when JS concatenated them.
    owed: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, units: u32) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let mut left = (units as usize).checked_sub(std::mem::take(&mut self.owed))?;
        let mut end = self.pos;
        // UTF-16 units per character, read off its UTF-8 lead byte: one
        // below U+10000 (1 to 3 bytes), two from there (4 bytes). One byte
        // loop for ASCII too: no separate fast path to carry.
        while left != 0 {
            let (n, len) = match *bytes.get(end)? {
                0..=0x7f => (1, 1),
                0x80..=0xdf => (1, 2),
                0xe0..=0xef => (1, 3),
                _ => (2, 4),
            };
            if n > left {
                self.owed = n - left;
                left = n;
            }
            left -= n;
            end += len;
        }
        let field = self.text.get(self.pos..end)?;
        self.pos = end;
        Some(field)
    }
}

/// Decodes the gatherer's output. `None` when it is malformed (it never is
/// when the text and integers come from `gather.js`).
pub fn decode<'a>(text: &'a str, ints: &[u32]) -> Option<Vec<RawNode<'a>>> {
    let mut cursor = Cursor {
        text,
        pos: 0,
        owed: 0,
    };
    let mut nodes = Vec::with_capacity(ints.len() / 2);
    let mut it = ints.iter().copied();
    while let Some(head) = it.next() {
        let mut node = RawNode {
            flags: head & 0x1f,
            ..RawNode::default()
        };
        if head & HAS_END != 0 {
            node.end = it.next()? as usize;
        }
        let mut fields: [Option<&str>; FIELDS as usize] = [None; FIELDS as usize];
        for (k, slot) in fields.iter_mut().enumerate() {
            if head & (1 << (FIELD_SHIFT + k as u32)) != 0 {
                *slot = Some(cursor.take(it.next()?)?);
            }
        }
        let [kind, id, event, title, desc, page_title, role, name, aria_label] = fields;
        node.kind = kind;
        node.id = id;
        node.event = event;
        node.title = title;
        node.desc = desc;
        node.page_title = page_title;
        node.role = role;
        node.name = name;
        node.aria_label = aria_label;
        nodes.push(node);
    }
    (cursor.pos == text.len() && cursor.owed == 0).then_some(nodes)
}

#[cfg(test)]
mod tests;
