// The npm package in real Chromium: install, the four commands, every error
// code of baseline §1, zero side effects on refusal, and hostile inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser();

const withPage = (fn, path) => ctx.withPage(path, fn);

// Runs `body(p, send, pageId)` in the page after install + hello.
function live(_body, _arg) {
  return async ({ body, arg }) => {
    const p = window.P.installPlayable({
      islandSlots: { "list-pagination": { next: { ariaLabel: "Next page" }, prev: { ariaLabel: "Previous page" }, page2: { role: "button", name: "Page 2" }, gone: { ariaLabel: "Nope" } } },
    });
    let n = 0;
    const send = (cmd, payload = {}, pageId) => p.handle({ pageId: pageId === undefined ? p.pageId : pageId, requestId: "r" + ++n, cmd, payload });
    await send("hello", {}, null);
    const fn = new Function("return " + body)();
    return fn(p, send, arg);
  };
}

async function inPage(page, fn, arg) {
  return page.evaluate(live(), { body: fn.toString(), arg });
}

test("install is synchronous, once per window, marks the window", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const a = window.P.installPlayable();
      const b = window.P.installPlayable({ allowedOrigins: ["http://other"] });
      return {
        same: a === b,
        marker: "__IN_PAGE_PLAYABLE_V1__" in window,
        pageId: a.pageId,
        phase: a.phase,
        isPromise: a instanceof Promise,
        hasHandle: typeof a.handle === "function" && typeof a.attachWindowBridge === "function",
      };
    });
    assert.deepEqual(r, { same: true, marker: true, pageId: null, phase: "installed", isPromise: false, hasHandle: true });
  }));

test("a page script cannot delete or overwrite the window marker while the instance lives, so a second copy of the package still refuses to install; it reads undefined once the instance is dropped", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const name = "__IN_PAGE_PLAYABLE_V1__";
      window.P.installPlayable({ allowedOrigins: [location.origin] });
      const deleted = Reflect.deleteProperty(window, name); // a page's cleanup of globals
      const overwritten = Reflect.set(window, name, false);
      const marker = window[name];
      // The same package from another URL: a module of its own, with its own WebAssembly instance.
      const copy = await import("/www/pkg/in_page_playable.js?second-copy");
      let second = "installed";
      try { copy.installPlayable({ allowedOrigins: [location.origin] }); } catch (e) { second = e.message; }
      window.P.resetPlayableForTests();
      const afterReset = window[name];
      window.P.installPlayable();
      return { deleted, overwritten, marker, second, afterReset, again: window[name] };
    });
    assert.deepEqual({ ...r, second: undefined }, { deleted: false, overwritten: false, marker: true, second: undefined, afterReset: undefined, again: true });
    assert.match(r.second, /another copy of the package is already installed/);
  }));

test("resetPlayableForTests drops the instance for good: an old object answers RETIRED, cannot attach a bridge, and the new one alone replies", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const old = window.P.installPlayable({ allowedOrigins: [location.origin] });
      const h = await old.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      old.attachWindowBridge();
      window.P.resetPlayableForTests();
      const fresh = window.P.installPlayable({ allowedOrigins: [location.origin] });
      fresh.attachWindowBridge();
      const run = await old.handle({ pageId: h.payload.pageId, requestId: "r", cmd: "run", payload: { id: "btn-save" } });
      let attach = "no throw";
      try { old.attachWindowBridge(); } catch (e) { attach = e.message; }
      const replies = [];
      const listen = (e) => { if (e.data && e.data.dir === "up") replies.push(e.data.envelope.requestId); };
      window.addEventListener("message", listen);
      window.postMessage({ channel: "in-page-playable", dir: "down", seq: 1, envelope: { pageId: null, requestId: "b", cmd: "hello", payload: {} } }, location.origin);
      await new Promise((res) => setTimeout(res, 200));
      window.removeEventListener("message", listen);
      return { phase: old.phase, run: run.ok ? "ok" : run.error.code + ": " + run.error.message, attach, replies, differ: old !== fresh };
    });
    assert.equal(r.phase, "retired");
    assert.match(r.run, /^RETIRED: .*resetPlayableForTests/);
    assert.match(r.attach, /dropped \(resetPlayableForTests\)/);
    assert.deepEqual(r.replies, ["b"], "one reply, from the new instance");
    assert.ok(r.differ);
  }));

test("enabled follows the browser: anything inside <fieldset disabled> but its first legend, and everything outside an open modal dialog, is disabled and never clicked", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      document.body.innerHTML = `
        <fieldset disabled>
          <legend><span data-e2e-kind="playable" data-e2e-id="in-legend">L</span></legend>
          <div data-e2e-kind="playable" data-e2e-id="fs-div">D</div>
          <button data-e2e-kind="playable" data-e2e-id="fs-button">B</button>
        </fieldset>
        <button data-e2e-kind="playable" data-e2e-id="behind">Behind</button>
        <dialog id="dlg"><button data-e2e-kind="playable" data-e2e-id="in-dialog">OK</button></dialog>`;
      const clicks = [];
      document.addEventListener("click", (e) => clicks.push(e.target.getAttribute("data-e2e-id")), true);
      const p = window.P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const send = (cmd, payload) => p.handle({ pageId: h.payload.pageId, requestId: "r", cmd, payload });
      const enabled = async () => Object.fromEntries((await send("snapshot", {})).payload.snapshot.menu.map((m) => [m.id, m.enabled]));
      const code = async (id) => { const u = await send("run", { id }); return u.ok ? "ok" : u.error.code; };
      const closed = await enabled();
      const fsDiv = await code("fs-div");
      document.getElementById("dlg").showModal();
      const modal = await enabled();
      const behind = await code("behind");
      const inDialog = await code("in-dialog");
      return { closed, fsDiv, modal, behind, inDialog, clicks };
    });
    assert.deepEqual(r.closed, { "in-legend": true, "fs-div": false, "fs-button": false, behind: true, "in-dialog": true }, "a closed dialog hides its button; it does not disable it");
    assert.equal(r.fsDiv, "NOT_ACTIONABLE");
    assert.deepEqual(r.modal, { "in-legend": false, "fs-div": false, "fs-button": false, behind: false, "in-dialog": true });
    assert.equal(r.behind, "NOT_ACTIONABLE");
    assert.equal(r.inDialog, "ok");
    assert.deepEqual(r.clicks, ["in-dialog"], "only the dialog's button was clicked");
  }));

test("the objects handed out keep their class names through the minified bundle", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const p = window.P.installPlayable();
      const surface = window.P.createSurface({ registry: [], app: "a", expose: [], session: () => null });
      return [p.constructor.name, p.publishWebMcp().constructor.name, surface.constructor.name];
    });
    assert.deepEqual(r, ["Playable", "WebMcpPublication", "Surface"]);
  }));

test("a second install returns the instance whatever its options, even ones a first install refuses", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const a = window.P.installPlayable();
      const again = (o) => { try { return window.P.installPlayable(o) === a; } catch (e) { return e.name + ": " + e.message; } };
      return [again({ root: 5 }), again({ islandSlots: 3 }), again(7), again({ captureScreenshot: "no" }), again({ window })];
    });
    assert.deepEqual(r, [true, true, true, true, true]);
  }));

test("hello mints a 128-bit pageId from crypto, once; reinstall keeps it", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      let calls = 0;
      const orig = crypto.getRandomValues.bind(crypto);
      crypto.getRandomValues = (a) => (calls++, orig(a));
      const p = window.P.installPlayable();
      const a = await p.handle({ pageId: null, requestId: "1", cmd: "hello", payload: {} });
      const b = await p.handle({ pageId: "whatever", requestId: "2", cmd: "hello", payload: {} });
      const again = window.P.installPlayable();
      return { a, b, calls, phase: p.phase, pageId: p.pageId, againId: again.pageId };
    });
    assert.equal(r.a.ok, true);
    assert.match(r.a.payload.pageId, /^[0-9a-f]{32}$/);
    assert.equal(r.a.pageId, r.a.payload.pageId);
    assert.equal(r.a.requestId, "1");
    assert.equal(r.b.payload.pageId, r.a.payload.pageId);
    assert.equal(r.calls, 1, "one crypto.getRandomValues call for one pageId");
    assert.equal(r.phase, "live");
    assert.equal(r.againId, r.a.payload.pageId);
  }));

test("snapshot reads the seed markup: title, menu states, islands, generics, escapes", () =>
  withPage(async (page) => {
    const up = await inPage(page, async (p, send) => send("snapshot"));
    assert.equal(up.ok, true);
    const { snapshot, escapes } = up.payload;
    assert.equal(snapshot.pageTitle, "ready-list");
    const byId = Object.fromEntries(snapshot.menu.map((m) => [m.id, m]));
    assert.deepEqual(byId["btn-save"], { id: "btn-save", event: "click", title: "Save", desc: "Save the current list", enabled: true, visible: true });
    for (const id of ["btn-off", "btn-aria", "btn-fieldset", "btn-inert"]) assert.equal(byId[id].enabled, false, id);
    for (const id of ["btn-hidden", "btn-none", "btn-invisible", "btn-zero"]) assert.equal(byId[id].visible, false, id);
    assert.equal(byId["btn-dup"].ambiguous, true);
    assert.equal(snapshot.menu.filter((m) => m.id === "btn-dup").length, 1);
    assert.equal(byId["field-name"].event, "input");
    assert.equal(byId["btn-hover"].event, "hover");
    assert.deepEqual(byId["list-pagination:next"], { id: "list-pagination:next", event: "click", title: "Next page", desc: "", enabled: true, visible: true, island: "list-pagination" });
    assert.equal(byId["list-pagination:page2"].title, "Page 2");
    const ids = snapshot.menu.map((m) => m.id);
    assert.deepEqual(ids.slice(ids.indexOf("btn-hover") + 1), ["list-pagination:next", "list-pagination:prev", "list-pagination:page2"], "slots sit at the island's position, in table order");
    assert.deepEqual(snapshot.islands, [{
      id: "list-pagination",
      slots: [
        { name: "next", id: "list-pagination:next", resolved: true },
        { name: "prev", id: "list-pagination:prev", resolved: true },
        { name: "page2", id: "list-pagination:page2", resolved: true },
        { name: "gone", id: "list-pagination:gone", resolved: false },
      ],
    }]);
    assert.ok(!("list-pagination:gone" in byId));
    assert.deepEqual(snapshot.generics, [
      { ref: "g0", role: "link", name: "Help" },
      { ref: "g1", role: "button", name: "Unmarked" },
      { ref: "g2", role: "textbox", name: "Note" },
    ]);
    assert.deepEqual(snapshot.dirty, []);
    assert.equal(snapshot.noReload, false);
    assert.equal("screenshot" in snapshot, false);
    assert.deepEqual(escapes, [{ type: "reload", allowed: true }]);
  }));

test("snapshot query and windows: only the rows asked for, with their accounts", () =>
  withPage(async (page) => {
    const r = await inPage(page, async (p, send) => {
      const full = (await send("snapshot")).payload;
      const q = (await send("snapshot", { query: "  SAVE current " })).payload;
      const w = (await send("snapshot", { offset: 1, limit: 2 })).payload;
      const none = (await send("snapshot", { query: "no-such-word" })).payload;
      const bad = [];
      for (const payload of [{ query: 5 }, { offset: -1 }, { limit: 1.5 }, { limit: "2" }]) {
        bad.push((await send("snapshot", payload)).error.code);
      }
      const mismatch = (await send("snapshot", { query: 5 }, "other")).error.code;
      return { full, q, w, none, bad, mismatch };
    });
    assert.equal("menuWindow" in r.full.snapshot, false, "no window fields without query/offset/limit");
    assert.equal("genericsWindow" in r.full.snapshot, false);
    assert.deepEqual(r.q.snapshot.menu.map((m) => m.id), ["btn-save"]);
    assert.deepEqual(r.q.snapshot.menuWindow, { offset: 0, limit: 1, total: 1 });
    assert.deepEqual(r.q.snapshot.generics, []);
    assert.deepEqual(r.q.snapshot.islands, r.full.snapshot.islands, "the seed's one island has a slot not found: kept in every window");
    assert.deepEqual(r.q.escapes, r.full.escapes);
    const visible = r.full.snapshot.generics.length - r.w.snapshot.genericsWindow.hidden;
    assert.deepEqual(r.w.snapshot.menu, r.full.snapshot.menu.slice(1, 3));
    assert.deepEqual(r.w.snapshot.menuWindow, { offset: 1, limit: 2, total: r.full.snapshot.menu.length });
    assert.equal(r.w.snapshot.genericsWindow.total, visible);
    assert.deepEqual(r.none.snapshot.menu, []);
    assert.equal(r.none.snapshot.menuWindow.total, 0);
    assert.deepEqual(r.bad, ["BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST"]);
    assert.equal(r.mismatch, "PAGE_MISMATCH", "payload checks come after the latch");
  }));

