// The naming rule for menu tools exists twice: in the page's WebMCP
// publication (crates/wasm/src/webmcp/plan.rs) and in the MCP server
// (mcp/names.mjs). This test holds the server's copy to the same vectors as
// tests/webmcp-plan.test.mjs and compares the two on many ids, so they
// cannot drift apart.
import assert from "node:assert/strict";
import { test } from "node:test";
import pkg from "./support/module.mjs";
import { EVENT_SCHEMAS, hashedName, menuTools, nameHash, toolNames } from "../mcp/names.mjs";

// The page's rule is crates/wasm/src/webmcp/plan.rs, reached through the built module's test exports.
const { webMcpPlanForTests: plan, webMcpNameForTests: sanitisedName } = pkg;

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const item = (id, more = {}) => ({ id, event: "click", title: "", desc: "", enabled: true, visible: true, ...more });
const names = (menu) => menuTools(menu).map((t) => t.name);

test("the vectors of tests/webmcp-plan.test.mjs", () => {
  // Valid ids are their own names.
  assert.deepEqual(names([item("btn-save"), item("a.b_c-9"), item("x".repeat(128))]), ["btn-save", "a.b_c-9", "x".repeat(128)]);
  // Other ids get a stable hashed name.
  assert.match(hashedName("list-pagination:next"), /^list-pagination_next-[0-9a-f]{8}$/);
  assert.equal(hashedName("a"), "a-296230c0");
  assert.equal(hashedName("ä"), "_-bdda0785", "64-bit FNV-1a of the UTF-8 bytes c3 a4, folded");
  assert.notEqual(hashedName("a:b"), hashedName("a;b"));
  for (const id of ["", "ä", "a b", "é".repeat(300), "x".repeat(129), "名前", "😀:x"]) assert.match(hashedName(id), NAME, JSON.stringify(id));
  assert.equal(hashedName("é".repeat(300)).length, 119 + 9);
  assert.deepEqual(names([item("a:b"), item("a b")]), [hashedName("a:b"), hashedName("a b")]);
  const invalid = ["a:b", "x".repeat(129)];
  assert.deepEqual(names(["", ...invalid].map((id) => item(id))), invalid.map(hashedName), "an empty id gets no tool");
  // A name already taken gets a counter.
  const hashed = hashedName("a:b");
  assert.deepEqual(names([item("a:b"), item(hashed)]), [hashed + "-2", hashed]);
  const long = "y".repeat(200);
  const out = names([item(hashedName(long)), item(long)]);
  assert.equal(out[0], hashedName(long));
  assert.ok(NAME.test(out[1]) && out[1].endsWith("-2") && out[1].length === 128);
  assert.deepEqual(names([item("a"), item("a")]), ["a", hashedName("a")]);
  // Only runnable items.
  const menu = [
    item("a"),
    item("off", { enabled: false }),
    item("hidden", { visible: false }),
    item("dup", { ambiguous: true }),
    item("hover", { event: "hover" }),
    item("proto", { event: "constructor" }),
    item(""),
    item("g7"), // a generic ref's shape: in the menu, but no run takes it
    item("field", { event: "input" }),
  ];
  assert.deepEqual(names(menu), ["a", "field"]);
  // Descriptions.
  const describe = (it) => menuTools([it])[0].description;
  assert.equal(describe(item("btn-save", { title: "Save", desc: "Save the current list" })), "Save: Save the current list");
  assert.equal(describe(item("btn-save", { title: " Save " })), "Save");
  assert.equal(describe(item("btn-save")), 'Menu item "btn-save" (click)');
  assert.equal(describe(item("pager:next", { title: "Next page" })), 'Next page (menu item "pager:next")');
  // Schemas per event.
  assert.deepEqual(EVENT_SCHEMAS.click, { type: "object", properties: {}, additionalProperties: false });
  assert.deepEqual(EVENT_SCHEMAS.input.required, ["value"]);
  assert.deepEqual(Object.keys(EVENT_SCHEMAS.scroll.properties), ["to", "by"]);
  assert.deepEqual(EVENT_SCHEMAS.drag.required, ["to"]);
});

test("the server's names are the page's WebMCP names, for any ids", () => {
  // Ids of every kind the rule treats differently, and clashes between them.
  const random = (seed) => () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
  const rnd = random(13);
  const alphabet = ["a", "b", "Z", "0", "_", ".", "-", ":", " ", "ä", "名", "😀", "\u0000", "\ud800", "/", "@"];
  const ids = ["list-pagination:next", "a:b", "a;b", "a_b", hashedName("a:b"), "a", "a", "x".repeat(128), "x".repeat(129), "y".repeat(300)];
  for (let i = 0; i < 400; i++) {
    const n = 1 + Math.floor(rnd() * (rnd() < 0.1 ? 200 : 12));
    ids.push(Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(""));
  }
  for (const id of ids) assert.equal(hashedName(id), sanitisedName(id), JSON.stringify(id));
  const events = ["click", "input", "scroll", "drag", "hover"];
  const menu = ids.map((id, i) =>
    item(id, { event: events[i % events.length], title: i % 3 ? `T${i}` : "", desc: i % 4 ? "" : `D${i}`, enabled: i % 11 !== 5 }),
  );
  // The page's plan is Rust, and reads the module's own snapshot: an id
  // read from the DOM reaches it with a lone surrogate already U+FFFD (a
  // Rust string is UTF-8), as it does in the name's hash on both sides
  // (TextEncoder); both are given the ids in that form (the plan's reader
  // refuses a lone surrogate's escape, as every bounded JSON reader does).
  const formed = menu.map((m) => ({ ...m, id: m.id.toWellFormed() }));
  const page = plan(false, { ok: true, payload: { snapshot: { menu: formed } } });
  const server = menuTools(formed);
  assert.equal(server.length, page.length);
  // The plan lists [name, id, description, schema JSON, …].
  assert.deepEqual(
    server.map((t) => [t.name, t.id, t.description, JSON.stringify(t.inputSchema)]),
    page.map((t) => [t[0], t[1], t[2], t[3]]),
  );
});

test("the server's own tool names are taken: a menu id equal to one gets the next name", () => {
  assert.deepEqual(toolNames(["page_run", "save"], ["page_run"]), [hashedName("page_run"), "save"]);
  assert.equal(nameHash(""), "4fd0bfc1", "the offset basis cbf29ce484222325, folded");
});
