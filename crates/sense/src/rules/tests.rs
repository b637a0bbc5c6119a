use super::*;
use crate::wire::{ASK_IMG_ALT, DETAIL_VISIBLE};

fn el(tag: &str) -> Facts<'_> {
    Facts {
        tag,
        end: 1,
        ..Facts::default()
    }
}

fn with(mut f: Facts<'_>, flags: u32) -> Facts<'_> {
    f.flags |= flags;
    f
}

fn input(type_: &str) -> Facts<'_> {
    Facts {
        type_: Some(type_),
        ..el("INPUT")
    }
}

fn role_of(f: &Facts) -> String {
    role(f).into_owned()
}

fn interactive(f: &Facts) -> bool {
    is_interactive(f, &role(f))
}

#[test]
fn implicit_roles_follow_the_tag() {
    assert_eq!(role_of(&with(el("A"), FACT_HREF)), "link");
    assert_eq!(role_of(&with(el("AREA"), FACT_HREF)), "link");
    assert_eq!(role_of(&el("A")), "", "a link needs an href");
    assert_eq!(role_of(&el("BUTTON")), "button");
    assert_eq!(role_of(&el("SUMMARY")), "button");
    assert_eq!(role_of(&el("TEXTAREA")), "textbox");
    assert_eq!(role_of(&el("SELECT")), "combobox");
    assert_eq!(role_of(&with(el("SELECT"), FACT_MULTIPLE)), "listbox");
    let sized = |size| Facts {
        size: Some(size),
        ..el("SELECT")
    };
    assert_eq!(role_of(&sized("4")), "listbox");
    assert_eq!(role_of(&sized(" 2rows")), "listbox", "HTML integer parsing");
    assert_eq!(role_of(&sized("1")), "combobox");
    assert_eq!(role_of(&sized("-3")), "combobox");
    assert_eq!(role_of(&sized("x")), "combobox");
    assert_eq!(role_of(&el("DIV")), "");
    assert_eq!(role_of(&with(el("DIV"), FACT_EDITABLE)), "textbox");
    assert_eq!(
        role_of(&with(el("BUTTON"), FACT_EDITABLE)),
        "button",
        "the tag's role wins over editing"
    );
    assert_eq!(role_of(&el("a")), "", "tags compare as the DOM spells them");
    assert_eq!(
        role_of(&with(el("a"), FACT_HREF)),
        "link",
        "SVG's <a href> (tagName a)"
    );
    assert_eq!(role_of(&with(el("area"), FACT_HREF)), "", "no SVG area");
    assert_eq!(role_of(&el("IMG")), "img");
    assert_eq!(role_of(&el("img")), "", "only HTML's img");
}

#[test]
fn input_roles_follow_the_type_ascii_case_insensitively() {
    for (type_, want) in [
        ("button", "button"),
        ("SUBMIT", "button"),
        ("reset", "button"),
        ("image", "button"),
        ("checkbox", "checkbox"),
        ("Radio", "radio"),
        ("range", "slider"),
        ("number", "spinbutton"),
        ("search", "searchbox"),
        ("text", "textbox"),
        ("email", "textbox"),
        ("", "textbox"),
        ("hidden", "textbox"),
        // Names of Object.prototype members: the old JS table lookup
        // answered a function for these, which broke the whole read.
        ("constructor", "textbox"),
        ("__proto__", "textbox"),
        ("toString", "textbox"),
    ] {
        assert_eq!(role_of(&input(type_)), want, "type={type_}");
    }
    assert_eq!(role_of(&el("INPUT")), "textbox", "no type attribute");
}

