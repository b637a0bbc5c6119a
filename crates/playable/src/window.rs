//! The snapshot's query and windows (`payload.query`, `offset`, `limit`):
//! which menu items and generics a snapshot carries when the agent asks for
//! part of the menu. Pure; the full read stays the source of the islands,
//! `dirty`, `noReload` and the escapes.

use sense::{Generic, MenuItem, Snapshot};
use serde::Serialize;

/// `menuWindow`: the menu items carried, out of `total` matching ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MenuWindow {
    pub offset: u64,
    pub limit: u64,
    pub total: usize,
}

/// `genericsWindow`: the visible generics carried, out of `total` matching
/// visible ones; `hidden` matching generics were left out as not visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GenericsWindow {
    pub offset: u64,
    pub limit: u64,
    pub total: usize,
    pub hidden: usize,
}

/// Unicode lowercase (the default case mapping, final sigma included). In
/// the module it is the platform's `String.prototype.toLowerCase` as the
/// module loaded it (a page that replaces it later cannot make it throw
/// mid-request), which keeps std's Unicode case tables (about 11 KB gzip)
/// out of the wasm; natively, std's `str::to_lowercase`, the same mapping.
#[cfg(target_arch = "wasm32")]
fn lowercase(s: &str) -> String {
    crate::web::js::lowercase(s)
}

#[cfg(not(target_arch = "wasm32"))]
fn lowercase(s: &str) -> String {
    s.to_lowercase()
}

/// What a snapshot downlink asked to see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    /// The query's whitespace-separated words, lowercased (none: everything matches).
    words: Vec<String>,
    /// As asked (u64: a wasm32 `usize` would cut what the window echoes).
    offset: u64,
    limit: Option<u64>,
}

impl Query {
    pub fn new(query: &str, offset: u64, limit: Option<u64>) -> Self {
        Self {
            words: query.split_whitespace().map(lowercase).collect(),
            offset,
            limit,
        }
    }

    /// Every word occurs, ignoring case, in at least one of `fields`.
    fn matches(&self, fields: &[&str]) -> bool {
        if self.words.is_empty() {
            return true;
        }
        let lowered: Vec<String> = fields.iter().map(|f| lowercase(f)).collect();
        self.words
            .iter()
            .all(|w| lowered.iter().any(|f| f.contains(w.as_str())))
    }

    pub fn item_matches(&self, m: &MenuItem) -> bool {
        self.matches(&[&m.id, &m.title, &m.desc])
    }

    pub fn generic_matches(&self, g: &Generic) -> bool {
        self.matches(&[&g.role, &g.name])
    }

    /// `[offset, offset + limit)` of `total` items; the limit as reported
    /// (asked, or what is left after the offset).
    fn range(&self, total: usize) -> (usize, usize, u64) {
        let total64 = total as u64;
        let start = self.offset.min(total64);
        let limit = self
            .limit
            .unwrap_or_else(|| total64.saturating_sub(self.offset));
        let end = start.saturating_add(limit).min(total64);
        // Both at most `total`, so they fit a usize.
        (start as usize, end as usize, limit)
    }

    /// Keeps, in order, the matching items of `list` inside the window.
    fn window<T>(&self, list: &mut Vec<T>, keep: impl Fn(&T) -> bool) -> (usize, u64) {
        let mut matching: Vec<T> = std::mem::take(list).into_iter().filter(keep).collect();
        let total = matching.len();
        let (start, end, limit) = self.range(total);
        matching.truncate(end);
        matching.drain(..start);
        *list = matching;
        (total, limit)
    }

