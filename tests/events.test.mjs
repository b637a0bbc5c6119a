// Issue 6: every declared event dispatched through run, each actionability
// failure refused with zero side effects, React controlled inputs, shadow DOM.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();
const REACT_OUT = fileURLToPath(new URL("./artifacts/react-app/", import.meta.url));

before(async () => {
  // A real React app built from npm react + react-dom with Vite.
  const { build } = await import("vite");
  await build({
    root: fileURLToPath(new URL("./fixtures/react/", import.meta.url)),
    base: "./",
    logLevel: "error",
    build: { outDir: REACT_OUT, emptyOutDir: true, target: "es2022" },
  });
});
after(async () => { await rm(REACT_OUT, { recursive: true, force: true }); });

const withEvents = (fn, path = "/tests/fixtures/events.html") => ctx.withPage(path, fn);

// In the page: install, hello, then run each [payload] in order; returns codes/payloads and the log.
async function runs(page, payloads) {
  return page.evaluate(async (payloads) => {
    window.P.resetPlayableForTests();
    const p = window.P.installPlayable();
    await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
    const out = [];
    for (const payload of payloads) {
      const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload });
      out.push(up.ok ? up.payload : up.error.code + ": " + up.error.message);
    }
    return { out, log: window.log.splice(0) };
  }, payloads);
}

test("input sets text, textarea, checkbox, selects and contenteditable with input/change events", () =>
  withEvents(async (page) => {
    const r = await runs(page, [
      { id: "name", value: "Ada" },
      { id: "bio", value: "line one\nline two" },
      { id: "agree", value: true },
      { id: "agree", value: true },
      { id: "size", value: "l" },
      { id: "tags", value: ["a", "c"] },
      { id: "rich", value: "rich text" },
    ]);
    assert.deepEqual(r.out[0], { id: "name", value: "Ada" });
    assert.deepEqual(r.out[5], { id: "tags", value: ["a", "c"] });
    const state = await page.evaluate(() => ({
      name: document.getElementById("name").value,
      bio: document.getElementById("bio").value,
      agree: document.getElementById("agree").checked,
      size: document.getElementById("size").value,
      tags: Array.from(document.getElementById("tags").selectedOptions, (o) => o.value),
      rich: document.getElementById("rich").textContent,
    }));
    assert.deepEqual(state, { name: "Ada", bio: "line one\nline two", agree: true, size: "l", tags: ["a", "c"], rich: "rich text" });
    assert.deepEqual(r.log, [
      "name:input", "name:change",
      "agree:click", "agree:input", "agree:change", // the second run: already checked, nothing dispatched
      "size:input", "size:change",
    ]);
  }));