#[test]
fn explicit_role_is_its_first_token_in_lower_case() {
    let r = |attr| {
        role_of(&Facts {
            role: Some(attr),
            ..with(el("A"), FACT_HREF)
        })
    };
    assert_eq!(r("button"), "button");
    assert_eq!(r("  Tab  menuitem"), "tab");
    assert_eq!(r("SWITCH"), "switch");
    assert_eq!(
        r("ÜBER x"),
        "Über",
        "ASCII lower case: role names are ASCII"
    );
    assert_eq!(
        r("   "),
        "",
        "a blank role is no role, not the implicit one"
    );
    assert_eq!(r(""), "link", "an empty role attribute falls back");
    assert!(matches!(
        role(&Facts {
            role: Some("tab"),
            ..el("DIV")
        }),
        Cow::Borrowed("tab")
    ));
}

#[test]
fn interactive_elements() {
    for f in [
        el("BUTTON"),
        el("SELECT"),
        el("TEXTAREA"),
        el("SUMMARY"),
        el("INPUT"),
        input("text"),
        input("HIDDENX"),
        with(el("A"), FACT_HREF),
        with(el("AREA"), FACT_HREF),
        with(el("a"), FACT_HREF),
        with(el("DIV"), FACT_EDITABLE),
        input("image"),
    ] {
        assert!(interactive(&f), "{f:?}");
    }
    for f in [
        el("DIV"),
        el("A"),
        el("AREA"),
        input("hidden"),
        input("Hidden"),
        el("NAV"),
        el("IMG"),
        el("a"),
        el("button"),
    ] {
        assert!(!interactive(&f), "{f:?}");
    }
}

#[test]
fn interactive_roles_count_and_others_do_not() {
    for role in INTERACTIVE_ROLES {
        let f = Facts {
            role: Some(role),
            ..el("DIV")
        };
        assert!(interactive(&f), "{role}");
    }
    let upper = Facts {
        role: Some("MenuItemCheckbox"),
        ..el("SPAN")
    };
    assert!(interactive(&upper));
    for role in [
        "navigation",
        "listbox",
        "dialog",
        "region",
        "main",
        "none",
        "buttons",
    ] {
        let f = Facts {
            role: Some(role),
            ..el("DIV")
        };
        assert!(!interactive(&f), "{role}");
    }
    // A non-interactive role does not take away what the tag gives.
    let b = Facts {
        role: Some("presentation"),
        ..el("BUTTON")
    };
    assert!(interactive(&b));
    let svg_link = Facts {
        role: Some("presentation"),
        ..with(el("a"), FACT_HREF)
    };
    assert!(interactive(&svg_link), "nor from SVG's <a href>");
}

#[test]
fn tabindex_makes_focusable_elements_interactive() {
    let t = |v| {
        interactive(&Facts {
            tabindex: Some(v),
            ..el("DIV")
        })
    };
    assert!(t("0"));
    assert!(t("3"));
    assert!(t(" 1"));
    assert!(t("+2"));
    assert!(t("-0"));
    assert!(t("7px"), "digits then anything: HTML reads 7");
    assert!(
        t("99999999999999999999999"),
        "saturates, stays non-negative"
    );
    assert!(!t("-1"));
    assert!(!t("-99999999999999999999999"));
    assert!(!t(""), "no digits: the browser ignores the attribute");
    assert!(!t("x1"));
    assert!(!t("- 1"));
    assert!(!interactive(&el("DIV")), "no tabindex");
}

#[test]
fn html_integers() {
    assert_eq!(html_integer("42"), Some(42));
    assert_eq!(html_integer("\t\n\u{c}\r 42"), Some(42));
    assert_eq!(html_integer("-5abc"), Some(-5));
    assert_eq!(html_integer("+0"), Some(0));
    assert_eq!(
        html_integer("\u{a0}1"),
        None,
        "only ASCII whitespace is skipped"
    );
    assert_eq!(html_integer("+"), None);
    assert_eq!(html_integer(""), None);
    assert_eq!(html_integer("٣"), None, "ASCII digits only");
    assert_eq!(html_integer(&"9".repeat(40)), Some(i64::MAX));
}