test("a windowed snapshot carries only the islands its window concerns, and islandsTotal; the full one all of them", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      // Two more islands whose slots are all found, next to the seed's pager (a slot not found).
      document.body.insertAdjacentHTML("beforeend", `
        <div data-e2e-kind="island" data-e2e-id="tabs"><button aria-label="News">N</button></div>
        <div data-e2e-kind="island" data-e2e-id="filters"><button aria-label="Only open">O</button></div>`);
      const p = window.P.installPlayable({
        islandSlots: {
          "list-pagination": { next: { ariaLabel: "Next page" }, gone: { ariaLabel: "Nope" } },
          tabs: { news: { ariaLabel: "News" } },
          filters: { open: { ariaLabel: "Only open" } },
        },
      });
      let n = 0;
      const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: "w" + ++n, cmd, payload });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const ids = (up) => up.payload.snapshot.islands.map((i) => i.id);
      const full = await send("snapshot");
      const news = await send("snapshot", { query: "news" });
      const save = await send("snapshot", { query: "save current" });
      const none = await send("snapshot", { limit: 0 });
      return {
        full: ids(full),
        fullKeys: Object.keys(full.payload.snapshot),
        news: ids(news),
        newsTotal: news.payload.snapshot.islandsTotal,
        newsTabs: news.payload.snapshot.islands[1],
        save: ids(save),
        none: ids(none),
        noneTotal: none.payload.snapshot.islandsTotal,
        escapes: [full.payload.escapes, none.payload.escapes],
      };
    });
    assert.deepEqual(r.full, ["list-pagination", "tabs", "filters"]);
    assert.deepEqual(r.fullKeys, ["pageTitle", "menu", "islands", "generics", "dirty", "noReload"], "no window fields without query/offset/limit");
    // "tabs" for its slot in the window; the pager for its slot not found (no row tells it).
    assert.deepEqual(r.news, ["list-pagination", "tabs"]);
    assert.deepEqual(r.newsTabs, { id: "tabs", slots: [{ name: "news", id: "tabs:news", resolved: true }] });
    assert.equal(r.newsTotal, 3);
    assert.deepEqual(r.save, ["list-pagination"]);
    assert.deepEqual(r.none, ["list-pagination"]);
    assert.equal(r.noneTotal, 3);
    assert.deepEqual(r.escapes[1], r.escapes[0], "escapes judged on the whole page");
  }));

test("run clicks exactly once, on the declared element and on an island slot", () =>
  withPage(async (page) => {
    const r = await inPage(page, async (p, send) => {
      const a = await send("run", { id: "btn-save" });
      const b = await send("run", { id: "list-pagination:next" });
      return { a, b, clicks: window.__clicks, mutations: window.__mutations };
    });
    assert.deepEqual(r.a.payload, { id: "btn-save" });
    assert.deepEqual(r.b.payload, { id: "list-pagination:next" });
    assert.deepEqual(r.clicks, ["btn-save", "Next page"]);
  }));

test("run refusals: each code, zero clicks, zero DOM mutations, phase unchanged", () =>
  withPage(async (page) => {
    const r = await inPage(page, async (p, send) => {
      const out = {};
      const mutationsBefore = window.__mutations;
      for (const id of ["", "g0", "g1", "nope", "btn-dup", "btn-off", "btn-aria", "btn-fieldset", "btn-inert", "btn-hidden", "btn-none", "btn-invisible", "btn-zero", "btn-hover", "list-pagination:gone"]) {
        const up = await send("run", { id });
        out[id] = up.ok ? "OK" : up.error.code;
      }
      await new Promise((r) => setTimeout(r, 0));
      return { out, clicks: window.__clicks, mutations: window.__mutations - mutationsBefore, phase: p.phase };
    });
    assert.deepEqual(r.out, {
      "": "NOT_IN_MENU", g0: "NOT_IN_MENU", g1: "NOT_IN_MENU", nope: "NOT_IN_MENU", "btn-dup": "AMBIGUOUS",
      "btn-off": "NOT_ACTIONABLE", "btn-aria": "NOT_ACTIONABLE", "btn-fieldset": "NOT_ACTIONABLE", "btn-inert": "NOT_ACTIONABLE",
      "btn-hidden": "NOT_ACTIONABLE", "btn-none": "NOT_ACTIONABLE", "btn-invisible": "NOT_ACTIONABLE", "btn-zero": "NOT_ACTIONABLE",
      "btn-hover": "UNSUPPORTED_EVENT", "list-pagination:gone": "NOT_IN_MENU",
    });
    assert.deepEqual(r.clicks, []);
    assert.equal(r.mutations, 0);
    assert.equal(r.phase, "live");
  }));

test("the menu is read fresh at run time, never cached", () =>
  withPage(async (page) => {
    const r = await inPage(page, async (p, send) => {
      await send("snapshot");
      document.querySelector('[data-e2e-id="btn-save"]').remove();
      const gone = await send("run", { id: "btn-save" });
      const b = document.createElement("button");
      b.dataset.e2eKind = "playable";
      b.dataset.e2eId = "late";
      b.textContent = "Late";
      document.body.append(b);
      const late = await send("run", { id: "late" });
      return { gone: gone.error?.code, late: late.ok, clicks: window.__clicks };
    });
    assert.deepEqual(r, { gone: "NOT_IN_MENU", late: true, clicks: ["late"] });
  }));

test("check order: shape, cmd, phase, latch, command-specific", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const h = (d) => p.handle(d).then((u) => (u.ok ? "OK" : u.error.code));
      const out = [];
      out.push(await h({ requestId: "a", cmd: 5, payload: {} }));
      out.push(await h({ requestId: "a", cmd: "fly", payload: {} }));
      out.push(await h({ pageId: "x", requestId: "a", cmd: "run", payload: { id: 5 } }));
      const id = (await p.handle({ pageId: null, requestId: "a", cmd: "hello", payload: {} })).payload.pageId;
      out.push(await h({ pageId: "x", requestId: "a", cmd: "run", payload: { id: 5 } }));
      out.push(await h({ pageId: id, requestId: "a", cmd: "run", payload: { id: 5 } }));
      out.push(await h({ pageId: id, requestId: "a", cmd: "fly", payload: {} }));
      out.push(await h({ pageId: null, requestId: "a", cmd: "snapshot", payload: {} }));
      out.push(await h({ pageId: id, requestId: "a", cmd: "snapshot", payload: { screenshot: 1 } }));
      return out;
    });
    assert.deepEqual(r, ["BAD_REQUEST", "UNKNOWN_CMD", "NOT_LIVE", "PAGE_MISMATCH", "BAD_REQUEST", "UNKNOWN_CMD", "PAGE_MISMATCH", "BAD_REQUEST"]);
  }));

test("hostile inputs never throw or reject and each gets a well-formed uplink", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const cyclic = { requestId: "c", cmd: "hello", payload: {} };
      cyclic.payload.self = cyclic;
      let deep = {};
      for (let i = 0; i < 10000; i++) deep = { d: deep };
      const evil = { requestId: "e", cmd: "hello" };
      Object.defineProperty(evil, "payload", { get() { throw new Error("gotcha"); }, enumerable: true });
      const proto = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}, "requestId": "pp", "cmd": "hello", "payload": {"__proto__": {"a": 1}}}');
      const inputs = [
        null, undefined, 0, 42, NaN, "hello", [], [1, 2], true, () => 1, Symbol("s"), 10n,
        { requestId: "x".repeat(2 * 1024 * 1024), cmd: "hello", payload: {} },
        { requestId: 10n, cmd: "hello", payload: {} },
        { requestId: "b", cmd: "hello", payload: { n: 10n } },
        { requestId: "f", cmd: "hello", payload: { f() {} } },
        { requestId: "fp", cmd: "hello", payload: () => 1 },
        cyclic,
        { requestId: "deep", cmd: "hello", payload: deep },
        evil,
        proto,
        new Proxy({}, { get() { throw new Error("proxy"); }, ownKeys() { throw new Error("proxy"); } }),
        { requestId: "s", cmd: "hello", payload: { big: "y".repeat(3 * 1024 * 1024) } },
      ];
      const out = [];
      for (const input of inputs) {
        try {
          const up = await p.handle(input);
          out.push({ ok: up.ok, code: up.ok ? null : up.error.code, requestId: up.requestId, hasMsg: up.ok || typeof up.error.message === "string", pageIdNull: up.pageId === null || typeof up.pageId === "string" });
        } catch (e) {
          out.push({ threw: String(e) });
        }
      }
      const after = await p.handle({ pageId: null, requestId: "z", cmd: "hello", payload: {} });
      return { out, polluted: ({}).polluted, afterOk: after.ok, phase: p.phase };
    });
    const codes = r.out.map((o) => o.code ?? (o.ok ? "OK" : o.threw));
    assert.deepEqual(codes, [
      "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST",
      "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST",
      "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST",
      "OK", "BAD_REQUEST", "BAD_REQUEST",
    ]);
    assert.ok(r.out.every((o) => o.hasMsg && o.pageIdNull));
    assert.equal(r.out[12].requestId, "", "an unusable 2 MB requestId is not echoed");
    assert.equal(r.out[14].requestId, "b", "a usable requestId is echoed even when the payload is not JSON");
    assert.equal(r.out[20].requestId, "pp");
    assert.equal(r.polluted, undefined);
    assert.equal(r.afterOk, true, "the instance still works after every hostile input");
  }));

test("the instance cannot be freed: free() and Symbol.dispose do nothing, a later install's object still answers, and handle works detached from it", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const outcome = async (f) => { try { const up = await f(); return up.ok ? "ok" : up.error.code; } catch (e) { return "threw: " + e.message; } };
      p.free(); // wasm-bindgen's own method on every exported class
      if (Symbol.dispose) p[Symbol.dispose]();
      // The glue's pointer to the Rust half, as a page script might write it.
      const writes = [Reflect.set(p, "__wbg_ptr", 0), Reflect.defineProperty(p, "__wbg_ptr", { value: 0 })];
      const hidden = [Object.keys(p).includes("__wbg_ptr"), JSON.stringify(p).includes("__wbg_ptr")];
      const again = window.P.installPlayable();
      const hello = await outcome(() => again.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} }));
      const { handle } = again; // passed around as a function, without its object
      const detached = await outcome(() => handle({ pageId: again.pageId, requestId: "s", cmd: "snapshot", payload: {} }));
      const mapped = await Promise.all([null, { pageId: null, requestId: "m", cmd: "hello", payload: {} }].map(again.handle));
      return { same: again === p, writes, hidden, hello, detached, mapped: mapped.map((u) => (u.ok ? "ok" : u.error.code)), phase: again.phase, pageId: typeof again.pageId };
    });
    assert.deepEqual(r, { same: true, writes: [false, false], hidden: [false, false], hello: "ok", detached: "ok", mapped: ["BAD_REQUEST", "ok"], phase: "live", pageId: "string" });
  }));

test("attachWindowBridge and publishWebMcp work detached from the instance, as handle does (destructured, or called on undefined)", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      const { attachWindowBridge, publishWebMcp } = p;
      const outcome = (f) => { try { const v = f(); return v === undefined ? "ok" : typeof v.stop === "function" ? "publication" : String(v); } catch (e) { return "threw: " + e.message; } };
      const attached = [outcome(() => attachWindowBridge()), outcome(() => p.attachWindowBridge.call(undefined))];
      const published = [outcome(() => publishWebMcp()), outcome(() => p.publishWebMcp.call(undefined))];
      const { stop } = p.publishWebMcp();
      const stopped = outcome(() => stop());
      // The bridge the detached call attached answers.
      const reply = new Promise((resolve) => window.addEventListener("message", (e) => { if (e.data && e.data.dir === "up") resolve(e.data.envelope.ok); }));
      window.postMessage({ channel: "in-page-playable", dir: "down", seq: 1, envelope: { pageId: null, requestId: "b", cmd: "hello", payload: {} } }, location.origin);
      const ok = await Promise.race([reply, new Promise((resolve) => setTimeout(() => resolve("no reply"), 3000))]);
      return { attached, published, stopped, ok };
    });
    assert.deepEqual(r, { attached: ["ok", "ok"], published: ["publication", "publication"], stopped: "ok", ok: true });
  }));

test("the envelope is read when handle is called: changing or reusing the object afterwards changes nothing", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      // One object reused for three requests, as a client loop might.
      const env = { pageId: null, requestId: "x", cmd: "hello", payload: {} };
      const hellos = [];
      for (let i = 0; i < 3; i++) {
        env.requestId = "reuse-" + i;
        hellos.push(p.handle(env));
      }
      const ids = (await Promise.all(hellos)).map((u) => u.requestId);
      // A run whose id is changed to a disabled item right after the call still runs what was asked.
      const run = { pageId: p.pageId, requestId: "run", cmd: "run", payload: { id: "btn-save" } };
      const pending = p.handle(run);
      run.requestId = "changed";
      run.payload.id = "btn-off";
      const up = await pending;
      return { ids, run: [up.requestId, up.ok, up.payload], clicks: window.__clicks };
    });
    assert.deepEqual(r.ids, ["reuse-0", "reuse-1", "reuse-2"]);
    assert.deepEqual(r.run, ["run", true, { id: "btn-save" }]);
    assert.deepEqual(r.clicks, ["btn-save"]);
  }));

test("an envelope too long to copy (over 8 Mi characters of JSON) still echoes its usable requestId", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const big = "y".repeat(9 * 1024 * 1024);
      const send = (requestId) => p.handle({ pageId: null, requestId, cmd: "hello", payload: { big } });
      const [usable, unusable] = [await send("r9"), await send("x".repeat(129))];
      return { usable, unusable: unusable.requestId, phase: p.phase };
    });
    assert.equal(r.usable.ok, false);
    assert.equal(r.usable.error.code, "BAD_REQUEST");
    assert.match(r.usable.error.message, /more than the bounds allow/);
    assert.equal(r.usable.requestId, "r9");
    assert.equal(r.unusable, "");
    assert.equal(r.phase, "installed", "a refusal changes no phase");
  }));

