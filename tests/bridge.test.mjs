// The window bridge (baseline §3) in real Chromium: what it accepts, what it
// ignores silently, and that every forgery clicks nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";
import { startServer } from "./support/server.mjs";

const ctx = useBrowser();
let other;
before(async () => { other = await startServer(); });
after(async () => { await other?.close(); });

const withPage = (fn) => ctx.withPage(undefined, fn);

// In-page helpers: post a wrapper and collect the "up" replies seen for 250 ms.
const HELPERS = () => {
  window.__ups = [];
  window.addEventListener("message", (e) => {
    if (e.data && e.data.channel === "in-page-playable" && e.data.dir === "up") window.__ups.push({ data: e.data, origin: e.origin });
  });
  window.__post = (msg, target = window) => target.postMessage(msg, "*");
  window.__settle = () => new Promise((r) => setTimeout(r, 250));
  // Waits for n replies (up to 5 s) before settling, so a slow machine does not lose an expected one.
  window.__until = async (n) => { for (let t = 0; t < 100 && __ups.filter((u) => "ok" in Object(u.data.envelope)).length < n; t++) await new Promise((r) => setTimeout(r, 50)); await __settle(); };
  window.__hello = (seq) => ({ channel: "in-page-playable", dir: "down", seq, envelope: { pageId: null, requestId: "b" + seq, cmd: "hello", payload: {} } });
};

test("a same-window, allowed-origin downlink is answered with the seq echoed", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const sent = [];
      const orig = window.postMessage.bind(window);
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      window.postMessage = (msg, target) => { if (msg && msg.dir === "up") sent.push(target); return orig(msg, target); };
      __post(__hello(7));
      await __until(1);
      window.postMessage = orig;
      const pageId = __ups[0]?.data.envelope.payload.pageId;
      __post({ channel: "in-page-playable", dir: "down", seq: 8, envelope: { pageId, requestId: "run", cmd: "run", payload: { id: "btn-save" } } });
      await __until(2);
      return { ups: __ups.map((u) => u.data), targets: sent, clicks: window.__clicks, origin: location.origin };
    }, HELPERS.toString());
    assert.equal(r.ups.length, 2);
    assert.equal(r.ups[0].seq, 7);
    assert.equal(r.ups[0].envelope.ok, true);
    assert.equal(r.ups[0].envelope.requestId, "b7");
    assert.deepEqual(r.targets, [r.origin], "replies go to event.origin, never *");
    assert.equal(r.ups[1].seq, 8);
    assert.deepEqual(r.ups[1].envelope.payload, { id: "btn-save" });
    assert.deepEqual(r.clicks, ["btn-save"]);
  }));

test("a well-formed wrapper around a bad envelope gets BAD_REQUEST with its seq", () =>
  withPage(async (page) => {
    const ups = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      window.P.installPlayable({ allowedOrigins: [location.origin] }).attachWindowBridge();
      __post({ channel: "in-page-playable", dir: "down", seq: 3, envelope: null });
      __post({ channel: "in-page-playable", dir: "down", seq: 4 });
      await __until(2);
      return __ups.map((u) => [u.data.seq, u.data.envelope.ok, u.data.envelope.error?.code]);
    }, HELPERS.toString());
    assert.deepEqual(ups, [[3, false, "BAD_REQUEST"], [4, false, "BAD_REQUEST"]]);
  }));

test("an answer postMessage cannot clone (a screenshot that is a function) is still answered: INTERNAL, its seq and requestId", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const p = window.P.installPlayable({ allowedOrigins: [location.origin], captureScreenshot: () => () => "not data" });
      p.attachWindowBridge();
      __post(__hello(1));
      await __until(1);
      const pageId = __ups[0].data.envelope.payload.pageId;
      __post({ channel: "in-page-playable", dir: "down", seq: 2, envelope: { pageId, requestId: "shot", cmd: "snapshot", payload: { screenshot: true } } });
      await __until(2);
      return { ups: __ups.map((u) => u.data), pageId };
    }, HELPERS.toString());
    assert.equal(r.ups.length, 2);
    const up = r.ups[1];
    assert.equal(up.seq, 2);
    assert.equal(up.envelope.requestId, "shot");
    assert.equal(up.envelope.pageId, r.pageId);
    assert.equal(up.envelope.ok, false);
    assert.equal(up.envelope.error.code, "INTERNAL");
    assert.match(up.envelope.error.message, /could not be posted through the window bridge: .*clone/i);
  }));