#[test]
fn disabling_elements() {
    let aria = |v| Facts {
        aria_disabled: Some(v),
        ..el("DIV")
    };
    assert!(is_disabling(&aria("true")));
    assert!(!is_disabling(&aria("false")));
    assert!(is_disabling(&with(el("DIV"), FACT_INERT)));
    assert!(
        !is_disabling(&el("BUTTON")),
        ":disabled is a detail, not a fact"
    );
    assert!(DISABLING.ends_with(",[inert]"));
}

#[test]
fn aria_disabled_values_disable_as_chromium_reads_them() {
    // What Chromium's accessibility tree says of each value (CDP
    // Accessibility.getFullAXTree): ASCII case-insensitive, not trimmed,
    // and any value but "", false and undefined disables.
    for v in [
        "true",
        "TRUE",
        "tRuE",
        " true ",
        "\ttrue",
        "true false",
        " false ",
        "0",
        "mixed",
        " ",
    ] {
        assert!(aria_disables(v), "{v:?}");
    }
    for v in ["", "false", "FALSE", "False", "undefined", "UNDEFINED"] {
        assert!(!aria_disables(v), "{v:?}");
    }
    assert!(
        aria_disables("fal\u{17f}e"),
        "ASCII case only: the long s is no s"
    );
    // The selector says the same (gather.js and bot test ancestors with it):
    // it names exactly the values that do not disable, ASCII
    // case-insensitively (`i`).
    for v in ARIA_NOT_DISABLED {
        assert!(
            DISABLING.contains(&format!("[aria-disabled=\"{v}\" i]")),
            "{v}"
        );
    }
    assert!(DISABLING.starts_with("[aria-disabled]:not([aria-disabled=\"\"],"));
    assert_eq!(DISABLING.matches("[aria-disabled=").count(), 3);
}

/// The facts of an element inside `fieldsets` disabled fieldsets, held by
/// the first legend child of `legends` of them.
fn in_fieldsets(fieldsets: u32, legends: u32) -> Disabling {
    Disabling {
        fieldsets,
        legends,
        ..Disabling::default()
    }
}

#[test]
fn nothing_read_disables_nothing() {
    assert!(!is_disabled(&Disabling::default()));
}

#[test]
fn a_disabled_fieldset_disables_controls_and_other_elements_alike() {
    // <fieldset disabled><button>: the browser's :disabled says it too.
    let control = Disabling {
        matches_disabled: true,
        ..in_fieldsets(1, 0)
    };
    assert!(is_disabled(&control));
    // <fieldset disabled><div role=button>: no :disabled, the fieldset does.
    assert!(is_disabled(&in_fieldsets(1, 0)), "not only form controls");
    // A control disabled by its own attribute, in no fieldset.
    assert!(is_disabled(&Disabling {
        matches_disabled: true,
        ..Disabling::default()
    }));
}

#[test]
fn a_disabled_fieldsets_first_legend_is_exempt_a_second_one_is_not() {
    assert!(
        !is_disabled(&in_fieldsets(1, 1)),
        "in the first legend child"
    );
    assert!(
        is_disabled(&in_fieldsets(1, 0)),
        "in a second legend (or a legend that is no child): not held by the first one"
    );
}

#[test]
fn every_disabled_fieldset_around_must_exempt_it() {
    // <fieldset disabled><fieldset disabled><legend>x: the inner legend
    // exempts it from the inner fieldset only.
    assert!(is_disabled(&in_fieldsets(2, 1)));
    // <fieldset disabled><legend><fieldset disabled><legend>x: both.
    assert!(!is_disabled(&in_fieldsets(2, 2)));
    assert!(is_disabled(&in_fieldsets(2, 0)));
    assert!(
        is_disabled(&in_fieldsets(255, 254)),
        "up to the 255 counted"
    );
}

#[test]
fn an_open_modal_dialog_disables_what_it_does_not_hold() {
    let modal = |in_modal| Disabling {
        modal: true,
        in_modal,
        ..Disabling::default()
    };
    assert!(is_disabled(&modal(false)), "outside the dialog: inert");
    assert!(!is_disabled(&modal(true)), "inside it");
    assert!(
        is_disabled(&Disabling {
            matches_disabled: true,
            ..modal(true)
        }),
        "inside it, but disabled itself"
    );
    assert!(
        is_disabled(&Disabling {
            fieldsets: 1,
            ..modal(true)
        }),
        "inside it, in a disabled fieldset"
    );
}