test("input refusals: wrong or missing value, unknown option, read-only, not editable — nothing changes", () =>
  withEvents(async (page) => {
    const r = await runs(page, [
      { id: "name" },
      { id: "name", value: 3 },
      { id: "name", value: true },
      { id: "agree", value: "yes" },
      { id: "size", value: "xl" },
      { id: "size", value: ["s", "m"] },
      { id: "ro", value: "x" },
      { id: "plain-span", value: "x" },
    ]);
    const codes = r.out.map((o) => String(o).split(":")[0]);
    assert.deepEqual(codes, ["BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "NOT_ACTIONABLE", "NOT_ACTIONABLE"]);
    assert.match(r.out[4], /no option with value xl/);
    assert.match(r.out[6], /read-only/);
    assert.deepEqual(r.log, []);
    const values = await page.evaluate(() => [document.getElementById("name").value, document.getElementById("agree").checked, document.getElementById("size").value, document.getElementById("ro").value]);
    assert.deepEqual(values, ["", false, "s", ""]);
  }));

test("input refuses a text the field would not hold as it is (a number field and \"abc\"): BAD_REQUEST, nothing changes", () =>
  withEvents(async (page) => {
    const r = await runs(page, [
      { id: "qty", value: "abc" },
      { id: "qty", value: "12.5" },
    ]);
    assert.equal(r.out[0], 'BAD_REQUEST: "qty": a number field cannot hold "abc" as it is: the browser would make it ""');
    assert.deepEqual(r.out[1], { id: "qty", value: "12.5" }, "the ok answer's value is what the field holds");
    assert.deepEqual(r.log, ["qty:input", "qty:change"], "only the second run dispatched");
    assert.equal(await page.evaluate(() => document.getElementById("qty").value), "12.5");
  }));

// Fields mounted at the top of the page, each listener logging "id:type"
// (`types`, and focus), for the input checks below.
const fields = (page, html, types) =>
  page.evaluate(({ html, types }) => {
    const host = document.createElement("div");
    host.innerHTML = html;
    document.body.prepend(host);
    for (const el of host.querySelectorAll("[id]")) {
      for (const t of [...types, "focus"]) el.addEventListener(t, () => window.log.push(el.id + ":" + t));
    }
  }, { html, types });

test("input false on a checked radio is refused before anything happens (a radio is unchecked by checking another); on an unchecked one it is ok and dispatches nothing", () =>
  withEvents(async (page) => {
    await fields(page,
      '<input id="c-r" type="radio" name="c" value="r" data-e2e-kind="playable" data-e2e-id="c-r" data-e2e-event="input">' +
      '<input id="c-g" type="radio" name="c" value="g" checked data-e2e-kind="playable" data-e2e-id="c-g" data-e2e-event="input">',
      ["click", "input", "change"]);
    const checked = () => page.evaluate(() => ["c-r", "c-g"].map((id) => document.getElementById(id).checked));
    const r = await runs(page, [
      { id: "c-g", value: false },
      { id: "c-r", value: false },
      { id: "c-g", value: true },
    ]);
    assert.deepEqual(r.out, [
      'BAD_REQUEST: "c-g": the element is a checked radio: it is unchecked by checking another radio of its group',
      { id: "c-r", value: false },
      { id: "c-g", value: true },
    ]);
    assert.deepEqual(r.log, [], "nothing dispatched: refused, already unchecked, already checked");
    assert.deepEqual(await checked(), [false, true]);
    const after = await runs(page, [{ id: "c-r", value: true }, { id: "c-g", value: false }]);
    assert.deepEqual(after.out, [{ id: "c-r", value: true }, { id: "c-g", value: false }], "c-g is now unchecked: ok");
    assert.deepEqual(after.log, ["c-r:click", "c-r:input", "c-r:change"], "checking the other radio is the way: one click");
    assert.deepEqual(await checked(), [true, false]);
    const again = await runs(page, [{ id: "c-r", value: false }]);
    assert.match(again.out[0], /^BAD_REQUEST: "c-r": the element is a checked radio: it is unchecked by checking another radio of its group$/);
    assert.deepEqual(again.log, []);
    assert.deepEqual(await checked(), [true, false]);
  }));

test("input refuses a text longer than the field's maxlength (UTF-16 code units, as the browser counts) before anything happens; a type maxlength does not apply to is not bounded", () =>
  withEvents(async (page) => {
    await fields(page,
      '<input id="short" maxlength="3" data-e2e-kind="playable" data-e2e-id="short" data-e2e-event="input">' +
      '<textarea id="note" maxlength="4" data-e2e-kind="playable" data-e2e-id="note" data-e2e-event="input"></textarea>' +
      '<input id="mail" type="email" maxlength="5" data-e2e-kind="playable" data-e2e-id="mail" data-e2e-event="input">' +
      '<input id="num" type="number" maxlength="2" data-e2e-kind="playable" data-e2e-id="num" data-e2e-event="input">',
      ["beforeinput", "input", "change"]);
    const r = await runs(page, [
      { id: "short", value: "abcdef" },
      { id: "short", value: "😀😀" },
      { id: "note", value: "ab\ncd" },
      { id: "mail", value: "a@b.org" },
    ]);
    assert.deepEqual(r.out, [
      'BAD_REQUEST: "short": the field holds at most 3 characters, got 6',
      'BAD_REQUEST: "short": the field holds at most 3 characters, got 4',
      'BAD_REQUEST: "note": the field holds at most 4 characters, got 5',
      'BAD_REQUEST: "mail": the field holds at most 5 characters, got 7',
    ]);
    assert.deepEqual(r.log, [], "no focus, no event");
    const values = () => page.evaluate(() => ["short", "note", "mail", "num"].map((id) => document.getElementById(id).value));
    assert.deepEqual(await values(), ["", "", "", ""]);
    const ok = await runs(page, [
      { id: "short", value: "a😀" },
      { id: "note", value: "ab\nc" },
      { id: "num", value: "12345" },
    ]);
    assert.deepEqual(ok.out, [{ id: "short", value: "a😀" }, { id: "note", value: "ab\nc" }, { id: "num", value: "12345" }]);
    assert.deepEqual(await values(), ["a😀", "ab\nc", "", "12345"]);
  }));

test("input fires a cancelable beforeinput after focusing: a page's input mask that cancels it refuses the text (DISPATCH_FAILED, nothing set, no input or change); checkboxes and selects get none", () =>
  withEvents(async (page) => {
    await fields(page,
      '<input id="digits" data-e2e-kind="playable" data-e2e-id="digits" data-e2e-event="input">' +
      '<div id="pad" contenteditable="true" data-e2e-kind="playable" data-e2e-id="pad" data-e2e-event="input">0</div>',
      ["input", "change"]);
    await page.evaluate(() => {
      // A digits-only mask, as pages write them; it logs what it was given.
      for (const id of ["digits", "pad"]) {
        document.getElementById(id).addEventListener("beforeinput", (e) => {
          window.log.push(`${id}:beforeinput:${e.inputType}:${e.data}:${e.cancelable}:${e.bubbles}:${e.composed}:${e instanceof InputEvent}`);
          if (!/^\d*$/.test(e.data)) e.preventDefault();
        });
      }
      // Anything else that would get a beforeinput.
      window.addEventListener("beforeinput", (e) => { if (!["digits", "pad"].includes(e.target.id)) window.log.push(e.target.id + ":beforeinput"); }, true);
    });
    const refused = "the page refused the text: its beforeinput handler cancelled it";
    const r = await runs(page, [
      { id: "digits", value: "12ab" },
      { id: "pad", value: "x" },
    ]);
    assert.deepEqual(r.out, [`DISPATCH_FAILED: "digits": ${refused}`, `DISPATCH_FAILED: "pad": ${refused}`]);
    assert.deepEqual(r.log, [
      "digits:focus", "digits:beforeinput:insertReplacementText:12ab:true:true:true:true",
      "pad:focus", "pad:beforeinput:insertReplacementText:x:true:true:true:true",
    ], "focused, then beforeinput; nothing after it");
    const values = () => page.evaluate(() => [document.getElementById("digits").value, document.getElementById("pad").textContent]);
    assert.deepEqual(await values(), ["", "0"], "nothing was set");
    const ok = await runs(page, [
      { id: "digits", value: "42" },
      { id: "pad", value: "7" },
      { id: "agree", value: true },
      { id: "size", value: "m" },
    ]);
    assert.deepEqual(ok.out, [{ id: "digits", value: "42" }, { id: "pad", value: "7" }, { id: "agree", value: true }, { id: "size", value: "m" }]);
    assert.deepEqual(ok.log, [
      "digits:focus", "digits:beforeinput:insertReplacementText:42:true:true:true:true", "digits:input", "digits:change",
      "pad:focus", "pad:beforeinput:insertReplacementText:7:true:true:true:true", "pad:input",
      "agree:click", "agree:input", "agree:change",
      "size:input", "size:change",
    ], "a checkbox and a select get no beforeinput, as in browsers");
    assert.deepEqual(await values(), ["42", "7"]);
  }));

test("a React controlled form observes the values the bot sets", async () => {
  const page = await ctx.browser.newPage();
  try {
    await page.goto(ctx.server.origin + "/tests/artifacts/react-app/index.html");
    await page.waitForFunction(() => window.__reactReady && document.getElementById("state"));
    const r = await page.evaluate(async () => {
      const P = await import("/www/index.js");
      const p = P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const run = (payload) => p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload }).then((u) => u.ok);
      const oks = [await run({ id: "name", value: "Grace" }), await run({ id: "agree", value: true }), await run({ id: "size", value: "m" })];
      await new Promise((res) => setTimeout(res, 50));
      return { oks, state: JSON.parse(document.getElementById("state").textContent) };
    });
    assert.deepEqual(r.oks, [true, true, true]);
    assert.deepEqual(r.state, { name: "Grace", agree: true, size: "m" }, "React's rendered state");
  } finally {
    await page.close();
  }
});

