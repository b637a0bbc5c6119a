// The JS side of a crossing: it reads and stringifies, reports as facts
// what JSON cannot hold and what threw, and decides nothing. `stringify`
// is the one JSON.stringify with facts: `project` (the playable downlink)
// and Surface (crates/wasm/src/surface.rs: its requests' `input`, its
// callbacks' results, createSurface's data options) cross through it,
// `read` reads named fields in order, and `entries` writes an array entry
// by entry (a registry that did not cross whole). The bounds (depth, values,
// characters) and every check and message are Rust's: playable::boundary
// and playable::bounds for a downlink, surface::crossing and
// surface::bounds (over playable::bounds) for Surface. Nothing here throws
// but `isArray`, which Rust binds with `catch`.

// The built-ins a crossing uses, as they were when the module loaded: a
// page script that later replaces JSON.stringify, Array.prototype.push or
// the like (with one that throws, say) cannot break a crossing, nor see or
// change what crosses. No prototype method is called on a value that
// crosses (plain loops, no spread), and every object built here is filled
// by defineProperty or has no prototype, so no setter a script put on
// Object.prototype or Array.prototype runs.
const { parse: jsonParse, stringify: jsonStringify } = JSON;
const { apply, defineProperty, getOwnPropertyDescriptor: describe, getPrototypeOf } = Reflect;
const { hasOwn, prototype: objects } = Object;
const { isArray, prototype: arrays } = Array;
const { isFinite } = Number;
const BOXES = ["String", "Number", "Boolean", "BigInt"];
const UNBOX = [String.prototype.valueOf, Number.prototype.valueOf, Boolean.prototype.valueOf, BigInt.prototype.valueOf];
// Collections JSON writes as {} whatever they hold, each with a method that
// throws unless called on one (from any realm, a subclass's included).
const COLLECTIONS = ["Map", "Set", "WeakMap", "WeakSet"];
const BRANDS = [describe(Map.prototype, "size").get, describe(Set.prototype, "size").get, WeakMap.prototype.has, WeakSet.prototype.has];

/** `JSON.parse(text)` as the module loaded it: how every answer crosses back to JS. */
export function parse(text) {
  return jsonParse(text);
}

/**
 * `Array.isArray` as the module loaded it, for every array check Rust
 * makes on a value the page handed in. It throws on a revoked proxy: the
 * one function here that may, so Rust binds it with `catch` and words the
 * throw as the refusal of the path that asked (crates/wasm/src/js.rs).
 */
export { isArray };

/** A thrown value's message, bounded, for an error text. */
export function thrown(e) {
  try {
    return e && e.message ? String(e.message).slice(0, 200) : "unknown error";
  } catch {
    return "unknown error"; // a message getter that throws too
  }
}

/**
 * `v[k] = x` as an own data property, whatever setters `v`'s prototype has:
 * false when `v` refuses it (it is frozen, say).
 */
function put(v, k, x) {
  // (A descriptor without a prototype: no Object.prototype.get joins it.)
  return defineProperty(v, k, { __proto__: null, value: x, writable: true, enumerable: true, configurable: true });
}

