//! Tiny JSON builders. `serde_json::json!` converts every field through
//! `Serialize`, monomorphised per field type; building `Value`s directly
//! keeps that machinery out of the wasm module.

use serde_json::{Map, Value};

/// `{ key: value }`.
pub(crate) fn single(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    put(&mut map, key, value);
    Value::Object(map)
}

/// `map[key] = value`: one copy of the insert for every field built here.
#[inline(never)]
pub(crate) fn put(map: &mut Map<String, Value>, key: &str, value: Value) {
    map.insert(key.to_string(), value);
}

/// `map[key] = "s"`.
#[inline(never)]
pub(crate) fn put_text(map: &mut Map<String, Value>, key: &str, s: &str) {
    put(map, key, Value::from(s));
}

/// `map[key] = "s"` when there is an `s`.
pub(crate) fn put_some(map: &mut Map<String, Value>, key: &str, s: Option<&String>) {
    if let Some(s) = s {
        put_text(map, key, s);
    }
}

/// `[s, …]`
pub(crate) fn strings(items: &[String]) -> Value {
    let mut out = Vec::new();
    for s in items {
        out.push(text(s));
    }
    Value::Array(out)
}

/// `Some` when `value` is an array of strings (one loop for every list
/// read here, instead of a `collect::<Option<_>>` adapter per site).
pub(crate) fn string_list(value: &Value) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for item in value.as_array()? {
        out.push(item.as_str()?.to_string());
    }
    Some(out)
}

/// Whether `list` holds `item` (one loop for every such test here).
pub(crate) fn listed(list: &[String], item: &str) -> bool {
    for s in list {
        if s == item {
            return true;
        }
    }
    false
}

/// A string value from a borrowed string.
pub(crate) fn text(s: &str) -> Value {
    Value::from(s)
}

/// FNV-1a, continued from `hash` (start from [`FNV_START`]): a fixed, tiny
/// hash for fingerprints.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a's offset basis.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A number for messages: integers without a fraction (`2000`, as JS
/// prints them), others in JSON form. Avoids core's float formatting,
/// which would add several KB to the wasm module.
pub(crate) fn number_text(f: f64) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let n = if f.fract() == 0.0 && f.abs() <= EXACT {
        // Exact: a whole f64 within ±2^53 converts to i64 without rounding.
        serde_json::Number::from(f as i64)
    } else {
        match serde_json::Number::from_f64(f) {
            Some(n) => n,
            None => return "NaN".to_string(),
        }
    };
    // The JSON writer the module has anyway (no integer `Display`).
    serde_json::to_string(&n).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::number_text;

    #[test]
    fn numbers_print_like_js() {
        assert_eq!(number_text(2000.0), "2000");
        assert_eq!(number_text(-3.0), "-3");
        assert_eq!(number_text(10.5), "10.5");
        assert_eq!(number_text(1e300), "1e+300"); // as JS prints it
        assert_eq!(number_text(f64::NAN), "NaN");
        assert_eq!(number_text(f64::INFINITY), "NaN");
    }
}
