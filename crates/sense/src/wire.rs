//! The gatherer's compact wire format (see `gather.js`): raw DOM facts, no
//! decisions. Each of its two calls answers with one text holding every
//! present field value back to back, handed over as UTF-8 bytes, and one
//! integer list saying which fields each record has and how long they are
//! (in UTF-16 code units, as JS counts). One UTF-16 → UTF-8 conversion per
//! call, no JSON parse, no crossing per element.
//!
//! **`gather(root, selector, ancestors)`**: one record per element matching
//! `selector` ([`rules::CANDIDATES`](crate::rules::CANDIDATES)) in the
//! root and its open shadow roots, in document order (a shadow root's
//! elements right after their host). Per record, the integers are:
//! - `head`: the `FACT_*` bits, plus bit `FIELD_SHIFT + k` when field `k` is
//!   present (fields in [`Facts`] order: tag, kind, id, event, title, desc,
//!   pagetitle, dirty, role, aria-label, type, tabindex, aria-disabled, size);
//! - `end`: one past the index of the element's last descendant record
//!   (through open shadow roots), so the records form a tree;
//! - for each present field: its length.
//!
//! **`details(elements, asks, textMax)`**: `asks` is `[index, bits]` pairs
//! (the `DETAIL_*` and field bits of what Rust wants read of that element);
//! one record per pair, in order:
//! - `head`: the `DETAIL_*` bits that held, plus field presence bits (fields
//!   in [`Details`] order: value, label, placeholder, title, alt, text,
//!   img-alt), plus, when the disabled facts were asked, the two fieldset
//!   counts of [`Disabling`] in its top 16 bits;
//! - when [`DETAIL_REFS`]: the count of resolved `aria-labelledby`
//!   references, then each one's text length;
//! - for each present field: its length.

/// Presence bit of the first field (bits below it are flags).
pub const FIELD_SHIFT: u32 = 8;

/// The element has an `href` attribute.
pub const FACT_HREF: u32 = 1;
/// `isContentEditable` is true.
pub const FACT_EDITABLE: u32 = 1 << 1;
/// The element has a `data-e2e-noreload` attribute.
pub const FACT_NORELOAD: u32 = 1 << 2;
/// The element has an `inert` attribute.
pub const FACT_INERT: u32 = 1 << 3;
/// The element has a `multiple` attribute.
pub const FACT_MULTIPLE: u32 = 1 << 4;
/// An `inert` or disabling `aria-disabled` element (the selector `gather`
/// tests ancestors with) holds the element in the flat tree through a
/// `<slot>`: it, or a light ancestor, is assigned to a slot inside one in a
/// shadow tree. The records' tree, where light children sit under their
/// host, does not show that.
pub const FACT_SLOT_DISABLED: u32 = 1 << 5;
const FACT_FIELDS: usize = 14;

/// Ask and answer: the element is visible by `isVisible` (gather.js).
pub const DETAIL_VISIBLE: u32 = 1;
/// Ask: the facts of [`Disabling`]. Answer: the element matches `:disabled`.
pub const DETAIL_DISABLED: u32 = 1 << 1;
/// Ask: resolve `aria-labelledby`. Answer: a count and that many texts follow.
pub const DETAIL_REFS: u32 = 1 << 2;
/// Answer: an open modal dialog (`dialog:modal`) is in the element's
/// document or one of its open shadow roots.
pub const DETAIL_MODAL: u32 = 1 << 3;
/// Answer: that dialog holds the element in the flat tree (slotted light
/// children and its shadow content included).
pub const DETAIL_IN_MODAL: u32 = 1 << 4;
/// Answer of the per-element read only (gather.js `disabledFacts`): the
/// element or an ancestor matches the selector it was handed
/// ([`rules::DISABLING`](crate::rules::DISABLING)). The bulk read knows that
/// from its records' tree instead.
pub const DETAIL_DISABLING: u32 = 1 << 5;
/// Answer: the `<fieldset disabled>` elements the element is in (itself
/// included), in the 8 bits from here (counted up to 255).
pub const DETAIL_FIELDSETS_SHIFT: u32 = 16;
/// Answer: how many of those hold the element in their first `<legend>`
/// child, in the 8 bits from here (up to 255).
pub const DETAIL_LEGENDS_SHIFT: u32 = 24;
/// What a `details` head keeps: its answer bits and the two counts (never
/// `DETAIL_DISABLING`: the tree says that).
const DETAIL_FLAGS: u32 = DETAIL_VISIBLE
    | DETAIL_DISABLED
    | DETAIL_MODAL
    | DETAIL_IN_MODAL
    | (0xff << DETAIL_FIELDSETS_SHIFT)
    | (0xff << DETAIL_LEGENDS_SHIFT);
