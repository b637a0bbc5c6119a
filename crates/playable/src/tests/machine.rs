use super::*;

#[test]
fn hello_mints_a_128_bit_page_id_once() {
    let m = machine(vec![]);
    assert_eq!(m.phase(), Phase::Installed);
    let up = send(&m, down(json!("ignored"), "hello", json!({})));
    assert_eq!(up["ok"], json!(true));
    let id = up["payload"]["pageId"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(up["pageId"], json!(id));
    assert_eq!(up["requestId"], json!("r1"));
    assert_eq!(m.phase(), Phase::Live);
    let again = send(&m, down(Value::Null, "hello", json!({})));
    assert_eq!(
        again["payload"]["pageId"],
        json!(id),
        "repeated hello keeps the pageId"
    );
}

#[test]
fn shape_errors_are_bad_request_and_echo_only_usable_ids() {
    let m = machine(vec![item("a")]);
    for (v, echo) in [
        (json!(null), ""),
        (json!(7), ""),
        (json!([1, 2]), ""),
        (json!("hello"), ""),
        (json!({}), ""),
        (json!({ "requestId": 5, "cmd": "hello", "payload": {} }), ""),
        (
            json!({ "requestId": "", "cmd": "hello", "payload": {} }),
            "",
        ),
        (
            json!({ "requestId": "x".repeat(129), "cmd": "hello", "payload": {} }),
            "",
        ),
        (json!({ "requestId": "ok", "payload": {} }), "ok"),
        (json!({ "requestId": "ok", "cmd": 1, "payload": {} }), "ok"),
        (json!({ "requestId": "ok", "cmd": "hello" }), "ok"),
        (
            json!({ "requestId": "ok", "cmd": "hello", "payload": null }),
            "ok",
        ),
        (
            json!({ "requestId": "ok", "cmd": "hello", "payload": [] }),
            "ok",
        ),
        (json!({ "requestId": "ok", "cmd": "nope" }), "ok"),
    ] {
        let up = send(&m, v.clone());
        assert_eq!(up["ok"], json!(false), "{v}");
        assert_eq!(code(&up), "BAD_REQUEST", "{v}");
        assert_eq!(up["requestId"], json!(echo), "{v}");
        assert_eq!(up["pageId"], Value::Null);
        assert!(up["error"]["message"].as_str().unwrap().len() > 5);
    }
    assert_eq!(m.phase(), Phase::Installed);
    let max = "é".repeat(128);
    let up = send(
        &m,
        json!({ "requestId": max, "cmd": "hello", "payload": {} }),
    );
    assert_eq!(up["ok"], json!(true), "128 characters is usable");
}

#[test]
fn order_shape_then_cmd_then_phase_then_latch() {
    let m = machine(vec![item("a")]);
    // unknown cmd beats phase
    assert_eq!(
        code(&send(&m, down(Value::Null, "dance", json!({})))),
        "UNKNOWN_CMD"
    );
    // phase beats latch and payload
    assert_eq!(
        code(&send(&m, down(json!("zzz"), "run", json!({ "id": 5 })))),
        "NOT_LIVE"
    );
    let pid = hello(&m);
    // latch beats payload checks
    assert_eq!(
        code(&send(&m, down(json!("zzz"), "run", json!({ "id": 5 })))),
        "PAGE_MISMATCH"
    );
    assert_eq!(
        code(&send(&m, down(Value::Null, "snapshot", json!({})))),
        "PAGE_MISMATCH"
    );
    // The message says what was sent: a string quoted, anything else null.
    let said = |page_id: Value| {
        let up = send(&m, down(page_id, "snapshot", json!({})));
        up["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(said(json!("zzz")).starts_with("pageId \"zzz\" is not"));
    assert!(said(json!("null")).starts_with("pageId \"null\" is not"));
    for other in [Value::Null, json!(5), json!({})] {
        assert!(
            said(other.clone()).starts_with("pageId null (absent, or not a string) is not"),
            "{other}"
        );
    }
    assert_eq!(
        code(&send(&m, down(pid.clone(), "run", json!({ "id": 5 })))),
        "BAD_REQUEST"
    );
    assert_eq!(
        code(&send(&m, down(pid.clone(), "run", json!({})))),
        "BAD_REQUEST"
    );
    assert_eq!(
        code(&send(
            &m,
            down(pid.clone(), "snapshot", json!({ "screenshot": "yes" }))
        )),
        "BAD_REQUEST"
    );
    assert_eq!(
        code(&send(&m, down(pid, "escape", json!({ "type": 1 })))),
        "BAD_REQUEST"
    );
    assert_untouched(&m);
}

#[test]
fn not_live_for_every_command_before_hello() {
    let m = machine(vec![item("a")]);
    for cmd in ["snapshot", "run", "escape"] {
        let up = send(
            &m,
            down(Value::Null, cmd, json!({ "id": "a", "type": "reload" })),
        );
        assert_eq!(code(&up), "NOT_LIVE", "{cmd}");
    }
    assert_eq!(m.sense.reads.get(), 0);
    assert_untouched(&m);
}

#[test]
fn snapshot_reads_fresh_and_derives_escapes() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    let up = send(&m, down(pid.clone(), "snapshot", json!({})));
    assert_eq!(up["payload"]["snapshot"]["menu"][0]["id"], json!("a"));
    assert_eq!(
        up["payload"]["escapes"],
        json!([{ "type": "reload", "allowed": true }])
    );
    m.sense.snapshot.borrow_mut().menu.push(item("b"));
    m.sense.snapshot.borrow_mut().dirty.push("note".into());
    let up = send(&m, down(pid, "snapshot", json!({})));
    assert_eq!(up["payload"]["snapshot"]["menu"][1]["id"], json!("b"));
    assert_eq!(up["payload"]["escapes"][0]["allowed"], json!(false));
    assert_eq!(m.sense.reads.get(), 2);
}

