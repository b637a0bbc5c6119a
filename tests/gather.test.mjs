// What stays in JavaScript of sense's DOM read (crates/sense/src/gather.js),
// run on its own in Chromium: the bulk gather of raw facts (document order,
// open shadow roots, subtree ends, attributes as written), the bulk read of
// the details Rust asks for, and the visibility and enabled checks that bot
// and Surface apply too. The rules that read these facts are Rust's
// (crates/sense/src/rules.rs, read.rs), tested natively.
// Names that exist in the page the callbacks run in (the fixture script):
/* global G, decode, watch, facts, readDetails */
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();

/** In-page helpers over gather.js (window.G), defined once a page is open. */
function helpers() {
  // Decodes gather.js's answers as wire.rs documents them.
  window.decode = (bytes, intBytes) => {
    const text = new TextDecoder().decode(bytes);
    const ints = new Uint32Array(intBytes.buffer, intBytes.byteOffset, intBytes.byteLength / 4);
    let t = 0;
    const take = (n) => text.slice(t, (t += n));
    return { text, ints: [...ints], take, done: () => t === text.length };
  };
  const FACTS = ["tag", "kind", "id", "event", "title", "desc", "pageTitle", "dirty", "role", "ariaLabel", "type", "tabindex", "ariaDisabled", "size"];
  window.facts = (root, selector, ancestors) => {
    const [bytes, intBytes, els, above] = G.gather(root, selector, ancestors);
    const { ints, take, done } = decode(bytes, intBytes);
    const out = [];
    for (let k = 0; k < ints.length; ) {
      const head = ints[k++];
      const rec = { flags: head & 0xff, end: ints[k++] };
      FACTS.forEach((name, i) => {
        if (head & (1 << (8 + i))) rec[name] = take(ints[k++]);
      });
      out.push(rec);
    }
    if (!done()) throw new Error("text left over");
    return { out, els, above, count: els.length };
  };
  const DETAILS = ["value", "label", "placeholder", "title", "alt", "text", "imgAlt"];
  window.readDetails = (els, asks, textMax) => {
    const [bytes, intBytes] = G.details(els, new Uint32Array(asks), textMax);
    const { ints, take, done } = decode(bytes, intBytes);
    const out = [];
    for (let k = 0; k < ints.length; ) {
      const head = ints[k++];
      const rec = { visible: !!(head & 1), disabled: !!(head & 2) };
      if (head & 4) {
        const n = ints[k++];
        rec.refs = [];
        for (let i = 0; i < n; i++) rec.refs.push(take(ints[k++]));
      }
      DETAILS.forEach((name, i) => {
        if (head & (1 << (8 + i))) rec[name] = take(ints[k++]);
      });
      out.push(rec);
    }
    if (!done()) throw new Error("text left over");
    return out;
  };
  // Counts the mutations made until the returned function is called.
  window.watch = () => {
    const o = new MutationObserver(() => {});
    o.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    return () => {
      const n = o.takeRecords().length;
      o.disconnect();
      return n;
    };
  };
}

/** Opens a blank page, mounts `html` in a div#root, imports gather.js as window.G. */
const withFixture = (html, fn) => ctx.withSnippet({ modules: { G: "/crates/sense/src/gather.js" }, html, setup: helpers }, fn);

const SELECTOR = ":where(button,a[href],input,select,[role],[aria-label],[tabindex],[contenteditable],[data-e2e-kind],[inert],[aria-disabled=\"true\"])";
const ANCESTORS = '[aria-disabled="true"],[inert]';

