//! A request as it crossed from JS (`CrossedRequest`: its fields as read,
//! its input stringified with facts) through the whole pipeline: every
//! refusal is `INVALID_REQUEST` with the id echoed when one was read, and
//! the bounds are decided once, on the request's text.

mod common;

use common::*;
use serde_json::{json, Value};
use surface::crossing::{NonJson, Projection, MAX_SCALAR_CHARS};
use surface::{CrossedRequest, Scalar};

fn send(f: &Fixture, request: &CrossedRequest) -> Value {
    let response = block_on(f.surface.handle_crossed(request, f, &f.page));
    serde_json::to_value(&response).expect("a response serializes")
}

fn search(id: &str, input: Option<Projection>) -> CrossedRequest {
    CrossedRequest {
        scalars: Some(vec![
            Scalar::string("pling.surface/0.1"),
            Scalar::string(id),
            Scalar::string("invoke"),
            Scalar::string("orders.search"),
        ]),
        input,
        thrown: None,
    }
}

fn refused(response: &Value, id: &str) -> String {
    assert_eq!(protocol_code(response), "INVALID_REQUEST", "{response}");
    assert_eq!(response["id"], id, "{response}");
    message(response).to_string()
}

#[test]
fn plain_input_runs_and_facts_are_refused_before_any_hook() {
    let f = Fixture::orders();
    let ok = send(&f, &search("a1", Some(Projection::text(r#"{"q":"a"}"#))));
    assert_eq!(ok["ok"], true, "{ok}");
    assert_eq!(f.session_reads.get(), 1);

    let mut bigint = Projection::text(r#"{"q":null}"#);
    bigint.non_json = Some(NonJson {
        kind: "bigint".into(),
        key: "q".into(),
        shown: String::new(),
    });
    let m = refused(&send(&f, &search("x7", Some(bigint))), "x7");
    assert_eq!(
        m,
        r#"the request must be plain JSON: input holds a BigInt under the key "q", not JSON"#
    );
    let cyclic = Projection {
        thrown: Some("Converting circular structure to JSON".into()),
        ..Projection::default()
    };
    let m = refused(&send(&f, &search("x8", Some(cyclic))), "x8");
    assert!(m.contains("cyclic") && m.contains("circular"), "{m}");

    let mut getter = search("x10", None);
    getter.thrown = Some("getter".into());
    let m = refused(&send(&f, &getter), "x10");
    assert_eq!(
        m,
        "the request must be plain JSON: reading the envelope threw: getter"
    );
    assert_eq!(f.session_reads.get(), 1, "no refusal reached session()");
}

#[test]
fn the_bounds_are_the_scanners_on_the_whole_request() {
    let f = Fixture::orders();
    // The request object is one level: its input may nest 31 more.
    let nest = |n: usize| {
        Projection::text(format!(
            "{{\"q\":\"a\",\"x\":{}{}}}",
            "[".repeat(n - 1),
            "]".repeat(n - 1)
        ))
    };
    let fits = send(&f, &search("d31", Some(nest(31))));
    assert_ne!(fits["error"]["code"], "INVALID_REQUEST", "{fits}");
    let m = refused(&send(&f, &search("d32", Some(nest(32)))), "d32");
    assert!(m.contains("nests deeper than 32 levels"), "{m}");

    let long = Projection::text(format!("{{\"q\":\"{}\"}}", "x".repeat(2_000_000)));
    let m = refused(&send(&f, &search("x9", Some(long))), "x9");
    assert!(m.contains("longer than 1048576 characters"), "{m}");

    // Too long to be copied at all: refused on its length, the id still echoed.
    let huge = Projection {
        units: 50_000_000,
        ..Projection::default()
    };
    let m = refused(&send(&f, &search("x11", Some(huge))), "x11");
    assert!(m.contains("more than the bounds allow"), "{m}");
}

#[test]
fn scalars_that_are_not_strings_fail_the_shape_check_with_their_own_message() {
    let f = Fixture::orders();
    let long_id = "x".repeat(MAX_SCALAR_CHARS + 1);
    let m = refused(&send(&f, &search(&long_id, None)), "");
    assert!(m.contains("`id` must be a non-empty string"), "{m}");
    // 257 characters is carried whole, and echoed.
    let id257 = "x".repeat(257);
    let m = refused(&send(&f, &search(&id257, None)), &id257);
    assert!(m.contains("at most 256"), "{m}");

    let mut r = search("m1", None);
    if let Some(scalars) = r.scalars.as_mut() {
        scalars[2] = Scalar::Other("bigint".into());
    }
    let m = refused(&send(&f, &r), "m1");
    assert_eq!(m, "`method` must be `describe` or `invoke`");

    // Nothing to read (a string, null, an array): "a JSON object".
    let m = refused(&send(&f, &CrossedRequest::default()), "");
    assert_eq!(m, "the request must be a JSON object");
}

#[test]
fn a_value_crossing_answers_as_its_text_does() {
    let base =
        |method: &str| json!({ "protocol": "pling.surface/0.1", "id": "v", "method": method });
    let with = |mut v: Value, key: &str, value: Value| {
        v[key] = value;
        v
    };
    let deep = (0..31).fold(json!(1), |v, _| json!([v]));
    for request in [
        with(base("describe"), "input", json!({ "limit": 2 })),
        with(base("describe"), "ignored", json!([1, 2])),
        with(base("describe"), "input", json!([])),
        with(base("describe"), "input", json!(null)),
        with(base("describe"), "protocol", json!(1)),
        with(base("describe"), "id", json!("x".repeat(257))),
        with(base("describe"), "id", json!(7)),
        with(base("click"), "input", json!({})),
        with(
            with(base("invoke"), "capability", json!("orders.search")),
            "input",
            json!({ "q": "a" }),
        ),
        with(
            with(base("invoke"), "capability", json!("orders.search")),
            "input",
            json!({ "q": deep }),
        ),
        base("invoke"),
        json!({}),
        json!([1]),
        json!("describe"),
        json!(null),
    ] {
        let crossed = send(&Fixture::orders(), &CrossedRequest::from_value(&request));
        let text = Fixture::orders().send(&request);
        assert_eq!(crossed, text, "{request}");
    }
}

#[test]
fn the_id_is_echoed_whatever_made_the_input_unreadable() {
    let f = Fixture::orders();
    // Deeper than serde_json's own recursion limit (128 levels), and far
    // deeper: the bounds refuse it, and the id is found without recursion.
    for n in [200, 10_000] {
        let deep = Projection::text(format!("{{\"x\":{}{}}}", "[".repeat(n), "]".repeat(n)));
        let m = refused(&send(&f, &search("deep", Some(deep))), "deep");
        assert!(m.contains("nests deeper than 32 levels"), "{m}");
    }
    // A lone surrogate in `input` (JSON.stringify writes it escaped).
    let lone = Projection::text(r#"{"order":"\ud800"}"#);
    let m = refused(&send(&f, &search("lone", Some(lone))), "lone");
    assert!(
        m.contains(r"a string holds a lone surrogate (\ud800)"),
        "{m}"
    );
    assert_eq!(f.session_reads.get(), 0, "no refusal reached session()");
}

#[test]
fn the_id_echo_reads_only_a_top_level_string_id() {
    use surface::echo_id_in;
    assert_eq!(echo_id_in(r#"{"x":[[[[1]]]],"id":"a"}"#), "a");
    assert_eq!(
        echo_id_in(r#"{"input":{"id":"inner"},"id":"outer"}"#),
        "outer"
    );
    // Not an object, an id that is not a string, or not Unicode text.
    assert_eq!(echo_id_in(r#"["a"]"#), "");
    assert_eq!(echo_id_in(r#"{"id":7}"#), "");
    assert_eq!(echo_id_in(r#"{"id":["a"]}"#), "");
    assert_eq!(echo_id_in(r#"{"id":"\ud800"}"#), "");
    assert_eq!(echo_id_in(r#"{"input":{"id":"inner"}}"#), "");
    // Text that is not JSON at all has no id, even one read before it broke.
    assert_eq!(echo_id_in(r#"{"id":"a","x":]"#), "");
    assert_eq!(echo_id_in(r#"{"id":"a""#), "");
}

#[test]
fn a_field_with_a_lone_surrogate_is_refused_not_replaced() {
    let f = Fixture::orders();
    // What JS holds for "\ud800" and for "a\udc00b".
    assert_eq!(Scalar::from_utf16(&[0xD800]), Scalar::LoneSurrogate(0xD800));
    assert_eq!(
        Scalar::from_utf16(&[0x61, 0xDC00, 0x62]),
        Scalar::LoneSurrogate(0xDC00)
    );
    // A pair and a real U+FFFD are text.
    assert_eq!(Scalar::from_utf16(&[0xD83D, 0xDE00]), Scalar::string("😀"));
    assert_eq!(Scalar::from_utf16(&[0xFFFD]), Scalar::string("\u{FFFD}"));

    // In `id`: refused, and nothing to echo (it is no text).
    let mut r = search("", None);
    if let Some(scalars) = r.scalars.as_mut() {
        scalars[1] = Scalar::LoneSurrogate(0xD800);
    }
    let m = refused(&send(&f, &r), "");
    assert_eq!(
        m,
        r"the request must be plain JSON: `id` holds a lone surrogate (\ud800), which is not Unicode text"
    );
    // In `capability`: refused, the id echoed.
    let mut r = search("c1", None);
    if let Some(scalars) = r.scalars.as_mut() {
        scalars[3] = Scalar::LoneSurrogate(0xDC00);
    }
    let m = refused(&send(&f, &r), "c1");
    assert!(
        m.contains(r"`capability` holds a lone surrogate (\udc00)"),
        "{m}"
    );
    assert_eq!(f.session_reads.get(), 0, "no refusal reached session()");
    // Neither used up an id: a real U+FFFD id is not a replay.
    let ok = send(
        &f,
        &search("\u{FFFD}", Some(Projection::text(r#"{"q":"a"}"#))),
    );
    assert_eq!(ok["ok"], true, "{ok}");
}