#[test]
fn snapshot_carries_the_screenshot_only_when_asked() {
    let mut sense = FakeSense {
        shot: Some("png!"),
        ..FakeSense::default()
    };
    sense.snapshot.get_mut().menu.push(item("a"));
    let m = Machine::new(
        sense,
        FakeBot::default(),
        FakeBom::default(),
        FakeRandom::default(),
    );
    let pid = hello(&m);
    let shot = down(pid.clone(), "snapshot", json!({ "screenshot": true }));
    let r = block_on(m.handle(&shot.to_string()));
    assert_eq!(r.screenshot, Some("png!"));
    let plain = down(pid, "snapshot", json!({}));
    let r = block_on(m.handle(&plain.to_string()));
    assert_eq!(r.screenshot, None);
}

#[test]
fn run_clicks_exactly_once_on_a_hit() {
    let m = machine(vec![item("a"), item("b")]);
    let pid = hello(&m);
    let up = send(&m, down(pid, "run", json!({ "id": "b" })));
    assert_eq!(up["ok"], json!(true), "{up}");
    assert_eq!(up["payload"], json!({ "id": "b" }));
    assert_eq!(*m.bot.clicks.borrow(), vec!["b".to_string()]);
}

#[test]
fn run_refusals_have_their_codes_and_click_nothing() {
    let mut disabled = item("off");
    disabled.enabled = false;
    let mut hidden = item("hidden");
    hidden.visible = false;
    let mut dup = item("dup");
    dup.ambiguous = true;
    let mut typed = item("typed");
    typed.event = "hover".into();
    // Listed twice without the mark (as a sense port may list it).
    let m = machine(vec![
        disabled,
        hidden,
        dup,
        typed,
        item("ok"),
        item("twice"),
        item("twice"),
        // A playable may carry a generic ref's shape: still never run.
        item("g12"),
    ]);
    let pid = hello(&m);
    for (id, want) in [
        ("twice", "AMBIGUOUS"),
        ("", "NOT_IN_MENU"),
        ("g0", "NOT_IN_MENU"),
        ("g12", "NOT_IN_MENU"),
        ("missing", "NOT_IN_MENU"),
        ("dup", "AMBIGUOUS"),
        ("off", "NOT_ACTIONABLE"),
        ("hidden", "NOT_ACTIONABLE"),
        ("typed", "UNSUPPORTED_EVENT"),
    ] {
        let up = send(&m, down(pid.clone(), "run", json!({ "id": id })));
        assert_eq!(code(&up), want, "{id}: {up}");
        assert!(
            up["error"]["message"].as_str().unwrap().contains(id),
            "message names the id"
        );
        assert_eq!(up["pageId"], pid);
    }
    *m.bot.refuse.borrow_mut() = Some(Refusal::NotActionable("covered".into()));
    assert_eq!(
        code(&send(&m, down(pid.clone(), "run", json!({ "id": "ok" })))),
        "NOT_ACTIONABLE"
    );
    assert_untouched(&m);
    assert_eq!(m.phase(), Phase::Live);
    *m.bot.refuse.borrow_mut() = None;
    m.bot.fail.set(true);
    assert_eq!(
        code(&send(&m, down(pid, "run", json!({ "id": "ok" })))),
        "DISPATCH_FAILED"
    );
}

