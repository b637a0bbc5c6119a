// What stays in JavaScript of bot (crates/bot/src/act.js) and Surface's
// page reader (crates/surface/src/observe.js), on their own in Chromium:
// each function reads raw facts or performs one act; the decisions that use
// them are Rust's (bot::Actionability::verdict, playable's run plan, surface::markers).
// The reload act (crates/bom/src/reload.js) is exercised by the real reload
// escape in tests/playable.test.mjs.
/* global A, O */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();

/** Opens a blank page, mounts `html` in a div#root, imports act.js as window.A and observe.js as window.O. */
const withSnippets = (html, fn) =>
  ctx.withSnippet({ modules: { A: "/crates/bot/src/act.js", O: "/crates/surface/src/observe.js" }, html }, fn);

test("act.js twoFrames: resolves after two animation frames of the element's window, no sooner", () =>
  withSnippets(`<button id="b">B</button>`, async (page) => {
    const r = await page.evaluate(async () => {
      let frames = 0;
      const count = () => { frames++; requestAnimationFrame(count); };
      requestAnimationFrame(count);
      const seen = await A.twoFrames(document.getElementById("b")).then(() => frames);
      return { seen };
    });
    assert.ok(r.seen >= 2, `resolved after ${r.seen} frame(s)`);
  }));

test("act.js click: exactly one click event, also on a non-HTML element; a non-element is refused", () =>
  withSnippets(`<button id="b">B</button><svg><circle id="c" r="4"></circle></svg>`, async (page) => {
    const r = await page.evaluate(() => {
      const counts = { b: 0, c: 0 };
      for (const id of ["b", "c"]) document.getElementById(id).addEventListener("click", () => counts[id]++);
      const outs = [A.click(document.getElementById("b")), A.click(document.getElementById("c")), A.click(document.createTextNode("x"))];
      return { counts, outs };
    });
    assert.deepEqual(r.counts, { b: 1, c: 1 });
    assert.deepEqual(r.outs, [null, null, "the target is not an element"]);
  }));

test("act.js setValue: the native setter, then input and change (which kind of field it is, and whether a value fits, is bot::Field's)", () =>
  withSnippets(`<input id="x"><select id="s"><option value="a">A</option><option value="b">B</option></select>`, async (page) => {
    const r = await page.evaluate(() => {
      const x = document.getElementById("x");
      const seen = [];
      for (const t of ["input", "change"]) x.addEventListener(t, () => seen.push(t));
      A.setValue(x, 1, "Ada"); // 1: a text field (field.rs)
      const s = document.getElementById("s");
      A.setValue(s, 5, "b"); // 5: a select
      return { value: x.value, seen, selected: s.value, left: Object.keys(A).sort() };
    });
    assert.equal(r.value, "Ada");
    assert.deepEqual(r.seen, ["input", "change"]);
    assert.equal(r.selected, "b");
    assert.deepEqual(r.left, ["click", "drag", "hitAt", "isElement", "scroll", "setValue", "twoFrames"], "no decision left in act.js");
  }));

test("act.js hitAt: the element hit, whether the target holds it, whether it stays put when the page scrolls and whether that fixed element holds the target", () =>
  withSnippets(
    `<div id="page" class="a b" style="position:absolute;left:0;top:0;width:100px;height:100px"></div>
     <div id="bar" style="position:fixed;left:200px;top:0;width:100px;height:100px"><span id="in-bar" style="display:block;height:50px"></span><button id="t">T</button></div>
     <div id="host" style="position:absolute;left:400px;top:0"></div>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const root = document.getElementById("host").attachShadow({ mode: "open" });
        root.innerHTML = '<div style="position:fixed;left:400px;top:0;width:100px;height:100px"></div>';
        const at = (id, x, y) => A.hitAt(document.getElementById(id), x, y);
        return { page: at("t", 10, 10), bar: at("t", 210, 10), self: at("in-bar", 210, 10), host: at("t", 410, 10), none: at("t", -5, -5) };
      });
      // [tag, id, class, inside, pinned, shared]
      assert.deepEqual(r.page, ["DIV", "page", "a b", false, false, false]);
      assert.deepEqual(r.bar, ["SPAN", "in-bar", "", false, true, true], "the target sits in the same fixed bar");
      assert.deepEqual(r.self, ["SPAN", "in-bar", "", true, true, true]);
      assert.deepEqual(r.host, ["DIV", "host", "", false, true, false], "named by the host, pinned by what is fixed inside it");
      assert.equal(r.none, null);
    },
  ));

test("observe.js nextChange: true on a change under the root, false at the deadline", () =>
  withSnippets(`<p id="p">a</p>`, async (page) => {
    const r = await page.evaluate(async () => {
      const root = document.getElementById("root");
      const quiet = await O.nextChange(root, Date.now() + 30);
      const pending = O.nextChange(root, Date.now() + 5000);
      document.getElementById("p").textContent = "b";
      const changed = await pending;
      const past = await O.nextChange(root, Date.now() - 1);
      return { quiet, changed, past };
    });
    assert.deepEqual(r, { quiet: false, changed: true, past: false });
  }));

test("observe.js findRecords: the record elements of a kind and id, the root included", () =>
  withSnippets(
    `<div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="SO-1" id="a"></div>
     <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="SO-2"></div>
     <div data-e2e-kind="record" data-e2e-record="line" data-e2e-id="SO-1"></div>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const root = document.getElementById("root");
        const a = document.getElementById("a");
        return {
          one: O.findRecords(root, "order", "SO-1").map((el) => el.id),
          none: O.findRecords(root, "order", "SO-9").length,
          self: O.findRecords(a, "order", "SO-1").map((el) => el.id),
        };
      });
      assert.deepEqual(r, { one: ["a"], none: 0, self: ["a"] });
    },
  ));
