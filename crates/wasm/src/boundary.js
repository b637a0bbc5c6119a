// The JS side of a crossing: it reads and stringifies, reports as facts
// what JSON cannot hold and what threw, and decides nothing. `stringify`
// is the one JSON.stringify with facts: `project` (the playable downlink)
// and Surface (crates/wasm/src/surface.rs: its requests' `input`, its
// callbacks' results, createSurface's data options) cross through it, and
// `read` reads named fields in order. The bounds (depth, values,
// characters) and every check and message are Rust's: playable::boundary
// and playable::bounds for a downlink, surface::crossing and
// surface::bounds (over playable::bounds) for Surface. Nothing here throws.

// JSON's own functions as they were when the module loaded: a page script
// that later replaces JSON.parse or JSON.stringify (with one that throws,
// say) cannot break a crossing, nor see or change what crosses.
const { parse: jsonParse, stringify: jsonStringify } = JSON;

/** `JSON.parse(text)` as the module loaded it: how every answer crosses back to JS. */
export function parse(text) {
  return jsonParse(text);
}

/** A thrown value's message, bounded, for an error text. */
export function thrown(e) {
  try {
    return e && e.message ? String(e.message).slice(0, 200) : "unknown error";
  } catch {
    return "unknown error"; // a message getter that throws too
  }
}

/**
 * `JSON.stringify(v)` with facts: [text, fact, thrown]. `text` is the JSON
 * text, or null (for undefined, or when stringify threw); `fact` is null or
 * [typeof, key, shown] for the first value JSON cannot hold (BigInt,
 * function, symbol, non-finite number: written as null; `key` is the key or
 * index it sat under, "" for `v` itself; `shown` how JS writes a number);
 * `thrown` is what stringify threw (a cycle, a getter, a proxy, a toJSON),
 * or null.
 */
export function stringify(v) {
  let fact = null;
  const replacer = function (key, x) {
    const t = typeof x;
    if (t === "bigint" || t === "function" || t === "symbol" || (t === "number" && !Number.isFinite(x))) {
      if (fact === null) fact = [t, key, t === "number" ? String(x) : ""];
      return null;
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

const own = Object.prototype.hasOwnProperty;

/**
 * The own fields `names` of `v`, read once each, in order: [values, thrown].
 * An inherited field reads as undefined, as JSON.stringify skips it: a
 * script setting Object.prototype.capability must not fill in others'
 * requests. `values` is null when `v` has no fields to read (it is not an
 * object, or it is an array); else the values read, up to the getter (or
 * proxy trap) that threw; `thrown` is what it threw, or null.
 */
export function read(v, names) {
  const values = [];
  try {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return [null, null];
    for (const k of names) values.push(own.call(v, k) ? v[k] : undefined);
    return [values, null];
  } catch (e) {
    return [values, thrown(e)];
  }
}

const ENVELOPE_FIELDS = ["pageId", "requestId", "cmd", "payload"];

/**
 * A downlink as JSON text, with facts: [text, fact, thrown], as `stringify`
 * writes { pageId, requestId, cmd, payload } (the value itself when it has
 * no fields to read). When reading a field or stringifying threw, `text`
 * holds the first three fields alone, if they can be written. When it did
 * not, a fourth element is the text of those three alone: Rust finds the
 * requestId in it when the whole text is too long to copy.
 */
export function project(down) {
  const [values, threw] = read(down, ENVELOPE_FIELDS);
  if (values === null) return stringify(down);
  const envelope = (n) => {
    const env = {};
    values.slice(0, n).forEach((v, i) => { env[ENVELOPE_FIELDS[i]] = v; });
    return env;
  };
  const whole = threw === null ? stringify(envelope(4)) : [null, null, threw];
  const head = stringify(envelope(3))[0];
  if (whole[2] === null) return [...whole, head];
  return [head, whole[1], whole[2]];
}

/** Puts a screenshot into its uplink's snapshot; false when there is none to hold it. */
export function attach(up, shot) {
  const s = up && up.payload && up.payload.snapshot;
  if (s === null || typeof s !== "object") return false;
  s.screenshot = shot;
  return true;
}
