// What stays in JavaScript of a crossing (crates/wasm/src/boundary.js), on
// its own in Node: `project` only reports facts about a downlink (Rust
// decides on them: playable::boundary, playable::bounds), and `plain` /
// `projectWith` copy Surface's values with the limits still written in JS.
// Pure functions: no browser needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { attach, plain, project, projectWith, thrown } from "../crates/wasm/src/boundary.js";

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

test("project: a value that is not an object is stringified as itself", () => {
  assert.deepEqual(project(7), ["7", null, null]);
  assert.deepEqual(project(undefined), [null, null, null]);
});

test("plain and projectWith: Surface's copies keep key order and report what is not JSON", () => {
  assert.deepEqual(plain({ record: "SO-1", note: "x" }, "result"), ['{"record":"SO-1","note":"x"}', null]);
  const [, problem] = plain({ a: () => 1 }, "result");
  assert.equal(problem, "result.a is a function, not JSON");
  const deep = {};
  let at = deep;
  for (let i = 0; i < 40; i++) at = at.next = {};
  assert.match(plain(deep, "result")[1], /nests deeper than 32 levels/);
  const [text] = projectWith({ protocol: "p", id: 5, method: "describe", input: { limit: 1 }, other: 1 }, ["protocol", "id", "method"], "input");
  assert.equal(text, '{"protocol":"p","id":5,"method":"describe","input":{"limit":1}}');
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
