// What stays in JavaScript of bot (crates/bot/src/act.js), Surface's
// page reader (crates/surface/src/observe.js) and bom's reload
// (crates/bom/src/reload.js), on their own in Chromium: each function reads
// raw facts or performs one act; the decisions that use them are Rust's
// (bot::Actionability::verdict, playable's run plan, surface::markers,
// bom's reload rule). The real reload escape is in tests/playable.test.mjs.
/* global A, O, R */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();

/** Opens a blank page, mounts `html` in a div#root, imports act.js as window.A, observe.js as window.O and reload.js as window.R. */
const withSnippets = (html, fn) =>
  ctx.withSnippet({ modules: { A: "/crates/bot/src/act.js", O: "/crates/surface/src/observe.js", R: "/crates/bom/src/reload.js" }, html }, fn);

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

test("act.js setValue: beforeinput, the native setter, then input and change (which kind of field it is, and whether a value fits, is bot::Field's); false, nothing set, when the page cancels the beforeinput", () =>
  withSnippets(`<input id="x"><input id="m"><select id="s"><option value="a">A</option><option value="b">B</option></select>`, async (page) => {
    const r = await page.evaluate(() => {
      const x = document.getElementById("x");
      const m = document.getElementById("m");
      const seen = [];
      for (const el of [x, m]) for (const t of ["beforeinput", "input", "change"]) el.addEventListener(t, () => seen.push(el.id + ":" + t));
      m.addEventListener("beforeinput", (e) => e.preventDefault());
      const done = [A.setValue(x, 1, "Ada"), A.setValue(m, 1, "no")]; // 1: a text field (field.rs)
      const s = document.getElementById("s");
      done.push(A.setValue(s, 5, "b")); // 5: a select
      return { value: x.value, masked: m.value, done, seen, selected: s.value, left: Object.keys(A).sort() };
    });
    assert.equal(r.value, "Ada");
    assert.equal(r.masked, "", "a cancelled beforeinput sets nothing");
    assert.deepEqual(r.done, [true, false, true]);
    assert.deepEqual(r.seen, ["x:beforeinput", "x:input", "x:change", "m:beforeinput"]);
    assert.equal(r.selected, "b");
    assert.deepEqual(r.left, ["click", "drag", "fieldFacts", "hitAt", "isElement", "optionFacts", "sanitize", "scroll", "setValue", "twoFrames"], "no decision left in act.js");
  }));

test("act.js fieldFacts, optionFacts and sanitize: a field's raw facts, a select's options flat, and what a detached input of the field's type makes of a text", () =>
  withSnippets(
    `<input id="t" type="Email" maxlength="5" multiple><input id="c" type="radio" checked><textarea id="a"></textarea><div id="d" contenteditable="true"></div>` +
      `<select id="s" multiple><option value="a">A</option><option disabled>B</option><optgroup disabled><option value="c">C</option></optgroup></select>` +
      `<input id="n" type="number" value="7">`,
    async (page) => {
      const r = await page.evaluate(() => {
        const el = (id) => document.getElementById(id);
        const facts = ["t", "c", "a", "d", "s"].map((id) => A.fieldFacts(el(id)));
        const before = document.body.innerHTML;
        const probes = [A.sanitize(el("n"), "abc"), A.sanitize(el("n"), "1.5"), A.sanitize(el("t"), "a@x.org, b@y.org")];
        return { facts, options: A.optionFacts(el("s")), probes, untouched: document.body.innerHTML === before && el("n").value === "7" };
      });
      assert.deepEqual(r.facts, [
        ["Email", "INPUT", true, false, false, 5],
        ["radio", "INPUT", false, false, true, -1],
        [null, "TEXTAREA", false, false, false, -1],
        [null, "DIV", false, true, false, undefined],
        [null, "SELECT", true, false, false, undefined],
      ]);
      assert.deepEqual(r.options, ["a", false, "B", true, "c", true]);
      assert.deepEqual(r.probes, [["", "number"], ["1.5", "number"], ["a@x.org,b@y.org", "email"]]);
      assert.ok(r.untouched, "the probe is detached: nothing of the page changes");
    },
  ));

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

