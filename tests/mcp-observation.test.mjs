// What an agent reads through the MCP server on real pages (issue 13): the
// playground, the agent benchmark's generated pages of 1k and 10k elements
// (bench/agents/pages.mjs), a page with every kind of menu item
// (fixtures/mcp-kinds.html) and pages shaped like real sites
// (fixtures/mcp-real.html, mcp-real-frame.html: ids with dashes, colons,
// digits and UUIDs; text with colons, quotes, RTL, CJK and emoji; long
// titles, many dirty fields), with the page's own module windowing the
// snapshot. Token ceilings (gpt-tokenizer, o200k) of snapshots and runs,
// the query, the windows, hidden generics, and --inject's first answer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer } from "./support/server.mjs";
import { agentPage } from "../bench/agents/pages.mjs";
import { UNTRUSTED_NOTE } from "../mcp/compact.mjs";
import { kindOf, measure, parseText, told, tokens } from "./fixtures/mcp-observe.mjs";

const BIN = fileURLToPath(new URL("../mcp/bin.mjs", import.meta.url));
const DIR = "/tests/artifacts/mcp/";
let server;
before(async () => {
  server = await startServer();
  mkdirSync(fileURLToPath(new URL(`..${DIR}`, import.meta.url)), { recursive: true });
  for (const size of [1000, 10000]) {
    writeFileSync(fileURLToPath(new URL(`..${DIR}agents-${size}.html`, import.meta.url)), agentPage(size).html);
    writeFileSync(fileURLToPath(new URL(`..${DIR}bare-${size}.html`, import.meta.url)), agentPage(size, { ship: false }).html);
  }
});
after(async () => {
  await server?.close();
});

