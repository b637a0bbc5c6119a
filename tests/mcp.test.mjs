// The MCP server end to end: the official SDK's own Client over stdio spawns
// `in-page-playable-mcp`, which opens pages served by tests/support/server.mjs
// in Debian's Chromium and reaches them only through the window bridge.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer } from "./support/server.mjs";
import { UNTRUSTED_NOTE } from "../mcp/compact.mjs";

const BIN = fileURLToPath(new URL("../mcp/bin.mjs", import.meta.url));
/** Fetched once by every document that loads the package: counts (re)loads. */
const WASM = "/www/pkg/in_page_playable_bg.wasm";
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

/** Spawns the MCP server for `path` and connects the SDK client. */
async function connect(path, extra = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--url", server.origin + path, "--timeout", "5000", ...extra],
    stderr: "pipe",
  });
  const client = new Client({ name: "mcp-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

async function withClient(path, fn, extra) {
  const client = await connect(path, extra);
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * Calls a tool; returns the uplink from its structuredContent (page_run and
 * page_escape: without pageId and requestId), the first text item (for the
 * model) and the rest (the notes).
 */
async function call(client, name, args = {}) {
  const res = await client.callTool({ name, arguments: args });
  const [first, ...rest] = res.content;
  assert.equal(first.type, "text");
  assert.equal(typeof res.structuredContent, "object", `${name} returns structuredContent (it said: ${first.text})`);
  return { up: res.structuredContent, text: first.text, notes: rest.map((c) => c.text), isError: res.isError === true };
}

const snapshot = async (client, args) => (await call(client, "page_snapshot", args)).up.payload.snapshot;

test("--url is required: a clear usage error", () => {
  const r = spawnSync(process.execPath, [BIN], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--url is required/);
  assert.match(r.stderr, /usage: in-page-playable-mcp --url <URL>/);
  const bad = spawnSync(process.execPath, [BIN, "--url", "file:///etc/passwd"], { encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /http: or https:/);
});

test("--timeout takes 100 to 600000 ms, as --help and docs/mcp.md say", () => {
  for (const bad of ["99", "600001", "1.5", "soon"]) {
    const r = spawnSync(process.execPath, [BIN, "--url", "http://127.0.0.1:9/", "--timeout", bad], { encoding: "utf8" });
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--timeout must be a whole number of ms between 100 and 600000/, bad);
  }
  const help = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^ {2}--timeout <ms> +how long to wait for the page's answer, 100 to 600000 \(default 10000\)$/m);
  const docs = readFileSync(new URL("../docs/mcp.md", import.meta.url), "utf8");
  assert.match(docs, /^\| `--timeout <ms>` \| [^\n]*from 100 to 600000 [^\n]*default 10000 \|$/m);
});

/** Runs the server until it exits (spawnSync would stall this process's static server). */
function runToExit(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (status) => resolve({ status, stderr }));
  });
}

test("an --url that redirects to another origin: the server does not start, and says where the redirect leads", async () => {
  const re = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const away = server.origin.replace("127.0.0.1", "localhost");
  const other = away + "/tests/fixtures/mcp.html";
  const direct = "/__redirect?to=" + encodeURIComponent(other);
  // A chain: a same-origin hop first, which the browser follows unrouted.
  const chain = "/__redirect?to=" + encodeURIComponent(direct);
  for (const path of [direct, chain]) {
    const redirects = server.hits("/__redirect");
    const r = await runToExit(["--url", server.origin + path, "--timeout", "5000"]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(
      `in-page-playable-mcp: could not open ${re(server.origin + path)}: it redirects to ${re(other)}, on another origin ` +
        `\\(${re(server.origin)} → ${re(away)}\\), and this server never leaves ${re(server.origin)}: ` +
        `pass the final URL \\(where the redirect leads\\) as --url\n$`,
    ));
    assert.doesNotMatch(r.stderr, /ERR_ABORTED/);
    // Going back to an --url that left would only leave again, and again.
    assert.ok(server.hits("/__redirect") - redirects <= (path === chain ? 2 : 1), `${server.hits("/__redirect") - redirects} redirects for ${path}`);
  }
});

