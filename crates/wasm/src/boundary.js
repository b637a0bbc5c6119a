// The JS side of a crossing. `project` (the playable downlink) reads the
// four envelope fields and runs one JSON.stringify: it reports as facts what
// JSON cannot hold and what threw, and decides nothing; the bounds (depth,
// values, characters) and every check are Rust's (playable::boundary and
// playable::bounds). `projectWith` and `plain` still copy Surface's
// requests and callback results with the bounds in JS, until Surface reads
// them through the Rust scanner too. Nothing here throws.

const MAX_DEPTH = 32;
const MAX_NODES = 10000;
const MAX_CHARS = 1 << 20; // total string budget, UTF-16 units

function describe(v) {
  if (typeof v === "bigint") return "a BigInt";
  if (typeof v === "function") return "a function";
  if (typeof v === "symbol") return "a symbol";
  if (typeof v === "number") return String(v);
  return typeof v;
}

// Copies `v` as plain JSON within the limits; budget.problem says why not.
function copier(budget) {
  const seen = new Set();
  function copy(v, path, depth) {
    if (budget.problem) return null;
    if (++budget.nodes > MAX_NODES) { budget.problem = "the envelope has more than " + MAX_NODES + " values"; return null; }
    switch (typeof v) {
      case "string":
        budget.chars += v.length;
        if (budget.chars > MAX_CHARS) { budget.problem = path + " makes the envelope longer than " + MAX_CHARS + " characters"; return null; }
        return v;
      case "boolean": return v;
      case "number":
        if (Number.isFinite(v)) return v;
        budget.problem = path + " is " + describe(v) + ", not JSON"; return null;
      case "undefined": return undefined;
      case "object": {
        if (v === null) return null;
        if (depth >= MAX_DEPTH) { budget.problem = path + " nests deeper than " + MAX_DEPTH + " levels"; return null; }
        if (seen.has(v)) { budget.problem = path + " is cyclic, not JSON"; return null; }
        seen.add(v);
        let out;
        if (Array.isArray(v)) {
          out = [];
          for (let i = 0; i < v.length && !budget.problem; i++) {
            const c = copy(v[i], path + "[" + i + "]", depth + 1);
            out.push(c === undefined ? null : c);
          }
        } else {
          out = Object.create(null);
          for (const k of Object.keys(v)) {
            if (budget.problem) break;
            budget.chars += k.length;
            const c = copy(v[k], path + "." + k, depth + 1);
            if (c !== undefined) out[k] = c;
          }
        }
        seen.delete(v);
        return out;
      }
      default:
        budget.problem = path + " is " + describe(v) + ", not JSON"; return null;
    }
  }
  return copy;
}

/** A thrown value's message, bounded, for an error text. */
export function thrown(e) {
  try {
    return e && e.message ? String(e.message).slice(0, 200) : "unknown error";
  } catch {
    return "unknown error"; // a message getter that throws too
  }
}

const ENVELOPE_FIELDS = ["pageId", "requestId", "cmd", "payload"];

/**
 * A downlink as JSON text, with facts: [text, fact, thrown]. `text` is the
 * JSON of { pageId, requestId, cmd, payload } (of the value itself when it
 * is not a plain object), or null; `fact` is null or [typeof, key, shown]
 * for the first value JSON cannot hold (BigInt, function, symbol,
 * non-finite number: written as null); `thrown` is what stringify or a
 * getter threw (a cycle, a proxy), and then `text` holds the first three
 * fields alone when they can be read.
 */
export function project(down) {
  let fact = null;
  const replacer = function (key, v) {
    const t = typeof v;
    if (t === "bigint" || t === "function" || t === "symbol" || (t === "number" && !Number.isFinite(v))) {
      if (fact === null) fact = [t, key, t === "number" ? String(v) : ""];
      return null;
    }
    return v;
  };
  const fields = (names) => {
    if (down === null || typeof down !== "object" || Array.isArray(down)) return down;
    const env = {};
    for (const k of names) env[k] = down[k];
    return env;
  };
  try {
    const text = JSON.stringify(fields(ENVELOPE_FIELDS), replacer);
    return [text === undefined ? null : text, fact, null];
  } catch (e) {
    let head = null;
    try {
      head = JSON.stringify(fields(ENVELOPE_FIELDS.slice(0, 3)), replacer) ?? null;
    } catch {
      // Not even the first three fields can be read.
    }
    return [head, fact, thrown(e)];
  }
}

/** Puts a screenshot into its uplink's snapshot; false when there is none to hold it. */
export function attach(up, shot) {
  const s = up && up.payload && up.payload.snapshot;
  if (s === null || typeof s !== "object") return false;
  s.screenshot = shot;
  return true;
}

/**
 * Bounds a request object: only the `scalars` fields and the `nested` one
 * are read; returns [json, problem]. Surface reads its requests with it.
 */
export function projectWith(down, scalars, nested) {
  const budget = { nodes: 0, chars: 0, problem: null };
  const env = Object.create(null);
  try {
    if (down === null || typeof down !== "object" || Array.isArray(down)) {
      return ["null", null]; // not an object: the parser says so
    }
    for (const key of scalars) {
      const v = down[key];
      if (v === undefined) continue;
      // Scalars pass (strings bounded); anything else is simply "not a string".
      if (typeof v === "string") env[key] = v.length > 4096 ? { length: v.length } : v;
      else if (v === null || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) env[key] = v;
      else env[key] = { type: typeof v };
    }
    if (down[nested] !== undefined) env[nested] = copier(budget)(down[nested], nested, 1);
    return [JSON.stringify(env), budget.problem];
  } catch (e) {
    // The scalars read so far still identify the request.
    delete env[nested];
    return [JSON.stringify(env), "reading the envelope threw: " + thrown(e)];
  }
}

/** Any value (a host callback's result) as bounded plain JSON: [json, problem]. */
export function plain(v, label) {
  const budget = { nodes: 0, chars: 0, problem: null };
  try {
    const out = copier(budget)(v, label, 0);
    return [out === undefined ? "null" : JSON.stringify(out), budget.problem];
  } catch (e) {
    return ["null", "reading " + label + " threw: " + thrown(e)];
  }
}
