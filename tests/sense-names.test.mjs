// What the snapshot reads as disabled, and the roles and accessible names
// slots and generics go by, checked against Chromium's own accessibility
// tree (CDP Accessibility.getFullAXTree): aria-disabled values as Chromium
// reads them (snapshot, run and Surface alike), image buttons, images and
// SVG links, and ariaLabel slot specs compared as names are.
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

test("image buttons, images and SVG links have Chromium's roles and names: generics, and role+name slots that resolve and run", () =>
  ctx.withPage(BLANK, async (page) => {
    const r = await scan(page, {
      html: '<input id="search" type="image" alt="Search" src="data:,"><input id="plain" type="IMAGE" src="data:,">' +
        '<img id="logo" alt="Logo" src="data:,">' +
        '<svg width="60" height="20"><a id="home" href="#h" data-click="home"><text y="15">Home</text></a><a id="nohref"><text x="30" y="15">No</text></a></svg>' +
        '<div data-e2e-kind="island" data-e2e-id="p">' +
        '<input id="go" type="image" alt="Go" src="data:," data-click="go">' +
        '<img id="next" alt="Next" src="data:," style="width:10px;height:10px" data-click="next">' +
        '<svg width="60" height="20"><a id="more" href="#m" data-click="more"><text y="15">More</text></a></svg></div>',
      slots: { p: { go: { role: "button", name: "Go" }, next: { role: "img", name: "Next" }, more: { role: "link", name: "More" } } },
      runs: ["p:go", "p:next", "p:more"],
    });
    const ax = await axTree(page);
    assert.deepEqual(r.snap.islands[0].slots.map((s) => [s.id, s.resolved]), [["p:go", true], ["p:next", true], ["p:more", true]]);
    assert.deepEqual(r.snap.menu.map((m) => [m.id, m.title]), [["p:go", "Go"], ["p:next", "Next"], ["p:more", "More"]]);
    // Images are not interactive: no generic for the logo; the SVG <a> without href is none.
    assert.deepEqual(r.snap.generics.map((g) => [g.role, g.name]), [["button", "Search"], ["button", "Submit"], ["link", "Home"]]);
    assert.deepEqual(r.run, { "p:go": "OK", "p:next": "OK", "p:more": "OK" });
    assert.deepEqual(r.clicks, ["go", "next", "more"]);
    // The same roles and names as Chromium's accessibility tree ("image" is its name for img).
    assert.deepEqual(
      ["search", "plain", "go", "next", "home", "more"].map((id) => [id, ax[id].role, ax[id].name]),
      [["search", "button", "Search"], ["plain", "button", "Submit"], ["go", "button", "Go"], ["next", "image", "Next"], ["home", "link", "Home"], ["more", "link", "More"]],
    );
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

test("images are read only when a slot spec asks for the img role: other snapshots never touch an <img>", () =>
  ctx.withPage(BLANK, async (page) => {
    const r = await page.evaluate(async () => {
      document.body.innerHTML = '<img alt="Logo" src="data:,"><div data-e2e-kind="island" data-e2e-id="p"><img alt="Next" src="data:,"></div>';
      const names = Element.prototype.getAttributeNames;
      const out = {};
      for (const [spec, slot] of [["ariaLabel", { ariaLabel: "Next" }], ["img", { role: " Img ", name: "Next" }]]) {
        const read = [];
        // The gather reads each element's attribute names once.
        Element.prototype.getAttributeNames = function () { read.push(this.tagName); return names.call(this); };
        try {
          window.P.resetPlayableForTests();
          const p = window.P.installPlayable({ islandSlots: { p: { n: slot } } });
          await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
          const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
          out[spec] = { images: read.filter((t) => t === "IMG").length, resolved: s.payload.snapshot.islands[0].slots[0].resolved, generics: s.payload.snapshot.generics.length };
        } finally {
          Element.prototype.getAttributeNames = names;
        }
      }
      window.P.resetPlayableForTests();
      return out;
    });
    assert.deepEqual(r, {
      ariaLabel: { images: 0, resolved: false, generics: 0 },
      img: { images: 2, resolved: true, generics: 0 },
    });
  }));

/**
 * Chromium's accessible name of each element with an id, shadow roots
 * included (CDP's DOM tree with `pierce`, which DOM.querySelector lacks).
 */
async function axNamesDeep(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const byBackend = new Map(nodes.filter((n) => n.backendDOMNodeId).map((n) => [n.backendDOMNodeId, n]));
    const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
    const out = {};
    const walk = (n) => {
      const attrs = n.attributes || [];
      for (let i = 0; i < attrs.length; i += 2) {
        const ax = attrs[i] === "id" ? byBackend.get(n.backendNodeId) : null;
        if (ax && !ax.ignored) out[attrs[i + 1]] = ax.name?.value;
      }
      for (const c of [...(n.shadowRoots || []), ...(n.children || [])]) walk(c);
    };
    walk(root);
    return out;
  } finally {
    await cdp.detach();
  }
}

// Plain custom elements (no framework): each attaches an open shadow root
// from its template, its inner ids made of the host's id.
const COMPONENTS = () => {
  const define = (tag, html) => customElements.define(tag, class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: "open" }).innerHTML = html.replaceAll("$", this.id);
    }
  });
  // A component's own <style> is no part of any name.
  define("x-btn", '<style>button { color: navy }</style><button id="$-in"><slot></slot></button>');
  define("x-fallback", '<button id="$-in"><slot>Default label</slot></button>');
  define("x-named", '<button id="$-in"><slot name="icon"></slot> <slot></slot></button>');
  define("x-label", "<b>Label:</b> <slot></slot>");
  define("x-role", "<style>.a { color: red }</style><span>Open</span> <slot></slot>");
};