test("a usable requestId is echoed whatever its sibling fields hold (cyclic, a throwing getter, megabytes), through handle and the window bridge", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      const cyc = {};
      cyc.self = cyc;
      const throwing = { requestId: "gp", cmd: "hello", payload: {} };
      Object.defineProperty(throwing, "pageId", { get() { throw new Error("boom"); }, enumerable: true });
      const downs = [
        { pageId: cyc, requestId: "pc", cmd: "hello", payload: {} },
        { pageId: null, requestId: "cc", cmd: cyc, payload: {} },
        throwing,
        { pageId: "a".repeat(9e6), requestId: "p9", cmd: "hello", payload: {} },
        { pageId: cyc, requestId: "x".repeat(129), cmd: "hello", payload: {} },
        { pageId: cyc, requestId: "\ud800", cmd: "hello", payload: {} },
      ];
      const direct = [];
      for (const d of downs) {
        const up = await p.handle(d);
        direct.push([up.requestId, up.error && up.error.code]);
      }
      const bridged = [];
      window.addEventListener("message", (e) => {
        if (e.data && e.data.dir === "up") bridged.push([e.data.seq, e.data.envelope.requestId, e.data.envelope.error && e.data.envelope.error.code]);
      });
      p.attachWindowBridge();
      window.postMessage({ channel: "in-page-playable", dir: "down", seq: 1, envelope: downs[0] }, location.origin);
      window.postMessage({ channel: "in-page-playable", dir: "down", seq: 2, envelope: downs[1] }, location.origin);
      for (let i = 0; i < 50 && bridged.length < 2; i++) await new Promise((res) => setTimeout(res, 20));
      return { direct, bridged, phase: p.phase };
    });
    assert.deepEqual(r.direct, [
      ["pc", "BAD_REQUEST"], ["cc", "BAD_REQUEST"], ["gp", "BAD_REQUEST"], ["p9", "BAD_REQUEST"],
      ["", "BAD_REQUEST"], ["", "BAD_REQUEST"],
    ], "an unusable one (129 characters, a lone surrogate) is still not echoed");
    assert.deepEqual(r.bridged, [[1, "pc", "BAD_REQUEST"], [2, "cc", "BAD_REQUEST"]]);
    assert.equal(r.phase, "installed", "refusals change no phase");
  }));

test("a page that replaced Array.prototype.forEach, slice or push, or put throwing setters on Object.prototype: every request is answered in full, a screenshot included", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable({ captureScreenshot: () => "shot" });
      const undo = [];
      const replace = (obj, key, d) => {
        const old = Object.getOwnPropertyDescriptor(obj, key);
        Object.defineProperty(obj, key, { ...d, configurable: true });
        undo.unshift(() => (old ? Object.defineProperty(obj, key, old) : delete obj[key]));
      };
      const answers = [];
      const add = (a) => { answers[answers.length] = a; }; // (push is replaced for a while)
      const outcome = async (down) => {
        try {
          const ST = window.__timeout;
          const up = await Promise.race([p.handle(down), new Promise((res) => ST(() => res(null), 2000))]);
          return up === null ? "never settled" : up.ok ? "ok" : up.error.code + " " + up.error.message;
        } catch (e) {
          return "rejected: " + e.message;
        }
      };
      window.__timeout = setTimeout;
      const hello = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const pageId = hello.payload.pageId;
      try {
        const breaks = (m) => ({ value() { throw new Error(m); }, writable: true });
        replace(Array.prototype, "push", breaks("push"));
        add(await outcome({ pageId: null, requestId: "h1", cmd: "hello", payload: {} }));
        undo.shift()(); // (the menu's read itself, and the page's click handler, push)
        for (const m of ["forEach", "slice"]) replace(Array.prototype, m, breaks(m));
        for (const k of ["pageId", "requestId", "cmd", "payload", "screenshot"]) {
          replace(Object.prototype, k, { set() { throw new Error("set " + k); }, get() { return undefined; } });
        }
        add(await outcome({ pageId: null, requestId: "h2", cmd: "hello", payload: {} }));
        add(await outcome({ pageId, requestId: "r", cmd: "run", payload: { id: "btn-save" } }));
        add(await outcome(null));
        // The screenshot is attached after the uplink is built: the setter must not catch it.
        const shot = await Promise.race([p.handle({ pageId, requestId: "s", cmd: "snapshot", payload: { screenshot: true } }), new Promise((res) => window.__timeout(() => res(null), 2000))]);
        add(shot === null ? "never settled" : shot.ok ? Object.getOwnPropertyDescriptor(shot.payload.snapshot, "screenshot").value : shot.error.code);
      } finally {
        for (const u of undo) u();
      }
      return { answers, clicks: window.__clicks };
    });
    assert.deepEqual(r.answers, ["ok", "ok", "ok", "BAD_REQUEST the envelope must be an object, got null", "shot"]);
    assert.deepEqual(r.clicks, ["btn-save"]);
  }));

test("what JSON cannot hold as itself is BAD_REQUEST naming its key: a String, Number or Boolean object, or an object with toJSON (a Date); nothing runs", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable({ captureScreenshot: () => "shot" });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const pageId = p.pageId;
      const downs = [
        { pageId, requestId: "b1", cmd: "run", payload: { id: new String("btn-save") } },
        { pageId, requestId: new String("b2"), cmd: "hello", payload: {} },
        { pageId, requestId: "b3", cmd: new String("hello"), payload: {} },
        { pageId: new String(pageId), requestId: "b4", cmd: "snapshot", payload: {} },
        { pageId, requestId: "b5", cmd: "snapshot", payload: { screenshot: new Boolean(false) } },
        { pageId, requestId: "b6", cmd: "run", payload: { id: "btn-save", value: new Number(1) } },
        { pageId, requestId: "b7", cmd: "run", payload: { toJSON: () => ({ id: "btn-save" }) } },
        { pageId, requestId: "b8", cmd: "hello", payload: new Date(0) },
      ];
      const out = [];
      for (const d of downs) {
        const up = await p.handle(d);
        out.push([up.requestId, up.ok ? "ok" : up.error.code, up.ok ? "" : up.error.message]);
      }
      // The envelope's own toJSON is no envelope field: never read, never called.
      let called = false;
      const own = await p.handle({ pageId, requestId: "e", cmd: "hello", payload: {}, toJSON() { called = true; return {}; } });
      return { out, own: [own.ok, called], clicks: window.__clicks };
    });
    const why = (key, what) => `the envelope must be plain JSON: the value at key "${key}" is ${what}, which JSON cannot hold`;
    assert.deepEqual(r.out, [
      ["b1", "BAD_REQUEST", why("id", "a String object")],
      ["", "BAD_REQUEST", why("requestId", "a String object")],
      ["b3", "BAD_REQUEST", why("cmd", "a String object")],
      ["b4", "BAD_REQUEST", why("pageId", "a String object")],
      ["b5", "BAD_REQUEST", why("screenshot", "a Boolean object")],
      ["b6", "BAD_REQUEST", why("value", "a Number object")],
      ["b7", "BAD_REQUEST", why("payload", "an object with a toJSON method")],
      ["b8", "BAD_REQUEST", why("payload", "an object with a toJSON method")],
    ]);
    assert.deepEqual(r.own, [true, false]);
    assert.deepEqual(r.clicks, [], "nothing clicked");
  }));

test("a Map, Set, WeakMap or WeakSet in a downlink (JSON writes {} whatever it holds) is BAD_REQUEST naming its key, as Surface refuses it in input; nothing runs", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable({ captureScreenshot: () => "shot" });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const pageId = p.pageId;
      const downs = [
        { pageId, requestId: "m1", cmd: "hello", payload: new Map([["x", 1]]) },
        { pageId, requestId: "m2", cmd: "snapshot", payload: new Map() },
        { pageId, requestId: "m3", cmd: "run", payload: { id: "btn-save", value: new Set(["a"]) } },
        { pageId, requestId: "m4", cmd: "hello", payload: { x: new WeakMap() } },
        { pageId, requestId: "m5", cmd: "hello", payload: { x: [new WeakSet()] } },
      ];
      const out = [];
      for (const d of downs) {
        const up = await p.handle(d);
        out.push([up.requestId, up.ok ? "ok" : up.error.code, up.ok ? "" : up.error.message]);
      }
      return { out, clicks: window.__clicks };
    });
    const why = (key, what) => `the envelope must be plain JSON: the value at key "${key}" is ${what}, which JSON cannot hold`;
    assert.deepEqual(r.out, [
      ["m1", "BAD_REQUEST", why("payload", "a Map object")],
      ["m2", "BAD_REQUEST", why("payload", "a Map object")],
      ["m3", "BAD_REQUEST", why("value", "a Set object")],
      ["m4", "BAD_REQUEST", why("x", "a WeakMap object")],
      ["m5", "BAD_REQUEST", why("0", "a WeakSet object")],
    ]);
    assert.deepEqual(r.clicks, [], "nothing clicked");
  }));

test("requests are handled one at a time in arrival order", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const log = [];
      const p = window.P.installPlayable({
        ports: {
          bot: {
            click: (t) => new Promise((res) => setTimeout(() => { log.push("click " + t.dataset.e2eId); res(true); }, 30)),
          },
        },
      });
      const send = (requestId, cmd, payload) => p.handle({ pageId: p.pageId, requestId, cmd, payload }).then((u) => { log.push("done " + requestId); return u; });
      await send("h", "hello", {});
      await Promise.all([send("1", "run", { id: "btn-save" }), send("2", "snapshot", {}), send("3", "run", { id: "list-pagination:next" })]);
      return log;
    });
    assert.deepEqual(r, ["done h", "click btn-save", "done 1", "done 2", "done 3"]);
  }));

test("escape: only reload, refused while dirty or noreload, retires on bom retired:true", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const runs = [];
      let answer = { ok: false, retired: false };
      const p = window.P.installPlayable({ ports: { bom: { run: async (a) => (runs.push(a), answer) } } });
      const send = (cmd, payload) => p.handle({ pageId: p.pageId, requestId: "r", cmd, payload }).then((u) => (u.ok ? u.payload : u.error.code));
      const out = {};
      await send("hello", {});
      out.back = await send("escape", { type: "back" });
      const note = document.getElementById("note");
      note.setAttribute("data-e2e-dirty", "true");
      out.dirty = await send("escape", { type: "reload" });
      note.removeAttribute("data-e2e-dirty");
      document.body.setAttribute("data-e2e-noreload", "");
      out.noreload = await send("escape", { type: "reload" });
      document.body.removeAttribute("data-e2e-noreload");
      out.runsBefore = runs.length;
      out.failed = await send("escape", { type: "reload" });
      out.phaseAfterFail = p.phase;
      answer = { ok: true, retired: true };
      out.ok = await send("escape", { type: "reload" });
      out.phase = p.phase;
      out.after = ["hello", "snapshot", "run", "escape"].map(() => null);
      for (const [i, cmd] of ["hello", "snapshot", "run", "escape"].entries()) out.after[i] = await send(cmd, { id: "btn-save", type: "reload" });
      out.runs = runs;
      out.clicks = window.__clicks;
      return out;
    });
    assert.equal(r.back, "ESCAPE_NOT_ALLOWED");
    assert.equal(r.dirty, "ESCAPE_NOT_ALLOWED");
    assert.equal(r.noreload, "ESCAPE_NOT_ALLOWED");
    assert.equal(r.runsBefore, 0, "refusals never reach bom");
    assert.equal(r.failed, "DISPATCH_FAILED");
    assert.equal(r.phaseAfterFail, "live", "no fake retirement");
    assert.deepEqual(r.ok, { type: "reload", retired: true });
    assert.equal(r.phase, "retired");
    assert.deepEqual(r.after, ["RETIRED", "RETIRED", "RETIRED", "RETIRED"]);
    assert.deepEqual(r.runs, [{ type: "reload" }, { type: "reload" }]);
    assert.deepEqual(r.clicks, []);
  }));

test("escape: a bom answer of retired: true retires whatever its ok says; ok: true alone does not", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const phases = {};
      for (const [name, answer] of Object.entries({ okOnly: { ok: true, retired: false }, retiredOnly: { retired: true }, both: { ok: false, retired: true } })) {
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable({ ports: { bom: { run: () => answer } } });
        const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const u = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
        phases[name] = [u.ok ? u.payload : u.error.code, p.phase];
      }
      return phases;
    });
    assert.deepEqual(r.okOnly, ["DISPATCH_FAILED", "live"]);
    assert.deepEqual(r.retiredOnly, [{ type: "reload", retired: true }, "retired"]);
    assert.deepEqual(r.both, [{ type: "reload", retired: true }, "retired"]);
  }));

test("a real reload escape reloads the document; the new document starts fresh", () =>
  withPage(async (page) => {
    const before = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      window.__old = true;
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      return { pageId: h.payload.pageId, e, phase: p.phase };
    });
    assert.deepEqual(before.e.payload, { type: "reload", retired: true });
    assert.equal(before.phase, "retired");
    await page.waitForFunction(() => !window.__old && document.readyState === "complete");
    const after = await page.evaluate(async () => {
      const P = await import("/www/index.js");
      const p = P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      return { phase: p.phase, pageId: h.payload.pageId };
    });
    assert.equal(after.phase, "live");
    assert.notEqual(after.pageId, before.pageId);
  }));

