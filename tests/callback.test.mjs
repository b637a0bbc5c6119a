// crates/wasm/src/callback.js on its own, in Node: `call`, which awaits a
// Surface host callback and writes its value through boundary.js's
// `stringify` at the level Rust names (surface::crossing::Writing: 0
// strict, 1 a page's value, 2 a registry's entry, 3 execute's result; facts
// only: surface::crossing decides), and `warn`. Neither rejects nor throws.
import assert from "node:assert/strict";
import { test } from "node:test";
import { call as called, warn } from "../crates/wasm/src/callback.js";

const PAGE = 1;
/** `call` at `level` (a page's value unless said), without the value as awaited (its fifth entry, tested below). */
const call = async (f, id, input, level = PAGE) => (await called(f, id, input, level)).slice(0, 4);

test("call: f() without an id, f(id, input) with one; [text, fact, thrown, threw]", async () => {
  const seen = [];
  const f = (...args) => (seen.push(args), { ok: true, value: args.length });
  assert.deepEqual(await call(f, undefined, undefined), ['{"ok":true,"value":0}', null, null, false]);
  const input = { q: "a" };
  assert.deepEqual(await call(f, "orders.search", input), ['{"ok":true,"value":2}', null, null, false]);
  assert.deepEqual(seen, [[], ["orders.search", input]]);
  assert.equal(seen[1][1], input, "the very input it was handed");
});

test("call: a promise is awaited", async () => {
  assert.deepEqual(await call(async () => [1, "b"]), ['[1,"b"]', null, null, false]);
  assert.deepEqual(await call(() => undefined), [null, null, null, false], "undefined has no text");
});

test("call: a throw or a rejection is reported, never rejected", async () => {
  assert.deepEqual(await call(() => { throw new Error("boom"); }), [null, null, "boom", true]);
  assert.deepEqual(await call(() => Promise.reject(new Error("late"))), [null, null, "late", true]);
  assert.deepEqual(await call(() => Promise.reject(7)), [null, null, "unknown error", true]);
  const [text, fact, thrown, threw] = await call("not a function", "id", {});
  assert.deepEqual([text, fact, threw], [null, null, true]);
  assert.match(thrown, /not a function/);
});

test("call: what JSON cannot hold is a fact; loose, as JSON writes a Date", async () => {
  const [text, fact, thrown, threw] = await call(() => ({ n: 1n }));
  assert.deepEqual(fact.slice(0, 2), ["bigint", "n"]);
  assert.equal(text, '{"n":null}');
  assert.deepEqual([thrown, threw], [null, false]);
  const d = new Date(0);
  assert.deepEqual(await call(() => ({ d })), ['{"d":"1970-01-01T00:00:00.000Z"}', null, null, false]);
  const cyclic = {};
  cyclic.self = cyclic;
  const c = await call(() => cyclic);
  assert.equal(c[0], null);
  assert.match(c[2], /circular/i);
  assert.equal(c[3], false, "a value that cannot be written is no throw of the callback");
});

test("call: strict (a confirm's answer), what JSON would write as something else is a fact: only the primitive true reads true", async () => {
  const STRICT = 0;
  assert.deepEqual(await call(() => true, "c", {}, STRICT), ["true", null, null, false]);
  assert.deepEqual(await call(async () => true, "c", {}, STRICT), ["true", null, null, false]);
  for (const [v, fact] of [
    [new Boolean(true), ["boxed", "", "Boolean"]],
    [{ toJSON: () => true }, ["toJSON", "", ""]],
    [new Map([["ok", true]]), ["collection", "", "Map"]],
  ]) {
    const [text, f, thrown, threw] = await call(() => v, "c", {}, STRICT);
    assert.deepEqual([text, f, thrown, threw], ["null", fact, null, false], String(fact));
    assert.deepEqual((await call(() => v, "c", {}))[1], null, "loose: as JSON writes it");
  }
});

test("call: the result array is built without the page's array iterator", async () => {
  const iterator = Array.prototype[Symbol.iterator];
  Array.prototype[Symbol.iterator] = () => {
    throw new Error("replaced");
  };
  let out;
  try {
    out = await call(() => 1);
  } finally {
    Array.prototype[Symbol.iterator] = iterator;
  }
  assert.deepEqual(out, ["1", null, null, false]);
});

test("call: the value as awaited is handed over too (not after a throw), for Rust to read further when it could not cross whole", async () => {
  const cyclic = { ok: true };
  cyclic.value = cyclic;
  const out = await called(async () => cyclic, "orders.search", {}, 3);
  assert.equal(out.length, 5);
  assert.equal(out[0], null);
  assert.match(out[2], /circular/i);
  assert.equal(out[4], cyclic, "the very value");
  assert.equal((await called(() => { throw new Error("boom"); }, undefined, undefined, 2)).length, 4, "a throw has no value");
});

test("call: a page's value (a registry whole, a session) refuses a function, which the registry's entries then leave out one by one (boundary.test.mjs, entries); execute's result's level also writes NaN as null", async () => {
  const declarations = () => [{ id: "a", title: "A", handler: () => 1 }, { id: "b", title: "B", expect: { text: "t", within: Infinity } }];
  const whole = await called(declarations, undefined, undefined, PAGE);
  assert.deepEqual(whole[1], ["function", "handler", ""], "a page's value refuses a function");
  assert.deepEqual([whole[4].length, whole[4][0].id, typeof whole[4][0].handler], [2, "a", "function"], "the value awaited, for the entries' pass");
  const result = () => ({ ok: true, value: { rate: NaN, f: () => 1, list: [Infinity, () => 1] } });
  assert.deepEqual(await call(result, "c", {}, 3), ['{"ok":true,"value":{"rate":null,"list":[null,null]}}', null, null, false]);
  assert.deepEqual((await call(() => ({ ok: true, value: { n: 1n, rate: NaN } }), "c", {}, 3))[1], ["bigint", "n", ""], "a BigInt, which JSON cannot write, stays a fact");
});

test("warn: one prefixed console warning; a throwing console is ignored", (t) => {
  const w = t.mock.method(console, "warn", () => {});
  warn("registry unreadable");
  assert.deepEqual(w.mock.calls.map((c) => c.arguments), [["in-page-playable surface: registry unreadable"]]);
  w.mock.mockImplementation(() => {
    throw new Error("no console");
  });
  assert.equal(warn("x"), undefined);
});