#[test]
fn aria_disabled_or_inert_on_it_or_an_ancestor_disables() {
    // Read per element as one fact (closest(DISABLING)); the snapshot knows
    // it from its tree (is_disabling on each enclosing record).
    let d = Disabling {
        disabling: true,
        ..Disabling::default()
    };
    assert!(is_disabled(&d));
    assert!(
        is_disabled(&Disabling {
            modal: true,
            in_modal: true,
            ..d
        }),
        "inside an open modal dialog too"
    );
    assert!(
        is_disabled(&Disabling {
            fieldsets: 1,
            legends: 1,
            ..d
        }),
        "a first legend exempts from its fieldset only"
    );
}

#[test]
fn the_facts_read_from_their_bits() {
    use crate::wire::{
        DETAIL_DISABLED, DETAIL_DISABLING, DETAIL_FIELDSETS_SHIFT, DETAIL_IN_MODAL,
        DETAIL_LEGENDS_SHIFT, DETAIL_MODAL,
    };
    assert_eq!(Disabling::from_bits(0), Disabling::default());
    assert_eq!(
        Disabling::from_bits(
            DETAIL_DISABLED
                | DETAIL_DISABLING
                | DETAIL_MODAL
                | DETAIL_IN_MODAL
                | 3 << DETAIL_FIELDSETS_SHIFT
                | 2 << DETAIL_LEGENDS_SHIFT
        ),
        Disabling {
            matches_disabled: true,
            disabling: true,
            fieldsets: 3,
            legends: 2,
            modal: true,
            in_modal: true,
        }
    );
    assert_eq!(
        Disabling::from_bits(u32::MAX),
        Disabling {
            matches_disabled: true,
            disabling: true,
            fieldsets: 255,
            legends: 255,
            modal: true,
            in_modal: true,
        }
    );
    // In a details head (the bulk read): the same bits, the counts in its
    // top 16 bits above the field presence bits; no ancestor fact there.
    let head = DETAIL_DISABLED | DETAIL_MODAL | DETAIL_DISABLING | 2 << DETAIL_FIELDSETS_SHIFT;
    let d = crate::wire::details("", &[head]).unwrap();
    assert_eq!(
        d[0].disabling(),
        Disabling {
            matches_disabled: true,
            fieldsets: 2,
            modal: true,
            ..Disabling::default()
        }
    );
}

#[test]
fn the_candidate_selector_is_built_from_the_rules_tables() {
    // The menu's markers (build.rs reads them).
    const MARKERS: [&str; 4] = [
        "data-e2e-kind",
        "data-e2e-pagetitle",
        "data-e2e-dirty",
        "data-e2e-noreload",
    ];
    // What can make any element interactive (role, tabindex,
    // contenteditable) or a slot candidate (role, aria-label).
    const ATTRIBUTES: [&str; 4] = ["role", "aria-label", "tabindex", "contenteditable"];
    let mut parts: Vec<String> = Vec::new();
    parts.extend(MARKERS.iter().map(|m| format!("[{m}]")));
    parts.extend(
        LINKS
            .iter()
            .map(|t| format!("{}[href]", t.to_ascii_lowercase())),
    );
    parts.extend(CONTROLS.iter().map(|t| t.to_ascii_lowercase()));
    parts.extend(ATTRIBUTES.iter().map(|a| format!("[{a}]")));
    parts.push(DISABLING.to_string());
    assert_eq!(CANDIDATES, format!(":where({})", parts.join(",")));
    // Every tag the interactive rule names is in it (SVG's `a` through
    // HTML's: a type selector matches a foreign element's local name).
    for tag in CONTROLS.iter().chain(&LINKS) {
        assert!(CANDIDATES.contains(&tag.to_ascii_lowercase()), "{tag}");
    }
    assert!(CANDIDATES.contains(&format!("{SVG_LINK}[href]")));
    // The query for image slots: the same, and every image.
    assert_eq!(
        CANDIDATES_WITH_IMAGES,
        format!("{},img)", CANDIDATES.strip_suffix(')').unwrap())
    );
    assert_eq!(role_of(&el("IMG")), IMG_ROLE);
}

