// playable.publishWebMcp() in real Chromium with WebMCP on, checked through a
// client nobody here wrote: Playwright's page.webmcp.tools() / callTool().
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";
import { launch } from "./support/browser.mjs";

const ctx = useBrowser({ args: ["--enable-features=WebMCP"] });
const FIXTURE = "/tests/fixtures/webmcp.html";
const SLOTS = { pager: { next: { ariaLabel: "Next page" } } };

// What the naming rule gives "pager:next" and "save draft" (see docs/mcp.md):
// disallowed characters become "_", then "-" and the name hash (64-bit
// FNV-1a, its halves xor-ed).
function fnv1a(s) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, "utf8")) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return ((h >> 32n) ^ (h & 0xffffffffn)).toString(16).padStart(8, "0");
}
const PAGER = "pager_next-" + fnv1a("pager:next");
const SAVE = "save_draft-" + fnv1a("save draft");

const withPage = (fn, path = FIXTURE) => ctx.withPage(path, fn);

/** Installs (optionally with extra options) and publishes; returns the pageId. */
function publish(page, extra = {}) {
  return page.evaluate(
    ({ slots, extra }) => {
      const options = { islandSlots: slots };
      if (extra.blockable) {
        // A screenshot that waits for the test: holds the request queue.
        options.captureScreenshot = () => new Promise((r) => (window.__release = r));
      }
      if (extra.retiring) options.ports = { bom: { run: () => ({ ok: true, retired: true }) } };
      window.__p = window.P.installPlayable(options);
      window.__pub = window.__p.publishWebMcp();
      return window.__pub.active;
    },
    { slots: SLOTS, extra },
  );
}

const names = async (page) => (await page.webmcp.tools()).map((t) => t.name).sort();

