//! Property tests: arbitrary JSON and arbitrary text never panic, every
//! answer is well formed, and every refusal leaves the fake ports untouched.
//! Each decoder runs `PROPTEST_CASES` cases (10,000 by default; `npm run
//! fuzz` sets 1,000,000): the downlink parser, the bounds scanner, the run
//! payload plan, the snapshot window, and the machine over them.

use super::*;
use proptest::prelude::*;

use crate::bounds::{self, Exceeded, Kind, Limits, ENVELOPE};
use crate::envelope::{parse_downlink, ErrorCode, REQUEST_ID_MAX_CHARS};
use crate::window::Query;

use testkit::{cases, chars, measure, scalar, share_of_cases, tree, Shape};

/// The machine runs whole request sequences over the decoders: 512 cases by
/// default, a hundredth of `PROPTEST_CASES` when it is set (10,000 in
/// `npm run fuzz`).
fn machine_cases() -> u32 {
    share_of_cases(100, 512)
}

/// JSON of the downlink's own words: its field names and commands as keys
/// and strings, and long strings (over the requestId's limit).
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "(hello|snapshot|run|escape|reload|a|g0|)".prop_map(Value::String),
        ".{0,140}".prop_map(Value::String),
    ];
    let key = "(pageId|requestId|cmd|payload|id|type|screenshot|__proto__|constructor|x)";
    tree(
        leaf,
        key,
        Shape {
            depth: 4,
            size: 32,
            width: 6,
        },
    )
}

fn arb_down(pid: String) -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just(json!(pid)), Just(Value::Null), arb_json()],
        prop_oneof![Just(json!("r")), arb_json()],
        prop_oneof![
            Just(json!("hello")),
            Just(json!("snapshot")),
            Just(json!("run")),
            Just(json!("escape")),
            arb_json()
        ],
        prop_oneof![
            Just(json!({ "id": "a" })),
            Just(json!({ "type": "reload" })),
            arb_json()
        ],
    )
        .prop_map(|(p, r, c, pl)| json!({ "pageId": p, "requestId": r, "cmd": c, "payload": pl }))
}

fn well_formed(up: &Value) -> bool {
    let base = up.get("requestId").is_some_and(Value::is_string)
        && up
            .get("pageId")
            .is_some_and(|p| p.is_null() || p.is_string());
    match up.get("ok") {
        Some(Value::Bool(true)) => base && up["payload"].is_object() && up.get("error").is_none(),
        Some(Value::Bool(false)) => {
            base && up["error"]["code"].is_string()
                && up["error"]["message"].is_string()
                && up.get("payload").is_none()
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(machine_cases()))]

    #[test]
    fn arbitrary_json_gets_a_well_formed_uplink(v in arb_json()) {
        let m = machine(vec![item("a")]);
        let up = send(&m, v);
        prop_assert!(well_formed(&up), "{}", up);
    }

    #[test]
    fn refusals_touch_nothing(seq in proptest::collection::vec(arb_down(String::new()), 1..8)) {
        let m = machine(vec![item("a")]);
        let pid = hello(&m).as_str().unwrap_or_default().to_string();
        for mut v in seq {
            if v["pageId"] == json!("") { v["pageId"] = json!(pid); }
            let clicks = m.bot.clicks.borrow().len();
            let reloads = m.bom.reloads.get();
            let phase = m.phase();
            let page = m.page_id();
            let up = send(&m, v);
            prop_assert!(well_formed(&up), "{}", up);
            if up["ok"] == json!(false) {
                prop_assert_eq!(m.bot.clicks.borrow().len(), clicks);
                prop_assert_eq!(m.phase(), phase);
                prop_assert_eq!(m.page_id(), page);
                let retired_now = m.bom.reloads.get() != reloads;
                prop_assert!(!retired_now);
            }
        }
    }
}

/// JSON of any shape, deeper and larger than [`arb_json`], with keys and
/// strings of any characters.
fn arb_any_json() -> impl Strategy<Value = Value> {
    tree(
        scalar(chars(6)),
        chars(4),
        Shape {
            depth: 10,
            size: 48,
            width: 5,
        },
    )
}

