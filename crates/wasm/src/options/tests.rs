//! The install-option checks over plain facts, and the data decoders over
//! JSON (the same serde types the web side fills from JS values).

use super::input::{IslandInput, OriginsInput, SlotsInput, SpecInput};
use super::*;
use proptest::prelude::*;
use sense::SlotSpec;
use serde_json::{json, Value};

type H = &'static str;

fn thing(value: H) -> Given<H> {
    Given {
        value,
        is_object: true,
        is_function: false,
        node_type: None,
        posts_messages: false,
    }
}

fn node(value: H, node_type: f64) -> RootFacts<H> {
    RootFacts {
        root: Given {
            node_type: Some(node_type),
            ..thing(value)
        },
        own_view: (node_type == 9.0).then_some("doc-window"),
        owner_view: Some("owner-window"),
        // A fragment here is a ShadowRoot (its host read as an object).
        has_host: node_type == 11.0,
    }
}

fn window(value: H) -> Given<H> {
    Given {
        posts_messages: true,
        ..thing(value)
    }
}

fn function(value: H) -> Given<H> {
    Given {
        is_object: false,
        is_function: true,
        ..thing(value)
    }
}

fn primitive(value: H) -> Given<H> {
    Given {
        is_object: false,
        ..thing(value)
    }
}

fn data<T>(value: T) -> DataFacts<T> {
    DataFacts {
        is_object: true,
        is_array: false,
        data: Ok(value),
    }
}

fn slots(v: Value) -> Read<DataFacts<SlotsInput>> {
    Read::Value(data(serde_json::from_value(v).expect("decodes")))
}

fn origins(v: Value) -> Read<DataFacts<OriginsInput>> {
    Read::Value(DataFacts {
        is_array: v.is_array(),
        ..data(serde_json::from_value(v).expect("decodes"))
    })
}

/// `installPlayable()` in a page: no options, a global document and window.
fn page() -> OptionFacts<H> {
    OptionFacts {
        absent: true,
        is_object: false,
        root: Read::Absent,
        document: Read::Value(node("document", 9.0)),
        window: Read::Absent,
        window_document: Read::Absent,
        global: window("globalThis"),
        capture: Read::Absent,
        ports: Read::Absent,
        port: [Read::Absent, Read::Absent, Read::Absent],
        island_slots: Read::Absent,
        allowed_origins: Read::Absent,
    }
}

/// `installPlayable({})` with `f` applied to the facts.
fn given(f: impl FnOnce(&mut OptionFacts<H>)) -> Result<Options<H>, OptionsError> {
    let mut facts = OptionFacts {
        absent: false,
        is_object: true,
        ..page()
    };
    f(&mut facts);
    check(facts)
}

fn message(f: impl FnOnce(&mut OptionFacts<H>)) -> String {
    given(f).expect_err("refused").to_string()
}

#[test]
fn no_options_scan_the_global_document_in_its_window() {
    let o = check(page()).expect("accepted");
    assert_eq!(o.root, "document");
    assert_eq!(o.window, "doc-window");
    assert_eq!(o.capture, None);
    assert_eq!(o.island_slots, IslandSlots::default());
    assert!(o.allowed_origins.is_empty());
    assert_eq!((o.sense, o.bot, o.bom), (None, None, None));
}

#[test]
fn options_must_be_an_object() {
    let refused = |f: fn(&mut OptionFacts<H>)| {
        let mut facts = page();
        facts.absent = false;
        f(&mut facts);
        check(facts).map(|_| ())
    };
    assert_eq!(
        refused(|_| {}),
        Err(OptionsError::NotAnObject),
        "7, \"x\", a function"
    );
    assert_eq!(
        OptionsError::NotAnObject.to_string(),
        "installPlayable(options) takes an options object"
    );
}

#[test]
fn a_fragment_without_a_host_is_no_root() {
    // A DocumentFragment shares a ShadowRoot's nodeType (11); only the host
    // tells them apart. A plain fragment (or a template's content) is refused.
    let plain = given(|f| {
        f.root = Read::Value(RootFacts {
            has_host: false,
            ..node("fragment", 11.0)
        })
    });
    assert_eq!(plain.map(|_| ()), Err(OptionsError::RootNotANode));
    assert!(given(|f| f.root = Read::Value(node("shadow", 11.0))).is_ok());
}