const DETAIL_FIELDS: usize = 7;

/// The ask bit of [`Details`] field `k`.
pub const fn ask_field(k: u32) -> u32 {
    1 << (FIELD_SHIFT + k)
}
pub const ASK_VALUE: u32 = ask_field(0);
pub const ASK_LABEL: u32 = ask_field(1);
pub const ASK_PLACEHOLDER: u32 = ask_field(2);
pub const ASK_TITLE: u32 = ask_field(3);
pub const ASK_ALT: u32 = ask_field(4);
pub const ASK_TEXT: u32 = ask_field(5);
pub const ASK_IMG_ALT: u32 = ask_field(6);

/// What `gather` read of one element: attributes as written (`None`:
/// absent), nothing interpreted.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Facts<'a> {
    /// `FACT_*` bits.
    pub flags: u32,
    /// One past the index of the last descendant record.
    pub end: usize,
    /// `tagName` (upper case for HTML elements in an HTML document).
    pub tag: &'a str,
    pub kind: Option<&'a str>,
    pub id: Option<&'a str>,
    pub event: Option<&'a str>,
    pub title: Option<&'a str>,
    pub desc: Option<&'a str>,
    pub page_title: Option<&'a str>,
    /// `data-e2e-dirty`
    pub dirty: Option<&'a str>,
    /// The `role` attribute.
    pub role: Option<&'a str>,
    pub aria_label: Option<&'a str>,
    /// The `type` attribute.
    pub type_: Option<&'a str>,
    pub tabindex: Option<&'a str>,
    pub aria_disabled: Option<&'a str>,
    /// The `size` attribute.
    pub size: Option<&'a str>,
}

impl Facts<'_> {
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

/// What `details` read of one asked element.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Details<'a> {
    /// The `DETAIL_*` bits that held (visible, disabled, modal, in modal),
    /// and the fieldset and legend counts above them (see [`Disabling`]).
    pub flags: u32,
    /// Texts of the elements `aria-labelledby` names that exist, in order
    /// (each as [`text`](Self::text) is read).
    pub refs: Vec<&'a str>,
    /// `value` (a form control's current value).
    pub value: Option<&'a str>,
    /// Text of the control's first `<label>`, when it has one.
    pub label: Option<&'a str>,
    pub placeholder: Option<&'a str>,
    pub title: Option<&'a str>,
    pub alt: Option<&'a str>,
    /// Its text content, cut to the asked number of UTF-16 units. Where a
    /// shadow root or slot is involved, read in the flat tree: slotted
    /// content in its slot, a shadow host's shadow content instead of its
    /// light children, and no `<style>` or `<script>` text.
    pub text: Option<&'a str>,
    /// `alt` of the first descendant `img[alt]`, in the flat tree too.
    pub img_alt: Option<&'a str>,
}

impl Details<'_> {
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// What the browser says of the element's disabled state, as read
    /// ([`Disabling::disabling`] is the tree's to say: false here).
    pub fn disabling(&self) -> Disabling {
        Disabling::from_bits(self.flags)
    }
}

/// The raw facts the disabled rule ([`rules::is_disabled`]) decides on, read
/// per element by gather.js (`details` for the snapshot, `disabledFacts`
/// for bot's and Surface's checks): what the browser and the page say, no
/// decision.
///
/// [`rules::is_disabled`]: crate::rules::is_disabled
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Disabling {
    /// The element matches `:disabled` (a form control disabled by its own
    /// attribute or by a fieldset).
    pub matches_disabled: bool,
    /// The element or an ancestor is disabling
    /// ([`rules::is_disabling`](crate::rules::is_disabling)).
    pub disabling: bool,
    /// `<fieldset disabled>` elements it is in (itself included).
    pub fieldsets: u32,
    /// Of those, how many hold it in their first `<legend>` child.
    pub legends: u32,
    /// An open modal dialog is in its document.
    pub modal: bool,
    /// That dialog holds it.
    pub in_modal: bool,
}

