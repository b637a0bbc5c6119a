// Surface (pling.surface/0.1) through the real JS API in Chromium: the seed's
// examples, every row of its failure table, every protocol error, bounded
// describe on 10,000 records, expectations via MutationObserver, `after`
// evidence, the built-in DOM executor, and the "pling.surface" bridge channel.
// pageExecute is the fixture page's own executor (tests/fixtures/surface.html).
/* global pageExecute */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "./support/harness.mjs";
import { startServer } from "./support/server.mjs";

const ctx = useBrowser();
const FIXTURE = "/tests/fixtures/surface.html";
let other;
before(async () => { other = await startServer(); });
after(async () => { await other?.close(); });

const withPage = (fn, path = FIXTURE) => ctx.withPage(path, fn);

/** Runs `body` (a function source) in the page with a fresh default surface as `s`. */
const inPage = (page, body, arg) =>
  page.evaluate(async ([src, a]) => {
    const fn = new Function("return " + src)();
    return fn(a);
  }, [body.toString(), arg]);

const PROTOCOL = "pling.surface/0.1";

test("the seed's two JSON examples round-trip", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      const describe = await s.handle({ protocol: "pling.surface/0.1", id: "req-1", method: "describe", input: { limit: 8, capabilities: "changed" } });
      const invoke = await s.handle({
        protocol: "pling.surface/0.1", id: "req-2", method: "invoke",
        capability: "orders.update_note@order", input: { record: "SO-1002", note: "周五前回电" },
      });
      // The same page read for the built-in executor, which clicks the marked controls.
      const builtin = await makeSurface({ execute: undefined }).handle({ protocol: "pling.surface/0.1", id: "req-3", method: "describe", input: { limit: 8 } });
      return { describe, invoke, executed: __executed.length, builtin: builtin.result.unavailable };
    });
    const d = r.describe;
    assert.equal(d.protocol, PROTOCOL);
    assert.equal(d.id, "req-1");
    assert.equal(d.ok, true);
    assert.equal(d.result.app, "orders");
    assert.equal(d.result.protocol, PROTOCOL);
    assert.equal(d.result.capabilitiesUnchanged, false, "first read: the full list");
    assert.deepEqual(d.result.capabilities.map((c) => c.id), [
      "orders.search", "orders.open", "orders.update_note@order", "orders.refund@order",
      "orders.export", "orders.dup", "orders.print", "orders.ghost",
    ]);
    const note = d.result.capabilities.find((c) => c.id === "orders.update_note@order");
    assert.deepEqual([...note.input.required].sort(), ["note", "record"]);
    assert.equal(note.input.properties.record.type, "string");
    assert.equal(d.result.capabilities.find((c) => c.id === "orders.refund@order").risk, "high");
    assert.deepEqual(d.result.context, { page: { title: "Orders", documentTitle: "Orders — Surface fixture" } });
    assert.deepEqual(d.result.regions, [
      { id: "list", title: "Order list", active: true },
      { id: "archive", title: "Archive", active: false },
    ]);
    assert.deepEqual(d.result.recordWindow, { offset: 0, limit: 8, total: 4 });
    assert.deepEqual(d.result.records[0], {
      id: "SO-1001", kind: "order", fields: { customer: "Ada Lovelace", note: "" }, state: "open", region: "list",
    });
    assert.deepEqual(d.result.records.map((x) => x.id), ["SO-1001", "SO-1002", "SO-1004", "SO-0900"]);
    assert.deepEqual(d.result.status, ["3 orders"]);
    assert.deepEqual(d.result.feedback, []);
    // Everything invoke's availability check refuses (the same rule, its message as the
    // reason). With the page's own execute: what the page marks (unavailable, disabled)
    // and records in the inactive archive.
    const archived = "record `SO-0900` is in region `archive`, which is not active";
    assert.deepEqual(d.result.unavailable, [
      { capability: "orders.update_note@order", record: "SO-1002", reason: "记录已锁定" },
      { capability: "orders.update_note@order", record: "SO-0900", reason: archived },
      { capability: "orders.refund@order", record: "SO-1002", reason: "disabled" },
      { capability: "orders.refund@order", record: "SO-0900", reason: archived },
      { capability: "orders.print", reason: "disabled" },
    ]);
    // With the built-in executor, which clicks the one marked control: also a hidden
    // control, one claimed twice, and none at all.
    assert.deepEqual(r.builtin, [
      { capability: "orders.open", reason: "`orders.open` has no control on the page" },
      { capability: "orders.update_note@order", record: "SO-1002", reason: "记录已锁定" },
      { capability: "orders.update_note@order", record: "SO-1004", reason: "`orders.update_note@order`'s control is hidden for record `SO-1004`" },
      { capability: "orders.update_note@order", record: "SO-0900", reason: archived },
      { capability: "orders.refund@order", record: "SO-1002", reason: "disabled" },
      { capability: "orders.refund@order", record: "SO-1004", reason: "`orders.refund@order` has no control for record `SO-1004`" },
      { capability: "orders.refund@order", record: "SO-0900", reason: archived },
      { capability: "orders.export", reason: "`orders.export`'s control is hidden on the page" },
      { capability: "orders.dup", reason: "`orders.dup` has more than one control on the page" },
      { capability: "orders.print", reason: "disabled" },
      { capability: "orders.ghost", reason: "`orders.ghost` has no control on the page" },
    ]);
    // The seed's invoke example, byte for byte.
    assert.deepEqual(r.invoke, {
      protocol: PROTOCOL,
      id: "req-2",
      ok: true,
      result: { error: { code: "ACTION_UNAVAILABLE", message: "记录已锁定" } },
    });
    assert.equal(r.executed, 0, "a refusal never reaches execute");
  }));

test("every row of the seed's failure table, produced for real", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const out = {};
      const s = makeSurface();
      const code = (resp) => (resp.ok ? resp.result.error?.code ?? "ok" : resp.error.code);
      // CAPABILITY_NOT_EXPOSED: registered, not in expose; in expose, out of scope.
      out.notExposed = await s.handle(invoke("orders.delete", {}));
      const narrow = makeSurface({ session: () => ({ id: "narrow", scope: ["orders.search"] }) });
      out.outOfScope = await narrow.handle(invoke("orders.open", { order: "SO-1001" }));
      // ACTION_NOT_FOUND: exposed and scoped, not registered on this page.
      out.notFound = await s.handle(invoke("orders.missing", {}));
      // ACTION_UNAVAILABLE: locked, inactive region, no such record.
      out.locked = await s.handle(invoke("orders.update_note@order", { record: "SO-1002", note: "x" }));
      out.inactive = await s.handle(invoke("orders.update_note@order", { record: "SO-0900", note: "x" }));
      out.noRecord = await s.handle(invoke("orders.update_note@order", { record: "SO-9999", note: "x" }));
      // INVALID_PARAMS: the message names the failing path.
      out.badNote = await s.handle(invoke("orders.update_note@order", { record: "SO-1001", note: 5 }));
      out.noRecordId = await s.handle(invoke("orders.update_note@order", { note: "x" }));
      out.extra = await s.handle(invoke("orders.search", { q: "a", drop: "tables" }));
      // PERMISSION_DENIED: no confirm hook; a person declines; a backend refuses.
      out.noConfirm = await s.handle(invoke("orders.refund@order", { record: "SO-1001" }));
      const asked = [];
      const declining = makeSurface({ confirm: async (id, input) => { asked.push([id, input]); return false; } });
      out.declined = await declining.handle(invoke("orders.refund@order", { record: "SO-1001" }));
      const selfGranted = await declining.handle(invoke("orders.refund@order", { record: "SO-1001", approved: true, confirm: true }));
      out.selfGranted = code(selfGranted);
      const approving = makeSurface({ confirm: (id) => id === "orders.refund@order" });
      out.approved = await approving.handle(invoke("orders.refund@order", { record: "SO-1001" }));
      const backend = makeSurface({ execute: () => ({ ok: false, error: { code: "PERMISSION_DENIED", message: "the bank said no" } }) });
      out.backend = await backend.handle(invoke("orders.search", { q: "x" }));
      // EXPECTATION_FAILED: the declared text never shows.
      const silent = makeSurface({ execute: () => ({ ok: true }), registry: REGISTRY.map((d) => d.id === "orders.update_note@order" ? { ...d, expect: { text: "never shown", within: 300 } } : d) });
      const t0 = performance.now();
      out.expectation = await silent.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "x" }));
      out.expectationMs = performance.now() - t0;
      // SESSION_EXPIRED / SESSION_REVOKED.
      out.noSession = await makeSurface({ session: () => null }).handle(req("describe"));
      out.expired = await makeSurface({ session: () => ({ id: "old", scope: ["*"], expiresAt: Date.now() - 1 }) }).handle(req("describe"));
      out.revoked = await makeSurface({ session: () => ({ id: "gone", scope: ["*"], revoked: true }) }).handle(invoke("orders.search", { q: "x" }));
      out.throwing = await makeSurface({ session: () => { throw new Error("auth down"); } }).handle(req("describe"));
      out.rejecting = await makeSurface({ session: () => Promise.reject(new Error("auth down")) }).handle(req("describe"));
      out.asked = asked;
      out.executed = __executed.map(([id]) => id);
      return out;
    });
    const protocolError = (resp, c) => {
      assert.equal(resp.ok, false, JSON.stringify(resp));
      assert.equal(resp.error.code, c);
      assert.equal(resp.protocol, PROTOCOL);
    };
    const business = (resp, c, message) => {
      assert.equal(resp.ok, true, JSON.stringify(resp));
      assert.equal(resp.result.error.code, c, JSON.stringify(resp));
      if (message) assert.match(resp.result.error.message, message);
    };
    protocolError(r.notExposed, "CAPABILITY_NOT_EXPOSED");
    protocolError(r.outOfScope, "CAPABILITY_NOT_EXPOSED");
    business(r.notFound, "ACTION_NOT_FOUND", /not registered/);
    business(r.locked, "ACTION_UNAVAILABLE", /^记录已锁定$/);
    business(r.inactive, "ACTION_UNAVAILABLE", /region `archive`/);
    business(r.noRecord, "ACTION_UNAVAILABLE", /SO-9999/);
    business(r.badNote, "INVALID_PARAMS", /\/note/);
    business(r.noRecordId, "INVALID_PARAMS", /\/record/);
    business(r.extra, "INVALID_PARAMS", /drop/);
    business(r.noConfirm, "PERMISSION_DENIED", /consent/);
    business(r.declined, "PERMISSION_DENIED", /declined/);
    assert.equal(r.selfGranted, "PERMISSION_DENIED", "nothing in the input approves");
    assert.deepEqual(r.asked[0], ["orders.refund@order", { record: "SO-1001" }]);
    assert.deepEqual(r.approved.result, { value: "refunded", after: r.approved.result.after });
    business(r.backend, "PERMISSION_DENIED", /bank said no/);
    business(r.expectation, "EXPECTATION_FAILED", /never shown.*300 ms/);
    assert.ok(r.expectationMs >= 290 && r.expectationMs < 1500, `waited ${r.expectationMs} ms`);
    protocolError(r.noSession, "SESSION_EXPIRED");
    protocolError(r.expired, "SESSION_EXPIRED");
    protocolError(r.revoked, "SESSION_REVOKED");
    protocolError(r.throwing, "SESSION_EXPIRED");
    protocolError(r.rejecting, "SESSION_EXPIRED");
    assert.deepEqual(r.executed, ["orders.refund@order"], "only the approved call reached the page's execute");
  }));

