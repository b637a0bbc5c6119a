// crates/wasm/src/webmcp.js on its own, in Node: the acts that stay in
// JavaScript (finding the model context, registering and withdrawing a
// tool, watching the root), against fakes. Never throws.
import assert from "node:assert/strict";
import { test, mock } from "node:test";
import { disconnect, modelContext, observe, register, watchShadows, withdraw } from "../crates/wasm/src/webmcp.js";

test("modelContext: document's, else navigator's, only when it can register", () => {
  const mc = { registerTool() {} };
  assert.equal(modelContext({ document: { modelContext: mc } }), mc);
  assert.equal(modelContext({ document: {}, navigator: { modelContext: mc } }), mc);
  assert.equal(modelContext({ document: { modelContext: {} } }), null, "no registerTool");
  assert.equal(modelContext({ document: {}, navigator: {} }), null);
  const hostile = {
    get document() {
      throw new Error("no");
    },
  };
  assert.equal(modelContext(hostile), null, "a throwing getter is no context");
  assert.equal(modelContext(null), null);
});

test("register: execute calls back with the tool's id; the signal withdraws it", async () => {
  const seen = [];
  const mc = { registerTool: (tool, options) => (seen.push([tool, options]), Promise.resolve()) };
  const call = mock.fn((id, input) => Promise.resolve({ id, input }));
  const tool = { name: "pager_next-1", description: "Next", inputSchema: { type: "object" }, annotations: {} };
  const ctrl = register(mc, tool, "pager:next", call);
  assert.equal(seen.length, 1);
  const [registered, { signal }] = seen[0];
  assert.equal(registered, tool);
  assert.deepEqual(Object.keys(registered), ["name", "description", "inputSchema", "annotations", "execute"]);
  assert.deepEqual(await registered.execute({ a: 1 }), { id: "pager:next", input: { a: 1 } });
  assert.deepEqual(call.mock.calls[0].arguments, ["pager:next", { a: 1 }]);
  assert.equal(signal.aborted, false);
  withdraw(ctrl);
  assert.equal(signal.aborted, true);
  withdraw(ctrl); // twice: nothing happens
});

test("register: a refused registration warns, unless withdrawn; nothing throws", async (t) => {
  const warn = t.mock.method(console, "warn", () => {});
  const tool = () => ({ name: "bad name", description: "x", inputSchema: {} });
  register({ registerTool: () => Promise.reject(new Error("Invalid name")) }, tool(), "x", () => {});
  register({ registerTool: () => { throw new Error("Duplicate name"); } }, tool(), "x", () => {});
  const late = register({ registerTool: (_, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))) }, tool(), "x", () => {});
  withdraw(late);
  await new Promise((r) => setTimeout(r, 0));
  const messages = warn.mock.calls.map((c) => c.arguments[0]).sort();
  assert.deepEqual(messages, [
    'in-page-playable: WebMCP did not register tool "bad name": Duplicate name',
    'in-page-playable: WebMCP did not register tool "bad name": Invalid name',
  ]);
});

test("register: a refusal is recorded on the registration as refused: true, a fact Rust reads", async (t) => {
  t.mock.method(console, "warn", () => {});
  const tool = () => ({ name: "t", description: "x", inputSchema: {} });
  const ok = register({ registerTool: () => Promise.resolve() }, tool(), "x", () => {});
  const rejected = register({ registerTool: () => Promise.reject(new Error("Invalid name")) }, tool(), "x", () => {});
  const threw = register({ registerTool: () => { throw new Error("Duplicate name"); } }, tool(), "x", () => {});
  assert.deepEqual(Object.getOwnPropertyDescriptor(rejected, "refused"), { value: false, writable: true, enumerable: true, configurable: true }, "an own data property");
  assert.equal(threw.refused, true, "a synchronous throw, at once");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual([ok.refused, rejected.refused], [false, true]);
});