test("everything else is ignored silently and clicks nothing", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      const id = (await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} })).payload.pageId;
      const run = { pageId: id, requestId: "x", cmd: "run", payload: { id: "btn-save" } };
      const forgeries = [
        { channel: "other", dir: "down", seq: 1, envelope: run },
        { channel: "in-page-playable", dir: "up", seq: 2, envelope: run },
        { channel: "in-page-playable", seq: 3, envelope: run },
        { channel: "in-page-playable", dir: "down", envelope: run },
        { channel: "in-page-playable", dir: "down", seq: 1.5, envelope: run },
        { channel: "in-page-playable", dir: "down", seq: "4", envelope: run },
        { channel: "in-page-playable", dir: "down", seq: NaN, envelope: run },
        "in-page-playable",
        null,
        [run],
      ];
      for (const f of forgeries) __post(f);
      await __settle();
      // The dir:"up" forgery is itself seen by our listener; replies carry an uplink (ok field).
      return { ups: __ups.filter((u) => "ok" in Object(u.data.envelope)).length, clicks: window.__clicks };
    }, HELPERS.toString());
    assert.deepEqual(r, { ups: 0, clicks: [] });
  }));

test("an origin not in allowedOrigins is ignored; allowedOrigins is copied at install", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const origins = ["https://example.com"];
      const p = window.P.installPlayable({ allowedOrigins: origins });
      p.attachWindowBridge();
      origins.push(location.origin); // too late: the list was copied
      __post(__hello(1));
      await __settle();
      return { ups: __ups.length, phase: p.phase };
    }, HELPERS.toString());
    assert.deepEqual(r, { ups: 0, phase: "installed" });
  }));

test("attachWindowBridge: clear errors without origins or with *, and attaching twice replies once", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const errors = [];
      for (const allowedOrigins of [undefined, [], ["*"], [location.origin, "*"]]) {
        window.P.resetPlayableForTests();
        try { window.P.installPlayable({ allowedOrigins }).attachWindowBridge(); errors.push("no error"); }
        catch (e) { errors.push(e.message); }
      }
      window.P.resetPlayableForTests();
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      p.attachWindowBridge();
      __post(__hello(1));
      await __until(1);
      const twice = __ups.length;
      window.P.detachWindowBridgeForTests();
      __post(__hello(2));
      await __settle();
      return { errors, twice, afterDetach: __ups.length };
    }, HELPERS.toString());
    assert.match(r.errors[0], /allowedOrigins/);
    assert.match(r.errors[1], /allowedOrigins/);
    assert.match(r.errors[2], /not an origin/);
    assert.match(r.errors[3], /not an origin/);
    assert.equal(r.twice, 1);
    assert.equal(r.afterDetach, 1, "detached: no more replies");
  }));

test("attachWindowBridge after a later installPlayable with origins: the error says the first install's options hold", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const first = window.P.installPlayable();
      const later = window.P.installPlayable({ allowedOrigins: [location.origin] });
      try { later.attachWindowBridge(); return { same: first === later, error: "attached" }; } catch (e) { return { same: first === later, error: e.message }; }
    });
    assert.equal(r.same, true, "baseline §4: the first instance");
    assert.match(r.error, /^attachWindowBridge\(\) needs a non-empty allowedOrigins option/);
    assert.match(r.error, /installed without allowedOrigins by the first installPlayable\(\) call in this window, and a later installPlayable\(\) returns that instance and ignores its options$/);
  }));