/// JSON text, sometimes broken: cut, spliced with arbitrary characters, or
/// wrapped in deep brackets.
fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        arb_any_json().prop_map(|v| v.to_string()),
        (arb_any_json(), any::<usize>(), chars(3)).prop_map(|(v, at, junk)| {
            let t = v.to_string();
            let at = (0..=t.len())
                .filter(|i| t.is_char_boundary(*i))
                .nth(at % (t.len() + 1))
                .unwrap_or(0);
            format!("{}{junk}{}", &t[..at], &t[at..])
        }),
        (arb_any_json(), any::<usize>()).prop_map(|(v, cut)| {
            let t = v.to_string();
            let cut = (0..=t.len())
                .filter(|i| t.is_char_boundary(*i))
                .nth(cut % (t.len() + 1))
                .unwrap_or(0);
            t[..cut].to_string()
        }),
        (
            0usize..200,
            0usize..200,
            proptest::collection::vec(
                proptest::sample::select(vec!['[', ']', '{', '}', '"', ':', ',', '0', ' ']),
                0..8
            )
        )
            .prop_map(|(open, close, mid)| "[".repeat(open)
                + &mid.into_iter().collect::<String>()
                + &"]".repeat(close)),
        chars(64),
    ]
}

/// A downlink of arbitrary shape: the four fields each well-typed, missing
/// or of any type, plus other fields.
fn arb_envelope() -> impl Strategy<Value = Value> {
    let field = |good: BoxedStrategy<Value>| {
        prop_oneof![
            3 => good.prop_map(Some),
            1 => Just(None),
            1 => arb_any_json().prop_map(Some),
        ]
    };
    (
        field(prop_oneof![Just(json!("p")), Just(Value::Null)].boxed()),
        field(
            prop_oneof![
                Just(json!("r")),
                ".{0,130}".prop_map(Value::String),
                Just(json!(""))
            ]
            .boxed(),
        ),
        field(
            "(hello|snapshot|run|escape|fly|)"
                .prop_map(Value::String)
                .boxed(),
        ),
        field(
            arb_any_json()
                .prop_map(|v| json!({ "id": v, "query": "a", "limit": 3 }))
                .boxed(),
        ),
        proptest::collection::vec((chars(8), arb_any_json()), 0..3),
    )
        .prop_map(|(p, r, c, pl, extra)| {
            let mut o = serde_json::Map::new();
            for (k, v) in extra {
                o.insert(k, v);
            }
            for (k, v) in [("pageId", p), ("requestId", r), ("cmd", c), ("payload", pl)] {
                if let Some(v) = v {
                    o.insert(k.into(), v);
                }
            }
            Value::Object(o)
        })
}