test("a React form: false on its checked radio, a text over maxLength and a text its beforeinput mask cancels are refused, and React's state and the DOM stay together", async () => {
  const page = await ctx.browser.newPage();
  try {
    await page.goto(ctx.server.origin + "/tests/artifacts/react-app/index.html");
    await page.waitForFunction(() => window.__reactReady && document.getElementById("limits"));
    const r = await page.evaluate(async () => {
      const P = await import("/www/index.js");
      const p = P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const run = (payload) => p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload })
        .then((u) => (u.ok ? "ok" : u.error.code + ": " + u.error.message));
      const out = [];
      for (const payload of [
        { id: "color-g", value: true },
        { id: "color-g", value: false },
        { id: "short", value: "abcdef" },
        { id: "short", value: "abc" },
        { id: "digits", value: "12ab" },
        { id: "digits", value: "42" },
      ]) out.push(await run(payload));
      await new Promise((res) => setTimeout(res, 50));
      const dom = {
        radios: ["color-r", "color-g"].map((id) => document.querySelector(`[data-e2e-id=${id}]`).checked),
        short: document.querySelector("[data-e2e-id=short]").value,
        digits: document.querySelector("[data-e2e-id=digits]").value,
      };
      return { out, state: JSON.parse(document.getElementById("limits").textContent), dom };
    });
    assert.deepEqual(r.out, [
      "ok",
      'BAD_REQUEST: "color-g": the element is a checked radio: it is unchecked by checking another radio of its group',
      'BAD_REQUEST: "short": the field holds at most 3 characters, got 6',
      "ok",
      'DISPATCH_FAILED: "digits": the page refused the text: its beforeinput handler cancelled it',
      "ok",
    ]);
    assert.deepEqual(r.state, { color: "g", short: "abc", digits: "42" }, "React's rendered state");
    assert.deepEqual(r.dom, { radios: [false, true], short: "abc", digits: "42" }, "the DOM says the same");
  } finally {
    await page.close();
  }
});

test("scroll: the element itself when it scrolls, else its container; to and by; new position reported", () =>
  withEvents(async (page) => {
    const r = await runs(page, [
      { id: "list", to: "end" },
      { id: "list", by: { x: 0, y: -100 } },
      { id: "row7", to: "start" },
      { id: "list" },
      { id: "list", to: "middle" },
    ]);
    const max = await page.evaluate(() => { const l = document.getElementById("list"); return l.scrollHeight - l.clientHeight; });
    assert.deepEqual(r.out[0], { id: "list", scrollLeft: 0, scrollTop: max });
    assert.deepEqual(r.out[1], { id: "list", scrollLeft: 0, scrollTop: max - 100 });
    const rowTop = await page.evaluate(() => { const l = document.getElementById("list"); return [l.scrollTop, document.getElementById("row7").offsetTop - l.offsetTop]; });
    assert.equal(r.out[2].id, "row7");
    assert.equal(r.out[2].scrollTop, rowTop[0]);
    assert.ok(Math.abs(rowTop[0] - rowTop[1]) <= 2, "row 7 at the top of its container: " + rowTop);
    assert.match(r.out[3], /^BAD_REQUEST/);
    assert.match(r.out[4], /^BAD_REQUEST/);
  }));

test("scroll brings in a row its own container clips (no hit test: a scroll dispatches nothing at the element)", () =>
  withEvents(async (page) => {
    const clipped = await page.evaluate(() => {
      const l = document.getElementById("list");
      l.scrollTop = 0;
      const row = document.getElementById("row7").getBoundingClientRect();
      const box = l.getBoundingClientRect();
      return row.top >= box.bottom && row.top + row.height / 2 < window.innerHeight;
    });
    assert.ok(clipped, "row 7 starts below its container's bottom edge, its centre inside the viewport");
    const r = await runs(page, [{ id: "row7", to: "start" }]);
    assert.equal(r.out[0].id, "row7", String(r.out[0]));
    const top = await page.evaluate(() => document.getElementById("list").scrollTop);
    assert.ok(top > 0 && r.out[0].scrollTop === top);
  }));