test("an srcdoc iframe app: location.origin is \"null\" and the error points at window.origin, which attaches and answers the frame's own messages", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const frame = document.createElement("iframe");
      frame.srcdoc = "<button data-e2e-kind=playable data-e2e-id=go>Go</button>";
      await new Promise((resolve) => { frame.onload = resolve; document.body.append(frame); });
      const w = frame.contentWindow;
      const attach = (origins) => {
        window.P.resetPlayableForTests();
        try { window.P.installPlayable({ root: w.document, allowedOrigins: origins }).attachWindowBridge(); return "attached"; } catch (e) { return e.message; }
      };
      const viaLocation = attach([w.location.origin]);
      const viaWindow = attach([w.origin]);
      // The frame's own code posts a hello to its own window (event.source and event.origin are the frame's).
      const reply = new Promise((resolve) => w.addEventListener("message", (e) => { if (e.data && e.data.dir === "up") resolve(e.data.envelope.ok); }));
      new w.Function("window.postMessage({ channel: 'in-page-playable', dir: 'down', seq: 1, envelope: { pageId: null, requestId: 'f1', cmd: 'hello', payload: {} } }, '*')")();
      const ok = await Promise.race([reply, new Promise((resolve) => setTimeout(() => resolve("no reply"), 3000))]);
      window.P.resetPlayableForTests();
      return { location: w.location.origin, origin: w.origin, same: w.origin === location.origin, viaLocation, viaWindow, ok };
    });
    assert.equal(r.location, "null");
    assert.equal(r.same, true, "the frame inherited this page's origin");
    assert.match(r.viaLocation, /^allowedOrigins entry "null" is not an origin: .*use window\.origin/);
    assert.equal(r.viaWindow, "attached");
    assert.equal(r.ok, true);
  }));

test("attachWindowBridge: an entry is an origin as event.origin writes it, or a clear error (no path, pattern, spaces, default port or \"null\")", () =>
  withPage(async (page) => {
    const r = await page.evaluate(() => {
      const attach = (origin) => {
        window.P.resetPlayableForTests();
        try { window.P.installPlayable({ allowedOrigins: [origin] }).attachWindowBridge(); return "attached"; } catch (e) { return e.message; }
      };
      const bad = ["https://example.com/", "https://*.example.com", " " + location.origin, "null", "HTTP://EXAMPLE.COM", "https://example.com:443", "http://localhost:08080"].map(attach);
      const good = [location.origin, "http://[::1]:8080", "chrome-extension://abcdefghijklmnop"].map(attach);
      window.P.resetPlayableForTests();
      // What the browser itself writes for the two refused ports.
      const written = [new URL("https://example.com:443").origin, new URL("http://localhost:08080").origin];
      return { bad, good, written };
    });
    for (const m of r.bad) assert.match(m, /^allowedOrigins entry ".*" is not an origin/);
    assert.equal(r.bad.length, 7);
    assert.deepEqual(r.good, ["attached", "attached", "attached"]);
    assert.deepEqual(r.written, ["https://example.com", "http://localhost:8080"]);
  }));

test("attachWindowBridge on a page whose addEventListener (or removeEventListener) throws: a clear error, nothing attached, and a later attach works", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      const orig = { add: EventTarget.prototype.addEventListener, remove: EventTarget.prototype.removeEventListener };
      const refusals = [];
      const attempt = () => { try { p.attachWindowBridge(); return "attached"; } catch (e) { return [e.constructor.name, e.message]; } };
      // On the prototype, then on the window itself; then removeEventListener.
      EventTarget.prototype.addEventListener = function () { throw new Error("no listeners here"); };
      refusals.push(attempt());
      EventTarget.prototype.addEventListener = orig.add;
      window.addEventListener = () => { throw new Error("not on this window"); };
      refusals.push(attempt());
      delete window.addEventListener;
      EventTarget.prototype.removeEventListener = function () { throw new Error("stuck"); };
      refusals.push(attempt());
      EventTarget.prototype.removeEventListener = orig.remove;
      __post(__hello(1));
      await __settle();
      const before = __ups.length;
      const later = attempt();
      __post(__hello(2));
      await __until(1);
      const hello = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      return { refusals, before, later, ups: __ups.map((u) => u.data.seq), handled: hello.ok };
    }, HELPERS.toString());
    assert.deepEqual(r.refusals, [
      ["Error", "attachWindowBridge() attached no listener: the page's addEventListener threw (no listeners here)"],
      ["Error", "attachWindowBridge() attached no listener: the page's addEventListener threw (not on this window)"],
      ["Error", "attachWindowBridge() attached no listener: the page's removeEventListener threw (stuck), so the bridge could never be detached"],
    ]);
    assert.equal(r.before, 0, "no listener was left attached");
    assert.equal(r.later, "attached");
    assert.deepEqual(r.ups, [2], "the later attach answers, once");
    assert.equal(r.handled, true);
  }));

