//! The rules of the DOM read, as pure functions of the raw facts gather.js
//! reads (see `wire.rs`): which elements are read at all, which role an
//! element has, whether it is interactive, what disables it, and what its
//! accessible name is. How names are capped is `text.rs`'s [`cap_chars`]
//! (applied in `build.rs`); which elements need which details is `read.rs`.
//!
//! [`cap_chars`]: crate::cap_chars

use std::borrow::Cow;

use crate::wire::{
    Details, Disabling, Facts, ASK_ALT, ASK_IMG_ALT, ASK_LABEL, ASK_PLACEHOLDER, ASK_TEXT,
    ASK_TITLE, ASK_VALUE, DETAIL_REFS, FACT_EDITABLE, FACT_HREF, FACT_INERT, FACT_MULTIPLE,
};

/// The values of `aria-disabled` that do not disable, besides `""` (ASCII
/// case-insensitive, untrimmed).
const ARIA_NOT_DISABLED: [&str; 2] = ["false", "undefined"];

/// The elements that disable themselves and their subtree (see
/// [`is_disabling`]), as a selector: the gather's query matches them so the
/// enabled rule needs no ancestor walk per element, and the gather and the
/// per-element read of bot and Surface (`disabledFacts` in gather.js) test
/// an element's ancestors with it. The same values as [`aria_disables`]
/// (`i`: ASCII case-insensitive, as `eq_ignore_ascii_case`).
pub const DISABLING: &str = "[aria-disabled]:not([aria-disabled=\"\"],\
[aria-disabled=\"false\" i],[aria-disabled=\"undefined\" i]),[inert]";

/// Tags that are interactive by themselves (`INPUT` unless `type=hidden`).
const CONTROLS: [&str; 5] = ["BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"];
/// Tags that are interactive with an `href`.
const LINKS: [&str; 2] = ["A", "AREA"];
/// SVG's `<a>` (its `tagName` keeps the lower case): a link with an `href`,
/// as HTML's is; `a[href]` in [`CANDIDATES`] matches both.
const SVG_LINK: &str = "a";
/// Roles that make an element interactive, whatever its tag.
pub const INTERACTIVE_ROLES: [&str; 16] = [
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "textbox",
    "searchbox",
    "combobox",
    "slider",
    "spinbutton",
    "treeitem",
];

/// How many UTF-16 units of any text (an element's, a label's, a
/// reference's) the gather hands over: generous, names are capped to
/// [`TITLE_MAX_CHARS`](crate::TITLE_MAX_CHARS) after collapsing whitespace.
/// A bound on what crosses, so a huge text costs one slice; over it,
/// gather.js makes each whitespace run one space before cutting, so a name
/// behind a long run of whitespace is not cut away.
pub const TEXT_READ_MAX: u32 = 2000;

/// The selector of the elements the gather reads: every marker, every
/// element [`is_interactive`] can accept, and every [`DISABLING`] one (a test
/// builds it from the rules' own tables). Wrapped in `:where()`, which
/// Chromium matches about a third faster than the bare list
/// (bench/notes.md).
pub const CANDIDATES: &str = ":where([data-e2e-kind],[data-e2e-pagetitle],[data-e2e-dirty],\
[data-e2e-noreload],a[href],area[href],button,input,select,textarea,summary,[role],[aria-label],\
[tabindex],[contenteditable],[aria-disabled]:not([aria-disabled=\"\"],\
[aria-disabled=\"false\" i],[aria-disabled=\"undefined\" i]),[inert])";

/// The elements that guard a reload: what a read beyond the scan root
/// (`dom::beyond_root`) looks for.
pub const RELOAD_MARKERS: &str = "[data-e2e-dirty],[data-e2e-noreload]";

/// How many same-origin frames a read beyond the scan root reads at most,
/// and how deep it follows frames in frames: bounded work on a page of many
/// frames. One more to read is a reload refused (its unsaved work unknown).
pub const FRAMES_MAX: u32 = 64;
pub const FRAME_DEPTH: u32 = 8;

/// [`CANDIDATES`] and every `img`: the query when a slot spec asks for the
/// `img` role (`IslandSlots::asks_role`). An image is not interactive, so
/// it only ever matters as a slot; other reads leave images out rather than
/// read the facts of every image on the page.
pub const CANDIDATES_WITH_IMAGES: &str = ":where([data-e2e-kind],[data-e2e-pagetitle],\
[data-e2e-dirty],[data-e2e-noreload],a[href],area[href],button,input,select,textarea,summary,\
[role],[aria-label],[tabindex],[contenteditable],[aria-disabled]:not([aria-disabled=\"\"],\
[aria-disabled=\"false\" i],[aria-disabled=\"undefined\" i]),[inert],img)";

