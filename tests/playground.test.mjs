// The playground end to end in Chromium, driven like an outside agent would:
// only through each window's bridge. Covers the agent loop on the top page and
// inside the shell's iframe, refusals with their codes, frame isolation on the
// shell, the reload escape (really reloads; dirty note refused and kept), the
// real captureScreenshot (saved under tests/artifacts/, checked not blank),
// and `npm run playground`'s Vite server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { startServer } from "./support/server.mjs";
import { launch } from "./support/browser.mjs";
import { bridgeAgent, outcome, recordClicks, clicks } from "./support/agent.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));

let server, other, browser;
before(async () => {
  server = await startServer();
  other = await startServer(); // a second origin
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await other?.close();
});

async function withPage(path, fn, base = server.origin) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  try {
    await page.goto(base + path);
    await page.waitForSelector(".console-head"); // the console mounts after install + attach
    await fn(page);
    assert.deepEqual(errors, [], "no uncaught page errors");
  } finally {
    await context.close();
  }
}

const appFrame = async (page) => {
  const handle = await page.waitForSelector("#app-frame");
  const frame = await handle.contentFrame();
  await frame.waitForSelector(".console-head");
  return frame;
};
const text = (frame, selector) => frame.locator(selector).innerText();
const ids = (snapshot) => snapshot.menu.map((m) => m.id);
const item = (snapshot, id) => snapshot.menu.find((m) => m.id === id);

test("top page: hello, snapshot, run an item, run a slot, and every refusal with its code", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await recordClicks(page);

    const hello = await agent.hello();
    assert.equal(outcome(hello), "ok");
    assert.match(agent.pageId, /^[0-9a-f]{32}$/);

    const { snapshot, escapes } = (await agent.snapshot()).payload;
    assert.equal(snapshot.pageTitle, "orders");
    for (const id of ["orders.refresh", "orders.filter.pending", "orders.open.1042", "orders.open.1046", "list-pagination:prev", "list-pagination:next", "desk.saveNote"]) {
      assert.ok(ids(snapshot).includes(id), `${id} is on the menu`);
    }
    assert.equal(ids(snapshot).includes("orders.open.1047"), false, "only the visible page's rows");
    assert.equal(item(snapshot, "orders.export").enabled, false);
    assert.equal(item(snapshot, "orders.archiveAll").visible, false);
    assert.equal(item(snapshot, "orders.search").event, "input");
    assert.equal(item(snapshot, "list-pagination:prev").enabled, false, "page 1 has no previous page");
    assert.equal(item(snapshot, "orders.tips").event, "hover");
    const next = item(snapshot, "list-pagination:next");
    assert.deepEqual([next.event, next.title, next.enabled, next.visible, next.island], ["click", "Next page", true, true, "list-pagination"]);
    assert.deepEqual(snapshot.islands, [{ id: "list-pagination", slots: [{ name: "prev", id: "list-pagination:prev", resolved: true }, { name: "next", id: "list-pagination:next", resolved: true }] }]);
    assert.ok(snapshot.generics.some((g) => g.role === "link" && g.name.includes("Keyboard shortcuts")), "the unmarked link is a generic ref");
    assert.equal(snapshot.generics.some((g) => /hello|snapshot/.test(g.name)), false, "the console is outside the scan root");
    assert.deepEqual(snapshot.dirty, []);
    assert.deepEqual(escapes, [{ type: "reload", allowed: true }]);

    // Run an item: the order opens, exactly one click.
    assert.deepEqual(await agent.run("orders.open.1044"), { pageId: agent.pageId, requestId: "agent-3", ok: true, payload: { id: "orders.open.1044" } });
    assert.equal(await text(page, "#detail-title"), "Order #1044");
    // Run a slot: the island's next button.
    assert.equal(outcome(await agent.run("list-pagination:next")), "ok");
    assert.equal(await text(page, "#page-label"), "Page 2 of 5");
    assert.deepEqual(await clicks(page), ["orders.open.1044", "Next page"]);

    const after = (await agent.snapshot()).payload.snapshot;
    assert.equal(item(after, "list-pagination:prev").enabled, true, "the menu is read afresh");
    assert.ok(ids(after).includes("orders.open.1047"));

    // Refusals: each code, and not one click or page change.
    const refusals = [
      [await agent.run("orders.export"), "NOT_ACTIONABLE"], // disabled
      [await agent.run("orders.archiveAll"), "NOT_ACTIONABLE"], // hidden
      [await agent.run("orders.tips"), "UNSUPPORTED_EVENT"], // hover: no version dispatches it
      [await agent.run("g0"), "NOT_IN_MENU"], // a generic ref
      [await agent.run("orders.open.1042"), "NOT_IN_MENU"], // was on page 1, not now
      [await agent.run(""), "NOT_IN_MENU"],
      [await agent.send("run", { id: "orders.refresh" }, "0".repeat(32)), "PAGE_MISMATCH"],
      [await agent.send("dance"), "UNKNOWN_CMD"],
      [await agent.raw({ pageId: agent.pageId, requestId: "bad", cmd: "run" }), "BAD_REQUEST"],
      [await agent.escape("back"), "ESCAPE_NOT_ALLOWED"],
    ];
    assert.deepEqual(refusals.map(([up]) => outcome(up)), refusals.map(([, code]) => code));
    assert.deepEqual(await clicks(page), ["orders.open.1044", "Next page"], "refusals click nothing");
    assert.equal(await text(page, "#page-label"), "Page 2 of 5");

    // The console shows the outside agent's traffic and explains the refusals.
    const logged = await page.$$eval(".log .entry", (entries) => entries.map((e) => [e.dataset.code, e.querySelector(".via").textContent, e.querySelector(".explain b")?.textContent || ""]));
    assert.equal(logged.length, 1 + 1 + 2 + 1 + refusals.length, "every bridge exchange is logged");
    assert.ok(logged.every(([, via]) => via === "outside agent · bridge"));
    assert.deepEqual(logged.find(([code]) => code === "UNSUPPORTED_EVENT"), ["UNSUPPORTED_EVENT", "outside agent · bridge", "Can't dispatch that event. "]);
    assert.equal(await text(page, "[data-testid=phase]"), "live");
    assert.equal(await text(page, "[data-testid=page-id]"), agent.pageId);
  }));