test("lists its tools: hello, snapshot, run, escape, and nothing that evaluates or navigates", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "page_escape", "page_hello", "page_run", "page_snapshot", "surface_describe", "surface_invoke",
    ]);
    const run = tools.find((t) => t.name === "page_run");
    assert.deepEqual(run.inputSchema.required, ["id"]);
    assert.deepEqual(Object.keys(run.inputSchema.properties).sort(), ["by", "format", "id", "to", "value"]);
    assert.match(client.getInstructions(), /untrusted/);
  }));

test("hello, snapshot and run: the effect shows in the next snapshot", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const hello = await call(client, "page_hello");
    assert.equal(hello.up.ok, true);
    assert.match(hello.up.payload.pageId, /^[0-9a-f]{32}$/);
    const again = await call(client, "page_hello");
    assert.equal(again.up.payload.pageId, hello.up.payload.pageId, "a repeated hello keeps the pageId");

    const snap = await call(client, "page_snapshot");
    assert.equal(snap.up.ok, true);
    assert.equal(snap.up.pageId, hello.up.payload.pageId);
    const s = snap.up.payload.snapshot;
    assert.equal(s.pageTitle, "count=0");
    assert.deepEqual(s.menuWindow, { offset: 0, limit: 50, total: s.menu.length });
    const inc = s.menu.find((m) => m.id === "inc");
    assert.deepEqual({ ...inc, desc: undefined }, { id: "inc", event: "click", title: "Increment", desc: undefined, enabled: true, visible: true });
    assert.ok(s.generics.length > 0 && s.genericsWindow.total === s.generics.length);
    assert.deepEqual(snap.up.payload.escapes, [{ type: "reload", allowed: true }]);
    assert.match(snap.notes.join(" "), /Untrusted content/, "page-authored text is marked untrusted");

    const run = await call(client, "page_run", { id: "inc" });
    assert.equal(run.isError, false);
    assert.deepEqual(run.up.payload, {}, "the id, which the agent sent, is not echoed");
    await call(client, "page_run", { id: "inc" });
    assert.equal((await snapshot(client)).pageTitle, "count=2");
  }));

test("hello and escape answer the uplink envelope as JSON text, run answers compactly; a scroll `by` needs both x and y", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const hello = await call(client, "page_hello");
    const helloUp = JSON.parse(hello.text);
    assert.deepEqual(helloUp, hello.up, "the text is the uplink, as structuredContent holds it");
    assert.equal(helloUp.ok, true);
    assert.match(helloUp.payload.pageId, /^[0-9a-f]{32}$/);
    assert.equal(typeof helloUp.requestId, "string");
    assert.match((await call(client, "page_hello", { format: "toon" })).text, /^pageId: [0-9a-f]{32}$/);
    // run stays one short line; its structuredContent is the short form.
    const run = await call(client, "page_run", { id: "inc" });
    assert.doesNotMatch(run.text, /pageId|requestId|[{}]/);
    assert.equal(run.text, "ok");
    assert.deepEqual(run.up, { ok: true, payload: {} });
    // escape: a type that does not exist is refused, as an uplink.
    const esc = await call(client, "page_escape", { type: "back" });
    const escUp = JSON.parse(esc.text);
    assert.deepEqual([escUp.pageId, escUp.ok, escUp.error.code], [helloUp.payload.pageId, false, "ESCAPE_NOT_ALLOWED"]);
    assert.equal(esc.isError, true);
    // A `by` the page's run would refuse is refused by the schema first.
    const half = await client.callTool({ name: "page_run", arguments: { id: "inc", by: { y: 10 } } }).catch((e) => ({ thrown: e.message }));
    assert.ok(half.thrown || half.isError, JSON.stringify(half));
  }));