#[test]
fn a_hidden_and_disabled_item_is_refused_as_not_visible_first() {
    let mut both = item("both");
    both.enabled = false;
    both.visible = false;
    let mut off = item("off");
    off.enabled = false;
    let m = machine(vec![both, off]);
    let pid = hello(&m);
    let message = |id: &str| {
        let up = send(&m, down(pid.clone(), "run", json!({ "id": id })));
        assert_eq!(code(&up), "NOT_ACTIONABLE", "{up}");
        up["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        message("both").ends_with("is not visible"),
        "visible comes before enabled"
    );
    assert!(message("off").ends_with("is disabled"));
    assert_untouched(&m);
}

#[test]
fn escape_reload_retires_and_everything_after_is_retired() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    let up = send(&m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    assert_eq!(up["payload"], json!({ "type": "reload", "retired": true }));
    assert_eq!(m.phase(), Phase::Retired);
    assert_eq!(m.bom.reloads.get(), 1);
    for cmd in ["hello", "snapshot", "run", "escape"] {
        let up = send(
            &m,
            down(pid.clone(), cmd, json!({ "id": "a", "type": "reload" })),
        );
        assert_eq!(code(&up), "RETIRED", "{cmd}");
        assert_eq!(up["pageId"], pid);
    }
    assert_eq!(m.bom.reloads.get(), 1);
    assert!(m.bot.clicks.borrow().is_empty());
}

#[test]
fn a_reload_the_page_cancelled_leaves_the_instance_live_with_its_pageid() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    send(&m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    assert_eq!(m.phase(), Phase::Retired);
    assert_eq!(
        code(&send(&m, down(pid.clone(), "snapshot", json!({})))),
        "RETIRED"
    );
    // The bom finds the document still here, long after the reload returned.
    m.bom.undone.set(true);
    assert_eq!(m.phase(), Phase::Live);
    assert_eq!(hello(&m), pid, "the same document, the same pageId");
    let up = send(&m, down(pid.clone(), "run", json!({ "id": "a" })));
    assert_eq!(up["ok"], json!(true), "{up}");
}

#[test]
fn the_last_check_before_a_reload_reads_the_escape_rule_afresh() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    send(&m, down(pid, "escape", json!({ "type": "reload" })));
    let reads = m.sense.reads.get();
    assert!(block_on(m.reload_still_allowed()));
    assert_eq!(m.sense.reads.get(), reads + 1, "a fresh read");
    m.sense.snapshot.borrow_mut().dirty = vec!["note".into()];
    assert!(!block_on(m.reload_still_allowed()), "unsaved work appeared");
    m.sense.snapshot.borrow_mut().dirty.clear();
    m.sense.snapshot.borrow_mut().no_reload = true;
    assert!(!block_on(m.reload_still_allowed()), "noreload appeared");
    m.sense.snapshot.borrow_mut().no_reload = false;
    m.sense.fail.set(true);
    assert!(!block_on(m.reload_still_allowed()), "an unreadable menu");
    m.sense.fail.set(false);
    m.drop_for_good(Dropped::ForTests);
    assert!(!block_on(m.reload_still_allowed()), "a dropped instance");
}

