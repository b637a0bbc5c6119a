//! `bot` acts on a target the menu resolved: it checks actionability right
//! before dispatch and dispatches exactly once. Its types ([`Action`],
//! [`Report`], [`Refusal`], …) are its own; `playable` builds on them.

mod action;
mod field;

pub use action::{Action, Align, DispatchError, InputValue, Refusal, Report, Unactionable};
pub use field::{options_hold, Field, FieldFacts, NotEditable, OptionsRefusal, Unheld};

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

/// Whether `v` lies inside `0..size` (a viewport's axis).
fn within(v: f64, size: f64) -> bool {
    v >= 0.0 && v < size
}

/// Where the hit test for the action point `(x, y)` looks, in a viewport of
/// `width` × `height`: the point itself when it is inside; else, on each
/// axis, its coordinate when inside, else the viewport's middle (where
/// scrolling the target into view would bring it: nothing is scrolled to
/// test it, that would itself be a side effect). `None` for a viewport
/// without area (a document without a window).
pub fn probe((x, y): (f64, f64), width: f64, height: f64) -> Option<(f64, f64)> {
    let at = |v: f64, size: f64| if within(v, size) { v } else { size / 2.0 };
    (width > 0.0 && height > 0.0).then(|| (at(x, width), at(y, height)))
}

/// The facts around the wait of two animation frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    pub before: Rect,
    pub after: Rect,
    pub viewport_width: f64,
    pub viewport_height: f64,
    /// The element a hit test finds at the [`probe`] point of `after`'s
    /// centre, if any.
    pub hit: Option<Hit>,
}

/// The element a hit test found.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The target itself or one of its descendants.
    pub inside: bool,
    /// It (or what it was hit through, in an open shadow root) or an
    /// ancestor in the flat tree has computed `position: fixed`: it stays
    /// put when the page scrolls.
    pub pinned: bool,
    /// That fixed element holds the target too: they scroll together (a
    /// modal's own content).
    pub pin_holds_target: bool,
    /// For a target that is an open shadow host: the innermost element at
    /// the point lies in the target's shadow tree (a flat-tree descendant
    /// reached through its shadow root: its shadow content, or light
    /// content slotted into it). See [`Settled::clicks_hit`].
    pub in_shadow: bool,
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