/** Polls the tool list until `want` holds (the publication resyncs within 100 ms). */
async function until(page, want, what) {
  const deadline = Date.now() + 3000;
  let last;
  while (Date.now() < deadline) {
    last = await names(page);
    if (want(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`${what}: tools are ${JSON.stringify(last)}`);
}

test("the tools are exactly the runnable menu, named, described and typed", () =>
  withPage(async (page) => {
    assert.equal(await publish(page), true);
    const expected = ["inc", "name", PAGER, "reset", SAVE].sort();
    await until(page, (n) => n.length === expected.length, "first publication");
    const tools = await page.webmcp.tools();
    assert.deepEqual(tools.map((t) => t.name).sort(), expected);

    // Cross-check with the menu the page itself reports: enabled, visible, not ambiguous, known event.
    const menu = await page.evaluate(async () => {
      const up = await window.__p.handle({ pageId: window.__p.pageId, requestId: "s", cmd: "snapshot", payload: {} });
      return up.payload.snapshot.menu;
    });
    const runnable = menu.filter((m) => m.enabled && m.visible && !m.ambiguous && ["click", "input", "scroll", "drag"].includes(m.event));
    assert.equal(runnable.length, tools.length);
    assert.ok(menu.some((m) => m.id === "off" && !m.enabled), "disabled item is in the menu but not published");

    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(byName.inc.description, "Increment: Adds one to the counter");
    assert.deepEqual(byName.inc.inputSchema, { type: "object", properties: {}, additionalProperties: false });
    assert.deepEqual(byName.name.inputSchema.required, ["value"]);
    assert.equal(byName[PAGER].description, 'Next page (menu item "pager:next")');
    assert.equal(byName[SAVE].description, 'Save draft (menu item "save draft")');
    assert.equal(await page.evaluate(() => window.__p.phase), "live", "the publication said hello");
  }));

test("callTool clicks through the run path and returns the uplink", () =>
  withPage(async (page) => {
    await publish(page);
    await until(page, (n) => n.includes("inc"), "inc published");
    const up = await page.webmcp.callTool("inc", {});
    const pageId = await page.evaluate(() => window.__p.pageId);
    assert.equal(up.ok, true);
    assert.equal(up.pageId, pageId);
    assert.deepEqual(up.payload, { id: "inc" });
    assert.match(up.requestId, /^webmcp-[0-9a-f]{8}-\d+$/);
    await page.webmcp.callTool("inc", {});
    const slot = await page.webmcp.callTool(PAGER, {});
    assert.deepEqual(slot.payload, { id: "pager:next" }, "a sanitised name runs its own id");
    assert.deepEqual(await page.evaluate(() => [document.getElementById("count").value, window.__clicks]), ["2", ["inc", "inc", "Next page"]]);
  }));

test("the tools follow the live menu: removed, hidden, disabled, shown", () =>
  withPage(async (page) => {
    await publish(page);
    await until(page, (n) => n.includes("reset"), "reset published");
    await page.evaluate(() => document.querySelector('[data-e2e-id="reset"]').remove());
    await until(page, (n) => !n.includes("reset"), "removed element withdrawn");
    await page.evaluate(() => { document.querySelector('[data-e2e-id="inc"]').disabled = true; });
    await until(page, (n) => !n.includes("inc"), "disabled element withdrawn");
    await page.evaluate(() => { document.querySelector('[data-e2e-id="later"]').hidden = false; });
    await until(page, (n) => n.includes("later"), "shown element published");
    await page.evaluate(() => { document.querySelectorAll('[data-e2e-id="dup"]')[1].remove(); });
    await until(page, (n) => n.includes("dup"), "no longer ambiguous: published");
    await page.evaluate(() => document.querySelector('[data-e2e-id="later"]').setAttribute("data-e2e-title", "Later on"));
    const deadline = Date.now() + 3000;
    let later;
    while (Date.now() < deadline) {
      later = (await page.webmcp.tools()).find((t) => t.name === "later");
      if (later && later.description === "Later on") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(later?.description, "Later on", "a retitled item is re-registered");
    assert.deepEqual(await page.evaluate(() => window.__clicks), []);
  }));

test("the tools follow items inside open shadow roots, nested ones and ones attached later", () =>
  withPage(async (page) => {
    await page.evaluate(() => {
      // A shadow host holding an item and a nested host with one of its own.
      const host = document.createElement("div");
      host.id = "shadow-host";
      const shadow = host.attachShadow({ mode: "open" });
      shadow.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="sh" data-e2e-title="Shadow">S</button><span id="nest"></span>';
      shadow.getElementById("nest").attachShadow({ mode: "open" }).innerHTML =
        '<button data-e2e-kind="playable" data-e2e-id="nested" data-e2e-title="Nested">N</button>';
      document.body.append(host);
    });
    await publish(page);
    await until(page, (n) => n.includes("sh") && n.includes("nested"), "shadow items published");
    // Changes inside the shadow trees alone, nothing in the light DOM.
    const inShadow = (body) => page.evaluate((body) => {
      const shadow = document.getElementById("shadow-host").shadowRoot;
      new Function("shadow", "nested", body)(shadow, shadow.getElementById("nest").shadowRoot);
    }, body);
    await inShadow('shadow.querySelector("[data-e2e-id=sh]").disabled = true;');
    await until(page, (n) => !n.includes("sh"), "a disabled shadow item withdrawn");
    await inShadow('nested.querySelector("[data-e2e-id=nested]").remove();');
    await until(page, (n) => !n.includes("nested"), "a removed nested item withdrawn");
    await inShadow('nested.innerHTML = \'<button data-e2e-kind="playable" data-e2e-id="added" data-e2e-title="Added">A</button>\';');
    await until(page, (n) => n.includes("added"), "an item added in a nested shadow root published");
    // A shadow root attached later (with a change that shows it), then changed inside alone.
    await inShadow(`
      const late = document.createElement("p");
      late.attachShadow({ mode: "open" }).innerHTML = '<i>empty</i>';
      shadow.append(late);
      window.__late = late.shadowRoot;`);
    await page.waitForTimeout(200); // the re-read after the insertion, which finds the new root
    await page.evaluate(() => { window.__late.innerHTML = '<button data-e2e-kind="playable" data-e2e-id="later-shadow">L</button>'; });
    await until(page, (n) => n.includes("later-shadow"), "an item added in a shadow root attached later published");
    await page.evaluate(() => window.__pub.stop());
  }));

test("a tool whose element was removed answers an error and clicks nothing", () =>
  withPage(async (page) => {
    await publish(page, { blockable: true });
    await until(page, (n) => n.includes("inc"), "inc published");
    // Hold the request queue with a pending screenshot so the resync cannot
    // withdraw "inc" before the agent's call arrives; then remove the element.
    await page.evaluate(() => {
      window.__held = window.__p.handle({ pageId: window.__p.pageId, requestId: "hold", cmd: "snapshot", payload: { screenshot: true } });
      window.__activated = new Promise((r) => document.modelContext.addEventListener("toolactivated", r, { once: true }));
      document.querySelector('[data-e2e-id="inc"]').remove();
    });
    const call = page.webmcp.callTool("inc", {});
    await page.evaluate(async () => {
      await window.__activated; // the call reached the tool's execute
      window.__release({ mime: "none" });
      await window.__held;
    });
    const up = await call;
    assert.equal(up.ok, false);
    assert.equal(up.error.code, "NOT_IN_MENU");
    assert.match(up.error.message, /"inc"/);
    await until(page, (n) => !n.includes("inc"), "withdrawn after the call");
    assert.deepEqual(await page.evaluate(() => [document.getElementById("count").value, window.__clicks]), ["0", []]);
  }));

test("a menu tool called with arguments it cannot read (a revoked proxy, a throwing ownKeys trap) runs with the id alone: the call settles, nothing escapes, the next call is answered", () =>
  withPage(async (page) => {
    // The tool objects as the page's modelContext receives them, to call
    // their execute with values no client can send over the wire.
    await page.evaluate(() => {
      const mc = document.modelContext;
      const register = mc.registerTool.bind(mc);
      window.__tools = new Map();
      mc.registerTool = (tool, options) => {
        window.__tools.set(tool.name, tool);
        return register(tool, options);
      };
    });
    await publish(page);
    await until(page, (n) => n.includes("inc"), "inc published");
    const r = await page.evaluate(async () => {
      const settled = (p) => Promise.race([p, new Promise((res) => setTimeout(() => res("never settled"), 2000))]);
      const revoked = Proxy.revocable({}, {});
      revoked.revoke();
      const inc = window.__tools.get("inc");
      return {
        revoked: await settled(inc.execute(revoked.proxy)),
        trap: await settled(inc.execute(new Proxy({}, { ownKeys() { throw new Error("trap"); } }))),
        next: await settled(inc.execute({})),
        count: document.getElementById("count").value,
      };
    });
    for (const name of ["revoked", "trap", "next"]) {
      assert.equal(r[name].ok, true, name + ": " + JSON.stringify(r[name]));
      assert.deepEqual(r[name].payload, { id: "inc" }, name);
    }
    assert.equal(r.count, "3", "each call clicked once");
  }));

test("a refused run has zero side effects and the uplink says why", () =>
  withPage(async (page) => {
    // The style element exists before publishing, so no DOM change is pending later.
    await page.evaluate(() => {
      const style = document.createElement("style");
      document.head.append(style);
      window.__sheet = style.sheet;
    });
    await publish(page);
    await until(page, (n) => n.includes("reset"), "reset published");
    // Hidden by CSSOM alone (no DOM mutation): the tool is still listed, the run refuses.
    await page.evaluate(() => window.__sheet.insertRule('[data-e2e-id="reset"] { display: none }'));
    const up = await page.webmcp.callTool("reset", {});
    assert.equal(up.ok, false);
    assert.equal(up.error.code, "NOT_ACTIONABLE");
    await until(page, (n) => !n.includes("reset"), "re-read after the call withdraws it");
    assert.deepEqual(await page.evaluate(() => window.__clicks), []);
  }));

test("stop() withdraws every tool, and a second publish starts again", () =>
  withPage(async (page) => {
    await publish(page);
    await until(page, (n) => n.length === 5, "published");
    assert.equal(await page.evaluate(() => window.__p.publishWebMcp() !== null && window.__p.publishWebMcp().active), true);
    await page.evaluate(() => window.__pub.stop());
    assert.deepEqual(await names(page), []);
    assert.equal(await page.evaluate(() => window.__pub.active), false);
    // Changes after stop publish nothing.
    await page.evaluate(() => { document.querySelector('[data-e2e-id="later"]').hidden = false; });
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await names(page), []);
    await page.evaluate(() => { window.__pub = window.__p.publishWebMcp(); });
    await until(page, (n) => n.includes("later") && n.length === 6, "republished");
    await page.evaluate(() => window.__pub.stop());
    assert.deepEqual(await names(page), []);
  }));

test("a publication cannot be freed: free() and Symbol.dispose do nothing, the object handed out again still reads and stops", () =>
  withPage(async (page) => {
    await publish(page);
    await until(page, (n) => n.length === 5, "published");
    const r = await page.evaluate(() => {
      const tryIt = (f) => { try { return f(); } catch (e) { return "threw: " + e.message; } };
      window.__pub.free(); // wasm-bindgen's own method on every exported class
      if (Symbol.dispose) window.__pub[Symbol.dispose]();
      const again = window.__p.publishWebMcp();
      return { same: again === window.__pub, active: tryIt(() => again.active), stop: tryIt(() => (again.stop(), again.active)) };
    });
    assert.deepEqual(r, { same: true, active: true, stop: false });
    assert.deepEqual(await names(page), []);
  }));

test("retiring the page (reload escape) withdraws every tool", () =>
  withPage(async (page) => {
    await publish(page, { retiring: true });
    await until(page, (n) => n.length === 5, "published");
    const up = await page.evaluate(() =>
      window.__p.handle({ pageId: window.__p.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } }),
    );
    assert.equal(up.ok, true);
    assert.deepEqual(await names(page), []);
    assert.deepEqual(await page.evaluate(() => [window.__pub.active, window.__p.publishWebMcp().active]), [false, false]);
  }));

test("without WebMCP, publishWebMcp() is a no-op", async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e));
    await page.goto(ctx.server.origin + FIXTURE);
    const r = await page.evaluate(async () => {
      const P = await import("/www/index.js");
      const p = P.installPlayable();
      const pub = p.publishWebMcp();
      await new Promise((r) => setTimeout(r, 150));
      pub.stop();
      return { active: pub.active, phase: p.phase, hasContext: "modelContext" in document };
    });
    assert.deepEqual(r, { active: false, phase: "installed", hasContext: false });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test("Surface capabilities are published with their schemas; a call is an invoke", () =>
  withPage(async (page) => {
    const described = await page.evaluate(async () => {
      window.__surface = window.makeSurface();
      window.__spub = window.__surface.publishWebMcp();
      const r = await window.__surface.handle(window.req("describe", { input: { capabilities: "all" } }));
      return r.result;
    });
    const whole = new Set(described.unavailable.filter((u) => !("record" in u)).map((u) => u.capability));
    const expected = described.capabilities.filter((c) => !whole.has(c.id));
    assert.ok(expected.length >= 2, JSON.stringify(described.capabilities.map((c) => c.id)));
    const NOTE = "orders.update_note_order-" + fnv1a("orders.update_note@order");
    await until(page, (n) => n.length === expected.length, "capabilities published");
    const tools = await page.webmcp.tools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.ok(byName["orders.search"], "a valid id is its own name");
    assert.deepEqual(byName["orders.search"].inputSchema, described.capabilities.find((c) => c.id === "orders.search").input);
    assert.equal(byName[NOTE].description, 'Update the note (capability "orders.update_note@order")');
    assert.deepEqual(byName[NOTE].inputSchema.required.slice().sort(), ["note", "record"]);

    const searched = await page.webmcp.callTool("orders.search", { q: "ada" });
    assert.equal(searched.ok, true);
    assert.deepEqual(searched.result.value, { hits: 3, q: "ada" });
    const invalid = await page.webmcp.callTool("orders.search", {});
    assert.equal(invalid.result.error.code, "INVALID_PARAMS");
    const locked = await page.webmcp.callTool(NOTE, { record: "SO-1002", note: "x" });
    assert.equal(locked.result.error.code, "ACTION_UNAVAILABLE");
    const noted = await page.webmcp.callTool(NOTE, { record: "SO-1001", note: "call Ada" });
    assert.equal(noted.ok, true);
    assert.equal(noted.result.error, undefined);
    assert.deepEqual(await page.evaluate(() => window.__executed.map(([id]) => id)), ["orders.search", "orders.update_note@order"]);

    // The session loses its scope: nothing is usable, so nothing stays published.
    await page.evaluate(() => {
      window.SESSION = null;
      document.getElementById("status").textContent = "signed out";
    });
    await until(page, (n) => n.length === 0, "withdrawn without a session");
    await page.evaluate(() => window.__spub.stop());
  }, "/tests/fixtures/surface.html"));