#[test]
fn the_root_is_an_element_a_document_or_a_shadow_root() {
    for t in [1.0, 9.0, 11.0, 1.5] {
        assert!(
            given(|f| f.root = Read::Value(node("root", t))).is_ok(),
            "{t}"
        );
    }
    for t in [2.0, 3.0, 0.0, f64::NAN] {
        assert_eq!(
            given(|f| f.root = Read::Value(node("root", t))).map(|_| ()),
            Err(OptionsError::RootNotANode)
        );
    }
    let no_node_type = |f: &mut OptionFacts<H>| {
        f.root = Read::Value(RootFacts {
            root: thing("{}"),
            own_view: None,
            owner_view: None,
            has_host: false,
        })
    };
    assert_eq!(
        message(no_node_type),
        "options.root must be a Document, a ShadowRoot or an Element"
    );
    assert_eq!(
        message(|f| f.document = Read::Absent),
        "no document to scan: pass options.root"
    );
    assert_eq!(
        message(|f| f.root = Read::Threw),
        "reading options.root threw"
    );
}

#[test]
fn the_window_defaults_to_the_roots_then_the_global_one() {
    let element = given(|f| f.root = Read::Value(node("el", 1.0))).expect("ok");
    assert_eq!((element.root, element.window), ("el", "owner-window"));
    let detached = given(|f| {
        f.root = Read::Value(RootFacts {
            owner_view: None,
            ..node("fragment", 11.0)
        })
    })
    .expect("ok");
    assert_eq!(detached.window, "globalThis");
    assert_eq!(
        message(|f| {
            f.document = Read::Value(RootFacts {
                own_view: None,
                ..node("document", 9.0)
            });
            f.global = thing("worker");
        }),
        "no window: pass options.window"
    );
    let explicit = given(|f| {
        f.root = Read::Value(node("frame-el", 1.0));
        f.window = Read::Value(window("owner-window"));
    })
    .expect("ok");
    assert_eq!(explicit.window, "owner-window");
    assert_eq!(
        message(|f| f.window = Read::Value(thing("{}"))),
        "options.window must be a Window"
    );
}

/// `window` given without `root`: the frame's document is `frame-doc`.
fn frame(f: &mut OptionFacts<H>) {
    f.window = Read::Value(window("frame"));
    f.window_document = Read::Value(RootFacts {
        own_view: Some("frame"),
        ..node("frame-doc", 9.0)
    });
}

#[test]
fn a_window_without_a_root_scans_its_own_document_not_this_one() {
    let o = given(frame).expect("ok");
    assert_eq!((o.root, o.window), ("frame-doc", "frame"));
    // Its document unreadable (another origin): refused.
    assert_eq!(
        message(|f| {
            frame(f);
            f.window_document = Read::Threw;
        }),
        "reading options.window.document threw (a window of another origin cannot be scanned)"
    );
    // A window that is no window is that error, whatever its document.
    assert_eq!(
        message(|f| {
            frame(f);
            f.window = Read::Value(thing("{}"));
        }),
        "options.window must be a Window"
    );
}

/// A stand-in window: `postMessage` and listeners, no `document`.
fn stand_in(f: &mut OptionFacts<H>) {
    f.window = Read::Value(window("stand-in"));
    f.window_document = Read::Absent;
}

#[test]
fn a_stand_in_window_scans_the_global_document_or_the_root_given() {
    // No document of its own: the seed's default root, the global document,
    // bridged through the stand-in.
    let o = given(stand_in).expect("ok");
    assert_eq!((o.root, o.window), ("document", "stand-in"));
    // No document to hold a root to: any root is scanned as asked.
    for root in [node("document", 9.0), node("el", 1.0)] {
        let o = given(|f| {
            stand_in(f);
            f.root = Read::Value(root);
        })
        .expect("ok");
        assert_eq!(o.window, "stand-in");
    }
    // Without a global document either: the root is still missing.
    assert_eq!(
        message(|f| {
            stand_in(f);
            f.document = Read::Absent;
        }),
        "no document to scan: pass options.root"
    );
}

