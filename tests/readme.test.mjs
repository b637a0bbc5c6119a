// The README's examples, run as written against the built package in
// Chromium, so they never rot: its ```html blocks are added to a blank page
// and its ```js blocks run, in README order, as one module (imports of
// "in-page-playable-page" point at the built entry). What the README's
// comments promise is then checked on the values its code names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useBrowser } from "./support/harness.mjs";
import { ENTRY_PATH } from "./support/server.mjs";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The fenced blocks of `markdown` as { lang, code }, in order. */
function blocks(markdown) {
  const out = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m; (m = fence.exec(markdown)); ) out.push({ lang: m[1], code: m[2] });
  return out;
}

/** One module: each html block appended to the body, each js block as it is. */
function program(markdown, entry) {
  return blocks(markdown)
    .filter((b) => b.lang === "html" || b.lang === "js")
    .map((b) =>
      b.lang === "html"
        ? `document.body.insertAdjacentHTML("beforeend", ${JSON.stringify(b.code)});`
        : b.code.replaceAll(`from "in-page-playable-page"`, `from ${JSON.stringify(entry)}`),
    )
    .join("\n");
}

const ctx = useBrowser();

test("the README's blocks are found", () => {
  const langs = blocks(README).map((b) => b.lang);
  assert.ok(langs.filter((l) => l === "js").length >= 4, langs.join(","));
  assert.ok(langs.filter((l) => l === "html").length >= 2, langs.join(","));
  assert.deepEqual(blocks("a\n```js\nx;\n```\n```html\n<p></p>\n```\n"), [
    { lang: "js", code: "x;\n" },
    { lang: "html", code: "<p></p>\n" },
  ]);
});

test("the README's examples run as written and do what their comments say", async () => {
  const page = await ctx.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  try {
    await page.goto(ctx.server.origin + "/tests/fixtures/blank.html");
    await page.evaluate(() => {
      window.__clicks = 0;
      document.addEventListener("click", (e) => {
        if (e.target.closest?.('[data-e2e-id="btn-save"]')) window.__clicks++;
      });
      window.__replies = [];
      window.addEventListener("message", (e) => {
        if (e.data?.dir === "up") window.__replies.push({ data: e.data, origin: e.origin });
      });
    });
    const epilogue = "\nwindow.__readme = { hello, snap, saved, refused, noted };\n";
    // "in-page-playable-page" is what package.json's exports name, as a user's import resolves it.
    await page.addScriptTag({ type: "module", content: program(README, ENTRY_PATH) + epilogue });
    await page.waitForFunction(() => window.__readme, null, { timeout: 10000 }).catch(() => {});
    assert.deepEqual(errors, [], "the examples ran without an error");
    await page.waitForFunction(() => window.__replies.length > 0, null, { timeout: 5000 });
    const r = await page.evaluate(() => ({ ...window.__readme, clicks: window.__clicks, replies: window.__replies, origin: location.origin }));

    assert.equal(r.hello.ok, true);
    assert.equal(r.hello.requestId, "req-1");
    assert.equal(typeof r.hello.payload.pageId, "string");
    assert.equal(r.hello.pageId, r.hello.payload.pageId);
    assert.deepEqual(r.snap.payload.snapshot, {
      pageTitle: "ready-list",
      menu: [{ id: "btn-save", event: "click", title: "Save", desc: "Save the current list", enabled: true, visible: true }],
      islands: [],
      generics: [],
      dirty: [],
      noReload: false,
    });
    assert.deepEqual(r.snap.payload.escapes, [{ type: "reload", allowed: true }]);
    assert.equal(r.saved.ok, true);
    assert.deepEqual(r.saved.payload, { id: "btn-save" });
    assert.equal(r.clicks, 1, "exactly one click on the Save button");
    assert.deepEqual(r.refused.error, { code: "NOT_IN_MENU", message: `"g0" has a generic ref's shape (g + digits): no run takes it (generics are only seen; a playable needs another data-e2e-id)` });
    assert.equal(r.replies.length, 1);
    assert.equal(r.replies[0].origin, r.origin);
    assert.equal(r.replies[0].data.channel, "in-page-playable");
    assert.equal(r.replies[0].data.seq, 1);
    assert.equal(r.replies[0].data.envelope.ok, true);
    assert.equal(r.replies[0].data.envelope.requestId, "req-5");
    assert.equal(r.noted.protocol, "pling.surface/0.1");
    assert.equal(r.noted.id, "req-2");
    assert.equal(r.noted.ok, true);
    assert.deepEqual(r.noted.result.error, { code: "ACTION_UNAVAILABLE", message: "记录已锁定" });
  } finally {
    await page.close();
  }
});