test("detaching on a page whose removeEventListener throws since the attach: nothing thrown, no more replies, the module keeps working", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const orig = EventTarget.prototype.removeEventListener;
      const hello = (p) => p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} }).then((u) => u.ok, (e) => "rejected: " + e.message);
      const act = (f) => { try { f(); return "ok"; } catch (e) { return e.message; } };
      const answered = async (seq) => { __ups.length = 0; __post(__hello(seq)); await __settle(); return __ups.map((u) => u.data.seq); };
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      // On the window itself, then on the prototype (resetPlayableForTests).
      window.removeEventListener = () => { throw new Error("stuck"); };
      const detached = act(() => window.P.detachWindowBridgeForTests());
      const afterDetach = await answered(1);
      const handled = await hello(p);
      delete window.removeEventListener;
      const reattached = act(() => p.attachWindowBridge());
      const afterReattach = await answered(2);
      EventTarget.prototype.removeEventListener = function () { throw new Error("stuck"); };
      const reset = act(() => window.P.resetPlayableForTests());
      const afterReset = await answered(3);
      EventTarget.prototype.removeEventListener = orig;
      let q;
      const installed = act(() => { q = window.P.installPlayable({ allowedOrigins: [location.origin] }); q.attachWindowBridge(); });
      const afterInstall = await answered(4);
      return { detached, afterDetach, handled, reattached, afterReattach, reset, afterReset, installed, afterInstall, fresh: q && await hello(q) };
    }, HELPERS.toString());
    assert.deepEqual(r, {
      detached: "ok", afterDetach: [], handled: true,
      reattached: "ok", afterReattach: [2],
      reset: "ok", afterReset: [],
      installed: "ok", afterInstall: [4], fresh: true,
    });
  }));

test("document.open() erases the window's listeners, the bridge's with them: attachWindowBridge() again brings it back, one reply per downlink; detach still removes it", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      const install = new Function("return " + helpers)();
      install();
      const answered = async (seq) => { __ups.length = 0; __post(__hello(seq)); await __settle(); return __ups.map((u) => u.data.seq); };
      const p = window.P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      const before = await answered(1);
      document.open();
      document.write('<!doctype html><button data-e2e-kind="playable" data-e2e-id="new-btn">New</button>');
      document.close();
      install(); // the helpers' own listener was erased too
      const erased = await answered(2);
      p.attachWindowBridge();
      p.attachWindowBridge(); // twice: still one reply
      const back = await answered(3);
      const menu = (await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} })).ok
        && (await p.handle({ pageId: p.pageId, requestId: "s", cmd: "snapshot", payload: {} })).payload.snapshot.menu.map((m) => m.id);
      p.attachWindowBridge(); // while attached: still one reply
      const still = await answered(4);
      window.P.detachWindowBridgeForTests();
      const detached = await answered(5);
      return { before, erased, back, menu, still, detached };
    }, HELPERS.toString());
    assert.deepEqual(r, { before: [1], erased: [], back: [3], menu: ["new-btn"], still: [4], detached: [] });
  }));

test("installPlayable({ window }) of another origin is a TypeError naming its unreadable document: nothing installed, this window unmarked", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (src) => {
      const frame = await new Promise((res) => { const f = document.createElement("iframe"); f.src = src; f.onload = () => res(f); document.body.append(f); });
      const tryIt = (options) => { try { window.P.installPlayable(options); return "installed"; } catch (e) { return e.name + ": " + e.message; } };
      const out = { alone: tryIt({ window: frame.contentWindow }), here: window.__IN_PAGE_PLAYABLE_V1__ };
      frame.remove();
      return out;
    }, other.origin + "/tests/fixtures/seed.html");
    assert.deepEqual(r, {
      alone: "TypeError: installPlayable: reading options.window.document threw (a window of another origin cannot be scanned)",
      here: undefined,
    });
  }));