test("every playground page installs the module and opens the bridge on load: the Surface page answers a playable agent too", () =>
  withPage("/playground/surface.html", async (page) => {
    const agent = bridgeAgent(page);
    const hello = await agent.hello();
    assert.equal(outcome(hello), "ok");
    assert.match(agent.pageId, /^[0-9a-f]{32}$/);
    const { snapshot } = (await agent.snapshot()).payload;
    assert.ok(ids(snapshot).includes("orders.update_note@order"), ids(snapshot).join(", "));
    assert.equal(await page.evaluate(() => "__IN_PAGE_PLAYABLE_V1__" in window), true);
  }));

test("search is an input item: the agent fills it through run with payload.value", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await agent.hello();
    assert.equal(outcome(await agent.send("run", { id: "orders.search", value: "lovelace" })), "ok");
    assert.equal(await page.inputValue("#search"), "lovelace");
    assert.equal(await text(page, "#summary"), "1 of 23 orders", "the app reacted to the input event");
    assert.equal(outcome(await agent.send("run", { id: "orders.search" })), "BAD_REQUEST", "an input item needs a value");
    assert.equal(await page.inputValue("#search"), "lovelace", "the refusal changed nothing");
    const { menu } = (await agent.snapshot()).payload.snapshot;
    assert.deepEqual(menu.filter((m) => m.id.startsWith("orders.open.")).map((m) => m.id), ["orders.open.1042"]);
  }));