test("names are read in the flat tree, as Chromium names: slotted content in its slot (else the fallback), a host's shadow text in place of its light children, no <style>; a role+name slot resolves and runs the component's button", () =>
  ctx.withPage(BLANK, async (page) => {
    await page.evaluate(COMPONENTS);
    const long = " ".repeat(3000) + "<b>Delete</b>";
    const html =
      '<nav data-e2e-kind="island" data-e2e-id="pager"><x-btn id="next">Next page</x-btn><button id="prev">Prev page</button></nav>' +
      '<x-fallback id="fb"></x-fallback>' +
      '<x-named id="named">Save <i slot="icon">★</i></x-named>' +
      '<button id="nested"><x-label>Print</x-label></button>' +
      '<x-role id="roled" role="button" tabindex="0">Light <span slot="nowhere">unslotted</span></x-role>' +
      '<x-btn id="icon"><img alt="Close" src="data:,"></x-btn>' +
      '<span id="lab"><x-label>Ref</x-label></span><button id="byref" aria-labelledby="lab">x</button>' +
      '<label for="field"><x-label>Email</x-label></label><input id="field">' +
      `<x-btn id="spaced">${long}</x-btn><button id="plain">${long}</button>` +
      '<button id="lightslot"><slot>Fallback</slot></button>';
    const r = await page.evaluate(async (html) => {
      document.body.innerHTML = html;
      const shadow = document.getElementById("next").shadowRoot.getElementById("next-in");
      shadow.addEventListener("click", () => window.clicked.push("next-in"));
      window.clicked = [];
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({ islandSlots: { pager: { next: { role: "button", name: "Next page" }, prev: { role: "button", name: "Prev page" } } } });
      const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: "r", cmd, payload });
      await send("hello");
      const snap = (await send("snapshot")).payload.snapshot;
      const run = await send("run", { id: "pager:next" });
      window.P.resetPlayableForTests();
      return { snap, run: run.ok, clicked: window.clicked };
    }, html);
    const expected = {
      "fb-in": "Default label",
      "named-in": "★ Save",
      nested: "Label: Print",
      roled: "Open Light",
      "icon-in": "Close",
      byref: "Label: Ref",
      field: "Label: Email",
      "spaced-in": "Delete",
      plain: "Delete",
      lightslot: "Fallback",
    };
    // Chromium agrees with every expected name (whitespace collapsed, as names are).
    const ax = await axNamesDeep(page);
    for (const [id, name] of Object.entries({ ...expected, "next-in": "Next page", prev: "Prev page" })) {
      assert.equal(ax[id]?.replace(/\s+/g, " ").trim(), name, `Chromium's name of #${id}`);
    }
    assert.deepEqual(r.snap.islands, [{ id: "pager", slots: [{ name: "next", id: "pager:next", resolved: true }, { name: "prev", id: "pager:prev", resolved: true }] }]);
    assert.equal(r.snap.menu.find((m) => m.id === "pager:next").title, "Next page");
    assert.equal(r.run, true);
    assert.deepEqual(r.clicked, ["next-in"], "the slot is the component's shadow button");
    assert.deepEqual(r.snap.generics.map((g) => g.name).sort(), Object.values(expected).sort());
  }));