test("a reload escape while the page fakes its timers still reloads: the reload is scheduled with the timers the module loaded with", () =>
  withPage(async (page) => {
    const before = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      window.__old = true;
      const { setTimeout: real, MessageChannel: Channel } = window;
      window.setTimeout = () => 0; // a page's fake timers (a test clock), during the escape
      window.MessageChannel = function () { return { port1: {}, port2: { postMessage() {} } }; };
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      window.setTimeout = real;
      window.MessageChannel = Channel;
      return e.payload;
    });
    assert.deepEqual(before, { type: "reload", retired: true });
    await page.waitForFunction(() => !window.__old && document.readyState === "complete", null, { timeout: 5000 });
  }));

/**
 * After bom::STAYED_AFTER_MS (and a margin), the same document (window.__same)
 * holds an instance that is live again with `pageId`: the instance the page
 * kept (window.__p), else the window's one.
 */
async function assertLiveAfterStay(page, pageId) {
  await new Promise((r) => setTimeout(r, 10_500));
  const after = await page.evaluate(async () => {
    const p = window.__p || window.P.installPlayable();
    const h = await p.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
    return { same: window.__same === true, phase: p.phase, pageId: h.payload && h.payload.pageId, code: h.ok ? "ok" : h.error.code };
  });
  assert.deepEqual(after, { same: true, phase: "live", pageId, code: "ok" });
}

test("a reload escape whose reload never gets tried (a copy of the package loaded under fake timers) is undone 10 s after it was scheduled: live again, same pageId", () =>
  withPage(async (page) => {
    const before = await page.evaluate(async () => {
      window.setTimeout = () => 0; // fake timers installed before the package loaded
      const P = await import("/www/pkg/in_page_playable.js?under-fake-timers");
      const p = P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      window.__same = true;
      window.__p = p;
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      return { pageId: h.payload.pageId, e: e.payload, phase: p.phase };
    });
    assert.deepEqual(before.e, { type: "reload", retired: true });
    assert.equal(before.phase, "retired");
    await assertLiveAfterStay(page, before.pageId);
  }));

test("unsaved work that appears after the escape was allowed, before the reload starts, stops the reload: the instance is live again at once, same pageId", () =>
  withPage(async (page) => {
    for (const spoil of ["dirty", "noreload"]) {
      const r = await page.evaluate(async (spoil) => {
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable();
        const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        window.__same = true;
        const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
        // A keystroke lands right after the check (the same task the answer resolved in).
        const t = document.createElement("textarea");
        t.value = "unsaved";
        if (spoil === "dirty") t.dataset.e2eDirty = "true";
        else t.setAttribute("data-e2e-noreload", "");
        document.body.append(t);
        const retired = p.phase;
        for (let i = 0; i < 100 && p.phase !== "live"; i++) await new Promise((res) => setTimeout(res, 20));
        await new Promise((res) => setTimeout(res, 300)); // a reload, if any, would be on its way
        const again = await p.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
        const out = { e: e.payload, retired, phase: p.phase, same: window.__same === true, kept: t.isConnected, pageId: again.payload && again.payload.pageId === h.payload.pageId };
        t.remove();
        return out;
      }, spoil);
      assert.deepEqual(r, { e: { type: "reload", retired: true }, retired: "retired", phase: "live", same: true, kept: true, pageId: true }, spoil);
    }
  }));

test("a reload the page cancels (beforeunload, the person stays) does not retire the instance for good: once the document is plainly still here it is live again, same pageId", () =>
  withPage(async (page) => {
    const dialogs = [];
    page.on("dialog", (d) => { dialogs.push(d.type()); d.dismiss(); }); // dismiss: stay on the page
    await page.evaluate(() => {
      window.addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = ""; });
      window.__same = true;
    });
    await page.mouse.click(5, 5); // the user activation a beforeunload dialog needs
    const before = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      return { pageId: h.payload.pageId, e: e.payload, phase: p.phase };
    });
    assert.deepEqual(before.e, { type: "reload", retired: true });
    assert.equal(before.phase, "retired");
    await assertLiveAfterStay(page, before.pageId);
    assert.deepEqual(dialogs, ["beforeunload"], "the page asked, and its person stayed");
  }));

test("injected ports: sense, bot, DISPATCH_FAILED, INTERNAL", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const clicked = [];
      let fail = false;
      const snapshot = { pageTitle: "fake", menu: [{ id: "a", event: "click", title: "A", desc: "", enabled: true, visible: true }], islands: [], generics: [], dirty: [], noReload: false };
      let broken = false;
      const p = window.P.installPlayable({
        ports: {
          sense: { snapshot: () => { if (broken) throw new Error("sense down"); return snapshot; }, resolve: (id) => ({ fake: id }) },
          bot: { click: (t) => { if (fail) return { ok: false }; clicked.push(t.fake); } },
        },
      });
      const send = (cmd, payload) => p.handle({ pageId: p.pageId, requestId: "r", cmd, payload });
      await send("hello", {});
      const snap = await send("snapshot", {});
      const ok = await send("run", { id: "a" });
      fail = true;
      const failed = await send("run", { id: "a" });
      broken = true;
      const internal = await send("snapshot", {});
      return { title: snap.payload.snapshot.pageTitle, ok: ok.ok, failed: failed.error.code, internal: internal.error.code, msg: internal.error.message, clicked, domClicks: window.__clicks };
    });
    assert.deepEqual(r.clicked, ["a"]);
    assert.equal(r.title, "fake");
    assert.equal(r.ok, true);
    assert.equal(r.failed, "DISPATCH_FAILED");
    assert.equal(r.internal, "INTERNAL");
    assert.match(r.msg, /sense down/);
    assert.deepEqual(r.domClicks, []);
  }));

test("a page that replaces String.prototype.toLowerCase with a throwing function: a snapshot query still folds case, and the instance keeps answering", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const lower = String.prototype.toLowerCase;
      const p = window.P.installPlayable();
      const hello = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const pageId = hello.payload.pageId;
      const ask = (query) => Promise.race([
        p.handle({ pageId, requestId: "s", cmd: "snapshot", payload: { query } }),
        new Promise((resolve) => setTimeout(() => resolve("no answer"), 3000)),
      ]);
      String.prototype.toLowerCase = () => { throw new Error("hostile"); };
      let during, after;
      try {
        during = await ask("SAVE");
      } finally {
        String.prototype.toLowerCase = lower;
      }
      after = await ask("save");
      const ids = (up) => (up && up.ok ? up.payload.snapshot.menu.map((m) => m.id) : up);
      return { during: ids(during), after: ids(after) };
    });
    assert.ok(Array.isArray(r.during) && r.during.includes("btn-save"), JSON.stringify(r.during));
    assert.deepEqual(r.after, r.during, "the same instance answers the same afterwards");
  }));

test("a page that replaces JSON.parse and JSON.stringify after import: hello, snapshot, run and deriveEscapes answer in full, and an injected sense port's snapshot still crosses", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const { parse, stringify } = JSON;
      JSON.parse = () => { throw new Error("no parse"); };
      JSON.stringify = () => { throw new Error("no stringify"); };
      try {
        const p = window.P.installPlayable();
        const hello = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const pageId = hello && hello.payload && hello.payload.pageId;
        const snap = await p.handle({ pageId, requestId: "s", cmd: "snapshot", payload: {} });
        const run = await p.handle({ pageId, requestId: "r", cmd: "run", payload: { id: "btn-save" } });
        let escapes;
        try { escapes = window.P.deriveEscapes({ dirty: [], noReload: false }); } catch (e) { escapes = e.message; }
        window.P.resetPlayableForTests();
        const fake = { pageTitle: "fake", menu: [{ id: "a", event: "click", title: "A", desc: "", enabled: true, visible: true }], islands: [], generics: [], dirty: [], noReload: false };
        const ported = window.P.installPlayable({ ports: { sense: { snapshot: () => fake, resolve: (id) => ({ id }) }, bot: { click: () => {} } } });
        const portHello = await ported.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
        const portSnap = await ported.handle({ pageId: portHello && portHello.payload && portHello.payload.pageId, requestId: "s2", cmd: "snapshot", payload: {} });
        return { hello, snap, run, escapes, portSnap, clicks: window.__clicks.length };
      } finally {
        JSON.parse = parse;
        JSON.stringify = stringify;
      }
    });
    assert.equal(r.hello.ok, true, "hello is a well-formed uplink, not null");
    assert.equal(r.hello.requestId, "h");
    assert.match(r.hello.payload.pageId, /^[0-9a-f]{32}$/);
    assert.equal(r.snap.ok, true);
    assert.equal(r.snap.payload.snapshot.pageTitle, "ready-list");
    assert.equal(r.run.ok, true);
    assert.deepEqual(r.run.payload, { id: "btn-save" });
    assert.equal(r.clicks, 1);
    assert.deepEqual(r.escapes, [{ type: "reload", allowed: true }]);
    assert.equal(r.portSnap.ok, true, JSON.stringify(r.portSnap));
    assert.equal(r.portSnap.payload.snapshot.pageTitle, "fake");
  }));

test("injected ports: { ok: false } is a failure whatever else the answer holds (an element, a function, a value nested too deep to clone)", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const deep = (n) => JSON.parse('{"a":'.repeat(n) + "1" + "}".repeat(n));
      const run = async (ports, cmd, payload) => {
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable({ ports });
        await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd, payload });
        const out = up.ok ? "ok" : up.error.code;
        window.P.resetPlayableForTests();
        return out;
      };
      const click = (answer) => run({ bot: { click: () => answer } }, "run", { id: "btn-save" });
      const reload = (answer) => run({ bom: { run: () => answer } }, "escape", { type: "reload" });
      return {
        element: await click({ ok: false, target: document.body }),
        fn: await click({ ok: false, retry() {} }),
        deep: await click({ ok: false, why: deep(3000) }),
        okElement: await click({ ok: true, target: document.body }),
        retiredWithMethod: await reload({ ok: true, retired: true, toString() { return "done"; } }),
        retiredDeep: await reload({ ok: true, retired: true, log: deep(3000) }),
        failedDeep: await reload({ ok: false, retired: false, log: deep(3000) }),
        clicks: window.__clicks,
      };
    });
    assert.deepEqual(r, {
      element: "DISPATCH_FAILED", fn: "DISPATCH_FAILED", deep: "DISPATCH_FAILED", okElement: "ok",
      retiredWithMethod: "ok", retiredDeep: "ok", failedDeep: "DISPATCH_FAILED", clicks: [],
    });
  }));

test("islandSlots nested deeper than the browser's structured clone copies: a TypeError, not silently no slots", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const deep = JSON.parse('{"a":'.repeat(3000) + "1" + "}".repeat(3000));
      window.P.resetPlayableForTests();
      try { window.P.installPlayable({ islandSlots: { "list-pagination": { next: deep } } }); return "installed"; } catch (e) { return e.name + ": " + e.message; } finally { window.P.resetPlayableForTests(); }
    });
    assert.equal(r, "TypeError: installPlayable: options.islandSlots is not plain data: it is nested too deeply to be copied");
  }));

test("every value the page hands in is bounded before a decoder reads it (32 levels, 10,000 values, 1 MiB of characters): a sense port's answer, deriveEscapes' snapshot, islandSlots, allowedOrigins", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const P = window.P;
      const deep = (n) => JSON.parse('{"a":'.repeat(n) + "1" + "}".repeat(n));
      const snap = async (snapshot) => {
        P.resetPlayableForTests();
        const p = P.installPlayable({ ports: { sense: { snapshot: () => snapshot } } });
        const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const s = await p.handle({ pageId: h.payload.pageId, requestId: "s", cmd: "snapshot", payload: {} });
        P.resetPlayableForTests();
        return s.ok ? "ok " + s.payload.snapshot.menu.length : s.error.code + ": " + s.error.message;
      };
      const install = (options) => {
        P.resetPlayableForTests();
        try { P.installPlayable(options); return "installed"; } catch (e) { return e.name + ": " + e.message; } finally { P.resetPlayableForTests(); }
      };
      const escapes = (s) => { try { return P.deriveEscapes(s)[0].allowed; } catch (e) { return e.message; } };
      const islands = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => ["i" + i, {}]));
      return {
        senseDeep: await snap({ menu: [], extra: deep(40) }),
        senseValues: await snap({ menu: [], extra: new Array(10_000).fill(0) }),
        senseChars: await snap({ menu: [], pageTitle: "t".repeat(2 << 20) }),
        senseWithin: await snap({ menu: [], extra: deep(30), pageTitle: "t".repeat(1000) }),
        escapesValues: escapes({ dirty: new Array(10_000).fill("d") }),
        escapesWithin: escapes({ dirty: new Array(9_998).fill("d") }),
        slotsValues: install({ islandSlots: islands(10_000) }),
        slotsChars: install({ islandSlots: { pager: { next: { ariaLabel: "x".repeat(2 << 20) } } } }),
        slotsDeep: install({ islandSlots: { pager: { next: { ariaLabel: "Next", extra: deep(40) } } } }),
        slotsCycle: install({ islandSlots: (() => { const x = { ariaLabel: "L" }; x.self = x; return { pager: { next: x } }; })() }),
        slotsWithin: install({ islandSlots: islands(9_000) }),
        originsValues: install({ allowedOrigins: new Array(10_000).fill(location.origin) }),
      };
    });
    const bounds = "(bounds: 32 levels, 10000 values, 1048576 string characters)";
    const out = "INTERNAL: reading the menu failed: ports.sense.snapshot() returned a snapshot out of bounds: ";
    assert.equal(r.senseDeep, out + "it nests deeper than 32 levels " + bounds);
    assert.equal(r.senseValues, out + "it has more than 10000 values " + bounds);
    assert.equal(r.senseChars, out + "its strings are longer than 1048576 characters in all " + bounds);
    assert.equal(r.senseWithin, "ok 0");
    assert.equal(r.escapesValues, "expected an ISnapshot ({ dirty: string[], noReload: boolean }): it has more than 10000 values " + bounds);
    assert.equal(r.escapesWithin, false);
    assert.equal(r.slotsValues, "TypeError: installPlayable: options.islandSlots is out of bounds: it has more than 10000 values " + bounds);
    assert.equal(r.slotsChars, "TypeError: installPlayable: options.islandSlots is out of bounds: its strings are longer than 1048576 characters in all " + bounds);
    assert.equal(r.slotsDeep, "TypeError: installPlayable: options.islandSlots is out of bounds: it nests deeper than 32 levels " + bounds);
    assert.match(r.slotsCycle, /^TypeError: installPlayable: options\.islandSlots is not plain data: .*circular/i);
    assert.equal(r.slotsWithin, "installed");
    assert.equal(r.originsValues, "TypeError: installPlayable: options.allowedOrigins is out of bounds: it has more than 10000 values " + bounds);
  }));

