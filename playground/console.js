// The agent console: plays the agent against this window's instance, either
// by calling handle() directly or through the window bridge (postMessage, the
// way an extension relay talks). It shows the phase, the pageId, the menu the
// page declares (click an item to run it), every uplink, and what a refusal means.
import { h } from "./dom.js";
import { REFUSALS, predictRun } from "./refusals.js";

const CHANNEL = "in-page-playable";
const BRIDGE_TIMEOUT_MS = 3000;

/**
 * @param {HTMLElement} host   where the console renders (outside the scan root)
 * @param {{ playable?: import("../www/index.js").IPlayable, installError?: Error, where: string }} options
 */
export function mountConsole(host, { playable, installError, where }) {
  const state = {
    mode: "direct",
    requests: 0,
    seq: Math.floor(Math.random() * 1e9), // far from other bridge clients' seqs
    mine: new Set(), // seqs this console sent
    waiting: new Map(), // seq → resolve
    outside: new Map(), // seq → downlink an outside agent sent through the bridge
  };

  // ---- layout -------------------------------------------------------------
  const phase = h("span", { class: "phase", "data-testid": "phase" });
  const pageId = h("code", { class: "page-id", "data-testid": "page-id" });
  const sendPageId = h("input", { class: "mono", id: "console-page-id", placeholder: "pageId (filled by hello)", spellcheck: "false" });
  const runId = h("input", { class: "mono", id: "console-run-id", placeholder: "menu id, e.g. orders.refresh", spellcheck: "false" });
  const runValue = h("input", { class: "mono", id: "console-run-value", placeholder: "value (input) · to: start|end (scroll) · drop id (drag)", spellcheck: "false" });
  // run's payload: the id plus what the item's event takes (issue 6):
  // input → value, scroll → to (default "end"), drag → to (the drop target's id).
  let events = new Map(); // menu id → event, from the latest snapshot
  const eventOf = (id) => events.get(id) || "click";
  const runPayload = (id, event = eventOf(id)) => {
    const v = runValue.value;
    if (event === "scroll") return { id, to: v || "end" };
    if (event === "drag") return { id, to: v };
    return v ? { id, value: v } : { id };
  };
  const withShot = h("input", { type: "checkbox", id: "console-shot", checked: true });
  const menu = h("ul", { class: "menu", "data-testid": "menu" });
  const seen = h("div", { class: "seen" });
  const shot = h("figure", { class: "shot", hidden: true });
  const log = h("ol", { class: "log", "data-testid": "log", reversed: true });
  const modeSwitch = h(
    "div",
    { class: "mode", role: "radiogroup", "aria-label": "How the console talks to the page" },
    modeOption("direct", "handle() directly", "calls playable.handle(envelope) in this window"),
    modeOption("bridge", "window bridge", "posts { channel, dir: \"down\", seq, envelope } on this window, like an extension relay"),
  );

  function modeOption(value, label, title) {
    return h(
      "label",
      { title },
      h("input", { type: "radio", name: "console-mode-" + where, value, checked: value === state.mode, onchange: () => (state.mode = value) }),
      label,
    );
  }

  const button = (label, onclick, attrs = {}) => h("button", { type: "button", onclick, ...attrs }, label);

  host.replaceChildren(...[
    h(
      "header",
      { class: "console-head" },
      h("h2", {}, "Agent console"),
      h("span", { class: "where" }, where),
    ),
    h("p", { class: "hint" }, "What an AI agent sees and may do on this page. It can only run what the page declares."),
    h("div", { class: "con-status" }, h("span", {}, "phase"), phase, h("span", {}, "pageId"), pageId),
    modeSwitch,
    h(
      "div",
      { class: "controls" },
      button("hello", () => send("hello"), { id: "console-hello" }),
      button("snapshot", () => send("snapshot", withShot.checked ? { screenshot: true } : {}), { id: "console-snapshot" }),
      h("label", { class: "check" }, withShot, "with screenshot"),
      button("escape: reload", () => send("escape", { type: "reload" }), { id: "console-escape" }),
    ),
    h("div", { class: "controls" }, runId, button("run", () => send("run", runPayload(runId.value)), { id: "console-run" })),
    h("div", { class: "controls" }, runValue),
    h("div", { class: "controls" }, h("label", { for: "console-page-id", class: "small" }, "pageId sent"), sendPageId),
    h(
      "div",
      { class: "controls tries" },
      h("span", { class: "small" }, "Try a refusal:"),
      button("wrong pageId", () => send("snapshot", {}, "not-" + (sendPageId.value || "a-page"))),
      button("generic ref g0", () => send("run", { id: "g0" })),
      button("unknown cmd", () => send("dance", {})),
      button("bad envelope", () => exchange({ cmd: "run" })),
    ),
    installError ? installErrorBox(installError) : null,
    h("h3", {}, "Exchanges ", h("span", { class: "small" }, "— newest first; outside agents' bridge traffic too")),
    log,
    h("h3", {}, "Menu ", h("span", { class: "small" }, "— what the page declares; click an item to run it")),
    menu,
    seen,
    shot,
    legend(),
  ].filter(Boolean));
  menu.append(h("li", { class: "empty" }, "Say hello, then take a snapshot."));
  refresh();

  // ---- talking to the page --------------------------------------------------
  function send(cmd, payload = {}, forcedPageId) {
    const id = forcedPageId !== undefined ? forcedPageId : sendPageId.value || null;
    return exchange({ pageId: cmd === "hello" ? null : id, requestId: `console-${++state.requests}`, cmd, payload });
  }

  async function exchange(down) {
    const via = state.mode;
    let up;
    if (via === "direct") {
      if (!playable) return record({ down, via, up: null, note: "not installed: " + installError?.message });
      up = await playable.handle(down);
    } else {
      up = await viaBridge(down);
    }
    record({ down, via, up });
    return up;
  }

  function viaBridge(envelope) {
    const seq = ++state.seq;
    state.mine.add(seq);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        state.waiting.delete(seq);
        resolve(null);
      }, BRIDGE_TIMEOUT_MS);
      state.waiting.set(seq, (up) => {
        clearTimeout(timer);
        resolve(up);
      });
      window.postMessage({ channel: CHANNEL, dir: "down", seq, envelope }, location.origin);
    });
  }

  // Replies to this console, and everything an outside agent does through the bridge.
  window.addEventListener("message", (event) => {
    const m = event.data;
    if (event.source !== window || !m || m.channel !== CHANNEL) return;
    if (m.dir === "up" && state.waiting.has(m.seq)) {
      const resolve = state.waiting.get(m.seq);
      state.waiting.delete(m.seq);
      resolve(m.envelope);
    } else if (m.dir === "down" && !state.mine.has(m.seq)) {
      state.outside.set(m.seq, m.envelope);
    } else if (m.dir === "up" && state.outside.has(m.seq)) {
      const down = state.outside.get(m.seq);
      state.outside.delete(m.seq);
      record({ down, via: "outside", up: m.envelope });
    }
  });

  // ---- rendering -------------------------------------------------------------
  function record({ down, via, up, note }) {
    if (up && up.ok && down.cmd === "hello") sendPageId.value = up.payload.pageId;
    if (up && up.ok && down.cmd === "snapshot") showSnapshot(up.payload);
    const code = up && !up.ok ? up.error.code : null;
    const what = [down && down.cmd, down && down.payload && (down.payload.id ?? down.payload.type)].filter((x) => typeof x === "string").join(" ");
    const verdict = !up
      ? h("span", { class: "badge bad" }, note ? "not installed" : "no reply")
      : up.ok
        ? h("span", { class: "badge ok" }, "ok")
        : h("span", { class: "badge bad", title: REFUSALS[code]?.why || "" }, code);
    const viaLabel = { direct: "handle()", bridge: "bridge", outside: "outside agent · bridge" }[via];
    const entry = h(
      "li",
      { class: "entry" + (up && !up.ok ? " refused" : ""), "data-code": code || (up ? "ok" : "none") },
      h("div", { class: "entry-head" }, verdict, h("b", {}, what || "(no cmd)"), h("span", { class: "via" }, viaLabel)),
      up && up.ok ? h("p", { class: "gist" }, gist(down, up)) : null,
      code ? explanation(code, up.error.message) : null,
      !up ? h("p", { class: "explain" }, note || "The bridge did not answer. It ignores other windows, other origins and malformed wrappers, and needs attachWindowBridge().") : null,
      h("details", {}, h("summary", {}, "JSON"), h("pre", {}, "→ " + pretty(down) + "\n← " + pretty(up))),
    );
    log.prepend(entry);
    while (log.children.length > 30) log.lastElementChild.remove();
    refresh();
  }

  function explanation(code, message) {
    const r = REFUSALS[code];
    return h(
      "div",
      { class: "explain" },
      h("p", {}, h("b", {}, r ? r.short + ". " : ""), r ? r.why : "", " ", h("i", {}, "Nothing happened: a refusal has no side effects.")),
      r ? h("p", { class: "next" }, "Next: " + r.next) : null,
      h("p", { class: "message" }, message),
    );
  }

  function showSnapshot({ snapshot, escapes }) {
    events = new Map(snapshot.menu.map((m) => [m.id, m.event]));
    menu.replaceChildren(
      ...(snapshot.menu.length ? snapshot.menu.map(menuItem) : [h("li", { class: "empty" }, "The page declares nothing right now.")]),
    );
    const reload = escapes.find((e) => e.type === "reload");
    seen.replaceChildren(
      h(
        "dl",
        {},
        h("dt", {}, "page title"),
        h("dd", {}, snapshot.pageTitle ?? "—"),
        h("dt", {}, "escape: reload"),
        h("dd", { class: reload?.allowed ? "" : "warn", "data-testid": "reload" }, reload?.allowed ? "allowed" : "refused — " + (reload?.reason || "")),
        h("dt", {}, "unsaved (dirty)"),
        h("dd", {}, snapshot.dirty.length ? snapshot.dirty.join(", ") : "nothing"),
        h("dt", {}, "islands"),
        h("dd", {}, snapshot.islands.map((i) => `${i.id}: ${i.slots.map((s) => s.name + (s.resolved ? "" : " (unresolved)")).join(", ")}`).join("; ") || "—"),
        h("dt", { title: "Unmarked interactive elements: visible to the agent, never runnable" }, "generic refs"),
        h("dd", {}, snapshot.generics.map((g) => `${g.ref} ${g.role} “${g.name.trim()}”`).join(" · ") || "—"),
      ),
    );
    const image = snapshot.screenshot;
    shot.hidden = !image;
    if (image && image.bytesBase64) {
      shot.replaceChildren(
        h("img", { src: `data:${image.mime};base64,${image.bytesBase64}`, alt: "What captureScreenshot returned", "data-testid": "screenshot" }),
        h("figcaption", {}, `snapshot.screenshot: ${image.mime}, ${image.width}×${image.height}`),
      );
    }
  }

  function menuItem(item) {
    const refusal = predictRun(item);
    const flags = [
      item.island ? "slot of " + item.island : null,
      item.event !== "click" ? "event " + item.event : null,
      item.event === "input" ? "runs with the payload.value field above" : null,
      item.event === "scroll" ? "scrolls to the field above (start|center|end, default end)" : null,
      item.event === "drag" ? "drops on the id in the field above" : null,
      !item.enabled ? "disabled" : null,
      !item.visible ? "hidden" : null,
      item.ambiguous ? "ambiguous" : null,
    ].filter(Boolean);
    return h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          class: "menu-item" + (refusal ? " refusing" : ""),
          "data-run": item.id,
          title: refusal ? `Running this is refused with ${refusal}: ${REFUSALS[refusal].why}` : item.desc,
          onclick: () => {
            runId.value = item.id;
            send("run", item.event === "click" ? { id: item.id } : runPayload(item.id, item.event));
          },
        },
        h("span", { class: "menu-id mono" }, item.id),
        h("span", { class: "menu-title" }, item.title || "(no title)", item.desc ? h("small", {}, item.desc) : null),
        flags.length || refusal
          ? h("span", { class: "menu-flags" }, ...flags.map((f) => h("span", { class: "flag" }, f)), refusal ? h("span", { class: "flag bad" }, "→ " + refusal) : null)
          : null,
      ),
    );
  }

  function refresh() {
    const p = playable ? playable.phase : "not installed";
    phase.textContent = p;
    phase.className = "phase phase-" + p.replace(/\s/g, "-");
    pageId.textContent = playable?.pageId ?? "null";
  }

  function installErrorBox(error) {
    const r = REFUSALS[error.code];
    return h(
      "div",
      { class: "explain install-error" },
      h("p", {}, h("b", {}, `${error.name}${error.code ? " " + error.code : ""}: `), r ? r.why : ""),
      h("p", { class: "message" }, error.message),
    );
  }

  function legend() {
    return h(
      "details",
      { class: "legend" },
      h("summary", {}, "What each refusal means"),
      h(
        "dl",
        {},
        ...Object.entries(REFUSALS).flatMap(([code, r]) => [h("dt", {}, h("code", {}, code), " ", r.short), h("dd", {}, r.why + " " + r.next)]),
      ),
    );
  }
}

// One line that says what an ok uplink means.
function gist(down, up) {
  const p = up.payload;
  switch (down.cmd) {
    case "hello":
      return `live · pageId ${p.pageId}`;
    case "snapshot": {
      const reload = p.escapes.find((e) => e.type === "reload");
      return [
        `${p.snapshot.menu.length} menu items`,
        `${p.snapshot.generics.length} generic refs`,
        `reload ${reload && reload.allowed ? "allowed" : "refused"}`,
        p.snapshot.screenshot ? "with screenshot" : null,
      ].filter(Boolean).join(" · ");
    }
    case "run":
      return `clicked ${p.id} once`;
    case "escape":
      return "retired: the page reloads now; the new document needs a new hello";
    default:
      return "";
  }
}

function pretty(value) {
  if (value === null || value === undefined) return String(value);
  return JSON.stringify(
    value,
    (key, v) => (key === "bytesBase64" && typeof v === "string" && v.length > 80 ? v.slice(0, 60) + `… (${v.length} chars)` : v),
    2,
  );
}
