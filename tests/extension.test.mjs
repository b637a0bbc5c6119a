// The example MV3 extension (examples/extension/) loaded into Debian's
// Chromium in new headless mode and driven from its service worker:
// hello → snapshot → run on a page that does not ship the package, the
// clear error on a page whose CSP forbids compiling WebAssembly, the lazy
// install (on the agent's first request) and pages that install their own copy.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./support/browser.mjs";
import { startServer } from "./support/server.mjs";

const EXTENSION = fileURLToPath(new URL("../examples/extension", import.meta.url));
const FIXTURE = "/tests/fixtures/extension-page.html";

let server, context, worker, profile;
before(async () => {
  // Copy the built package into the extension (the same step scripts/test.sh runs).
  const build = spawnSync(process.execPath, [join(EXTENSION, "build.mjs")], { encoding: "utf8" });
  assert.equal(build.status, 0, build.stderr);
  server = await startServer();
  profile = await mkdtemp(join(tmpdir(), "in-page-playable-ext-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`],
    ignoreDefaultArgs: ["--disable-extensions"],
  });
  worker = context.serviceWorkers()[0] || (await context.waitForEvent("serviceworker"));
});
after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

// The extension's CSP forbids eval, so each worker-side step is a whole
// function handed to worker.evaluate; it finds the tab by URL itself.
test("the extension's service worker is the example's", () => {
  assert.match(worker.url(), /^chrome-extension:\/\/[a-p]{32}\/service-worker\.js$/);
});

