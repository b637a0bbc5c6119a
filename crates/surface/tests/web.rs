//! The DOM side of Surface against a live document in headless Chromium:
//! the marker reader, the MutationObserver wait, the built-in executor.
#![cfg(target_arch = "wasm32")]

use serde_json::json;
use surface::dom::{DomExecutor, DomPage};
use surface::Page;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn mount(html: &str) -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(html);
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

const ORDERS: &str = r#"
  <h1 data-e2e-pagetitle=" Orders ">Orders</h1>
  <section data-e2e-kind="region" data-e2e-id="list" data-e2e-title="Order list">
    <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="SO-1001" data-e2e-state="open">
      <span data-e2e-field="customer">  Ada
        Lovelace </span>
      <button data-e2e-kind="playable" data-e2e-id="note@order"
              onclick="window.__clicks = (window.__clicks || 0) + 1">Note</button>
    </div>
    <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="SO-1002">
      <button data-e2e-kind="playable" data-e2e-id="note@order" data-e2e-unavailable="记录已锁定">Note</button>
    </div>
  </section>
  <section data-e2e-kind="region" data-e2e-id="hidden" style="display:none"></section>
  <button data-e2e-kind="playable" data-e2e-id="export" style="display:none">Export</button>
  <p data-e2e-kind="status" id="surface-status">Ready</p>
  <p data-e2e-kind="feedback" data-e2e-level="error">Oops</p>
"#;

fn clicks() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"__clicks".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

#[wasm_bindgen_test]
fn observe_reads_the_page_vocabulary() {
    let host = mount(ORDERS);
    let obs = DomPage::new(host.clone().into()).observe().unwrap();
    assert_eq!(obs.page_title.as_deref(), Some("Orders"));
    let regions: Vec<_> = obs
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.active))
        .collect();
    assert_eq!(regions, [("list", true), ("hidden", false)]);
    assert_eq!(obs.records.len(), 2);
    assert_eq!(obs.records[0].fields["customer"], "Ada Lovelace");
    assert_eq!(obs.records[0].state.as_deref(), Some("open"));
    assert_eq!(obs.records[0].region.as_deref(), Some("list"));
    let locked = obs.action("note@order", Some("SO-1002")).unwrap();
    assert_eq!(locked.unavailable_reason.as_deref(), Some("记录已锁定"));
    assert!(obs.action("note@order", Some("SO-1001")).unwrap().visible);
    assert!(!obs.action("export", None).unwrap().visible, "display:none");
    assert_eq!(obs.status, ["Ready"]);
    assert_eq!(obs.feedback[0].level.as_deref(), Some("error"));
    host.remove();
}