test("a frame installed into that navigates to another origin: its old object answers RETIRED (nothing throws reading the frame), and installPlayable({ window }) is the TypeError of any window of another origin", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (src) => {
      const f = document.createElement("iframe");
      f.src = "/tests/fixtures/seed.html";
      const loaded = () => new Promise((resolve) => f.addEventListener("load", () => resolve(), { once: true }));
      const first = loaded();
      document.body.append(f);
      await first;
      const old = window.P.installPlayable({ root: f.contentDocument, allowedOrigins: [location.origin] });
      old.attachWindowBridge();
      const h = await old.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const navigated = loaded();
      f.src = src;
      await navigated;
      const snap = await old.handle({ pageId: h.payload.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      const tryIt = (options) => { try { window.P.installPlayable(options); return "installed"; } catch (e) { return e.name + ": " + e.message; } };
      return {
        snap: snap.ok ? "ok" : snap.error.code,
        phase: old.phase,
        again: tryIt({ window: f.contentWindow }),
        here: window.__IN_PAGE_PLAYABLE_V1__,
      };
    }, other.origin + "/tests/fixtures/seed.html");
    assert.deepEqual(r, {
      snap: "RETIRED",
      phase: "retired",
      again: "TypeError: installPlayable: reading options.window.document threw (a window of another origin cannot be scanned)",
      here: undefined,
    });
  }));

test("frame isolation: parent and child ignore each other; a second origin drives neither", async () => {
  const page = await ctx.browser.newPage();
  try {
    await page.goto(ctx.server.origin + "/tests/fixtures/blank.html");
    await page.evaluate(async ({ same, cross }) => {
      const load = (src) => new Promise((res) => { const f = document.createElement("iframe"); f.src = src; f.onload = () => res(f); document.body.append(f); });
      window.__child = await load(same);
      window.__cross = await load(cross);
    }, { same: ctx.server.origin + "/tests/fixtures/seed.html", cross: other.origin + "/tests/fixtures/seed.html" });
    const frames = page.frames();
    const child = frames.find((f) => f.url().startsWith(ctx.server.origin + "/tests/fixtures/seed.html"));
    const cross = frames.find((f) => f.url().startsWith(other.origin));
    const setup = async () => {
      const P = await import("/www/index.js");
      window.__ups = [];
      window.addEventListener("message", (e) => { if (e.data && e.data.dir === "up") window.__ups.push(e.data); });
      const p = P.installPlayable({ allowedOrigins: [location.origin] });
      p.attachWindowBridge();
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      window.__clicks = window.__clicks || [];
      return h.payload.pageId;
    };
    const parentId = await page.evaluate(setup);
    const childId = await child.evaluate(setup);
    assert.notEqual(parentId, childId, "each window has its own instance and pageId");
    const run = (pageId, seq) => ({ channel: "in-page-playable", dir: "down", seq, envelope: { pageId, requestId: "f" + seq, cmd: "run", payload: { id: "btn-save" } } });
    // Child → parent, parent → child, cross-origin → both.
    await child.evaluate(([m1]) => parent.postMessage(m1, "*"), [run(parentId, 1)]);
    await page.evaluate(([m2]) => window.__child.contentWindow.postMessage(m2, "*"), [run(childId, 2)]);
    await cross.evaluate(([m3, m4]) => { parent.postMessage(m3, "*"); parent.frames[0].postMessage(m4, "*"); }, [run(parentId, 3), run(childId, 4)]);
    await page.waitForTimeout(300);
    const parentState = await page.evaluate(() => ({ ups: window.__ups.length }));
    const childState = await child.evaluate(() => ({ ups: window.__ups.length, clicks: window.__clicks }));
    assert.deepEqual(parentState, { ups: 0 });
    assert.deepEqual(childState, { ups: 0, clicks: [] });
    // The child's own same-window message still works.
    await child.evaluate(([m]) => window.postMessage(m, "*"), [run(childId, 5)]);
    await page.waitForTimeout(300);
    const after = await child.evaluate(() => ({ ups: window.__ups.map((u) => [u.seq, u.envelope.ok]), clicks: window.__clicks }));
    assert.deepEqual(after, { ups: [[5, true]], clicks: ["btn-save"] });
  } finally {
    await page.close();
  }
});
