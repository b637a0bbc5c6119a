// ISOLATED-world content script: only passes messages. Envelopes from the
// service worker go to the page's window bridge as `dir: "down"` wrappers
// (window.postMessage); the bridge's `dir: "up"` reply with the same seq goes
// back. It never reads or changes the page's DOM and never interprets an
// envelope; it also reports whether the MAIN-world install succeeded.
//
// The first message from the service worker (status or an envelope) asks the
// MAIN-world script to install (lazily, so a page that installs its own copy
// late is not beaten to it); envelopes wait, in order, until it has reported.
(() => {
  const CHANNEL = "in-page-playable"; // the window bridge (baseline §3)
  const CONTROL = "in-page-playable-extension"; // MAIN-world script ↔ relay
  const BASE = chrome.runtime.getURL("playable/");
  const REPLY_TIMEOUT_MS = 15000;

  let status = { state: "pending" };
  let wanted = false; // an agent has asked for this page: install (or find the page's instance)
  const statusWaiters = [];
  const pending = new Map(); // seq → resolve
  // Random start so our seqs do not collide with other clients of the same bridge.
  let seq = Math.floor(Math.random() * 2 ** 30);

  // Safe to send twice (on the first need, and again if the MAIN-world script
  // announces itself later): it installs once.
  const askInstall = () => window.postMessage({ channel: CONTROL, kind: "install", base: BASE }, location.origin);
  const need = () => {
    if (wanted) return;
    wanted = true;
    askInstall();
  };

  window.addEventListener("message", (event) => {
    const m = event.data;
    if (event.source !== window || !m || typeof m !== "object") return;
    if (m.channel === CONTROL && m.kind === "present") {
      if (wanted) askInstall(); // the agent asked before the MAIN-world script ran
    } else if (m.channel === CONTROL && m.kind === "status" && status.state === "pending") {
      status = m.state === "ready" ? { state: "ready", installedBy: m.installedBy } : { state: "failed", error: m.error };
      statusWaiters.splice(0).forEach((resolve) => resolve(status));
    } else if (m.channel === CHANNEL && m.dir === "up" && pending.has(m.seq)) {
      const resolve = pending.get(m.seq);
      pending.delete(m.seq);
      resolve({ ok: true, uplink: m.envelope });
    }
  });

  // The install status, once the MAIN-world script has reported it (or it never did).
  const settled = () =>
    status.state !== "pending"
      ? Promise.resolve(status)
      : new Promise((resolve) => {
          statusWaiters.push(resolve);
          setTimeout(() => resolve({ state: "failed", error: { code: "NO_PAGE_SCRIPT", message: "the MAIN-world script never reported; is it injected on this page?" } }), REPLY_TIMEOUT_MS);
        });

  async function relay(envelope) {
    const s = await settled();
    if (s.state !== "ready") return { ok: false, error: s.error };
    const mine = ++seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(mine);
        resolve({ ok: false, error: { code: "RELAY_TIMEOUT", message: `no reply from the page's bridge for seq ${mine}` } });
      }, REPLY_TIMEOUT_MS);
      pending.set(mine, (r) => (clearTimeout(timer), resolve(r)));
      window.postMessage({ channel: CHANNEL, dir: "down", seq: mine, envelope }, location.origin);
    });
  }

  chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    if (!message || message.relay !== CHANNEL) return false;
    if (message.kind === "status" || message.kind === "down") need();
    if (message.kind === "status") settled().then(sendResponse);
    else if (message.kind === "down") relay(message.envelope).then(sendResponse);
    else return false;
    return true; // the response is sent asynchronously
  });
})();
