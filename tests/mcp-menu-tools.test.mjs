// --menu-tools end to end: the SDK's Client spawns the server on a page in
// Chromium; runnable menu items are tools, calls are runs through the
// bridge, and the tool list follows the page with list_changed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startServer } from "./support/server.mjs";
import { hashedName } from "../mcp/names.mjs";
import { BUILT_IN_TOOLS } from "../mcp/server.mjs";
import { MAX_MENU_TOOLS } from "../mcp/menu-tools.mjs";

const BIN = fileURLToPath(new URL("../mcp/bin.mjs", import.meta.url));
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

async function withClient(path, fn) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--url", server.origin + path, "--timeout", "5000", "--menu-tools"],
    stderr: "pipe",
  });
  const client = new Client({ name: "mcp-menu-tools-test", version: "0.0.0" });
  let changes = 0;
  const waiters = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
    for (const w of waiters.splice(0)) w();
  });
  await client.connect(transport);
  const menuTools = async () => (await client.listTools()).tools.filter((t) => !BUILT_IN_TOOLS.includes(t.name));
  /** Resolves with the menu tool names once `check(names)` holds, after list_changed notifications. */
  const until = async (check, what) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const names = (await menuTools()).map((t) => t.name);
      if (check(names)) return names;
      if (Date.now() > deadline) assert.fail(`${what}: tools are ${names.join(", ")}`);
      await new Promise((r) => {
        waiters.push(r);
        setTimeout(r, 500);
      });
    }
  };
  try {
    await fn({ client, menuTools, until, changes: () => changes });
  } finally {
    await client.close();
  }
}

const title = async (client) =>
  (await client.callTool({ name: "page_snapshot", arguments: { format: "json" } })).structuredContent.payload.snapshot.pageTitle;

test("runnable menu items are tools from the first tools/list, with their event's schema; a call is a run", () =>
  withClient("/tests/fixtures/mcp-tools.html", async ({ client, menuTools }) => {
    const tools = await menuTools();
    assert.deepEqual(tools.map((t) => t.name), ["inc", "name", hashedName("pager:next"), "add", "lock"]);
    const inc = tools[0];
    assert.equal(inc.description, "Increment: Adds one to the counter");
    assert.deepEqual(inc.inputSchema.properties, {});
    assert.deepEqual(tools[1].inputSchema.required, ["value"]);
    assert.equal(tools[2].description, 'Next page (menu item "pager:next")');

    const ran = await client.callTool({ name: "inc", arguments: {} });
    assert.equal(ran.isError, false);
    assert.deepEqual(ran.structuredContent, { ok: true, payload: {} });
    assert.equal(await title(client), "count=1");
    const typed = await client.callTool({ name: "name", arguments: { value: "Ada" } });
    assert.deepEqual(typed.structuredContent.payload, {}, "the id and value, the agent's own, are not echoed");
    assert.deepEqual(typed.content.map((c) => c.text), ["ok"]);
    const bad = await client.callTool({ name: "name", arguments: {} });
    assert.equal(bad.isError, true, "value is required");
  }));

test("the tool list follows the page: list_changed after a call changed the menu, and after the page changed it by itself", () =>
  withClient("/tests/fixtures/mcp-tools.html?later=1500", async ({ client, until, changes }) => {
    const before = changes();
    const added = await client.callTool({ name: "add", arguments: {} });
    assert.deepEqual(added.structuredContent, { ok: true, payload: {} }, "the add item was run");
    await until((names) => names.includes("extra"), "the added item became a tool");
    assert.ok(changes() > before, "notifications/tools/list_changed was sent");
    await until((names) => names.includes("late"), "an item the page added by itself became a tool");
    // The counter is disabled: its tool is withdrawn, and nothing it could run is left.
    await client.callTool({ name: "lock", arguments: {} });
    await until((names) => !names.includes("inc"), "the disabled item's tool was withdrawn");
    const gone = await client.callTool({ name: "inc", arguments: {} });
    assert.equal(gone.isError, true);
    const run = await client.callTool({ name: "page_run", arguments: { id: "inc" } });
    assert.equal(run.structuredContent.error.code, "NOT_ACTIONABLE");
    assert.equal(await title(client), "count=0", "nothing was clicked");
  }));

test("the tool list follows changes inside open shadow roots: nested ones, and one the page attached later", () =>
  withClient("/tests/fixtures/mcp-tools.html?shadow=2500", async ({ until, changes }) => {
    // Listed before the page changes anything (the change comes 2.5 s after its load).
    await until((names) => names.includes("sh1") && names.includes("sh2") && !names.includes("sh3"), "the shadow items are tools");
    const before = changes();
    await until(
      (names) => !names.includes("sh1") && names.includes("sh2") && names.includes("sh3") && names.includes("sh4"),
      "a disabled shadow item was withdrawn and new ones (a nested root, a new root) became tools",
    );
    assert.ok(changes() > before, "notifications/tools/list_changed was sent");
    await until((names) => !names.includes("sh4") && names.includes("sh3"), "a change inside the newly attached root was seen");
  }));

test(`past ${MAX_MENU_TOOLS} runnable items: the first ${MAX_MENU_TOOLS} are tools, and snapshots say so`, () =>
  withClient("/tests/fixtures/mcp-tools.html?many=100", async ({ client, menuTools }) => {
    const names = (await menuTools()).map((t) => t.name);
    assert.equal(names.length, MAX_MENU_TOOLS);
    assert.deepEqual(names.slice(0, 5), ["inc", "name", hashedName("pager:next"), "add", "lock"]);
    assert.equal(names.at(-1), `item-${MAX_MENU_TOOLS - 6}`);
    const snap = await client.callTool({ name: "page_snapshot", arguments: {} });
    assert.match(snap.content[0].text, /tools: first 64 runnable items; page_run runs any/);
    assert.equal((await client.callTool({ name: "page_run", arguments: { id: "item-99" } })).isError, false, "page_run runs the rest");
  }));