test("the console drives the page both ways: handle() directly and through the bridge", () =>
  withPage("/playground/index.html", async (page) => {
    await recordClicks(page);
    let sent = 0;
    const click = async (selector) => {
      await page.click(selector);
      await page.waitForFunction((n) => document.querySelectorAll(".log .entry").length === n, ++sent);
    };
    await click("#console-hello");
    await click("#console-snapshot");
    await click('[data-run="orders.filter.pending"]'); // a menu item, clicked in the console
    await page.check('input[value="bridge"]');
    await click('[data-run="list-pagination:next"]');
    await click('[data-run="orders.export"]');
    const log = await page.$$eval(".log .entry", (es) => es.map((e) => [e.querySelector("b").textContent, e.dataset.code, e.querySelector(".via").textContent]).reverse());
    assert.deepEqual(log, [
      ["hello", "ok", "handle()"],
      ["snapshot", "ok", "handle()"],
      ["run orders.filter.pending", "ok", "handle()"],
      ["run list-pagination:next", "ok", "bridge"],
      ["run orders.export", "NOT_ACTIONABLE", "bridge"],
    ]);
    assert.deepEqual(await clicks(page), ["orders.filter.pending", "Next page"]);
    assert.equal(await text(page, "#page-label"), "Page 2 of 2", "10 pending orders, 5 a page");
    assert.match(await text(page, '.log .entry[data-code="NOT_ACTIONABLE"] .explain'), /disabled, hidden or detached/);
  }));

test("shell: the iframe app is its own window with its own instance; agent loop inside the frame", () =>
  withPage("/playground/shell.html", async (page) => {
    const frame = await appFrame(page);
    const shell = bridgeAgent(page, "shell");
    const app = bridgeAgent(frame, "app");
    await recordClicks(page);
    await recordClicks(frame);

    assert.equal(outcome(await app.send("snapshot", {}, null)), "NOT_LIVE", "no hello yet in the frame");
    assert.equal(outcome(await shell.hello()), "ok");
    assert.equal(outcome(await app.hello()), "ok");
    assert.notEqual(shell.pageId, app.pageId, "each window has its own pageId");

    const shellMenu = (await shell.snapshot()).payload.snapshot;
    const appMenu = (await app.snapshot()).payload.snapshot;
    assert.equal(shellMenu.pageTitle, "shell");
    assert.deepEqual(ids(shellMenu), ["shell.reloadApp", "shell.toggleWidth"], "the frame's items are not the shell's");
    assert.equal(appMenu.pageTitle, "orders");
    assert.ok(ids(appMenu).includes("list-pagination:next"));

    assert.equal(outcome(await app.run("list-pagination:next")), "ok");
    assert.equal(outcome(await app.run("orders.refresh")), "ok");
    assert.equal(await text(frame, "#page-label"), "Page 2 of 5");
    assert.match(await text(frame, "#summary"), /refreshed 1×/);
    assert.equal(outcome(await app.send("run", { id: "orders.refresh" }, shell.pageId)), "PAGE_MISMATCH");
    assert.equal(outcome(await shell.run("orders.refresh")), "NOT_IN_MENU", "the shell cannot reach into the frame");
    assert.deepEqual(await clicks(frame), ["Next page", "orders.refresh"]);
    assert.deepEqual(await clicks(page), []);

    // Reload the app from the shell's menu: a new document, a fresh instance.
    const navigated = page.waitForEvent("framenavigated", (f) => f === frame);
    assert.equal(outcome(await shell.run("shell.reloadApp")), "ok");
    await navigated;
    await frame.waitForSelector(".console-head");
    assert.equal(outcome(await app.send("snapshot")), "NOT_LIVE", "the new document's instance has not said hello");
    const old = app.pageId;
    assert.equal(outcome(await app.hello()), "ok");
    assert.notEqual(app.pageId, old);
    assert.equal(outcome(await app.send("snapshot", {}, old)), "PAGE_MISMATCH", "the old pageId is gone");
    assert.equal(await text(frame, "#page-label"), "Page 1 of 5");
    assert.match(await text(page, "#shell-status"), /loaded 2 times/);
  }));

