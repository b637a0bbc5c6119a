//! The snapshot's query and windows (`payload.query`, `offset`, `limit`):
//! which menu items, generics and islands a snapshot carries when the agent
//! asks for part of the menu. Pure; the full read stays the source of
//! `dirty`, `noReload` and the escapes.

use sense::{Generic, Index, MenuItem, Snapshot};
use serde::Serialize;
use std::borrow::Cow;

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

/// The windows' accounts of one windowed snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Windows {
    pub menu: MenuWindow,
    pub generics: GenericsWindow,
    /// `islandsTotal`: the islands of the full read, of which only those
    /// the menu window concerns are carried. Islands are not paged (they
    /// follow the menu window), so no offset or limit.
    pub islands_total: usize,
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
    /// in place, keeps the islands the menu window concerns (`concerned`),
    /// and reports the windows. Everything else is left as read.
    pub fn apply(&self, snapshot: &mut Snapshot) -> Windows {
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
        let islands_total = snapshot.islands.len();
        concerned(snapshot);
        Windows {
            menu,
            generics,
            islands_total,
        }
    }
}

/// Keeps the islands a windowed menu concerns: one of its slots is a row of
/// the window (by id), or one of its slots was not found. A slot not found
/// has no menu row, so the islands list is the only place that tells it; it
/// is told in every window, as a page defect. An island without slots has
/// no row either and nothing to tell, so it is left out.
fn concerned(snapshot: &mut Snapshot) {
    // Indexed (sense's one string table): a window without a limit can hold
    // the whole menu.
    let mut shown = Index::default();
    for (at, m) in snapshot.menu.iter().enumerate() {
        shown.insert(Cow::Borrowed(m.id.as_str()), at);
    }
    snapshot.islands.retain(|island| {
        island
            .slots
            .iter()
            .any(|s| !s.resolved || shown.get(&s.id).is_some())
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use sense::{Island, IslandSlot};

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

    fn island(id: &str, slots: &[(&str, bool)]) -> Island {
        Island {
            id: id.into(),
            slots: slots
                .iter()
                .map(|&(name, resolved)| IslandSlot {
                    name: name.into(),
                    id: format!("{id}:{name}"),
                    resolved,
                })
                .collect(),
        }
    }

    /// A pager (two slots found), tabs (one), a broken island (a slot not
    /// found) and one without slots, the slots' rows among plain rows.
    fn with_islands() -> Snapshot {
        Snapshot {
            menu: vec![
                item("save", "Save", ""),
                item("pager:next", "Next page", ""),
                item("pager:prev", "Previous page", ""),
                item("tabs:news", "News", ""),
                item("help", "Help", ""),
            ],
            islands: vec![
                island("pager", &[("next", true), ("prev", true)]),
                island("tabs", &[("news", true)]),
                island("broken", &[("found", true), ("lost", false)]),
                island("bare", &[]),
            ],
            ..Snapshot::default()
        }
    }

    fn island_ids(s: &Snapshot) -> Vec<&str> {
        s.islands.iter().map(|i| i.id.as_str()).collect()
    }

    #[test]
    fn islands_follow_the_menu_window() {
        let mut s = with_islands();
        let w = Query::new("next", 0, None).apply(&mut s);
        assert_eq!(ids(&s), ["pager:next"]);
        assert_eq!(
            island_ids(&s),
            ["pager", "broken"],
            "the window's slot, and the slot not found (no row tells it)"
        );
        assert_eq!(s.islands[0], with_islands().islands[0], "slots kept whole");
        assert_eq!(w.islands_total, 4);

        // Rows 3 and 4: the tabs' slot is among them.
        let mut s = with_islands();
        let w = Query::new("", 3, Some(2)).apply(&mut s);
        assert_eq!(ids(&s), ["tabs:news", "help"]);
        assert_eq!(island_ids(&s), ["tabs", "broken"]);
        assert_eq!(w.islands_total, 4);

        // A window holding no slot row: only the island with a slot not found.
        let mut s = with_islands();
        Query::new("save", 0, None).apply(&mut s);
        assert_eq!(island_ids(&s), ["broken"]);

        // The whole menu as a window: every island with a slot; one without
        // slots concerns no row.
        let mut s = with_islands();
        Query::new("", 0, None).apply(&mut s);
        assert_eq!(island_ids(&s), ["pager", "tabs", "broken"]);

        // An island whose slots were all found, none in the window: left out.
        let mut s = with_islands();
        s.islands.retain(|i| i.id != "broken");
        let w = Query::new("", 0, Some(0)).apply(&mut s);
        assert!(s.islands.is_empty());
        assert_eq!(w.islands_total, 3);
    }

    #[test]
    fn a_query_finds_one_item_among_a_thousand() {
        let mut s = rows();
        let Windows { menu, generics, .. } = Query::new("Approve item 739", 0, None).apply(&mut s);
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
        let Windows { menu, .. } = Query::new("  even\tAPPROVE 12 ", 0, None).apply(&mut s);
        assert_eq!(menu.total, ids(&s).len());
        assert!(ids(&s).iter().all(|id| id.contains("12")));
        assert!(s.menu.iter().all(|m| m.desc == "Even row"));
        assert!(ids(&s).contains(&"row.120.approve"));
        assert!(!ids(&s).contains(&"row.121.approve"));
        let mut s = rows();
        let Windows { menu, .. } = Query::new("ÉVEN", 0, None).apply(&mut s);
        assert_eq!(menu.total, 0, "no accent folding: only case");
    }

    #[test]
    fn windows_page_the_matches() {
        let mut s = rows();
        let Windows { menu, generics, .. } = Query::new("", 990, Some(50)).apply(&mut s);
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
        let Windows { menu, generics, .. } = Query::new("", 1, None).apply(&mut s);
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
        let Windows { menu, .. } = Query::new("", 5000, None).apply(&mut s);
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
        let Windows { menu, generics, .. } = Query::new("approve", 0, Some(0)).apply(&mut s);
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
        let Windows { menu, .. } = Query::new("", u64::MAX, Some(u64::MAX)).apply(&mut s);
        assert!(s.menu.is_empty());
        assert_eq!(menu.total, 1000);
    }
}
