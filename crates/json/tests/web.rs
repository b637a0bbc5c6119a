//! The browser-only float writer (write.rs `push_f64`): every float it
//! writes reads back, in the engine and here, as the same f64, spelled as
//! serde_json spells the common cases.

#![cfg(target_arch = "wasm32")]

use json::{from_str, to_string, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn written(f: f64) -> String {
    to_string(&Value::from(f)).unwrap_or_default()
}

#[wasm_bindgen_test]
fn floats_read_back_exactly() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut samples = vec![
        0.1,
        1.5,
        -2.25,
        1e16,
        1e21,
        1.5e-7,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        123456789.0,
    ];
    for _ in 0..2000 {
        // xorshift: finite doubles of every magnitude.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let f = f64::from_bits(x);
        if f.is_finite() {
            samples.push(f);
        }
    }
    for f in samples {
        let text = written(f);
        let engine = js_sys::JSON::parse(&text).ok().and_then(|v| v.as_f64());
        assert_eq!(
            engine.map(f64::to_bits),
            Some(f.to_bits()),
            "JSON.parse({text})"
        );
        let ours = from_str(&text).ok().and_then(|v| v.as_f64());
        assert!(
            ours.is_some_and(|g| g == f || g.to_bits().abs_diff(f.to_bits()) <= 8),
            "{text}"
        );
        assert!(!text.contains('+'), "{text}");
    }
}

#[wasm_bindgen_test]
fn common_spellings_match_serde_json() {
    assert_eq!(written(2.0), "2.0");
    assert_eq!(written(-0.0), "-0.0");
    assert_eq!(written(0.0), "0.0");
    assert_eq!(written(0.5), "0.5");
    assert_eq!(written(1e21), "1e21");
    assert_eq!(written(-1.5e-7), "-1.5e-7");
}