test("confirm: only the primitive true approves; a Boolean object, a toJSON giving true, \"true\" or 1 is PERMISSION_DENIED and execute never runs", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const out = {};
      const answers = {
        primitive: () => true,
        promised: async () => true,
        boxedTrue: () => new Boolean(true),
        promisedBoxed: async () => new Boolean(true),
        toJSONtrue: () => ({ toJSON() { return true; } }),
        boxedFalse: () => new Boolean(false),
        stringTrue: () => "true",
        one: () => 1,
      };
      for (const [k, confirm] of Object.entries(answers)) {
        __executed.length = 0;
        const resp = await makeSurface({ confirm }).handle(invoke("orders.refund@order", { record: "SO-1001" }));
        out[k] = [resp.ok, resp.result.error ? resp.result.error.code : resp.result.value, __executed.length];
      }
      return out;
    });
    assert.deepEqual(r.primitive, [true, "refunded", 1]);
    assert.deepEqual(r.promised, [true, "refunded", 1]);
    for (const k of ["boxedTrue", "promisedBoxed", "toJSONtrue", "boxedFalse", "stringTrue", "one"]) {
      assert.deepEqual(r[k], [true, "PERMISSION_DENIED", 0], k);
    }
  }));

test("an invoke's input reaches confirm and execute with its keys in their order", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const seen = [];
      const s = makeSurface({
        execute: (id, args) => { seen.push(["execute", Object.keys(args)]); return pageExecute(id, args); },
        confirm: (id, input) => { seen.push(["confirm", Object.keys(input)]); return true; },
      });
      const out = [];
      out.push(await s.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "周五前回电" })));
      out.push(await s.handle(invoke("orders.update_note@order", { note: "周五前回电", record: "SO-1001" })));
      out.push(await s.handle(invoke("orders.refund@order", { reason: "dup", record: "SO-1001", z: 1, a: 2 })));
      return { seen, answers: out.map((x) => [x.ok, x.result?.error?.code ?? "ok"]) };
    });
    assert.deepEqual(r.answers, [[true, "ok"], [true, "ok"], [true, "ok"]]);
    assert.deepEqual(r.seen, [
      ["execute", ["record", "note"]],
      ["execute", ["note", "record"]],
      ["confirm", ["reason", "record", "z", "a"]],
      ["execute", ["reason", "record", "z", "a"]],
    ]);
  }));

test("every protocol error: INVALID_REQUEST shapes, REPLAY_DETECTED, RATE_LIMITED, INTERNAL_ERROR", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface({ rateLimit: { invokes: 2, perMs: 60000 } });
      const invalid = [];
      const cyclic = { a: 1 }; cyclic.self = cyclic;
      for (const bad of [
        null, undefined, "describe", 42, [],
        { id: "x", method: "describe" },
        { protocol: "pling.surface/0.2", id: "x1", method: "describe" },
        { protocol: "pling.surface/0.1", method: "describe" },
        { protocol: "pling.surface/0.1", id: 7, method: "describe" },
        { protocol: "pling.surface/0.1", id: "", method: "describe" },
        { protocol: "pling.surface/0.1", id: "x".repeat(257), method: "describe" },
        { protocol: "pling.surface/0.1", id: "x2", method: "click" },
        { protocol: "pling.surface/0.1", id: "x3", method: "describe", input: [] },
        { protocol: "pling.surface/0.1", id: "x4", method: "describe", input: { record: "SO-1001", limit: 2 } },
        { protocol: "pling.surface/0.1", id: "x5", method: "describe", input: { capabilities: "some" } },
        { protocol: "pling.surface/0.1", id: "x6", method: "invoke" },
        { protocol: "pling.surface/0.1", id: "x7", method: "invoke", capability: "orders.search", input: { q: 10n } },
        { protocol: "pling.surface/0.1", id: "x8", method: "invoke", capability: "orders.search", input: cyclic },
        { protocol: "pling.surface/0.1", id: "x9", method: "invoke", capability: "orders.search", input: { q: "x".repeat(2_000_000) } },
        { protocol: "pling.surface/0.1", id: "x10", method: "invoke", capability: "orders.search", get input() { throw new Error("getter"); } },
        new Proxy({ protocol: "pling.surface/0.1" }, { get() { throw new Error("proxy"); } }),
      ]) {
        const resp = await s.handle(bad);
        invalid.push([resp.ok, resp.error?.code, resp.id, resp.protocol]);
      }
      const first = await s.handle({ protocol: "pling.surface/0.1", id: "same", method: "describe" });
      const again = await s.handle({ protocol: "pling.surface/0.1", id: "same", method: "describe" });
      const asInvoke = await s.handle({ protocol: "pling.surface/0.1", id: "same", method: "invoke", capability: "orders.search", input: { q: "a" } });
      const otherSession = await makeSurface({ session: () => ({ id: "s2", scope: ["*"] }) }).handle({ protocol: "pling.surface/0.1", id: "same", method: "describe" });
      const invokes = [];
      for (let i = 0; i < 3; i++) invokes.push(await s.handle(invoke("orders.search", { q: "a" })));
      const broken = window.P.createSurface({
        registry: REGISTRY, app: "orders", expose: EXPOSE, session: () => SESSION,
        root: { nodeType: 1, ownerDocument: document, matches() { throw new Error("gone"); }, querySelectorAll() { throw new Error("gone"); } },
      });
      const internal = await broken.handle(req("describe"));
      return { invalid, first, again, asInvoke, otherSession, invokes, internal };
    });
    for (const [ok, code, , protocol] of r.invalid) {
      assert.deepEqual([ok, code, protocol], [false, "INVALID_REQUEST", PROTOCOL]);
    }
    assert.deepEqual(r.invalid.slice(6).map((x) => x[2]), ["x1", "", "", "", "x".repeat(257), "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", ""],
      "a string id is echoed, even one too long to use");
    assert.equal(r.first.ok, true);
    assert.equal(r.again.error.code, "REPLAY_DETECTED");
    assert.equal(r.asInvoke.error.code, "REPLAY_DETECTED");
    assert.equal(r.otherSession.ok, true, "replay memory is per session");
    assert.deepEqual(r.invokes.map((x) => x.ok), [true, true, false]);
    assert.equal(r.invokes[2].error.code, "RATE_LIMITED");
    assert.ok(r.invokes[2].error.retryAfterMs > 0);
    assert.equal(r.internal.ok, false);
    assert.equal(r.internal.error.code, "INTERNAL_ERROR");
  }));

test("execute answering a protocol code (its backend revoked the session, rate limited it…) refuses the exchange: ok false, that code, the page's message, no after; business codes stay in result.error", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const out = {};
      const codes = ["SESSION_EXPIRED", "SESSION_REVOKED", "RATE_LIMITED", "REPLAY_DETECTED", "INVALID_REQUEST", "CAPABILITY_NOT_EXPOSED", "INTERNAL_ERROR", "EXECUTION_FAILED", "QUOTA_EXCEEDED"];
      for (const code of codes) {
        const s = makeSurface({ execute: () => ({ ok: false, error: { code, message: "backend says " + code } }) });
        const request = invoke("orders.search", { q: "a" });
        out[code] = [request.id, await s.handle(request)];
      }
      // A high-risk action a person approved, then refused by the backend.
      const approved = makeSurface({ confirm: () => true, execute: async () => ({ ok: false, error: { code: "SESSION_REVOKED" } }) });
      out.approved = [null, await approved.handle(invoke("orders.refund@order", { record: "SO-1001" }))];
      return out;
    });
    for (const code of ["SESSION_EXPIRED", "SESSION_REVOKED", "RATE_LIMITED", "REPLAY_DETECTED", "INVALID_REQUEST", "CAPABILITY_NOT_EXPOSED", "INTERNAL_ERROR"]) {
      const [id, resp] = r[code];
      assert.deepEqual(resp, { protocol: PROTOCOL, id, ok: false, error: { code, message: "backend says " + code } }, code);
    }
    for (const code of ["EXECUTION_FAILED", "QUOTA_EXCEEDED"]) {
      const [id, resp] = r[code];
      assert.deepEqual(resp, { protocol: PROTOCOL, id, ok: true, result: { error: { code, message: "backend says " + code } } }, code);
    }
    assert.deepEqual([r.approved[1].ok, r.approved[1].error], [false, { code: "SESSION_REVOKED", message: "the page's execute answered SESSION_REVOKED" }]);
  }));