test("a target that throws when the bot clicks or reads it (a custom element's own click(), a port's target) gets a refusal, and the next request is answered: nothing hangs", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const settle = (promise) => Promise.race([promise.then((u) => (u.ok ? "ok" : u.error.code + ": " + u.error.message)), new Promise((res) => setTimeout(() => res("no answer within 3 s"), 3000))]);
      const session = async (options, id) => {
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable(options);
        await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const run = await settle(p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id } }));
        const next = await settle(p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} }));
        return [run, next];
      };
      customElements.define("x-throws", class extends HTMLElement { click() { throw new Error("the component broke"); } });
      document.body.insertAdjacentHTML("afterbegin", '<x-throws data-e2e-kind="playable" data-e2e-id="xt" style="display:block;width:80px;height:20px">X</x-throws>');
      // A component that throws a bare string, not an Error.
      customElements.define("x-throws-text", class extends HTMLElement { click() { throw "out of stock"; } });
      document.body.insertAdjacentHTML("afterbegin", '<x-throws-text data-e2e-kind="playable" data-e2e-id="xs" style="display:block;width:80px;height:20px">S</x-throws-text>');
      const snap = { pageTitle: null, menu: [{ id: "x", event: "click", title: "", desc: "", enabled: true, visible: true }], islands: [], generics: [], dirty: [], noReload: false };
      const trap = new Proxy({}, { get() { throw new Error("trap"); } });
      return {
        customClick: await session({}, "xt"),
        textThrow: await session({}, "xs"),
        portTarget: await session({ ports: { sense: { snapshot: () => snap, resolve: () => trap } } }, "x"),
        clicks: window.__clicks.filter((c) => c !== "xt" && c !== "xs"),
      };
    });
    assert.deepEqual(r.customClick, ['DISPATCH_FAILED: "xt": the page threw while dispatching: the component broke', "ok"]);
    assert.deepEqual(r.textThrow, ['DISPATCH_FAILED: "xs": the page threw while dispatching: out of stock', "ok"], "a thrown string is the message");
    assert.deepEqual(r.portTarget, ['NOT_ACTIONABLE: "x": the target is not an element', "ok"]);
    assert.deepEqual(r.clicks, [], "nothing was clicked");
  }));

test("a page whose getBoundingClientRect or elementFromPoint throws (replaced on the prototype) gets a refusal for a run, and the next requests are answered: nothing hangs", async () => {
  // Each case in a page of its own: one request that unwinds leaves the
  // module unable to answer anything after it, on any instance.
  const run = (which) =>
    withPage((page) =>
      page.evaluate(async (which) => {
        const settle = (promise) => Promise.race([promise.then((u) => (u.ok ? "ok" : u.error.code + ": " + u.error.message)), new Promise((res) => setTimeout(() => res("no answer within 3 s"), 3000))]);
        const throwing = (proto, name) => () => {
          const own = Object.getOwnPropertyDescriptor(proto, name);
          Object.defineProperty(proto, name, { ...own, value() { throw new Error("broken " + name); } });
          return () => Object.defineProperty(proto, name, own);
        };
        const box = throwing(Element.prototype, "getBoundingClientRect");
        const hit = throwing(Document.prototype, "elementFromPoint");
        const target = document.querySelector('[data-e2e-id="btn-save"]');
        const snap = { pageTitle: null, menu: [{ id: "x", event: "click", title: "", desc: "", enabled: true, visible: true }], islands: [], generics: [], dirty: [], noReload: false };
        // `sabotage` breaks the page and returns its undo; `during` breaks it
        // only once the run waits its two frames (the reads before it pass).
        const { options = {}, id = "btn-save", sabotage, during = false } = {
          // A sense port's target: the bot's first read (visible) throws.
          boxBeforeWait: { options: { ports: { sense: { snapshot: () => snap, resolve: () => target } } }, id: "x", sabotage: box },
          // The page's own menu: the box read after the wait throws (the
          // snapshot's own read of the box throws too, later).
          boxAfterWait: { sabotage: box, during: true },
          hitTest: { sabotage: hit },
        }[which];
        const p = window.P.installPlayable(options);
        const send = (cmd, payload) => settle(p.handle({ pageId: p.pageId, requestId: cmd, cmd, payload }));
        await send("hello", {});
        let undo;
        if (during) setTimeout(() => (undo = sabotage()), 0);
        else undo = sabotage();
        const out = [await send("run", { id }), await send("hello", {}), await send("snapshot", {})];
        undo();
        return { out, clicks: window.__clicks };
      }, which),
    );
  const refused = (id, what) => `NOT_ACTIONABLE: "${id}": the page threw while reading the element: broken ${what}`;
  const before = await run("boxBeforeWait");
  assert.deepEqual(before, { out: [refused("x", "getBoundingClientRect"), "ok", "ok"], clicks: [] });
  const after = await run("boxAfterWait");
  assert.deepEqual(after.out.slice(0, 2), [refused("btn-save", "getBoundingClientRect"), "ok"]);
  // The snapshot answers too, and says what happened (not "malformed data").
  assert.equal(after.out[2], "INTERNAL: reading the menu failed: sense: the page threw while reading the DOM: broken getBoundingClientRect");
  assert.deepEqual(after.clicks, []);
  assert.deepEqual(await run("hitTest"), { out: [refused("btn-save", "elementFromPoint"), "ok", "ok"], clicks: [] });
});

test("a sense port's snapshot with a lone surrogate: INTERNAL, and the message names the escape", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const snapshot = { pageTitle: "fake", menu: [{ id: "a\ud800", event: "click", title: "A", desc: "", enabled: true, visible: true }] };
      const p = window.P.installPlayable({ ports: { sense: { snapshot: () => snapshot, resolve: () => null } } });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "snapshot", payload: {} });
      return { ok: up.ok, code: up.error && up.error.code, message: up.error && up.error.message, requestId: up.requestId };
    });
    assert.equal(r.ok, false);
    assert.equal(r.code, "INTERNAL");
    assert.equal(r.requestId, "r");
    assert.match(r.message, /ports\.sense\.snapshot\(\) returned no valid ISnapshot: a string holds a lone surrogate \(\\ud800\)/);
  }));

test("screenshot: exactly what captureScreenshot returned, only when asked, absent without one", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const image = { mime: "image/png", width: 1, height: 1, bytesBase64: "iVBORw0KGgo=" };
      let scope = null;
      const p = window.P.installPlayable({ captureScreenshot: async (s) => ((scope = s), image) });
      const send = (payload) => p.handle({ pageId: p.pageId, requestId: "r", cmd: "snapshot", payload });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const asked = await send({ screenshot: true });
      const notAsked = await send({});
      return { shot: asked.payload.snapshot.screenshot, scopeIsDoc: scope === document, notAsked: "screenshot" in notAsked.payload.snapshot };
    });
    assert.deepEqual(r.shot, { mime: "image/png", width: 1, height: 1, bytesBase64: "iVBORw0KGgo=" });
    assert.equal(r.scopeIsDoc, true);
    assert.equal(r.notAsked, false);
    const none = await withPage(async (page) => {
      const up = await page.evaluate(async () => {
        const p = window.P.installPlayable();
        await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        return p.handle({ pageId: p.pageId, requestId: "r", cmd: "snapshot", payload: { screenshot: true } });
      });
      assert.equal(up.ok, true);
      assert.equal("screenshot" in up.payload.snapshot, false);
    });
    void none;
  }));

test("scan root may be an Element or a ShadowRoot", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const host = document.createElement("div");
      document.body.append(host);
      const shadow = host.attachShadow({ mode: "open" });
      shadow.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="in-shadow">S</button>';
      const nav = document.querySelector("nav");
      const results = {};
      for (const [name, root] of [["shadow", shadow], ["element", nav]]) {
        window.P.resetPlayableForTests();
        const p = window.P.installPlayable({ root, islandSlots: { "list-pagination": { next: { ariaLabel: "Next page" } } } });
        await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
        const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
        results[name] = s.payload.snapshot.menu.map((m) => m.id);
      }
      window.P.resetPlayableForTests();
      return results;
    });
    assert.deepEqual(r.shadow, ["in-shadow"]);
    assert.deepEqual(r.element, ["list-pagination:next"]);
  }));

test("an inert or aria-disabled shadow host disables what a ShadowRoot (or an element in it) scan root holds: the snapshot says so and a run clicks nothing", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const out = {};
      for (const attr of ["inert", 'aria-disabled="true"']) {
        const wrap = document.createElement("div");
        wrap.innerHTML = `<div ${attr}><div class="host"></div></div>`;
        document.body.append(wrap);
        const shadow = wrap.querySelector(".host").attachShadow({ mode: "open" });
        shadow.innerHTML = '<section><button data-e2e-kind="playable" data-e2e-id="in-shadow">S</button></section>';
        const clicks = [];
        shadow.querySelector("button").addEventListener("click", () => clicks.push("in-shadow"));
        for (const [name, root] of [["shadow", shadow], ["element", shadow.querySelector("section")], ["document", document]]) {
          window.P.resetPlayableForTests();
          const p = window.P.installPlayable({ root });
          await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
          const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
          const run = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "in-shadow" } });
          out[`${attr.split("=")[0]} ${name}`] = [s.payload.snapshot.menu.find((m) => m.id === "in-shadow").enabled, run.ok ? "ok" : run.error.message, clicks.length];
        }
        wrap.remove();
      }
      window.P.resetPlayableForTests();
      return out;
    });
    const refused = [false, '"in-shadow" is disabled', 0];
    assert.deepEqual(r, {
      "inert shadow": refused, "inert element": refused, "inert document": refused,
      "aria-disabled shadow": refused, "aria-disabled element": refused, "aria-disabled document": refused,
    });
  }));

test("a control in a shadow root inside the open modal dialog is enabled and runs; one outside the dialog is disabled", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const dialog = document.createElement("dialog");
      dialog.innerHTML = '<div class="host"></div><button data-e2e-kind="playable" data-e2e-id="light-in-modal">L</button>';
      document.body.append(dialog);
      const shadow = dialog.querySelector(".host").attachShadow({ mode: "open" });
      shadow.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="shadow-in-modal">S</button>';
      const clicks = [];
      shadow.querySelector("button").addEventListener("click", () => clicks.push("shadow-in-modal"));
      dialog.showModal();
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      const run = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload: { id: "shadow-in-modal" } });
      const enabled = Object.fromEntries(s.payload.snapshot.menu.map((m) => [m.id, m.enabled]));
      dialog.close();
      dialog.remove();
      window.P.resetPlayableForTests();
      return { light: enabled["light-in-modal"], shadow: enabled["shadow-in-modal"], outside: enabled["btn-save"], run: run.ok, clicks };
    });
    assert.deepEqual(r, { light: true, shadow: true, outside: false, run: true, clicks: ["shadow-in-modal"] });
  }));

