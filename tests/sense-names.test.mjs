// What the snapshot reads as disabled, and how slots match, checked against
// Chromium's own accessibility tree (CDP Accessibility.getFullAXTree):
// aria-disabled values as Chromium reads them (snapshot, run and Surface
// alike), and ariaLabel slot specs compared as names are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();
const BLANK = "/tests/fixtures/blank.html";

/**
 * Mounts `html` in the body, sets each `[selector, name, value]` attribute
 * (so values keep tabs and spaces), installs with `islandSlots` (and the
 * first element matching `root` as the scan root), then snapshots and runs
 * `runs`. Returns the snapshot, each run's code ("OK" or the error code) and
 * the ids clicked.
 */
const scan = (page, { html, attrs = [], slots, root, runs = [] }) =>
  page.evaluate(async ({ html, attrs, slots, root, runs }) => {
    document.body.innerHTML = html;
    for (const [sel, name, value] of attrs) document.querySelector(sel).setAttribute(name, value);
    const clicks = [];
    for (const el of document.querySelectorAll("[data-click]")) el.addEventListener("click", (e) => { e.preventDefault(); clicks.push(el.dataset.click); });
    window.P.resetPlayableForTests();
    const p = window.P.installPlayable({ islandSlots: slots, ...(root ? { root: document.querySelector(root) } : {}) });
    let n = 0;
    const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: "r" + ++n, cmd, payload });
    await send("hello");
    const snap = (await send("snapshot")).payload.snapshot;
    const run = {};
    for (const id of runs) {
      const up = await send("run", { id });
      run[id] = up.ok ? "OK" : up.error.code;
    }
    window.P.resetPlayableForTests();
    return { snap, run, clicks };
  }, { html, attrs, slots, root, runs });

/** Chromium's accessibility node of each element with an id: { role, name, disabled }. */
async function axTree(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const byBackend = new Map(nodes.filter((n) => n.backendDOMNodeId).map((n) => [n.backendDOMNodeId, n]));
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const out = {};
    for (const id of await page.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id))) {
      const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: `[id="${id}"]` });
      const { node } = await cdp.send("DOM.describeNode", { nodeId });
      const ax = byBackend.get(node.backendNodeId);
      if (!ax || ax.ignored) continue;
      const disabled = (ax.properties || []).some((p) => p.name === "disabled" && p.value.value === true);
      out[id] = { role: ax.role?.value, name: ax.name?.value, disabled };
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

// [value, disables]: what Chromium's accessibility tree says (checked below
// too): ASCII case-insensitive, untrimmed, anything but "", false and
// undefined disables.
const ARIA_DISABLED = [
  ["TRUE", true], ["True", true], [" true ", true], ["\ttrue", true], ["true false", true],
  ["foo", true], [" false ", true],
  ["true", true], ["false", false], ["FALSE", false], ["undefined", false], ["Undefined", false], ["", false],
];

test("aria-disabled disables as Chromium's accessibility tree reads it (TRUE, \" true \", any value but false, undefined and \"\"): on the element or an ancestor, in the snapshot and at run, with no click", () =>
  ctx.withPage(BLANK, async (page) => {
    const html = ARIA_DISABLED.map((_, i) =>
      `<button id="self${i}" data-e2e-kind="playable" data-e2e-id="self${i}" data-click="self${i}">S${i}</button>` +
      `<div id="wrap${i}"><button id="child${i}" data-e2e-kind="playable" data-e2e-id="child${i}" data-click="child${i}">C${i}</button></div>`).join("");
    const attrs = ARIA_DISABLED.flatMap(([v], i) => [[`#self${i}`, "aria-disabled", v], [`#wrap${i}`, "aria-disabled", v]]);
    const ids = ARIA_DISABLED.flatMap((_, i) => [`self${i}`, `child${i}`]);
    const r = await scan(page, { html, attrs, runs: ids });
    const ax = await axTree(page);
    const enabled = Object.fromEntries(r.snap.menu.map((m) => [m.id, m.enabled]));
    ARIA_DISABLED.forEach(([v, disables], i) => {
      for (const id of [`self${i}`, `child${i}`]) {
        assert.equal(ax[id].disabled, disables, `Chromium on ${id} (${JSON.stringify(v)})`);
        assert.equal(enabled[id], !disables, `snapshot of ${id} (${JSON.stringify(v)})`);
        assert.equal(r.run[id], disables ? "NOT_ACTIONABLE" : "OK", `run of ${id} (${JSON.stringify(v)})`);
      }
    });
    assert.deepEqual(r.clicks, ids.filter((id) => !ARIA_DISABLED[Number(id.replace(/\D/g, ""))][1]), "only the enabled ones were clicked");
  }));