test("describe: offset and limit up to 2^53 are echoed exactly; beyond, and a too-long capability, say their bound", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      const win = async (input) => {
        const resp = await s.handle(req("describe", { input }));
        return resp.ok ? resp.result.recordWindow : resp.error.message;
      };
      return {
        big: await win({ offset: 2 ** 32, limit: 2 ** 32 }),
        max: await win({ offset: 2 ** 53 }),
        past: await win({ offset: 2 ** 53 + 2 }),
        long: (await s.handle(invoke("x".repeat(5000), {}))).error.message,
      };
    });
    assert.deepEqual(r.big, { offset: 2 ** 32, limit: 100, total: 4 }, "not cut to 32 bits; limit clamped");
    assert.deepEqual(r.max, { offset: 2 ** 53, limit: 8, total: 4 });
    assert.match(r.past, /`input\.offset` must be a non-negative integer of at most 9007199254740992/);
    assert.match(r.long, /`capability`: a non-empty string of at most 4096 characters/);
  }));

test("a request's fields are its own: Object.prototype cannot fill them in", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      Object.prototype.capability = "orders.search";
      Object.prototype.input = { q: "planted" };
      try {
        return await s.handle({ protocol: "pling.surface/0.1", id: "own-1", method: "invoke" });
      } finally {
        delete Object.prototype.capability;
        delete Object.prototype.input;
      }
    });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.error.code, "INVALID_REQUEST");
    assert.match(r.error.message, /`capability`/);
  }));

test("a request's id is echoed whichever other field's getter throws, before it or after it: INVALID_REQUEST, the first throw named", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      const boom = (m) => { throw new Error(m); };
      return Promise.all([
        s.handle({ get protocol() { return boom("x"); }, id: "keep-me", method: "describe" }),
        s.handle({ protocol: "pling.surface/0.1", id: "keep-me-2", get method() { return boom("m"); }, get capability() { return boom("c"); } }),
        s.handle({ protocol: "pling.surface/0.1", id: "keep-me-3", method: "invoke", capability: "orders.search", get input() { return boom("i"); } }),
      ]);
    });
    assert.deepEqual(r.map((a) => [a.id, a.ok, a.error.code, a.error.message]), [
      ["keep-me", false, "INVALID_REQUEST", "the request must be plain JSON: reading the envelope threw: x"],
      ["keep-me-2", false, "INVALID_REQUEST", "the request must be plain JSON: reading the envelope threw: m"],
      ["keep-me-3", false, "INVALID_REQUEST", "the request must be plain JSON: reading the envelope threw: i"],
    ]);
  }));

test("input holding a String, Number or Boolean object, or an object with toJSON (a Date), is INVALID_REQUEST naming its key; a callback's result (the page's own value) crosses as JSON writes it", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      const out = [];
      for (const input of [{ q: new String("a") }, { q: "a", n: new Number(1) }, { q: "a", b: new Boolean(true) }, { q: new Date(0) }, { toJSON: () => ({ q: "a" }) }]) {
        const res = await s.handle(invoke("orders.search", input));
        out.push([res.ok, res.error && res.error.code, res.error && res.error.message]);
      }
      const dated = await makeSurface({ execute: () => ({ ok: true, value: { at: new Date(0) } }) }).handle(invoke("orders.search", { q: "a" }));
      return { out, executed: __executed.length, dated: dated.result };
    });
    const why = (what) => "the request must be plain JSON: input " + what + ", not JSON";
    assert.deepEqual(r.out, [
      [false, "INVALID_REQUEST", why('holds a String object under the key "q"')],
      [false, "INVALID_REQUEST", why('holds a Number object under the key "n"')],
      [false, "INVALID_REQUEST", why('holds a Boolean object under the key "b"')],
      [false, "INVALID_REQUEST", why('holds an object with a toJSON method under the key "q"')],
      [false, "INVALID_REQUEST", why("is an object with a toJSON method")],
    ]);
    assert.equal(r.executed, 0, "execute never called");
    assert.equal(r.dated.error, undefined);
    assert.deepEqual(r.dated.value, { at: "1970-01-01T00:00:00.000Z" });
  }));

test("input that is, or holds, a Map, Set, WeakMap or WeakSet (JSON writes {} whatever it holds) is INVALID_REQUEST naming its key; execute never runs", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      __executed.length = 0;
      const s = makeSurface({ expose: [...EXPOSE, "orders.delete"] });
      const out = [];
      for (const input of [new Map([["order", "SO-1001"]]), new Map(), new Set(["SO-1001"]), { q: new Map([["a", 1]]) }, { q: "a", w: [new WeakSet()] }, new WeakMap()]) {
        const res = await s.handle(invoke("orders.delete", input));
        out.push([res.id !== "", res.ok, res.error && res.error.code, res.error && res.error.message]);
      }
      return { out, executed: __executed };
    });
    const why = (what) => "the request must be plain JSON: input " + what + ", not JSON";
    assert.deepEqual(r.out, [
      [true, false, "INVALID_REQUEST", why("is a Map object")],
      [true, false, "INVALID_REQUEST", why("is a Map object")],
      [true, false, "INVALID_REQUEST", why("is a Set object")],
      [true, false, "INVALID_REQUEST", why('holds a Map object under the key "q"')],
      [true, false, "INVALID_REQUEST", why('holds a WeakSet object under the key "0"')],
      [true, false, "INVALID_REQUEST", why("is a WeakMap object")],
    ]);
    assert.deepEqual(r.executed, [], "execute never called, not even with {}");
  }));

test("a page that replaced Array.prototype.push or put setters on Object.prototype: createSurface reads its options as given, and handle answers, never throws", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const out = {};
      const trap = (k, set) => Object.defineProperty(Object.prototype, k, { set, get() { return undefined; }, configurable: true });
      trap("expose", () => {}); // swallows what is set
      trap("app", () => { throw new Error("set app"); });
      trap("root", () => { throw new Error("set root"); });
      try {
        const described = await makeSurface().handle(req("describe"));
        out.described = described.ok ? described.result.capabilities.length : described.error;
      } catch (e) {
        out.described = "threw: " + e.message;
      } finally {
        for (const k of ["expose", "app", "root"]) delete Object.prototype[k];
      }
      const s = makeSurface();
      const push = Array.prototype.push;
      Array.prototype.push = function () { throw new Error("push"); };
      try {
        const answer = await s.handle(req("describe"));
        out.pushed = typeof answer.ok;
      } catch (e) {
        out.pushed = "threw: " + e.message;
      } finally {
        Array.prototype.push = push;
      }
      return out;
    });
    assert.deepEqual(r, { described: 8, pushed: "boolean" });
  }));

test("a request is read when handle is called: changing or reusing the object afterwards changes nothing", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      // One object reused for three describes, as a client loop might: three ids, no replay.
      const request = { protocol: "pling.surface/0.1", id: "x", method: "describe", input: { limit: 1 } };
      const pending = [];
      for (let i = 0; i < 3; i++) {
        request.id = "reuse-" + i;
        pending.push(s.handle(request));
      }
      const describes = (await Promise.all(pending)).map((d) => [d.id, d.ok]);
      // An invoke whose input is changed right after the call runs with the input sent.
      const call = { protocol: "pling.surface/0.1", id: "search-1", method: "invoke", capability: "orders.search", input: { q: "sent" } };
      const invoked = s.handle(call);
      call.input.q = "changed";
      call.capability = "orders.delete";
      const invoke = await invoked;
      return { describes, invoke: [invoke.id, invoke.ok, invoke.result?.value], executed: __executed };
    });
    assert.deepEqual(r.describes, [["reuse-0", true], ["reuse-1", true], ["reuse-2", true]]);
    assert.deepEqual(r.invoke, ["search-1", true, { hits: 3, q: "sent" }]);
    assert.deepEqual(r.executed, [["orders.search", { q: "sent" }]]);
  }));

test("a Surface cannot be freed: free() and Symbol.dispose do nothing, and handle works detached from its object", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const s = window.P.createSurface({ registry: window.REGISTRY, app: "orders", expose: window.EXPOSE, session: () => window.SESSION });
      s.free();
      if (Symbol.dispose) s[Symbol.dispose]();
      const { handle } = s;
      const out = [];
      for (const f of [() => s.handle({ protocol: "pling.surface/0.1", id: "a", method: "describe" }), () => handle({ protocol: "pling.surface/0.1", id: "b", method: "describe" })]) {
        try { const up = await f(); out.push(up.ok ? "ok" : up.error.code); } catch (e) { out.push("threw: " + e.message); }
      }
      return out;
    });
    assert.deepEqual(r, ["ok", "ok"]);
  }));