#[test]
fn a_root_of_another_window_is_refused() {
    let refused =
        "options.root is not in options.window's document (leave root out to scan that document)";
    // An element of this window's document, and that document.
    for root in [node("el", 1.0), node("document", 9.0)] {
        assert_eq!(
            message(|f| {
                frame(f);
                f.root = Read::Value(root);
            }),
            refused
        );
    }
    // A node of no window at all (a DOMParser document's): scanned as
    // asked, with the window named.
    let inert = given(|f| {
        frame(f);
        f.root = Read::Value(RootFacts {
            owner_view: None,
            ..node("inert", 1.0)
        });
    })
    .expect("ok");
    assert_eq!((inert.root, inert.window), ("inert", "frame"));
    // A window of another origin (its document unreadable) is its own
    // view: a root of this window is refused, one of that window accepted.
    let cross_origin = |f: &mut OptionFacts<H>, owner: H| {
        frame(f);
        f.window_document = Read::Threw;
        f.root = Read::Value(RootFacts {
            owner_view: Some(owner),
            ..node("el", 1.0)
        });
    };
    assert_eq!(message(|f| cross_origin(f, "owner-window")), refused);
    assert!(given(|f| cross_origin(f, "frame")).is_ok());
    // The window's own document, given as root: accepted.
    let own = given(|f| {
        frame(f);
        f.root = Read::Value(RootFacts {
            own_view: Some("frame"),
            ..node("frame-doc", 9.0)
        });
    })
    .expect("ok");
    assert_eq!((own.root, own.window), ("frame-doc", "frame"));
}

#[test]
fn the_capturer_is_a_function_and_ports_are_objects() {
    let o = given(|f| {
        f.capture = Read::Value(function("capture"));
        f.ports = Read::Value(thing("ports"));
        f.port = [
            Read::Value(thing("sense")),
            Read::Absent,
            Read::Value(thing("bom")),
        ];
    })
    .expect("ok");
    assert_eq!(o.capture, Some("capture"));
    assert_eq!((o.sense, o.bot, o.bom), (Some("sense"), None, Some("bom")));
    assert_eq!(
        message(|f| f.capture = Read::Value(primitive("no"))),
        "options.captureScreenshot must be a function (scope) => image"
    );
    assert_eq!(
        message(|f| f.ports = Read::Value(primitive("5"))),
        "options.ports must be an object { sense?, bot?, bom? }"
    );
    assert_eq!(
        message(|f| {
            f.ports = Read::Value(thing("ports"));
            f.port[1] = Read::Value(function("bot"));
        }),
        "options.ports.bot must be an object"
    );
    assert_eq!(
        message(|f| {
            f.ports = Read::Value(thing("ports"));
            f.port[2] = Read::Threw;
        }),
        "reading options.ports.bom threw"
    );
}

#[test]
fn island_slots_keep_their_order_and_name_the_bad_slot() {
    let o = given(|f| {
        f.island_slots = slots(json!({
            "z-pager": { "next": { "ariaLabel": "Next page" }, "prev": { "role": "button", "name": "Back", "extra": [1] } },
            "a-tabs": {},
        }))
    })
    .expect("ok");
    assert_eq!(
        o.island_slots.islands,
        vec![
            (
                "z-pager".to_string(),
                vec![
                    ("next".to_string(), SlotSpec::AriaLabel("Next page".into())),
                    (
                        "prev".to_string(),
                        SlotSpec::RoleName {
                            role: "button".into(),
                            name: "Back".into()
                        }
                    ),
                ]
            ),
            ("a-tabs".to_string(), vec![]),
        ]
    );
    assert_eq!(
        message(|f| f.island_slots = slots(json!({ "a": { "b": { "label": "x" } } }))),
        "islandSlots[\"a\"][\"b\"] must be { ariaLabel: string } or { role: string, name: string }"
    );
    for spec in [
        json!({ "ariaLabel": "x", "role": "button", "name": "y" }),
        json!({ "role": "button" }),
        json!({ "ariaLabel": 5 }),
        json!("x"),
        json!(null),
    ] {
        let m = message(|f| f.island_slots = slots(json!({ "a": { "b": spec } })));
        assert!(m.starts_with("islandSlots[\"a\"][\"b\"] must be"), "{m}");
    }
    assert_eq!(
        message(|f| f.island_slots = slots(json!({ "say \"hi\"": 5 }))),
        "islandSlots[\"say \\\"hi\\\"\"] must be an object of slots"
    );
    assert_eq!(
        message(|f| {
            f.island_slots = Read::Value(DataFacts {
                is_object: false,
                is_array: false,
                data: Ok(SlotsInput::default()),
            })
        }),
        "options.islandSlots must be an object: { [islandId]: { [slotName]: spec } }"
    );
    assert_eq!(
        message(|f| {
            f.island_slots = Read::Value(DataFacts {
                data: Err("a function could not be cloned".into()),
                ..data(SlotsInput::default())
            })
        }),
        "options.islandSlots is not plain data: a function could not be cloned"
    );
    // An array of islands is read as `Object.entries` reads it.
    let listed =
        given(|f| f.island_slots = slots(json!([{ "s": { "ariaLabel": "S" } }]))).expect("ok");
    assert_eq!(listed.island_slots.islands[0].0, "0");
}