test("shell: parent and frame ignore each other's messages; a second origin drives neither", () =>
  withPage("/playground/shell.html", async (page) => {
    const frame = await appFrame(page);
    const shell = bridgeAgent(page, "shell");
    const app = bridgeAgent(frame, "app");
    await shell.hello();
    await app.hello();
    // A frame on a second origin inside the shell, next to the app.
    await page.evaluate((src) => new Promise((resolve) => {
      const f = document.createElement("iframe");
      f.src = src;
      f.onload = resolve;
      document.body.append(f);
    }), other.origin + "/tests/fixtures/blank.html");
    const stranger = page.frames().find((f) => f.url().startsWith(other.origin));
    const watch = () => {
      window.__replies = [];
      addEventListener("message", (e) => { if (e.data && e.data.dir === "up") window.__replies.push(e.data.seq); });
    };
    await page.evaluate(watch);
    await frame.evaluate(watch);
    await recordClicks(page);
    await recordClicks(frame);

    const down = (pageId, seq, id) => ({ channel: "in-page-playable", dir: "down", seq, envelope: { pageId, requestId: "forged-" + seq, cmd: "run", payload: { id } } });
    await frame.evaluate((m) => parent.postMessage(m, "*"), down(shell.pageId, 1, "shell.toggleWidth"));
    await page.evaluate((m) => document.getElementById("app-frame").contentWindow.postMessage(m, "*"), down(app.pageId, 2, "orders.refresh"));
    await stranger.evaluate(([a, b]) => {
      parent.postMessage(a, "*");
      parent.frames[0].postMessage(b, "*");
    }, [down(shell.pageId, 3, "shell.toggleWidth"), down(app.pageId, 4, "orders.refresh")]);
    // Requests are handled in arrival order: once each window answers its own
    // agent, any reply to the forgeries would already have been posted.
    assert.equal(outcome(await shell.snapshot()), "ok");
    assert.equal(outcome(await app.snapshot()), "ok");

    assert.deepEqual((await page.evaluate(() => window.__replies)).filter((s) => s < 1000), [], "the shell answered no forgery");
    assert.deepEqual((await frame.evaluate(() => window.__replies)).filter((s) => s < 1000), [], "the app answered no forgery");
    assert.deepEqual(await clicks(page), []);
    assert.deepEqual(await clicks(frame), []);
    assert.equal(await page.getAttribute('[data-e2e-id="shell.toggleWidth"]', "aria-pressed"), "false");
    assert.doesNotMatch(await text(frame, "#summary"), /refreshed/);
  }));

// KNOWN RACE, not in this suite's code: bom schedules location.reload() with
// setTimeout(0) inside handle(), before the bridge posts its reply, so the
// reload can win and the old document unloads without dispatching the reply
// (seen about once in 80 escapes). Until bom orders the reload after the
// reply, a lost reply (null) is tolerated here; a reply that arrives must be
// exactly the retirement. Everything else below (a new document, a fresh
// instance, the old pageId gone) is asserted either way.
function assertReloading(up) {
  assert.notEqual(up, null, "the escape's reply arrives before the document unloads");
  assert.deepEqual(up.payload, { type: "reload", retired: true });
}

test("reload escape really reloads: the old pageId is gone and the new document has a fresh instance", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await agent.hello();
    const old = agent.pageId;
    await page.evaluate(() => { window.__oldDocument = true; });
    const loaded = page.waitForEvent("load");
    loaded.catch(() => {}); // a failed assertion below must show, not this wait's rejection when the page closes
    assertReloading(await agent.escape());
    await loaded;
    await page.waitForSelector(".console-head");
    assert.equal(await page.evaluate(() => window.__oldDocument), undefined, "a new document");
    assert.equal(await page.evaluate(() => performance.getEntriesByType("navigation")[0].type), "reload");
    assert.equal(outcome(await agent.send("snapshot", {}, old)), "NOT_LIVE", "the fresh instance has not said hello");
    assert.equal(outcome(await agent.hello()), "ok");
    assert.notEqual(agent.pageId, old);
    assert.equal(outcome(await agent.send("run", { id: "orders.refresh" }, old)), "PAGE_MISMATCH", "the old pageId is gone");
  }));