test("a name from slotted text keeps the caps: whitespace collapsed, at most 200 characters, the same as the same text in a plain button", () =>
  ctx.withPage(BLANK, async (page) => {
    await page.evaluate(COMPONENTS);
    const text = Array.from({ length: 400 }, (_, i) => `word${i}\n\t  `).join("");
    const r = await page.evaluate(async (text) => {
      document.body.innerHTML = "<x-btn id=\"a\"></x-btn><button id=\"b\"></button>";
      // Many text nodes, as a framework renders a list.
      for (const id of ["a", "b"]) for (const part of text.split("\n")) document.getElementById(id).append(part + "\n");
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const snap = (await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} })).payload.snapshot;
      window.P.resetPlayableForTests();
      return snap.generics.map((g) => g.name);
    }, text);
    assert.equal(r.length, 2);
    // 200 characters, but for the space cut before the next word.
    assert.ok(r[0].length >= 195 && r[0].length <= 200, r[0]);
    assert.ok(r[0].startsWith("word0 word1 word2 "), r[0]);
    assert.equal(r[0], r[1]);
  }));

test("aria-disabled or inert around a component's <slot> disables what is slotted into it (directly, inside a slotted element, through another component's slot), as Chromium's accessibility tree reads the flat tree: snapshot, run and an element scan root alike; a <fieldset disabled> around the slot does not, as in Chromium", () =>
  ctx.withPage(BLANK, async (page) => {
    // Components defined inline: each wraps its default slot in `shadow`.
    await page.evaluate(() => {
      const define = (name, shadow) => customElements.define(name, class extends HTMLElement {
        constructor() {
          super();
          this.attachShadow({ mode: "open" }).innerHTML = shadow;
        }
      });
      define("x-aria", '<div aria-disabled="true"><slot></slot></div><slot name="open"></slot>');
      define("x-inert", "<div inert><slot></slot></div>");
      define("x-fieldset", "<fieldset disabled><slot></slot></fieldset>");
      define("x-outer", "<x-aria><slot></slot></x-aria>");
    });
    const button = (id) => `<button id="${id}" data-e2e-kind="playable" data-e2e-id="${id}" data-click="${id}">${id}</button>`;
    const html =
      `<x-aria>${button("direct")}<p id="wrap">${button("inside")}</p><span slot="open">${button("beside")}</span></x-aria>` +
      `<x-inert>${button("inert")}</x-inert><x-outer>${button("nested")}</x-outer><x-fieldset>${button("fieldset")}</x-fieldset>`;
    const ids = ["direct", "inside", "beside", "inert", "nested", "fieldset"];
    const r = await scan(page, { html, runs: ids });
    const ax = await axTree(page);
    const enabled = Object.fromEntries(r.snap.menu.map((m) => [m.id, m.enabled]));
    assert.deepEqual(enabled, { direct: false, inside: false, beside: true, inert: false, nested: false, fieldset: true });
    assert.deepEqual(r.run, { direct: "NOT_ACTIONABLE", inside: "NOT_ACTIONABLE", beside: "OK", inert: "NOT_ACTIONABLE", nested: "NOT_ACTIONABLE", fieldset: "OK" });
    assert.deepEqual(r.clicks, ["beside", "fieldset"], "nothing disabled was clicked");
    // Chromium: aria-disabled ones disabled; the inert one left out of the tree (ignored).
    for (const id of ids) assert.equal(ax[id] === undefined ? "ignored" : ax[id].disabled, { inert: "ignored", beside: false, fieldset: false }[id] ?? true, `Chromium on ${id}`);
    const root = await scan(page, { html, root: "#wrap", runs: ["inside"] });
    assert.deepEqual([root.snap.menu[0].enabled, root.run.inside, root.clicks], [false, "NOT_ACTIONABLE", []], "an element scan root inside the slotted content");
  }));

test("Surface reads a playable slotted into an aria-disabled component wrapper as disabled, as the snapshot does", () =>
  ctx.withPage("/tests/fixtures/surface.html", async (page) => {
    const r = await page.evaluate(async () => {
      const print = document.querySelector('[data-e2e-id="orders.print"]');
      print.disabled = false;
      const host = document.createElement("x-off");
      print.replaceWith(host);
      host.append(print);
      const shadow = host.attachShadow({ mode: "open" });
      shadow.innerHTML = "<div><slot></slot></div>";
      const s = makeSurface({ execute: undefined });
      const head = { protocol: "pling.surface/0.1" };
      const print0 = (d) => d.result.unavailable.filter((u) => u.capability === "orders.print");
      const before = print0(await s.handle({ ...head, id: "d0", method: "describe", input: {} }));
      shadow.querySelector("div").setAttribute("aria-disabled", "true");
      const after = print0(await s.handle({ ...head, id: "d1", method: "describe", input: {} }));
      return { before, after };
    });
    assert.deepEqual(r.before, [], "enabled without the attribute");
    assert.deepEqual(r.after, [{ capability: "orders.print", reason: "disabled" }]);
  }));
