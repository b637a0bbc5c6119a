// The WebMCP plan (crates/wasm/src/webmcp/plan.rs, through the built
// module's test exports): which menu items or Surface capabilities become
// tools, their names, descriptions and schemas. Pure: runs in Node without
// a browser.
import assert from "node:assert/strict";
import { test } from "node:test";
import Ajv from "ajv";
import pkg from "./support/module.mjs";

const { webMcpPlanForTests: plan, webMcpNameForTests: sanitisedName } = pkg;

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const item = (id, more = {}) => ({ id, event: "click", title: "", desc: "", enabled: true, visible: true, ...more });
const snapshot = (menu) => ({ ok: true, payload: { snapshot: { menu } } });
const names = (menu) => plan(false, snapshot(menu)).map((t) => t[0]);

test("valid ids are their own names", () => {
  assert.deepEqual(names([item("btn-save"), item("a.b_c-9"), item("x".repeat(128))]), ["btn-save", "a.b_c-9", "x".repeat(128)]);
});

test("other ids get a stable hashed name", () => {
  const name = sanitisedName("list-pagination:next");
  assert.match(name, /^list-pagination_next-[0-9a-f]{8}$/);
  assert.equal(name, sanitisedName("list-pagination:next"));
  // 64-bit FNV-1a of the UTF-8 bytes, its halves xor-ed.
  assert.equal(sanitisedName("a"), "a-296230c0");
  assert.equal(sanitisedName("ä"), "_-" + fnv("ä"));
  assert.equal(sanitisedName("ä"), "_-bdda0785", "pinned: folded 64-bit FNV-1a of the UTF-8 bytes c3 a4");
  // Ids that sanitise alike still get different names.
  assert.notEqual(sanitisedName("a:b"), sanitisedName("a;b"));
  for (const id of ["", "ä", "a b", "é".repeat(300), "x".repeat(129), "名前", "😀:x"]) {
    const n = sanitisedName(id);
    assert.match(n, NAME, JSON.stringify(id));
  }
  assert.equal(sanitisedName("é".repeat(300)).length, 119 + 9);
  assert.deepEqual(names([item("a:b"), item("a b")]), [sanitisedName("a:b"), sanitisedName("a b")]);
  // Ids that are not valid names never pass through as they are; an empty
  // id is no menu id at all and gets no tool.
  const invalid = ["a:b", "x".repeat(129)];
  const planned = names(["", ...invalid].map((id) => item(id)));
  assert.deepEqual(planned, invalid.map(sanitisedName));
  for (let i = 0; i < invalid.length; i++) assert.notEqual(planned[i], invalid[i]);
});

function fnv(s) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, "utf8")) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return ((h >> 32n) ^ (h & 0xffffffffn)).toString(16).padStart(8, "0");
}

test("a name already taken gets a counter", () => {
  const hashed = sanitisedName("a:b");
  // A declared id equal to another's sanitised form keeps its own name.
  assert.deepEqual(names([item("a:b"), item(hashed)]), [hashed + "-2", hashed]);
  const long = "y".repeat(200);
  const taken = sanitisedName(long);
  const out = names([item(taken), item(long)]);
  assert.equal(out[0], taken);
  assert.match(out[1], NAME);
  assert.ok(out[1] !== taken && out[1].endsWith("-2"));
  // A repeated valid id: the second gets the sanitised form.
  assert.deepEqual(names([item("a"), item("a")]), ["a", sanitisedName("a")]);
});

test("only runnable items are published", () => {
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
});

test("every known event has an object schema", () => {
  const menu = ["click", "input", "scroll", "drag"].map((event) => item(event, { event }));
  const schemas = plan(false, snapshot(menu)).map((t) => JSON.parse(t[3]));
  for (const s of schemas) {
    assert.equal(s.type, "object");
    assert.equal(s.additionalProperties, false);
  }
  assert.deepEqual(schemas[0], { type: "object", properties: {}, additionalProperties: false });
  assert.deepEqual(schemas[1].required, ["value"]);
  assert.deepEqual(Object.keys(schemas[2].properties), ["to", "by"]);
  assert.deepEqual(schemas[3].required, ["to"]);
});

