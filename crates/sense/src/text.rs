//! Page-authored text is capped so a hostile page cannot flood an agent's context.

/// Titles, accessible names and the page title: at most this many characters.
pub const TITLE_MAX_CHARS: usize = 200;
/// Descriptions: at most this many characters.
pub const DESC_MAX_CHARS: usize = 1000;

/// Collapses runs of whitespace, trims, and keeps at most `max` characters.
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
        if pending_space {
            if count + 1 >= max {
                break;
            }
            out.push(' ');
            count += 1;
            pending_space = false;
        }
        if count >= max {
            break;
        }
        out.push(ch);
        count += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