test("a Surface's attachWindowBridge, detachWindowBridge and publishWebMcp work detached from its object, as handle does", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async () => {
      const s = window.P.createSurface({ registry: window.REGISTRY, app: "orders", expose: window.EXPOSE, session: () => window.SESSION, allowedOrigins: [location.origin] });
      const { attachWindowBridge, detachWindowBridge, publishWebMcp } = s;
      const outcome = (f) => { try { const v = f(); return v === undefined ? "ok" : typeof v.stop === "function" ? "publication" : String(v); } catch (e) { return "threw: " + e.message; } };
      const marker = () => window.__PLING_SURFACE_V0_1__ === true;
      const attach = outcome(() => attachWindowBridge());
      const attachedMarker = marker();
      const detach = outcome(() => detachWindowBridge());
      const called = outcome(() => s.attachWindowBridge.call(undefined));
      const detachCalled = outcome(() => s.detachWindowBridge.call(undefined));
      return { attach, attachedMarker, detach, called, detachCalled, detachedMarker: marker(), publish: outcome(() => publishWebMcp()) };
    });
    assert.deepEqual(r, { attach: "ok", attachedMarker: true, detach: "ok", called: "ok", detachCalled: "ok", detachedMarker: false, publish: "publication" });
  }));

test("createSurface: clear TypeErrors for bad options; handle never throws even with hostile callbacks", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const errors = [];
      for (const over of [
        { registry: "nope" }, { session: undefined }, { session: {} }, { execute: 5 }, { confirm: "yes" },
        { app: 1 }, { expose: "orders.search" }, { recordLimit: 0 }, { recordLimit: 101 }, { rateLimit: { invokes: 0, perMs: 1 } },
        { root: {} }, { allowedOrigins: "http://x" },
      ]) {
        try { makeSurface(over); errors.push("no error"); } catch (e) { errors.push(e.name + ": " + e.message); }
      }
      let noOptions; try { window.P.createSurface(); } catch (e) { noOptions = e.name; }
      const hostile = makeSurface({
        registry: () => { throw new Error("registry down"); },
        execute: () => { throw new Error("boom"); },
      });
      const described = await hostile.handle(req("describe"));
      const notFound = await hostile.handle(invoke("orders.search", { q: "a" }));
      const throwing = makeSurface({ execute: () => { throw new Error("boom"); } });
      const threw = await throwing.handle(invoke("orders.search", { q: "a" }));
      const rejected = await makeSurface({ execute: () => Promise.reject(new Error("nope")) }).handle(invoke("orders.search", { q: "a" }));
      const malformed = await makeSurface({ execute: () => 42 }).handle(invoke("orders.search", { q: "a" }));
      const bigint = await makeSurface({ execute: () => ({ ok: true, value: 1n }) }).handle(invoke("orders.search", { q: "a" }));
      const registryFn = await makeSurface({ registry: () => REGISTRY.slice(0, 1) }).handle(req("describe"));
      return { errors, noOptions, described, notFound, threw, rejected, malformed, bigint, registryFn };
    });
    assert.equal(r.errors.filter((e) => e.startsWith("TypeError: createSurface:")).length, r.errors.length, r.errors.join("\n"));
    assert.equal(r.noOptions, "TypeError");
    assert.equal(r.described.ok, true);
    assert.deepEqual(r.described.result.capabilities, [], "an unreadable registry is empty (fail closed)");
    assert.equal(r.notFound.result.error.code, "ACTION_NOT_FOUND");
    assert.equal(r.threw.result.error.code, "EXECUTION_FAILED");
    assert.match(r.threw.result.error.message, /boom/);
    assert.equal(r.rejected.result.error.code, "EXECUTION_FAILED");
    assert.equal(r.malformed.result.error.code, "EXECUTION_FAILED");
    // It ran and said ok: a success without the value JSON cannot write (below).
    assert.deepEqual(Object.keys(r.bigint.result), ["after"]);
    assert.deepEqual(r.registryFn.result.capabilities.map((c) => c.id), ["orders.search"], "a function registry is read per request");
  }));

test("createSurface with a revoked proxy as registry, session, execute, confirm or allowedOrigins: \"reading options.… threw\", not the engine's TypeError", () =>
  withPage(async (page) => {
    const r = await inPage(page, () => {
      const out = {};
      for (const name of ["registry", "session", "execute", "confirm", "allowedOrigins"]) {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        try { makeSurface({ [name]: proxy }); out[name] = "no error"; } catch (e) { out[name] = e.name + ": " + e.message; }
      }
      return out;
    });
    for (const name of ["registry", "session", "execute", "confirm", "allowedOrigins"]) {
      assert.equal(r[name], `TypeError: createSurface: reading options.${name} threw`, name);
    }
  }));

test("registry as an async function: awaited per request like session(); a rejection or a non-array is an empty registry with the sync registry's warning; never read before the protocol checks", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const warnings = [];
      const warn = console.warn;
      console.warn = (m) => { warnings.push(String(m)); };
      try {
        let reads = 0;
        const later = (v) => new Promise((resolve) => setTimeout(() => resolve(v), 20));
        const s = makeSurface({ registry: async () => { reads++; return later(REGISTRY); } });
        const described = await s.handle(req("describe"));
        const invoked = await s.handle(invoke("orders.search", { q: "a" }));
        const readsAfterOk = reads;
        // Refused by the protocol checks: the registry is not read.
        const expired = await makeSurface({ registry: async () => { reads++; return REGISTRY; }, session: () => null }).handle(req("describe"));
        const notExposed = await s.handle(invoke("orders.delete", {}));
        const readsAfterRefusals = reads;
        const outcome = async (over) => {
          warnings.length = 0;
          const t = makeSurface(over);
          return { described: await t.handle(req("describe")), invoked: await t.handle(invoke("orders.search", { q: "a" })), warnings: [...warnings] };
        };
        const rejected = await outcome({ registry: () => Promise.reject(new Error("registry down")) });
        const threw = await outcome({ registry: () => { throw new Error("registry down"); } });
        const notArray = await outcome({ registry: async () => ({ id: "orders.search" }) });
        const syncNotArray = await outcome({ registry: () => ({ id: "orders.search" }) });
        return { described, invoked, readsAfterOk, expired, notExposed, readsAfterRefusals, rejected, threw, notArray, syncNotArray };
      } finally {
        console.warn = warn;
      }
    });
    assert.deepEqual(r.described.result.capabilities.map((c) => c.id), [
      "orders.search", "orders.open", "orders.update_note@order", "orders.refund@order",
      "orders.export", "orders.dup", "orders.print", "orders.ghost",
    ], "the promise's declarations");
    assert.deepEqual(r.invoked.result.value, { hits: 3, q: "a" });
    assert.equal(r.expired.error.code, "SESSION_EXPIRED");
    assert.equal(r.notExposed.error.code, "CAPABILITY_NOT_EXPOSED");
    assert.equal(r.readsAfterRefusals, r.readsAfterOk, "no protocol refusal read the registry");
    for (const bad of [r.rejected, r.threw, r.notArray, r.syncNotArray]) {
      assert.deepEqual(bad.described.result.capabilities, [], "fail closed");
      assert.equal(bad.invoked.result.error.code, "ACTION_NOT_FOUND");
      assert.equal(bad.warnings.length, 1, bad.warnings.join("\n"));
    }
    assert.deepEqual(r.rejected.warnings, r.threw.warnings, "a rejection warns as a throw does");
    assert.match(r.rejected.warnings[0], /registry\(\) threw: registry down/);
    assert.deepEqual(r.notArray.warnings, r.syncNotArray.warnings, "a non-array warns as a sync one does");
  }));

test("a declaration carrying a handler function works (JSON leaves the function out); one holding a BigInt, NaN or a cycle, a function under a member it defines or nested in one, or whose getter throws, is skipped alone with a warning naming it; the others stay", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const warnings = [];
      const warn = console.warn;
      console.warn = (m) => { warnings.push(String(m)); };
      try {
        // As the page's helper declares them: each with the handler it calls.
        const handlers = REGISTRY.map((d) => ({ ...d, handler: () => pageExecute(d.id, {}) }));
        const withHandlers = makeSurface({ registry: handlers });
        const described = await withHandlers.handle(req("describe"));
        const searched = await withHandlers.handle(invoke("orders.search", { q: "a" }));
        const handlerWarnings = warnings.splice(0);
        const cyclic = { id: "orders.print", title: "Print" };
        cyclic.self = cyclic;
        const broken = [
          REGISTRY[0],
          { id: "orders.open", title: "Open", big: 10n },
          REGISTRY[2],
          { id: "orders.refund@order", title: "Refund", risk: "high", expect: { text: "refunded", within: NaN } },
          cyclic,
          { id: "orders.ghost", get title() { throw new Error("no title"); } },
          { ...REGISTRY[5], handler() {} },
          // A function under a member the declaration defines would read as that member absent
          // (a high-risk action as low risk, a schema as looser): the declaration is skipped.
          { id: "orders.delete@order", title: "Delete", risk: () => "high" },
          { id: "orders.rename@order", title: "Rename", input: { type: "object", properties: { name: { type: "string", pattern: () => "^a" } } } },
        ];
        const mixed = makeSurface({ registry: broken });
        const kept = await mixed.handle(req("describe"));
        const opened = await mixed.handle(invoke("orders.open", { order: "SO-1001" }));
        const again = await mixed.handle(invoke("orders.search", { q: "a" }));
        const mixedWarnings = warnings.splice(0);
        const fromFunction = await makeSurface({ registry: async () => broken }).handle(req("describe"));
        return { described, searched, handlerWarnings, kept, opened, again, mixedWarnings, fromFunction };
      } finally {
        console.warn = warn;
      }
    });
    assert.equal(r.described.result.capabilities.length, 8, "every exposed declaration, handlers and all");
    assert.deepEqual(r.searched.result.value, { hits: 3, q: "a" });
    assert.deepEqual(r.handlerWarnings, [], "a handler is no fault");
    const ids = ["orders.search", "orders.update_note@order", "orders.export"];
    assert.deepEqual(r.kept.result.capabilities.map((c) => c.id), ids);
    assert.deepEqual(r.fromFunction.result.capabilities.map((c) => c.id), ids, "a registry() function's declarations alike");
    assert.equal(r.opened.result.error.code, "ACTION_NOT_FOUND");
    assert.deepEqual(r.again.result.value, { hits: 3, q: "a" });
    assert.equal(r.mixedWarnings.length, 1, r.mixedWarnings.join("\n"));
    const [warning] = r.mixedWarnings;
    assert.ok(warning.startsWith("in-page-playable surface: declarations skipped: " +
      '[1] the declaration holds a BigInt under the key "big", not JSON; ' +
      '[3] the declaration holds the number NaN under the key "within", not JSON; ' +
      "[4] the declaration cannot be written as JSON (it is cyclic, or a getter, proxy or toJSON threw): Converting circular structure"), warning);
    assert.ok(warning.includes("; [5] the declaration cannot be written as JSON (it is cyclic, or a getter, proxy or toJSON threw): no title; "), warning);
    assert.ok(warning.endsWith('; [7] the declaration holds a function under the key "risk", not JSON; ' +
      '[8] the declaration holds a function under the key "pattern", not JSON'), warning);
  }));