test("register: a page's throwing console.warn (or error message) cannot make a refused registration throw; the refusal still counts", async (t) => {
  t.mock.method(console, "warn", () => {
    throw new Error("the page broke console.warn");
  });
  const tool = () => ({ name: "t", description: "x", inputSchema: {} });
  const hostile = Object.defineProperty({}, "message", { get() { throw new Error("no message"); } });
  const threw = register({ registerTool: () => { throw new Error("Duplicate name"); } }, tool(), "x", () => {});
  const odd = register({ registerTool: () => { throw hostile; } }, tool(), "x", () => {});
  const rejected = register({ registerTool: () => Promise.reject(new Error("Invalid name")) }, tool(), "x", () => {});
  assert.deepEqual([threw.refused, odd.refused], [true, true]);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(rejected.refused, true);
});

/** A fake MutationObserver: `fire()` reports a change to every live observer. */
function fakeObserver() {
  const live = new Set();
  class Observer {
    constructor(cb) {
      this.cb = cb;
    }
    observe(root, options) {
      this.root = root;
      this.options = options;
      live.add(this);
    }
    disconnect() {
      live.delete(this);
    }
  }
  return { Observer, live, fire: () => [...live].forEach((o) => o.cb([{ type: "childList" }], o)) };
}

/** Runs `f` with `globalThis.MutationObserver` replaced. */
function withObserver(Observer, f) {
  const saved = globalThis.MutationObserver;
  globalThis.MutationObserver = Observer;
  try {
    return f();
  } finally {
    globalThis.MutationObserver = saved;
  }
}

test("observe: every batch of changes under the root calls back (no arguments); disconnect ends it", () => {
  const fake = fakeObserver();
  withObserver(fake.Observer, () => {
    const calls = [];
    const root = {};
    const observer = observe(root, (...args) => calls.push(args));
    const [live] = fake.live;
    assert.equal(live, observer);
    assert.equal(observer.root, root);
    assert.deepEqual(observer.options, { subtree: true, childList: true, attributes: true, characterData: true });
    fake.fire();
    fake.fire();
    assert.deepEqual(calls, [[], []], "each batch, without the records");
    disconnect(observer);
    fake.fire();
    assert.equal(calls.length, 2);
    assert.equal(fake.live.size, 0);
    disconnect(observer); // twice: nothing happens
    disconnect(null); // nothing to disconnect: nothing thrown
  });
});

test("observe: a root that cannot be observed is null, nothing thrown", () => {
  class Refusing {
    observe() {
      throw new TypeError("parameter 1 is not of type 'Node'");
    }
  }
  withObserver(Refusing, () => assert.equal(observe({}, () => {}), null));
  withObserver(undefined, () => assert.equal(observe({}, () => {}), null), "no MutationObserver at all");
});

test("watchShadows: the observer also observes each open shadow root under its root, nested ones and the root's own, once each", () => {
  const observed = [];
  class Recording {
    observe(target, options) {
      observed.push([target, options]);
    }
  }
  // A tiny tree: querySelectorAll("*") lists descendants; shadowRoot as the browser gives it (null when closed or none).
  const node = (name, children = [], shadowRoot = null) => ({ name, shadowRoot, querySelectorAll: () => children.flatMap((c) => [c, ...c.querySelectorAll()]) });
  const deep = node("deep");
  const inner = node("inner", [node("x", [], node("nested", [deep]))]);
  const root = node("root", [node("a"), node("host", [], inner)], node("own"));
  withObserver(Recording, () => {
    const observer = observe(root, () => {});
    watchShadows(observer);
    assert.deepEqual(observed.map(([t]) => t.name), ["root", "own", "inner", "nested"]);
    for (const [, options] of observed) assert.deepEqual(options, { subtree: true, childList: true, attributes: true, characterData: true });
    watchShadows(observer);
    assert.equal(observed.length, 4, "each shadow root once");
    deep.shadowRoot = node("late"); // attached since: observed at the next walk
    watchShadows(observer);
    assert.deepEqual(observed.map(([t]) => t.name), ["root", "own", "inner", "nested", "late"]);
    // A root whose walk throws (a page's getter), or no observer: nothing thrown.
    watchShadows(observe({ name: "bad", get shadowRoot() { throw new Error("page bug"); } }, () => {}));
    watchShadows(null);
    watchShadows({});
  });
});