test("an element scan root below an aria-disabled=\"TRUE\" ancestor reads its playables disabled and runs nothing", () =>
  ctx.withPage(BLANK, async (page) => {
    const r = await scan(page, {
      html: '<div aria-disabled="TRUE"><section id="root"><button data-e2e-kind="playable" data-e2e-id="in" data-click="in">In</button></section></div>',
      root: "#root",
      runs: ["in"],
    });
    assert.deepEqual([r.snap.menu[0].enabled, r.run.in, r.clicks], [false, "NOT_ACTIONABLE", []]);
  }));

test("Surface reads aria-disabled=\"TRUE\" on a playable control as disabled, as the snapshot does: listed unavailable, refused, never executed", () =>
  ctx.withPage("/tests/fixtures/surface.html", async (page) => {
    const r = await page.evaluate(async () => {
      const print = document.querySelector('[data-e2e-id="orders.print"]');
      print.disabled = false;
      const s = makeSurface({ execute: undefined });
      const head = { protocol: "pling.surface/0.1" };
      const before = await s.handle({ ...head, id: "d0", method: "describe", input: {} });
      print.setAttribute("aria-disabled", "TRUE");
      const clicks = [];
      print.addEventListener("click", () => clicks.push("print"));
      const after = await s.handle({ ...head, id: "d1", method: "describe", input: {} });
      const invoke = await s.handle({ ...head, id: "i", method: "invoke", capability: "orders.print", input: {} });
      const print0 = (d) => d.result.unavailable.filter((u) => u.capability === "orders.print");
      return { before: print0(before), after: print0(after), invoke: invoke.result.error, clicks };
    });
    assert.deepEqual(r.before, [], "enabled without the attribute");
    assert.deepEqual(r.after, [{ capability: "orders.print", reason: "disabled" }]);
    assert.equal(r.invoke.code, "ACTION_UNAVAILABLE");
    assert.deepEqual(r.clicks, []);
  }));

test("an ariaLabel slot spec matches the aria-label compared as names are (trimmed, whitespace runs one space), as a role+name spec matches it", () =>
  ctx.withPage(BLANK, async (page) => {
    const r = await scan(page, {
      html: '<div data-e2e-kind="island" data-e2e-id="p"><button aria-label="  Next \n page " data-click="next">›</button><button aria-label="Prev">‹</button></div>',
      slots: { p: { next: { ariaLabel: "Next page" }, byRole: { role: "button", name: "Next page" }, spaced: { ariaLabel: " Prev " }, none: { ariaLabel: "Nextpage" } } },
      runs: ["p:next", "p:spaced"],
    });
    assert.deepEqual(r.snap.islands[0].slots.map((s) => [s.name, s.resolved]), [["next", true], ["byRole", true], ["spaced", true], ["none", false]]);
    assert.equal(r.snap.menu.find((m) => m.id === "p:next").title, "Next page");
    assert.deepEqual(r.run, { "p:next": "OK", "p:spaced": "OK" });
    assert.deepEqual(r.clicks, ["next"]);
  }));