test("the server says hello by itself and keeps the pageId", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const run = await call(client, "page_run", { id: "inc" });
    assert.equal(run.up.ok, true, "a run without a hello first: the server said hello by itself");
    const snap = await call(client, "page_snapshot");
    assert.match(snap.up.pageId, /^[0-9a-f]{32}$/);
    assert.equal((await call(client, "page_run", { id: "inc" })).up.ok, true);
    assert.equal((await call(client, "page_snapshot")).up.pageId, snap.up.pageId, "the same latch throughout");
    assert.equal((await call(client, "page_hello")).up.payload.pageId, snap.up.pageId);
  }));

test("every refusal code a menu can produce reaches the agent, and changes nothing", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const code = async (args) => {
      const r = await call(client, "page_run", args);
      assert.equal(r.isError, true);
      assert.equal(r.up.ok, false);
      return r.up.error.code;
    };
    assert.equal(await code({ id: "nope" }), "NOT_IN_MENU");
    assert.equal(await code({ id: "" }), "NOT_IN_MENU");
    assert.equal(await code({ id: "g0" }), "NOT_IN_MENU", "generic refs never run");
    assert.equal(await code({ id: "dup" }), "AMBIGUOUS");
    assert.equal(await code({ id: "off" }), "NOT_ACTIONABLE");
    assert.equal(await code({ id: "hidden" }), "NOT_ACTIONABLE");
    assert.equal(await code({ id: "hover-me" }), "UNSUPPORTED_EVENT");
    const other = await call(client, "page_escape", { type: "back" });
    assert.equal(other.up.error.code, "ESCAPE_NOT_ALLOWED");
    await call(client, "page_run", { id: "make-dirty" });
    const dirty = await call(client, "page_escape");
    assert.equal(dirty.up.error.code, "ESCAPE_NOT_ALLOWED");
    assert.match(dirty.up.error.message, /unsaved work/);
    const s = await snapshot(client);
    assert.equal(s.pageTitle, "count=0", "no refusal clicked anything");
    assert.deepEqual(s.dirty, [""]);
    // Bad arguments never reach the page: the SDK checks the schema.
    const bad = await client.callTool({ name: "page_run", arguments: { id: 5 } });
    assert.equal(bad.isError, true);
  }));

test("escape reloads; the server says hello to the new document by itself", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    await call(client, "page_run", { id: "inc" });
    const first = (await call(client, "page_hello")).up.payload.pageId;
    const esc = await call(client, "page_escape", { type: "reload" });
    assert.equal(esc.up.ok, true);
    assert.deepEqual(esc.up.payload, { type: "reload", retired: true });
    const snap = await call(client, "page_snapshot");
    assert.equal(snap.up.ok, true);
    assert.notEqual(snap.up.pageId, first, "a new document, a new pageId");
    assert.equal(snap.up.payload.snapshot.pageTitle, "count=0", "the reload reset the page");
    assert.equal((await call(client, "page_run", { id: "inc" })).up.ok, true);
  }));

for (const [query, code] of [["", "NOT_LIVE"], ["?autohello", "PAGE_MISMATCH"]]) {
  test(`a page replaced behind the server's back (${code}): refused once, nothing replayed, re-latched`, () =>
    withClient("/tests/fixtures/mcp.html" + query, async (client) => {
      const first = (await call(client, "page_hello")).up.payload.pageId;
      const loads = server.hits(WASM);
      assert.equal((await call(client, "page_run", { id: "reload-me" })).up.ok, true);
      await server.waitForHits(WASM, loads + 1); // the page reloads itself: the new document fetches the module
      const stale = await call(client, "page_run", { id: "inc" });
      assert.equal(stale.up.ok, false);
      assert.equal(stale.up.error.code, code);
      assert.match(stale.notes.join(" "), /page was replaced.*Nothing was done/);
      assert.equal((await snapshot(client)).pageTitle, "count=0", "the run was not replayed");
      const again = await call(client, "page_run", { id: "inc" });
      assert.equal(again.up.ok, true);
      const after = await call(client, "page_snapshot");
      assert.notEqual(after.up.pageId, first);
      assert.equal(after.up.payload.snapshot.pageTitle, "count=1");
    }));
}