#[test]
fn allowed_origins_are_an_array_of_strings_copied_in_order() {
    let o = given(|f| f.allowed_origins = origins(json!(["https://a.test", "*"]))).expect("ok");
    assert_eq!(
        o.allowed_origins,
        vec!["https://a.test", "*"],
        "\"*\" is refused at attach"
    );
    assert_eq!(
        message(|f| f.allowed_origins = origins(json!("http://x"))),
        "options.allowedOrigins must be an array of origin strings"
    );
    assert_eq!(
        message(|f| f.allowed_origins = origins(json!({ "0": "http://x" }))),
        "options.allowedOrigins must be an array of origin strings"
    );
    assert_eq!(
        message(|f| f.allowed_origins = origins(json!(["https://a.test", 5]))),
        "options.allowedOrigins must contain only strings"
    );
    assert_eq!(
        message(|f| f.allowed_origins = Read::Threw),
        "reading options.allowedOrigins threw"
    );
}

#[test]
fn data_options_out_of_the_bounds_say_which_bound() {
    let why = "it has more than 10000 values (bounds: 32 levels, 10000 values, 1048576 string characters)";
    let out = || DataError::OutOfBounds(why.into());
    assert_eq!(
        message(|f| f.island_slots = Read::Value(DataFacts {
            data: Err(out()),
            ..data(SlotsInput::default())
        })),
        format!("options.islandSlots is out of bounds: {why}")
    );
    assert_eq!(
        message(|f| {
            f.allowed_origins = Read::Value(DataFacts {
                is_array: true,
                data: Err(out()),
                ..data(OriginsInput::default())
            })
        }),
        format!("options.allowedOrigins is out of bounds: {why}")
    );
}

#[test]
fn the_first_problem_in_order_is_the_answer() {
    // Every option wrong at once: each check in turn, fixing one at a time.
    let mut facts = OptionFacts {
        absent: false,
        is_object: true,
        root: Read::Value(node("text", 3.0)),
        window: Read::Value(thing("{}")),
        capture: Read::Value(primitive("no")),
        ports: Read::Value(primitive("5")),
        port: [Read::Absent, Read::Absent, Read::Absent],
        island_slots: Read::Value(DataFacts {
            is_object: false,
            ..data(SlotsInput::default())
        }),
        allowed_origins: origins(json!("x")),
        ..page()
    };
    let mut seen = Vec::new();
    type Fix = Box<dyn Fn(&mut OptionFacts<H>)>;
    let fixes: Vec<Fix> = vec![
        Box::new(|f| f.root = Read::Value(node("el", 1.0))),
        // The window the root belongs to (another one is refused).
        Box::new(|f| f.window = Read::Value(window("owner-window"))),
        Box::new(|f| f.capture = Read::Absent),
        Box::new(|f| f.ports = Read::Absent),
        Box::new(|f| f.island_slots = Read::Absent),
        Box::new(|f| f.allowed_origins = Read::Absent),
    ];
    for fix in fixes {
        seen.push(check(facts.clone()).expect_err("still wrong"));
        fix(&mut facts);
    }
    assert!(check(facts).is_ok());
    assert_eq!(
        seen,
        vec![
            OptionsError::RootNotANode,
            OptionsError::NotAWindow,
            OptionsError::CaptureNotAFunction,
            OptionsError::PortsNotAnObject,
            OptionsError::SlotsNotAnObject,
            OptionsError::OriginsNotAnArray,
        ]
    );
}

#[test]
fn data_decoders_record_wrong_shapes_instead_of_failing() {
    let decoded: SlotsInput = serde_json::from_value(json!({
        "i": { "a": { "ariaLabel": { "deep": [[[]]] } }, "b": [1, 2] },
        "j": "not an object",
    }))
    .expect("decodes");
    assert_eq!(
        decoded.0,
        vec![
            (
                "i".to_string(),
                IslandInput::Slots(vec![
                    ("a".to_string(), SpecInput::default()),
                    ("b".to_string(), SpecInput::default()),
                ])
            ),
            ("j".to_string(), IslandInput::NotAnObject),
        ]
    );
    let o: OriginsInput =
        serde_json::from_value(json!(["a", null, 1, {}, [], true])).expect("decodes");
    assert_eq!(
        o.0,
        vec![Some("a".to_string()), None, None, None, None, None]
    );
}