#[test]
fn a_dropped_instance_is_retired_for_good_and_says_why() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    m.drop_for_good(Dropped::ForTests);
    m.bom.undone.set(true);
    assert_eq!(
        m.phase(),
        Phase::Retired,
        "no reload to undo brings it back"
    );
    let up = send(&m, down(pid.clone(), "run", json!({ "id": "a" })));
    assert_eq!(code(&up), "RETIRED");
    assert!(up["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("resetPlayableForTests"));
    assert!(m.bot.clicks.borrow().is_empty());
}

#[test]
fn an_instance_whose_document_is_gone_is_retired_for_good_and_says_so() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    // Retired by a reload escape first: the drop still says the document is gone.
    let up = send(&m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    assert_eq!(up["ok"], json!(true));
    m.drop_for_good(Dropped::DocumentGone);
    m.drop_for_good(Dropped::ForTests);
    assert_eq!(
        m.dropped_why(),
        Some(Dropped::DocumentGone),
        "the first reason stands"
    );
    m.bom.undone.set(true);
    assert_eq!(m.phase(), Phase::Retired, "no undone reload brings it back");
    assert!(!block_on(m.reload_still_allowed()));
    for (cmd, payload, page_id) in [
        ("hello", json!({}), Value::Null),
        ("snapshot", json!({}), json!(pid)),
        ("run", json!({ "id": "a" }), json!(pid)),
    ] {
        let up = send(&m, down(page_id, cmd, payload));
        assert_eq!(code(&up), "RETIRED", "{cmd}");
        let message = up["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("document is gone"), "{message}");
    }
    assert!(m.bot.clicks.borrow().is_empty());
}

#[test]
fn unsaved_work_beyond_the_scan_root_forbids_a_reload_too() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    let escape = |m: &Fake| send(m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    m.sense.beyond.borrow_mut().dirty = vec!["draft".into()];
    let up = escape(&m);
    assert_eq!(code(&up), "ESCAPE_NOT_ALLOWED");
    let message = up["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("draft") && message.contains("outside the scan root"),
        "{message}"
    );
    m.sense.beyond.borrow_mut().dirty.clear();
    m.sense.beyond.borrow_mut().no_reload = true;
    assert_eq!(code(&escape(&m)), "ESCAPE_NOT_ALLOWED");
    m.sense.beyond.borrow_mut().no_reload = false;
    m.sense.fail_beyond.set(true);
    assert_eq!(
        code(&escape(&m)),
        "INTERNAL",
        "a page that could not be read is not reloaded"
    );
    assert_untouched(&m);
    // The snapshot's escapes stay deriveEscapes(snapshot): the root's.
    m.sense.fail_beyond.set(false);
    m.sense.beyond.borrow_mut().dirty = vec!["draft".into()];
    let up = send(&m, down(pid.clone(), "snapshot", json!({})));
    assert_eq!(up["payload"]["escapes"][0]["allowed"], json!(true));
    // The last check before the reload starts reads beyond the root too.
    assert!(!block_on(m.reload_still_allowed()));
    m.sense.beyond.borrow_mut().dirty.clear();
    assert!(block_on(m.reload_still_allowed()));
    assert_eq!(escape(&m)["ok"], json!(true));
    assert_eq!(m.bom.reloads.get(), 1);
}

#[test]
fn frames_left_unread_by_the_bounds_forbid_a_reload() {
    use sense::FrameBound;
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    let escape = |m: &Fake| send(m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    let message = |up: &Value| {
        up["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    m.sense.beyond.borrow_mut().unread = Some(FrameBound::Count);
    let up = escape(&m);
    assert_eq!(code(&up), "ESCAPE_NOT_ALLOWED");
    assert_eq!(
        message(&up),
        "reload is not allowed now: too many frames to check for unsaved work: more than 64 same-origin frames (a reload reloads the whole page)"
    );
    m.sense.beyond.borrow_mut().unread = Some(FrameBound::Depth);
    assert_eq!(
        message(&escape(&m)),
        "reload is not allowed now: too many frames to check for unsaved work: same-origin frames nested more than 8 levels deep (a reload reloads the whole page)"
    );
    // Unsaved work found before the bound names itself.
    m.sense.beyond.borrow_mut().dirty = vec!["draft".into()];
    let why = message(&escape(&m));
    assert!(
        why.contains("(dirty: draft), outside the scan root"),
        "{why}"
    );
    assert_untouched(&m);
    // The last check before the reload starts fails closed too.
    m.sense.beyond.borrow_mut().dirty.clear();
    assert!(!block_on(m.reload_still_allowed()));
    m.sense.beyond.borrow_mut().unread = None;
    assert!(block_on(m.reload_still_allowed()));
    assert_eq!(escape(&m)["ok"], json!(true));
    assert_eq!(m.bom.reloads.get(), 1);
}

#[test]
fn escape_refusals() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    assert_eq!(
        code(&send(
            &m,
            down(pid.clone(), "escape", json!({ "type": "back" }))
        )),
        "ESCAPE_NOT_ALLOWED"
    );
    m.sense.snapshot.borrow_mut().dirty.push("note".into());
    let up = send(&m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    assert_eq!(code(&up), "ESCAPE_NOT_ALLOWED");
    assert!(up["error"]["message"].as_str().unwrap().contains("note"));
    m.sense.snapshot.borrow_mut().dirty.clear();
    m.sense.snapshot.borrow_mut().no_reload = true;
    assert_eq!(
        code(&send(
            &m,
            down(pid.clone(), "escape", json!({ "type": "reload" }))
        )),
        "ESCAPE_NOT_ALLOWED"
    );
    assert_untouched(&m);
    m.sense.snapshot.borrow_mut().no_reload = false;
    m.bom.outcome.set(Outcome {
        ok: false,
        retired: false,
    });
    assert_eq!(
        code(&send(
            &m,
            down(pid.clone(), "escape", json!({ "type": "reload" }))
        )),
        "DISPATCH_FAILED"
    );
    assert_eq!(m.phase(), Phase::Live, "no fake retirement");
    // `ok: true` without `retired: true` does not retire either.
    m.bom.outcome.set(Outcome {
        ok: true,
        retired: false,
    });
    let up = send(&m, down(pid.clone(), "escape", json!({ "type": "reload" })));
    assert_eq!(code(&up), "DISPATCH_FAILED");
    assert!(up["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("ok: true, retired: false"));
    assert_eq!(m.phase(), Phase::Live);
    // `retired: true` retires whatever `ok` says (baseline §1): the page is
    // going away, so the instance must stop acting.
    m.bom.outcome.set(Outcome {
        ok: false,
        retired: true,
    });
    let up = send(&m, down(pid, "escape", json!({ "type": "reload" })));
    assert_eq!(up["ok"], json!(true), "{up}");
    assert_eq!(up["payload"], json!({ "type": "reload", "retired": true }));
    assert_eq!(m.phase(), Phase::Retired);
}

#[test]
fn sense_failure_is_internal_not_a_panic() {
    let m = machine(vec![item("a")]);
    let pid = hello(&m);
    m.sense.fail.set(true);
    assert_eq!(
        code(&send(&m, down(pid.clone(), "snapshot", json!({})))),
        "INTERNAL"
    );
    assert_eq!(
        code(&send(&m, down(pid, "run", json!({ "id": "a" })))),
        "INTERNAL"
    );
    assert_untouched(&m);
}

#[test]
fn fifo_serves_in_arrival_order() {
    use crate::Fifo;
    let fifo = Fifo::default();
    let order = RefCell::new(Vec::new());
    let mut cx = Context::from_waker(Waker::noop());
    let first = fifo.lock();
    let mut first = pin!(first);
    let Poll::Ready(g1) = first.as_mut().poll(&mut cx) else {
        panic!("free lock")
    };
    let mut second = pin!(async {
        let _g = fifo.lock().await;
        order.borrow_mut().push(2);
    });
    let mut third = pin!(async {
        let _g = fifo.lock().await;
        order.borrow_mut().push(3);
    });
    assert!(third.as_mut().poll(&mut cx).is_pending());
    assert!(second.as_mut().poll(&mut cx).is_pending());
    drop(g1);
    assert!(
        second.as_mut().poll(&mut cx).is_pending(),
        "third arrived first"
    );
    assert!(third.as_mut().poll(&mut cx).is_ready());
    assert!(second.as_mut().poll(&mut cx).is_ready());
    assert_eq!(*order.borrow(), vec![3, 2]);
}

fn item_with(id: &str, event: &str) -> MenuItem {
    MenuItem {
        event: event.into(),
        ..item(id)
    }
}

#[test]
fn run_per_event_passes_its_payload_and_reports() {
    let m = machine(vec![
        item_with("name", "input"),
        item_with("list", "scroll"),
        item_with("card", "drag"),
        item("lane"),
    ]);
    let pid = hello(&m);
    let up = send(
        &m,
        down(pid.clone(), "run", json!({ "id": "name", "value": "Ada" })),
    );
    assert_eq!(up["payload"], json!({ "id": "name", "value": "Ada" }));
    let up = send(
        &m,
        down(pid.clone(), "run", json!({ "id": "list", "to": "end" })),
    );
    assert_eq!(
        up["payload"],
        json!({ "id": "list", "scrollLeft": 3, "scrollTop": 40 })
    );
    let up = send(
        &m,
        down(pid.clone(), "run", json!({ "id": "card", "to": "lane" })),
    );
    assert_eq!(up["payload"], json!({ "id": "card", "to": "lane" }));
    assert_eq!(
        *m.bot.clicks.borrow(),
        vec![
            format!("name input {:?}", InputValue::Text("Ada".into())),
            "list scroll Some(End) None".to_string(),
            "card drag lane".to_string(),
        ]
    );
}

#[test]
fn run_payload_and_drop_target_refusals_touch_nothing() {
    let mut hidden = item("hidden-lane");
    hidden.visible = false;
    let mut dup = item("dup");
    dup.ambiguous = true;
    let m = machine(vec![
        item_with("name", "input"),
        item_with("card", "drag"),
        hidden,
        dup,
        item("g7"),
    ]);
    let pid = hello(&m);
    for (payload, want) in [
        (json!({ "id": "card", "to": "g7" }), "NOT_IN_MENU"),
        (json!({ "id": "name" }), "BAD_REQUEST"),
        (json!({ "id": "name", "value": 4 }), "BAD_REQUEST"),
        (json!({ "id": "card" }), "BAD_REQUEST"),
        (json!({ "id": "card", "to": "card" }), "BAD_REQUEST"),
        (json!({ "id": "card", "to": "nowhere" }), "NOT_IN_MENU"),
        (json!({ "id": "card", "to": "dup" }), "AMBIGUOUS"),
        (
            json!({ "id": "card", "to": "hidden-lane" }),
            "NOT_ACTIONABLE",
        ),
    ] {
        let up = send(&m, down(pid.clone(), "run", payload.clone()));
        assert_eq!(code(&up), want, "{payload}: {up}");
    }
    *m.bot.refuse.borrow_mut() = Some(Refusal::BadRequest("a boolean needs a checkbox".into()));
    let up = send(&m, down(pid, "run", json!({ "id": "name", "value": true })));
    assert_eq!(code(&up), "BAD_REQUEST");
    assert!(up["error"]["message"]
        .as_str()
        .unwrap()
        .contains("checkbox"));
    assert_untouched(&m);
}

fn generic(n: usize, role: &str, name: &str, visible: bool) -> sense::Generic {
    sense::Generic {
        reference: format!("g{n}"),
        role: role.into(),
        name: name.into(),
        visible,
    }
}

#[test]
fn snapshot_without_window_fields_is_the_full_read() {
    let m = machine(vec![item("a"), item("b")]);
    m.sense.snapshot.borrow_mut().generics = vec![
        generic(0, "link", "Help", true),
        generic(1, "button", "Hidden", false),
    ];
    let pid = hello(&m);
    let up = send(&m, down(pid, "snapshot", json!({ "screenshot": false })));
    let snap = &up["payload"]["snapshot"];
    assert_eq!(snap["menu"].as_array().map(Vec::len), Some(2));
    // Hidden generics stay in, and no window is reported.
    assert_eq!(
        snap["generics"],
        json!([{ "ref": "g0", "role": "link", "name": "Help" }, { "ref": "g1", "role": "button", "name": "Hidden" }])
    );
    assert!(snap.get("menuWindow").is_none() && snap.get("genericsWindow").is_none());
    let keys: Vec<_> = snap.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "pageTitle",
            "menu",
            "islands",
            "generics",
            "dirty",
            "noReload"
        ]
    );
}

#[test]
fn snapshot_query_and_window_trim_rows_not_the_rest() {
    let mut menu: Vec<MenuItem> = (0..100)
        .map(|i| MenuItem {
            title: format!("Approve item {i}"),
            ..item(&format!("row.{i}.approve"))
        })
        .collect();
    menu.push(item("save"));
    let m = machine(menu);
    {
        let mut s = m.sense.snapshot.borrow_mut();
        s.generics = vec![
            generic(0, "button", "Approve all", false),
            generic(1, "link", "Help", true),
            generic(2, "button", "approve some", true),
        ];
        s.dirty = vec!["note".into()];
    }
    let pid = hello(&m);
    let up = send(
        &m,
        down(
            pid.clone(),
            "snapshot",
            json!({ "query": "approve ITEM 73" }),
        ),
    );
    let snap = &up["payload"]["snapshot"];
    assert_eq!(
        snap["menu"],
        json!([{ "id": "row.73.approve", "event": "click", "title": "Approve item 73", "desc": "", "enabled": true, "visible": true }])
    );
    assert_eq!(
        snap["menuWindow"],
        json!({ "offset": 0, "limit": 1, "total": 1 })
    );
    assert_eq!(snap["generics"], json!([]));
    assert_eq!(
        snap["genericsWindow"],
        json!({ "offset": 0, "limit": 0, "total": 0, "hidden": 0 })
    );
    // Escapes and dirty come from the full read.
    assert_eq!(snap["dirty"], json!(["note"]));
    assert_eq!(up["payload"]["escapes"][0]["allowed"], json!(false));

    let up = send(
        &m,
        down(
            pid.clone(),
            "snapshot",
            json!({ "query": "approve", "offset": 98, "limit": 5 }),
        ),
    );
    let snap = &up["payload"]["snapshot"];
    let ids: Vec<_> = snap["menu"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["row.98.approve", "row.99.approve"]);
    assert_eq!(
        snap["menuWindow"],
        json!({ "offset": 98, "limit": 5, "total": 100 })
    );
    assert_eq!(
        snap["genericsWindow"],
        json!({ "offset": 98, "limit": 5, "total": 1, "hidden": 1 })
    );

    let up = send(&m, down(pid.clone(), "snapshot", json!({ "limit": 1 })));
    let snap = &up["payload"]["snapshot"];
    assert_eq!(snap["menu"][0]["id"], json!("row.0.approve"));
    assert_eq!(snap["menu"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        snap["menuWindow"],
        json!({ "offset": 0, "limit": 1, "total": 101 })
    );
    assert_eq!(
        snap["generics"],
        json!([{ "ref": "g1", "role": "link", "name": "Help" }])
    );
    assert_eq!(
        snap["genericsWindow"],
        json!({ "offset": 0, "limit": 1, "total": 2, "hidden": 1 })
    );

    // Wrong types are BAD_REQUEST, after phase and latch.
    for payload in [
        json!({ "query": 5 }),
        json!({ "offset": -1 }),
        json!({ "offset": 1.5 }),
        json!({ "limit": "10" }),
        json!({ "limit": null }),
    ] {
        let up = send(&m, down(pid.clone(), "snapshot", payload.clone()));
        assert_eq!(code(&up), "BAD_REQUEST", "{payload}");
        let up = send(&m, down(json!("zzz"), "snapshot", payload.clone()));
        assert_eq!(code(&up), "PAGE_MISMATCH", "{payload}");
    }
    assert_untouched(&m);
}

#[test]
fn a_windowed_snapshot_carries_only_the_islands_its_window_concerns() {
    let slot = |island: &str, name: &str, resolved: bool| sense::IslandSlot {
        name: name.into(),
        id: format!("{island}:{name}"),
        resolved,
    };
    let slot_item = |id: &str, island: &str| MenuItem {
        island: Some(island.into()),
        ..item(id)
    };
    let mut menu: Vec<MenuItem> = (0..40).map(|i| item(&format!("row.{i}"))).collect();
    menu.push(slot_item("pager:next", "pager"));
    menu.push(slot_item("tabs:news", "tabs"));
    let m = machine(menu);
    let islands = vec![
        sense::Island {
            id: "pager".into(),
            slots: vec![slot("pager", "next", true)],
        },
        sense::Island {
            id: "tabs".into(),
            slots: vec![slot("tabs", "news", true)],
        },
        sense::Island {
            id: "broken".into(),
            slots: vec![slot("broken", "lost", false)],
        },
    ];
    {
        let mut s = m.sense.snapshot.borrow_mut();
        s.islands = islands.clone();
        s.dirty = vec!["note".into()];
    }
    let pid = hello(&m);
    let all = json!(islands);

    // No window: every island, and no count (the seed's snapshot).
    let up = send(&m, down(pid.clone(), "snapshot", json!({})));
    assert_eq!(up["payload"]["snapshot"]["islands"], all);
    assert!(up["payload"]["snapshot"].get("islandsTotal").is_none());

    // A query for one slot: its island, and the one with a slot not found.
    let up = send(
        &m,
        down(pid.clone(), "snapshot", json!({ "query": "NEXT" })),
    );
    let snap = &up["payload"]["snapshot"];
    assert_eq!(snap["menu"][0]["id"], json!("pager:next"));
    assert_eq!(snap["islands"], json!([all[0], all[2]]));
    assert_eq!(snap["islandsTotal"], json!(3));
    // dirty, and so the escapes, still come from the whole page.
    assert_eq!(snap["dirty"], json!(["note"]));
    assert_eq!(up["payload"]["escapes"][0]["allowed"], json!(false));
    let keys: Vec<_> = snap.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "pageTitle",
            "menu",
            "islands",
            "generics",
            "dirty",
            "noReload",
            "menuWindow",
            "genericsWindow",
            "islandsTotal"
        ]
    );

    // A page of plain rows: only the island with a slot not found.
    let up = send(&m, down(pid.clone(), "snapshot", json!({ "limit": 10 })));
    assert_eq!(up["payload"]["snapshot"]["islands"], json!([all[2]]));
    // The page holding both slots' rows.
    let up = send(&m, down(pid, "snapshot", json!({ "offset": 40 })));
    assert_eq!(up["payload"]["snapshot"]["islands"], all);
    assert_eq!(up["payload"]["snapshot"]["islandsTotal"], json!(3));
}

#[test]
fn not_plain_projections_are_bad_requests_in_turn() {
    use crate::{NonJson, Projection};
    let m = machine(vec![item("a")]);
    let mut p = Projection::text(r#"{"requestId":"b","cmd":"hello","payload":{"n":null}}"#);
    p.non_json = Some(NonJson {
        kind: "bigint".into(),
        key: "n".into(),
        shown: String::new(),
    });
    let up: Value =
        serde_json::from_str(&block_on(m.handle_projected(&p)).uplink.to_json()).unwrap();
    assert_eq!(code(&up), "BAD_REQUEST");
    assert_eq!(up["requestId"], json!("b"));
    assert_eq!(m.phase(), Phase::Installed, "nothing was said hello to");
    let ok = Projection::text(down(Value::Null, "hello", json!({})).to_string());
    let up: Value =
        serde_json::from_str(&block_on(m.handle_projected(&ok)).uplink.to_json()).unwrap();
    assert_eq!(up["ok"], json!(true));
    // Raw text that is not JSON at all is a refusal too.
    assert_eq!(code(&send_text(&m, "{\"requestId\":")), "BAD_REQUEST");
}