test("a snapshot after the page was replaced just works (reading is safe to repeat)", () =>
  withClient("/tests/fixtures/mcp.html?autohello", async (client) => {
    const first = (await call(client, "page_hello")).up.payload.pageId;
    const loads = server.hits(WASM);
    await call(client, "page_run", { id: "reload-me" });
    await server.waitForHits(WASM, loads + 1);
    const snap = await call(client, "page_snapshot");
    assert.equal(snap.up.ok, true);
    assert.notEqual(snap.up.pageId, first);
  }));

test("the page cannot take the server to another origin", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const run = await call(client, "page_run", { id: "away" });
    assert.equal(run.up.ok, true, "the click itself happened");
    // The note comes with the first result after the navigation was stopped: read until it does.
    const notes = [...run.notes];
    let snap;
    for (let i = 0; i < 50; i++) {
      snap = await call(client, "page_snapshot");
      notes.push(...snap.notes);
      if (notes.some((n) => /tried to navigate/.test(n))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(notes.join(" "), /tried to navigate to http:\/\/localhost:\d+\/tests\/fixtures\/blank.html.*navigation was stopped/);
    assert.equal(snap.up.ok, true, "still on the configured page");
    assert.equal(snap.up.payload.snapshot.pageTitle, "count=0");
  }));

// Runs `id`, then snapshots until the "tried to navigate" note arrives; returns the notes and the last snapshot.
async function leaveBy(client, id) {
  const run = await call(client, "page_run", { id });
  assert.equal(run.up.ok, true, "the click itself happened");
  const notes = [...run.notes];
  let snap;
  for (let i = 0; i < 50; i++) {
    // A read that the navigation itself interrupts ("the page navigated or
    // closed before answering") is simply read again.
    const res = await client.callTool({ name: "page_snapshot", arguments: {} });
    notes.push(...res.content.slice(1).map((c) => c.text));
    if (res.structuredContent) snap = { up: res.structuredContent };
    if (snap && notes.some((n) => /tried to navigate/.test(n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { notes: notes.join(" "), snap };
}

test("a same-origin redirect to another origin is stopped before it leaves (no request reaches the other origin)", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const blank = server.hits("/tests/fixtures/blank.html");
    const { notes, snap } = await leaveBy(client, "away-redirect");
    assert.match(notes, /tried to navigate to http:\/\/localhost:\d+\/tests\/fixtures\/blank.html\?redirect.*navigation was stopped/);
    assert.equal(snap.up.ok, true, "still on the configured page");
    assert.equal(snap.up.payload.snapshot.pageTitle, "count=0");
    assert.equal(server.hits("/tests/fixtures/blank.html"), blank, "the other origin was never asked");
  }));

test("a redirect chain that leaves after a same-origin hop is brought back to the origin, and said", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const { notes, snap } = await leaveBy(client, "away-chain");
    assert.match(notes, /tried to navigate to http:\/\/localhost:\d+\/tests\/fixtures\/blank.html\?chain/);
    assert.equal(snap.up.ok, true, "back on the configured page");
    assert.equal(snap.up.payload.snapshot.pageTitle, "count=0");
  }));

test("a new tab to another origin is kept off it too", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const blank = server.hits("/tests/fixtures/blank.html");
    const { notes, snap } = await leaveBy(client, "away-tab");
    assert.match(notes, /tried to navigate to http:\/\/localhost:\d+\/tests\/fixtures\/blank.html\?tab/);
    assert.equal(snap.up.ok, true);
    assert.equal(server.hits("/tests/fixtures/blank.html"), blank, "the other origin was never asked");
  }));

test("snapshots are bounded windows with totals", () =>
  withClient("/tests/fixtures/mcp.html?many=300", async (client) => {
    const s = await snapshot(client);
    assert.equal(s.menu.length, 50);
    assert.ok(s.menuWindow.total > 300);
    assert.deepEqual({ offset: s.menuWindow.offset, limit: s.menuWindow.limit }, { offset: 0, limit: 50 });
    const next = await snapshot(client, { offset: 100, limit: 200 });
    assert.equal(next.menu.length, 200);
    assert.equal(next.menuWindow.offset, 100);
    const tooMany = await client.callTool({ name: "page_snapshot", arguments: { limit: 1000 } });
    assert.equal(tooMany.isError, true);
  }));