test("a modal dialog a component opens in its shadow root disables what it does not hold, as the browser does; its slotted light children stay enabled and run", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const host = document.createElement("x-modal");
      host.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="slotted-in-modal">Slotted</button>';
      document.body.append(host);
      const shadow = host.attachShadow({ mode: "open" });
      shadow.innerHTML = '<dialog><slot></slot><button data-e2e-kind="playable" data-e2e-id="own-in-modal">Own</button></dialog>' +
        '<button data-e2e-kind="playable" data-e2e-id="beside-modal">Beside</button>';
      const clicks = [];
      document.addEventListener("click", (e) => clicks.push(e.composedPath()[0].dataset.e2eId), true);
      shadow.querySelector("dialog").showModal();
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable();
      const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: "r", cmd, payload });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const s = await send("snapshot");
      const enabled = Object.fromEntries(s.payload.snapshot.menu.map((m) => [m.id, m.enabled]));
      const runs = {};
      for (const id of ["btn-save", "beside-modal", "slotted-in-modal", "own-in-modal"]) {
        const a = await send("run", { id });
        runs[id] = a.ok ? "ok" : a.error.code + ": " + a.error.message;
      }
      shadow.querySelector("dialog").close();
      host.remove();
      window.P.resetPlayableForTests();
      return { enabled: [enabled["btn-save"], enabled["beside-modal"], enabled["slotted-in-modal"], enabled["own-in-modal"]], runs, clicks };
    });
    assert.deepEqual(r.enabled, [false, false, true, true], "outside the dialog (light page, the component's own shadow content) disabled; slotted and own content enabled");
    assert.equal(r.runs["slotted-in-modal"], "ok");
    assert.equal(r.runs["own-in-modal"], "ok");
    for (const id of ["btn-save", "beside-modal"]) assert.match(r.runs[id], new RegExp(`^NOT_ACTIONABLE: "${id}" is disabled`), id);
    assert.deepEqual(r.clicks, ["slotted-in-modal", "own-in-modal"], "only what the dialog holds was clicked");
  }));

test("a data-e2e-id shaped like a generic ref (g + digits) is a playable in the menu, not a generic; a run of it, or a drop on it, is NOT_IN_MENU and touches nothing", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const box = document.createElement("div");
      box.innerHTML =
        '<button data-e2e-kind="playable" data-e2e-id="g7" data-e2e-title="Seven">Seven</button>' +
        '<div data-e2e-kind="playable" data-e2e-id="card-g" data-e2e-event="drag" style="width:40px;height:40px">card</div>';
      const events = [];
      for (const type of ["click", "pointerdown", "mousedown", "pointerup", "dragstart", "drop"]) box.addEventListener(type, (e) => events.push(type + ":" + e.target.textContent), true);
      document.body.append(box);
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable();
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const s = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      const send = async (payload) => {
        const up = await p.handle({ pageId: p.pageId, requestId: "r", cmd: "run", payload });
        return up.ok ? "ok" : up.error.code + ": " + up.error.message;
      };
      const run = await send({ id: "g7" });
      const drop = await send({ id: "card-g", to: "g7" });
      box.remove();
      window.P.resetPlayableForTests();
      const { menu, generics } = s.payload.snapshot;
      return { item: menu.find((m) => m.id === "g7"), generic: generics.some((g) => g.name === "Seven"), run, drop, events };
    });
    assert.deepEqual(r.item, { id: "g7", event: "click", title: "Seven", desc: "", enabled: true, visible: true });
    assert.equal(r.generic, false, "a marked element is not listed as unmarked");
    assert.match(r.run, /^NOT_IN_MENU: "g7" has a generic ref's shape \(g \+ digits\): no run takes it/);
    assert.match(r.drop, /^NOT_IN_MENU: drop target "g7" has a generic ref's shape/);
    assert.deepEqual(r.events, [], "no event reached either element");
  }));

test("a reload escape is refused while unsaved work sits outside the scan root or in a same-origin frame: the reload would reload it too", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const app = document.createElement("section");
      app.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="in-app">A</button>';
      const aside = document.createElement("aside");
      aside.innerHTML = '<textarea data-e2e-id="draft" data-e2e-dirty="true">unsaved</textarea>';
      const frame = document.createElement("iframe");
      frame.srcdoc = '<div></div>';
      await new Promise((resolve) => { frame.onload = resolve; document.body.append(app, aside, frame); });
      // The seed page's own dirty field is cleaned so the document alone decides.
      for (const el of document.querySelectorAll("[data-e2e-dirty]")) if (!aside.contains(el)) el.removeAttribute("data-e2e-dirty");
      for (const el of document.querySelectorAll("[data-e2e-noreload]")) el.removeAttribute("data-e2e-noreload");
      const reloads = [];
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({ root: app, ports: { bom: { run: (a) => { reloads.push(a.type); return { ok: true, retired: false }; } } } });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const send = async (cmd, payload = {}) => {
        const up = await p.handle({ pageId: p.pageId, requestId: cmd, cmd, payload });
        return up.ok ? up.payload : up.error.code + ": " + up.error.message;
      };
      const out = { escapes: (await send("snapshot")).escapes, outside: await send("escape", { type: "reload" }) };
      aside.remove();
      const fdoc = frame.contentDocument;
      fdoc.body.innerHTML = '<input data-e2e-dirty="true" data-e2e-id="frame-draft">';
      out.frame = await send("escape", { type: "reload" });
      fdoc.body.innerHTML = "<div data-e2e-noreload></div>";
      out.frameNoReload = await send("escape", { type: "reload" });
      fdoc.body.innerHTML = "";
      out.clean = await send("escape", { type: "reload" });
      out.reloads = reloads;
      window.P.resetPlayableForTests();
      frame.remove();
      app.remove();
      return out;
    });
    assert.deepEqual(r.escapes, [{ type: "reload", allowed: true }], "the snapshot's escapes are deriveEscapes(snapshot): the root's");
    assert.match(r.outside, /^ESCAPE_NOT_ALLOWED: reload is not allowed now: unsaved work would be lost \(dirty: draft\), outside the scan root/);
    assert.match(r.frame, /^ESCAPE_NOT_ALLOWED: .*frame-draft.*outside the scan root/);
    assert.match(r.frameNoReload, /^ESCAPE_NOT_ALLOWED: .*data-e2e-noreload.*outside the scan root/);
    assert.match(r.clean, /^DISPATCH_FAILED/, "then the bom is asked (this one reports no retirement)");
    assert.deepEqual(r.reloads, ["reload"], "only the clean page was reloaded");
  }));

test("a reload escape is refused while unsaved work sits in a same-origin frame inside an open shadow root (Window.frames leaves those out), at any depth through the frames' own shadow roots", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      for (const el of document.querySelectorAll("[data-e2e-dirty]")) el.removeAttribute("data-e2e-dirty");
      for (const el of document.querySelectorAll("[data-e2e-noreload]")) el.removeAttribute("data-e2e-noreload");
      const loaded = (frame) => new Promise((resolve) => { frame.onload = resolve; });
      // An iframe in a shadow root nested in another; the frame's own page puts a second iframe in its shadow root.
      const outer = document.createElement("div");
      document.body.append(outer);
      const inner = document.createElement("div");
      outer.attachShadow({ mode: "open" }).append(inner);
      const frame = document.createElement("iframe");
      frame.srcdoc = '<textarea data-e2e-dirty="true" data-e2e-id="draft"></textarea>';
      const first = loaded(frame);
      inner.attachShadow({ mode: "open" }).append(frame);
      await first;
      const fdoc = frame.contentDocument;
      fdoc.querySelector("textarea").value = "three paragraphs of unsaved work";
      const host = fdoc.createElement("div");
      fdoc.body.append(host);
      const deep = fdoc.createElement("iframe");
      deep.srcdoc = "<div></div>";
      const second = loaded(deep);
      host.attachShadow({ mode: "open" }).append(deep);
      await second;
      const reloads = [];
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({ ports: { bom: { run: (a) => { reloads.push(a.type); return { ok: true, retired: false }; } } } });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const send = async (cmd, payload = {}) => {
        const up = await p.handle({ pageId: p.pageId, requestId: cmd, cmd, payload });
        return up.ok ? up.payload : up.error.code + ": " + up.error.message;
      };
      const out = { frames: window.length, shadowFrame: await send("escape", { type: "reload" }) };
      fdoc.querySelector("textarea").removeAttribute("data-e2e-dirty");
      deep.contentDocument.body.innerHTML = '<input data-e2e-dirty="true" data-e2e-id="deep-draft">';
      out.deepFrame = await send("escape", { type: "reload" });
      deep.contentDocument.body.innerHTML = "<div data-e2e-noreload></div>";
      out.deepNoReload = await send("escape", { type: "reload" });
      deep.contentDocument.body.innerHTML = "";
      out.clean = await send("escape", { type: "reload" });
      out.reloads = reloads;
      window.P.resetPlayableForTests();
      outer.remove();
      return out;
    });
    assert.equal(r.frames, 0, "Window.frames holds none of them");
    assert.equal(r.shadowFrame, "ESCAPE_NOT_ALLOWED: reload is not allowed now: unsaved work would be lost (dirty: draft), outside the scan root (a reload reloads the whole page)");
    assert.match(r.deepFrame, /^ESCAPE_NOT_ALLOWED: .*\(dirty: deep-draft\), outside the scan root/);
    assert.match(r.deepNoReload, /^ESCAPE_NOT_ALLOWED: .*data-e2e-noreload.*outside the scan root/);
    assert.match(r.clean, /^DISPATCH_FAILED/, "then the bom is asked (this one reports no retirement)");
    assert.deepEqual(r.reloads, ["reload"], "only the clean page was reloaded");
  }));

test("a reload escape fails closed past the frame bounds: one same-origin frame more than 64, or nested deeper than 8 levels, is ESCAPE_NOT_ALLOWED (its unsaved work unknown), nothing reloaded", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      for (const el of document.querySelectorAll("[data-e2e-dirty]")) el.removeAttribute("data-e2e-dirty");
      for (const el of document.querySelectorAll("[data-e2e-noreload]")) el.removeAttribute("data-e2e-noreload");
      const reloads = [];
      const p = window.P.installPlayable({ ports: { bom: { run: (a) => { reloads.push(a.type); return { ok: true, retired: false }; } } } });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const escape = async () => {
        const up = await p.handle({ pageId: p.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
        return up.ok ? up.payload : up.error.code + ": " + up.error.message;
      };
      const frameIn = (doc, html) => new Promise((resolve) => {
        const frame = doc.createElement("iframe");
        frame.srcdoc = html;
        frame.onload = () => resolve(frame);
        doc.body.append(frame);
      });
      const out = {};
      // 64 frames are read; a 65th, dirty, is past the bound.
      const many = [];
      for (let i = 0; i < 64; i++) many.push(frameIn(document, "<p>clean</p>"));
      const frames = await Promise.all(many);
      out.at64 = await escape();
      const last = await frameIn(document, '<input data-e2e-dirty="true" data-e2e-id="draft65">');
      out.at65 = await escape();
      for (const f of [...frames, last]) f.remove();
      // Frames in frames: 8 levels are read; a 9th is past the bound.
      let doc = document;
      const chain = [];
      for (let level = 1; level <= 8; level++) {
        chain.push(await frameIn(doc, "<p>level " + level + "</p>"));
        doc = chain[chain.length - 1].contentDocument;
      }
      out.at8 = await escape();
      await frameIn(doc, '<input data-e2e-dirty="true" data-e2e-id="draft9">');
      out.at9 = await escape();
      chain[0].remove();
      out.reloads = reloads;
      return out;
    });
    assert.match(r.at64, /^DISPATCH_FAILED/, "within the bounds: the bom is asked (this one reports no retirement)");
    assert.equal(r.at65, "ESCAPE_NOT_ALLOWED: reload is not allowed now: too many frames to check for unsaved work: more than 64 same-origin frames (a reload reloads the whole page)");
    assert.match(r.at8, /^DISPATCH_FAILED/);
    assert.equal(r.at9, "ESCAPE_NOT_ALLOWED: reload is not allowed now: too many frames to check for unsaved work: same-origin frames nested more than 8 levels deep (a reload reloads the whole page)");
    assert.deepEqual(r.reloads, ["reload", "reload"], "only the escapes within the bounds reached the bom");
  }));

test("escape on the instance of a frame removed from the page (its window closed) is DISPATCH_FAILED, phase unchanged: no fake retirement", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const frame = document.createElement("iframe");
      frame.src = "/tests/fixtures/seed.html";
      await new Promise((resolve) => { frame.onload = resolve; document.body.append(frame); });
      const win = frame.contentWindow;
      const p = window.P.installPlayable({ window: win });
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      frame.remove();
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      const again = await p.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
      return { closed: win.closed, escape: e.ok ? e.payload : e.error.code, phase: p.phase, samePageId: again.ok && again.payload.pageId === h.payload.pageId };
    });
    assert.deepEqual(r, { closed: true, escape: "DISPATCH_FAILED", phase: "live", samePageId: true });
  }));

test("install options are checked with clear TypeErrors", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const tryIt = (o) => { try { window.P.installPlayable(o); return "ok"; } catch (e) { return e.name + ": " + e.message; } };
      return [
        tryIt({ root: 5 }),
        tryIt({ allowedOrigins: "http://x" }),
        tryIt({ islandSlots: { a: { b: { label: "x" } } } }),
        tryIt({ captureScreenshot: "no" }),
        tryIt(7),
      ];
    });
    for (const msg of r) assert.match(msg, /^TypeError: installPlayable: /);
    assert.match(r[2], /islandSlots\["a"\]\["b"\]/);
  }));

test("a DocumentFragment that is not a ShadowRoot (a template's content) is no root: the same TypeError; a ShadowRoot still is", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const tryIt = (root) => {
        window.P.resetPlayableForTests();
        try { window.P.installPlayable({ root }); return "ok"; } catch (e) { return e.name + ": " + e.message; } finally { window.P.resetPlayableForTests(); }
      };
      const template = document.createElement("template");
      template.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="t">T</button>';
      const host = document.createElement("div");
      document.body.append(host);
      return [tryIt(document.createDocumentFragment()), tryIt(template.content), tryIt(host.attachShadow({ mode: "open" }))];
    });
    const refused = "TypeError: installPlayable: options.root must be a Document, a ShadowRoot or an Element";
    assert.deepEqual(r, [refused, refused, "ok"]);
  }));