test("each schema refuses the payloads a run refuses as BAD_REQUEST", () => {
  // docs/protocol.md's run table, beside `id`: a client that validates its
  // arguments against the schema does not send a run the module refuses as
  // malformed, and can send every well-formed one.
  const cases = {
    click: [[{}, true]],
    input: [[{ value: "Ada" }, true], [{ value: true }, true], [{ value: ["a", "b"] }, true], [{}, false], [{ value: 3 }, false]],
    scroll: [
      [{ to: "end" }, true],
      [{ by: { x: 0, y: 40 } }, true],
      [{ to: "center", by: { x: -1, y: 2.5 } }, true],
      [{}, false],
      [{ to: "middle" }, false],
      [{ by: { x: 1 } }, false],
    ],
    drag: [[{ to: "target" }, true], [{}, false], [{ to: 1 }, false]],
  };
  const ajv = new Ajv({ strict: true });
  const events = Object.keys(cases);
  const schemas = plan(false, snapshot(events.map((event) => item(event, { event })))).map((t) => JSON.parse(t[3]));
  events.forEach((event, i) => {
    const valid = ajv.compile(schemas[i]);
    for (const [payload, ok] of cases[event]) assert.equal(valid(payload), ok, `${event} ${JSON.stringify(payload)}`);
  });
});

test("descriptions come from title and desc", () => {
  const describe = (it) => plan(false, snapshot([it]))[0][2];
  assert.equal(describe(item("btn-save", { title: "Save", desc: "Save the current list" })), "Save: Save the current list");
  assert.equal(describe(item("btn-save", { title: " Save " })), "Save");
  assert.equal(describe(item("btn-save")), 'Menu item "btn-save" (click)');
  assert.equal(describe(item("pager:next", { title: "Next page" })), 'Next page (menu item "pager:next")');
  assert.equal(describe(item("a", { title: 'Say "hi"' })), 'Say "hi"');
});

test("surface capabilities become tools with their schemas", () => {
  const result = {
    capabilities: [
      { id: "orders.search", title: "Search orders", input: { type: "object", required: ["q"] } },
      { id: "orders.update_note@order", title: "Update the note", description: "Per order", input: { type: "object", required: ["record", "note"] } },
      { id: "orders.export", title: "Export", input: { type: "object" } },
      { id: "orders.bare", title: "" },
    ],
    unavailable: [
      { capability: "orders.export", reason: "disabled" },
      { capability: "orders.update_note@order", record: "SO-1002", reason: "locked" },
    ],
  };
  const tools = plan(true, { ok: true, result });
  assert.deepEqual(
    tools.map((t) => t[1]),
    ["orders.search", "orders.update_note@order", "orders.bare"],
    "unavailable as a whole: not published; per record: published",
  );
  assert.equal(tools[0][0], "orders.search");
  assert.deepEqual(JSON.parse(tools[0][3]), { type: "object", required: ["q"] });
  assert.equal(tools[1][0], sanitisedName("orders.update_note@order"));
  assert.equal(tools[1][2], 'Update the note: Per order (capability "orders.update_note@order")');
  assert.equal(tools[2][2], 'Capability "orders.bare"');
  assert.equal(tools[2][3], '{"type":"object"}');
  assert.deepEqual(plan(true, { ok: true, result: null }), []);
});

test("responses decide what stays published", () => {
  assert.equal(plan(false, snapshot([item("a")])).length, 1);
  // A refused read (e.g. RETIRED, PAGE_MISMATCH) keeps what is published.
  assert.equal(plan(false, { ok: false, error: { code: "INTERNAL", message: "" } }), undefined);
  assert.equal(plan(false, null), undefined);
  // No Surface session: nothing is usable.
  assert.deepEqual(plan(true, { ok: false, error: { code: "SESSION_EXPIRED", message: "" } }), []);
  assert.equal(plan(true, { ok: true, result: { capabilities: [{ id: "x", title: "X" }] } }).length, 1);
});

test("the test hooks refuse what is not theirs to read: a clear error for a non-string id, nothing for a value nested thousands deep", () => {
  for (const id of [5, null, undefined, {}, ["a"]]) {
    assert.throws(() => sanitisedName(id), /^Error: webMcpNameForTests: the id must be a string$/);
  }
  const deep = JSON.parse("[".repeat(5000) + "]".repeat(5000));
  assert.equal(plan(false, deep), undefined);
  // Read as a publication reads an answer: one that cannot be read keeps
  // what is published (it was [], withdraw everything, in the hook alone).
  assert.equal(plan(true, deep), undefined);
  // The answer is the module's own full snapshot: more than the
  // envelope's 10,000 values still plans.
  assert.equal(names(Array.from({ length: 2000 }, (_, i) => item("b" + i))).length, 2000);
  assert.equal(sanitisedName("a"), "a-296230c0", "the module still works");
});