async function withClient(path, fn, extra = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--url", server.origin + path, "--timeout", "10000", ...extra],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr.on("data", (d) => (stderr += d));
  const client = new Client({ name: "mcp-observation-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    await fn(client, () => stderr);
  } finally {
    await client.close();
  }
}

const snapshot = async (client, args = {}) => {
  let res = await client.callTool({ name: "page_snapshot", arguments: args });
  // On a loaded machine a page's module can install later than the server's
  // grace after the load event; the server looks again on every request.
  for (let tries = 0; tries < 20 && /no in-page-playable instance/.test(res.content[0].text); tries++) {
    await new Promise((r) => setTimeout(r, 250));
    res = await client.callTool({ name: "page_snapshot", arguments: args });
  }
  assert.equal(res.isError, false, res.content[0].text);
  return { text: res.content[0].text, notes: res.content.slice(1).map((c) => c.text), up: res.structuredContent };
};

const KINDS = "/tests/fixtures/mcp-kinds.html";
const REAL = "/tests/fixtures/mcp-real.html";
const REAL_FRAME = "/tests/fixtures/mcp-real-frame.html";
const PAGES = ["/playground/index.html", `${DIR}agents-1000.html`, `${DIR}agents-10000.html`, KINDS, REAL];

for (const path of PAGES) {
  for (const extra of [[], ["--menu-tools"]]) {
    test(`the default observation of ${path} ${extra.join(" ")}: ≤ 4 tokens for every menu item, ≤ 3 per generic, ≤ 120 around them`, () =>
      withClient(
        path,
        async (client, stderr) => {
          const { text, notes, up } = await snapshot(client);
          const s = up.payload.snapshot;
          const m = measure(text, notes, s.menu);
          assert.equal(m.rows.length, s.menu.length);
          assert.equal(m.generics.length, s.generics.length);
          const figures = `rows ${m.rows.length} (mean ${m.meanRow.toFixed(2)}, max ${m.maxRow}), generics ${m.generics.length} (max ${m.maxGeneric.toFixed(2)}), frame ${m.frameTokens}, total ${m.total}`;
          console.log(`${path} ${extra.join(" ")}: ${figures}`);
          assert.ok(m.maxRow <= 4, figures);
          assert.ok(m.maxGeneric <= 3, figures);
          assert.ok(m.frameTokens <= 120, figures);
          // Nothing an agent needs to act is lost: every item once, told as its kind, with its title and desc.
          const rows = told(text);
          assert.equal(rows.size, s.menu.length);
          for (const item of s.menu)
            assert.deepEqual(rows.get(item.id), { kind: kindOf(item), text: item.desc ? `${item.title} — ${item.desc}` : item.title }, item.id);
          assert.deepEqual(notes, [UNTRUSTED_NOTE], "the note, once");
          assert.ok(tokens(UNTRUSTED_NOTE) <= 30);
          assert.doesNotMatch(stderr(), /does not window snapshots/, "the page's module windowed the snapshot itself");
        },
        extra,
      ));
  }
}

test("one call finds an item on the 10k page: row.739.approve in at most 1,500 characters", () =>
  withClient(`${DIR}agents-10000.html`, async (client, stderr) => {
    const { text, notes, up } = await snapshot(client, { query: "Approve item 739" });
    const all = [text, ...notes].join("\n");
    console.log(`query "Approve item 739": ${all.length} characters, ${tokens(all)} tokens`);
    assert.ok(all.length <= 1500, `${all.length} characters`);
    assert.match(text, /^ row\.739\.approve Approve item 739( — |$)/m);
    assert.deepEqual(up.payload.snapshot.menu.map((m) => m.id), ["row.739.approve"]);
    assert.deepEqual(up.payload.snapshot.menuWindow, { offset: 0, limit: 50, total: 1 });
    const ran = await client.callTool({ name: "page_run", arguments: { id: "row.739.approve" } });
    const reply = [...ran.content.map((c) => c.text), JSON.stringify(ran.structuredContent)].join("\n");
    assert.equal(ran.isError, false);
    assert.ok(tokens(reply) <= 40, `page_run: ${tokens(reply)} tokens in all`);
    assert.doesNotMatch(stderr(), /does not window snapshots/);
  }));

test("a page with every kind of menu item, generics of 14 roles, unsaved work and no reload: each kind told once, the frame within 120", () =>
  withClient(KINDS, async (client) => {
    const { text, notes, up } = await snapshot(client);
    const s = up.payload.snapshot;
    // The page has what makes a frame grow: every key, many roles, the dirty and reload lines.
    const kinds = new Set([...told(text).values()].map((r) => r.kind));
    assert.deepEqual([...kinds].sort(), ["ambiguous", "click", "disabled", "drag", "hidden", "input", "scroll", "unrunnable", "unsupported"]);
    assert.deepEqual(
      s.menu.filter((m) => !m.enabled || !m.visible || m.ambiguous || m.event === "hover").map((m) => [m.id, m.event]),
      [["cust.export", "click"], ["cust.number", "input"], ["cust.secret", "input"], ["cust.tips", "hover"], ["cust.merge", "click"], ["cust.delete", "click"], ["cust.audit", "scroll"]],
      "disabled, disabled input, hidden input, unsupported, ambiguous, hidden, hidden scroll",
    );
    assert.ok(new Set(s.generics.map((g) => g.role)).size >= 13, "generics of 13 roles or more");
    assert.deepEqual(s.dirty, ["cust.draft"]);
    assert.equal(s.noReload, true);
    assert.match(text, /^dirty: cust\.draft\nreload: forbidden by the page$/m);
    assert.equal(up.payload.escapes[0].reason, "the page forbids reload (data-e2e-noreload)", "structuredContent keeps the reason");
    const m = measure(text, notes, s.menu);
    console.log(`${KINDS}: frame ${m.frameTokens}, rows max ${m.maxRow}, generics max ${m.maxGeneric.toFixed(2)}`);
    assert.ok(m.frameTokens <= 120, `frame ${m.frameTokens}`);
  }));

test("page_run: a success is at most 40 tokens in all, an input's long value included: the agent sent it, so the reply leaves it out", () =>
  withClient(KINDS, async (client) => {
    const long = "221B Baker Street, London NW1 6XE; ".repeat(8).trim();
    assert.ok(long.length >= 200);
    const runs = [
      [{ id: "cust.name", value: long }, "ok"],
      [{ id: "cust.vip", value: true }, "ok"],
      [{ id: "cust.save" }, "ok"],
      [{ id: "board.card", to: "board.done" }, "ok"],
      [{ id: "cust.history", to: "end" }, /^ok scrollLeft=0 scrollTop=\d+$/],
    ];
    for (const [args, line] of runs) {
      const ran = await client.callTool({ name: "page_run", arguments: args });
      assert.equal(ran.isError, false, ran.content[0].text);
      const reply = [...ran.content.map((c) => c.text), JSON.stringify(ran.structuredContent)].join("\n");
      console.log(`page_run ${args.id}: ${tokens(reply)} tokens in all`);
      assert.ok(tokens(reply) <= 40, `${tokens(reply)} tokens: ${reply}`);
      if (typeof line === "string") assert.equal(ran.content[0].text, line);
      else assert.match(ran.content[0].text, line);
      assert.equal(ran.content.length, 1, "nothing the page chose: no note");
      assert.equal(ran.structuredContent.payload.value, undefined, "the value, the agent's own, is not echoed");
      assert.equal(ran.structuredContent.payload.id, undefined, "nor the id");
    }
    // The field holds the value; format "json" answers the whole uplink, the value in it.
    const json = await client.callTool({ name: "page_run", arguments: { id: "cust.name", value: long, format: "json" } });
    assert.equal(JSON.parse(json.content[0].text).payload.value, long);
    assert.deepEqual(json.structuredContent, { ok: true, payload: {} });
  }));

test("a page shaped like real sites: its ids, with dashes, colons, digits, a slash, an emoji or a UUID, each read back from its row as it is", () =>
  withClient(REAL, async (client) => {
    const { text, notes, up } = await snapshot(client);
    const s = up.payload.snapshot;
    // What TOON quotes, and so what cost 5 or 6 tokens a row there: every such id and text is on the page.
    for (const id of ["pr-48213:merge", "2fa-setup", "cart/add/sku-00123", "emoji-react-👍", "order-7f3e2a1c-9b4d-4e8f-a2c1-0d9e8f7a6b5c:approve", "-mobile-menu"])
      assert.ok(s.menu.some((m) => m.id === id), id);
    assert.ok(s.menu.some((m) => m.title === "2") && s.menu.some((m) => m.title === "true") && s.menu.some((m) => m.desc.includes('"bug"')));
    const m = measure(text, notes, s.menu);
    const costly = m.rows.filter((r) => r.cost > 4).map((r) => `${r.id}: ${r.cost}`);
    assert.deepEqual(costly, [], "no row over 4 tokens");
    assert.ok(m.meanRow <= 2.5, `mean ${m.meanRow}`);
    assert.deepEqual([...told(text).keys()].sort(), s.menu.map((i) => i.id).sort(), "every id, whole");
    assert.ok(m.maxGeneric <= 3 && m.generics.some((g) => g.name === "Sign in: Account & Lists") && m.generics.some((g) => g.name === '"Quoted" link'));
  }));

test("what a page writes into the frame (a long title in English, Arabic or emoji; 4 or 20 dirty fields with long ids): within 120 tokens, the text says what it cut, structuredContent keeps it all", async () => {
  for (const [query, dirty] of [["t=long", 0], ["t=ar", 0], ["t=emoji", 0], ["t=long&dirty=4", 4], ["t=emoji&dirty=20", 20]]) {
    await withClient(`${REAL_FRAME}?${query}`, async (client) => {
      const { text, notes, up } = await snapshot(client);
      const s = up.payload.snapshot;
      const m = measure(text, notes, s.menu);
      console.log(`${REAL_FRAME}?${query}: frame ${m.frameTokens} (title ${tokens(s.pageTitle)} tokens)`);
      assert.ok(m.frameTokens <= 120, `frame ${m.frameTokens}:\n${text}`);
      const shown = parseText(text);
      assert.ok(shown.page.endsWith("…") && s.pageTitle.startsWith(shown.page.slice(0, -1)), `the title cut, with "…": ${shown.page}`);
      assert.ok(tokens(s.pageTitle) > 40, "structuredContent keeps the whole title");
      assert.equal(s.dirty.length, dirty, "structuredContent keeps every dirty id");
      if (dirty) {
        assert.ok(shown.dirty.length >= 1, "at least the first dirty id");
        assert.equal(shown.dirty.length + shown.dirtyMore, dirty, "the first ids, then how many more");
        assert.deepEqual(shown.dirty, s.dirty.slice(0, shown.dirty.length), "shown whole");
        assert.equal(shown.reload, "not allowed (unsaved work)");
      }
    });
  }
});

test("page_run on a page shaped like real sites: a click on an id with a UUID, a drag, a scroll and an input each answer within 40 tokens; what the agent sent is not echoed", () =>
  withClient(REAL, async (client) => {
    await snapshot(client);
    const runs = [
      [{ id: "order-7f3e2a1c-9b4d-4e8f-a2c1-0d9e8f7a6b5c:approve" }, "ok"],
      [{ id: "emoji-react-👍" }, "ok"],
      [{ id: "kanban-card-8f3a2b1c", to: "kanban-column:in-progress" }, "ok"],
      [{ id: "activity-log:scroll-1", to: "end" }, /^ok scrollLeft=0 scrollTop=[1-9]\d*$/],
      [{ id: "search-input:global", value: "unicode csv" }, "ok"],
    ];
    for (const [args, line] of runs) {
      const ran = await client.callTool({ name: "page_run", arguments: args });
      assert.equal(ran.isError, false, ran.content[0].text);
      const reply = [...ran.content.map((c) => c.text), JSON.stringify(ran.structuredContent)].join("\n");
      console.log(`page_run ${args.id}: ${tokens(reply)} tokens in all: ${reply.replace("\n", " ⏎ ")}`);
      assert.ok(tokens(reply) <= 40, `${tokens(reply)} tokens: ${reply}`);
      if (typeof line === "string") assert.equal(ran.content[0].text, line);
      else assert.match(ran.content[0].text, line);
      assert.equal(ran.content.length, 1, "nothing the page chose: no note");
      const { scrollLeft, scrollTop } = ran.structuredContent.payload;
      assert.deepEqual(ran.structuredContent, { ok: true, payload: args.to === "end" ? { scrollLeft, scrollTop } : {} }, "the position the page reported, only");
    }
  }));

test("windows: menu and visible generics page through with one offset/limit; hidden generics are counted, not listed", () =>
  withClient(`${DIR}agents-10000.html`, async (client) => {
    const first = (await snapshot(client, { limit: 200 })).up.payload.snapshot;
    const { total } = first.menuWindow;
    assert.ok(total > 1000, `${total} menu items`);
    const ids = new Set();
    let generics = 0;
    for (let offset = 0; offset < total; offset += 200) {
      const s = (await snapshot(client, { offset, limit: 200 })).up.payload.snapshot;
      assert.deepEqual(s.menuWindow, { offset, limit: 200, total });
      for (const m of s.menu) ids.add(m.id);
      generics += s.generics.length;
      assert.equal(s.genericsWindow.offset, offset);
      assert.ok(s.genericsWindow.hidden > 0, "the hidden Undo buttons are counted");
    }
    assert.equal(ids.size, total, "every menu item once");
    assert.equal(generics, first.genericsWindow.total, "every visible generic once");
    // The Undo buttons are display:none: a query for them finds none visible, and says how many it left out.
    const undo = await snapshot(client, { query: "undo" });
    const s = undo.up.payload.snapshot;
    assert.equal(s.generics.length, 0);
    assert.equal(s.genericsWindow.total, 0);
    assert.ok(s.genericsWindow.hidden >= 100, `${s.genericsWindow.hidden} hidden`);
    assert.match(undo.text, /^window: menu none; generics none visible; \d+ hidden$/m);
    // limit 0: counts only.
    const counts = (await snapshot(client, { query: "approve", limit: 0 })).up.payload.snapshot;
    assert.equal(counts.menu.length, 0);
    assert.ok(counts.menuWindow.total >= 750);
  }));

test("format json: the text is the structuredContent", () =>
  withClient("/playground/index.html", async (client) => {
    const { text, up } = await snapshot(client, { format: "json", limit: 5 });
    assert.deepEqual(JSON.parse(text), up);
    assert.equal(up.payload.snapshot.menu.length, 5);
  }));

test("--inject: the first snapshot of a page without the package answers at once, never after the timeout", async () => {
  for (const path of ["/tests/fixtures/seed.html", `${DIR}bare-10000.html`]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--url", server.origin + path, "--timeout", "20000", "--inject"],
      stderr: "pipe",
    });
    const client = new Client({ name: "mcp-inject-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const t0 = performance.now();
      const res = await client.callTool({ name: "page_snapshot", arguments: {} });
      const ms = performance.now() - t0;
      console.log(`--inject, first page_snapshot of ${path}: ${ms.toFixed(0)} ms`);
      assert.equal(res.isError, false, res.content[0].text);
      assert.ok(res.structuredContent.payload.snapshot.menuWindow.total > 0);
      // A bench figure (docs/agents-benchmark.md); here only: far from the 20 s timeout.
      assert.ok(ms < 10000, `${ms} ms`);
    } finally {
      await client.close();
    }
  }
});