    /// Windows `snapshot.menu` and `snapshot.generics` (visible ones only)
    /// in place and reports both windows. Everything else is left as read.
    pub fn apply(&self, snapshot: &mut Snapshot) -> (MenuWindow, GenericsWindow) {
        let (total, limit) = self.window(&mut snapshot.menu, |m| self.item_matches(m));
        let menu = MenuWindow {
            offset: self.offset,
            limit,
            total,
        };
        let hidden = snapshot
            .generics
            .iter()
            .filter(|g| !g.visible && self.generic_matches(g))
            .count();
        let (total, limit) = self.window(&mut snapshot.generics, |g| {
            g.visible && self.generic_matches(g)
        });
        let generics = GenericsWindow {
            offset: self.offset,
            limit,
            total,
            hidden,
        };
        (menu, generics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, title: &str, desc: &str) -> MenuItem {
        MenuItem {
            id: id.into(),
            event: "click".into(),
            title: title.into(),
            desc: desc.into(),
            enabled: true,
            visible: true,
            ..MenuItem::default()
        }
    }

    fn generic(n: usize, role: &str, name: &str, visible: bool) -> Generic {
        Generic {
            reference: format!("g{n}"),
            role: role.into(),
            name: name.into(),
            visible,
        }
    }

    fn rows() -> Snapshot {
        let mut s = Snapshot::default();
        for i in 0..1000 {
            s.menu.push(item(
                &format!("row.{i}.approve"),
                &format!("Approve item {i}"),
                if i % 2 == 0 { "Even row" } else { "" },
            ));
        }
        s.generics = vec![
            generic(0, "link", "Help", true),
            generic(1, "button", "Approve all", false),
            generic(2, "button", "Approve some", true),
            generic(3, "textbox", "", true),
        ];
        s.dirty = vec!["note".into()];
        s
    }

    fn ids(s: &Snapshot) -> Vec<&str> {
        s.menu.iter().map(|m| m.id.as_str()).collect()
    }

    #[test]
    fn a_query_finds_one_item_among_a_thousand() {
        let mut s = rows();
        let (menu, generics) = Query::new("Approve item 739", 0, None).apply(&mut s);
        assert_eq!(ids(&s), ["row.739.approve"]);
        assert_eq!(
            menu,
            MenuWindow {
                offset: 0,
                limit: 1,
                total: 1
            }
        );
        // "item" and "739" occur in no generic.
        assert!(s.generics.is_empty());
        assert_eq!(
            generics,
            GenericsWindow {
                offset: 0,
                limit: 0,
                total: 0,
                hidden: 0
            }
        );
        assert_eq!(s.dirty, ["note"], "the rest of the read is untouched");
    }

    #[test]
    fn words_match_any_field_ignoring_case() {
        let mut s = rows();
        // "even" is in desc, "APPROVE" in id and title, "12" in id/title.
        let (menu, _) = Query::new("  even\tAPPROVE 12 ", 0, None).apply(&mut s);
        assert_eq!(menu.total, ids(&s).len());
        assert!(ids(&s).iter().all(|id| id.contains("12")));
        assert!(s.menu.iter().all(|m| m.desc == "Even row"));
        assert!(ids(&s).contains(&"row.120.approve"));
        assert!(!ids(&s).contains(&"row.121.approve"));
        let mut s = rows();
        let (menu, _) = Query::new("ÉVEN", 0, None).apply(&mut s);
        assert_eq!(menu.total, 0, "no accent folding: only case");
    }

    #[test]
    fn windows_page_the_matches() {
        let mut s = rows();
        let (menu, generics) = Query::new("", 990, Some(50)).apply(&mut s);
        assert_eq!(s.menu.len(), 10);
        assert_eq!(s.menu[0].id, "row.990.approve");
        assert_eq!(
            menu,
            MenuWindow {
                offset: 990,
                limit: 50,
                total: 1000
            }
        );
        // The generics window has the same offset: past the 3 visible ones.
        assert!(s.generics.is_empty());
        assert_eq!(
            generics,
            GenericsWindow {
                offset: 990,
                limit: 50,
                total: 3,
                hidden: 1
            }
        );

        let mut s = rows();
        let (menu, generics) = Query::new("", 1, None).apply(&mut s);
        assert_eq!(
            menu,
            MenuWindow {
                offset: 1,
                limit: 999,
                total: 1000
            }
        );
        let refs: Vec<_> = s.generics.iter().map(|g| g.reference.as_str()).collect();
        assert_eq!(
            refs,
            ["g2", "g3"],
            "refs keep their positions in the full read"
        );
        assert_eq!(
            generics,
            GenericsWindow {
                offset: 1,
                limit: 2,
                total: 3,
                hidden: 1
            }
        );

        let mut s = rows();
        let (menu, _) = Query::new("", 5000, None).apply(&mut s);
        assert!(s.menu.is_empty());
        assert_eq!(
            menu,
            MenuWindow {
                offset: 5000,
                limit: 0,
                total: 1000
            }
        );

        let mut s = rows();
        let (menu, generics) = Query::new("approve", 0, Some(0)).apply(&mut s);
        assert!(s.menu.is_empty() && s.generics.is_empty());
        assert_eq!(
            menu,
            MenuWindow {
                offset: 0,
                limit: 0,
                total: 1000
            }
        );
        assert_eq!(
            generics,
            GenericsWindow {
                offset: 0,
                limit: 0,
                total: 1,
                hidden: 1
            }
        );

        let mut s = rows();
        let (menu, _) = Query::new("", u64::MAX, Some(u64::MAX)).apply(&mut s);
        assert!(s.menu.is_empty());
        assert_eq!(menu.total, 1000);
    }
}