/// Arbitrary JSON, small: testkit's leaves and trees, up to 4 levels.
fn json_value() -> impl Strategy<Value = Value> {
    let shape = testkit::Shape {
        depth: 4,
        size: 32,
        width: 4,
    };
    testkit::tree(testkit::scalar(testkit::chars(8)), testkit::chars(6), shape)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(testkit::cases()))]

    /// Any JSON as islandSlots or allowedOrigins: decoded without error, and
    /// the check gives options or a worded problem, never a panic.
    #[test]
    fn any_data_gets_a_well_formed_answer(slots_json in json_value(), origins_json in json_value()) {
        // From the JSON text, as the web side reads them (crate::js::decode).
        let s: SlotsInput = serde_json::from_str(&slots_json.to_string()).expect("never fails on shape");
        let o: OriginsInput = serde_json::from_str(&origins_json.to_string()).expect("never fails on shape");
        let read = serde_json::from_value::<SlotsInput>(slots_json.clone()).map_err(|e| e.to_string());
        prop_assert_eq!(Ok(s.clone()), read);
        let r = given(|f| {
            f.island_slots = Read::Value(DataFacts { is_object: slots_json.is_object() || slots_json.is_array(), is_array: slots_json.is_array(), data: Ok(s) });
            f.allowed_origins = Read::Value(DataFacts { is_object: origins_json.is_object() || origins_json.is_array(), is_array: origins_json.is_array(), data: Ok(o) });
        });
        match r {
            Ok(opts) => {
                let all_strings = origins_json.as_array().is_some_and(|a| a.iter().all(Value::is_string));
                prop_assert!(all_strings);
                prop_assert_eq!(opts.allowed_origins.len(), origins_json.as_array().map_or(0, Vec::len));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn the_named_window_is_checks_window_and_a_guess_when_the_options_are_invalid() {
    // Valid options: the window `check` chooses.
    let named = |f: fn(&mut OptionFacts<H>)| {
        let mut facts = OptionFacts {
            absent: false,
            is_object: true,
            ..page()
        };
        f(&mut facts);
        named_window(&facts)
    };
    assert_eq!(named_window(&page()), Some("doc-window"));
    assert_eq!(named(|o| o.window = Read::Value(window("w"))), Some("w"));
    assert_eq!(
        named(|o| o.root = Read::Value(node("el", 1.0))),
        Some("owner-window")
    );
    // Invalid options still name a window where they can: a root that is no
    // node falls back to the global window, a bad islandSlots changes nothing.
    assert_eq!(
        named(|o| {
            o.root = Read::Value(RootFacts {
                root: primitive("5"),
                own_view: None,
                owner_view: None,
                has_host: false,
            })
        }),
        Some("globalThis")
    );
    assert_eq!(named(|o| o.root = Read::Threw), Some("globalThis"));
    assert_eq!(
        named(|o| o.island_slots = Read::Threw),
        Some("doc-window"),
        "the window of the default document"
    );
    // A `window` that is no window names none.
    assert_eq!(named(|o| o.window = Read::Value(thing("nope"))), None);
}

#[test]
fn an_instance_serves_its_window_only_while_the_window_holds_its_document() {
    let doc = |d: H| Read::Value(d);
    // The same document: the instance stays.
    assert!(holds_document(&doc("first"), &doc("first")));
    // A frame that reloaded, navigated, or left its first about:blank: a
    // new document behind the same window.
    assert!(!holds_document(&doc("about:blank"), &doc("page")));
    // A frame that went to another origin: its document now throws.
    assert!(!holds_document(&doc("first"), &Read::Threw));
    // A stand-in window has no document, then as now.
    assert!(holds_document(&Read::<H>::Absent, &Read::Absent));
    // Nothing tells two documents of another origin apart: kept as it was.
    assert!(holds_document(&Read::<H>::Threw, &Read::Threw));
    // A window that had none, or threw, and now holds one: another page.
    assert!(!holds_document(&Read::Absent, &doc("page")));
    assert!(!holds_document(&Read::Threw, &doc("page")));
    assert!(!holds_document(&doc("first"), &Read::Absent));
}