test("act.js hitAt on an open shadow host: also the innermost element at the point (its shadow content, or light content slotted into it) and whether it lies in the host's shadow tree", () =>
  withSnippets(
    `<div id="h" style="position:absolute;left:0;top:0;width:100px;height:120px"><span id="lt" style="display:block;height:40px">L</span></div>
     <div id="plain" style="position:absolute;left:200px;top:0;width:100px;height:100px"><b id="pb" style="display:block;height:50px">B</b></div>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const h = document.getElementById("h");
        h.attachShadow({ mode: "open" }).innerHTML = '<button id="in" style="display:block;width:100px;height:40px">In</button><slot></slot>';
        const at = (id, x, y) => {
          const facts = A.hitAt(document.getElementById(id), x, y);
          return facts.length > 6 ? [...facts.slice(0, 7), facts[7] && facts[7].id] : facts;
        };
        return { shadow: at("h", 10, 10), slotted: at("h", 10, 60), own: at("h", 10, 100), plain: at("plain", 210, 10) };
      });
      // [tag, id, class, inside, pinned, shared, inShadow, aim's id]
      assert.deepEqual(r.shadow, ["DIV", "h", "", true, false, false, true, "in"], "named by the host; the shadow button is at the point");
      assert.deepEqual(r.slotted, ["SPAN", "lt", "", true, false, false, true, "lt"], "slotted light content is in the host's shadow tree");
      assert.deepEqual(r.own, ["DIV", "h", "", true, false, false, false, "h"], "the host's own box");
      assert.deepEqual(r.plain, ["B", "pb", "", true, false, false], "no shadow root: the facts as before");
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

test("act.js isElement: an element of this window or of its own document's window; nothing else", () =>
  withSnippets(`<iframe id="f" srcdoc="<p id=p>in</p>"></iframe><svg><circle id="c"></circle></svg>`, async (page) => {
    await page.waitForFunction(() => document.getElementById("f").contentDocument?.getElementById("p"));
    const r = await page.evaluate(() => {
      const frame = document.getElementById("f").contentDocument;
      return [
        document.getElementById("root"),
        document.getElementById("c"),
        frame.getElementById("p"),
        frame.createElement("div"),
        document.createTextNode("x"),
        frame,
        { ownerDocument: document },
        null,
        "div",
      ].map((v) => A.isElement(v));
    });
    assert.deepEqual(r, [true, true, true, true, false, false, false, false, false]);
  }));

test("act.js scroll: the element itself when it scrolls, else its scroll container (through a shadow root), else the page; to start, centre or end (bot::Align's fraction) on both axes, or by a delta on both; returns where it went", () =>
  withSnippets(
    `<div id="box" style="overflow:auto;height:100px;width:100px">
       <div style="height:400px;width:300px"></div><span id="t" style="display:block;height:20px">T</span>
       <div id="host"></div><div style="height:400px"></div>
     </div>
     <div style="height:3000px"></div><button id="far">Far</button>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const $ = (id) => document.getElementById(id);
        const box = $("box");
        const sr = $("host").attachShadow({ mode: "open" });
        sr.innerHTML = '<i id="s" style="display:block;height:10px">S</i>';
        const out = {};
        out.start = A.scroll($("t"), 0, 0, 0);
        out.center = A.scroll($("t"), 0.5, 0, 0);
        out.end = A.scroll($("t"), 1, 0, 0);
        out.boxEnd = A.scroll(box, 1, 0, 0);
        out.boxStart = A.scroll(box, 0, 0, 0);
        out.by = A.scroll($("t"), undefined, 30, 40);
        out.boxTop = box.scrollTop;
        out.byX = A.scroll($("t"), undefined, -20, 0);
        out.shadow = A.scroll(sr.getElementById("s"), 0, 0, 0);
        out.shadowTop = box.scrollTop;
        out.page = A.scroll($("far"), 1, 0, 0);
        out.pageTop = Math.round(document.scrollingElement.scrollTop);
        out.farBottom = Math.round($("far").getBoundingClientRect().bottom);
        out.height = innerHeight;
        out.max = [box.scrollWidth - box.clientWidth, box.scrollHeight - box.clientHeight];
        return out;
      });
      assert.deepEqual(r.start, [0, 400], "the span's top at the box's top");
      assert.deepEqual(r.center, [0, 360], "its centre at the box's centre (410 - 50)");
      assert.deepEqual(r.end, [0, 320], "its bottom at the box's bottom (420 - 100)");
      assert.deepEqual(r.boxEnd, r.max, "the box scrolls itself to its end");
      assert.deepEqual(r.boxStart, [0, 0]);
      assert.deepEqual(r.by, [30, 40], "a delta scrolls the container by it");
      assert.equal(r.boxTop, 40);
      assert.deepEqual(r.byX, [10, 40], "a zero y still applies x");
      assert.deepEqual(r.shadow, [0, 420], "a shadow root's element scrolls its host's container, its start at the box's start on both axes");
      assert.equal(r.shadowTop, 420);
      assert.deepEqual(r.page, [0, r.pageTop], "the page scrolls for an element outside any box");
      assert.ok(r.pageTop > 0);
      assert.equal(r.farBottom, r.height, "its bottom at the viewport's bottom");
    },
  ));