test("execute answered ok: true with a value JSON writes otherwise (NaN, Infinity, a function): a success with the value as JSON writes it, and after; one JSON cannot write (a BigInt, a cycle): a success without the value, after, and a warning; never EXECUTION_FAILED, ran once", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const warnings = [];
      const warn = console.warn;
      console.warn = (m) => { warnings.push(String(m)); };
      try {
        const out = {};
        const run = async (name, value) => {
          let ran = 0;
          const s = makeSurface({ execute: () => { ran++; return { ok: true, value }; } });
          const resp = await s.handle(invoke("orders.search", { q: "a" }));
          out[name] = { ran, result: resp.result, warnings: warnings.splice(0) };
        };
        await run("nan", { refunded: 1, rate: NaN, cap: Infinity, list: [-Infinity], callback: () => 1 });
        await run("fn", () => 1);
        await run("bigint", { refunded: 1n });
        const cyclic = { refunded: 1 };
        cyclic.self = cyclic;
        await run("cyclic", cyclic);
        return out;
      } finally {
        console.warn = warn;
      }
    });
    for (const name of ["nan", "fn", "bigint", "cyclic"]) {
      const { ran, result } = r[name];
      assert.equal(ran, 1, name);
      assert.equal(result.error, undefined, name + ": " + JSON.stringify(result));
      assert.deepEqual(result.after.status, ["3 orders"], name + ": after, as for any success");
    }
    assert.deepEqual(r.nan.result.value, { refunded: 1, rate: null, cap: null, list: [null] });
    assert.deepEqual(r.nan.warnings, []);
    assert.deepEqual(Object.keys(r.fn.result), ["after"], "a function value is left out, as JSON leaves it out");
    assert.deepEqual(Object.keys(r.bigint.result), ["after"]);
    assert.deepEqual(r.bigint.warnings, ["in-page-playable surface: the page's execute answered { ok: true } with a result that cannot cross as JSON " +
      '(result holds a BigInt under the key "refunded", not JSON): the action ran, and is reported as a success without its value']);
    assert.deepEqual(Object.keys(r.cyclic.result), ["after"]);
    assert.equal(r.cyclic.warnings.length, 1);
    assert.match(r.cyclic.warnings[0], /cannot be written as JSON \(it is cyclic/);
  }));

test("a page that replaces JSON.parse and JSON.stringify after import: handle still answers describe and invoke in full, and callbacks get their values", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const { parse, stringify } = JSON;
      const seen = [];
      const execute = (id, args) => { seen.push(args); return pageExecute(id, args); };
      const early = makeSurface({ execute });
      JSON.parse = () => { throw new Error("no parse"); };
      JSON.stringify = () => { throw new Error("no stringify"); };
      try {
        const described = await early.handle(req("describe", { input: { record: "SO-1002" } }));
        const invoked = await early.handle(invoke("orders.search", { q: "a" }));
        let late;
        try { late = await makeSurface({ registry: async () => REGISTRY }).handle(req("describe")); } catch (e) { late = e.message; }
        return { described, invoked, seen, late };
      } finally {
        JSON.parse = parse;
        JSON.stringify = stringify;
      }
    });
    assert.equal(r.described.ok, true, "a well-formed response, not null");
    assert.equal(r.described.result.capabilities.length, 8);
    assert.deepEqual(r.described.result.records.map((x) => x.id), ["SO-1002"]);
    assert.deepEqual(r.described.result.status, ["3 orders"], "the page read crossed");
    assert.deepEqual(r.invoked.result.value, { hits: 3, q: "a" });
    assert.deepEqual(r.seen, [{ q: "a" }], "execute got its input");
    assert.equal(r.late.ok, true);
    assert.equal(r.late.result.capabilities.length, 8, "createSurface after the replacement works too");
  }));

test("describe on 10,000 records with recordLimit 8: 8 records, total 10000, small JSON", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const region = document.querySelector('[data-e2e-id="list"]');
      const html = [];
      for (let i = 0; i < 10000 - 4; i++) {
        html.push(`<div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="G-${i}"><span data-e2e-field="customer">Customer ${i}</span><span data-e2e-field="total">${i}.00</span><button data-e2e-kind="playable" data-e2e-id="orders.update_note@order">Note</button></div>`);
      }
      region.insertAdjacentHTML("beforeend", html.join(""));
      const s = makeSurface();
      const t0 = performance.now();
      const resp = await s.handle(req("describe"));
      const ms = performance.now() - t0;
      const second = await s.handle(req("describe", { input: { offset: 9996, capabilities: "changed" } }));
      const byId = await s.handle(req("describe", { input: { record: ["G-5000", "nope"] } }));
      return { resp, ms, bytes: new TextEncoder().encode(JSON.stringify(resp)).length, second, byId };
    });
    assert.equal(r.resp.ok, true);
    assert.equal(r.resp.result.records.length, 8);
    assert.deepEqual(r.resp.result.recordWindow, { offset: 0, limit: 8, total: 10000 });
    assert.ok(r.bytes < 8 * 1024, `describe JSON is ${r.bytes} bytes`);
    console.log(`# 10,000 records, recordLimit 8: ${r.bytes} bytes of JSON, describe took ${r.ms.toFixed(0)} ms`);
    assert.deepEqual(r.second.result.records.map((x) => x.id), ["G-9993", "G-9994", "G-9995", "SO-0900"]);
    assert.deepEqual(r.second.result.recordWindow, { offset: 9996, limit: 8, total: 10000 });
    assert.deepEqual(r.second.result.capabilities, []);
    assert.equal(r.second.result.capabilitiesUnchanged, true);
    assert.deepEqual(r.byId.result.records.map((x) => x.id), ["G-5000"]);
    assert.deepEqual(r.byId.result.missing, ["nope"]);
    assert.deepEqual(r.byId.result.recordWindow, { offset: 0, limit: 2, total: 10000 }, "an id read has a recordWindow too");
  }));

test("describe by record id is bounded like a window (100 records) when records of many kinds share the id, and says it was cut", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const list = document.querySelector('[data-e2e-id="list"]');
      const html = [];
      for (let i = 0; i < 500; i++) {
        html.push(`<div data-e2e-kind="record" data-e2e-record="k${i}" data-e2e-id="7"><span data-e2e-field="x">${"y".repeat(900)}</span></div>`);
      }
      list.insertAdjacentHTML("beforeend", html.join(""));
      const s = makeSurface();
      const shared = (await s.handle(req("describe", { input: { record: ["SO-1001", "7", "nope"] } }))).result;
      const one = (await s.handle(req("describe", { input: { record: "SO-1002" } }))).result;
      return {
        shared: { n: shared.records.length, first: shared.records[0].id, kinds: [shared.records[1].kind, shared.records[99].kind], window: shared.recordWindow, missing: shared.missing, cut: shared.recordsTruncated, bytes: JSON.stringify(shared).length },
        one: { n: one.records.length, window: one.recordWindow, cut: one.recordsTruncated },
      };
    });
    assert.equal(r.shared.n, 100, "a window's maximum");
    assert.equal(r.shared.first, "SO-1001", "in the order asked");
    assert.deepEqual(r.shared.kinds, ["k0", "k98"]);
    assert.deepEqual(r.shared.window, { offset: 0, limit: 3, total: 504 });
    assert.deepEqual(r.shared.missing, ["nope"]);
    assert.equal(r.shared.cut, true, "the cut is visible");
    assert.ok(r.shared.bytes < 120_000, `${r.shared.bytes} bytes`);
    assert.deepEqual(r.one, { n: 1, window: { offset: 0, limit: 1, total: 504 }, cut: undefined });
  }));

test("expect: status text appearing after the action succeeds as soon as it shows (MutationObserver)", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface();
      const t0 = performance.now();
      const resp = await s.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "周五前回电" }));
      return { resp, ms: performance.now() - t0 };
    });
    assert.equal(r.resp.ok, true);
    assert.equal(r.resp.result.error, undefined, JSON.stringify(r.resp));
    assert.deepEqual(r.resp.result.value, { saved: "SO-1001" });
    // The page sets the status 100 ms after execute; `within` is 1000 ms.
    assert.ok(r.ms >= 90 && r.ms < 800, `resolved after ${r.ms} ms`);
  }));

