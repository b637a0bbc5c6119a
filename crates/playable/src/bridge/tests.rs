//! The bridge filter over plain facts: every branch of baseline §3, then a
//! property test against the rule written out independently.

use super::*;
use proptest::prelude::*;

const ORIGIN: &str = "https://app.test";

fn good() -> MessageFacts {
    MessageFacts {
        from_this_window: true,
        origin: Some(ORIGIN.into()),
        wrapper: Some(WrapperFacts {
            channel: Some(CHANNEL.into()),
            dir: Some("down".into()),
            seq: Some(7.0),
        }),
    }
}

fn origins() -> Vec<String> {
    vec!["https://other.test".into(), ORIGIN.into()]
}

fn with(f: impl FnOnce(&mut MessageFacts)) -> Option<Accepted> {
    let mut facts = good();
    f(&mut facts);
    accept(&facts, &origins(), CHANNEL)
}

fn wrapper(f: impl FnOnce(&mut WrapperFacts)) -> Option<Accepted> {
    with(|m| f(m.wrapper.as_mut().expect("a wrapper")))
}

#[test]
fn a_same_window_allowed_origin_downlink_is_accepted_with_its_origin_and_seq() {
    assert_eq!(
        accept(&good(), &origins(), CHANNEL),
        Some(Accepted {
            origin: ORIGIN.into(),
            seq: 7.0
        })
    );
    assert_eq!(wrapper(|w| w.seq = Some(-0.0)).map(|a| a.seq), Some(0.0));
    assert_eq!(
        wrapper(|w| w.seq = Some(2f64.powi(60))).map(|a| a.seq),
        Some(2f64.powi(60))
    );
}

#[test]
fn another_window_or_origin_is_ignored() {
    assert_eq!(with(|m| m.from_this_window = false), None);
    assert_eq!(with(|m| m.origin = None), None);
    for origin in [
        "https://evil.test",
        "https://app.test/",
        "HTTPS://APP.TEST",
        "",
        "*",
        "null",
    ] {
        assert_eq!(with(|m| m.origin = Some(origin.into())), None, "{origin}");
    }
}

#[test]
fn origins_match_exactly_never_by_wildcard() {
    let star = vec!["*".to_string()];
    assert_eq!(accept(&good(), &star, CHANNEL), None);
    assert_eq!(accept(&good(), &[], CHANNEL), None);
}

#[test]
fn not_a_wrapper_another_channel_or_a_reply_is_ignored() {
    assert_eq!(with(|m| m.wrapper = None), None);
    assert_eq!(wrapper(|w| w.channel = Some("other".into())), None);
    assert_eq!(wrapper(|w| w.channel = None), None);
    assert_eq!(wrapper(|w| w.dir = Some("up".into())), None);
    assert_eq!(wrapper(|w| w.dir = None), None);
    assert_eq!(accept(&good(), &origins(), "pling.surface"), None);
}

#[test]
fn seq_must_be_an_integer() {
    for seq in [
        None,
        Some(1.5),
        Some(f64::NAN),
        Some(f64::INFINITY),
        Some(f64::NEG_INFINITY),
    ] {
        assert_eq!(wrapper(|w| w.seq = seq), None, "{seq:?}");
    }
}

#[test]
fn origins_must_be_a_non_empty_list_of_exact_origins() {
    assert_eq!(check_origins(&[]), Err(OriginsError::Empty));
    assert!(OriginsError::Empty
        .to_string()
        .contains("non-empty allowedOrigins"));
    let star = check_origins(&["https://a.test".into(), "*".into()]).unwrap_err();
    assert_eq!(star, OriginsError::NotAnOrigin("*".into()));
    assert_eq!(
        star.to_string(),
        "allowedOrigins entry \"*\" is not an origin: list exact origins such as \"https://example.com\""
    );
    assert_eq!(
        check_origins(&["".into()]),
        Err(OriginsError::NotAnOrigin(String::new()))
    );
    assert_eq!(check_origins(&["https://a.test".into()]), Ok(()));
}

#[test]
fn a_null_origin_points_at_window_origin() {
    let null = check_origins(&["null".into()]).unwrap_err().to_string();
    assert!(
        null.starts_with("allowedOrigins entry \"null\" is not an origin: "),
        "{null}"
    );
    assert!(null.contains("use window.origin"), "{null}");
    let other = OriginsError::NotAnOrigin("https://a.test/".into()).to_string();
    assert!(!other.contains("window.origin"), "{other}");
}

#[test]
fn the_first_install_hint_follows_the_empty_message() {
    let message = format!("{}{FIRST_INSTALL_HINT}", OriginsError::Empty);
    assert!(message.starts_with("attachWindowBridge() needs a non-empty allowedOrigins option (the exact origins allowed to post, e.g. [location.origin]); this window's instance was installed without allowedOrigins by the first installPlayable() call"), "{message}");
    assert!(message.ends_with("ignores its options"), "{message}");
}

