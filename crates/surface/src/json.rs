//! Numbers in messages, printed as JavaScript prints them.

use serde_json::Number;

/// A number for messages: integers without a fraction (`2000`, as JS
/// prints them), others in JSON form (`1e+300`, where Rust's `Display`
/// would print 301 digits).
pub(crate) fn number_text(f: f64) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let n = if f.fract() == 0.0 && f.abs() <= EXACT {
        // Exact: a whole f64 within ±2^53 converts to i64 without rounding.
        Number::from(f as i64)
    } else {
        match Number::from_f64(f) {
            Some(n) => n,
            None => return "NaN".to_string(),
        }
    };
    format!("{n}")
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