test("gather: raw facts of every match in document order, open shadow roots right after their host, subtree ends", () =>
  withFixture(
    `<nav data-e2e-kind="island" data-e2e-id="pager" data-e2e-event="hover" role=" Navigation  x">
       <button type="CONSTRUCTOR" tabindex=" 7px" aria-label="Next">›</button>
       <span id="host"></span>
       <a href="#x" data-e2e-noreload>Link</a>
     </nav>
     <select multiple size="4"><option>o</option></select>
     <div inert aria-disabled="TRUE" contenteditable="true" data-e2e-dirty="yes" data-e2e-title="T" data-e2e-desc="D" data-e2e-pagetitle=" P "></div>
     <span id="closed"></span>
     <p>not matched</p>`,
    async (page) => {
      const r = await page.evaluate(({ SELECTOR, ANCESTORS }) => {
        document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = `<a href="#s" role="tab">Shadow</a><div><input></div>`;
        document.getElementById("closed").attachShadow({ mode: "closed" }).innerHTML = `<button>Closed</button>`;
        const stop = watch();
        const { out, els, above } = facts(document.getElementById("root"), SELECTOR, ANCESTORS);
        return { out, tags: [...els].map((e) => e.tagName), above, isList: els instanceof NodeList, mutations: stop() };
      }, { SELECTOR, ANCESTORS });
      assert.deepEqual(r.tags, ["NAV", "BUTTON", "A", "INPUT", "A", "SELECT", "DIV"], "shadow elements follow their host; closed roots stay closed");
      assert.equal(r.isList, false, "merged with the shadow root's elements");
      assert.equal(r.above, false);
      assert.equal(r.mutations, 0, "reading changes nothing");
      const [nav, button, shadowLink, shadowInput, link, select, div] = r.out;
      // Ends: the nav holds everything up to the select, shadow content included.
      assert.deepEqual(r.out.map((x) => x.end), [5, 2, 3, 4, 5, 6, 7]);
      assert.deepEqual(nav, { flags: 0, end: 5, tag: "NAV", kind: "island", id: "pager", event: "hover", role: " Navigation  x" }, "attributes as written");
      assert.deepEqual(button, { flags: 0, end: 2, tag: "BUTTON", ariaLabel: "Next", type: "CONSTRUCTOR", tabindex: " 7px" });
      assert.deepEqual(shadowLink, { flags: 1, end: 3, tag: "A", role: "tab" }, "href flag");
      assert.deepEqual(shadowInput, { flags: 0, end: 4, tag: "INPUT" });
      assert.deepEqual(link, { flags: 1 | 4, end: 5, tag: "A" }, "href and noreload flags");
      assert.deepEqual(select, { flags: 16, end: 6, tag: "SELECT", size: "4" }, "multiple flag, size as written");
      assert.deepEqual(
        div,
        { flags: 2 | 8, end: 7, tag: "DIV", title: "T", desc: "D", pageTitle: " P ", dirty: "yes", ariaDisabled: "TRUE" },
        "editable and inert flags; values uninterpreted");
    },
  ));

test("gather: an element root that matches is first, the query's NodeList is used as is, ancestors are tested with the given selector", () =>
  withFixture(
    `<div id="outer" aria-disabled="true"><section id="scope" role="region"><button>In</button><a>no href</a></section></div>`,
    async (page) => {
      const r = await page.evaluate(({ SELECTOR, ANCESTORS }) => {
        const scope = document.getElementById("scope");
        const self = facts(scope, SELECTOR, ANCESTORS);
        const plain = facts(document.getElementById("outer"), "button", ANCESTORS);
        const noAbove = facts(scope, SELECTOR, "[inert]");
        const shadowRoot = document.createElement("div");
        document.body.append(shadowRoot);
        const sr = shadowRoot.attachShadow({ mode: "open" });
        sr.innerHTML = "<button>S</button>";
        const inShadow = facts(sr, SELECTOR, ANCESTORS);
        // A host under aria-disabled: its ShadowRoot, and an element directly in it, sit below it.
        const disabledHost = document.createElement("div");
        document.getElementById("outer").append(disabledHost);
        const dsr = disabledHost.attachShadow({ mode: "open" });
        dsr.innerHTML = "<p><button>D</button></p>";
        const underHost = [facts(dsr, SELECTOR, ANCESTORS).above, facts(dsr.querySelector("p"), SELECTOR, ANCESTORS).above];
        let thrown = null;
        try {
          G.gather(3, SELECTOR, ANCESTORS);
        } catch (e) {
          thrown = e.constructor.name;
        }
        return {
          self: self.out.map((x) => [x.tag, x.end]),
          above: self.above,
          plainList: plain.els instanceof NodeList,
          plainAbove: plain.above,
          noAbove: noAbove.above,
          inShadow: inShadow.out.map((x) => x.tag),
          shadowAbove: inShadow.above,
          underHost,
          thrown,
        };
      }, { SELECTOR, ANCESTORS });
      assert.deepEqual(r.self, [["SECTION", 2], ["BUTTON", 2]]);
      assert.equal(r.above, true, "the root sits below aria-disabled=true");
      assert.equal(r.plainList, true);
      assert.equal(r.plainAbove, false, "body has no such ancestor");
      assert.equal(r.noAbove, false, "only the selector Rust hands in counts");
      assert.deepEqual(r.inShadow, ["BUTTON"]);
      assert.equal(r.shadowAbove, false);
      assert.deepEqual(r.underHost, [true, true], "ancestors are looked for through the shadow host");
      assert.ok(r.thrown, "a root that is no node throws (the Rust side answers an error)");
    },
  ));

