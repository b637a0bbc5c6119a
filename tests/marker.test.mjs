// crates/wasm/src/marker.js on its own, in Node: `define` and `holds`, the
// acts behind a window marker (marker.rs decides what it reads). Plain objects
// stand in for a window. Pure: no browser needed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { define, holds } from "../crates/wasm/src/marker.js";

const KEY = "__IN_PAGE_PLAYABLE_V1__";

test("define: a non-configurable, non-enumerable accessor without a setter", () => {
  const win = {};
  const state = define(win, KEY);
  assert.equal(typeof state, "object");
  assert.notEqual(state, null);
  const d = Object.getOwnPropertyDescriptor(win, KEY);
  assert.equal(typeof d.get, "function");
  assert.equal(d.set, undefined, "no setter");
  assert.equal(d.configurable, false);
  assert.equal(d.enumerable, false);
  assert.deepEqual(Object.keys(win), []);
});

test("define: the getter reads state.on, which only the caller holds", () => {
  const win = {};
  const state = define(win, KEY);
  assert.equal(win[KEY], undefined);
  state.on = true;
  assert.equal(win[KEY], true);
  state.on = undefined;
  assert.equal(win[KEY], undefined);
  assert.deepEqual(Object.keys(state), ["on"], "the state holds `on` and nothing else");
});

test("define: a page script can neither overwrite nor delete the marker", () => {
  const win = {};
  const state = define(win, KEY);
  state.on = true;
  assert.throws(() => {
    "use strict";
    win[KEY] = false;
  }, TypeError);
  assert.equal(Reflect.set(win, KEY, false), false);
  assert.equal(Reflect.deleteProperty(win, KEY), false);
  assert.throws(() => Object.defineProperty(win, KEY, { value: false }), TypeError);
  assert.equal(win[KEY], true);
});

test("define: null, and nothing changed, when the property is already non-configurable", () => {
  const win = {};
  Object.defineProperty(win, KEY, { value: "page's", configurable: false });
  assert.equal(define(win, KEY), null);
  assert.equal(win[KEY], "page's");
  const other = {};
  const first = define(other, KEY);
  assert.equal(define(other, KEY), null, "a second copy's define");
  first.on = true;
  assert.equal(other[KEY], true, "the first definition stands");
  assert.equal(define(Object.freeze({}), KEY), null, "a frozen window");
});

test("define: a configurable property the page set is replaced", () => {
  const win = { [KEY]: "fake" };
  const state = define(win, KEY);
  assert.notEqual(state, null);
  assert.equal(win[KEY], undefined);
});

test("define: Reflect.defineProperty as the module loaded it", (t) => {
  t.mock.method(Reflect, "defineProperty", () => {
    throw new Error("replaced by the page");
  });
  const win = {};
  const state = define(win, KEY);
  assert.notEqual(state, null);
  state.on = true;
  assert.equal(win[KEY], true);
});

test("holds: whether the window still reads its marker through the state, which it leaves as it was", () => {
  const win = {};
  const state = define(win, KEY);
  state.on = true;
  assert.equal(holds(win, KEY, state), true);
  assert.equal(state.on, true, "put back");
  state.on = undefined;
  assert.equal(holds(win, KEY, state), true, "an unmarked window still holds the accessor");
  assert.equal(state.on, undefined);
  // A frame's new global (after a reload or a navigation) has none of the old one's marker.
  assert.equal(holds({}, KEY, state), false);
  assert.equal(holds({ [KEY]: true }, KEY, state), false, "a marker that is not this state's");
  const other = {};
  define(other, KEY).on = true;
  assert.equal(holds(other, KEY, state), false, "another copy's marker");
});

test("holds: false, not a throw, when reading the window throws (a window of another origin)", () => {
  const state = define({}, KEY);
  state.on = true;
  const cross = new Proxy({}, { get() { throw new DOMException("Blocked a frame", "SecurityError"); } });
  assert.equal(holds(cross, KEY, state), false);
  assert.equal(state.on, true);
});
