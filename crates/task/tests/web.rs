//! The runtime in a browser: awaits under a foreign executor (the test
//! harness's), and its own tasks and promises.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use js_sys::Promise;
use task::{future_to_promise, spawn_local, Await};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn awaits_values_promises_and_rejections() {
    assert_eq!(Await::new(JsValue::from(1)).await, Ok(JsValue::from(1)));
    let ok = Promise::resolve(&JsValue::from("a"));
    assert_eq!(Await::from(ok).await, Ok(JsValue::from("a")));
    let no = Promise::reject(&JsValue::from("b"));
    assert_eq!(Await::from(no).await, Err(JsValue::from("b")));
}

#[wasm_bindgen_test]
async fn promises_settle_with_the_outcome() {
    let ok = future_to_promise(async {
        let v = Await::from(Promise::resolve(&JsValue::from(2))).await?;
        Ok(v)
    });
    assert_eq!(Await::from(ok).await, Ok(JsValue::from(2)));
    let no = future_to_promise(async { Err(JsValue::from(3)) });
    assert_eq!(Await::from(no).await, Err(JsValue::from(3)));
}

#[wasm_bindgen_test]
async fn spawned_tasks_run_in_order_and_to_completion() {
    let log = Rc::new(Cell::new(Vec::new()));
    for i in 0..3 {
        let log = Rc::clone(&log);
        spawn_local(async move {
            let mut l = log.take();
            l.push(i);
            log.set(l);
            let _ = Await::from(Promise::resolve(&JsValue::NULL)).await;
            let mut l = log.take();
            l.push(10 + i);
            log.set(l);
        });
    }
    assert!(
        log.take().is_empty(),
        "tasks start from a microtask, not inside spawn"
    );
    // A few turns of the microtask queue: every task has finished by then.
    for _ in 0..5 {
        let _ = Await::from(Promise::resolve(&JsValue::NULL)).await;
    }
    assert_eq!(log.take(), vec![0, 1, 2, 10, 11, 12]);
}

#[wasm_bindgen_test]
async fn boxed_answers_resolve() {
    let p = task::resolve_to_promise(Box::pin(async {
        let v = Await::from(Promise::resolve(&JsValue::from(4))).await;
        v.unwrap_or_default()
    }));
    assert_eq!(Await::from(p).await, Ok(JsValue::from(4)));
}