// A horizontal-only scroller: an 800px pad, the 40px tile at 800, another
// 800px pad (so start, centre and end are three different positions).
const strip = (page) => page.evaluate(() => {
  document.body.insertAdjacentHTML("beforeend",
    `<div id="strip" style="width:200px;overflow-x:auto;white-space:nowrap">` +
    `<span style="display:inline-block;width:800px">pad</span>` +
    `<button id="tile" style="box-sizing:border-box;width:40px;margin:0" data-e2e-kind="playable" data-e2e-id="tile" data-e2e-event="scroll">tile</button>` +
    `<span style="display:inline-block;width:800px">pad</span></div>`);
});
const stripLeft = (page) => page.evaluate(() => document.getElementById("strip").scrollLeft);

test("scroll by a horizontal-only delta ({ x, y: 0 }) moves the container sideways", () =>
  withEvents(async (page) => {
    await strip(page);
    const r = await runs(page, [{ id: "tile", by: { x: 50, y: 0 } }, { id: "list", by: { x: 0, y: 0 } }]);
    assert.deepEqual(r.out[0], { id: "tile", scrollLeft: 50, scrollTop: 0 });
    assert.equal(await stripLeft(page), 50);
    assert.deepEqual(r.out[1], { id: "list", scrollLeft: 0, scrollTop: 0 }, "a zero delta moves nothing");
  }));

test("scroll to start, center or end aligns the element on the horizontal axis too", () =>
  withEvents(async (page) => {
    await strip(page);
    const out = [];
    for (const [to, left] of [["start", 800], ["center", 720], ["end", 640]]) {
      const r = await runs(page, [{ id: "tile", to }]);
      assert.deepEqual(r.out[0], { id: "tile", scrollLeft: left, scrollTop: 0 }, to);
      out.push(await stripLeft(page));
    }
    assert.deepEqual(out, [800, 720, 640], "the tile's left edge, centre (820 - 100), right edge (840 - 200) at the strip's");
    const r = await runs(page, [{ id: "tile", to: "start", by: { x: -30, y: 0 } }]);
    assert.deepEqual(r.out[0], { id: "tile", scrollLeft: 770, scrollTop: 0 }, "to, then by");
  }));

// A scroller on both axes in direction `dir`, with `style` added: 300px
// above the tile, 800px of inline pad before it (to its right in rtl) and
// after it, 300px below; and a self-scrolling div (900px wide content).
const box = (page, dir, style = "") => page.evaluate(({ dir, style }) => {
  const pad = `<span style="display:inline-block;width:800px">pad</span>`;
  document.body.insertAdjacentHTML("beforeend",
    `<div id="box" style="direction:${dir};width:200px;height:100px;overflow:auto;white-space:nowrap;${style}">` +
    `<div style="height:300px"></div>${pad}` +
    `<button id="btile" style="box-sizing:border-box;width:40px;margin:0" data-e2e-kind="playable" data-e2e-id="btile" data-e2e-event="scroll">tile</button>` +
    `${pad}<div style="height:300px"></div></div>` +
    `<div id="self" style="direction:${dir};width:200px;height:60px;overflow:auto" data-e2e-kind="playable" data-e2e-id="self" data-e2e-event="scroll">` +
    `<div style="width:900px;height:20px"></div></div>`);
}, { dir, style });

// Where scrollIntoView({ block: to, inline: to }) puts element `id` from its
// container `c` at (0, 0), as run's answer would give it; the container is
// back at (0, 0) after.
const intoView = (page, id, c, to) => page.evaluate(({ id, c, to }) => {
  const el = document.getElementById(id);
  const box = c ? document.getElementById(c) : document.scrollingElement;
  box.scrollTo(0, 0);
  el.scrollIntoView({ block: to, inline: to, behavior: "instant" });
  const at = { id, scrollLeft: Math.round(box.scrollLeft), scrollTop: Math.round(box.scrollTop) };
  box.scrollTo(0, 0);
  return at;
}, { id, c, to });

// run's answer for { id, to } and the scrollIntoView oracle's, for each alignment.
async function aligned(page, id, c) {
  const out = [];
  for (const to of ["start", "center", "end"]) {
    const want = await intoView(page, id, c, to);
    const r = await runs(page, [{ id, to }]);
    out.push([to, r.out[0], want]);
  }
  return out;
}

test("scroll to start, center or end in a right-to-left container: inline start is its right edge, as scrollIntoView has it; a self-scrolling rtl element goes to negative scrollLeft", () =>
  withEvents(async (page) => {
    await box(page, "rtl");
    const out = await aligned(page, "btile", "box");
    for (const [to, got, want] of out) assert.deepEqual(got, want, to);
    assert.deepEqual(out.map(([, got]) => got.scrollLeft), [-800, -720, -640],
      "the tile's right edge, centre (-(820 - 100)), left edge (-(840 - 200)) at the box's; scrollLeft runs from 0 to negatives in rtl");
    const r = await runs(page, [{ id: "self", to: "end" }, { id: "self", to: "center" }, { id: "self", to: "start" }]);
    assert.deepEqual(r.out, [
      { id: "self", scrollLeft: -700, scrollTop: 0 },
      { id: "self", scrollLeft: -350, scrollTop: 0 },
      { id: "self", scrollLeft: 0, scrollTop: 0 },
    ], "its end is the far left (900 - 200), its start the right");
  }));