test("act.js scroll in right-to-left: inline start is the right edge of an rtl box, a self-scrolling rtl box goes to negative scrollLeft, and the page takes its direction from <body>; each as scrollIntoView does", () =>
  withSnippets(
    `<div id="box" style="direction:rtl;overflow:auto;height:100px;width:100px;white-space:nowrap">
       <div style="height:300px"></div><span style="display:inline-block;width:400px"></span><i id="t" style="display:inline-block;width:20px">T</i><span style="display:inline-block;width:400px"></span>
     </div>
     <div style="height:3000px"></div>
     <div style="white-space:nowrap"><span style="display:inline-block;width:3000px"></span><b id="far" style="display:inline-block;width:20px">F</b><span style="display:inline-block;width:3000px"></span></div>
     <div style="height:3000px"></div>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const $ = (id) => document.getElementById(id);
        const box = $("box");
        // [A.scroll's answer, scrollIntoView's] from c at (0, 0), for each fraction.
        const both = (el, c) => [0, 0.5, 1].map((f) => {
          const to = ["start", "center", "end"][f * 2];
          c.scrollTo(0, 0);
          el.scrollIntoView({ block: to, inline: to, behavior: "instant" });
          const want = [Math.round(c.scrollLeft), Math.round(c.scrollTop)];
          c.scrollTo(0, 0);
          return [A.scroll(el, f, 0, 0), want];
        });
        const out = { box: both($("t"), box) };
        out.selfEnd = A.scroll(box, 1, 0, 0);
        out.selfStart = A.scroll(box, 0, 0, 0);
        out.max = [box.scrollWidth - box.clientWidth, box.scrollHeight - box.clientHeight];
        const page = document.scrollingElement;
        document.body.style.direction = "rtl";
        out.bodyRtl = both($("far"), page);
        document.documentElement.style.direction = "rtl";
        document.body.style.direction = "ltr";
        out.htmlRtl = both($("far"), page);
        return out;
      });
      for (const [got, want] of r.box) assert.deepEqual(got, want);
      assert.deepEqual(r.box.map(([got]) => got[0]), [-400, -360, -320], "the i's right edge, centre (-(410 - 50)), left edge (-(420 - 100)) at the box's");
      assert.deepEqual(r.selfEnd, [-r.max[0], r.max[1]], "its end: the far left (scrollLeft runs from 0 to negatives in rtl) and the bottom");
      assert.deepEqual(r.selfStart, [0, 0]);
      for (const [got, want] of r.bodyRtl) assert.deepEqual(got, want, "<body dir=rtl>: the viewport scrolls right to left");
      assert.ok(r.bodyRtl.every(([got]) => got[0] < 0), "far from the start: scrollLeft < 0 on all three");
      for (const [got, want] of r.htmlRtl) assert.deepEqual(got, want, "<html dir=rtl><body dir=ltr>: the viewport scrolls left to right");
      assert.ok(r.htmlRtl.every(([got]) => got[0] > 0));
    },
  ));

test("act.js drag: pointer and mouse events from the source's centre to the target's; HTML5 drag and drop when the source is draggable, the drop only when the target cancels dragover", () =>
  withSnippets(
    `<div id="src" style="position:absolute;left:0;top:0;width:40px;height:40px"></div>
     <div id="dnd" draggable="true" style="position:absolute;left:0;top:100px;width:40px;height:40px"></div>
     <div id="dst" style="position:absolute;left:200px;top:0;width:40px;height:40px"><b id="inner" style="display:block;width:40px;height:40px"></b></div>
     <div id="above" style="position:absolute;left:200px;top:-100px;width:40px;height:40px"></div>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const $ = (id) => document.getElementById(id);
        const TYPES = ["pointerdown", "mousedown", "pointermove", "mousemove", "pointerup", "mouseup", "pointercancel",
          "dragstart", "drag", "dragenter", "dragover", "dragleave", "drop", "dragend"];
        let log = [];
        for (const t of TYPES) document.addEventListener(t, (e) => log.push(`${t}:${e.target.id || e.target.tagName}@${e.clientX},${e.clientY}:${e.buttons}`), true);
        const take = () => { const l = log; log = []; return l; };
        A.drag($("src"), $("dst"));
        const plain = take();
        A.drag($("dnd"), $("dst"));
        const refused = take();
        $("dst").addEventListener("dragover", (e) => e.preventDefault());
        A.drag($("dnd"), $("dst"));
        const dropped = take();
        A.drag($("src"), $("above"));
        const outside = take();
        return { plain, refused, dropped, outside };
      });
      assert.deepEqual(r.plain, [
        "pointerdown:src@20,20:1", "mousedown:src@20,20:1",
        "pointermove:HTML@120,20:1", "mousemove:HTML@120,20:1", // what is at the midpoint
        "pointermove:inner@220,20:1", "mousemove:inner@220,20:1", // what is at the target's centre
        "pointerup:inner@220,20:0", "mouseup:inner@220,20:0",
      ]);
      assert.deepEqual(r.outside, [
        "pointerdown:src@20,20:1", "mousedown:src@20,20:1",
        "pointermove:above@120,-30:1", "mousemove:above@120,-30:1", // outside the viewport: the target stands in
        "pointermove:above@220,-80:1", "mousemove:above@220,-80:1",
        "pointerup:above@220,-80:0", "mouseup:above@220,-80:0",
      ]);
      const dnd = (end) => [
        "pointerdown:dnd@20,120:1", "mousedown:dnd@20,120:1", "dragstart:dnd@20,120:0", "pointercancel:dnd@20,120:0",
        "drag:dnd@20,120:0", "dragenter:dst@220,20:0", "dragover:dst@220,20:0", `${end}:dst@220,20:0`, "dragend:dnd@220,20:0",
      ];
      assert.deepEqual(r.refused, dnd("dragleave"), "dragover not cancelled: no drop");
      assert.deepEqual(r.dropped, dnd("drop"));
    },
  ));

