// What the snapshot reads as visible, and where a run acts, for elements
// rendered without a box of their own: `display: contents` elements (judged
// by their rendered children, as Playwright's isVisible judges them) and
// image map areas (by their region of the image that uses the map, as
// Chromium hit-tests and exposes them). The rule is gather.js's `isVisible`
// and `boxOf`, shared by the snapshot, a run's checks and Surface.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();
const BLANK = "/tests/fixtures/blank.html";
// A 1×1 PNG: an image that loads (a broken one shows its alt text, sized to it).
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * Mounts `html`, installs, then a full and a windowed snapshot and a run of
 * each of `runs`: each playable's visible state, the generics (ref, name)
 * and which of them the window lists as visible, each run's answer, and the
 * ids clicked (`data-click`).
 */
const scan = (page, { html, runs = [], loaded }) =>
  page.evaluate(async ({ html, runs, loaded }) => {
    document.body.innerHTML = html;
    if (loaded) await document.querySelector(loaded).decode();
    const clicks = [];
    for (const el of document.querySelectorAll("[data-click]")) el.addEventListener("click", (e) => { e.preventDefault(); clicks.push(el.dataset.click); });
    window.P.resetPlayableForTests();
    const p = window.P.installPlayable();
    let n = 0;
    const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: "r" + ++n, cmd, payload });
    await send("hello");
    const snap = (await send("snapshot")).payload.snapshot;
    const win = (await send("snapshot", { offset: 0 })).payload.snapshot;
    const run = {};
    for (const id of runs) {
      const up = await send("run", { id });
      run[id] = up.ok ? "OK" : up.error.message;
    }
    window.P.resetPlayableForTests();
    return {
      visible: Object.fromEntries(snap.menu.map((m) => [m.id, m.visible])),
      generics: snap.generics.map((g) => g.name),
      shown: win.generics.map((g) => g.name),
      hidden: win.genericsWindow.hidden,
      run,
      clicks,
    };
  }, { html, runs, loaded });

test("display:contents elements are visible by their rendered children and run at the centre of their union box (Playwright's isVisible agrees); ones whose children show nothing are not", () =>
  ctx.withPage(BLANK, async (page) => {
    await page.evaluate(() => customElements.define("x-contents", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML = '<style>:host{display:contents}</style><span style="padding:4px"><slot></slot></span>';
      }
    }));
    const playable = (id, attrs, body) => `<button id="${id}" data-e2e-kind="playable" data-e2e-id="${id}" data-click="${id}" ${attrs}>${body}</button>`;
    const html =
      playable("contents", 'style="display:contents"', "<span>Checkout</span>") +
      playable("text", 'style="display:contents"', "Pay now") +
      '<x-contents id="host" data-e2e-kind="playable" data-e2e-id="host" data-click="host">Host</x-contents>' +
      '<div id="generic" role="button" tabindex="0" style="display:contents"><span>Unmarked</span></div>' +
      playable("invisible", 'style="display:contents;visibility:hidden"', "<span>Hidden</span>") +
      playable("empty", 'style="display:contents"', "") +
      `<div style="display:none">${playable("none", 'style="display:contents"', "<span>None</span>")}</div>`;
    const ids = ["contents", "text", "host", "invisible", "empty", "none"];
    const r = await scan(page, { html, runs: ids });
    const playwright = {};
    for (const id of [...ids, "generic"]) playwright[id] = await page.locator(`#${id}`).isVisible();
    assert.deepEqual(r.visible, { contents: true, text: true, host: true, invisible: false, empty: false, none: false });
    assert.deepEqual(playwright, { ...r.visible, generic: true }, "Playwright's isVisible");
    assert.deepEqual([r.generics, r.shown, r.hidden], [["Unmarked"], ["Unmarked"], 0], "the generic is visible, so windows list it");
    const notVisible = (id) => `"${id}" is not visible`;
    assert.deepEqual(r.run, { contents: "OK", text: "OK", host: "OK", invisible: notVisible("invisible"), empty: notVisible("empty"), none: notVisible("none") });
    assert.deepEqual(r.clicks, ["contents", "text", "host"], "one click each, after the hit test at the children's centre found them");
  }));

test("an image map's area[href] is visible by its region of the visible image that uses its map, and runs there; one without an image, a region or a free point is not, or is refused", () =>
  ctx.withPage(BLANK, async (page) => {
    const area = (id, attrs) => `<area id="${id}" href="#${id}" alt="${id}" data-e2e-kind="playable" data-e2e-id="${id}" data-click="${id}" ${attrs}>`;
    const html =
      '<map name="m">' +
      area("rect", 'shape="rect" coords="0,0,40,20"') +
      area("circle", 'shape="circle" coords="60,30,8"') +
      // An L whose bounding box's centre lies outside it: the box is its middle row's span.
      area("poly", 'shape="poly" coords="0,20,40,20,40,40,30,40,30,24,0,24"') +
      area("under", 'shape="rect" coords="0,0,20,20"') + // wholly under "rect", which comes first
      area("nocoords", "") +
      '<area id="unmarked" href="#u" alt="Region B" shape="rect" coords="40,0,80,20"></map>' +
      `<img src="${PNG}" usemap="#m" width="80" height="40" alt="Plan">` +
      `<map name="lost">${area("lost", 'shape="default"')}<area href="#l" alt="No image" shape="default"></map>`;
    const ids = ["rect", "circle", "poly", "under", "nocoords", "lost"];
    const r = await scan(page, { html, runs: ids, loaded: "img" });
    assert.deepEqual(r.visible, { rect: true, circle: true, poly: true, under: true, nocoords: false, lost: false });
    assert.deepEqual([r.generics, r.shown, r.hidden], [["Region B", "No image"], ["Region B"], 1], "an unmarked area is a visible link generic only with an image to click");
    assert.deepEqual(r.run, {
      rect: "OK", circle: "OK", poly: "OK",
      under: '"under": another element (area#rect) would receive the event at the element\'s centre',
      nocoords: '"nocoords" is not visible', lost: '"lost" is not visible',
    });
    assert.deepEqual(r.clicks, ["rect", "circle", "poly"]);
  }));
