// Actions that went out and were not answered within --timeout: a run held
// up by a long task, an invoke waiting on a person's confirm or a slow
// execute. The server cannot know whether they took effect (they do, in
// tests/fixtures/mcp-late.html), so its result says they were sent and may
// have, never that the page or its Surface could not be reached.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer } from "./support/server.mjs";

const BIN = fileURLToPath(new URL("../mcp/bin.mjs", import.meta.url));
const PAGE = "/tests/fixtures/mcp-late.html";
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

async function withClient(path, timeoutMs, fn) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--url", server.origin + path, "--timeout", String(timeoutMs)],
    stderr: "pipe",
  });
  const client = new Client({ name: "mcp-unanswered-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const texts = (res) => res.content.map((c) => c.text);

/** The fixture's title (`spun=N done=M`), read once the page answers again. */
async function title(client) {
  for (let i = 0; ; i++) {
    const res = await client.callTool({ name: "page_snapshot", arguments: { limit: 0 } });
    if (res.structuredContent?.ok === true) return res.structuredContent.payload.snapshot.pageTitle;
    if (i >= 20) assert.fail(`no snapshot: ${texts(res).join(" ")}`);
    await sleep(250);
  }
}

test("a run held up past --timeout by a long task: 'sent, may have taken effect', and it did (once)", () =>
  // ?spin=8000: the click handler blocks the page for 8 s; the server gives up
  // after --timeout plus its 2.2 s margin, about 3.2 s.
  withClient(`${PAGE}?spin=8000`, 1000, async (client) => {
    // The Surface answers first: from then on the server knows it is there.
    assert.equal((await client.callTool({ name: "surface_describe", arguments: { limit: 0 } })).isError, false);
    const run = await client.callTool({ name: "page_run", arguments: { id: "spin" } });
    assert.equal(run.isError, true);
    assert.equal(run.structuredContent, undefined);
    assert.match(
      texts(run)[0],
      /^The run was sent, but the page did not answer within 1000 ms \(it may be busy\): it may already have taken effect, or may still\. Take a page_snapshot before sending it again; do not repeat it blindly\.$/,
    );
    assert.doesNotMatch(texts(run).join(" "), /could not be reached/);
    // A read while the page is still busy: the Surface answered before, so it is not "no Surface".
    const described = await client.callTool({ name: "surface_describe", arguments: { limit: 0 } });
    assert.equal(described.isError, true);
    assert.match(
      texts(described)[0],
      /^The page could not be reached: the page's Surface did not answer within 1000 ms, though it answered on this page before \(it may be busy\)$/,
    );
    assert.equal(await title(client), "spun=1 done=0", "the click happened, once");
  }));

test("an escape sent while the page is busy: 'sent, may have taken effect', and the page reloads once it is free", () =>
  withClient(`${PAGE}?spin=5000&later`, 1000, async (client) => {
    const loads = server.hits(PAGE);
    // ?later: "spin" answers at once and blocks the page 300 ms later.
    const ran = await client.callTool({ name: "page_run", arguments: { id: "spin" } });
    assert.equal(ran.isError, false, texts(ran).join(" "));
    await sleep(600);
    const escaped = await client.callTool({ name: "page_escape", arguments: {} });
    assert.equal(escaped.isError, true);
    assert.match(texts(escaped)[0], /^The escape was sent, but the page did not answer within 1000 ms \(it may be busy\): it may already have taken effect, or may still\. Take a page_snapshot/);
    await server.waitForHits(PAGE, loads + 1, 10000);
    assert.equal(await title(client), "spun=0 done=0", "a fresh document: the escape took effect after all");
  }));

test("an invoke waiting on a person's confirm, or on a slow execute, past --timeout: 'sent to the Surface, may still be running', never 'no Surface answered'", () =>
  withClient(`${PAGE}?confirm=2500&slow=2500`, 1000, async (client) => {
    for (const [capability, done] of [["ship", 1], ["pack", 2]]) {
      const started = Date.now();
      const res = await client.callTool({ name: "surface_invoke", arguments: { capability } });
      assert.equal(res.isError, true);
      const [text] = texts(res);
      assert.match(
        text,
        /^The invoke was sent to the page's Surface, which answered on this page, but the page did not answer within 1000 ms: it may still be running \(a confirmation waiting for a person, a slow action\) or may already have taken effect\. Check with surface_describe before invoking it again; do not retry blindly\.$/,
        capability,
      );
      assert.doesNotMatch(text, /no Surface answered|could not be reached|createSurface/);
      assert.ok(Date.now() - started < 2500, `${capability}: answered after --timeout, not after the action`);
      await sleep(3000);
      assert.equal(await title(client), `spun=0 done=${done}`, `${capability} ran anyway, once`);
    }
  }));

test("an invoke whose Surface never answers the probe: 'no Surface answered', and the invoke was not sent", () =>
  // ?deaf: the window is marked but its Surface allows only another origin.
  withClient("/tests/fixtures/mcp.html?surface&deaf", 1000, async (client) => {
    const res = await client.callTool({ name: "surface_invoke", arguments: { capability: "inc" } });
    assert.equal(res.isError, true);
    assert.match(
      texts(res)[0],
      /^The page could not be reached: no Surface answered on "pling\.surface" within 1000 ms \(the invoke was not sent\): does the page call createSurface/,
    );
  }));