/// Short texts over a few letters of both cases and spaces (so queries hit).
fn words(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(vec!['a', 'b', 'c', 'A', 'B', 'C', ' ']),
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn usable(id: &str) -> bool {
    (1..=REQUEST_ID_MAX_CHARS).contains(&id.chars().count())
}

fn small(n: usize) -> Limits {
    Limits {
        depth: n % 8 + 1,
        values: n % 50 + 1,
        chars: n % 100,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The scanner agrees with serde_json on what JSON is, and with a
    /// reference recursion on what it counts.
    #[test]
    fn props_bounds_scanner_counts_like_a_recursive_reference(v in arb_any_json(), n in any::<usize>()) {
        let text = v.to_string();
        let want = measure(&v);
        let scan = bounds::check(&text, &Limits { depth: usize::MAX, values: usize::MAX, chars: usize::MAX });
        let scan = scan.map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!((scan.depth, scan.values, scan.chars), want);
        let top = match &v {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        };
        prop_assert_eq!(scan.top, top);
        // Under tight limits: refused exactly when a count is over, in scan order.
        let limits = small(n);
        let r = bounds::check(&text, &limits);
        let over = want.0 > limits.depth || want.1 > limits.values || want.2 > limits.chars;
        prop_assert_eq!(r.is_err(), over, "{:?} {:?} {}", r, limits, text);
        if let Err(e) = r {
            prop_assert!(!matches!(e, Exceeded::NotJson(_)));
        }
    }

    /// Any text: no panic; what the scanner accepts, serde_json parses
    /// (lone surrogate escapes aside), and what serde_json parses within
    /// the limits, the scanner accepts.
    #[test]
    fn props_bounds_scanner_never_panics_and_agrees_with_serde(text in arb_text()) {
        let scanned = bounds::check(&text, &ENVELOPE);
        let parsed = serde_json::from_str::<Value>(&text);
        match (&scanned, &parsed) {
            // Two things serde_json refuses that JSON's grammar allows (and
            // JSON.stringify never writes): lone surrogate escapes, and
            // numbers beyond f64.
            // (A high surrogate escape followed by anything but `\u` is
            // "unexpected end of hex escape" to serde_json.)
            (Ok(_), Err(e)) => prop_assert!(
                e.to_string().contains("surrogate")
                    || e.to_string().contains("hex escape")
                    || e.to_string().contains("number out of range"),
                "{} {}", e, text
            ),
            (Err(Exceeded::NotJson(at)), Ok(_)) => prop_assert!(false, "refused valid JSON at {}: {}", at, text),
            _ => {}
        }
        if let Ok(v) = &parsed {
            let want = measure(v);
            let within = want.0 <= ENVELOPE.depth && want.1 <= ENVELOPE.values && want.2 <= ENVELOPE.chars;
            prop_assert_eq!(scanned.is_ok(), within);
        }
        // The requestId finder is total too.
        if let Some(raw) = bounds::top_level_string(&text, "requestId") {
            prop_assert!(raw.starts_with('"') && raw.ends_with('"'));
        }
    }

    /// Any downlink shape: a well-formed decision, in baseline order.
    #[test]
    fn props_downlink_parse_is_total_and_follows_the_check_order(v in arb_envelope()) {
        let text = v.to_string();
        let r = parse_downlink(&text);
        let o = v.as_object().cloned().unwrap_or_default();
        let rid = o.get("requestId").and_then(Value::as_str).filter(|s| usable(s));
        match r {
            Ok(d) => {
                prop_assert_eq!(Some(d.request_id.as_str()), rid);
                prop_assert!(o.get("payload").is_some_and(Value::is_object));
                prop_assert!(matches!(o.get("cmd").and_then(Value::as_str), Some("hello" | "snapshot" | "run" | "escape")));
                prop_assert_eq!(d.page_id.as_deref(), o.get("pageId").and_then(Value::as_str));
            }
            Err(refusal) => {
                prop_assert!(!refusal.message.is_empty());
                prop_assert!(refusal.request_id.is_empty() || usable(&refusal.request_id));
                let within = bounds::check(&text, &ENVELOPE).is_ok();
                if within {
                    // Shape refusals echo the requestId once it was read.
                    match rid {
                        None => prop_assert_eq!(refusal.request_id.as_str(), ""),
                        Some(id) => prop_assert_eq!(refusal.request_id.as_str(), id),
                    }
                    let shape_ok = o.get("cmd").is_some_and(Value::is_string) && o.get("payload").is_some_and(Value::is_object) && rid.is_some();
                    let code = if shape_ok { ErrorCode::UnknownCmd } else { ErrorCode::BadRequest };
                    prop_assert_eq!(refusal.code, code);
                } else {
                    prop_assert_eq!(refusal.code, ErrorCode::BadRequest);
                }
            }
        }
    }

    /// Arbitrary text as a downlink: never a panic, always a refusal or a downlink.
    #[test]
    fn props_downlink_parse_takes_any_text(text in arb_text()) {
        match parse_downlink(&text) {
            Ok(d) => prop_assert!(usable(&d.request_id)),
            Err(r) => prop_assert!(r.request_id.is_empty() || usable(&r.request_id)),
        }
    }

    /// Any payload for any event: a plan or a BAD_REQUEST/UNSUPPORTED_EVENT,
    /// and an input plan carries exactly the payload's value.
    #[test]
    fn props_run_payload_plan_is_total(
        event in proptest::sample::select(vec!["click", "input", "scroll", "drag", "hover", ""]).prop_map(String::from),
        payload in proptest::collection::vec((proptest::sample::select(vec!["value", "to", "by", "id", "x"]).prop_map(String::from), arb_any_json()), 0..4),
    ) {
        let payload: serde_json::Map<String, Value> = payload.into_iter().collect();
        match crate::plan::<()>("a", "\"a\"", &event, &payload) {
            Ok(crate::Plan::Ready(Action::Input(v))) => {
                let back = match v {
                    InputValue::Text(t) => json!(t),
                    InputValue::Bool(b) => json!(b),
                    InputValue::List(l) => json!(l),
                };
                prop_assert_eq!(Some(&back), payload.get("value"));
            }
            Ok(crate::Plan::Drag { to }) => {
                prop_assert_eq!(event.as_str(), "drag");
                prop_assert!(to != "a");
            }
            Ok(_) => prop_assert!(matches!(event.as_str(), "click" | "scroll")),
            Err(f) => {
                let unsupported = !matches!(event.as_str(), "click" | "input" | "scroll" | "drag");
                let want = if unsupported { ErrorCode::UnsupportedEvent } else { ErrorCode::BadRequest };
                prop_assert_eq!(f.code, want);
            }
        }
    }

    /// The window is the contiguous slice of the matches, its account adds up,
    /// and it carries the islands it concerns.
    #[test]
    fn props_window_is_a_slice_of_the_matches(
        ids in proptest::collection::vec(words(4), 0..40),
        visible in proptest::collection::vec(any::<bool>(), 0..40),
        query in words(5),
        offset in 0usize..50,
        limit in proptest::option::of(0usize..50),
        islands in proptest::collection::vec(proptest::collection::vec((0usize..45, any::<bool>()), 0..4), 0..6),
    ) {
        let mut s = sense::Snapshot::default();
        for (i, id) in ids.iter().enumerate() {
            s.menu.push(MenuItem { id: format!("{i}{id}"), title: id.clone(), ..item("x") });
        }
        // Slots name menu rows by position (past the menu: a row that is not there).
        for (n, slots) in islands.iter().enumerate() {
            let slots = slots.iter().map(|&(at, resolved)| sense::IslandSlot {
                name: format!("s{at}"),
                id: s.menu.get(at).map_or_else(|| format!("i{n}:s{at}"), |m| m.id.clone()),
                resolved,
            });
            s.islands.push(sense::Island { id: format!("i{n}"), slots: slots.collect() });
        }
        for (i, v) in visible.iter().enumerate() {
            s.generics.push(sense::Generic { reference: format!("g{i}"), role: "button".into(), name: ids.get(i).cloned().unwrap_or_default(), visible: *v });
        }
        let q = Query::new(&query, offset as u64, limit.map(|l| l as u64));
        let matching: Vec<_> = s.menu.iter().filter(|m| q.item_matches(m)).cloned().collect();
        let full = s.clone();
        let crate::window::Windows { menu, generics, islands_total } = q.apply(&mut s);
        prop_assert_eq!(menu.total, matching.len());
        let end = limit.map_or(matching.len(), |l| (offset + l).min(matching.len()));
        let want: Vec<_> = matching.get(offset.min(matching.len())..end.max(offset.min(matching.len()))).unwrap_or(&[]).to_vec();
        prop_assert_eq!(&s.menu, &want);
        prop_assert_eq!(menu.limit, limit.unwrap_or(matching.len().saturating_sub(offset)) as u64);
        let shown = full.generics.iter().filter(|g| q.generic_matches(g)).count();
        prop_assert_eq!(generics.total + generics.hidden, shown);
        prop_assert!(s.generics.iter().all(|g| g.visible));
        prop_assert_eq!((&s.dirty, s.no_reload), (&full.dirty, full.no_reload));
        // The islands the window concerns: a slot among its rows, or a slot not found.
        let concerned: Vec<_> = full.islands.iter().filter(|i| {
            i.slots.iter().any(|slot| !slot.resolved || s.menu.iter().any(|m| m.id == slot.id))
        }).cloned().collect();
        prop_assert_eq!(&s.islands, &concerned);
        prop_assert_eq!(islands_total, full.islands.len());
    }
}

/// JSON the escape inputs and the ports' answers are read from: their own
/// keys (`dirty`, `noReload`, `ok`, `retired`) among any others, and any
/// values, `true`, `false` and arrays of strings among them.
fn arb_answer_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        2 => any::<bool>().prop_map(Value::Bool),
        1 => proptest::collection::vec(chars(4), 0..12).prop_map(|v| json!(v)),
        3 => scalar(chars(6)),
    ];
    let key = prop_oneof![
        3 => proptest::sample::select(vec!["dirty", "noReload", "ok", "retired"]).prop_map(String::from),
        1 => chars(4),
    ];
    tree(
        leaf,
        key,
        Shape {
            depth: 6,
            size: 24,
            width: 5,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// `deriveEscapes`' reader: any JSON text (or broken text) gets the
    /// inputs it holds or a worded error, never a panic; what it reads is
    /// exactly `dirty` (strings) and `noReload` (a boolean), within the
    /// bounds, and the escapes follow the rule.
    #[test]
    fn props_escape_inputs_read_any_json(v in arb_answer_json(), text in arb_text(), pick in any::<bool>()) {
        let text = if pick { v.to_string() } else { text };
        let scanned = bounds::check(&text, &ENVELOPE);
        match crate::EscapeInputs::from_json(&text) {
            Ok(inputs) => {
                prop_assert!(scanned.is_ok());
                let v: Value = serde_json::from_str(&text).expect("read once already");
                // (serde reads an array positionally; the web side refuses
                // one before reading: install.rs `escape_inputs`.)
                if v.is_object() {
                    prop_assert_eq!(v.get("noReload").and_then(Value::as_bool).unwrap_or(false), inputs.no_reload);
                    let dirty: Vec<String> = v.get("dirty").and_then(|d| serde_json::from_value(d.clone()).ok()).unwrap_or_default();
                    prop_assert_eq!(&dirty, &inputs.dirty);
                }
                let escapes = inputs.escapes();
                prop_assert_eq!(escapes.len(), 1);
                prop_assert_eq!(escapes[0].allowed, inputs.allows("reload"));
                prop_assert_eq!(escapes[0].allowed, inputs.dirty.is_empty() && !inputs.no_reload);
                prop_assert_eq!(escapes[0].reason.is_none(), escapes[0].allowed);
            }
            Err(e) => prop_assert!(!e.0.is_empty()),
        }
    }

    /// The ports' answers take any JSON (as JSON text, the way the web side
    /// reads them, and as a value): a click failed only for `false` or
    /// `{ ok: false }`; a reload is ok (retired) only for `ok: true`
    /// (`retired: true`) in an object, and anything else is no answer.
    #[test]
    fn props_port_answers_read_any_json(v in arb_answer_json()) {
        let failed = v == json!(false) || v.get("ok") == Some(&json!(false));
        let flag = |k: &str| v.get(k) == Some(&json!(true));
        // Read whole, and as the web side hands them over (web/js.rs
        // `top_level`: an object, an array included, as its plain `keys`).
        let top = |keys: &[&str]| match &v {
            Value::Object(_) | Value::Array(_) => Value::Object(
                keys.iter()
                    .filter_map(|k| v.get(*k).filter(|x| !x.is_array() && !x.is_object()).map(|x| (k.to_string(), x.clone())))
                    .collect(),
            ),
            _ => v.clone(),
        };
        for given in [v.clone(), top(&["ok"])] {
            let click = serde_json::from_str::<crate::answers::ClickAnswer>(&given.to_string());
            prop_assert_eq!(click.map(|c| c.failed()).ok(), Some(failed));
        }
        let whole = serde_json::from_str::<crate::answers::BomAnswer>(&v.to_string());
        // A scalar is no answer (an array is read positionally, or not).
        prop_assert!(whole.is_err() || v.is_object() || v.is_array());
        if v.is_object() {
            let a = whole.map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!((a.ok(), a.retired()), (flag("ok"), flag("retired")));
        }
        let answer = serde_json::from_str::<crate::answers::BomAnswer>(&top(&["ok", "retired"]).to_string()).unwrap_or_default();
        prop_assert_eq!((answer.ok(), answer.retired()), (flag("ok"), flag("retired")));
    }
}
