//! Tiny JSON builders. `json::json!` converts every field through
//! `Serialize`, monomorphised per field type; building `Value`s directly
//! keeps that machinery out of the wasm module.

use json::{Map, Value};

/// `{ k: v, … }` in the given order (keys end up sorted by `Map` anyway).
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// `[s, …]`
pub(crate) fn strings<S: AsRef<str>>(items: &[S]) -> Value {
    Value::Array(items.iter().map(|s| Value::from(s.as_ref())).collect())
}

/// A string value from a borrowed string.
pub(crate) fn text(s: &str) -> Value {
    Value::from(s)
}

/// A number for messages: integers without a fraction (`2000`, as JS
/// prints them), others in JSON form. Avoids core's float formatting,
/// which would add several KB to the wasm module.
pub(crate) fn number_text(f: f64) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f.fract() == 0.0 && f.abs() <= EXACT {
        // Exact: a whole f64 within ±2^53 converts to i64 without rounding.
        (f as i64).to_string()
    } else {
        json::Number::from_f64(f).map_or_else(|| "NaN".to_string(), |n| n.to_string())
    }
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