test("details: reads exactly what each ask asks, texts cut to textMax", () =>
  withFixture(
    `<span id="l1">Ship</span><span id="l2">to  you</span>
     <button id="b" aria-labelledby="l1 nope l2" title="T">Press <b>me</b></button>
     <label for="f">Email</label><input id="f" placeholder="you@x" value="typed">
     <input id="s" type="submit" value="Send">
     <img id="i" alt="Logo" title="IT">
     <a id="a" href="#"><img alt=""><img alt="Home"></a>
     <div id="long">${"x".repeat(50)}</div>
     <div id="ws">${" \n\t\u00a0".repeat(40)}Delete${" \u3000 ".repeat(9)}now</div>
     <span id="h"></span>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const host = document.getElementById("h");
        const sr = host.attachShadow({ mode: "open" });
        sr.innerHTML = `<i id="l1">In shadow</i><button aria-labelledby="l1">x</button>`;
        const els = ["b", "f", "s", "i", "a", "long", "ws"].map((id) => document.getElementById(id));
        els.push(sr.querySelector("button"));
        const F = (k) => 1 << (8 + k);
        const all = 1 | 2 | 4 | F(0) | F(1) | F(2) | F(3) | F(4) | F(5) | F(6);
        const stop = watch();
        const full = readDetails(els, [0, all, 1, all, 2, F(0), 3, F(4) | F(3), 4, F(6), 5, F(5), 7, 4, 6, F(5)], 10);
        const none = readDetails(els, [0, 0], 10);
        return { full, none, mutations: stop() };
      });
      const [b, f, s, i, a, long, shadow, ws] = r.full;
      assert.deepEqual(
        b,
        { visible: true, disabled: false, refs: ["Ship", "to  you"], value: "", title: "T", text: "Press me" },
        "references that exist, in order; no label, placeholder, alt or img in a button");
      assert.deepEqual(f, { visible: true, disabled: false, value: "typed", label: "Email", placeholder: "you@x", text: "" });
      assert.deepEqual(s, { visible: false, disabled: false, value: "Send" }, "only the value was asked");
      assert.deepEqual(i, { visible: false, disabled: false, title: "IT", alt: "Logo" });
      assert.deepEqual(a, { visible: false, disabled: false, imgAlt: "" }, "the first img[alt], even an empty alt");
      assert.deepEqual(long, { visible: false, disabled: false, text: "x".repeat(10) }, "cut to textMax");
      assert.deepEqual(ws, { visible: false, disabled: false, text: " Delete no" }, "over the cut, whitespace runs are one space before it");
      assert.deepEqual(shadow, { visible: false, disabled: false, refs: ["In shadow"] }, "ids resolve in the element's own root");
      assert.deepEqual(r.none, [{ visible: false, disabled: false }]);
      assert.equal(r.mutations, 0);
    },
  ));

test("isVisible, disabledFacts and checks: the one visibility rule, the disabled facts with ancestors by the selector Rust hands in", () =>
  withFixture(
    `<button id="ok">ok</button>
     <button id="hidden" hidden>h</button>
     <button id="none" style="display:none">n</button>
     <button id="invisible" style="visibility:hidden">i</button>
     <button id="zero" style="width:0;height:0;padding:0;border:0;overflow:hidden">z</button>
     <button id="off" disabled>off</button>
     <fieldset disabled><button id="fieldset">f</button></fieldset>
     <div aria-disabled="true"><span id="aria">a</span></div>
     <div inert><button id="inert">i</button></div>`,
    async (page) => {
      const r = await page.evaluate((ANCESTORS) => {
        const $ = (id) => document.getElementById(id);
        const detached = document.createElement("button");
        detached.textContent = "d";
        const ids = ["ok", "hidden", "none", "invisible", "zero", "off", "fieldset", "aria", "inert"];
        const [visible, facts] = G.checks(ANCESTORS);
        return {
          visible: Object.fromEntries(ids.map((id) => [id, G.isVisible($(id))])),
          detached: G.isVisible(detached),
          facts: Object.fromEntries(ids.map((id) => [id, G.disabledFacts($(id), ANCESTORS)])),
          inertOnly: G.disabledFacts($("aria"), "[inert]"),
          same: ids.every((id) => visible($(id)) === G.isVisible($(id)) && facts($(id)) === G.disabledFacts($(id), ANCESTORS)),
        };
      }, ANCESTORS);
      assert.deepEqual(r.visible, { ok: true, hidden: false, none: false, invisible: false, zero: false, off: true, fieldset: true, aria: true, inert: true });
      assert.equal(r.detached, false);
      // wire.rs: DETAIL_DISABLED 2 (:disabled), DETAIL_DISABLING 32 (an ancestor matches the selector), fieldsets << 16.
      const F = 1 << 16;
      assert.deepEqual(r.facts, { ok: 0, hidden: 0, none: 0, invisible: 0, zero: 0, off: 2, fieldset: 2 | F, aria: 32, inert: 32 });
      assert.equal(r.inertOnly, 0, "the selector decides which ancestors count");
      assert.equal(r.same, true, "checks() returns the same two reads");
    },
  ));

test("a modal dialog opened inside a shadow root (a component's own <dialog>) is found: what it holds in the flat tree, slotted light children included, is in it; the rest is not", () =>
  withFixture(
    `<button id="out">out</button>
     <x-outer id="outer"><button id="slotted">slotted</button><button id="unassigned" slot="nowhere">u</button></x-outer>`,
    async (page) => {
      const r = await page.evaluate((ANCESTORS) => {
        // A component whose shadow root holds another component that owns the dialog:
        // the dialog sits two shadow roots deep, and slots the outer host's light child through.
        const outer = document.getElementById("outer").attachShadow({ mode: "open" });
        outer.innerHTML = `<button id="beside">beside</button><x-inner id="inner"><slot></slot></x-inner>`;
        const inner = outer.getElementById("inner").attachShadow({ mode: "open" });
        inner.innerHTML = `<dialog id="dlg"><slot></slot><button id="own">own</button></dialog><button id="after">after</button>`;
        const els = {
          out: document.getElementById("out"), slotted: document.getElementById("slotted"),
          beside: outer.getElementById("beside"), own: inner.getElementById("own"), after: inner.getElementById("after"),
        };
        const read = () => Object.fromEntries(Object.entries(els).map(([id, el]) => [id, G.disabledFacts(el, ANCESTORS)]));
        const closed = read();
        inner.getElementById("dlg").showModal();
        // What the browser says: only what the dialog holds can take focus.
        const focusable = Object.fromEntries(Object.entries(els).map(([id, el]) => {
          el.focus();
          return [id, el.getRootNode().activeElement === el];
        }));
        const stop = watch();
        const open = read();
        const [, bulk] = G.checks(ANCESTORS);
        const checks = Object.fromEntries(Object.entries(els).map(([id, el]) => [id, bulk(el)]));
        // details, as the snapshot calls it: with the hosts the gather found (a Document root), and without.
        const list = Object.values(els);
        const asks = new Uint32Array(list.flatMap((_, i) => [i, 2]));
        const [, , , , hosts] = G.gather(document, "button", ANCESTORS);
        const heads = (h) => [...new Uint32Array(G.details(list, asks, 10, h)[1].buffer)].slice(0, list.length);
        const viaHosts = heads(hosts), scanned = heads(undefined);
        const shadowRootHosts = G.gather(outer, "button", ANCESTORS)[4];
        return { closed, focusable, open, checks, viaHosts, scanned, hostCount: hosts.length, shadowRootHosts, mutations: stop() };
      }, ANCESTORS);
      const M = 8, IN = 16; // DETAIL_MODAL, DETAIL_IN_MODAL
      assert.deepEqual(r.closed, { out: 0, slotted: 0, beside: 0, own: 0, after: 0 }, "a closed dialog disables nothing");
      assert.deepEqual(r.focusable, { out: false, slotted: true, beside: false, own: true, after: false }, "the browser's inertness");
      assert.deepEqual(r.open, { out: M, slotted: M | IN, beside: M, own: M | IN, after: M }, "the same split as the browser's");
      assert.deepEqual(r.checks, r.open, "checks() reads the same facts");
      assert.deepEqual(r.viaHosts, Object.values(r.open), "details with the gather's hosts");
      assert.deepEqual(r.scanned, Object.values(r.open), "details looking for the hosts itself");
      assert.equal(r.hostCount, 1, "the gather hands over the document's top-level hosts");
      assert.equal(r.shadowRootHosts, undefined, "a ShadowRoot root hands over none (they are not the document's)");
      assert.equal(r.mutations, 0, "reading changes nothing");
    },
  ));

test("disabledFacts: the fieldsets around an element and their first legends, an open modal dialog and whether it holds the element, as facts", () =>
  withFixture(
    `<fieldset disabled id="fs">
       <legend><span id="first">1</span><fieldset disabled><legend><i id="deep">d</i></legend><b id="inner">n</b></fieldset></legend>
       <legend><span id="second">2</span></legend>
       <div id="div">d</div>
     </fieldset>
     <fieldset><div id="open">o</div></fieldset>
     <dialog id="dlg"><button id="in">in</button></dialog>
     <button id="out">out</button>`,
    async (page) => {
      const r = await page.evaluate((ANCESTORS) => {
        const $ = (id) => document.getElementById(id);
        const ids = ["fs", "first", "deep", "inner", "second", "div", "open", "in", "out"];
        const read = () => Object.fromEntries(ids.map((id) => [id, G.disabledFacts($(id), ANCESTORS)]));
        const closed = read();
        $("dlg").showModal();
        const stop = watch();
        const modal = read();
        const [, facts] = G.checks(ANCESTORS);
        const bulk = Object.fromEntries(ids.map((id) => [id, facts($(id))]));
        // Asked for the disabled facts (2; the fs also for visibility, 1): only heads come back.
        const [, intBytes] = G.details([$("div"), $("deep"), $("fs")], new Uint32Array([0, 2, 1, 2, 2, 2 | 1]), 10);
        const heads = [...new Uint32Array(intBytes.buffer, intBytes.byteOffset, intBytes.byteLength / 4)];
        return { closed, modal, bulk, mutations: stop(), heads };
      }, ANCESTORS);
      const F = (n) => n * (1 << 16), L = (n) => n * (1 << 24); // fieldsets, of them holding it in their first legend
      assert.deepEqual(r.closed, {
        fs: 2 | F(1), // :disabled itself
        first: F(1) + L(1),
        deep: F(2) + L(2), // in both fieldsets' first legends
        inner: F(2) + L(1), // exempt from the outer one only
        second: F(1), // a second legend does not exempt
        div: F(1), // any element, not only a form control
        open: 0,
        in: 0, // a closed dialog disables nothing
        out: 0,
      });
      const M = 8, IN = 16; // DETAIL_MODAL, DETAIL_IN_MODAL
      assert.deepEqual(r.modal, Object.fromEntries(Object.entries(r.closed).map(([id, v]) => [id, v + M + (id === "in" ? IN : 0)])));
      assert.deepEqual(r.bulk, r.modal, "checks() reads the same facts");
      assert.equal(r.mutations, 0, "reading changes nothing");
      // details reads the same facts into the head, but the ancestors' attributes (those are the tree's).
      assert.deepEqual(r.heads, [r.modal.div, r.modal.deep, 1 + r.modal.fs]);
    },
  ));

test("an inert or aria-disabled element around a <slot> disables the light content slotted into it: the per-element facts (DISABLING) and the gather's SLOT_DISABLED flag, through nested slots, in the flat tree", () =>
  withFixture(
    `<x-a id="a"><button id="direct">d</button><p id="wrap"><button id="inside">i</button></p><button id="other" slot="open">o</button></x-a>
     <x-o id="o"><button id="nested">n</button></x-o>
     <x-f id="f"><button id="fieldset">f</button></x-f>`,
    async (page) => {
      const r = await page.evaluate((ANCESTORS) => {
        const $ = (id) => document.getElementById(id);
        $("a").attachShadow({ mode: "open" }).innerHTML = `<div aria-disabled="true"><slot></slot></div><slot name="open"></slot>`;
        // A component that slots its light content into another one's disabled slot.
        const o = $("o").attachShadow({ mode: "open" });
        o.innerHTML = `<x-i id="i"><slot></slot></x-i>`;
        o.getElementById("i").attachShadow({ mode: "open" }).innerHTML = `<div inert><slot></slot></div>`;
        $("f").attachShadow({ mode: "open" }).innerHTML = `<fieldset disabled><slot></slot></fieldset>`;
        const ids = ["direct", "inside", "other", "nested", "fieldset"];
        const stop = watch();
        const perElement = Object.fromEntries(ids.map((id) => [id, G.disabledFacts($(id), ANCESTORS)]));
        const { out, els } = facts(document.getElementById("root"), "button,p", ANCESTORS);
        const flags = Object.fromEntries([...els].map((el, i) => [el.id, out[i].flags]));
        const above = facts($("wrap"), "button", ANCESTORS).above;
        return { perElement, flags, above, mutations: stop() };
      }, ANCESTORS);
      assert.deepEqual(r.perElement, { direct: 32, inside: 32, other: 0, nested: 32, fieldset: 0 }, "DISABLING (32) in the flat tree; the fieldset is not the slotted button's");
      assert.deepEqual(r.flags, { direct: 32, wrap: 32, inside: 32, other: 0, nested: 32, fieldset: 0 }, "SLOT_DISABLED (32) on what is slotted in and below it");
      assert.equal(r.above, true, "an element root slotted into a disabled slot sits below it");
      assert.equal(r.mutations, 0);
    },
  ));

test("isVisible and boxOf: a display:contents element by its rendered children in the flat tree; an <area> by its region of the visible image that uses its map", () =>
  withFixture(
    `<button id="contents" style="display:contents"><span style="display:inline-block;width:30px;height:10px"></span><span style="display:inline-block;width:20px;height:14px"></span></button>
     <button id="text" style="display:contents">Text</button>
     <button id="hiddenText" style="display:contents;visibility:hidden">Text</button>
     <button id="empty" style="display:contents"></button>
     <div style="display:none"><button id="inNone" style="display:contents">x</button></div>
     <x-c id="host">Slotted</x-c>
     <map name="m"><area id="rect" href="#r" shape="rect" coords="40,30,10,5"><area id="circle" href="#c" shape="circle" coords="60,20,10">
       <area id="poly" href="#p" shape="poly" coords="0,0,80,0,80,40,70,40,70,10,0,10"><area id="whole" href="#w" shape="default">
       <area id="nocoords" href="#n"></map>
     <img id="img" usemap="#m" width="80" height="40" style="border:5px solid;padding:3px" alt="">
     <map name="unused"><area id="unused" href="#u" shape="default"></map>`,
    async (page) => {
      const r = await page.evaluate(() => {
        const $ = (id) => document.getElementById(id);
        $("host").attachShadow({ mode: "open" }).innerHTML = `<style>:host{display:contents}</style><b style="display:inline-block;height:12px"><slot></slot></b>`;
        const ids = ["contents", "text", "hiddenText", "empty", "inNone", "host", "rect", "circle", "poly", "whole", "nocoords", "unused"];
        const img = $("img").getBoundingClientRect();
        // Boxes relative to the image's border box (as Chromium hit-tests areas).
        const rel = (b) => [b.x - img.x, b.y - img.y, b.width, b.height].map((v) => Math.round(v));
        const [a, b] = $("contents").querySelectorAll("span");
        const [ra, rb] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        const union = [ra.x, Math.min(ra.y, rb.y), rb.right - ra.x, Math.max(ra.bottom, rb.bottom) - Math.min(ra.y, rb.y)].map(Math.round);
        const [visible] = G.checks("[inert]");
        return {
          visible: Object.fromEntries(ids.map((id) => [id, G.isVisible($(id))])),
          bulk: ids.every((id) => visible($(id)) === G.isVisible($(id))),
          contents: [G.boxOf($("contents"))].map((b) => [b.x, b.y, b.width, b.height].map(Math.round))[0],
          union,
          host: G.boxOf($("host")).height,
          areas: Object.fromEntries(["rect", "circle", "poly", "whole"].map((id) => [id, rel(G.boxOf($(id)))])),
          // What the browser hit-tests at each area box's centre.
          hits: ["rect", "circle", "poly", "whole"].map((id) => {
            const b = G.boxOf($(id));
            return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id;
          }),
          zero: [G.boxOf($("nocoords")).width, G.boxOf($("inNone")).width],
        };
      });
      assert.deepEqual(r.visible, {
        contents: true, text: true, hiddenText: false, empty: false, inNone: false, host: true,
        rect: true, circle: true, poly: true, whole: true, nocoords: false, unused: false,
      });
      assert.equal(r.bulk, true, "checks() judges the same");
      assert.deepEqual(r.contents, r.union, "the union of the children's boxes");
      assert.equal(r.host, 12, "a :host{display:contents} component: its shadow content's box");
      assert.deepEqual(r.areas, {
        rect: [10, 5, 30, 25], // corners in any order
        circle: [50, 10, 20, 20], // its bounding square
        poly: [70, 0, 10, 40], // the widest span of its middle row (inside it), over its full height
        whole: [0, 0, 96, 56], // the image's border box
      });
      assert.deepEqual(r.hits, ["rect", "circle", "poly", "whole"], "each box's centre is a point of its area");
      assert.deepEqual(r.zero, [0, 0], "no region, not rendered: the element's own (empty) box");
    },
  ));