/// The implicit role of `<img>`, the one role [`CANDIDATES`] leaves out.
pub const IMG_ROLE: &str = "img";

/// Whether an `aria-disabled` value disables, as Chromium's accessibility
/// tree reads it: any value but `""`, `false` and `undefined` (ASCII
/// case-insensitive, not trimmed: `TRUE`, `" true "` and `" false "`
/// disable).
pub fn aria_disables(value: &str) -> bool {
    !value.is_empty()
        && !ARIA_NOT_DISABLED
            .iter()
            .any(|v| v.eq_ignore_ascii_case(value))
}

/// `aria-disabled` that disables ([`aria_disables`]) or `inert` on the
/// element: it and everything below it (through open shadow roots) are
/// disabled.
pub fn is_disabling(f: &Facts) -> bool {
    f.aria_disabled.is_some_and(aria_disables) || f.has(FACT_INERT)
}

/// Whether an element is disabled, by the browser's rules and the page's:
/// - it matches `:disabled` (a form control);
/// - it or an ancestor is disabling ([`is_disabling`]: an `aria-disabled`
///   that disables, or `inert`);
/// - it is inside a `<fieldset disabled>` but not inside that fieldset's
///   first `<legend>` child: any element, not only a form control (each
///   disabled fieldset around it must exempt it);
/// - an open modal dialog is in its document (or one of its open shadow
///   roots) and does not hold it in the flat tree (showModal makes the rest
///   of the document inert, with no attribute).
///
/// The one rule of the snapshot's `enabled`, bot's actionability and
/// Surface's playables.
pub fn is_disabled(d: &Disabling) -> bool {
    d.matches_disabled || d.disabling || d.legends < d.fieldsets || (d.modal && !d.in_modal)
}

/// The element's role: the first token of a non-empty `role` attribute, in
/// ASCII lower case (role names are ASCII and compare ASCII
/// case-insensitively; `""` when the attribute is only whitespace), else the
/// implicit role of its tag.
pub fn role<'a>(f: &Facts<'a>) -> Cow<'a, str> {
    match f.role {
        Some(explicit) if !explicit.is_empty() => {
            let token = explicit.split_whitespace().next().unwrap_or("");
            if token.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(token.to_ascii_lowercase())
            } else {
                Cow::Borrowed(token)
            }
        }
        _ => Cow::Borrowed(implicit_role(f)),
    }
}

/// The role an element has without a `role` attribute (`""`: none the menu
/// names).
pub fn implicit_role(f: &Facts) -> &'static str {
    match f.tag {
        "A" | "AREA" | SVG_LINK if f.has(FACT_HREF) => "link",
        "A" | "AREA" => "",
        "IMG" => IMG_ROLE,
        "BUTTON" | "SUMMARY" => "button",
        "SELECT" if f.has(FACT_MULTIPLE) || f.size.and_then(html_integer).unwrap_or(0) > 1 => {
            "listbox"
        }
        "SELECT" => "combobox",
        "TEXTAREA" => "textbox",
        "INPUT" => input_role(f.type_.unwrap_or("")),
        _ if f.has(FACT_EDITABLE) => "textbox",
        _ => "",
    }
}

/// The role of an `<input>` by its `type` (ASCII case-insensitive, as HTML
/// reads it); unknown and missing types are text fields.
fn input_role(type_: &str) -> &'static str {
    const ROLES: [(&str, &str); 9] = [
        ("button", "button"),
        ("submit", "button"),
        ("reset", "button"),
        ("image", "button"),
        ("checkbox", "checkbox"),
        ("radio", "radio"),
        ("range", "slider"),
        ("number", "spinbutton"),
        ("search", "searchbox"),
    ];
    ROLES
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(type_))
        .map_or("textbox", |(_, role)| role)
}

/// Whether an element counts as interactive (a generic ref when unmarked):
/// a form control (not a hidden input), a summary, a link with an `href`, an
/// interactive role, editable content, or focusable through `tabindex ≥ 0`.
pub fn is_interactive(f: &Facts, role: &str) -> bool {
    match f.tag {
        "INPUT" => !f.type_.unwrap_or("").eq_ignore_ascii_case("hidden"),
        t if CONTROLS.contains(&t) => true,
        t if (LINKS.contains(&t) || t == SVG_LINK) && f.has(FACT_HREF) => true,
        _ => {
            INTERACTIVE_ROLES.contains(&role)
                || f.has(FACT_EDITABLE)
                || f.tabindex.and_then(html_integer).is_some_and(|t| t >= 0)
        }
    }
}

