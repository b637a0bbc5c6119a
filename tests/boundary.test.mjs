// What stays in JavaScript of a crossing (crates/wasm/src/boundary.js), on
// its own in Node: `stringify` (the one JSON.stringify with facts), `read`
// (named fields, in order) and `project` (a downlink) only report facts;
// Rust decides on them (playable::boundary and playable::bounds for a
// downlink, surface::crossing and surface::bounds for Surface). No limit is
// written in JS: a value deeper or longer than any bound crosses whole.
// Pure functions: no browser needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { attach, project, read, stringify, thrown } from "../crates/wasm/src/boundary.js";

test("project: the four envelope fields as one JSON text, nothing else read, no fact", () => {
  const down = { pageId: null, requestId: "r1", cmd: "run", payload: { id: "a", value: { b: 1, a: 2 } }, extra: "x" };
  const [text, fact, threw] = project(down);
  assert.equal(text, '{"pageId":null,"requestId":"r1","cmd":"run","payload":{"id":"a","value":{"b":1,"a":2}}}');
  assert.equal(fact, null);
  assert.equal(threw, null);
});

test("project: what JSON cannot hold is reported as a fact (the first one), and written as null", () => {
  for (const [v, kind] of [[10n, "bigint"], [() => 1, "function"], [Symbol("s"), "symbol"], [Infinity, "number"], [NaN, "number"]]) {
    const [text, fact] = project({ pageId: null, requestId: "r", cmd: "run", payload: { id: "a", value: v } });
    assert.equal(fact[0], kind, String(kind));
    assert.equal(fact[1], "value");
    assert.match(text, /"value":null/);
  }
  const [, first] = project({ pageId: null, requestId: "r", cmd: "run", payload: { a: () => 1, b: 1n } });
  assert.deepEqual(first.slice(0, 2), ["function", "a"]);
});

test("project: a cycle or a throwing getter is a throw; the first three fields still identify the request", () => {
  const cyclic = { id: "a" };
  cyclic.self = cyclic;
  const [head, , threw] = project({ pageId: "p", requestId: "r9", cmd: "run", payload: cyclic });
  assert.equal(head, '{"pageId":"p","requestId":"r9","cmd":"run"}');
  assert.match(threw, /circular/i);
  const getter = { pageId: null, requestId: "r", cmd: "run", get payload() { throw new Error("no"); } };
  const [h2, , t2] = project(getter);
  assert.equal(h2, '{"pageId":null,"requestId":"r","cmd":"run"}');
  assert.equal(t2, "no");
});

test("project: each field is read once, even when the first three are written again", () => {
  let reads = 0;
  const cyclic = {};
  cyclic.self = cyclic;
  const down = { pageId: null, get requestId() { reads++; return "r"; }, cmd: "run", payload: cyclic };
  const [head, , threw] = project(down);
  assert.equal(head, '{"pageId":null,"requestId":"r","cmd":"run"}');
  assert.match(threw, /circular/i);
  assert.equal(reads, 1);
  const first = { get pageId() { throw new Error("first"); } };
  assert.deepEqual(project(first), ["{}", null, "first"], "nothing read: no requestId to echo");
});

test("project: a downlink it could write whole also carries its first three fields alone (for a requestId echo)", () => {
  let reads = 0;
  const down = { pageId: null, get requestId() { reads++; return "r8"; }, cmd: "hello", payload: { big: "y".repeat(10) } };
  const [text, fact, threw, head] = project(down);
  assert.equal(text, '{"pageId":null,"requestId":"r8","cmd":"hello","payload":{"big":"yyyyyyyyyy"}}');
  assert.deepEqual([fact, threw], [null, null]);
  assert.equal(head, '{"pageId":null,"requestId":"r8","cmd":"hello"}');
  assert.equal(reads, 1, "read once for both texts");
});

test("project: a value that is not an object is stringified as itself", () => {
  assert.deepEqual(project(7), ["7", null, null]);
  assert.deepEqual(project(undefined), [null, null, null]);
});