test("page text is what a person sees: no hidden descendants or script in fields; hidden status and feedback are not reported and meet no expect", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      document.querySelector('[data-e2e-id="list"]').insertAdjacentHTML("beforeend", `
        <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="H-1">
          <span data-e2e-field="card">**** 4242<span style="display:none">4111 1111 1111 4242</span><script>var k="sk_live_SECRET"</script><style>.x{}</style></span>
        </div>`);
      document.body.insertAdjacentHTML("beforeend", `
        <section data-e2e-kind="region" data-e2e-id="vault" hidden>
          <div data-e2e-kind="record" data-e2e-record="order" data-e2e-id="H-2"><span data-e2e-field="customer">Hidden row<script>var k="SECRET"</script><noscript>SECRET</noscript></span></div>
        </section>
        <p data-e2e-kind="status" hidden id="hidden-status">DONE-HIDDEN</p>
        <div data-e2e-kind="feedback" data-e2e-level="error" style="display:none">internal: db password SECRET</div>`);
      const s = makeSurface();
      const d = await s.handle(req("describe", { input: { record: ["H-1", "H-2"] } }));
      const withExpect = (text) => REGISTRY.map((x) => (x.id === "orders.search" ? { ...x, expect: { text, within: 300 } } : x));
      const hidden = await makeSurface({ registry: withExpect("DONE-HIDDEN") }).handle(invoke("orders.search", { q: "a" }));
      const shown = makeSurface({
        registry: withExpect("DONE-HIDDEN"),
        execute: () => { setTimeout(() => document.getElementById("hidden-status").removeAttribute("hidden"), 50); return { ok: true }; },
      });
      const revealed = await shown.handle(invoke("orders.search", { q: "a" }));
      return { fields: d.result.records.map((x) => x.fields), status: d.result.status, feedback: d.result.feedback, hidden: hidden.result, revealed: revealed.result };
    });
    assert.deepEqual(r.fields, [{ card: "**** 4242" }, { customer: "Hidden row" }]);
    assert.deepEqual(r.status, ["3 orders"], "the hidden status is not reported");
    assert.deepEqual(r.feedback, [], "the hidden feedback is not reported");
    assert.equal(r.hidden.error?.code, "EXPECTATION_FAILED", "a hidden status does not meet an expect");
    assert.equal(r.revealed.error, undefined, "a status shown later does (the wait wakes on `hidden`)");
  }));

test("after: capabilities that appeared, records that changed, current status; none after a navigation", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      let registry = REGISTRY.filter((d) => d.id !== "orders.ghost");
      const s = makeSurface({
        registry: () => registry,
        execute: (id, args) => {
          const rec = document.querySelector(`[data-e2e-id="${args.record}"]`);
          rec.querySelector('[data-e2e-field="note"]').textContent = args.note;
          rec.setAttribute("data-e2e-state", "noted");
          document.getElementById("status").textContent = "备注已保存";
          registry = REGISTRY; // orders.ghost appears
          return { ok: true };
        },
      });
      const resp = await s.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "周五前回电" }));
      const nav = makeSurface({
        execute: () => { history.pushState(null, "", "#detail"); return { ok: true }; },
      });
      const navigated = await nav.handle(invoke("orders.search", { q: "a" }));
      return { resp, navigated };
    });
    assert.deepEqual(r.resp.result.after, {
      capabilities: ["orders.ghost"],
      records: [{ id: "SO-1001", kind: "order", fields: { customer: "Ada Lovelace", note: "周五前回电" }, state: "noted", region: "list" }],
      status: ["备注已保存"],
    });
    assert.equal(r.navigated.ok, true);
    assert.equal(r.navigated.result.after, undefined, "the URL changed: describe again");
  }));

test("after lists a record whose region changed (moved into the inactive archive, its row actions now unavailable)", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface({
        registry: [...REGISTRY, { id: "orders.archive@order", title: "Archive" }],
        expose: [...EXPOSE, "orders.archive@order"],
        execute: (id, args) => {
          document.querySelector('[data-e2e-id="archive"]').append(document.querySelector(`[data-e2e-kind="record"][data-e2e-id="${args.record}"]`));
          return { ok: true };
        },
      });
      const inv = await s.handle(invoke("orders.archive@order", { record: "SO-1001" }));
      const now = (await s.handle(req("describe", { input: { record: "SO-1001" } }))).result;
      return { after: inv.result.after, now };
    });
    assert.equal(r.now.records[0].region, "archive");
    assert.ok(r.now.unavailable.some((u) => u.record === "SO-1001"), "its row actions are unavailable now");
    assert.deepEqual(r.after.records, [r.now.records[0]], "after lists SO-1001 as it is now");
    assert.deepEqual(r.after.status, ["3 orders"]);
  }));

test("built-in executor: clicks the record's control exactly once; refusals click nothing", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface({ execute: undefined });
      const out = {};
      const run = async (name, cap, input) => {
        __clicks.length = 0;
        const resp = await s.handle(invoke(cap, input));
        out[name] = { code: resp.ok ? resp.result.error?.code ?? "ok" : resp.error.code, message: resp.ok ? resp.result.error?.message : resp.error.message, clicks: [...__clicks], after: resp.result?.after };
      };
      await run("note", "orders.update_note@order", { record: "SO-1001", note: "x" });
      await run("search", "orders.search", { q: "a" });
      await run("locked", "orders.update_note@order", { record: "SO-1002", note: "x" });
      await run("hidden", "orders.update_note@order", { record: "SO-1004", note: "x" });
      await run("hiddenPage", "orders.export", {});
      await run("ambiguous", "orders.dup", {});
      await run("disabled", "orders.print", {});
      await run("ghost", "orders.ghost", {});
      // Visible, enabled, unique, but covered: only run's hit test can tell.
      const cover = document.createElement("div");
      cover.style.cssText = "position:fixed;inset:0;z-index:9";
      document.body.append(cover);
      await run("covered", "orders.search", { q: "a" });
      cover.remove();
      // A record the page claims twice.
      const twin = document.querySelector('[data-e2e-id="SO-1001"]').cloneNode(true);
      document.querySelector('[data-e2e-id="list"]').append(twin);
      await run("twin", "orders.update_note@order", { record: "SO-1001", note: "x" });
      return out;
    });
    assert.deepEqual(r.note.clicks, ["orders.update_note@order:SO-1001"]);
    assert.equal(r.note.code, "ok", r.note.message);
    assert.deepEqual(r.note.after.records.map((x) => [x.id, x.fields.note]), [["SO-1001", "clicked"]]);
    assert.deepEqual(r.search, { code: "ok", message: undefined, clicks: ["orders.search"], after: r.search.after });
    for (const name of ["locked", "hidden", "hiddenPage", "ambiguous", "disabled", "ghost", "covered", "twin"]) {
      assert.equal(r[name].code, "ACTION_UNAVAILABLE", name + ": " + JSON.stringify(r[name]));
      assert.deepEqual(r[name].clicks, [], name + " clicked nothing");
    }
    assert.equal(r.locked.message, "记录已锁定");
    // Hidden, ambiguous, missing and twin controls are refused by the availability
    // check, before the executor (the rule describe's `unavailable` shares); the rest
    // by run itself.
    assert.match(r.hidden.message, /control is hidden for record `SO-1004`/);
    assert.match(r.hiddenPage.message, /control is hidden on the page/);
    assert.match(r.ambiguous.message, /more than one control/);
    assert.equal(r.ghost.message, "`orders.ghost` has no control on the page");
    assert.match(r.covered.message, /NOT_ACTIONABLE/);
    assert.match(r.twin.message, /more than one `order` record claims id `SO-1001`/);
  }));

test("built-in executor: a high-risk action with no control to click is listed unavailable and refused before a person is asked; with the page's own execute it is put to the person", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const asked = [];
      const confirm = (id, input) => { asked.push([id, input]); return true; };
      // SO-1004 is open, in the active list, and has no Refund control.
      const builtin = makeSurface({ execute: undefined, confirm });
      const described = await builtin.handle(req("describe"));
      __clicks.length = 0;
      const refund = await builtin.handle(invoke("orders.refund@order", { record: "SO-1004" }));
      const ghost = await builtin.handle(invoke("orders.ghost", {}));
      const builtinAsked = asked.splice(0);
      const clicks = [...__clicks];
      const own = makeSurface({ confirm });
      const ownDescribed = await own.handle(req("describe"));
      const ran = await own.handle(invoke("orders.refund@order", { record: "SO-1004" }));
      const listed = (d) => d.result.unavailable.filter((u) => u.record === "SO-1004" && u.capability === "orders.refund@order");
      return { listed: listed(described), refund: refund.result, ghost: ghost.result, builtinAsked, clicks,
               ownListed: listed(ownDescribed), ran: ran.result, ownAsked: asked, executed: __executed.map(([id]) => id) };
    });
    const reason = "`orders.refund@order` has no control for record `SO-1004`";
    assert.deepEqual(r.listed, [{ capability: "orders.refund@order", record: "SO-1004", reason }]);
    assert.deepEqual(r.refund, { error: { code: "ACTION_UNAVAILABLE", message: reason } });
    assert.deepEqual(r.ghost, { error: { code: "ACTION_UNAVAILABLE", message: "`orders.ghost` has no control on the page" } });
    assert.deepEqual(r.builtinAsked, [], "nobody is asked to approve what cannot run");
    assert.deepEqual(r.clicks, []);
    // The page's own execute need not click a control: no control stops nothing.
    assert.deepEqual(r.ownListed, []);
    assert.deepEqual(r.ran, { value: "refunded", after: r.ran.after });
    assert.deepEqual(r.ownAsked, [["orders.refund@order", { record: "SO-1004" }]]);
    assert.deepEqual(r.executed, ["orders.refund@order"]);
  }));

