// crates/playable/src/web/json.js on its own, in Node: `stringify`,
// JSON.stringify as the module loaded it (playable::web::js reads what it
// gives, and binds what it throws with `catch`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "../crates/playable/src/web/json.js";

test("stringify: what JSON.stringify writes", () => {
  for (const v of [null, 1, "a", [1, { b: 2 }], { a: [true] }, new Date(0)]) assert.equal(stringify(v), JSON.stringify(v));
  assert.equal(stringify(undefined), undefined);
  assert.equal(stringify(() => 1), undefined);
});

test("stringify: JSON.stringify as it was when the module loaded", (t) => {
  t.mock.method(JSON, "stringify", () => '"replaced"');
  assert.equal(stringify({ a: 1 }), '{"a":1}');
});

test("stringify: what JSON.stringify throws is thrown", () => {
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => stringify(cyclic), TypeError);
  assert.throws(() => stringify({ n: 1n }), TypeError);
  assert.throws(() => stringify({ get x() { throw new Error("getter"); } }), /getter/);
});