test("menu tools are annotated: their results carry page text", () =>
  withPage(async (page) => {
    await publish(page);
    await until(page, (n) => n.length === 5, "published");
    for (const tool of await page.webmcp.tools()) {
      assert.deepEqual(tool.annotations, { untrustedContent: true }, tool.name);
    }
  }));

test("Surface tools are annotated: readOnly when declared, consequential when high risk, untrusted content always", () =>
  withPage(async (page) => {
    await page.evaluate(() => {
      const registry = window.REGISTRY.map((c) => (c.id === "orders.search" ? { ...c, readOnly: true } : c));
      window.__surface = window.makeSurface({ registry });
      window.__spub = window.__surface.publishWebMcp();
    });
    const REFUND = "orders.refund_order-" + fnv1a("orders.refund@order");
    await until(page, (n) => n.includes("orders.search") && n.includes(REFUND), "capabilities published");
    const byName = Object.fromEntries((await page.webmcp.tools()).map((t) => [t.name, t.annotations]));
    assert.deepEqual(byName["orders.search"], { readOnly: true, untrustedContent: true }, "declared readOnly: true");
    assert.deepEqual(byName[REFUND], { untrustedContent: true, consequential: true }, "risk high");
    assert.deepEqual(byName["orders.open"], { untrustedContent: true }, "neither");
    await page.evaluate(() => window.__spub.stop());
  }, "/tests/fixtures/surface.html"));