test("a row control hidden on the page: with the built-in executor describe lists it unavailable and invoke refuses it with the same text; the page's own execute runs it (a control shown on hover)", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const builtin = makeSurface({ execute: undefined });
      const own = makeSurface();
      const rows = (d) => d.result.unavailable.filter((u) => "record" in u); // page-level ones are listed too
      const read = { input: { record: "SO-1001" } };
      const before = await builtin.handle(req("describe", read));
      document.querySelector('[data-e2e-id="SO-1001"] [data-e2e-id="orders.update_note@order"]').style.visibility = "hidden";
      const described = await builtin.handle(req("describe", read));
      __clicks.length = 0;
      const refused = await builtin.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "x" }));
      const clicks = __clicks.length;
      const ownDescribed = await own.handle(req("describe", read));
      const ran = await own.handle(invoke("orders.update_note@order", { record: "SO-1001", note: "y" }));
      return { before: rows(before), after: rows(described), refused: refused.result, clicks,
               own: rows(ownDescribed), ran: ran.result, executed: __executed.map(([id, args]) => [id, args.record]) };
    });
    assert.deepEqual(r.before, [], "visible: available");
    const reason = "`orders.update_note@order`'s control is hidden for record `SO-1001`";
    assert.deepEqual(r.after, [{ capability: "orders.update_note@order", record: "SO-1001", reason }]);
    assert.deepEqual(r.refused, { error: { code: "ACTION_UNAVAILABLE", message: reason } });
    assert.equal(r.clicks, 0, "a refusal clicks nothing");
    assert.deepEqual(r.own, [], "the page's own executor does not click it: available");
    assert.equal(r.ran.error, undefined, JSON.stringify(r.ran));
    assert.deepEqual(r.executed, [["orders.update_note@order", "SO-1001"]], "only the page's own execute ran, once");
  }));

test("after.removedRecords: a record read before the run and gone after it", () =>
  withPage(async (page) => {
    const r = await inPage(page, async () => {
      const s = makeSurface({
        execute: (id, args) => {
          document.querySelector(`[data-e2e-kind="record"][data-e2e-id="${args.order}"]`).remove();
          document.getElementById("status").textContent = "2 orders";
          return { ok: true };
        },
      });
      const deleted = await s.handle(invoke("orders.open", { order: "SO-1004" }));
      const limited = makeSurface({ recordLimit: 1, execute: () => { for (const el of document.querySelectorAll('[data-e2e-kind="record"]')) el.remove(); return { ok: true }; } });
      const cleared = await limited.handle(invoke("orders.search", { q: "a" }));
      return { deleted: deleted.result, cleared: cleared.result };
    });
    assert.deepEqual(r.deleted.after, {
      capabilities: [],
      records: [],
      removedRecords: [{ kind: "order", id: "SO-1004" }],
      status: ["2 orders"],
    });
    assert.deepEqual(r.cleared.after.removedRecords, [{ kind: "order", id: "SO-1001" }], "at most recordLimit");
    assert.equal(r.cleared.after.recordsTruncated, true, "and the truncation is said");
  }));

test("built-in executor: a page whose elementFromPoint or querySelectorAll throws (replaced on the prototype) gets an answer, nothing clicked, and the next request is answered", async () => {
  // Each case in a page of its own: one request that unwinds leaves the
  // module unable to answer anything after it.
  const run = (which) =>
    withPage((page) =>
      inPage(page, async (which) => {
        const settle = (promise) => Promise.race([promise, new Promise((res) => setTimeout(() => res("no answer within 3 s"), 3000))]);
        const s = makeSurface({ execute: undefined });
        __clicks.length = 0;
        // The document's elementFromPoint, or its querySelectorAll for the
        // records alone (the page read before it passes).
        const name = which === "hitTest" ? "elementFromPoint" : "querySelectorAll";
        const own = Object.getOwnPropertyDescriptor(Document.prototype, name);
        const broken = function (...args) {
          if (which === "hitTest" || args[0] === '[data-e2e-kind="record"]') throw new Error("broken " + name);
          return own.value.apply(this, args);
        };
        Object.defineProperty(Document.prototype, name, { ...own, value: broken });
        const asked = which === "hitTest" ? invoke("orders.search", { q: "a" }) : invoke("orders.update_note@order", { record: "SO-1001", note: "x" });
        const resp = await settle(s.handle(asked));
        const next = await settle(s.handle(req("describe")));
        Object.defineProperty(Document.prototype, name, own);
        return { error: resp.result?.error ?? resp, next: next.ok, clicks: [...__clicks] };
      }, which),
    );
  assert.deepEqual(await run("hitTest"), {
    error: {
      code: "ACTION_UNAVAILABLE",
      message: '"orders.search": the page threw while reading the element: broken elementFromPoint (NOT_ACTIONABLE); nothing was clicked',
    },
    next: true,
    clicks: [],
  });
  assert.deepEqual(await run("records"), {
    error: { code: "EXECUTION_FAILED", message: "the page threw while finding the `order` record `SO-1001`; nothing was clicked" },
    next: true,
    clicks: [],
  });
});

// Bridge helpers, run in the page: post on the window, collect "up" replies.
const BRIDGE = () => {
  window.__ups = [];
  window.addEventListener("message", (e) => {
    if (e.data && e.data.channel === "pling.surface" && e.data.dir === "up") window.__ups.push({ data: e.data, origin: e.origin });
  });
  window.__post = (msg) => window.postMessage(msg, "*");
  window.__settle = () => new Promise((r) => setTimeout(r, 250));
  window.__down = (seq, envelope) => ({ channel: "pling.surface", dir: "down", seq, envelope });
};

test("bridge: \"pling.surface\" answers same-window allowed-origin messages and ignores everything else", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const errors = [];
      for (const allowedOrigins of [undefined, [], ["*"]]) {
        try { makeSurface({ allowedOrigins }).attachWindowBridge(); errors.push("no error"); } catch (e) { errors.push(e.message); }
      }
      const s = makeSurface({ allowedOrigins: [location.origin], execute: undefined });
      s.attachWindowBridge();
      s.attachWindowBridge(); // twice: still one reply
      __post(__down(1, req("describe")));
      __post(__down(2, invoke("orders.search", { q: "a" })));
      __post(__down(3, null));
      await __settle();
      const good = __ups.map((u) => [u.data.seq, u.data.envelope.ok, u.data.envelope.error?.code]).sort((a, b) => a[0] - b[0]);
      __ups.length = 0;
      __clicks.length = 0;
      const run = invoke("orders.search", { q: "b" });
      for (const f of [
        { channel: "in-page-playable", dir: "down", seq: 4, envelope: run },
        { channel: "pling.surface", dir: "up", seq: 5, envelope: run },
        { channel: "pling.surface", seq: 6, envelope: run },
        { channel: "pling.surface", dir: "down", seq: 1.5, envelope: run },
        { channel: "pling.surface", dir: "down", seq: "7", envelope: run },
        "pling.surface",
        null,
      ]) __post(f);
      await __settle();
      const forged = { ups: __ups.filter((u) => "ok" in Object(u.data.envelope)).length, clicks: [...__clicks] };
      s.detachWindowBridge();
      __post(__down(8, req("describe")));
      await __settle();
      return { errors, good, forged, afterDetach: __ups.filter((u) => "ok" in Object(u.data.envelope)).length };
    }, BRIDGE.toString());
    assert.match(r.errors[0], /allowedOrigins/);
    assert.match(r.errors[1], /allowedOrigins/);
    assert.match(r.errors[2], /not an origin/);
    assert.deepEqual(r.good, [[1, true, undefined], [2, true, undefined], [3, false, "INVALID_REQUEST"]]);
    assert.deepEqual(r.forged, { ups: 0, clicks: [] });
    assert.equal(r.afterDetach, 0);
  }));

test("bridge: a page whose addEventListener throws gets a clear error from a Surface's attachWindowBridge, nothing attached; a later attach works", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const s = makeSurface({ allowedOrigins: [location.origin] });
      const orig = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function () { throw new Error("no listeners here"); };
      let refused;
      try { s.attachWindowBridge(); refused = "attached"; } catch (e) { refused = e.message; }
      EventTarget.prototype.addEventListener = orig;
      __post(__down(1, req("describe")));
      await __settle();
      const before = __ups.length;
      s.attachWindowBridge();
      __post(__down(2, req("describe")));
      await __settle();
      return { refused, before, ups: __ups.map((u) => [u.data.seq, u.data.envelope.ok]) };
    }, BRIDGE.toString());
    assert.equal(r.refused, "attachWindowBridge() attached no listener: the page's addEventListener threw (no listeners here)");
    assert.equal(r.before, 0);
    assert.deepEqual(r.ups, [[2, true]]);
  }));

