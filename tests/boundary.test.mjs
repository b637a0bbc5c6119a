// What stays in JavaScript of a crossing (crates/wasm/src/boundary.js), on
// its own in Node: `stringify` (the one JSON.stringify with facts), `read`
// (named fields, in order) and `project` (a downlink) only report facts;
// Rust decides on them (playable::boundary and playable::bounds for a
// downlink, surface::crossing and surface::bounds for Surface). No limit is
// written in JS: a value deeper or longer than any bound crosses whole.
// Pure functions: no browser needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { attach, entries, isArray, project, read, stringify, thrown } from "../crates/wasm/src/boundary.js";

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

test("project: a cycle or a throwing getter is a throw; the requestId read on its own still identifies the request", () => {
  const cyclic = { id: "a" };
  cyclic.self = cyclic;
  const [text, , threw, id] = project({ pageId: "p", requestId: "r9", cmd: "run", payload: cyclic });
  assert.equal(text, null);
  assert.match(threw, /circular/i);
  assert.equal(id, "r9");
  const getter = { pageId: null, requestId: "r", cmd: "run", get payload() { throw new Error("no"); } };
  assert.deepEqual(project(getter), [null, null, "no", "r"]);
});

test("project: the requestId is handed over whatever its siblings hold (cyclic, throwing, huge), and only a string", () => {
  const cyc = {};
  cyc.self = cyc;
  const big = "a".repeat(9e6);
  const firstThrows = { get pageId() { throw new Error("first"); }, requestId: "gpi", cmd: "hello", payload: {} };
  assert.deepEqual(project(firstThrows), [null, null, "first", "gpi"], "read after a sibling's getter threw");
  assert.equal(project({ pageId: cyc, requestId: "pc", cmd: "hello", payload: {} })[3], "pc");
  assert.equal(project({ pageId: null, requestId: "cc", cmd: cyc, payload: {} })[3], "cc");
  const [text, , , id] = project({ pageId: big, requestId: "p9", cmd: "hello", payload: {} });
  assert.equal(text.length > big.length, true, "the text is whole: Rust measures it");
  assert.equal(id, "p9");
  for (const unusable of [5, null, new String("r"), ["r"], undefined]) {
    assert.equal(project({ requestId: unusable, cmd: "hello", payload: {} })[3], undefined, String(unusable));
  }
  assert.equal(project({ requestId: "x".repeat(300) })[3].length, 300, "its rules (1..128 characters) are Rust's");
  const inherited = Object.create({ requestId: "inh" });
  assert.equal(project(inherited)[3], undefined, "an inherited requestId is absent");
});

