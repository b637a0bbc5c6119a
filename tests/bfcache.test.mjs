// The back/forward cache in real Chromium. Playwright launches Chromium with
// the cache off (--disable-back-forward-cache); here it is on, and a page
// asked for with `?store` (tests/support/server.mjs: not no-store) may enter
// it. The other suites keep it off.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";

const ctx = useBrowser({ options: { ignoreDefaultArgs: ["--disable-back-forward-cache"] } });

test("a reload the page cancels, then its person leaves and comes back through the back/forward cache: that pagehide is no reload, so the instance is live again 10 s after, same pageId", () =>
  ctx.withPage("/tests/fixtures/seed.html?store", async (page) => {
    const dialogs = [];
    page.on("dialog", (d) => { dialogs.push(d.type()); d.dismiss(); }); // dismiss: stay on the page
    await page.evaluate(() => {
      window.addEventListener("beforeunload", (window.__stay = (e) => { e.preventDefault(); e.returnValue = ""; }));
      window.addEventListener("pagehide", (e) => { (window.__hides ||= []).push(e.persisted); });
      window.addEventListener("pageshow", (e) => { (window.__shows ||= []).push(e.persisted); });
      window.__same = true;
    });
    await page.mouse.click(5, 5); // the user activation a beforeunload dialog needs
    const before = await page.evaluate(async () => {
      const p = (window.__p = window.P.installPlayable());
      const h = await p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      const e = await p.handle({ pageId: h.payload.pageId, requestId: "e", cmd: "escape", payload: { type: "reload" } });
      return { pageId: h.payload.pageId, e: e.payload };
    });
    assert.deepEqual(before.e, { type: "reload", retired: true });
    await page.waitForFunction(() => window.__p.phase === "retired" && document.readyState === "complete");
    for (let i = 0; i < 100 && dialogs.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(dialogs, ["beforeunload"], "the page asked, and its person stayed");
    // A beforeunload handler keeps a page out of the cache: the person is done with it.
    await page.evaluate(() => window.removeEventListener("beforeunload", window.__stay));
    await page.goto(ctx.server.origin + "/tests/fixtures/blank.html?store");
    await page.goBack({ waitUntil: "commit" });
    await page.waitForFunction(() => (window.__shows || []).includes(true));
    const back = await page.evaluate(() => ({ same: window.__same === true, hides: window.__hides, shows: window.__shows }));
    assert.deepEqual(back, { same: true, hides: [true], shows: [true] }, "the same document, restored from the cache");
    await new Promise((r) => setTimeout(r, 10_500)); // bom::STAYED_AFTER_MS, and a margin
    const after = await page.evaluate(async () => {
      const h = await window.__p.handle({ pageId: null, requestId: "h2", cmd: "hello", payload: {} });
      return { same: window.__same === true, phase: window.__p.phase, pageId: h.ok ? h.payload.pageId : h.error.code };
    });
    assert.deepEqual(after, { same: true, phase: "live", pageId: before.pageId });
  }));
