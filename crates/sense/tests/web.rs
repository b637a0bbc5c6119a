//! DomSense against a live document in headless Chromium.
#![cfg(target_arch = "wasm32")]

use sense::dom::DomSense;
use sense::IslandSlots;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, ShadowRootInit, ShadowRootMode};

wasm_bindgen_test_configure!(run_in_browser);

fn mount(html: &str) -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(html);
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

fn slots() -> IslandSlots {
    IslandSlots::from_json(&serde_json::json!({ "pager": { "next": { "ariaLabel": "Next" } } }))
        .unwrap()
}

#[wasm_bindgen_test]
fn reads_markers_states_islands_and_generics_from_an_element_root() {
    let host = mount(
        r##"<i data-e2e-pagetitle=" Orders "></i>
           <button data-e2e-kind="playable" data-e2e-id="save" data-e2e-title="Save" data-e2e-desc="d">Save</button>
           <button data-e2e-kind="playable" data-e2e-id="off" disabled>Off</button>
           <button data-e2e-kind="playable" data-e2e-id="gone" style="display:none">Gone</button>
           <nav data-e2e-kind="island" data-e2e-id="pager"><button aria-label="Next">›</button></nav>
           <a href="#x">Help</a>
           <textarea data-e2e-id="note" data-e2e-dirty="true"></textarea>"##,
    );
    let sense = DomSense::new(host.clone().into(), slots());
    let snap = sense.snapshot().unwrap();
    assert_eq!(snap.page_title.as_deref(), Some("Orders"));
    let ids: Vec<_> = snap.menu.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["save", "off", "gone", "pager:next"]);
    assert!(snap.menu[0].enabled && snap.menu[0].visible);
    assert!(!snap.menu[1].enabled);
    assert!(!snap.menu[2].visible);
    assert_eq!(snap.menu[3].title, "Next");
    assert_eq!(snap.generics.len(), 2, "the link and the textarea");
    assert_eq!(snap.generics[0].role, "link");
    assert_eq!(snap.dirty, vec!["note".to_string()]);
    let target: Element = sense.resolve("pager:next").unwrap().unchecked_into();
    assert_eq!(target.get_attribute("aria-label").as_deref(), Some("Next"));
    assert!(sense.resolve("nope").is_none());
    host.remove();
}

#[wasm_bindgen_test]
fn reads_a_shadow_root_and_never_mutates() {
    let host = mount("");
    let shadow = host
        .attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open))
        .unwrap();
    shadow.set_inner_html(r#"<button data-e2e-kind="playable" data-e2e-id="inside">In</button>"#);
    let before = shadow.inner_html();
    let sense = DomSense::new(JsValue::from(shadow.clone()), IslandSlots::default());
    let snap = sense.snapshot().unwrap();
    assert_eq!(snap.menu.len(), 1);
    assert_eq!(snap.menu[0].id, "inside");
    assert_eq!(shadow.inner_html(), before);
    host.remove();
}

#[wasm_bindgen_test]
fn a_root_that_is_not_a_node_is_an_error_not_a_trap() {
    let sense = DomSense::new(JsValue::from_f64(3.0), IslandSlots::default());
    assert!(sense.snapshot().is_err());
}

#[wasm_bindgen_test]
fn generics_carry_the_menu_visibility_rule() {
    let host = mount(
        r##"<a href="#a">Shown</a>
           <a href="#b" hidden>Hidden</a>
           <a href="#c" style="display:none">None</a>
           <a href="#d" style="visibility:hidden">Invisible</a>
           <button style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>
           <div style="display:none"><button>Inside none</button></div>"##,
    );
    let snap = DomSense::new(host.clone().into(), IslandSlots::default())
        .snapshot()
        .unwrap();
    let g: Vec<_> = snap
        .generics
        .iter()
        .map(|g| (g.name.as_str(), g.visible))
        .collect();
    assert_eq!(
        g,
        [
            ("Shown", true),
            ("Hidden", false),
            ("None", false),
            ("Invisible", false),
            ("Zero", false),
            ("Inside none", false)
        ]
    );
    host.remove();
}

#[wasm_bindgen_test]
fn roles_and_names_come_from_the_dom_facts() {
    let host = mount(
        r##"<input type="submit">
           <input type="Reset" value="Clear">
           <label>Email <input type="email"></label>
           <input type="search" placeholder="Find">
           <input type="constructor" title="Odd type">
           <input type="hidden" value="secret">
           <select multiple><option>x</option></select>
           <select size="1" aria-label="Pick"><option>y</option></select>
           <span id="l1">Ship</span><span id="l2">to</span>
           <button aria-labelledby="l1 missing l2">ignored</button>
           <a href="#i"><img alt="Home"></a>
           <a href="#t" title="Only title"> </a>
           <div contenteditable="true">Edit me</div>
           <div tabindex="0">Focusable</div>
           <div tabindex="-1">Not focusable</div>
           <div role=" Switch extra">Toggle</div>
           <nav role="navigation">Region <a href="#r">Inner</a></nav>"##,
    );
    let snap = DomSense::new(host.clone().into(), IslandSlots::default())
        .snapshot()
        .unwrap();
    let g: Vec<_> = snap
        .generics
        .iter()
        .map(|g| (g.role.as_str(), g.name.as_str()))
        .collect();
    assert_eq!(
        g,
        [
            ("button", "Submit"),
            ("button", "Clear"),
            ("textbox", "Email"),
            ("searchbox", "Find"),
            ("textbox", "Odd type"),
            ("listbox", ""),
            ("combobox", "Pick"),
            ("button", "Ship to"),
            ("link", "Home"),
            ("link", "Only title"),
            ("textbox", "Edit me"),
            ("", "Focusable"),
            ("switch", "Toggle"),
            ("link", "Inner")
        ]
    );
    host.remove();
}

#[wasm_bindgen_test]
fn disabling_reaches_into_open_shadow_roots_and_from_above_the_root() {
    let host = mount(
        r#"<div inert><span id="h"></span></div><div aria-disabled="true"><p id="inner"></p></div>"#,
    );
    let doc = web_sys::window().unwrap().document().unwrap();
    let shadow_host = doc.get_element_by_id("h").unwrap();
    let shadow = shadow_host
        .attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open))
        .unwrap();
    shadow
        .set_inner_html(r#"<button data-e2e-kind="playable" data-e2e-id="in-shadow">In</button>"#);
    let inner = doc.get_element_by_id("inner").unwrap();
    inner.set_inner_html(r#"<button data-e2e-kind="playable" data-e2e-id="below">B</button>"#);
    let snap = DomSense::new(host.clone().into(), IslandSlots::default())
        .snapshot()
        .unwrap();
    assert_eq!(snap.menu[0].id, "in-shadow");
    assert!(!snap.menu[0].enabled, "inert reaches through the host");
    // A scan root below a disabling element: everything in it is disabled.
    let snap = DomSense::new(inner.clone().into(), IslandSlots::default())
        .snapshot()
        .unwrap();
    assert_eq!(snap.menu[0].id, "below");
    assert!(!snap.menu[0].enabled);
    host.remove();
}
