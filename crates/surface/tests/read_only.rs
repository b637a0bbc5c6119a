//! `readOnly`: a declaration may say it changes nothing; describe says so,
//! and WebMCP publishes it with `readOnlyHint`.

use serde_json::json;
use surface::CapabilityDeclaration;

#[test]
fn read_only_is_a_boolean_described_only_when_true() {
    let decl = |v| CapabilityDeclaration::from_json(&v);
    let search =
        decl(json!({ "id": "orders.search", "title": "Search", "readOnly": true })).expect("valid");
    assert!(search.read_only);
    for v in [
        json!({ "id": "a", "title": "A" }),
        json!({ "id": "a", "title": "A", "readOnly": false }),
        json!({ "id": "a", "title": "A", "readOnly": null }),
    ] {
        assert!(!decl(v).expect("valid").read_only);
    }
    let bad = decl(json!({ "id": "a", "title": "A", "readOnly": "yes" }))
        .expect_err("refused")
        .to_string();
    assert!(bad.contains("`readOnly` must be a boolean"), "{bad}");
}