test("the playground: hello, snapshot, run a filter and the pagination island", () =>
  withClient("/playground/index.html", async (client) => {
    assert.equal((await call(client, "page_hello")).up.ok, true);
    const s = await snapshot(client);
    assert.equal(s.pageTitle, "orders");
    const ids = s.menu.map((m) => m.id);
    for (const id of ["orders.refresh", "orders.filter.pending", "list-pagination:next"]) assert.ok(ids.includes(id), id);
    assert.equal((await call(client, "page_run", { id: "orders.filter.pending" })).up.ok, true);
    assert.equal((await call(client, "page_run", { id: "list-pagination:next" })).up.ok, true);
    assert.equal((await call(client, "page_run", { id: "orders.export" })).up.error.code, "NOT_ACTIONABLE");
  }));

test("a page without the package: a clear error, or --inject installs it", async () => {
  await withClient("/tests/fixtures/seed.html", async (client) => {
    const res = await client.callTool({ name: "page_hello", arguments: {} });
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /no in-page-playable instance.*--inject/);
  }, ["--timeout", "500"]);
  await withClient("/tests/fixtures/seed.html", async (client) => {
    assert.equal((await call(client, "page_hello")).up.ok, true);
    const s = await snapshot(client);
    assert.equal(s.pageTitle, "ready-list");
    assert.equal((await call(client, "page_run", { id: "btn-save" })).up.ok, true);
    assert.equal((await call(client, "page_run", { id: "btn-off" })).up.error.code, "NOT_ACTIONABLE");
  }, ["--inject"]);
});

test("without --inject, a page without the package answers the clear error at once, not after --timeout, on every call", () =>
  withClient("/tests/fixtures/seed.html", async (client) => {
    // --timeout 8000: the error is knowable once the page has loaded and 400 ms
    // have passed since its load event, so it must come well before that
    // (generous bounds: the machine is slow and loaded).
    for (const call of ["first", "second"]) {
      const started = Date.now();
      const res = await client.callTool({ name: "page_hello", arguments: {} });
      const took = Date.now() - started;
      assert.equal(res.isError, true);
      assert.match(res.content[0].text, /no in-page-playable instance.*--inject/);
      assert.ok(took < 3000, `${call} call answered in ${took} ms, not after --timeout`);
    }
  }, ["--timeout", "8000"]));

test("without --inject, a page that installs the package late is found on a later call (absence is not remembered)", () =>
  // ?install=2500: the page installs its instance 2.5 s after its module ran (after the load event).
  withClient("/tests/fixtures/mcp.html?install=2500", async (client) => {
    const early = await client.callTool({ name: "page_hello", arguments: {} });
    assert.equal(early.isError, true, "not installed yet: the clear error");
    assert.match(early.content[0].text, /no in-page-playable instance.*--inject/);
    const later = await whenInstalled(client, "page_hello");
    assert.equal(later.isError, false, "installed now: found");
    assert.equal((await snapshot(client)).pageTitle, "count=0");
  }, ["--timeout", "8000"]));

/**
 * On a marked page that does not answer, `tool` waits out --timeout (`ms`)
 * and then says so (`said`): the marker is there, so the server waits.
 */
function waitsOutTimeout(path, tool, said, ms) {
  return withClient(path, async (client) => {
    const started = Date.now();
    const res = await client.callTool({ name: tool, arguments: {} });
    const took = Date.now() - started;
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, said);
    assert.ok(took >= ms - 100, `waited ${took} ms: the marker is there, so the server waits`);
  }, ["--timeout", String(ms)]);
}

test("an instance whose bridge does not answer is still waited for, up to --timeout", () =>
  waitsOutTimeout("/tests/fixtures/mcp.html?nobridge", "page_hello", /the page did not answer within 1500 ms: is attachWindowBridge\(\) called/, 1500));