test("observe.js observe: one JSON text of the marked elements' rows, sense's two reads applied where they belong; a failure as its message", () =>
  withSnippets(
    `<div data-e2e-pagetitle="Orders"></div>
     <section data-e2e-kind="region" data-e2e-id="list" data-e2e-title="List">
       <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="SO-1" data-e2e-state="open">
         <span data-e2e-field="customer">Ada <script>var x;</script>L</span>
         <button data-e2e-kind="playable" data-e2e-id="edit@order">Edit</button>
         <button data-e2e-kind="playable" data-e2e-id="off@order" data-e2e-unavailable="locked">Off</button>
       </div>
     </section>
     <p data-e2e-kind="status" hidden>Hidden <style>.x{}</style>status</p>
     <p data-e2e-kind="feedback" data-e2e-level="info" id="fb">Saved</p>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const root = document.getElementById("root");
        const seen = { visible: [], facts: [] };
        const name = (el) => el.getAttribute("data-e2e-id") || el.getAttribute("data-e2e-kind");
        // Stand-ins for sense's isVisible and disabledFacts: the row carries what they return.
        const checks = [
          (el) => { seen.visible.push(name(el)); return !el.hidden; },
          (el) => { seen.facts.push(name(el)); return el.getAttribute("data-e2e-id") === "off@order" ? 1 << 16 : 0; },
        ];
        const all = JSON.parse(O.observe(root, true, checks));
        const again = JSON.parse(O.observe(root, true, checks));
        const texts = JSON.parse(O.observe(root, false, checks));
        const self = JSON.parse(O.observe(document.getElementById("fb"), true, checks));
        document.getElementById("fb").setAttribute("data-e2e-level", "x".repeat(5000));
        const cut = JSON.parse(O.observe(root, false, checks))[3][1][10].length;
        const threw = O.observe(root, true, [() => { throw new Error("boom"); }, () => 0]);
        const notRoot = O.observe(null, true, checks);
        return { all, again: again[0], texts: texts[3], self: self[3], cut, threw, notRoot, seen, href: location.href, title: document.title };
      });
      const [serial, href, title, rows] = r.all;
      assert.ok(Number.isInteger(serial) && serial > 0);
      assert.equal(r.again, serial, "one serial per document");
      assert.equal(href, r.href);
      assert.equal(title, r.title);
      const N = null;
      assert.deepEqual(rows, [
        [-1, 0, N, N, N, N, N, N, N, N, N, "Orders"],
        [-1, 1, "region", "list", N, N, "List"],
        [1, 0, "record", "SO-1", N, "order", N, "open"],
        [2, 0, N, N, "customer", N, N, N, N, N, N, N, "Ada L"], // what a person sees: no script
        [2, 1, "playable", "edit@order"],
        [2, 1 + (1 << 16), "playable", "off@order", N, N, N, N, N, "locked"], // the disabled facts above the visible bit
        [-1, 0, "status", N, N, N, N, N, N, N, N, N, "Hidden status"], // not rendered: its text without style
        [-1, 1, "feedback", N, N, N, N, N, N, N, "info", N, "Saved"],
      ]);
      assert.deepEqual(r.texts, [rows[6], rows[7]], "only status and feedback");
      assert.deepEqual(r.self, [[-1, 1, "feedback", N, N, N, N, N, N, N, "info", N, "Saved"]], "an element root that matches is read");
      assert.equal(r.cut, 4000, "values cut to 4,000 UTF-16 units");
      const reads = ["list", "edit@order", "off@order", "status", "feedback"];
      assert.deepEqual(r.seen.visible.slice(0, 5), reads, "visibility of regions, playables, status and feedback only");
      assert.deepEqual(r.seen.facts.slice(0, 2), ["edit@order", "off@order"], "the disabled facts of playables only");
      assert.equal(r.threw, "reading the scan root failed: boom");
      assert.match(r.notRoot, /^reading the scan root failed: /);
    },
  ));

test("reload.js soon and reload: resolves after the reply's messages; one location.reload() with its facts (when it returned, whether pagehide followed)", () =>
  withSnippets("", async (page) => {
    const r = await page.evaluate(async () => {
      const order = [];
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => order.push("reply");
      const done = R.soon(window).then(() => order.push("soon"));
      port2.postMessage(0); // a reply posted after soon() was called, as the bridge's is
      order.push("sync");
      await done;
      let unreadable = null;
      try {
        R.soon({ location: {} });
      } catch (e) {
        unreadable = e.constructor.name;
      }
      // A stand-in window: reload() acts on it once and records the facts.
      const listeners = [];
      let reloads = 0;
      const fake = {
        addEventListener: (type, fn, options) => listeners.push([type, fn, options]),
        location: { reload: () => reloads++ },
      };
      const realNow = Date.now;
      Date.now = () => 1; // a page's fake clock does not reach the module's
      const facts = { triedAt: 0, left: false };
      const before = realNow();
      R.reload(fake, facts);
      const afterReload = { ...facts };
      // A bfcache pagehide (persisted) is no reload; the listener stays for the real one.
      listeners[0][1]({ persisted: true });
      const afterPersisted = facts.left;
      listeners[0][1]({ persisted: false });
      Date.now = realNow;
      let threw = null;
      const failing = { addEventListener() {}, location: { reload() { throw new Error("blocked"); } } };
      const facts2 = { triedAt: 0, left: false };
      try {
        R.reload(failing, facts2);
      } catch (e) {
        threw = e.message;
      }
      return { order, unreadable, reloads, afterReload, before, facts, type: listeners[0][0], once: listeners[0][2], afterPersisted, threw, tried2: facts2.triedAt > 0, clock: R.now() > 1 };
    });
    assert.deepEqual(r.order, ["sync", "reply", "soon"], "after the reply already posted");
    assert.equal(r.unreadable, "TypeError", "no readable location: nothing scheduled");
    assert.equal(r.reloads, 1);
    assert.equal(r.afterReload.left, false);
    assert.ok(r.afterReload.triedAt >= r.before, "when reload() returned, by the clock the module loaded with");
    assert.equal(r.type, "pagehide");
    assert.equal(r.once, undefined, "kept: a bfcache pagehide may come first");
    assert.equal(r.afterPersisted, false, "a persisted pagehide is no reload");
    assert.equal(r.facts.left, true, "pagehide followed");
    assert.equal(r.threw, "blocked", "a throwing reload() still says when it returned");
    assert.equal(r.tried2, true);
    assert.equal(r.clock, true);
  }));
