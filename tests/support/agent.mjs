// An outside agent for the end-to-end suites: it talks to a window's instance
// only through the window bridge (baseline §3), posting from that window the
// way an extension's content script does, and keeps the pageId hello returned.

// Runs in the page: posts one down wrapper, resolves with the uplink whose seq
// matches, or null when none comes (a guard against hanging, not an assertion).
// The uplink is also kept in sessionStorage (which survives a reload of the
// tab): after a reload escape the document may go away before evaluate() has
// returned the reply it did receive.
const BRIDGE_CALL = ({ key, seq, envelope }) =>
  new Promise((resolve) => {
    const done = (up) => {
      clearTimeout(timer);
      removeEventListener("message", onMessage);
      if (up) sessionStorage.setItem(key, JSON.stringify(up));
      resolve(up);
    };
    const timer = setTimeout(() => done(null), 10000);
    function onMessage(event) {
      const m = event.data;
      if (event.source === window && m && m.channel === "in-page-playable" && m.dir === "up" && m.seq === seq) done(m.envelope);
    }
    addEventListener("message", onMessage);
    postMessage({ channel: "in-page-playable", dir: "down", seq, envelope }, location.origin);
  });

const TAKE_KEPT = (key) => {
  const kept = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  return kept === null ? null : JSON.parse(kept);
};

// The reply the old document received before it navigated away, read from the new one.
async function keptReply(frame, key) {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await frame.waitForLoadState("domcontentloaded");
      return await frame.evaluate(TAKE_KEPT, key);
    } catch (error) {
      if (!/context was destroyed|navigat/i.test(error.message)) throw error;
    }
  }
  return null;
}

/** @param {import("playwright-core").Frame | import("playwright-core").Page} frame */
export function bridgeAgent(frame, name = "agent") {
  let seq = 1000;
  let requests = 0;
  const agent = {
    pageId: null,
    /** Sends a raw envelope (anything) and returns the uplink. */
    async raw(envelope) {
      const key = `__agent:${name}:${++seq}`;
      const navigated = (error) => {
        if (!/context was destroyed|navigat/i.test(error.message)) throw error;
      };
      let up;
      try {
        up = await frame.evaluate(BRIDGE_CALL, { key, seq, envelope });
      } catch (error) {
        // The document navigated away (reload escape) before evaluate() returned.
        navigated(error);
        return keptReply(frame, key);
      }
      // The reply is in hand; a reload may now destroy the document while its
      // kept copy is cleared (the copy may have been taken already: keep `up`).
      await frame.evaluate(TAKE_KEPT, key).catch(navigated);
      return up;
    },
    /** hello / snapshot / run / escape with the latched pageId (or an explicit one). */
    async send(cmd, payload = {}, pageId = agent.pageId) {
      const up = await agent.raw({ pageId, requestId: `${name}-${++requests}`, cmd, payload });
      if (cmd === "hello" && up && up.ok) agent.pageId = up.payload.pageId;
      return up;
    },
    hello: () => agent.send("hello", {}, null),
    snapshot: (payload = {}) => agent.send("snapshot", payload),
    run: (id) => agent.send("run", { id }),
    escape: (type = "reload") => agent.send("escape", { type }),
  };
  return agent;
}

/** The error code of an uplink, or "ok". */
export const outcome = (up) => (up === null ? "no reply" : up.ok ? "ok" : up.error.code);

/** Installs a capturing click recorder in the frame: window.__clicks lists what was clicked (outside the playground's console). */
export const recordClicks = (frame) =>
  frame.evaluate(() => {
    window.__clicks = [];
    document.addEventListener(
      "click",
      (e) => {
        if (e.target.closest(".console")) return;
        const t = e.target.closest("[data-e2e-id],[aria-label],a,button");
        window.__clicks.push(t ? t.getAttribute("data-e2e-id") || t.getAttribute("aria-label") || t.textContent.trim() : "?");
      },
      true,
    );
  });

export const clicks = (frame) => frame.evaluate(() => window.__clicks);