/**
 * Calls a tool until the page's own instance (or Surface) is found: on a
 * loaded machine a page's module (its top-level await of the WebAssembly)
 * may install it after the load event's grace, and a call then says none
 * is there (and does nothing). A page where none is ever found fails.
 */
async function whenInstalled(client, name, args = {}) {
  let res;
  for (const until = Date.now() + 10000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    res = await client.callTool({ name, arguments: args });
    if (!/no in-page-playable instance|no Surface answered/.test(res.content[0].text)) break;
  }
  return res;
}

test("a page whose package sets no window marker (an older copy) is still reached: no false 'no instance', and --inject installs no second copy", async () => {
  // ?oldcopy: the page answers the bridge channel itself and sets no marker;
  // only the server's probe of the channel can find it.
  await withClient("/tests/fixtures/mcp-hostile.html?oldcopy", async (client) => {
    const hello = await client.callTool({ name: "page_hello", arguments: {} });
    assert.equal(hello.isError, false, hello.content[0].text);
    assert.equal((await call(client, "page_run", { id: "inc" })).up.ok, true);
  }, ["--timeout", "3000"]);
  await withClient("/tests/fixtures/mcp-hostile.html?oldcopy", async (client) => {
    for (let i = 0; i < 3; i++) {
      const ran = await call(client, "page_run", { id: "inc" });
      assert.equal(ran.up.ok, true, `${ran.text} ${ran.notes.join(" ")}`);
    }
    // An injected copy would answer on the same channel too, and click again.
    assert.equal((await snapshot(client)).pageTitle, "count=3", "each run clicked once");
  }, ["--inject", "--timeout", "3000"]);
});

test("what a page's script throws at the server is one quoted string in the error, marked untrusted", async () => {
  // ?jsonparse: the page replaces JSON.parse, which the server's exchange calls in the page.
  await withClient("/tests/fixtures/mcp-hostile.html?jsonparse", async (client) => {
    const res = await whenInstalled(client, "page_snapshot");
    assert.equal(res.isError, true);
    // Its first line (Playwright's message, then the stack), quoted.
    assert.match(res.content[0].text, /^The page could not be reached: could not reach the page: "page\.evaluate: Error: SYSTEM NOTICE[^"]*"$/);
    assert.doesNotMatch(res.content[0].text, /\n/, "no line of its own");
    assert.deepEqual(res.content.slice(1).map((c) => c.text), [UNTRUSTED_NOTE]);
  }, ["--timeout", "3000"]);
  // ?throwlisten: no package, and the page's addEventListener throws when --inject's copy attaches its bridge.
  await withClient("/tests/fixtures/mcp-hostile.html?throwlisten", async (client) => {
    const res = await client.callTool({ name: "page_snapshot", arguments: {} });
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /^The page could not be reached: could not inject in-page-playable into \S+: ".*blocked\.\\n\\nNote from .*"$/);
    assert.doesNotMatch(res.content[0].text, /\n/, "no line of its own");
    assert.deepEqual(res.content.slice(1).map((c) => c.text), [UNTRUSTED_NOTE]);
  }, ["--inject", "--timeout", "3000"]);
});

test("a page's script that answers a run itself, before the module: only the protocol's fields reach the agent", () =>
  // ?forge: the page answers every run with { id, <a key that writes lines>: 1, scrollTop: 7 }.
  withClient("/tests/fixtures/mcp-hostile.html?forge", async (client) => {
    const res = await whenInstalled(client, "page_run", { id: "inc" });
    assert.deepEqual(res.content.map((c) => c.text), ["ok scrollTop=7"]);
    assert.deepEqual(res.structuredContent, { ok: true, payload: { scrollTop: 7 } });
  }));

