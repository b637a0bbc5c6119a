//! `bot` acts on a target the menu resolved: it checks actionability right
//! before dispatch and dispatches exactly once. Its types ([`Action`],
//! [`Report`], [`Refusal`], …) are its own; `playable` builds on them.

mod action;
mod field;

pub use action::{Action, Align, DispatchError, InputValue, Refusal, Report, Unactionable};
pub use field::{disabled_option, missing_options, Field, FieldFacts};

/// What is known about a target right before dispatch: the page's facts,
/// read by the DOM adapter (dom.rs, around act.js `twoFrames`), judged here.
#[derive(Debug, Clone, PartialEq)]
pub struct Actionability {
    pub connected: bool,
    pub visible: bool,
    /// What the two-frame wait found; `None` before it (only attached and
    /// visible are known then, and are checked first so that nothing waits
    /// for a target that cannot act).
    pub settled: Option<Settled>,
    pub enabled: bool,
    /// For `input` only: what says the element is read-only.
    pub editable: Option<Editable>,
}

/// The read-only facts of an `input` target.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Editable {
    /// Its own `readOnly` property (`<input readonly>`, `<textarea readonly>`).
    pub read_only: bool,
    /// `aria-readonly="true"`.
    pub aria_read_only: bool,
    /// `isContentEditable` is not `false`.
    pub content_editable: bool,
}

impl Editable {
    /// Read-only by its own `readOnly`, or by `aria-readonly="true"` on an
    /// element that is not contenteditable.
    pub fn read_only(&self) -> bool {
        self.read_only || (self.aria_read_only && !self.content_editable)
    }
}

/// A box as `getBoundingClientRect` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// The action point.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
}

/// The facts around the wait of two animation frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    pub before: Rect,
    pub after: Rect,
    pub viewport_width: f64,
    pub viewport_height: f64,
    /// The element a hit test finds at `after`'s centre, if any.
    pub hit: Option<Hit>,
}

/// The element a hit test found.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The target itself or one of its descendants.
    pub inside: bool,
    pub tag: String,
    pub id: String,
    /// Its `class` attribute.
    pub class: String,
}

/// How many characters of a page-authored tag, id or class a refusal quotes.
const NAME_MAX_CHARS: usize = 40;

/// `s` up to [`NAME_MAX_CHARS`] characters.
fn cap(s: &str) -> &str {
    s.char_indices()
        .nth(NAME_MAX_CHARS)
        .map_or(s, |(i, _)| &s[..i])
}

impl Hit {
    /// `div#overlay`, else `div.a.b` (its first two classes), else `div`:
    /// the other element, as a refusal names it (each part capped: the page
    /// writes them).
    fn describe(&self) -> String {
        let mut out: String = cap(&self.tag)
            .chars()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if !self.id.is_empty() {
            out.push('#');
            out.push_str(cap(&self.id));
        } else {
            for class in self.class.split_ascii_whitespace().take(2) {
                out.push('.');
                out.push_str(cap(class));
            }
        }
        out
    }
}