// Options are read through Reflect and data options through a structured
// clone (crates/wasm/src/options): the page's own exception never crosses,
// and a value JSON cannot carry is named.
test("a name behind thousands of whitespace characters is still read: the cut before Rust collapses whitespace does not eat it", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      window.P.resetPlayableForTests();
      const host = document.createElement("div");
      host.innerHTML = "<button>" + " \n".repeat(2500) + "Delete" + "\t ".repeat(3000) + "all</button>";
      const p = window.P.installPlayable({ root: host });
      document.body.append(host);
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const up = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      window.P.resetPlayableForTests();
      host.remove();
      return up.payload.snapshot.generics.map((g) => g.name);
    });
    assert.deepEqual(r, ["Delete all"]);
  }));

test("page text caps count JS length (UTF-16 units), never half an emoji: titles, names and slots 200, descriptions 1,000", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      window.P.resetPlayableForTests();
      const e = (n) => "😀".repeat(n);
      const host = document.createElement("div");
      host.innerHTML =
        `<div hidden data-e2e-pagetitle="${e(300)}"></div>` +
        `<button data-e2e-kind="playable" data-e2e-id="big" data-e2e-title="${e(300)}" data-e2e-desc="${e(900)}">x</button>` +
        `<button data-e2e-kind="playable" data-e2e-id="odd" data-e2e-title="a${e(300)}">x</button>` +
        `<a href="#">${e(300)}</a>` +
        `<nav data-e2e-kind="island" data-e2e-id="pager"><button aria-label="${e(300)}">›</button></nav>`;
      document.body.append(host);
      const p = window.P.installPlayable({ root: host, islandSlots: { pager: { next: { role: "button", name: e(300) } } } });
      await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const up = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      window.P.resetPlayableForTests();
      host.remove();
      const snap = up.payload.snapshot;
      const item = (id) => snap.menu.find((m) => m.id === id);
      const whole = (s) => !/[\ud800-\udfff]/.test(s.replace(/\p{Extended_Pictographic}/gu, ""));
      const texts = [snap.pageTitle, item("big").title, item("big").desc, item("odd").title, snap.generics[0].name, item("pager:next")?.title ?? "no slot"];
      return { lengths: texts.map((t) => t.length), whole: texts.every(whole) };
    });
    // 300 emoji are 600 units: 100 emoji fit in 200; "a" + 99 emoji is 199 (a 100th would split at 200).
    assert.deepEqual(r.lengths, [200, 200, 1000, 199, 200, 200]);
    assert.equal(r.whole, true, "no lone surrogate");
  }));

test("install options with getters, proxies and functions: worded TypeErrors, a getter inside counts once", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const tryIt = (o) => {
        window.P.resetPlayableForTests();
        try { window.P.installPlayable(o); return "ok"; } catch (e) { return e.name + ": " + e.message; } finally { window.P.resetPlayableForTests(); }
      };
      let reads = 0;
      return {
        rootThrows: tryIt({ get root() { throw new Error("page bug"); } }),
        botThrows: tryIt({ ports: { get bot() { throw new Error("page bug"); } } }),
        proxy: tryIt({ islandSlots: new Proxy({}, { ownKeys() { throw new Error("trap"); } }) }),
        fn: tryIt({ islandSlots: { pager: { next: { ariaLabel: "Next", onClick() {} } } } }),
        getter: tryIt({ islandSlots: { pager: { get next() { reads++; return { ariaLabel: "Next" }; } } } }),
        reads,
        origins: tryIt({ allowedOrigins: ["https://a.test", () => 1] }),
        spec: tryIt({ islandSlots: { a: { b: { label: "x" } } } }),
      };
    });
    assert.equal(r.rootThrows, "TypeError: installPlayable: reading options.root threw");
    assert.equal(r.botThrows, "TypeError: installPlayable: reading options.ports.bot threw");
    assert.match(r.proxy, /^TypeError: installPlayable: options\.islandSlots is not plain data: /);
    assert.match(r.fn, /^TypeError: installPlayable: options\.islandSlots is not plain data/);
    assert.equal(r.getter, "ok");
    assert.equal(r.reads, 1);
    assert.equal(r.origins, "TypeError: installPlayable: options.allowedOrigins must contain only strings");
    assert.equal(r.spec, 'TypeError: installPlayable: islandSlots["a"]["b"] must be { ariaLabel: string } or { role: string, name: string }');
  }));

test("a root in an iframe's document installs on the iframe's window, not this one", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      window.P.resetPlayableForTests();
      const frame = document.createElement("iframe");
      document.body.append(frame);
      const p = window.P.installPlayable({ root: frame.contentDocument });
      const out = {
        child: frame.contentWindow.__IN_PAGE_PLAYABLE_V1__ === true,
        here: "__IN_PAGE_PLAYABLE_V1__" in window,
        again: window.P.installPlayable({ root: frame.contentDocument }) === p,
      };
      window.P.resetPlayableForTests();
      frame.remove();
      return out;
    });
    assert.deepEqual(r, { child: true, here: false, again: true });
  }));

test("installPlayable({ window: frame }) without a root scans, clicks and reloads in that frame's document, not this one", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      window.P.resetPlayableForTests();
      const frame = document.createElement("iframe");
      frame.srcdoc = '<button data-e2e-kind="playable" data-e2e-id="frame-go" data-e2e-title="Go">Go</button><input data-e2e-id="note" data-e2e-dirty="true">';
      await new Promise((resolve) => { frame.onload = resolve; document.body.append(frame); });
      const w = frame.contentWindow;
      const clicks = [];
      w.document.querySelector("button").addEventListener("click", () => clicks.push("frame-go"));
      const p = window.P.installPlayable({ window: w, allowedOrigins: [w.origin] });
      const send = (cmd, payload = {}) => p.handle({ pageId: p.pageId, requestId: cmd, cmd, payload });
      await send("hello");
      const snap = await send("snapshot");
      const run = await send("run", { id: "frame-go" });
      // This page's own button is not on the frame's menu.
      const here = await send("run", { id: "btn-save" });
      // The frame's dirty field, not this page's clean state, decides.
      const escape = await send("escape", { type: "reload" });
      const out = {
        menu: snap.payload.snapshot.menu.map((m) => m.id),
        dirty: snap.payload.snapshot.dirty,
        escapes: snap.payload.escapes.map((e) => e.allowed),
        run: run.ok,
        here: here.ok ? "ok" : here.error.code,
        escape: escape.ok ? "ok" : escape.error.code,
        clicks,
        parentClicks: window.__clicks,
        marked: [w.__IN_PAGE_PLAYABLE_V1__ === true, window.__IN_PAGE_PLAYABLE_V1__ === true],
      };
      window.P.resetPlayableForTests();
      frame.remove();
      return out;
    });
    assert.deepEqual(r, {
      menu: ["frame-go"],
      dirty: ["note"],
      escapes: [false],
      run: true,
      here: "NOT_IN_MENU",
      escape: "ESCAPE_NOT_ALLOWED",
      clicks: ["frame-go"],
      parentClicks: [],
      marked: [true, false],
    });
  }));

// A frame the parent installs into keeps its window object (its
// WindowProxy) across reloads and navigations; an instance serves the
// document it was built for. In-page helper: an iframe on `src`, loaded.
const FRAME = async (src) => {
  const f = document.createElement("iframe");
  f.src = src;
  const loaded = () => new Promise((resolve) => f.addEventListener("load", () => resolve(), { once: true }));
  const first = loaded();
  document.body.append(f);
  await first;
  return { f, loaded };
};
const frame = (src) => `(${FRAME})(${JSON.stringify(src)})`;
const said = (up) => (up.ok ? "ok" : up.error.code + ": " + up.error.message);

test("a frame reloaded by a reload escape: installPlayable({ root: frame.contentDocument }) gives its new document a fresh instance, live after hello with a new pageId; the old object stays retired", () =>
  withPage(async (page) => {
    const r = await page.evaluate(`${frame("/tests/fixtures/seed.html")}.then(async ({ f, loaded }) => {
      const said = ${said};
      const old = window.P.installPlayable({ root: f.contentDocument });
      const h = await old.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const reloaded = loaded();
      const escape = await old.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      await reloaded;
      const fresh = window.P.installPlayable({ root: f.contentDocument });
      const installed = fresh.phase;
      const h2 = await fresh.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
      const snap = await fresh.handle({ pageId: h2.payload.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      const stale = await old.handle({ pageId: h.payload.pageId, requestId: "o", cmd: "hello", payload: {} });
      return {
        escape: escape.payload,
        fresh: fresh !== old,
        phases: [installed, fresh.phase, old.phase],
        newPageId: h2.payload.pageId !== h.payload.pageId,
        scanned: snap.payload.snapshot.pageTitle,
        again: window.P.installPlayable({ window: f.contentWindow }) === fresh,
        marker: f.contentWindow.__IN_PAGE_PLAYABLE_V1__,
        stale: said(stale),
      };
    })`);
    assert.deepEqual({ ...r, stale: undefined }, {
      escape: { type: "reload", retired: true },
      fresh: true,
      phases: ["installed", "live", "retired"],
      newPageId: true,
      scanned: "ready-list",
      again: true,
      marker: true,
      stale: undefined,
    });
    assert.match(r.stale, /^RETIRED: this instance's document is gone/);
  }));

test("a frame that navigates to another same-origin page: the old pageId passes no latch (the old object answers RETIRED at once, the new instance PAGE_MISMATCH), and installPlayable scans the frame's current document", () =>
  withPage(async (page) => {
    const r = await page.evaluate(`${frame("/tests/fixtures/seed.html")}.then(async ({ f, loaded }) => {
      const said = ${said};
      const old = window.P.installPlayable({ root: f.contentDocument });
      const h = await old.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const navigated = loaded();
      f.contentWindow.location.href = "/tests/fixtures/blank.html?next";
      await navigated;
      f.contentDocument.body.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="new-doc-btn">N</button>';
      // Before any new install: the old object itself refuses, on the new page.
      const oldSnap = await old.handle({ pageId: h.payload.pageId, requestId: "o", cmd: "snapshot", payload: {} });
      const oldRun = await old.handle({ pageId: h.payload.pageId, requestId: "r", cmd: "run", payload: { id: "new-doc-btn" } });
      const unmarked = f.contentWindow.__IN_PAGE_PLAYABLE_V1__;
      const fresh = window.P.installPlayable({ root: f.contentDocument });
      const h2 = await fresh.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
      const mismatch = await fresh.handle({ pageId: h.payload.pageId, requestId: "m", cmd: "snapshot", payload: {} });
      const snap = await fresh.handle({ pageId: h2.payload.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      return {
        old: [old.phase, said(oldSnap), said(oldRun)],
        unmarked,
        fresh: fresh !== old,
        newPageId: h2.payload.pageId !== h.payload.pageId,
        mismatch: mismatch.ok ? "ok" : mismatch.error.code,
        menu: snap.payload.snapshot.menu.map((m) => m.id),
        marker: f.contentWindow.__IN_PAGE_PLAYABLE_V1__,
      };
    })`);
    const gone = "RETIRED: this instance's document is gone (its window reloaded or navigated); installPlayable again for the new document";
    assert.deepEqual(r, {
      old: ["retired", gone, gone],
      unmarked: undefined,
      fresh: true,
      newPageId: true,
      mismatch: "PAGE_MISMATCH",
      menu: ["new-doc-btn"],
      marker: true,
    });
  }));

test("installed into a frame before its page loaded (its first about:blank): after the load, installPlayable gives an instance that scans the loaded page, and the old one's bridge answers only RETIRED", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const f = document.createElement("iframe");
      f.src = "/tests/fixtures/seed.html";
      const loaded = new Promise((resolve) => f.addEventListener("load", () => resolve(), { once: true }));
      document.body.append(f);
      const w = f.contentWindow;
      const blank = w.document.URL;
      const old = window.P.installPlayable({ window: w, allowedOrigins: [location.origin] });
      old.attachWindowBridge();
      await loaded;
      // The frame's own code posts a hello to its own window; replies are counted by requestId.
      const replies = [];
      w.addEventListener("message", (e) => { if (e.data && e.data.dir === "up") replies.push(e.data.envelope.requestId + " " + (e.data.envelope.ok ? "ok" : e.data.envelope.error.code)); });
      const hello = async (id) => {
        new w.Function(`window.postMessage({ channel: "in-page-playable", dir: "down", seq: 1, envelope: { pageId: null, requestId: "${id}", cmd: "hello", payload: {} } }, "*")`)();
        await new Promise((resolve) => setTimeout(resolve, 300));
      };
      await hello("b1");
      const p = window.P.installPlayable({ window: w, allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      await hello("b2");
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const snap = await p.handle({ pageId: h.payload.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      return {
        blank,
        fresh: p !== old,
        old: old.phase,
        replies,
        pageTitle: snap.payload.snapshot.pageTitle,
        save: snap.payload.snapshot.menu.some((m) => m.id === "btn-save"),
        marker: w.__IN_PAGE_PLAYABLE_V1__,
      };
    });
    assert.deepEqual(r, {
      blank: "about:blank",
      fresh: true,
      old: "retired",
      replies: ["b1 RETIRED", "b2 ok"],
      pageTitle: "ready-list",
      save: true,
      marker: true,
    });
  }));

test("a root of another window than options.window is a TypeError: nothing installed, no window marked", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      window.P.resetPlayableForTests();
      const frame = document.createElement("iframe");
      document.body.append(frame);
      const w = frame.contentWindow;
      const tryIt = (options) => { try { window.P.installPlayable(options); return "installed"; } catch (e) { return e.name + ": " + e.message; } };
      const out = {
        element: tryIt({ window: w, root: document.body }),
        document: tryIt({ window: w, root: document }),
        marked: [w.__IN_PAGE_PLAYABLE_V1__, window.__IN_PAGE_PLAYABLE_V1__],
        own: tryIt({ window: w, root: w.document.body }),
      };
      window.P.resetPlayableForTests();
      frame.remove();
      return out;
    });
    const refused = "TypeError: installPlayable: options.root is not in options.window's document (leave root out to scan that document)";
    assert.deepEqual(r, { element: refused, document: refused, marked: [undefined, undefined], own: "installed" });
  }));