test("the manifest lists the package's JS and .wasm by name under web_accessible_resources: exactly the files build.mjs copies", async () => {
  const { readFile, readdir } = await import("node:fs/promises");
  const manifest = JSON.parse(await readFile(join(EXTENSION, "manifest.json"), "utf8"));
  const listed = manifest.web_accessible_resources.flatMap((r) => r.resources).sort();
  const copied = (await readdir(join(EXTENSION, "playable"), { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? d.path, d.name).slice(EXTENSION.length + 1))
    .sort();
  assert.deepEqual(listed, copied);
  assert.ok(listed.some((f) => f.endsWith(".wasm")) && listed.some((f) => f.endsWith(".js")));
});

test("a page without the package: the extension installs it, and its service worker runs hello → snapshot → run", async () => {
  const page = await context.newPage();
  try {
    await page.goto(server.origin + FIXTURE);
    const r = await worker.evaluate(async (url) => {
      const [{ id: tab }] = await chrome.tabs.query({ url });
      const api = globalThis.inPagePlayable;
      const status = await api.status(tab);
      const hello = await api.hello(tab);
      const snapshot = await api.snapshot(tab);
      const run = await api.run(tab, "greet");
      const disabled = await api.run(tab, "off");
      const generic = await api.run(tab, "g0");
      return { status, hello, snapshot, run, disabled, generic };
    }, server.origin + FIXTURE);
    assert.deepEqual(r.status, { state: "ready", installedBy: "extension" });
    assert.equal(r.hello.ok, true, "the relay delivered");
    const pageId = r.hello.uplink.payload.pageId;
    assert.match(pageId, /^[0-9a-f]{32}$/);
    const { snapshot, escapes } = r.snapshot.uplink.payload;
    assert.equal(snapshot.pageTitle, "extension-fixture");
    assert.deepEqual(snapshot.menu.map((m) => [m.id, m.enabled]), [["greet", true], ["off", false]]);
    assert.deepEqual(snapshot.generics.map((g) => [g.ref, g.role, g.name]), [["g0", "link", "About"]]);
    assert.deepEqual(escapes, [{ type: "reload", allowed: true }]);
    assert.deepEqual(r.run.uplink, { pageId, requestId: "sw-3", ok: true, payload: { id: "greet" } });
    assert.equal(r.disabled.uplink.error.code, "NOT_ACTIONABLE");
    assert.equal(r.generic.uplink.error.code, "NOT_IN_MENU");

    const seen = await page.evaluate(() => ({
      clicks: window.__clicks,
      count: document.getElementById("count").textContent,
      marker: "__IN_PAGE_PLAYABLE_V1__" in window,
      bridge: window.__bridge,
    }));
    assert.deepEqual(seen.clicks, ["greet"], "exactly one click, by the one successful run");
    assert.equal(seen.count, "1");
    assert.equal(seen.marker, true, "installed in the page's own (MAIN) world");
    // The relay only passes messages: every envelope went down the page's
    // window bridge unchanged and the bridge's answer came back.
    assert.deepEqual(seen.bridge.filter(([, id]) => id && id.startsWith("sw-")), [
      ["down", "sw-1", "hello"], ["up", "sw-1", "ok"],
      ["down", "sw-2", "snapshot"], ["up", "sw-2", "ok"],
      ["down", "sw-3", "run"], ["up", "sw-3", "ok"],
      ["down", "sw-4", "run"], ["up", "sw-4", "NOT_ACTIONABLE"],
      ["down", "sw-5", "run"], ["up", "sw-5", "NOT_IN_MENU"],
    ]);
  } finally {
    await page.close();
  }
});

test("a page whose CSP forbids WebAssembly: nothing is installed and the relay reports PlayableLoadError WASM_BLOCKED_BY_CSP", async () => {
  const page = await context.newPage();
  try {
    const response = await page.goto(server.origin + FIXTURE + "?csp=strict");
    assert.equal(response.headers()["content-security-policy"], "script-src 'self'");
    const r = await worker.evaluate(async (url) => {
      const [{ id: tab }] = await chrome.tabs.query({ url });
      const api = globalThis.inPagePlayable;
      return { status: await api.status(tab), hello: await api.hello(tab), run: await api.run(tab, "greet") };
    }, server.origin + FIXTURE + "?csp=strict");
    assert.equal(r.status.state, "failed");
    assert.equal(r.status.error.name, "PlayableLoadError");
    assert.equal(r.status.error.code, "WASM_BLOCKED_BY_CSP");
    assert.match(r.status.error.message, /Content-Security-Policy forbids compiling WebAssembly, so nothing was installed/);
    assert.match(r.status.error.message, /wasm-unsafe-eval/, "the message says how to fix it");
    assert.deepEqual(r.hello, { ok: false, error: r.status.error }, "every request gets the same clear error");
    assert.deepEqual(r.run, { ok: false, error: r.status.error });

    const seen = await page.evaluate(() => ({ clicks: window.__clicks, count: document.getElementById("count").textContent, marker: "__IN_PAGE_PLAYABLE_V1__" in window, bridge: window.__bridge }));
    assert.deepEqual(seen, { clicks: [], count: "0", marker: false, bridge: [] }, "no half-installed instance, nothing posted, nothing clicked");
  } finally {
    await page.close();
  }
});

// The MAIN-world script installs lazily, on the agent's first request, so a
// page that ships the package and installs it late is not beaten to it.
test("nothing is installed before the agent's first request; requests sent together during the install all wait for it and are answered in order", async () => {
  const url = server.origin + FIXTURE + "?lazy";
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(1000); // well past document_idle, when the content scripts ran
    assert.deepEqual(await page.evaluate(() => ({ marker: "__IN_PAGE_PLAYABLE_V1__" in window, bridge: window.__bridge })), { marker: false, bridge: [] }, "a page no agent asked for is left alone");

    const r = await worker.evaluate(async (url) => {
      const [{ id: tab }] = await chrome.tabs.query({ url });
      const api = globalThis.inPagePlayable;
      const down = (requestId, cmd, pageId = null) => api.send(tab, { pageId, requestId, cmd, payload: {} });
      const [first, status, mismatch, second] = await Promise.all([down("q-1", "hello"), api.status(tab), down("q-2", "snapshot"), down("q-3", "hello")]);
      const pageId = first.uplink.payload.pageId;
      const run = await api.send(tab, { pageId, requestId: "q-4", cmd: "run", payload: { id: "greet" } });
      return { first, status, mismatch, second, run };
    }, url);
    assert.deepEqual(r.status, { state: "ready", installedBy: "extension" });
    const pageId = r.first.uplink.payload.pageId;
    assert.match(pageId, /^[0-9a-f]{32}$/);
    assert.deepEqual(r.second.uplink, { pageId, requestId: "q-3", ok: true, payload: { pageId } });
    assert.equal(r.mismatch.uplink.error.code, "PAGE_MISMATCH", "a snapshot with a null pageId is refused, not lost");
    assert.deepEqual(r.run.uplink, { pageId, requestId: "q-4", ok: true, payload: { id: "greet" } });

    const bridge = await page.evaluate(() => window.__bridge);
    const ours = (dir) => bridge.filter(([d, id]) => d === dir && id && id.startsWith("q-")).map(([, id]) => id);
    assert.deepEqual(ours("down"), ["q-1", "q-2", "q-3", "q-4"], "every queued request went down, in order");
    assert.deepEqual(ours("up"), ["q-1", "q-2", "q-3", "q-4"]);
    assert.deepEqual(await page.evaluate(() => window.__clicks), ["greet"]);
  } finally {
    await page.close();
  }
});