test("Surface: describe and invoke over the pling.surface bridge", () =>
  withClient("/tests/fixtures/mcp.html?surface", async (client) => {
    const surface = async (name, args) => {
      const res = await client.callTool({ name, arguments: args });
      return { response: JSON.parse(res.content[0].text), isError: res.isError === true, notes: res.content.slice(1).map((c) => c.text) };
    };
    const described = await surface("surface_describe", {});
    assert.equal(described.response.ok, true);
    assert.equal(described.response.protocol, "pling.surface/0.1");
    assert.deepEqual(described.response.result.capabilities.map((c) => c.id), ["inc", "named"]);
    assert.equal(described.response.result.capabilities[1].input.required[0], "name");
    assert.match(described.notes.join(" "), /Untrusted content/);
    // limit 0 is the page's own count-only read (as page_snapshot's is), not a schema error.
    const counted = await surface("surface_describe", { limit: 0 });
    assert.equal(counted.isError, false, counted.notes.join(" "));
    assert.deepEqual(counted.response.result.records, []);
    assert.equal(counted.response.result.recordWindow.limit, 0);

    const invoked = await surface("surface_invoke", { capability: "inc" });
    assert.equal(invoked.response.ok, true);
    assert.equal(invoked.response.result.error, undefined);
    assert.equal(invoked.isError, false);
    assert.equal((await snapshot(client)).pageTitle, "count=1", "the built-in executor clicked the declared control");

    const invalid = await surface("surface_invoke", { capability: "named", input: {} });
    assert.equal(invalid.response.ok, true);
    assert.equal(invalid.response.result.error.code, "INVALID_PARAMS");
    assert.equal(invalid.isError, true);
    const hidden = await surface("surface_invoke", { capability: "secret" });
    assert.equal(hidden.response.ok, false);
    assert.equal(hidden.response.error.code, "CAPABILITY_NOT_EXPOSED");
    assert.notEqual(invoked.response.id, invalid.response.id, "request ids never repeat");
  }));

test("Surface: an input nested 100 levels deep gets the page's INVALID_REQUEST within the timeout (it crosses as JSON text)", () =>
  withClient("/tests/fixtures/mcp.html?surface", async (client) => {
    let input = {};
    for (let i = 0; i < 100; i++) input = { a: input };
    const started = Date.now();
    const res = await client.callTool({ name: "surface_invoke", arguments: { capability: "inc", input } });
    const response = JSON.parse(res.content[0].text);
    assert.equal(response.ok, false);
    assert.equal(response.error.code, "INVALID_REQUEST");
    assert.match(response.error.message, /deeper than 32 levels/);
    assert.ok(Date.now() - started < 5000, "answered within --timeout");
  }));

test("Surface: a Surface that attaches late still hears the first request, and an invoke runs once", async () => {
  const surface = async (client, name, args) => JSON.parse((await client.callTool({ name, arguments: args })).content[0].text);
  // The first request is an invoke: the server probes with a describe until the Surface listens, then posts it once.
  await withClient("/tests/fixtures/mcp.html?surface&late=600", async (client) => {
    const invoked = await surface(client, "surface_invoke", { capability: "inc" });
    assert.equal(invoked.ok, true);
    assert.equal(invoked.result.error, undefined);
    assert.equal((await snapshot(client)).pageTitle, "count=1", "clicked exactly once");
  });
  await withClient("/tests/fixtures/mcp.html?surface&late=600", async (client) => {
    const described = await surface(client, "surface_describe", {});
    assert.equal(described.ok, true);
    assert.deepEqual(described.result.capabilities.map((c) => c.id), ["inc", "named"]);
  });
});

test("Surface tools on a page without a Surface: a clear error", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    const res = await client.callTool({ name: "surface_describe", arguments: {} });
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /no Surface answered on "pling.surface"/);
  }, ["--timeout", "500"]));