test("project: each field is read once", () => {
  let reads = 0;
  const cyclic = {};
  cyclic.self = cyclic;
  const down = { pageId: null, get requestId() { reads++; return "r"; }, cmd: "run", payload: cyclic };
  const [, , threw, id] = project(down);
  assert.match(threw, /circular/i);
  assert.equal(id, "r");
  assert.equal(reads, 1);
  const whole = { pageId: null, get requestId() { reads++; return "r8"; }, cmd: "hello", payload: { big: "y".repeat(10) } };
  assert.deepEqual(project(whole), ['{"pageId":null,"requestId":"r8","cmd":"hello","payload":{"big":"yyyyyyyyyy"}}', null, null, "r8"]);
  assert.equal(reads, 2);
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

test("stringify: its level lets more cross as JSON writes it: 2 a function or symbol that is v's own member under a key not kept (left out), 3 every function and symbol (null in an array) and non-finite numbers (null); a BigInt is a fact at every level", () => {
  const v = { id: "a", handler: () => 1, s: Symbol("s"), list: [() => 1], within: Infinity };
  assert.deepEqual(stringify(v)[1], ["function", "handler", ""], "strict");
  assert.deepEqual(stringify(v, true)[1], ["function", "handler", ""], "true is level 1, a page's value");
  assert.deepEqual(stringify(v, 2, "id within"), ['{"id":"a","list":[null],"within":null}', ["function", "0", ""], null], "one nested deeper is a fact");
  const flat = { id: "a", handler: () => 1, s: Symbol("s"), within: 5 };
  assert.deepEqual(stringify(flat, 2, "id within risk"), ['{"id":"a","within":5}', null, null], "v's own members, keys not kept: left out");
  assert.deepEqual(stringify({ id: "a", risk: () => "high" }, 2, "id risk")[1], ["function", "risk", ""], "under a kept key: a fact (left out, it would read as absent)");
  assert.deepEqual(stringify({ input: { type: "object", f: () => 1 } }, 2, "input")[1], ["function", "f", ""], "inside a member: a fact");
  assert.deepEqual(stringify({ id: "a", within: NaN }, 2, "id within")[1], ["number", "within", "NaN"], "level 2 keeps non-finite numbers facts");
  assert.deepEqual(stringify(v, 3), ['{"id":"a","list":[null],"within":null}', null, null]);
  assert.deepEqual(stringify(() => 1, 3), [null, null, null], "a function alone is undefined to JSON");
  for (const level of [0, 1, 2, 3]) assert.deepEqual(stringify({ n: 1n }, level)[1], ["bigint", "n", ""], String(level));
  assert.deepEqual(stringify(new Date(0), 2), ['"1970-01-01T00:00:00.000Z"', null, null], "and what level 1 lets through");
});

test("entries: an array's entries, each read once and written at the level given (a getter's throw as that entry's), up to Rust's count; null for anything else", () => {
  let reads = 0;
  const list = [{ id: "a", handler: () => 1 }, { id: "b", n: 1n }];
  Object.defineProperty(list, 2, { get() { reads++; throw new Error("entry"); }, enumerable: true });
  assert.deepEqual(entries(list, 2, 3, "id"), [['{"id":"a"}', null, null], ['{"id":"b","n":null}', ["bigint", "n", ""], null], [null, null, "entry"]]);
  assert.equal(reads, 1);
  assert.deepEqual(entries([{ id: () => "a" }], 2, 1, "id"), [['{"id":null}', ["function", "id", ""], null]], "keep reaches each entry's stringify");
  assert.equal(entries(list, 2, 2, "id"), null, "more than max");
  assert.deepEqual(entries([undefined], 2, 1, "id"), [[null, null, null]]);
  for (const none of [null, {}, "ab", { length: 1, 0: {} }, new Proxy([], { get() { throw new Error("trap"); } })]) {
    assert.equal(entries(none, 2, 10, "id"), null);
  }
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

test("read: the named fields once each, in order, each in its own try (one that threw is undefined, the first throw reported)", () => {
  let reads = 0;
  const r = { protocol: "p", get id() { reads++; return 5; }, method: "describe", other: 1 };
  assert.deepEqual(read(r, ["protocol", "id", "method", "capability", "input"]), [["p", 5, "describe", undefined, undefined], null]);
  assert.equal(reads, 1);
  const input = { q: 10n };
  assert.equal(read({ input }, ["input"])[0][0], input, "a value is handed over as it is, not copied");
  const getter = { protocol: "p", id: "x10", get method() { throw new Error("getter"); } };
  assert.deepEqual(read(getter, ["protocol", "id", "method", "input"]), [["p", "x10", undefined, undefined], "getter"]);
  assert.deepEqual(read(new Proxy({ protocol: 1 }, { get() { throw new Error("proxy"); } }), ["protocol"]), [[undefined], "proxy"]);
  const ownTrap = new Proxy({}, { getOwnPropertyDescriptor() { throw new Error("trap"); } });
  assert.deepEqual(read(ownTrap, ["protocol"]), [[undefined], "trap"]);
  for (const none of [null, undefined, "describe", 42, [], () => 1]) {
    assert.deepEqual(read(none, ["protocol"]), [null, null], String(none));
  }
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const [values, threw] = read(proxy, ["protocol"]);
  assert.deepEqual(values, []);
  assert.match(threw, /revoked/);
});

test("read: the id is read whichever other field threw, before it or after it; the first throw is the one reported", () => {
  const names = ["protocol", "id", "method", "capability", "input"];
  const before = { get protocol() { throw new Error("first"); }, id: "keep-me", get method() { throw new Error("second"); }, capability: "c" };
  assert.deepEqual(read(before, names), [[undefined, "keep-me", undefined, "c", undefined], "first"]);
  const after = { protocol: "p", id: "keep-me", get input() { throw new Error("late"); } };
  assert.deepEqual(read(after, names), [["p", "keep-me", undefined, undefined, undefined], "late"]);
});

test("isArray: Array.isArray as the module loaded it, which throws on a revoked proxy (Rust binds it with catch)", () => {
  const real = Array.isArray;
  Array.isArray = () => true;
  try {
    assert.equal(isArray({}), false, "a page's later replacement is not the one used");
    assert.equal(isArray([]), true);
  } finally {
    Array.isArray = real;
  }
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(() => isArray(proxy), /revoked/);
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


test("stringify: a String, Number, Boolean or BigInt object, or an object with toJSON (a Date), is a fact, not the value it stands for", () => {
  for (const [v, kind, shown] of [
    [new String("b"), "boxed", "String"], [new Number(1), "boxed", "Number"], [new Boolean(false), "boxed", "Boolean"],
    [Object(1n), "boxed", "BigInt"], [new Date(0), "toJSON", ""], [{ toJSON: () => ({ id: "z" }) }, "toJSON", ""],
  ]) {
    const [text, fact, threw] = stringify({ payload: { id: v } });
    assert.deepEqual(fact, [kind, "id", shown], String(v));
    assert.equal(text, '{"payload":{"id":null}}', "written as null, like the other facts");
    assert.equal(threw, null);
  }
  assert.deepEqual(stringify(new String("x"))[1], ["boxed", "", "String"], "the value itself: key \"\"");
  assert.deepEqual(stringify([1, new Date(0)])[1], ["toJSON", "1", ""]);
  // A value from another realm (an iframe's) is recognised all the same.
  const other = Object.setPrototypeOf(new String("o"), null);
  assert.deepEqual(stringify({ o: other })[1], ["boxed", "o", "String"]);
  // Not boxed: a plain object, an array, a class instance, one faking the tag.
  const plain = { a: {}, b: [], c: new (class Thing {})(), d: { [Symbol.toStringTag]: "String" } };
  assert.deepEqual(stringify(plain), ['{"a":{},"b":[],"c":{},"d":{}}', null, null]);
  // The value is looked at as it sits in its holder; a getter is not called again.
  let reads = 0;
  const v = { get g() { reads++; return reads === 1 ? "first" : new Date(0); } };
  assert.deepEqual(stringify(v), ['{"g":"first"}', null, null]);
  assert.equal(reads, 1);
});

test("stringify: a Map, Set, WeakMap or WeakSet (JSON writes {} whatever it holds) is a fact, not an empty object; loose lets it through as JSON writes it", () => {
  for (const [v, shown] of [
    [new Map([["order", "SO-1001"]]), "Map"], [new Set(["a"]), "Set"], [new Map(), "Map"],
    [new WeakMap(), "WeakMap"], [new WeakSet(), "WeakSet"], [new (class Orders extends Map {})([["a", 1]]), "Map"],
  ]) {
    const [text, fact, threw] = stringify({ payload: { id: v } });
    assert.deepEqual(fact, ["collection", "id", shown], shown);
    assert.equal(text, '{"payload":{"id":null}}', "written as null, like the other facts");
    assert.equal(threw, null);
    assert.deepEqual(stringify({ payload: { id: v } }, true), ['{"payload":{"id":{}}}', null, null], "loose: as JSON writes it");
  }
  assert.deepEqual(stringify(new Map([["q", "a"]]))[1], ["collection", "", "Map"], "the value itself: key \"\"");
  assert.deepEqual(stringify([1, new Set()])[1], ["collection", "1", "Set"]);
  // Another realm's (an iframe's) Map is recognised all the same.
  assert.deepEqual(stringify({ m: Object.setPrototypeOf(new Map(), null) })[1], ["collection", "m", "Map"]);
  // Not a collection: a plain object holding a map-like field, an object faking the tag or the size.
  const fake = { entries: [["a", 1]], size: 1, [Symbol.toStringTag]: "Map" };
  assert.deepEqual(stringify({ f: fake, g: Object.create(Map.prototype) }), ['{"f":{"entries":[["a",1]],"size":1},"g":{}}', null, null]);
  // Through project, a downlink's payload is read the same way.
  assert.deepEqual(project({ pageId: null, requestId: "r", cmd: "hello", payload: new Map() }).slice(1), [["collection", "payload", "Map"], null, "r"]);
});

test("project, read, stringify and attach never throw and keep their answers when a page replaced Array or Object prototype methods or put setters on the prototypes", () => {
  const saved = new Map(); // (an array's push is among the methods replaced)
  const replace = (obj, key, value) => {
    saved.set(saved.size, [obj, key, Object.getOwnPropertyDescriptor(obj, key)]);
    Object.defineProperty(obj, key, { ...value, configurable: true });
  };
  const boom = (m) => ({ value() { throw new Error(m); }, writable: true });
  const trap = (m) => ({ set() { throw new Error(m); }, get() { return undefined; } });
  try {
    for (const m of ["forEach", "slice", "push", "map"]) replace(Array.prototype, m, boom(m));
    for (const k of ["pageId", "requestId", "cmd", "payload", "screenshot", "0", "1"]) replace(Object.prototype, k, trap(k));
    replace(Object.prototype, "get", { value() {}, writable: true }); // read by defineProperty from a descriptor
    const down = { pageId: null, requestId: "r", cmd: "hello", payload: {} };
    assert.deepEqual(project(down), ['{"pageId":null,"requestId":"r","cmd":"hello","payload":{}}', null, null, "r"]);
    assert.deepEqual(read({ protocol: "p", id: "i" }, ["protocol", "id"]), [["p", "i"], null]);
    assert.deepEqual(stringify({ a: [1, 2] }), ['{"a":[1,2]}', null, null]);
    const up = { payload: { snapshot: {} } };
    assert.equal(attach(up, "img"), true);
    assert.equal(Object.getOwnPropertyDescriptor(up.payload.snapshot, "screenshot").value, "img");
    assert.equal(attach(Object.freeze({ payload: { snapshot: Object.freeze({}) } }), "img"), false, "a throw is false, never a throw");
  } finally {
    for (let i = saved.size - 1; i >= 0; i--) {
      const [obj, key, d] = saved.get(i);
      if (d) Object.defineProperty(obj, key, d);
      else delete obj[key];
    }
  }
});