test("the publication's own reads do not spend the agent's \"changed\": capabilities only the publication saw still come back", () =>
  withPage(async (page) => {
    const full = await page.evaluate(async () => {
      window.__registry = window.REGISTRY.slice(0, 2);
      window.__s = window.makeSurface({ registry: () => window.__registry });
      const r = await window.__s.handle(window.req("describe", { input: { capabilities: "all" } }));
      window.__spub = window.__s.publishWebMcp();
      return r.result.capabilities.map((c) => c.id);
    });
    assert.deepEqual(full, ["orders.search", "orders.open"]);
    await until(page, (n) => n.length === 2, "the first registry published");
    // The registry grows; a DOM change makes the publication re-read it all.
    await page.evaluate(() => {
      window.__registry = window.REGISTRY.slice(0, 3);
      document.getElementById("status").textContent = "grown";
    });
    await until(page, (n) => n.length === 3, "the grown registry published");
    const changed = await page.evaluate(async () => {
      const r = await window.__s.handle(window.req("describe", { input: { capabilities: "changed" } }));
      window.__spub.stop();
      return { unchanged: r.result.capabilitiesUnchanged, ids: r.result.capabilities.map((c) => c.id) };
    });
    assert.deepEqual(changed, { unchanged: false, ids: ["orders.search", "orders.open", "orders.update_note@order"] });
  }, "/tests/fixtures/surface.html"));