impl Actionability {
    /// Names the first failing condition, in the contract's order:
    /// attached, visible, stable, receives events, enabled, editable.
    pub fn verdict(&self) -> Result<(), Unactionable> {
        if !self.connected {
            return Err(Unactionable::Detached);
        }
        if !self.visible {
            return Err(Unactionable::Hidden);
        }
        let Some(settled) = &self.settled else {
            return Ok(());
        };
        if settled.before != settled.after {
            return Err(Unactionable::Unstable);
        }
        // The hit test needs the action point inside the viewport; outside
        // it, it is skipped (scrolling the target into view to test it would
        // itself be a side effect).
        let (x, y) = settled.after.centre();
        let in_view =
            x >= 0.0 && y >= 0.0 && x < settled.viewport_width && y < settled.viewport_height;
        if let Some(hit) = settled.hit.as_ref().filter(|h| in_view && !h.inside) {
            return Err(Unactionable::Obscured(hit.describe()));
        }
        if !self.enabled {
            return Err(Unactionable::Disabled);
        }
        if self.editable.is_some_and(|e| e.read_only()) {
            return Err(Unactionable::ReadOnly);
        }
        Ok(())
    }
}

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
pub use dom::{element, DomBot};

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64) -> Rect {
        Rect {
            x,
            y,
            width: 10.0,
            height: 10.0,
        }
    }

    fn hit(inside: bool, tag: &str, id: &str, classes: &[&str]) -> Option<Hit> {
        Some(Hit {
            inside,
            tag: tag.into(),
            id: id.into(),
            class: format!("  {} ", classes.join("\t ")),
        })
    }

    fn ready() -> Actionability {
        Actionability {
            connected: true,
            visible: true,
            settled: Some(Settled {
                before: rect(5.0, 5.0),
                after: rect(5.0, 5.0),
                viewport_width: 100.0,
                viewport_height: 100.0,
                hit: hit(true, "BUTTON", "", &[]),
            }),
            enabled: true,
            editable: Some(Editable::default()),
        }
    }

    fn why(a: Actionability) -> String {
        a.verdict().map_or_else(|e| e.to_string(), |()| "ok".into())
    }

    fn settled(f: impl FnOnce(&mut Settled)) -> Actionability {
        let mut a = ready();
        f(a.settled.as_mut().expect("settled"));
        a
    }

    #[test]
    fn each_condition_has_its_reason() {
        assert_eq!(why(ready()), "ok");
        let detached = Actionability {
            connected: false,
            ..ready()
        };
        assert_eq!(why(detached), "the element is detached from the document");
        let hidden = Actionability {
            visible: false,
            ..ready()
        };
        assert_eq!(why(hidden), "the element is not visible");
        assert_eq!(
            why(settled(|s| s.after = rect(5.0, 6.0))),
            "the element is not stable (it moved or resized between two animation frames)"
        );
        assert!(why(settled(|s| s.after.width = 11.0)).contains("not stable"));
        assert_eq!(
            why(settled(|s| s.hit = hit(false, "DIV", "overlay", &["a"]))),
            "another element (div#overlay) would receive the event at the element's centre"
        );
        assert!(
            why(settled(|s| s.hit = hit(false, "DIV", "", &["a", "b", "c"]))).contains("(div.a.b)")
        );
        let disabled = Actionability {
            enabled: false,
            ..ready()
        };
        assert_eq!(why(disabled), "the element is disabled");
        let editable = |read_only, aria_read_only, content_editable| {
            why(Actionability {
                editable: Some(Editable {
                    read_only,
                    aria_read_only,
                    content_editable,
                }),
                ..ready()
            })
        };
        assert_eq!(editable(true, false, false), "the element is read-only");
        assert_eq!(editable(false, true, false), "the element is read-only");
        assert_eq!(
            editable(false, true, true),
            "ok",
            "a contenteditable's aria-readonly does not count"
        );
        assert_eq!(editable(false, false, true), "ok");
        let click = Actionability {
            editable: None,
            ..ready()
        };
        assert_eq!(why(click), "ok");
    }

    #[test]
    fn the_first_failing_condition_in_order_wins() {
        // Everything wrong at once: each condition, removed in order,
        // reveals the next one's reason.
        let mut a = Actionability {
            connected: false,
            visible: false,
            settled: Some(Settled {
                before: rect(0.0, 0.0),
                after: rect(1.0, 1.0),
                viewport_width: 100.0,
                viewport_height: 100.0,
                hit: hit(false, "DIV", "cover", &[]),
            }),
            enabled: false,
            editable: Some(Editable {
                read_only: true,
                ..Editable::default()
            }),
        };
        let mut seen = vec![why(a.clone())];
        a.connected = true;
        seen.push(why(a.clone()));
        a.visible = true;
        seen.push(why(a.clone()));
        if let Some(s) = a.settled.as_mut() {
            s.before = s.after;
        }
        seen.push(why(a.clone()));
        if let Some(s) = a.settled.as_mut() {
            s.hit = None;
        }
        seen.push(why(a.clone()));
        a.enabled = true;
        seen.push(why(a.clone()));
        a.editable = None;
        seen.push(why(a));
        let short: Vec<&str> = seen
            .iter()
            .map(|w| w.split_whitespace().nth(3).unwrap_or(w))
            .collect();
        assert_eq!(
            short,
            [
                "detached",
                "not",
                "not",
                "would",
                "disabled",
                "read-only",
                "ok"
            ]
        );
        assert!(seen[1].contains("visible") && seen[2].contains("stable"));
    }

    #[test]
    fn before_the_wait_only_attached_and_visible_are_judged() {
        let early = Actionability {
            settled: None,
            enabled: false,
            editable: Some(Editable {
                read_only: true,
                ..Editable::default()
            }),
            ..ready()
        };
        assert_eq!(why(early.clone()), "ok");
        assert!(why(Actionability {
            visible: false,
            ..early
        })
        .contains("not visible"));
    }

    #[test]
    fn the_hit_test_is_skipped_outside_the_viewport() {
        let covered = |x: f64, y: f64| {
            why(settled(|s| {
                s.before = rect(x, y);
                s.after = rect(x, y);
                s.hit = hit(false, "DIV", "cover", &[]);
            }))
        };
        assert!(covered(5.0, 5.0).contains("div#cover"));
        // Centres at x or y = 100 (the viewport's edge) and beyond, or below 0.
        for (x, y) in [
            (95.0, 5.0),
            (5.0, 95.0),
            (-6.0, 5.0),
            (5.0, -6.0),
            (500.0, 500.0),
        ] {
            assert_eq!(covered(x, y), "ok", "{x},{y}");
        }
        assert_eq!(why(settled(|s| s.hit = None)), "ok");
    }

    #[test]
    fn a_page_written_name_is_capped_in_the_reason() {
        let long = "x".repeat(50_000);
        let reason = why(settled(|s| s.hit = hit(false, "DIV", "", &[&long, &long])));
        assert!(reason.len() < 200, "{}", reason.len());
        assert!(reason.starts_with("another element (div.xxxx"));
    }
}