test("stringify: JSON text in key order, the first value JSON cannot hold as a fact, a throw as what it threw", () => {
  assert.deepEqual(stringify({ record: "SO-1", note: "x", skip: undefined }), ['{"record":"SO-1","note":"x"}', null, null]);
  assert.deepEqual(stringify(undefined), [null, null, null]);
  assert.deepEqual(stringify(() => 1), ["null", ["function", "", ""], null]);
  assert.deepEqual(stringify({ ok: true, value: [1, 10n, NaN] }), ['{"ok":true,"value":[1,null,null]}', ["bigint", "1", ""], null]);
  assert.deepEqual(stringify({ n: -Infinity })[1], ["number", "n", "-Infinity"]);
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  const [text, fact, threw] = stringify({ input: cyclic });
  assert.equal(text, null);
  assert.equal(fact, null);
  assert.match(threw, /circular/i);
  assert.deepEqual(stringify({ get x() { throw new Error("getter"); } }), [null, null, "getter"]);
  assert.deepEqual(stringify({ toJSON() { throw new Error("toJSON"); } }), [null, null, "toJSON"]);
});

test("stringify decides no bound: depth, values and characters are Rust's to count", () => {
  const deep = {};
  let at = deep;
  for (let i = 0; i < 100; i++) at = at.next = {};
  const [text, fact, threw] = stringify(deep);
  assert.equal(text, '{"next":'.repeat(100) + "{}" + "}".repeat(100));
  assert.deepEqual([fact, threw], [null, null]);
  const long = "x".repeat(2_000_000);
  assert.equal(stringify({ q: long })[0].length, long.length + 8);
  assert.equal(stringify(new Array(20000).fill(0))[2], null);
});

test("read: the named fields once each, in order, up to the getter that threw", () => {
  let reads = 0;
  const r = { protocol: "p", get id() { reads++; return 5; }, method: "describe", other: 1 };
  assert.deepEqual(read(r, ["protocol", "id", "method", "capability", "input"]), [["p", 5, "describe", undefined, undefined], null]);
  assert.equal(reads, 1);
  const input = { q: 10n };
  assert.equal(read({ input }, ["input"])[0][0], input, "a value is handed over as it is, not copied");
  const getter = { protocol: "p", id: "x10", get method() { throw new Error("getter"); } };
  assert.deepEqual(read(getter, ["protocol", "id", "method", "input"]), [["p", "x10"], "getter"]);
  assert.deepEqual(read(new Proxy({ protocol: 1 }, { get() { throw new Error("proxy"); } }), ["protocol"]), [[], "proxy"]);
  const ownTrap = new Proxy({}, { getOwnPropertyDescriptor() { throw new Error("trap"); } });
  assert.deepEqual(read(ownTrap, ["protocol"]), [[], "trap"]);
  for (const none of [null, undefined, "describe", 42, [], () => 1]) {
    assert.deepEqual(read(none, ["protocol"]), [null, null], String(none));
  }
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const [values, threw] = read(proxy, ["protocol"]);
  assert.deepEqual(values, []);
  assert.match(threw, /revoked/);
});

test("attach and thrown never throw", () => {
  const up = { payload: { snapshot: {} } };
  assert.equal(attach(up, "img"), true);
  assert.equal(up.payload.snapshot.screenshot, "img");
  assert.equal(attach({ payload: {} }, "img"), false);
  assert.equal(thrown(new Error("x".repeat(500))).length, 200);
  const hostile = { get message() { throw new Error("no"); } };
  assert.equal(typeof thrown(hostile), "string");
});

test("read and project: only own fields are read, as JSON.stringify does; inherited ones read as absent", () => {
  const names = ["protocol", "id", "method", "capability", "input"];
  Object.prototype.capability = "orders.delete";
  Object.prototype.payload = { polluted: true };
  try {
    const [values] = read({ protocol: "p", id: "i", method: "invoke" }, names);
    assert.deepEqual(values, ["p", "i", "invoke", undefined, undefined]);
    const inheriting = Object.create({ id: "inherited" });
    inheriting.method = "describe";
    assert.deepEqual(read(inheriting, names)[0], [undefined, undefined, "describe", undefined, undefined]);
    const [text] = project({ pageId: null, requestId: "r", cmd: "hello" });
    assert.equal(text, '{"pageId":null,"requestId":"r","cmd":"hello"}', "no inherited payload");
  } finally {
    delete Object.prototype.capability;
    delete Object.prototype.payload;
  }
});