fn known(n: Name) -> String {
    match n {
        Name::Known(s) => s.into_owned(),
        other => panic!("not known: {other:?}"),
    }
}

#[test]
fn aria_label_with_text_names_at_once() {
    let f = |l| Facts {
        aria_label: Some(l),
        ..el("BUTTON")
    };
    assert_eq!(name_from_label(&f("Close")), Some("Close"));
    assert_eq!(
        name_from_label(&f("  ")),
        None,
        "a blank label does not name"
    );
    assert_eq!(name_from_label(&f("")), None);
    assert_eq!(name_from_label(&el("BUTTON")), None);
}

#[test]
fn asks_follow_the_tag() {
    assert_eq!(name_asks(&el("BUTTON")), DETAIL_REFS | ASK_TEXT);
    assert_eq!(name_asks(&input("submit")), DETAIL_REFS | ASK_VALUE);
    assert_eq!(name_asks(&input("RESET")), DETAIL_REFS | ASK_VALUE);
    assert_eq!(name_asks(&input("button")), DETAIL_REFS | ASK_VALUE);
    let form = DETAIL_REFS | ASK_LABEL | ASK_PLACEHOLDER | ASK_TITLE;
    let image = DETAIL_REFS | ASK_LABEL | ASK_ALT | ASK_VALUE | ASK_TITLE;
    assert_eq!(name_asks(&input("image")), image);
    assert_eq!(name_asks(&input("Image")), image);
    assert_eq!(name_asks(&el("INPUT")), form);
    assert_eq!(name_asks(&el("SELECT")), form);
    assert_eq!(name_asks(&el("TEXTAREA")), form);
    assert_eq!(name_asks(&el("IMG")), DETAIL_REFS | ASK_ALT | ASK_TITLE);
    assert_eq!(name_asks(&el("AREA")), DETAIL_REFS | ASK_ALT | ASK_TITLE);
    assert_eq!(name_asks(&el("DIV")), DETAIL_REFS | ASK_TEXT);
    assert_eq!(
        name_asks(&el("DIV")) & ASK_IMG_ALT,
        0,
        "asked only when the text is blank"
    );
}

#[test]
fn references_come_first_and_join_with_a_space() {
    let d = Details {
        refs: vec!["Ship", "to"],
        text: Some("ignored"),
        ..Details::default()
    };
    assert_eq!(known(name(&el("A"), &d)), "Ship to");
    let one = Details {
        refs: vec!["Only"],
        value: Some("v"),
        ..Details::default()
    };
    assert_eq!(known(name(&input("submit"), &one)), "Only");
    assert!(matches!(
        name(&el("A"), &one),
        Name::Known(Cow::Borrowed("Only"))
    ));
    let empty = Details {
        refs: vec![""],
        text: Some("text"),
        ..Details::default()
    };
    assert_eq!(
        known(name(&el("A"), &empty)),
        "",
        "a found reference names, even empty"
    );
}