#[test]
fn an_origin_is_written_as_the_browser_writes_event_origin() {
    for origin in [
        "https://example.com",
        "http://127.0.0.1:5173",
        "http://localhost:8080",
        "https://a-b.example.co.uk",
        "chrome-extension://abcdefghijklmnop",
        "http://[::1]:3000",
        "http://[::1]",
        "https://xn--bcher-kva.example",
        "https://example.com:80",
        "http://example.com:443",
        "chrome-extension://abcdefghijklmnop:443",
        "http://localhost:0",
    ] {
        assert!(is_origin(origin), "{origin}");
    }
    for not in [
        "*",
        "",
        "null",
        "https://*.example.com",
        "https://example.com/",
        "https://example.com/app",
        " https://example.com",
        "https://example.com ",
        "HTTPS://example.com",
        "https://Example.com",
        "https://example.com:",
        "https://example.com:99999",
        "https://example.com:80a",
        "https://user@example.com",
        "https://example.com?x",
        "example.com",
        "https://",
        "http://[::1",
        "http://[]",
        "http://[::1]x",
        "https://bücher.example",
        "https://example.com:443",
        "http://example.com:80",
        "http://[::1]:80",
        "wss://example.com:443",
        "ws://example.com:80",
        "http://localhost:08080",
        "http://localhost:+80",
        "ws://example.com",
        "wss://example.com:8443",
        "javascript://x",
        "data://x",
        "blob://example.com",
        "about://blank",
    ] {
        assert!(!is_origin(not), "{not:?}");
    }
    let trailing = check_origins(&["https://example.com/".into()]).unwrap_err();
    assert_eq!(
        trailing,
        OriginsError::NotAnOrigin("https://example.com/".into())
    );
}

fn text() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        Just(CHANNEL.to_string()),
        Just("down".to_string()),
        Just("up".to_string()),
        Just(ORIGIN.to_string()),
        ".{0,12}",
    ])
}

fn number() -> impl Strategy<Value = Option<f64>> {
    prop::option::of(prop_oneof![
        any::<f64>(),
        (-1000i32..1000).prop_map(f64::from),
        Just(f64::NAN),
        Just(0.5),
    ])
}

fn facts() -> impl Strategy<Value = MessageFacts> {
    (
        any::<bool>(),
        text(),
        prop::option::of((text(), text(), number())),
    )
        .prop_map(|(from_this_window, origin, wrapper)| MessageFacts {
            from_this_window,
            origin,
            wrapper: wrapper.map(|(channel, dir, seq)| WrapperFacts { channel, dir, seq }),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(testkit::cases()))]

    /// Accepted exactly when every rule of §3 holds, and then with the
    /// event's own origin and seq.
    #[test]
    fn accepted_iff_every_rule_holds(facts in facts(), allowed in prop::collection::vec(text(), 0..3)) {
        let allowed: Vec<String> = allowed.into_iter().flatten().collect();
        let got = accept(&facts, &allowed, CHANNEL);
        let w = facts.wrapper.as_ref();
        let rule = facts.from_this_window
            && facts.origin.as_ref().is_some_and(|o| allowed.contains(o))
            && w.is_some_and(|w| w.channel.as_deref() == Some(CHANNEL) && w.dir.as_deref() == Some("down"))
            && w.and_then(|w| w.seq).is_some_and(|s| s.is_finite() && s.trunc() == s);
        prop_assert_eq!(got.is_some(), rule);
        if let Some(a) = got {
            prop_assert_eq!(Some(&a.origin), facts.origin.as_ref());
            prop_assert_eq!(Some(a.seq), w.and_then(|w| w.seq));
        }
    }
}

#[test]
fn an_attach_the_window_refuses_names_the_method_and_what_it_threw() {
    let add = AttachError::Threw {
        method: "addEventListener".into(),
        thrown: "no listeners here".into(),
    };
    assert_eq!(
        add.to_string(),
        "attachWindowBridge() attached no listener: the page's addEventListener threw (no listeners here)"
    );
    let remove = AttachError::Threw {
        method: "removeEventListener".into(),
        thrown: "nope".into(),
    };
    assert_eq!(
        remove.to_string(),
        "attachWindowBridge() attached no listener: the page's removeEventListener threw (nope), so the bridge could never be detached"
    );
    // The origins' refusals read as they always did.
    let origins = AttachError::from(check_origins(&[]).unwrap_err());
    assert_eq!(origins.to_string(), OriginsError::Empty.to_string());
}
