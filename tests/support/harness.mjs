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
  /** Opens `path` and imports the package as window.P (and the fixture globals). */
  ctx.open = async (path = "/tests/fixtures/seed.html") => {
    const page = await ctx.browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e));
    await page.goto(ctx.server.origin + path);
    await page.evaluate(async () => {
      window.P = await import("/www/index.js");
    });
    page.errors = errors;
    return page;
  };
  /** Opens `path`, runs `fn(page)`, asserts no uncaught page errors, closes the page. */
  ctx.withPage = async (path, fn) => {
    const page = await ctx.open(path);
    try {
      await fn(page);
      assert.deepEqual(page.errors, [], "no uncaught page errors");
    } finally {
      await page.close();
    }
  };
  return ctx;
}

/** In-page helper source: hello, then returns the pageId. */
export const HELLO = async () => {
  const p = window.P.installPlayable();
  const up = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
  return up.payload.pageId;
};