// A second Chromium without playwright's --hide-scrollbars: classic scrollbars take room.
const bars = useBrowser({ options: { ignoreDefaultArgs: ["--hide-scrollbars"] } });

test("scroll to start, center or end aligns to the visible scroll area, inside a thick border and a scrollbar, in ltr and rtl (the scrollbar on the left), as scrollIntoView does", () =>
  bars.withPage("/tests/fixtures/events.html", async (page) => {
    for (const dir of ["ltr", "rtl"]) {
      await box(page, dir, "overflow:scroll;border:10px solid #999;border-left-width:16px");
      const room = await page.evaluate(() => {
        const b = document.getElementById("box");
        return [b.clientWidth, b.clientHeight, b.clientLeft];
      });
      assert.ok(room[0] < 200 && room[1] < 100, `${dir}: the scrollbars take room (${room})`);
      assert.equal(room[2], dir === "rtl" ? 16 + 200 - room[0] : 16, `${dir}: clientLeft is the left border, and the scrollbar when it is on the left`);
      for (const [to, got, want] of await aligned(page, "btile", "box")) assert.deepEqual(got, want, `${dir} ${to}`);
      await page.evaluate(() => { document.getElementById("box").remove(); document.getElementById("self").remove(); });
    }
  }));

test("scroll to start, center or end of the page aligns to the viewport without its scrollbars, as scrollIntoView does", () =>
  bars.withPage("/tests/fixtures/events.html", async (page) => {
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend",
      `<button id="ptile" style="position:absolute;left:1500px;top:2000px;width:40px" data-e2e-kind="playable" data-e2e-id="ptile" data-e2e-event="scroll">tile</button>` +
      `<div style="position:absolute;left:4000px;top:4000px;width:1px;height:1px"></div>`));
    const room = await page.evaluate(() => [document.documentElement.clientWidth < innerWidth, document.documentElement.clientHeight < innerHeight]);
    assert.deepEqual(room, [true, true], "the page has both scrollbars");
    for (const [to, got, want] of await aligned(page, "ptile", null)) assert.deepEqual(got, want, to);
  }));

test("drag: HTML5 drag and drop with a DataTransfer, and a pointer-events drag", () =>
  withEvents(async (page) => {
    const r = await runs(page, [{ id: "card", to: "done" }, { id: "knob", to: "slot" }]);
    assert.deepEqual(r.out, [{ id: "card", to: "done" }, { id: "knob", to: "slot" }]);
    assert.deepEqual(r.log, ["card:dragstart", "done:drop:card", "knob:pointerdown", "knob:drop-on:slot"]);
    assert.equal(await page.evaluate(() => document.getElementById("card").parentElement.id), "done");
  }));

test("drag refusals: missing, unknown or hidden drop target", () =>
  withEvents(async (page) => {
    await page.evaluate(() => { document.getElementById("slot").style.display = "none"; });
    const r = await runs(page, [{ id: "knob" }, { id: "knob", to: "nowhere" }, { id: "knob", to: "slot" }]);
    assert.deepEqual(r.out.map((o) => String(o).split(":")[0]), ["BAD_REQUEST", "NOT_IN_MENU", "NOT_ACTIONABLE"]);
    assert.deepEqual(r.log, []);
  }));

test("actionability: an overlay or a moving element refuses; exactly one click when the handler hides the target", () =>
  withEvents(async (page) => {
    const r = await runs(page, [{ id: "covered" }, { id: "moving" }, { id: "vanish" }]);
    assert.match(r.out[0], /^NOT_ACTIONABLE: .*another element \(div#overlay\)/);
    assert.match(r.out[1], /^NOT_ACTIONABLE: .*not stable/);
    assert.deepEqual(r.out[2], { id: "vanish" });
    assert.deepEqual(r.log, ["vanish:click"]);
    const again = await runs(page, [{ id: "vanish" }]);
    assert.match(again.out[0], /^NOT_ACTIONABLE/);
    assert.deepEqual(again.log, []);
  }));

test("actionability after the wait: a target hidden, disabled or removed during the two frames is refused for that, and nothing is clicked", () =>
  withEvents(async (page) => {
    const r = await page.evaluate(async () => {
      const out = [];
      for (const change of ["hidden", "disabled", "removed"]) {
        const host = document.createElement("div");
        host.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="late">Late</button>';
        document.body.prepend(host);
        const el = host.firstElementChild;
        el.addEventListener("click", () => window.log.push("late:click"));
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable();
        await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const pending = p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "late" } });
        // After the menu read and the first checks, inside the wait.
        requestAnimationFrame(() => {
          if (change === "hidden") el.style.visibility = "hidden";
          else if (change === "disabled") el.disabled = true;
          else el.remove();
        });
        const up = await pending;
        out.push(up.ok ? "ok" : up.error.code + ": " + up.error.message);
        host.remove();
      }
      return { out, log: window.log.splice(0) };
    });
    assert.deepEqual(r.out, [
      'NOT_ACTIONABLE: "late": the element is not visible',
      'NOT_ACTIONABLE: "late": the element is disabled',
      'NOT_ACTIONABLE: "late": the element is detached from the document',
    ]);
    assert.deepEqual(r.log, []);
  }));

