// Shared setup for the browser suites: one static server and one Chromium per
// test file, a fresh page per test with the package imported as `window.P`.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./server.mjs";
import { launch } from "./browser.mjs";

/** `extra` goes to launch(): `{ args }` adds Chromium flags (e.g. WebMCP). */
export function useBrowser(extra = {}) {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await startServer();
    ctx.browser = await launch(extra);
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  /** Opens `path` in a new page that records its uncaught errors in `page.errors`. */
  const visit = async (path) => {
    const page = await ctx.browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e));
    page.errors = errors;
    await page.goto(ctx.server.origin + path);
    return page;
  };
  /** Runs `fn(page)`, asserts no uncaught page errors, closes the page. */
  const settle = async (page, fn) => {
    try {
      const result = await fn(page);
      assert.deepEqual(page.errors, [], "no uncaught page errors");
      return result;
    } finally {
      await page.close();
    }
  };
  /** Opens `path` and imports the package as window.P (and the fixture globals). */
  ctx.open = async (path = "/tests/fixtures/seed.html") => {
    const page = await visit(path);
    await page.evaluate(async () => {
      window.P = await import("/www/index.js");
    });
    return page;
  };
  /** Opens `path`, runs `fn(page)`, asserts no uncaught page errors, closes the page. */
  ctx.withPage = async (path, fn) => settle(await ctx.open(path), fn);
  /**
   * A snippet on its own, without the package: opens a blank page, imports
   * each of `modules` as a window global (`{ G: "/crates/sense/src/gather.js" }`
   * makes `window.G`), mounts `html` in a div#root, runs `setup` in the page
   * (for in-page helpers; it sees the globals), then `fn(page)`; asserts no
   * uncaught page errors and closes the page. Returns what `fn` returns.
   */
  ctx.withSnippet = async ({ modules, html = "", setup }, fn) => {
    const page = await visit("/tests/fixtures/blank.html");
    return settle(page, async () => {
      await page.evaluate(
        async ({ modules, html }) => {
          for (const [name, path] of Object.entries(modules)) window[name] = await import(path);
          const root = document.createElement("div");
          root.id = "root";
          root.innerHTML = html;
          document.body.append(root);
        },
        { modules, html },
      );
      if (setup) await page.evaluate(setup);
      return fn(page);
    });
  };
  return ctx;
}

/** In-page helper source: hello, then returns the pageId. */
export const HELLO = async () => {
  const p = window.P.installPlayable();
  const up = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
  return up.payload.pageId;
};
