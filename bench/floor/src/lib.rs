//! Each crate of the design card, used once for the job it has in the shipped
//! module, around as little logic as the exports need to be reachable. Built
//! without the `card` feature, the same exports do the same trivial work with
//! wasm-bindgen and js-sys alone.
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "card")]
mod card {
    use serde::{Deserialize, Serialize};

    /// A request and an answer: a few field kinds, an optional, a list, an enum.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Request {
        pub id: String,
        pub kind: Kind,
        pub page_id: Option<String>,
        pub items: Vec<Item>,
        pub payload: Option<serde_json::Value>,
    }

    #[derive(Deserialize, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub enum Kind {
        Hello,
        Snapshot,
        Run,
    }

    #[derive(Deserialize, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Item {
        pub id: String,
        pub label: String,
        pub disabled: bool,
        pub weight: f64,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Answer {
        pub id: String,
        pub ok: bool,
        pub kind: Option<Kind>,
        pub items: Vec<Item>,
        pub payload: Option<serde_json::Value>,
        pub error: Option<String>,
    }
}

/// Twenty more wire types of the same shape (four fields: text, optional
/// text, flag, list of text), each read from JSON text and written back.
#[cfg(feature = "types20")]
mod types20 {
    use serde::{Deserialize, Serialize};
    use wasm_bindgen::prelude::*;

    macro_rules! wire_types {
        ($($name:ident $export:ident),*) => {$(
            #[derive(Deserialize, Serialize)]
            #[serde(rename_all = "camelCase")]
            pub struct $name {
                pub first_text: String,
                pub maybe_text: Option<String>,
                pub flag: bool,
                pub texts: Vec<String>,
            }

            #[wasm_bindgen]
            pub fn $export(text: &str) -> String {
                match serde_json::from_str::<$name>(text) {
                    Ok(v) => serde_json::to_string(&v).unwrap_or_default(),
                    Err(e) => e.to_string(),
                }
            }
        )*};
    }

    wire_types!(T01 t01, T02 t02, T03 t03, T04 t04, T05 t05, T06 t06, T07 t07, T08 t08, T09 t09, T10 t10,
                T11 t11, T12 t12, T13 t13, T14 t14, T15 t15, T16 t16, T17 t17, T18 t18, T19 t19, T20 t20);
}

#[wasm_bindgen]
pub struct Floor {
    #[cfg(feature = "card")]
    listener: Option<gloo_events::EventListener>,
    seen: u32,
}

#[wasm_bindgen]
impl Floor {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Floor {
        Floor {
            #[cfg(feature = "card")]
            listener: None,
            seen: 0,
        }
    }

    /// serde_json both ways: one typed decode of a JSON text, one text out.
    #[cfg(feature = "card")]
    pub fn handle(&mut self, text: &str) -> String {
        use card::*;
        self.seen += 1;
        let answer = match serde_json::from_str::<Request>(text) {
            Ok(r) => Answer {
                id: r.id,
                ok: true,
                kind: Some(r.kind),
                items: r.items,
                payload: r.payload,
                error: r.page_id,
            },
            Err(e) => Answer {
                id: String::new(),
                ok: false,
                kind: None,
                items: vec![],
                payload: None,
                error: Some(e.to_string()),
            },
        };
        serde_json::to_string(&answer).unwrap_or_default()
    }

    /// The bare build: the text back, counted.
    #[cfg(not(feature = "card"))]
    pub fn handle(&mut self, text: &str) -> String {
        self.seen += 1;
        format!("{{\"seen\":{},\"length\":{}}}", self.seen, text.len())
    }

    /// serde-wasm-bindgen both ways: a JS value in, a JS value out.
    #[cfg(feature = "card")]
    pub fn items(&self, value: JsValue) -> Result<JsValue, JsValue> {
        use serde::Serialize;
        let items: Vec<card::Item> = serde_wasm_bindgen::from_value(value)?;
        Ok(items.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
    }

    /// gloo-events: a listener removed on drop.
    #[cfg(feature = "card")]
    pub fn listen(&mut self) {
        let Some(window) = web_sys::window() else {
            return;
        };
        self.listener = Some(gloo_events::EventListener::new(&window, "message", |e| {
            let _ = js_sys::Reflect::set(e, &"seen".into(), &true.into());
        }));
    }

    pub fn seen(&self) -> u32 {
        self.seen
    }
}

impl Default for Floor {
    fn default() -> Self {
        Self::new()
    }
}

/// wasm-bindgen-futures: a promise awaited, a promise returned.
#[cfg(feature = "card")]
#[wasm_bindgen]
pub async fn settle(promise: js_sys::Promise) -> Result<JsValue, JsValue> {
    let value = wasm_bindgen_futures::JsFuture::from(promise).await?;
    let text = js_sys::JSON::stringify(&value)
        .map(String::from)
        .unwrap_or_default();
    Ok(JsValue::from_str(&text))
}
