// crates/wasm/src/listen.js on its own, in Node: `tryListening`, the
// bridge's trial of the window's addEventListener and removeEventListener
// before gloo-events adds its listener (serve.rs decides what a throw
// means). Fakes stand in for a window. Never throws.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tryListening } from "../crates/wasm/src/listen.js";

/** A target that records its calls; `throwing` names the method that throws. */
function target(throwing) {
  const calls = [];
  const method = (name) =>
    function (...args) {
      calls.push([name, ...args]);
      if (name === throwing) throw new Error(`${name} refused`);
    };
  return { calls, addEventListener: method("addEventListener"), removeEventListener: method("removeEventListener") };
}

test("tryListening: adds a passive message listener and removes that very one; undefined when both work", () => {
  const t = target();
  assert.equal(tryListening(t), undefined);
  assert.equal(t.calls.length, 2);
  const [[add, type, probe, options], [remove, type2, removed]] = t.calls;
  assert.deepEqual([add, type, options], ["addEventListener", "message", { passive: true }]);
  assert.deepEqual([remove, type2], ["removeEventListener", "message"]);
  assert.equal(typeof probe, "function");
  assert.equal(removed, probe, "the listener added is the one removed");
  assert.equal(probe(), undefined, "a no-op");
});

test("tryListening: each trial's listener is a function of its own", () => {
  const t = target();
  tryListening(t);
  tryListening(t);
  assert.notEqual(t.calls[0][2], t.calls[2][2]);
});

test("tryListening: a throwing addEventListener is reported, and nothing is removed", () => {
  const t = target("addEventListener");
  const [method, thrown] = tryListening(t);
  assert.equal(method, "addEventListener");
  assert.equal(thrown.message, "addEventListener refused");
  assert.deepEqual(t.calls.map((c) => c[0]), ["addEventListener"]);
});

test("tryListening: a throwing removeEventListener is reported", () => {
  const t = target("removeEventListener");
  const [method, thrown] = tryListening(t);
  assert.equal(method, "removeEventListener");
  assert.equal(thrown.message, "removeEventListener refused");
});

test("tryListening: whatever is thrown (not an Error) is handed over as it is; a missing method is a throw too", () => {
  const odd = { addEventListener() { throw 42; }, removeEventListener() {} };
  assert.deepEqual(tryListening(odd), ["addEventListener", 42]);
  const [method, thrown] = tryListening({});
  assert.equal(method, "addEventListener");
  assert.ok(thrown instanceof TypeError);
  const [m2] = tryListening({ addEventListener() {} });
  assert.equal(m2, "removeEventListener");
});