/// HTML's rules for parsing integers (how browsers read `tabindex` and
/// `size`): leading ASCII whitespace, an optional sign, then at least one
/// digit; anything after the digits is ignored. Saturates instead of
/// overflowing.
pub fn html_integer(s: &str) -> Option<i64> {
    let s = s.trim_start_matches(['\t', '\n', '\u{c}', '\r', ' ']);
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = &digits[..digits.bytes().take_while(u8::is_ascii_digit).count()];
    if digits.is_empty() {
        return None;
    }
    let value = digits.bytes().fold(0i64, |v, d| {
        v.saturating_mul(10).saturating_add(i64::from(d - b'0'))
    });
    Some(if negative { -value } else { value })
}

/// True when `s` has no character but whitespace.
fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// `s`, unless it is empty.
fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

/// The accessible name of an element whose `aria-label` has text: that
/// label (`None`: the name needs the details [`name_asks`] says).
pub fn name_from_label<'a>(f: &Facts<'a>) -> Option<&'a str> {
    f.aria_label.filter(|l| !is_blank(l))
}

/// The `<input>` types that are buttons named by their value, and the name
/// each has without one.
fn button_default(f: &Facts) -> Option<&'static str> {
    if f.tag != "INPUT" {
        return None;
    }
    let type_ = f.type_.unwrap_or("");
    [("button", ""), ("submit", "Submit"), ("reset", "Reset")]
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(type_))
        .map(|(_, name)| *name)
}

/// An `<input type=image>`: a button named by its label, `alt`, value or
/// title, else "Submit" (as Chromium names it).
fn is_image_button(f: &Facts) -> bool {
    f.tag == "INPUT" && f.type_.unwrap_or("").eq_ignore_ascii_case("image")
}

/// What an image button is named by when no label names it.
const IMAGE_BUTTON_DEFAULT: &str = "Submit";

/// Which details the accessible name of an element needs (its
/// `aria-labelledby` references always; then, by tag, what names it).
pub fn name_asks(f: &Facts) -> u32 {
    DETAIL_REFS
        | match f.tag {
            "INPUT" if button_default(f).is_some() => ASK_VALUE,
            "INPUT" if is_image_button(f) => ASK_LABEL | ASK_ALT | ASK_VALUE | ASK_TITLE,
            "INPUT" | "SELECT" | "TEXTAREA" => ASK_LABEL | ASK_PLACEHOLDER | ASK_TITLE,
            "IMG" | "AREA" => ASK_ALT | ASK_TITLE,
            _ => ASK_TEXT,
        }
}

/// An accessible name, or that it needs the [`FALLBACK_ASKS`].
#[derive(Debug, Clone, PartialEq)]
pub enum Name<'a> {
    Known(Cow<'a, str>),
    /// The element's text is blank: see [`name_from_fallbacks`].
    BlankText,
}

/// What an element whose text is blank is named by (read only for those,
/// in a second `details` call: icon-only controls are few, and the image
/// query walks the element's subtree).
pub const FALLBACK_ASKS: u32 = ASK_IMG_ALT | ASK_TITLE;

/// The accessible name from the details [`name_asks`] asked for, in order:
/// the texts of the `aria-labelledby` references (joined by a space); a
/// button input's value or its default (Submit, Reset); an image button's
/// first label, alt, value, title or "Submit"; a form control's first
/// label, placeholder or title; an image's or area's alt or title; an
/// element's text (else [`Name::BlankText`]).
pub fn name<'a>(f: &Facts, d: &Details<'a>) -> Name<'a> {
    let known = |s: &'a str| Name::Known(Cow::Borrowed(s));
    match d.refs.as_slice() {
        [] => {}
        [one] => return known(one),
        many => return Name::Known(Cow::Owned(crate::join(many.iter().copied(), " "))),
    }
    match f.tag {
        "INPUT" | "SELECT" | "TEXTAREA" => {
            if let Some(default) = button_default(f) {
                return known(non_empty(d.value).unwrap_or(default));
            }
            if let Some(label) = d.label {
                return known(label);
            }
            if is_image_button(f) {
                return known(
                    non_empty(d.alt)
                        .or(non_empty(d.value))
                        .or(non_empty(d.title))
                        .unwrap_or(IMAGE_BUTTON_DEFAULT),
                );
            }
            known(
                non_empty(d.placeholder)
                    .or(non_empty(d.title))
                    .unwrap_or(""),
            )
        }
        "IMG" | "AREA" => known(non_empty(d.alt).or(non_empty(d.title)).unwrap_or("")),
        _ => match d.text {
            Some(text) if !is_blank(text) => known(text),
            _ => Name::BlankText,
        },
    }
}

/// The name of an element with a blank text from its [`FALLBACK_ASKS`]:
/// the `alt` of its first `img[alt]` when that is not empty, else its title.
pub fn name_from_fallbacks<'a>(d: &Details<'a>) -> &'a str {
    non_empty(d.img_alt).or(non_empty(d.title)).unwrap_or("")
}

#[cfg(test)]
mod tests;