#[test]
fn form_controls_are_named_by_value_label_placeholder_title() {
    let d = |value, label, placeholder, title| Details {
        value,
        label,
        placeholder,
        title,
        ..Details::default()
    };
    assert_eq!(
        known(name(&input("submit"), &d(Some("Send"), None, None, None))),
        "Send"
    );
    assert_eq!(
        known(name(&input("submit"), &d(Some(""), None, None, None))),
        "Submit"
    );
    assert_eq!(
        known(name(&input("Reset"), &d(None, None, None, None))),
        "Reset"
    );
    assert_eq!(
        known(name(&input("button"), &d(None, Some("L"), None, None))),
        ""
    );
    let text = input("text");
    assert_eq!(
        known(name(
            &text,
            &d(Some("typed"), Some("Name"), Some("P"), Some("T"))
        )),
        "Name"
    );
    assert_eq!(
        known(name(&text, &d(None, Some(""), Some("P"), None))),
        "",
        "a label names, even empty"
    );
    assert_eq!(
        known(name(&text, &d(None, None, Some("P"), Some("T")))),
        "P"
    );
    assert_eq!(
        known(name(&el("SELECT"), &d(None, None, Some(""), Some("T")))),
        "T"
    );
    assert_eq!(known(name(&el("TEXTAREA"), &d(None, None, None, None))), "");
}

#[test]
fn image_buttons_are_named_by_label_alt_value_title_then_submit() {
    // As Chromium's accessibility tree names <input type=image>.
    let d = |label, alt, value, title| Details {
        label,
        alt,
        value,
        title,
        ..Details::default()
    };
    let image = input("IMAGE");
    let name_of = |d: &Details| known(name(&image, d));
    assert_eq!(
        name_of(&d(Some("Lab"), Some("Alt"), Some("V"), Some("T"))),
        "Lab"
    );
    assert_eq!(
        name_of(&d(None, Some("Search"), Some("V"), Some("T"))),
        "Search"
    );
    assert_eq!(name_of(&d(None, Some(""), Some("V"), Some("T"))), "V");
    assert_eq!(name_of(&d(None, None, Some(""), Some("T"))), "T");
    assert_eq!(name_of(&d(None, None, None, None)), "Submit");
    let refs = Details {
        refs: vec!["Ref"],
        alt: Some("Alt"),
        ..Details::default()
    };
    assert_eq!(name_of(&refs), "Ref");
}

#[test]
fn images_are_named_by_alt_then_title() {
    let d = |alt, title| Details {
        alt,
        title,
        ..Details::default()
    };
    assert_eq!(known(name(&el("IMG"), &d(Some("Logo"), Some("T")))), "Logo");
    assert_eq!(
        known(name(&with(el("AREA"), FACT_HREF), &d(Some(""), Some("T")))),
        "T"
    );
    assert_eq!(known(name(&el("IMG"), &d(None, None))), "");
}

#[test]
fn other_elements_are_named_by_text_then_image_then_title() {
    let d = |text| Details {
        text,
        title: Some("T"),
        ..Details::default()
    };
    assert_eq!(known(name(&el("BUTTON"), &d(Some(" Save ")))), " Save ");
    assert_eq!(name(&el("BUTTON"), &d(Some(" \n "))), Name::BlankText);
    assert_eq!(name(&el("A"), &d(None)), Name::BlankText);
    assert_eq!(FALLBACK_ASKS, ASK_IMG_ALT | ASK_TITLE);
    let fallback = |img_alt, title| Details {
        img_alt,
        title,
        ..Details::default()
    };
    assert_eq!(
        name_from_fallbacks(&fallback(Some("Home"), Some("T"))),
        "Home"
    );
    assert_eq!(name_from_fallbacks(&fallback(Some(""), Some("T"))), "T");
    assert_eq!(name_from_fallbacks(&fallback(None, None)), "");
    // States are not names.
    let visible = Details {
        flags: DETAIL_VISIBLE,
        text: Some("x"),
        ..Details::default()
    };
    assert_eq!(known(name(&el("A"), &visible)), "x");
}

#[test]
fn a_frame_bound_says_the_bounds_it_stands_for() {
    use crate::FrameBound;
    let count = FrameBound::Count.reason();
    assert!(
        count.ends_with(&format!("more than {FRAMES_MAX} same-origin frames")),
        "{count}"
    );
    let depth = FrameBound::Depth.reason();
    assert!(
        depth.ends_with(&format!("nested more than {FRAME_DEPTH} levels deep")),
        "{depth}"
    );
}