test("with unsaved text in the note, reload is refused and the text survives; once saved, reload goes", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await agent.hello();
    await page.evaluate(() => {
      window.__oldDocument = true;
      addEventListener("beforeunload", () => (window.__unloading = true));
    });
    const typed = "Call Ada about the gears before noon";
    await page.locator("#note").pressSequentially(typed);
    assert.equal(await page.getAttribute("#note", "data-e2e-dirty"), "true");

    const { snapshot, escapes } = (await agent.snapshot()).payload;
    assert.deepEqual(snapshot.dirty, ["desk.note"]);
    assert.equal(escapes[0].allowed, false);
    assert.ok(escapes[0].reason, "the refusal says why");
    const refused = await agent.escape();
    assert.equal(outcome(refused), "ESCAPE_NOT_ALLOWED");
    assert.equal(outcome(await agent.snapshot()), "ok", "still the same live instance");
    assert.deepEqual(await page.evaluate(() => [window.__oldDocument, window.__unloading, document.getElementById("note").value]), [true, undefined, typed]);

    // The agent saves the note through the menu; now reload is allowed and the text comes back from storage.
    assert.equal(outcome(await agent.run("desk.saveNote")), "ok");
    assert.equal(await page.getAttribute("#note", "data-e2e-dirty"), null);
    const loaded = page.waitForEvent("load");
    loaded.catch(() => {}); // a failed assertion below must show, not this wait's rejection when the page closes
    assertReloading(await agent.escape());
    await loaded;
    await page.waitForSelector(".console-head");
    assert.equal(await page.evaluate(() => window.__oldDocument), undefined);
    assert.equal(await page.inputValue("#note"), typed);
    await agent.hello();
    assert.deepEqual((await agent.snapshot()).payload.snapshot.dirty, []);
  }));

// Decodes a PNG in the page (canvas) and reports its size and how many colours it uses.
const PIXELS = async (base64) => {
  const blob = await (await fetch("data:image/png;base64," + base64)).blob();
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(bitmap, 0, 0);
  const data = new Uint32Array(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data.buffer);
  const counts = new Map();
  for (const px of data) counts.set(px, (counts.get(px) || 0) + 1);
  const top = Math.max(...counts.values());
  return { width: bitmap.width, height: bitmap.height, colours: counts.size, dominantShare: top / data.length };
};
const pngSize = (bytes) => {
  assert.equal(bytes.subarray(0, 8).toString("hex"), "89504e470d0a1a0a", "a PNG signature");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
};

test("captureScreenshot: the snapshot carries the app's PNG; the console shows it; saved and not blank", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await agent.hello();
    assert.equal("screenshot" in (await agent.snapshot()).payload.snapshot, false, "absent unless asked");
    await page.locator("#note").pressSequentially("visible in the capture");
    const shot = (await agent.snapshot({ screenshot: true })).payload.snapshot.screenshot;
    assert.deepEqual(Object.keys(shot).sort(), ["bytesBase64", "height", "mime", "width"]);
    assert.equal(shot.mime, "image/png");
    const box = await page.locator("#app").boundingBox();
    assert.equal(shot.width, Math.ceil(box.width), "the scan root's width");
    const bytes = Buffer.from(shot.bytesBase64, "base64");
    assert.deepEqual(pngSize(bytes), { width: shot.width, height: shot.height });
    const pixels = await page.evaluate(PIXELS, shot.bytesBase64);
    assert.ok(pixels.colours > 50, `a real rendering has many colours (got ${pixels.colours})`);
    assert.ok(pixels.dominantShare < 0.95, "not one flat colour");

    // The console displays exactly the image the snapshot carried.
    const src = await page.getAttribute("[data-testid=screenshot]", "src");
    assert.equal(src, "data:image/png;base64," + shot.bytesBase64);

    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(ARTIFACTS + "playground-capture.png", bytes);
    const full = await page.screenshot({ path: ARTIFACTS + "playground.png" });
    assert.deepEqual(pngSize(full), { width: 1400, height: 1000 });
    const seen = await page.evaluate(PIXELS, full.toString("base64"));
    assert.ok(seen.colours > 50 && seen.dominantShare < 0.95, "the playground screenshot is not blank");
  }));