test("a stand-in window (postMessage and listeners, no document) is installed on: it scans the global document, or the root given, and bridges its own messages", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      // What a relay or a test harness hands in: a window's messaging, no document.
      const standIn = () => {
        const posted = [];
        const listeners = [];
        return {
          posted,
          listeners,
          postMessage(message, origin) { posted.push([message, origin]); },
          addEventListener(type, f) { if (type === "message") listeners.push(f); },
          removeEventListener(type, f) { listeners.splice(listeners.indexOf(f) >>> 0, 1); },
        };
      };
      const scan = async (options) => {
        window.P.resetPlayableForTests();
        try {
          const p = window.P.installPlayable({ ...options, allowedOrigins: [location.origin] });
          const hello = await p.handle({ requestId: "h", cmd: "hello", payload: {} });
          const snap = await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
          if (!snap.ok) return JSON.stringify([hello, snap]);
          // A downlink through the stand-in's listeners, from the stand-in: answered through it.
          const w = options.window;
          p.attachWindowBridge();
          const down = { channel: "in-page-playable", dir: "down", seq: 7, envelope: { pageId: p.pageId, requestId: "b", cmd: "snapshot", payload: {} } };
          for (const f of w.listeners) f({ data: down, origin: location.origin, source: w });
          for (let i = 0; i < 50 && !w.posted.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
          const [reply, target] = w.posted[0] || [];
          return {
            menu: snap.payload.snapshot.menu.some((m) => m.id === "btn-save"),
            marked: window.__IN_PAGE_PLAYABLE_V1__ === true,
            bridged: reply ? [reply.dir, reply.seq, reply.envelope.ok, target] : null,
          };
        } catch (e) {
          return e.name + ": " + e.message;
        } finally {
          window.P.resetPlayableForTests();
        }
      };
      return { alone: await scan({ window: standIn() }), root: await scan({ window: standIn(), root: document }), body: await scan({ window: standIn(), root: document.body }) };
    });
    const scanned = { menu: true, marked: false, bridged: ["up", 7, true, new URL(ctx.server.origin).origin] };
    assert.deepEqual(r, { alone: scanned, root: scanned, body: scanned }, "this page's menu, installed on the stand-in, not this window");
  }));

test("deriveEscapes and isEscapeAllowed", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const { deriveEscapes, isEscapeAllowed } = window.P;
      return {
        clean: deriveEscapes({ dirty: [], noReload: false }),
        dirty: deriveEscapes({ dirty: ["note"], noReload: false }),
        allowed: isEscapeAllowed({ dirty: [], noReload: false }, "reload"),
        noreload: isEscapeAllowed({ dirty: [], noReload: true }, "reload"),
        other: isEscapeAllowed({ dirty: [], noReload: false }, "back"),
        dirtyNo: isEscapeAllowed({ dirty: ["note"] }, "reload"),
        notAString: isEscapeAllowed({ dirty: [], noReload: false }, { toString: () => "reload" }),
        thrown: (() => { try { isEscapeAllowed(5, "reload"); return "no throw"; } catch (e) { return e.message; } })(),
      };
    });
    assert.deepEqual(r.clean, [{ type: "reload", allowed: true }]);
    assert.equal(r.dirty[0].allowed, false);
    assert.match(r.dirty[0].reason, /note/);
    assert.equal(r.allowed, true);
    assert.equal(r.noreload, false);
    assert.equal(r.other, false);
    assert.equal(r.dirtyNo, false);
    assert.equal(r.notAString, false, "a type that is not a string is no escape");
    assert.match(r.thrown, /expected an ISnapshot .*not an object/, "the same clear error as deriveEscapes");
  }),
);

test("deriveEscapes reads only dirty and noReload: any screenshot is fine, a wrong field or a non-object is a clear error", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const { deriveEscapes } = window.P;
      const thrown = (v) => { try { deriveEscapes(v); return "no error"; } catch (e) { return e.message; } };
      return {
        shot: deriveEscapes({ dirty: ["note"], noReload: false, screenshot: 10n, menu: () => 1 }),
        wrong: thrown({ dirty: [5], noReload: false }),
        nulls: [thrown(null), thrown(7), thrown([[], false])],
      };
    });
    assert.equal(r.shot[0].allowed, false);
    assert.match(r.shot[0].reason, /note/);
    assert.match(r.wrong, /^expected an ISnapshot .*: dirty\[0\]: invalid type: integer `5`, expected a string/);
    for (const m of r.nulls) assert.match(m, /^expected an ISnapshot .*: not an object$/);
  }));

test("deriveEscapes and isEscapeAllowed fail closed: an unreadable or non-JSON field is a clear error, never an allowed reload", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const { deriveEscapes, isEscapeAllowed } = window.P;
      const both = (v) => [deriveEscapes, (s) => isEscapeAllowed(s, "reload")].map((f) => {
        try { return "no error: " + JSON.stringify(f(v)); } catch (e) { return e.message; }
      });
      return {
        getter: both({ get dirty() { throw new Error("gone"); }, noReload: false }),
        noReloadGetter: both({ dirty: [], get noReload() { throw new Error("gone"); } }),
        proxy: both(new Proxy({}, { get() { throw new Error("trap"); } })),
        fn: both({ dirty: [], noReload: () => true }),
        bigint: both({ dirty: [1n], noReload: false }),
        surrogate: both({ dirty: ["x\ud800"], noReload: false }),
        // What JSON would write otherwise: a truthy Boolean object, a toJSON hiding a dirty id.
        boxed: both({ dirty: [], noReload: new Boolean(false) }),
        toJSON: both({ dirty: [], noReload: { toJSON: () => false } }),
        hidden: both({ dirty: Object.assign(["note"], { toJSON: () => [] }), noReload: false }),
      };
    });
    for (const [name, [derive, allowed]] of Object.entries(r)) {
      assert.match(derive, /^expected an ISnapshot/, name + ": " + derive);
      assert.equal(allowed, derive, name + ": the same error from both");
    }
    assert.match(r.getter[0], /reading dirty threw: gone$/);
    assert.match(r.noReloadGetter[0], /reading noReload threw: gone$/);
    assert.match(r.proxy[0], /reading dirty threw: trap$/);
    assert.match(r.fn[0], /noReload is not JSON/);
    assert.match(r.bigint[0], /dirty is not JSON/);
    assert.match(r.surrogate[0], /lone surrogate \(\\ud800\)/);
    assert.match(r.boxed[0], /noReload is not JSON \(it holds a Boolean object\)$/);
    assert.match(r.toJSON[0], /noReload is not JSON \(it holds an object with a toJSON method\)$/);
    assert.match(r.hidden[0], /dirty is not JSON \(it holds an object with a toJSON method\)$/);
  }));

// A revoked proxy throws even on Array.isArray; each entry point words that
// as its own refusal instead of letting the engine's TypeError escape.
const REVOKED = () => {
  window.__revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  window.__error = (f) => { try { return "no error: " + JSON.stringify(f()); } catch (e) { return e.name + ": " + e.message; } };
};
const REVOKED_SNAPSHOT = /^Error: expected an ISnapshot \(\{ dirty: string\[\], noReload: boolean \}\): reading the snapshot threw: .*revoked/;

test("deriveEscapes of a revoked proxy: the documented \"expected an ISnapshot\" Error, not the engine's TypeError", () =>
  withPage(async (page) => {
    await page.evaluate(REVOKED);
    const r = await page.evaluate(() => [window.__error(() => window.P.deriveEscapes(window.__revoked())), window.P.deriveEscapes({ dirty: [] })[0].allowed]);
    assert.match(r[0], REVOKED_SNAPSHOT);
    assert.equal(r[1], true, "the next call is answered");
  }));

test("isEscapeAllowed of a revoked proxy: the documented \"expected an ISnapshot\" Error, not the engine's TypeError", () =>
  withPage(async (page) => {
    await page.evaluate(REVOKED);
    const r = await page.evaluate(() => window.__error(() => window.P.isEscapeAllowed(window.__revoked(), "reload")));
    assert.match(r, REVOKED_SNAPSHOT);
  }));

test("installPlayable with a revoked proxy as islandSlots or allowedOrigins: \"reading options.… threw\", nothing installed", () =>
  withPage(async (page) => {
    await page.evaluate(REVOKED);
    const r = await page.evaluate(() => {
      window.P.resetPlayableForTests();
      const install = (name) => window.__error(() => window.P.installPlayable({ [name]: window.__revoked() }).phase);
      return { slots: install("islandSlots"), origins: install("allowedOrigins"), marker: String(window.__IN_PAGE_PLAYABLE_V1__), after: install("none") };
    });
    assert.equal(r.slots, "TypeError: installPlayable: reading options.islandSlots threw");
    assert.equal(r.origins, "TypeError: installPlayable: reading options.allowedOrigins threw");
    assert.equal(r.marker, "undefined", "nothing installed, the window not marked");
    assert.equal(r.after, 'no error: "installed"');
  }));

test("installPlayable with a revoked proxy as root, window, captureScreenshot, ports or a port: \"reading options.… threw\", nothing installed", () =>
  withPage(async (page) => {
    await page.evaluate(REVOKED);
    const r = await page.evaluate(() => {
      window.P.resetPlayableForTests();
      const install = (options) => window.__error(() => window.P.installPlayable(options).phase);
      const revocable = (target) => { const { proxy, revoke } = Proxy.revocable(target, {}); revoke(); return proxy; };
      return {
        root: install({ root: window.__revoked() }),
        window: install({ window: window.__revoked() }),
        capture: install({ captureScreenshot: revocable(() => "image") }),
        ports: install({ ports: window.__revoked() }),
        bot: install({ ports: { bot: window.__revoked() } }),
        marker: String(window.__IN_PAGE_PLAYABLE_V1__),
      };
    });
    assert.deepEqual(r, {
      root: "TypeError: installPlayable: reading options.root threw",
      window: "TypeError: installPlayable: reading options.window threw",
      capture: "TypeError: installPlayable: reading options.captureScreenshot threw",
      ports: "TypeError: installPlayable: reading options.ports threw",
      bot: "TypeError: installPlayable: reading options.ports.bot threw",
      marker: "undefined",
    });
  }));

test("a strict Content-Security-Policy fails installation with a clear error", async () => {
  const page = await ctx.browser.newPage();
  try {
    await page.goto(ctx.server.origin + "/tests/fixtures/blank.html?csp=strict");
    const r = await page.evaluate(async () => {
      const P = await import("/www/index.js");
      // The bundle is minified: the exported classes and functions keep their names.
      const names = Object.entries(P).filter(([k]) => k !== "default").map(([k, v]) => [k, v.name]);
      try {
        P.installPlayable();
        return { installed: true };
      } catch (e) {
        return {
          name: e.name, code: e.code, message: e.message, marker: "__IN_PAGE_PLAYABLE_V1__" in window,
          constructor: e.constructor.name, instance: e instanceof P.PlayableLoadError, names,
        };
      }
    });
    assert.equal(r.name, "PlayableLoadError");
    assert.equal(r.constructor, "PlayableLoadError");
    assert.equal(r.instance, true);
    assert.ok(r.names.length >= 6, JSON.stringify(r.names));
    for (const [key, name] of r.names) assert.equal(name, key, "the export " + key + " keeps its name");
    assert.equal(r.code, "WASM_BLOCKED_BY_CSP");
    assert.match(r.message, /wasm-unsafe-eval/);
    assert.equal(r.marker, false, "nothing half-installed");
  } finally {
    await page.close();
  }
});

test("an envelope nested too deep for JSON.stringify to read is BAD_REQUEST, and the message says deep nesting may be why", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const p = window.P.installPlayable();
      let deep = {};
      for (let i = 0; i < 20000; i++) deep = { d: deep };
      const up = await p.handle({ pageId: null, requestId: "deep", cmd: "hello", payload: deep });
      return { ok: up.ok, requestId: up.requestId, code: up.error && up.error.code, message: up.error && up.error.message };
    });
    assert.equal(r.ok, false);
    assert.equal(r.code, "BAD_REQUEST");
    assert.equal(r.requestId, "deep");
    assert.match(r.message, /^the envelope must be plain JSON: (it nests deeper than 32 levels|reading it threw \(a cycle, nesting too deep to read, a throwing getter or proxy\))/);
  }));
