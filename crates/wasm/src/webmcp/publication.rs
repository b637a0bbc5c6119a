//! A live WebMCP publication. Its owner is a playable instance (tools = the
//! runnable menu) or a Surface (tools = the usable capabilities). It is a
//! client like any other: every read and every tool call is a request sent
//! through the owner's own `handle` — hello, snapshot and run downlinks, or
//! describe and invoke requests — so the menu is read afresh, the latch,
//! actionability and Surface's checks all hold, and a refusal changes
//! nothing. The answer is the tool's result. webmcp.js keeps the
//! publication (request ids, the reads that follow DOM changes under the
//! root and every call, the tools); this side only carries its requests to
//! the owner. Retirement, `stop()` and a dropped owner withdraw all.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Array, Function};
use playable::Phase;
use wasm_bindgen::prelude::*;

use crate::install::Instance;
use crate::serve::Answer;

#[wasm_bindgen(module = "/src/webmcp.js")]
extern "C" {
    /// What `publishWebMcp()` returns: `{ active, stop() }` (webmcp.js).
    #[derive(Clone)]
    pub type WebMcpPublication;
    #[wasm_bindgen(method, getter)]
    fn active(this: &WebMcpPublication) -> bool;
    #[wasm_bindgen(method)]
    fn stop(this: &WebMcpPublication);

    /// Starts publishing (inactive where WebMCP is absent in `window`, or
    /// unless `live`); `send([request, resolve])` carries a request.
    fn start(
        window: &JsValue,
        root: &JsValue,
        surface: bool,
        live: bool,
        send: &Function,
    ) -> WebMcpPublication;
}

/// Whose tools these are.
pub(crate) enum Owner {
    Playable(Weak<Instance>),
    Surface(Weak<crate::surface::Inner>),
}

impl Owner {
    /// One request through the owner's `handle`; undefined once it is gone.
    fn answer(&self, request: JsValue) -> Answer {
        match self {
            Owner::Playable(instance) => {
                if let Some(instance) = instance.upgrade() {
                    return instance.answer(request);
                }
            }
            Owner::Surface(surface) => {
                if let Some(surface) = surface.upgrade() {
                    return Box::pin(async move { surface.handle(request).await });
                }
            }
        }
        Box::pin(async { JsValue::UNDEFINED })
    }

    /// Not retired: worth publishing for (a Surface publishing is alive).
    fn live(&self) -> bool {
        match self {
            Owner::Playable(instance) => instance
                .upgrade()
                .is_some_and(|i| i.machine.phase() != Phase::Retired),
            Owner::Surface(_) => true,
        }
    }
}

/// The module's one closure type (the bridge listener's): one
/// wasm-bindgen invoke shim serves them all. It never returns an error.
type Callback = Closure<dyn FnMut(JsValue) -> Result<(), JsError>>;

/// The owner's side of a publication, kept in the owner's slot.
pub(crate) struct Publication {
    js: WebMcpPublication,
    /// A request `[request, resolve]`: resolves with the promise of the
    /// owner's answer (undefined once the owner is gone).
    _send: Callback,
}

impl Publication {
    fn start(window: &JsValue, root: JsValue, owner: Owner) -> Self {
        let live = owner.live();
        let surface = matches!(owner, Owner::Surface(_));
        let send: Callback = Closure::new(move |call: JsValue| {
            let call: Array = call.unchecked_into();
            let answer = crate::serve::promise(owner.answer(call.get(0)));
            let resolve: Function = call.get(1).unchecked_into();
            let _ = resolve.call1(&JsValue::UNDEFINED, &answer);
            Ok(())
        });
        let js = start(window, &root, surface, live, send.as_ref().unchecked_ref());
        Self { js, _send: send }
    }
}

impl Drop for Publication {
    /// Dropped (the owner retired or went away): every tool is withdrawn
    /// and webmcp.js sends nothing more.
    fn drop(&mut self) {
        self.js.stop();
    }
}

impl WebMcpPublication {
    /// `publishWebMcp()` for an owner that keeps its publication in `slot`:
    /// a second call while publishing returns the same publication.
    pub(crate) fn publish(
        slot: &RefCell<Option<Rc<Publication>>>,
        window: &JsValue,
        root: JsValue,
        owner: Owner,
    ) -> Self {
        let Ok(mut slot) = slot.try_borrow_mut() else {
            return start(
                window,
                &root,
                false,
                false,
                JsValue::UNDEFINED.unchecked_ref(),
            );
        };
        if let Some(live) = slot.as_ref().filter(|p| p.js.active()) {
            return live.js.clone();
        }
        let publication = Publication::start(window, root, owner);
        let js = publication.js.clone();
        *slot = Some(Rc::new(publication));
        js
    }
}
