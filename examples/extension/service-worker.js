// The extension's service worker: the agent's side. It never touches a page
// itself; it sends envelopes to a tab's relay (relay.js) and gets the page's
// uplinks back. An agent (or you, in this worker's DevTools console) uses:
//
//   await inPagePlayable.status(tabId)        → { state: "ready", installedBy: "page" | "extension" } | { state: "failed", error }
//   await inPagePlayable.send(tabId, envelope) → { ok: true, uplink } | { ok: false, error }
//   await inPagePlayable.hello(tabId), .snapshot(tabId), .run(tabId, id), .escape(tabId)
//
// `ok: false` at this level is a relay failure (e.g. the page's CSP blocked
// WebAssembly: error.code "WASM_BLOCKED_BY_CSP"); the page's own refusals come
// back as an uplink with `ok: false` and a protocol error code.
//
// The first call to a tab (any of them) is what installs the package there,
// unless the page has installed its own copy by then (see relay.js).

const RELAY = "in-page-playable";
const pageIds = new Map(); // tabId → the pageId hello returned (latched by the page)
let requests = 0;

// A tab that is still loading has no relay yet (content scripts run at
// document_idle): retry briefly instead of failing the agent's first request.
async function toRelay(tabId, message, attempts = 50) {
  for (let i = 1; ; i++) {
    try {
      return await chrome.tabs.sendMessage(tabId, message);
    } catch (error) {
      if (i >= attempts || !/Receiving end does not exist/.test(String(error && error.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function status(tabId) {
  return toRelay(tabId, { relay: RELAY, kind: "status" });
}

async function send(tabId, envelope) {
  return toRelay(tabId, { relay: RELAY, kind: "down", envelope });
}

async function command(tabId, cmd, payload = {}) {
  const envelope = { pageId: pageIds.get(tabId) ?? null, requestId: `sw-${++requests}`, cmd, payload };
  const reply = await send(tabId, envelope);
  if (reply.ok && cmd === "hello" && reply.uplink.ok) pageIds.set(tabId, reply.uplink.payload.pageId);
  if (reply.ok && cmd === "escape" && reply.uplink.ok) pageIds.delete(tabId); // the page is reloading: hello again
  return reply;
}

globalThis.inPagePlayable = {
  status,
  send,
  hello: (tabId) => command(tabId, "hello"),
  snapshot: (tabId) => command(tabId, "snapshot"),
  run: (tabId, id) => command(tabId, "run", { id }),
  escape: (tabId) => command(tabId, "escape", { type: "reload" }),
};