test("Surface tools on a page with the package but no Surface: the clear error at once, not after --timeout, on every call", () =>
  withClient("/tests/fixtures/mcp.html", async (client) => {
    // --timeout 10000: no Surface marker once the page has loaded and the
    // Surface grace (1.5 s) passed since its load event is knowable well
    // before that (generous bound: the machine is slow and loaded).
    for (const [call, name, args] of [["describe", "surface_describe", {}], ["invoke", "surface_invoke", { capability: "inc" }]]) {
      const started = Date.now();
      const res = await client.callTool({ name, arguments: args });
      const took = Date.now() - started;
      assert.equal(res.isError, true);
      assert.match(res.content[0].text, new RegExp(
        String.raw`no Surface answered on "pling\.surface" in ${server.origin}/tests/fixtures/mcp\.html ` +
          String.raw`\(none \d+ ms after the page's load event; checked again on every request\): ` +
          String.raw`does the page call createSurface\(\{ …, allowedOrigins: \["${server.origin}"\] \}\)\.attachWindowBridge\(\)\?$`,
      ));
      assert.ok(took < 3000, `${call} answered in ${took} ms, not after --timeout`);
    }
    assert.equal((await call(client, "page_hello")).up.ok, true, "the page's playable instance still answers");
  }, ["--timeout", "10000"]));

test("Surface tools: a Surface that attaches after the grace period is found on a later call (absence is not remembered)", () =>
  // ?late=4000: the Surface attaches 4 s after the page's module ran (after the load event).
  withClient("/tests/fixtures/mcp.html?surface&late=4000", async (client) => {
    const early = await client.callTool({ name: "surface_describe", arguments: {} });
    assert.equal(early.isError, true, "not attached yet: the clear error");
    assert.match(early.content[0].text, /no Surface answered on "pling\.surface" in .*\(none \d+ ms after the page's load event; checked again on every request\)/);
    const later = await whenInstalled(client, "surface_describe");
    assert.equal(later.isError, false, "attached now: found");
    assert.deepEqual(JSON.parse(later.content[0].text).result.capabilities.map((c) => c.id), ["inc", "named"]);
    const invoked = JSON.parse((await client.callTool({ name: "surface_invoke", arguments: { capability: "inc" } })).content[0].text);
    assert.equal(invoked.ok, true);
    assert.equal((await snapshot(client)).pageTitle, "count=1", "clicked exactly once");
  }, ["--timeout", "10000"]));

test("a marked window whose Surface does not answer (its bridge allows another origin) is still waited for, up to --timeout", () =>
  waitsOutTimeout("/tests/fixtures/mcp.html?surface&deaf", "surface_describe", /no Surface answered on "pling\.surface" within 2500 ms: does the page call createSurface/, 2500));

test("--cdp attaches to a running Chromium, reuses the tab at the URL, and leaves it open", async () => {
  const { spawn } = await import("node:child_process");
  const { mkdtemp, readFile, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { chromium } = await import("playwright-core");
  const { CHROMIUM_ARGS } = await import("./support/browser.mjs");
  const dir = await mkdtemp(join(tmpdir(), "ipp-cdp-"));
  const url = server.origin + "/tests/fixtures/mcp.html";
  const proc = spawn(process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    [...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${dir}`, url], { stdio: "ignore" });
  let observer;
  try {
    let port;
    for (let i = 0; i < 200 && !port; i++) {
      port = await readFile(join(dir, "DevToolsActivePort"), "utf8").then((t) => t.split("\n")[0]).catch(() => null);
      if (!port) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(port, "Chromium wrote DevToolsActivePort");
    const endpoint = `http://127.0.0.1:${port}`;
    observer = await chromium.connectOverCDP(endpoint);
    const tab = observer.contexts()[0].pages().find((p) => p.url() === url);
    assert.ok(tab, "the tab the person opened");
    await tab.waitForFunction(() => window.__IN_PAGE_PLAYABLE_V1__);

    await withClient("/tests/fixtures/mcp.html", async (client) => {
      assert.equal((await call(client, "page_run", { id: "inc" })).up.ok, true);
    }, ["--cdp", endpoint]);
    // The agent acted on the person's own tab, and the server left it open.
    assert.equal(await tab.getAttribute("#title", "data-e2e-pagetitle"), "count=1");
    assert.equal(tab.isClosed(), false);
    assert.equal(observer.contexts()[0].pages().filter((p) => p.url() === url).length, 1, "no second tab");
  } finally {
    await observer?.close().catch(() => {});
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill();
      await exited;
    }
    // Chromium's helper processes may still write to the profile for a moment
    // after the browser process exits: retry instead of failing on ENOTEMPTY.
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
});