#[wasm_bindgen_test]
async fn wait_for_text_resolves_on_the_mutation_and_times_out_otherwise() {
    let host = mount(ORDERS);
    let page = DomPage::new(host.clone().into());
    assert!(page.wait_for_text("Ready", 0.0).await, "already there");
    js_sys::Function::new_no_args(
        "setTimeout(() => { document.getElementById('surface-status').textContent = 'Note saved'; }, 30)",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let t0 = js_sys::Date::now();
    assert!(page.wait_for_text("saved", 2000.0).await);
    assert!(
        js_sys::Date::now() - t0 < 1000.0,
        "resolved on the change, not at the deadline"
    );
    let t0 = js_sys::Date::now();
    assert!(!page.wait_for_text("never", 100.0).await);
    assert!(js_sys::Date::now() - t0 >= 95.0);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_executor_clicks_the_records_control_once_and_refuses_without_clicking() {
    let host = mount(ORDERS);
    let exec = DomExecutor::new(host.clone().into());
    let before = clicks();
    let ok = exec
        .execute("note@order", &json!({ "record": "SO-1001" }))
        .await;
    assert_eq!(ok, Ok(None));
    assert_eq!(clicks() - before, 1.0);
    let missing = exec
        .execute("note@order", &json!({ "record": "SO-9" }))
        .await
        .unwrap_err();
    assert_eq!(missing.code, "ACTION_UNAVAILABLE");
    let nothing = exec.execute("other", &json!({})).await.unwrap_err();
    assert!(
        nothing.message.contains("NOT_IN_MENU"),
        "{}",
        nothing.message
    );
    assert_eq!(clicks() - before, 1.0, "refusals click nothing");
    host.remove();
}

/// The shell's shape: the page's callbacks behind `Host`, the built-in
/// executor for `execute`, `DomPage` for the page.
struct BuiltinHost {
    executor: DomExecutor,
}

impl surface::Host for BuiltinHost {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }
    async fn session(&self) -> Option<surface::Session> {
        surface::session_from_callback(Ok(r#"{"id":"s","scope":["*"]}"#.into()))
    }
    async fn registry(&self) -> surface::Registry {
        surface::Registry::from_json_text(
            r#"[{"id":"note@order","title":"Note","expect":{"text":"Note saved","within":1000}},{"id":"other","title":"Other"}]"#,
        )
        .unwrap()
    }
    fn can_confirm(&self) -> bool {
        false
    }
    async fn confirm(&self, _: &str, _: &serde_json::Value) -> bool {
        false
    }
    async fn execute(&self, capability: &str, args: &serde_json::Value) -> surface::ExecOutcome {
        self.executor.execute(capability, args).await
    }
    fn clicks_controls(&self) -> bool {
        true
    }
}

#[wasm_bindgen_test]
async fn the_pipeline_runs_over_the_live_page() {
    let host = mount(ORDERS);
    // The click shows the expected text a little later.
    let button = host
        .query_selector("[data-e2e-id='SO-1001'] button")
        .unwrap()
        .unwrap();
    button
        .set_attribute(
            "onclick",
            "setTimeout(() => { document.getElementById('surface-status').textContent = 'Note saved'; }, 30)",
        )
        .unwrap();
    let page = DomPage::new(host.clone().into());
    let builtin = BuiltinHost {
        executor: DomExecutor::new(host.clone().into()),
    };
    let core = surface::Surface::new(surface::SurfaceConfig::new(
        "orders",
        ["note@order", "other"],
    ));
    let ask = |id: &str, body: &str| {
        format!(r#"{{"protocol":"pling.surface/0.1","id":"{id}","method":{body}}}"#)
    };
    let described = core
        .handle(&ask("d", r#""describe""#), &builtin, &page)
        .await;
    let described = serde_json::to_value(&described).unwrap();
    assert_eq!(described["result"]["recordWindow"]["total"], 2);
    // `other` has no control to click: the availability check refuses it,
    // as invoke does below.
    let nothing = "`other` has no control on the page";
    assert_eq!(
        described["result"]["unavailable"],
        json!([
            { "capability": "note@order", "record": "SO-1002", "reason": "记录已锁定" },
            { "capability": "other", "reason": nothing }
        ])
    );
    let ran = core
        .handle(
            &ask(
                "i",
                r#""invoke","capability":"note@order","input":{"record":"SO-1001"}"#,
            ),
            &builtin,
            &page,
        )
        .await;
    let ran = serde_json::to_value(&ran).unwrap();
    assert_eq!(ran["ok"], true, "{ran}");
    assert_eq!(ran["result"].get("error"), None, "{ran}");
    assert_eq!(ran["result"]["after"]["status"], json!(["Note saved"]));
    let refused = core
        .handle(
            &ask("o", r#""invoke","capability":"other""#),
            &builtin,
            &page,
        )
        .await;
    let refused = serde_json::to_value(&refused).unwrap();
    assert_eq!(
        refused["result"]["error"]["code"], "ACTION_UNAVAILABLE",
        "{refused}"
    );
    assert_eq!(refused["result"]["error"]["message"], nothing);
    host.remove();
}