test("input on a checkbox whose click the page cancels: DISPATCH_FAILED, not an ok that claims the box is checked", () =>
  withEvents(async (page) => {
    const r = await page.evaluate(async () => {
      const host = document.createElement("div");
      host.innerHTML = '<input type="checkbox" data-e2e-kind="playable" data-e2e-id="kept" data-e2e-event="input">';
      document.body.prepend(host);
      const box = host.firstElementChild;
      box.addEventListener("click", (e) => e.preventDefault());
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "kept", value: true } });
      const out = { code: up.ok ? "ok" : up.error.code, message: up.ok ? "" : up.error.message, checked: box.checked, phase: p.phase };
      host.remove();
      return out;
    });
    assert.equal(r.code, "DISPATCH_FAILED");
    assert.match(r.message, /still unchecked after the event/);
    assert.equal(r.checked, false);
    assert.equal(r.phase, "live");
  }));

test("shadow DOM: open roots are scanned and runnable, closed roots stay invisible", () =>
  withEvents(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      const run = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "shadow-btn" } });
      const closed = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "closed-btn" } });
      return {
        ids: s.payload.snapshot.menu.map((m) => m.id),
        generics: s.payload.snapshot.generics.map((g) => g.name),
        run: run.ok,
        closed: closed.error && closed.error.code,
        log: window.log,
      };
    });
    assert.ok(r.ids.includes("shadow-btn"));
    assert.ok(!r.ids.includes("closed-btn"));
    assert.ok(r.generics.includes("Shadow link"), "generic refs cover open shadow roots");
    assert.equal(r.run, true);
    assert.equal(r.closed, "NOT_IN_MENU");
    assert.deepEqual(r.log, ["shadow-btn:click"]);
  }));

test("actionability right before dispatch: detached or disabled since the read refuses, clicks nothing", () =>
  withEvents(async (page) => {
    const r = await page.evaluate(async () => {
      // A sense port whose read still lists the items as enabled and visible,
      // while the elements changed: the bot's own check must catch it.
      const detached = document.createElement("button");
      const disabled = document.createElement("button");
      disabled.textContent = "Disabled now";
      disabled.disabled = true;
      document.body.prepend(disabled);
      const item = (id) => ({ id, event: "click", title: id, desc: "", enabled: true, visible: true });
      const targets = { detached, disabled };
      let clicks = 0;
      for (const el of [detached, disabled]) el.addEventListener("click", () => clicks++);
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({
        ports: {
          sense: {
            snapshot: () => ({ pageTitle: null, menu: [item("detached"), item("disabled")], islands: [], generics: [], dirty: [], noReload: false }),
            resolve: (id) => targets[id],
          },
        },
      });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const run = async (id) => {
        const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id } });
        return up.ok ? "OK" : up.error.code + ": " + up.error.message;
      };
      return { detached: await run("detached"), disabled: await run("disabled"), clicks };
    });
    assert.match(r.detached, /^NOT_ACTIONABLE: .*detached/);
    assert.match(r.disabled, /^NOT_ACTIONABLE: .*disabled/);
    assert.equal(r.clicks, 0);
  }));

test("a root in an iframe's document (the seed's contentDocument): its menu runs, click and input, with the frame's own event classes", () =>
  withEvents(async (page) => {
    const r = await page.evaluate(async () => {
      const frame = document.createElement("iframe");
      frame.srcdoc =
        '<button data-e2e-kind="playable" data-e2e-id="go">Go</button>' +
        '<input data-e2e-kind="playable" data-e2e-id="name" data-e2e-event="input">' +
        '<svg width="40" height="40"><rect data-e2e-kind="playable" data-e2e-id="dot" width="40" height="40"/></svg>';
      const loaded = new Promise((resolve) => { frame.onload = resolve; });
      document.body.prepend(frame);
      await loaded;
      const doc = frame.contentDocument;
      const w = frame.contentWindow;
      const seen = [];
      const note = (e) => seen.push(`${e.type}:${e.target.tagName.toLowerCase()}:${e instanceof w.Event}`);
      doc.querySelector("button").addEventListener("click", note);
      doc.querySelector("rect").addEventListener("click", note);
      doc.querySelector("input").addEventListener("input", note);
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({ root: doc });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const run = async (payload) => {
        const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload });
        return up.ok ? "OK" : up.error.code + ": " + up.error.message;
      };
      const out = [await run({ id: "go" }), await run({ id: "name", value: "Ada" }), await run({ id: "dot" })];
      return { out, seen, value: doc.querySelector("input").value };
    });
    assert.deepEqual(r.out, ["OK", "OK", "OK"]);
    assert.equal(r.value, "Ada");
    // Exactly one click each; every event is the frame's own class (a listener's instanceof holds).
    assert.deepEqual(r.seen, ["click:button:true", "input:input:true", "click:rect:true"]);
  }));

// Issue 6 §1, receives events, for a target outside the viewport: nothing is
// scrolled to test it; the hit test looks at a probe point inside the
// viewport (the viewport's middle on each axis where the action point is
// outside), and only an element that stays put when the page scrolls
// (position: fixed, itself or an ancestor) refuses there.
const BACKDROP = '<div id="ov" style="position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.3)"></div>';
const BELOW = '<div style="height:2000px"></div><button id="below" data-e2e-kind="playable" data-e2e-id="below">Below</button>';
const SEEN = ["click", "pointerdown", "pointerup", "pointermove", "mousedown", "mouseup", "mousemove", "focus", "focusin", "scroll", "dragstart", "drop"];