impl Settled {
    /// Whether a click goes to the innermost element the hit test found
    /// rather than to the target: it was found at the action point itself
    /// (the centre is in the viewport; elsewhere the hit test looked at the
    /// probe point) and lies in the target's shadow tree. A person's click
    /// there reaches the component's own control (a `<button>` in its
    /// shadow root, whose listeners a click on the host never reaches);
    /// listeners outside the component still see the host as the target
    /// (retargeting). Every other click goes to the target itself.
    pub fn clicks_hit(&self) -> bool {
        let (x, y) = self.after.centre();
        let in_view = within(x, self.viewport_width) && within(y, self.viewport_height);
        in_view && self.hit.as_ref().is_some_and(|h| h.inside && h.in_shadow)
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
        // Inside the viewport the hit was at the action point: anything
        // but the target receives the event. Outside, it was at the probe
        // point, where scrolling would bring the target: only what stays
        // put when the page scrolls (and does not hold the target) would
        // still be there; content that scrolls with the page moves away.
        let (x, y) = settled.after.centre();
        let in_view = within(x, settled.viewport_width) && within(y, settled.viewport_height);
        let covers = |h: &&Hit| !h.inside && (in_view || (h.pinned && !h.pin_holds_target));
        if let Some(hit) = settled.hit.as_ref().filter(covers) {
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
            pinned: false,
            pin_holds_target: false,
            in_shadow: false,
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
    fn outside_the_viewport_what_scrolls_with_the_page_does_not_refuse() {
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

    /// A target whose centre is at (`x`, `y`), and what the hit test found
    /// (pinned: position fixed; shared: its fixed element holds the target).
    fn hit_at(x: f64, y: f64, inside: bool, pinned: bool, shared: bool) -> String {
        why(settled(|s| {
            s.before = rect(x, y);
            s.after = rect(x, y);
            s.hit = hit(inside, "DIV", "ov", &[]).map(|h| Hit {
                pinned,
                pin_holds_target: shared,
                ..h
            });
        }))
    }

    #[test]
    fn outside_the_viewport_only_what_stays_put_when_the_page_scrolls_refuses() {
        let refused = "another element (div#ov) would receive the event at the element's centre";
        // Below, right of, above and left of the viewport: a modal backdrop.
        for (x, y) in [(5.0, 500.0), (500.0, 5.0), (-50.0, 5.0), (5.0, -50.0)] {
            assert_eq!(hit_at(x, y, false, true, false), refused, "{x},{y}");
            // Content that scrolls with the page moves away.
            assert_eq!(hit_at(x, y, false, false, false), "ok", "{x},{y}");
            // The target itself (a box larger than the viewport).
            assert_eq!(hit_at(x, y, true, true, false), "ok", "{x},{y}");
        }
        // A modal's own scrolling content: the fixed element holds the
        // target, so scrolling it brings the target, not its container.
        assert_eq!(hit_at(5.0, 500.0, false, true, true), "ok");
        // In view, today's rule: anything else refuses, fixed or not, even
        // a fixed container of the target (it is on top at the point).
        for (pinned, shared) in [(false, false), (true, false), (true, true)] {
            assert_eq!(hit_at(5.0, 5.0, false, pinned, shared), refused);
        }
        assert_eq!(hit_at(5.0, 5.0, true, true, false), "ok");
    }

    #[test]
    fn the_probe_is_where_scrolling_would_bring_the_point() {
        // Inside: the point itself.
        assert_eq!(probe((5.0, 6.0), 100.0, 80.0), Some((5.0, 6.0)));
        assert_eq!(probe((0.0, 79.5), 100.0, 80.0), Some((0.0, 79.5)));
        // Outside on one axis: that axis at the viewport's middle.
        assert_eq!(probe((5.0, 3000.0), 100.0, 80.0), Some((5.0, 40.0)));
        assert_eq!(probe((5.0, 80.0), 100.0, 80.0), Some((5.0, 40.0)));
        assert_eq!(probe((-1.0, 6.0), 100.0, 80.0), Some((50.0, 6.0)));
        // Outside on both, or not a number: the middle.
        assert_eq!(probe((-9.0, 900.0), 100.0, 80.0), Some((50.0, 40.0)));
        assert_eq!(probe((f64::NAN, 6.0), 100.0, 80.0), Some((50.0, 6.0)));
        // No viewport: no probe, no hit test.
        assert_eq!(probe((5.0, 6.0), 0.0, 80.0), None);
        assert_eq!(probe((5.0, 6.0), 100.0, 0.0), None);
    }

    #[test]
    fn a_click_goes_inside_the_target_only_for_its_own_shadow_tree_at_the_action_point() {
        // What the hit test found: inside the target or not, in its shadow
        // tree or not; the target's centre at (x, y) in a 100 × 100 viewport.
        let clicks_hit = |x: f64, y: f64, inside: bool, in_shadow: bool| {
            let mut s = ready().settled.expect("settled");
            s.after = rect(x, y);
            s.hit = hit(inside, "BUTTON", "", &[]).map(|h| Hit { in_shadow, ..h });
            s.clicks_hit()
        };
        // A shadow host whose shadow button is at its centre: that button.
        assert!(clicks_hit(5.0, 5.0, true, true));
        // The target itself or its light descendants: the target, as before.
        assert!(!clicks_hit(5.0, 5.0, true, false));
        // Something else on top (the check refuses it), or nothing found.
        assert!(!clicks_hit(5.0, 5.0, false, true));
        assert!(!clicks_hit(5.0, 5.0, false, false));
        let mut none = ready().settled.expect("settled");
        none.hit = None;
        assert!(!none.clicks_hit());
        // Centre out of view: the hit test looked at the probe point, not
        // at the action point; the target is clicked.
        for (x, y) in [(95.0, 5.0), (5.0, 95.0), (-6.0, 5.0), (5.0, 500.0)] {
            assert!(!clicks_hit(x, y, true, true), "{x},{y}");
        }
    }

    #[test]
    fn a_page_written_name_is_capped_in_the_reason() {
        let long = "x".repeat(50_000);
        let reason = why(settled(|s| s.hit = hit(false, "DIV", "", &[&long, &long])));
        assert!(reason.len() < 200, "{}", reason.len());
        assert!(reason.starts_with("another element (div.xxxx"));
    }
}
