//! Page-authored text is capped so a hostile page cannot flood an agent's context.
//! These caps ([`cap_chars`]: titles, names, descriptions, field text)
//! count characters as JavaScript's `length` does (UTF-16 code units),
//! like the envelope bounds: an agent reading the snapshot in JS sees at
//! most that `length`. Ids and event names are bounded elsewhere, in
//! Unicode characters.

/// Titles, accessible names and the page title: at most this many characters.
pub const TITLE_MAX_CHARS: usize = 200;
/// Descriptions: at most this many characters.
pub const DESC_MAX_CHARS: usize = 1000;
/// Ids (`data-e2e-id` of playables, islands and dirty elements): one longer
/// than this is no id. Not cut: a cut id would name something else, and an
/// agent could not run it. Bounds what a hostile page puts in `menu`,
/// `islands`, `dirty` and the escape's reason.
pub const ID_MAX_CHARS: usize = 1024;
/// An unknown `data-e2e-event` is reported as written, up to this many
/// characters (every known event is far shorter, so a cut one stays unknown).
pub const EVENT_MAX_CHARS: usize = 40;

/// Collapses runs of whitespace, trims, and keeps at most `max` UTF-16 code
/// units (a JS string's `length`), never half of a surrogate pair.
pub fn cap_chars(s: &str, max: usize) -> String {
    if already_capped(s, max) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len().min(max.saturating_mul(4)));
    let mut count = 0;
    let mut pending_space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            pending_space = count > 0;
            continue;
        }
        // A space is kept only with the character after it.
        let space = usize::from(pending_space);
        let units = space + ch.len_utf16();
        if count + units > max {
            break;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.push(ch);
        count += units;
    }
    out
}

/// `s.length` in JavaScript: its UTF-16 code units (two for a character
/// past U+FFFF, whose UTF-8 lead byte is 0xF0 or more). A byte loop, like
/// [`char_count`].
pub fn utf16_len(s: &str) -> usize {
    s.bytes()
        .map(|b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
        .sum()
}

/// The number of characters (Unicode scalar values) in `s`. A byte loop:
/// core's `chars().count()` is a fast, large (~0.6 KB of wasm) routine,
/// and the strings counted here are ids and short values.
pub fn char_count(s: &str) -> usize {
    s.bytes().filter(|&b| (b as i8) >= -0x40).count()
}

/// The first `max` characters of `s` (all of it when shorter).
pub fn prefix_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}

/// `items` joined with `sep` (one small loop instead of `[T]::join`'s
/// generic copies).
pub fn join<'a>(items: impl IntoIterator<Item = &'a str>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item);
    }
    out
}

/// Most page text is short ASCII with single spaces: copied as is.
fn already_capped(s: &str, max: usize) -> bool {
    let bytes = s.as_bytes();
    if bytes.len() > max {
        return false;
    }
    let mut after_space = true; // no leading space
    for &b in bytes {
        if b >= 0x80 || (9..=13).contains(&b) {
            return false;
        }
        let space = b == b' ';
        if space && after_space {
            return false;
        }
        after_space = space;
    }
    bytes.is_empty() || !after_space
}

/// `s` as a JSON string literal (as `JSON.stringify` writes it): how every
/// crate quotes an id, key or origin in a message.
pub fn json_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_cutting_and_joining_follow_std() {
        for s in [
            "",
            "abc",
            "é✓😀x",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}",
        ] {
            assert_eq!(char_count(s), s.chars().count(), "{s}");
            for n in 0..7 {
                let std: String = s.chars().take(n).collect();
                assert_eq!(prefix_chars(s, n), std, "{s} {n}");
            }
        }
        for s in ["", "abc", "é✓😀x", "\u{ffff}\u{10000}\u{10ffff}"] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s}");
        }
        assert_eq!(join(["a", "b", "c"], ", "), ["a", "b", "c"].join(", "));
        assert_eq!(join([], ", "), "");
        assert_eq!(join(["x"], "; "), "x");
    }

    #[test]
    fn collapses_trims_and_caps() {
        assert_eq!(cap_chars("  a \n\t b  ", 10), "a b");
        assert_eq!(cap_chars("abcdef", 3), "abc");
        assert_eq!(cap_chars("ab cd", 3), "ab");
        assert_eq!(cap_chars("", 3), "");
        assert_eq!(cap_chars("記録已锁定", 2), "記録");
        assert_eq!(
            cap_chars(&"x".repeat(5000), TITLE_MAX_CHARS)
                .chars()
                .count(),
            200
        );
    }

    #[test]
    fn caps_count_utf16_units_and_never_split_a_pair() {
        // 300 emoji: 600 units; the cap keeps 100 of them (JS length 200).
        let emoji = cap_chars(&"😀".repeat(300), TITLE_MAX_CHARS);
        assert_eq!(emoji, "😀".repeat(100));
        assert_eq!(emoji.encode_utf16().count(), 200);
        // One unit left: the pair does not fit, nothing half of it is kept.
        assert_eq!(cap_chars("ab😀", 3), "ab");
        assert_eq!(cap_chars("a😀", 3), "a😀");
        // A space and the pair after it need three units.
        assert_eq!(cap_chars("ab 😀", 4), "ab");
        assert_eq!(cap_chars("ab 😀", 5), "ab 😀");
        assert_eq!(cap_chars("é✓", 2), "é✓");
        for n in 0..12 {
            let s = cap_chars("x 😀y\u{10000} z 😀😀", n);
            assert!(s.encode_utf16().count() <= n, "{n}: {s}");
            assert_eq!(s, s.trim(), "{n}");
        }
    }
}