// In the page: the menu published, then (200 ms later) the Surface's
// capabilities, as window.__pub and window.__spub.
const PUBLISH_BOTH = async () => {
  window.__p = window.P.installPlayable();
  window.__pub = window.__p.publishWebMcp();
  await new Promise((r) => setTimeout(r, 200));
  window.__surface = window.makeSurface();
  window.__spub = window.__surface.publishWebMcp();
};

test("a page's menu and its Surface published together: a capability whose id a menu tool holds gets the hashed name, not a refused duplicate", () =>
  withPage(async (page) => {
    // On this page the capability `orders.search` also has its control,
    // the playable `orders.search`, which the menu publishes first.
    await page.evaluate(PUBLISH_BOTH);
    const SEARCH = "orders.search-" + fnv1a("orders.search");
    await until(page, (n) => n.includes(SEARCH) && n.includes("orders.search"), "both published");
    const tools = Object.fromEntries((await page.webmcp.tools()).map((t) => [t.name, t]));
    assert.equal(tools["orders.search"].description, "Search", "the menu item");
    assert.equal(tools[SEARCH].description, 'Search orders (capability "orders.search")');
    assert.deepEqual(tools[SEARCH].inputSchema.required, ["q"]);
    const searched = await page.webmcp.callTool(SEARCH, { q: "ada" });
    assert.deepEqual(searched.result.value, { hits: 3, q: "ada" });
    await page.evaluate(() => { window.__spub.stop(); window.__pub.stop(); });
  }, "/tests/fixtures/surface.html"));