/** The first of `names` whose `brands[i]` `x` passes, else null. */
function branded(x, brands, names) {
  for (let i = 0; i < brands.length; i++) {
    try {
      apply(brands[i], x, []);
      return names[i];
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * [kind, shown] for an object JSON would write as something else: "boxed"
 * and the primitive's type for a String, Number, Boolean or BigInt object
 * (JSON writes the primitive), "collection" and its type for a Map, Set,
 * WeakMap or WeakSet (JSON writes {}, its entries lost); else null.
 */
function unlike(x) {
  const proto = getPrototypeOf(x);
  // A plain object or array (this realm's) is none; anything else is asked.
  if (proto === objects || proto === arrays) return null;
  const box = branded(x, UNBOX, BOXES);
  if (box !== null) return ["boxed", box];
  const set = branded(x, BRANDS, COLLECTIONS);
  return set === null ? null : ["collection", set];
}

/**
 * `JSON.stringify(v)` with facts: [text, fact, thrown]. `text` is the JSON
 * text, or null (for undefined, or when stringify threw); `fact` is null or
 * [kind, key, shown] for the first value JSON cannot hold (written as
 * null): a BigInt, function, symbol or non-finite number (`kind` its
 * typeof, `shown` how JS writes the number), a String, Number, Boolean or
 * BigInt object (`kind` "boxed", `shown` its type: JSON.stringify would
 * write the primitive it wraps), a Map, Set, WeakMap or WeakSet (`kind`
 * "collection", `shown` its type: JSON.stringify would write {}), or an
 * object with a toJSON method, a Date say (`kind` "toJSON": JSON.stringify
 * would write what it returns, not the object); `key` is the key or index
 * it sat under, "" for `v` itself. `thrown` is what stringify threw (a
 * cycle, a getter, a proxy, a toJSON), or null.
 * `level` (Rust's surface::crossing::Writing says which) lets more cross
 * as JSON writes it, without a fact: 0 nothing (an agent's request); 1
 * the boxed values, collections and toJSON (a page's own value); 2 also
 * a function or symbol that is a member of `v` itself under a key not in
 * `keep` (Rust's space-separated list), which JSON leaves out (a
 * declaration's handler; one nested deeper, or under a key Rust reads, is
 * a fact); 3 also every function and symbol, and non-finite numbers, which
 * JSON writes as null (execute's result). A BigInt, which JSON cannot
 * write, is a fact at every level.
 */
export function stringify(v, level, keep) {
  level = level | 0; // (true is 1; undefined 0)
  const kept = level === 2 ? String(keep).split(" ") : null;
  let top; // v as the replacer first sees it (after a toJSON)
  let fact = null;
  const note = (kind, key, shown) => {
    if (fact === null) fact = [kind, key, shown];
    return null;
  };
  const replacer = function (key, x) {
    if (top === undefined) top = x;
    const t = typeof x;
    const leftOut = level === 3 || (level === 2 && this === top && !kept.includes(key));
    if (t === "bigint" || ((t === "function" || t === "symbol") && !leftOut) || (t === "number" && !isFinite(x) && level < 3)) {
      return note(t, key, t === "number" ? "" + x : "");
    }
    // A page's own values (its callbacks' results, its registry and
    // options) may cross as JSON writes them (a Date as its ISO text); an
    // agent's request may not.
    if (level) return x;
    // The value as it sits in its holder, before any toJSON ran (a getter
    // is not called again: its value is the one stringify read).
    const d = describe(this, key);
    const raw = d && hasOwn(d, "value") ? d.value : x;
    if (raw !== x) return note("toJSON", key, "");
    if (t === "object" && x !== null) {
      const u = unlike(x);
      if (u !== null) return note(u[0], key, u[1]);
    }
    return x;
  };
  try {
    const text = jsonStringify(v, replacer);
    return [text === undefined ? null : text, fact, null];
  } catch (e) {
    return [null, fact, thrown(e)];
  }
}

/**
 * The entries of the array `v`, each read once and written by `stringify`
 * at `level` (and `keep`): [[text, fact, thrown], …] (an entry whose getter threw is
 * [null, null, what it threw]); null when `v` is no array, has more than
 * `max` entries (Rust's count), or reading it threw.
 */
export function entries(v, level, max, keep) {
  const out = [];
  try {
    const n = isArray(v) ? v.length : -1;
    if (!(n >= 0 && n <= max)) return null;
    for (let i = 0; i < n; i++) {
      let x;
      try {
        x = v[i];
      } catch (e) {
        put(out, i, [null, null, thrown(e)]);
        continue;
      }
      put(out, i, stringify(x, level, keep));
    }
  } catch {
    return null; // isArray or length on a revoked or throwing proxy
  }
  return out;
}

/**
 * The own fields `names` of `v`, read once each, in order: [values, thrown].
 * An inherited field reads as undefined, as JSON.stringify skips it: a
 * script setting Object.prototype.capability must not fill in others'
 * requests. `values` is null when `v` has no fields to read (it is not an
 * object, or it is an array); else one value per name, each read in its
 * own `try` (one whose getter or proxy trap threw is undefined, and the
 * others are still read, so the `id` is echoed whichever field threw);
 * `thrown` is the first throw, or null. A revoked proxy reads no field.
 */
export function read(v, names) {
  const values = [];
  let threw = null;
  try {
    if (v === null || typeof v !== "object" || isArray(v)) return [null, null];
  } catch (e) {
    return [values, thrown(e)]; // isArray on a revoked proxy
  }
  for (let i = 0; i < names.length; i++) {
    let x;
    try {
      x = hasOwn(v, names[i]) ? v[names[i]] : undefined;
    } catch (e) {
      if (threw === null) threw = thrown(e);
    }
    put(values, i, x);
  }
  return [values, threw];
}

const ENVELOPE_FIELDS = ["pageId", "requestId", "cmd", "payload"];

/**
 * A downlink as JSON text, with facts: [text, fact, thrown, requestId], as
 * `stringify` writes { pageId, requestId, cmd, payload } (the value itself
 * when it has no fields to read). Each field is read in its own `try`:
 * when one threw, `text` is null and `thrown` the first throw. `requestId`
 * is the field as read when it is a string, whatever the others hold, so
 * Rust can echo it (its rules are Rust's); else undefined.
 */
export function project(down) {
  let env, threw = null, id;
  try {
    if (down === null || typeof down !== "object" || isArray(down)) return stringify(down);
    env = {};
    for (let i = 0; i < ENVELOPE_FIELDS.length; i++) {
      const k = ENVELOPE_FIELDS[i];
      try {
        const v = hasOwn(down, k) ? down[k] : undefined;
        put(env, k, v);
        if (k === "requestId" && typeof v === "string") id = v;
      } catch (e) {
        if (threw === null) threw = thrown(e);
      }
    }
  } catch (e) {
    threw = thrown(e); // isArray on a revoked proxy
  }
  if (threw !== null) return [null, null, threw, id];
  const whole = stringify(env);
  return [whole[0], whole[1], whole[2], id];
}

/** Puts a screenshot into its uplink's snapshot; false when there is none to hold it. */
export function attach(up, shot) {
  try {
    const s = up && up.payload && up.payload.snapshot;
    if (s === null || typeof s !== "object") return false;
    return put(s, "screenshot", shot);
  } catch {
    return false;
  }
}