test("a page that ships the package and installs it ~1 s after load: the agent's first use finds the page's instance (installedBy \"page\"), the page's own install did not throw, and a run goes through it", async () => {
  const url = server.origin + "/tests/fixtures/extension-late.html";
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__own !== undefined && window.__own !== "pending", null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => window.__own), "installed", "the page's own installPlayable did not throw");

    const r = await worker.evaluate(async (url) => {
      const [{ id: tab }] = await chrome.tabs.query({ url });
      const api = globalThis.inPagePlayable;
      const status = await api.status(tab);
      const hello = await api.hello(tab);
      const pageId = hello.uplink.payload.pageId;
      const snapshot = await api.send(tab, { pageId, requestId: "late-shot", cmd: "snapshot", payload: { screenshot: true } });
      const run = await api.run(tab, "greet");
      return { status, hello, snapshot, run };
    }, url);
    assert.deepEqual(r.status, { state: "ready", installedBy: "page" });
    const pageId = r.hello.uplink.payload.pageId;
    assert.match(pageId, /^[0-9a-f]{32}$/);
    const { snapshot } = r.snapshot.uplink.payload;
    assert.equal(snapshot.pageTitle, "extension-late");
    assert.deepEqual(snapshot.screenshot, { by: "page" }, "the page's instance, with the page's options, answered");
    assert.equal(r.run.uplink.ok, true);
    assert.deepEqual(r.run.uplink.payload, { id: "greet" });
    assert.deepEqual(await page.evaluate(() => ({ clicks: window.__clicks, count: document.getElementById("count").textContent })), { clicks: ["greet"], count: "1" });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the playground (installs at startup, once the package's module has loaded): installedBy \"page\", and the page's own islandSlots answer", async () => {
  const url = server.origin + "/playground/index.html";
  const page = await context.newPage();
  try {
    await page.goto(url);
    // The console mounts right after the page's install: the agent starts once the page has done its setup.
    await page.waitForSelector(".console-head");
    const r = await worker.evaluate(async (url) => {
      const [{ id: tab }] = await chrome.tabs.query({ url });
      const api = globalThis.inPagePlayable;
      const status = await api.status(tab);
      await api.hello(tab);
      const snapshot = await api.snapshot(tab);
      const run = await api.run(tab, "list-pagination:next");
      return { status, snapshot, run };
    }, url);
    assert.deepEqual(r.status, { state: "ready", installedBy: "page" });
    assert.deepEqual(r.snapshot.uplink.payload.snapshot.islands, [{ id: "list-pagination", slots: [{ name: "prev", id: "list-pagination:prev", resolved: true }, { name: "next", id: "list-pagination:next", resolved: true }] }]);
    assert.equal(r.run.uplink.ok, true);
    assert.equal(await page.locator("#page-label").innerText(), "Page 2 of 5");
    assert.equal(await page.locator(".install-error").count(), 0, "the page's own install did not fail");
  } finally {
    await page.close();
  }
});