impl Disabling {
    /// The facts as gather.js packs them into one integer (the `DETAIL_*`
    /// answer bits).
    pub fn from_bits(bits: u32) -> Self {
        Self {
            matches_disabled: bits & DETAIL_DISABLED != 0,
            disabling: bits & DETAIL_DISABLING != 0,
            fieldsets: (bits >> DETAIL_FIELDSETS_SHIFT) & 0xff,
            legends: (bits >> DETAIL_LEGENDS_SHIFT) & 0xff,
            modal: bits & DETAIL_MODAL != 0,
            in_modal: bits & DETAIL_IN_MODAL != 0,
        }
    }
}

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
    fn new(text: &'a str) -> Self {
        Self {
            text,
            pos: 0,
            owed: 0,
        }
    }

    fn take(&mut self, units: u32) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let mut left = (units as usize).checked_sub(std::mem::take(&mut self.owed))?;
        let mut end = self.pos;
        // UTF-16 units per character, read off its UTF-8 lead byte: one
        // below U+10000 (1 to 3 bytes), two from there (4 bytes).
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

    /// The `N` fields whose presence bits `head` sets.
    fn fields<const N: usize>(
        &mut self,
        head: u32,
        ints: &mut impl Iterator<Item = u32>,
    ) -> Option<[Option<&'a str>; N]> {
        let mut fields = [None; N];
        for (k, slot) in fields.iter_mut().enumerate() {
            if head & (1 << (FIELD_SHIFT + k as u32)) != 0 {
                *slot = Some(self.take(ints.next()?)?);
            }
        }
        Some(fields)
    }

    fn done(&self) -> bool {
        self.pos == self.text.len() && self.owed == 0
    }
}

/// Decodes `gather`'s answer. `None` when it is malformed (it never is when
/// the text and integers come from `gather.js`): a field past the text, text
/// left over, a record without its tag or end, an `end` outside
/// `index + 1 ..= count`.
pub fn facts<'a>(text: &'a str, ints: &[u32]) -> Option<Vec<Facts<'a>>> {
    let mut cursor = Cursor::new(text);
    let mut out = Vec::with_capacity(ints.len() / 3);
    let mut it = ints.iter().copied();
    while let Some(head) = it.next() {
        let end = it.next()? as usize;
        let [tag, kind, id, event, title, desc, page_title, dirty, role, aria_label, type_, tabindex, aria_disabled, size] =
            cursor.fields::<FACT_FIELDS>(head, &mut it)?;
        out.push(Facts {
            flags: head & ((1 << FIELD_SHIFT) - 1),
            end,
            tag: tag?,
            kind,
            id,
            event,
            title,
            desc,
            page_title,
            dirty,
            role,
            aria_label,
            type_,
            tabindex,
            aria_disabled,
            size,
        });
    }
    let count = out.len();
    let ends_fit = out
        .iter()
        .enumerate()
        .all(|(i, f)| f.end > i && f.end <= count);
    (cursor.done() && ends_fit).then_some(out)
}

/// Decodes `details`' answer, one record per ask. `None` when malformed.
pub fn details<'a>(text: &'a str, ints: &[u32]) -> Option<Vec<Details<'a>>> {
    let mut cursor = Cursor::new(text);
    let mut out = Vec::new();
    let mut it = ints.iter().copied();
    while let Some(head) = it.next() {
        let mut refs = Vec::new();
        if head & DETAIL_REFS != 0 {
            let n = it.next()?;
            for _ in 0..n {
                refs.push(cursor.take(it.next()?)?);
            }
        }
        let [value, label, placeholder, title, alt, text, img_alt] =
            cursor.fields::<DETAIL_FIELDS>(head, &mut it)?;
        out.push(Details {
            flags: head & DETAIL_FLAGS,
            refs,
            value,
            label,
            placeholder,
            title,
            alt,
            text,
            img_alt,
        });
    }
    cursor.done().then_some(out)
}

#[cfg(test)]
mod tests;