// ---- npm run playground: Vite serves the app and the shell ------------------

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

test("Vite (npm run playground's server) serves the app and the shell, and the module loads through it", async () => {
  const port = await freePort();
  const vite = spawn(process.execPath, [REPO + "node_modules/vite/bin/vite.js", "--config", "playground/vite.config.js", "--strictPort"], {
    cwd: REPO,
    // CI=true makes Vite colour its output even into a pipe; the URL is matched as plain text.
    env: { ...process.env, PORT: String(port), NO_COLOR: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  try {
    await new Promise((resolve, reject) => {
      const onData = (chunk) => {
        // Vite colours its output: the ANSI escapes (ESC [ … m) go.
        // eslint-disable-next-line no-control-regex
        output += String(chunk).replace(/\x1b\[[0-9;]*m/g, "");
        if (output.includes(`127.0.0.1:${port}`)) resolve();
      };
      vite.stdout.on("data", onData);
      vite.stderr.on("data", onData);
      vite.once("exit", (code) => reject(new Error(`vite exited with ${code}: ${output}`)));
      setTimeout(() => reject(new Error(`vite printed no URL within 60 s: ${output}`)), 60000).unref();
    });
    await withPage("/shell.html", async (page) => {
      const frame = await appFrame(page);
      const shell = bridgeAgent(page, "shell");
      const app = bridgeAgent(frame, "app");
      assert.equal(outcome(await shell.hello()), "ok");
      assert.equal(outcome(await app.hello()), "ok");
      assert.notEqual(shell.pageId, app.pageId);
      assert.equal(outcome(await app.run("list-pagination:next")), "ok");
      assert.equal(await text(frame, "#page-label"), "Page 2 of 5");
    }, `http://127.0.0.1:${port}`);
  } finally {
    vite.kill("SIGTERM");
    if (vite.exitCode === null) await new Promise((resolve) => vite.once("exit", resolve));
  }
});

test("the playground offers an input, a scroll and a drag item, and each runs", () =>
  withPage("/playground/index.html", async (page) => {
    const agent = bridgeAgent(page);
    await agent.hello();
    const { snapshot } = (await agent.snapshot()).payload;
    const events = Object.fromEntries(snapshot.menu.map((m) => [m.id, m.event]));
    assert.equal(events["orders.search"], "input");
    assert.equal(events["desk.activity"], "scroll");
    assert.equal(events["triage.card"], "drag");
    await page.evaluate(() => { for (let i = 0; i < 30; i++) document.getElementById("activity").append(Object.assign(document.createElement("li"), { textContent: "entry " + i })); });
    const scrolled = await agent.send("run", { id: "desk.activity", to: "end" });
    assert.equal(outcome(scrolled), "ok");
    assert.ok(scrolled.payload.scrollTop > 0, "the log scrolled");
    assert.equal(scrolled.payload.scrollTop, await page.evaluate(() => document.getElementById("activity").scrollTop));
    const dropped = await agent.send("run", { id: "triage.card", to: "triage.urgent" });
    assert.deepEqual(dropped.payload, { id: "triage.card", to: "triage.urgent" });
    assert.equal(await page.evaluate(() => document.getElementById("triage-card").parentElement.id), "triage-urgent");
    assert.equal(outcome(await agent.send("run", { id: "triage.card", to: "orders.nowhere" })), "NOT_IN_MENU");
  }));