// In the page: `html` appended to the body, and every event of SEEN on the
// window logged ("type:id"); returns the page's scroll position.
const mount = (page, html) =>
  page.evaluate(({ html, seen }) => {
    const host = document.createElement("div");
    host.id = "offscreen";
    host.innerHTML = html;
    document.body.append(host);
    for (const t of seen) window.addEventListener(t, (e) => window.log.push(t + ":" + (e.target.id || e.target.nodeName)), true);
    return [scrollX, scrollY];
  }, { html, seen: SEEN });

const scrolled = (page) => page.evaluate(() => [scrollX, scrollY]);

test("an overlay refuses a target below the fold with zero side effects: nothing clicked, scrolled or dispatched", () =>
  withEvents(async (page) => {
    const at = await mount(page, BACKDROP + BELOW);
    const out = await page.evaluate(() => document.getElementById("below").getBoundingClientRect().top > innerHeight);
    assert.ok(out, "the target's centre is below the viewport");
    const r = await runs(page, [{ id: "below" }]);
    assert.equal(r.out[0], 'NOT_ACTIONABLE: "below": another element (div#ov) would receive the event at the element\'s centre');
    assert.deepEqual(r.log, []);
    assert.deepEqual(await scrolled(page), at, "the page did not scroll");
  }));

test("without the overlay the target below the fold is clicked, and fixed bars off the viewport's middle do not refuse", () =>
  withEvents(async (page) => {
    const bars =
      '<header id="bar-top" style="position:fixed;left:0;right:0;top:0;height:60px;z-index:10;background:#eee">Header</header>' +
      '<footer id="bar-bottom" style="position:fixed;left:0;right:0;bottom:0;height:60px;z-index:10;background:#eee">Footer</footer>';
    const at = await mount(page, bars + BELOW);
    const r = await runs(page, [{ id: "below" }]);
    assert.deepEqual(r.out, [{ id: "below" }]);
    assert.deepEqual(r.log, ["click:below"], "exactly one click, no pointer events");
    assert.deepEqual(await scrolled(page), at);
  }));