test("bridge: detachWindowBridge on a page whose removeEventListener throws since the attach: nothing thrown, no more replies, the marker gone; a later attach works", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      new Function("return " + helpers)()();
      const marker = () => window.__PLING_SURFACE_V0_1__ === true;
      const act = (f) => { try { f(); return "ok"; } catch (e) { return e.message; } };
      const answered = async (seq) => { __ups.length = 0; __post(__down(seq, req("describe"))); await __settle(); return __ups.map((u) => u.data.seq); };
      const s = makeSurface({ allowedOrigins: [location.origin] });
      s.attachWindowBridge();
      const orig = EventTarget.prototype.removeEventListener;
      EventTarget.prototype.removeEventListener = function () { throw new Error("stuck"); };
      const detached = act(() => s.detachWindowBridge());
      const again = act(() => s.detachWindowBridge());
      const gone = !marker();
      const afterDetach = await answered(1);
      const handled = await s.handle(req("describe")).then((x) => x.ok, (e) => "rejected: " + e.message);
      EventTarget.prototype.removeEventListener = orig;
      const reattached = act(() => s.attachWindowBridge());
      const afterReattach = await answered(2);
      const marked = marker();
      s.detachWindowBridge();
      return { detached, again, gone, afterDetach, handled, reattached, afterReattach, marked, unmarked: !marker() };
    }, BRIDGE.toString());
    assert.deepEqual(r, {
      detached: "ok", again: "ok", gone: true, afterDetach: [], handled: true,
      reattached: "ok", afterReattach: [2], marked: true, unmarked: true,
    });
  }));

test("bridge: an attached Surface keeps answering after garbage collection though the page kept no reference (createSurface(…).attachWindowBridge())", () =>
  withPage(async (page) => {
    await page.evaluate(() => {
      makeSurface({ allowedOrigins: [location.origin] }).attachWindowBridge();
    });
    const cdp = await page.context().newCDPSession(page);
    for (let i = 0; i < 3; i++) {
      await cdp.send("HeapProfiler.collectGarbage");
      await page.evaluate(() => new Promise((r) => setTimeout(r, 50))); // FinalizationRegistry callbacks run
    }
    const reply = await page.evaluate(() => new Promise((resolve) => {
      const timer = setTimeout(() => resolve("no reply"), 2000);
      window.addEventListener("message", (e) => {
        if (e.data && e.data.dir === "up" && e.data.seq === 7) { clearTimeout(timer); resolve(e.data.envelope.ok); }
      });
      window.postMessage({ channel: "pling.surface", dir: "down", seq: 7, envelope: req("describe") }, location.origin);
    }));
    assert.equal(reply, true);
    await cdp.detach();
  }));

test("bridge: the window carries __PLING_SURFACE_V0_1__ while a Surface bridge is attached there, until none is left", () =>
  withPage(async (page) => {
    const seen = await page.evaluate(() => {
      // Once defined the marker stays (a page script cannot delete it); unmarked, it reads undefined.
      const marker = () => (window.__PLING_SURFACE_V0_1__ === undefined ? "absent" : window.__PLING_SURFACE_V0_1__);
      const seen = [["created", marker()]];
      try { makeSurface({ allowedOrigins: [] }).attachWindowBridge(); } catch { /* refused */ }
      seen.push(["refused", marker()]);
      const a = makeSurface({ allowedOrigins: [location.origin] });
      const b = makeSurface({ allowedOrigins: [location.origin] });
      a.attachWindowBridge();
      seen.push(["a attached", marker()]);
      seen.push(["a page script deletes or overwrites it", Reflect.deleteProperty(window, "__PLING_SURFACE_V0_1__") || Reflect.set(window, "__PLING_SURFACE_V0_1__", false), marker()]);
      a.attachWindowBridge(); // twice: still one bridge
      b.attachWindowBridge();
      a.detachWindowBridge();
      seen.push(["a detached, b attached", marker()]);
      a.detachWindowBridge(); // again: nothing to detach
      seen.push(["a detached twice, b attached", marker()]);
      b.detachWindowBridge();
      seen.push(["none attached", marker()]);
      a.attachWindowBridge();
      seen.push(["a attached again", marker()]);
      a.detachWindowBridge();
      seen.push(["none attached again", marker()]);
      return seen;
    });
    assert.deepEqual(seen, [
      ["created", "absent"], ["refused", "absent"], ["a attached", true], ["a page script deletes or overwrites it", false, true],
      ["a detached, b attached", true], ["a detached twice, b attached", true],
      ["none attached", "absent"], ["a attached again", true], ["none attached again", "absent"],
    ]);
  }));

test("bridge: document.open() erases the window's listeners, the Surface bridge's with them (the marker stays): attachWindowBridge() again brings it back, one reply per request", () =>
  withPage(async (page) => {
    const r = await page.evaluate(async (helpers) => {
      const install = new Function("return " + helpers)();
      install();
      const answered = async (seq) => { __ups.length = 0; __post(__down(seq, req("describe"))); await __settle(); return __ups.map((u) => [u.data.seq, u.data.envelope.ok]); };
      const s = makeSurface({ allowedOrigins: [location.origin] });
      s.attachWindowBridge();
      const before = await answered(1);
      document.open();
      document.write("<p>replaced</p>");
      document.close();
      install(); // the helpers' own listener was erased too
      const marker = window.__PLING_SURFACE_V0_1__;
      const erased = await answered(2);
      s.attachWindowBridge();
      s.attachWindowBridge(); // twice: still one reply
      const back = await answered(3);
      s.detachWindowBridge();
      const detached = await answered(4);
      return { before, marker, erased, back, detached, unmarked: window.__PLING_SURFACE_V0_1__ === undefined };
    }, BRIDGE.toString());
    assert.deepEqual(r, { before: [[1, true]], marker: true, erased: [], back: [[3, true]], detached: [], unmarked: true });
  }));

test("bridge: another origin, or another window, is ignored", async () => {
  const page = await ctx.open(FIXTURE);
  try {
    await page.evaluate(async ({ cross }) => {
      window.__ups = [];
      window.addEventListener("message", (e) => { if (e.data && e.data.dir === "up") window.__ups.push(e.data); });
      const s = makeSurface({ allowedOrigins: [location.origin], execute: undefined });
      s.attachWindowBridge();
      window.__first = s;
      await new Promise((res) => { const f = document.createElement("iframe"); f.src = cross; f.onload = res; document.body.append(f); });
    }, { cross: other.origin + "/tests/fixtures/blank.html" });
    const cross = page.frames().find((f) => f.url().startsWith(other.origin));
    const msg = { channel: "pling.surface", dir: "down", seq: 1, envelope: { protocol: PROTOCOL, id: "x", method: "invoke", capability: "orders.search", input: { q: "a" } } };
    await cross.evaluate((m) => parent.postMessage(m, "*"), msg);
    await page.waitForTimeout(300);
    const state = await page.evaluate(() => ({ ups: window.__ups.length, clicks: window.__clicks }));
    assert.deepEqual(state, { ups: 0, clicks: [] });
    // A surface allowing only the other origin ignores this window's own messages.
    const own = await page.evaluate(async (o) => {
      window.__first.detachWindowBridge();
      const s = makeSurface({ allowedOrigins: [o], execute: undefined });
      s.attachWindowBridge();
      window.postMessage({ channel: "pling.surface", dir: "down", seq: 2, envelope: req("describe") }, "*");
      await new Promise((r) => setTimeout(r, 250));
      return window.__ups.length;
    }, other.origin);
    assert.equal(own, 0);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.close();
  }
});

test("playground/surface.html: the seed's orders demo over the \"pling.surface\" bridge", async () => {
  const page = await ctx.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  try {
    await page.goto(ctx.server.origin + "/playground/surface.html");
    await page.waitForSelector(".console-head");
    const r = await page.evaluate(async () => {
      const ups = [];
      window.addEventListener("message", (e) => { if (e.data && e.data.channel === "pling.surface" && e.data.dir === "up") ups.push(e.data); });
      const ask = async (seq, envelope) => {
        window.postMessage({ channel: "pling.surface", dir: "down", seq, envelope }, "*");
        for (let i = 0; i < 100 && !ups.some((u) => u.seq === seq); i++) await new Promise((res) => setTimeout(res, 20));
        return ups.find((u) => u.seq === seq)?.envelope;
      };
      const describe = await ask(1, { protocol: "pling.surface/0.1", id: "req-1", method: "describe", input: { limit: 8, capabilities: "changed" } });
      const locked = await ask(2, { protocol: "pling.surface/0.1", id: "req-2", method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1002", note: "周五前回电" } });
      const saved = await ask(3, { protocol: "pling.surface/0.1", id: "req-3", method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1001", note: "周五前回电" } });
      const cancel = await ask(4, { protocol: "pling.surface/0.1", id: "req-4", method: "invoke", capability: "orders.cancel@order", input: { record: "SO-1001" } });
      return { describe, locked, saved, cancel };
    });
    assert.deepEqual(r.describe.result.capabilities.map((c) => c.id), ["orders.search", "orders.open", "orders.update_note@order"]);
    assert.deepEqual(r.describe.result.recordWindow, { offset: 0, limit: 8, total: 5 });
    assert.deepEqual(r.describe.result.unavailable, [{ capability: "orders.update_note@order", record: "SO-1002", reason: "记录已锁定" }]);
    assert.deepEqual(r.locked, { protocol: PROTOCOL, id: "req-2", ok: true, result: { error: { code: "ACTION_UNAVAILABLE", message: "记录已锁定" } } });
    assert.equal(r.saved.ok, true);
    assert.equal(r.saved.result.error, undefined, JSON.stringify(r.saved));
    assert.deepEqual(r.saved.result.after.records.map((x) => [x.id, x.fields.note]), [["SO-1001", "周五前回电"]]);
    assert.equal(r.cancel.error.code, "CAPABILITY_NOT_EXPOSED");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
