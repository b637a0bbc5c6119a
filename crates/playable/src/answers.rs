//! What injected ports answer, decoded with serde (from JSON text within
//! [`crate::bounds`] in [`crate::web`], and in the tests). Lenient by contract:
//! `ports.bot.click()` fails only with `false` or `{ ok: false }`, and
//! `ports.bom.run()` says ok (or retired) only with `ok: true` (`retired:
//! true`; the escape retires on `retired` alone); any other value means the
//! default, and is skipped unread, so no value makes the decoding recurse.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize as DeriveDeserialize;

/// What `ports.bom.run()` answered: `{ ok, retired }`, each true only when
/// it is `true`.
#[derive(Debug, Default, DeriveDeserialize)]
#[serde(default)]
pub struct BomAnswer {
    ok: Flag,
    retired: Flag,
}

impl BomAnswer {
    pub fn ok(&self) -> bool {
        self.ok.0
    }
    pub fn retired(&self) -> bool {
        self.retired.0
    }
}

/// `true` for `true`, false for any other value.
#[derive(Debug, Default)]
struct Flag(bool);

/// What `ports.bot.click()` answered: a failure is `false` or `{ ok: false }`.
#[derive(Debug, Default)]
pub struct ClickAnswer {
    failed: bool,
}

impl ClickAnswer {
    pub fn failed(&self) -> bool {
        self.failed
    }
}

/// A `click()` answer: a bool, an object with `ok`, or anything else.
struct ClickVisitor;

impl<'de> Visitor<'de> for ClickVisitor {
    type Value = ClickAnswer;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer { failed: !b })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ClickAnswer, A::Error> {
        let mut failed = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "ok" {
                failed = map.next_value::<Flagged>()?.0 == Some(false);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(ClickAnswer { failed })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ClickAnswer, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(ClickAnswer::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_unit<E>(self) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
    fn visit_none<E>(self) -> Result<ClickAnswer, E> {
        Ok(ClickAnswer::default())
    }
}

impl<'de> Deserialize<'de> for ClickAnswer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ClickVisitor)
    }
}

/// A value that is a bool (`Some`), or not (`None`, read no further).
struct Flagged(Option<bool>);

struct FlagVisitor;

impl<'de> Visitor<'de> for FlagVisitor {
    type Value = Flagged;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Flagged, E> {
        Ok(Flagged(Some(b)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Flagged, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Flagged(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Flagged, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Flagged(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_unit<E>(self) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
    fn visit_none<E>(self) -> Result<Flagged, E> {
        Ok(Flagged(None))
    }
}

impl<'de> Deserialize<'de> for Flagged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FlagVisitor)
    }
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Flag(Flagged::deserialize(d)?.0 == Some(true)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{from_value, json};

    #[test]
    fn a_click_fails_only_with_false_or_ok_false() {
        let failed = |v| from_value::<ClickAnswer>(v).expect("decodes").failed();
        assert!(failed(json!(false)));
        assert!(failed(json!({ "ok": false, "why": { "deep": [1] } })));
        for done in [
            json!(null),
            json!(true),
            json!({ "ok": true }),
            json!({}),
            json!({ "ok": "false" }),
            json!({ "ok": { "ok": false } }),
            json!([false]),
            json!(0),
            json!("no"),
        ] {
            assert!(!failed(done.clone()), "{done}");
        }
    }

    #[test]
    fn a_reload_is_ok_and_retired_only_when_it_says_true() {
        let bom = |v| from_value::<BomAnswer>(v).expect("decodes");
        let a = bom(json!({ "ok": true, "retired": true }));
        assert!(a.ok() && a.retired());
        let b = bom(json!({ "ok": false, "retired": false }));
        assert!(!b.ok() && !b.retired());
        let c = bom(json!({ "ok": 1, "retired": "yes" }));
        assert!(!c.ok() && !c.retired());
        let d = bom(json!({ "ok": true, "extra": { "deep": [] } }));
        assert!(d.ok() && !d.retired());
        // Not an object: the default (not ok), a failed reload.
        assert!(from_value::<BomAnswer>(json!(true)).is_err_and(|_| !BomAnswer::default().ok()));
    }
}