/**
 * In the page: the browser's registerTool refuses (rejects) the names in
 * `window.__refuse` (each once, or for good while `__refuseAlways`), and
 * records every name it is asked for in `window.__tries`.
 */
const REFUSING = (names) => {
  const mc = document.modelContext;
  const register = mc.registerTool.bind(mc);
  window.__refuse = new Set(names);
  window.__refuseAlways = false;
  window.__tries = [];
  mc.registerTool = (tool, options) => {
    window.__tries.push(tool.name);
    if (window.__refuse.has(tool.name)) {
      if (!window.__refuseAlways) window.__refuse.delete(tool.name);
      return Promise.reject(new Error("refused for the test"));
    }
    return register(tool, options);
  };
};

test("a registration the browser refuses does not count: not retried in a loop, registered again after a DOM change", () =>
  withPage(async (page) => {
    await page.evaluate(REFUSING, ["reset"]);
    await page.evaluate(() => { window.__refuseAlways = true; });
    await publish(page);
    await until(page, (n) => n.includes("inc"), "published");
    // Refused for good: tried once, and not again without a change.
    await page.waitForTimeout(300);
    assert.deepEqual(await page.evaluate(() => window.__tries.filter((n) => n === "reset")), ["reset"]);
    assert.ok(!(await names(page)).includes("reset"));
    // The browser would take it now; a DOM change re-reads and registers it.
    await page.evaluate(() => {
      window.__refuse.clear();
      document.querySelector('[data-e2e-id="inc"]').setAttribute("data-e2e-desc", "changed");
    });
    await until(page, (n) => n.includes("reset"), "registered again after a DOM change");
    await page.evaluate(() => window.__pub.stop());
  }));

test("a menu tool the browser refused leaves its name free: the Surface's capability of that id takes it, unhashed", () =>
  withPage(async (page) => {
    await page.evaluate(REFUSING, ["orders.search"]);
    await page.evaluate(PUBLISH_BOTH);
    await until(page, (n) => n.includes("orders.search"), "the name orders.search registered");
    const tools = Object.fromEntries((await page.webmcp.tools()).map((t) => [t.name, t]));
    assert.equal(tools["orders.search"]?.description, "Search orders", "the capability holds the name (the menu item's is \"Search\")");
    assert.ok(!("orders.search-" + fnv1a("orders.search") in tools), "not hashed");
    await page.evaluate(() => { window.__spub.stop(); window.__pub.stop(); });
  }, "/tests/fixtures/surface.html"));

test("a Surface tool called with arguments that are not an object is refused by Surface's shape check and runs nothing", () =>
  withPage(async (page) => {
    await page.evaluate(() => {
      window.__surface = window.makeSurface();
      window.__spub = window.__surface.publishWebMcp();
    });
    await until(page, (n) => n.includes("orders.ghost"), "capabilities published");
    const refused = await page.webmcp.callTool("orders.ghost", [1]);
    assert.equal(refused.ok, false);
    assert.equal(refused.error.code, "INVALID_REQUEST");
    assert.deepEqual(await page.evaluate(() => window.__executed), [], "execute never ran");
    await page.evaluate(() => window.__spub.stop());
  }, "/tests/fixtures/surface.html"));