test("a modal's own scrolling content below the fold is not refused by its modal; another overlay over the modal refuses", () =>
  withEvents(async (page) => {
    const modal =
      '<div id="modal" style="position:fixed;inset:0;z-index:10;overflow:auto;background:rgba(0,0,0,.3)">' +
      '<div style="height:2000px"></div><button id="inmodal" data-e2e-kind="playable" data-e2e-id="inmodal">In modal</button></div>';
    await mount(page, modal);
    const r = await runs(page, [{ id: "inmodal" }]);
    assert.deepEqual(r.out, [{ id: "inmodal" }]);
    assert.deepEqual(r.log, ["click:inmodal"]);
    await page.evaluate(() => {
      const toast = document.createElement("div");
      toast.id = "toast";
      toast.style.cssText = "position:fixed;inset:0;z-index:20";
      document.body.append(toast);
    });
    const covered = await runs(page, [{ id: "inmodal" }]);
    assert.match(covered.out[0], /^NOT_ACTIONABLE: .*another element \(div#toast\)/);
    assert.deepEqual(covered.log, []);
  }));

test("a web component's fixed backdrop in an open shadow root refuses a target below the fold; its slotted content is not refused", () =>
  withEvents(async (page) => {
    await mount(page, '<x-modal id="xm"><button id="slotted" data-e2e-kind="playable" data-e2e-id="slotted">Slotted</button></x-modal>' + BELOW);
    await page.evaluate(() => {
      const root = document.getElementById("xm").attachShadow({ mode: "open" });
      // The slotted button sits below the fold of the backdrop's own scroll.
      root.innerHTML = '<div style="position:fixed;inset:0;z-index:10;overflow:auto"><div style="height:2000px"></div><slot></slot></div>';
    });
    const r = await runs(page, [{ id: "below" }, { id: "slotted" }]);
    assert.match(String(r.out[0]), /^NOT_ACTIONABLE: .*another element \(x-modal#xm\)/);
    assert.deepEqual(r.out[1], { id: "slotted" });
    assert.deepEqual(r.log, ["click:slotted"]);
  }));

test("drag: an overlay refuses a drop target below the fold, nothing dispatched; without it the drag runs", () =>
  withEvents(async (page) => {
    const at = await mount(
      page,
      '<div id="ov" style="position:fixed;inset:0;z-index:10">' +
        '<div id="src" style="width:60px;height:40px" data-e2e-kind="playable" data-e2e-id="src" data-e2e-event="drag">src</div></div>' +
        '<div id="far" style="position:absolute;left:20px;top:3000px;width:60px;height:40px" data-e2e-kind="playable" data-e2e-id="far">far</div>',
    );
    const r = await runs(page, [{ id: "src", to: "far" }]);
    assert.equal(r.out[0], 'NOT_ACTIONABLE: "src": another element (div#ov) would receive the drop at the drop target\'s centre');
    assert.deepEqual(r.log, []);
    assert.deepEqual(await scrolled(page), at);
    await page.evaluate(() => {
      const ov = document.getElementById("ov");
      document.body.prepend(document.getElementById("src"));
      ov.remove();
    });
    const free = await runs(page, [{ id: "src", to: "far" }]);
    assert.deepEqual(free.out, [{ id: "src", to: "far" }]);
    assert.ok(free.log.includes("pointerdown:src"), free.log.join());
  }));

test("a component's slotted label is its own: a click and a drop land on the shadow target, as the browser dispatches them", () =>
  withEvents(async (page) => {
    await page.evaluate(() => {
      const box = document.createElement("div");
      box.style.cssText = "position:absolute;left:0;top:0;z-index:50;background:#fff";
      box.innerHTML =
        '<x-btn id="xb"><span id="lbl" style="font-size:30px">Save</span></x-btn>' +
        '<x-btn id="xb2">Text only</x-btn>' +
        '<div id="xcard" draggable="true" data-e2e-kind="playable" data-e2e-id="xcard" data-e2e-event="drag" style="width:80px;height:30px">card</div>' +
        '<x-zone id="xz"><span id="zl" style="font-size:30px">Drop here</span></x-zone>';
      document.body.prepend(box);
      const shadow = (id, html) => { document.getElementById(id).attachShadow({ mode: "open" }).innerHTML = html; };
      shadow("xb", '<button data-e2e-kind="playable" data-e2e-id="save" style="padding:20px"><slot></slot></button>');
      shadow("xb2", '<button data-e2e-kind="playable" data-e2e-id="save2" style="padding:20px"><slot></slot></button>');
      shadow("xz", '<div data-e2e-kind="playable" data-e2e-id="zone" style="display:flex;align-items:center;justify-content:center;width:240px;height:80px"><slot></slot></div>');
      const zone = document.getElementById("xz").shadowRoot.firstElementChild;
      zone.addEventListener("dragover", (e) => e.preventDefault());
      zone.addEventListener("drop", () => window.log.push("zone:drop"));
      for (const id of ["xb", "xb2"]) {
        document.getElementById(id).shadowRoot.firstElementChild.addEventListener("click", () => window.log.push(id + ":click"));
      }
      // The browser's own hit test lands on the slotted label, outside the button in the DOM.
      const r = document.getElementById("lbl").getBoundingClientRect();
      const root = document.getElementById("xb").shadowRoot;
      window.hitIsLabel = root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === document.getElementById("lbl");
    });
    assert.ok(await page.evaluate(() => window.hitIsLabel), "the fixture's hit test lands on the slotted label");
    const r = await runs(page, [{ id: "save" }, { id: "save2" }, { id: "xcard", to: "zone" }]);
    assert.deepEqual(r.out, [{ id: "save" }, { id: "save2" }, { id: "xcard", to: "zone" }]);
    assert.deepEqual(r.log.filter((l) => /^(xb|xb2|zone):/.test(l)), ["xb:click", "xb2:click", "zone:drop"]);
  }));

test("a click run on a playable shadow host goes where a person's click goes: to the control in its shadow tree at its centre (listeners outside see the host), else to the host itself", () =>
  withEvents(async (page) => {
    await page.evaluate(() => {
      // Plain custom elements: the control is in the shadow root, not the host.
      const define = (tag, html) => customElements.define(tag, class extends HTMLElement {
        constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = html; }
      });
      define("x-go", '<button style="padding:12px">Go</button>');
      define("x-slotted", '<button style="padding:12px"><slot></slot></button>');
      // Its button is a strip at the top: the centre is the host's own box.
      define("x-edge", '<style>:host { display: block; width: 200px; height: 60px }</style><button style="height:10px">Edge</button>');
      const box = document.createElement("div");
      box.style.cssText = "position:absolute;left:0;top:0;z-index:50;background:#fff";
      box.innerHTML =
        '<x-go id="go" data-e2e-kind="playable" data-e2e-id="go"></x-go>' +
        '<x-slotted id="sl" data-e2e-kind="playable" data-e2e-id="sl"><span id="sl-label" style="font-size:24px">Label</span></x-slotted>' +
        '<x-edge id="edge" data-e2e-kind="playable" data-e2e-id="edge"></x-edge>';
      document.body.prepend(box);
      // Below the fold: the hit test looks elsewhere, so the host is clicked.
      const far = document.createElement("x-go");
      Object.assign(far, { id: "far" });
      far.setAttribute("data-e2e-kind", "playable");
      far.setAttribute("data-e2e-id", "far");
      far.style.cssText = "position:absolute;left:0;top:5000px";
      document.body.append(far);
      for (const id of ["go", "sl", "edge", "far"]) {
        const host = document.getElementById(id);
        host.shadowRoot.querySelector("button").addEventListener("click", () => window.log.push(id + ":inner"));
        host.addEventListener("click", (e) => window.log.push(id + ":host sees " + (e.target.id || e.target.tagName)));
      }
    });
    const r = await runs(page, [{ id: "go" }, { id: "sl" }, { id: "edge" }, { id: "far" }]);
    assert.deepEqual(r.out, [{ id: "go" }, { id: "sl" }, { id: "edge" }, { id: "far" }]);
    assert.deepEqual(r.log, [
      // The shadow button, once; outside, the event is the host's (retargeted).
      "go:inner", "go:host sees go",
      // The slotted label a person's click lands on: through its slot to the button.
      "sl:inner", "sl:host sees sl-label",
      // The host's own box at the centre, and a host out of view: the host, as before.
      "edge:host sees edge",
      "far:host sees far",
    ]);
    // Playwright's click (real input at the centre) reaches the same elements.
    await page.locator("#go").click();
    await page.locator("#sl").click();
    await page.locator("#edge").click();
    assert.deepEqual(await page.evaluate(() => window.log.splice(0)), [
      "go:inner", "go:host sees go", "sl:inner", "sl:host sees sl-label", "edge:host sees edge",
    ]);
  }));
