use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, MouseEvent, MouseEventInit};

use crate::Actionability;

/// Dispatches on live elements.
#[derive(Debug, Default, Clone, Copy)]
pub struct DomBot;

impl DomBot {
    /// Connected, visible and enabled by the snapshot's own rules.
    pub fn check(&self, target: &JsValue) -> Result<(), String> {
        let Some(el) = target.dyn_ref::<Element>() else {
            return Err("the target is not an element".into());
        };
        let connected = el.is_connected();
        Actionability {
            connected,
            visible: connected && sense::dom::is_visible(target),
            enabled: connected && sense::dom::is_enabled(target),
        }
        .verdict()
        .map_err(str::to_string)
    }

    /// Exactly one click: `HTMLElement.click()` (activation behaviour included),
    /// or a synthetic `click` MouseEvent for other elements (SVG…).
    pub fn click(&self, target: &JsValue) -> Result<(), String> {
        if let Some(el) = target.dyn_ref::<HtmlElement>() {
            el.click();
            return Ok(());
        }
        let el = target
            .dyn_ref::<Element>()
            .ok_or_else(|| "the target is not an element".to_string())?;
        let init = MouseEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_composed(true);
        let event = MouseEvent::new_with_mouse_event_init_dict("click", &init)
            .map_err(|_| "could not create a click event".to_string())?;
        el.dispatch_event(&event)
            .map(|_| ())
            .map_err(|_| "dispatching click threw".to_string())
    }
}
