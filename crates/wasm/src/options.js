// IInstallPlayableOptions, checked once at install (options.rs builds the
// Rust values). Returns the first problem as a string, or
// [root, window, capture, slots, allowedOrigins, sense, bot, bom] where
// slots is [[island, [[slot, ariaLabel] or [slot, role, name], ...]], ...].
// An options getter that throws is a problem; other throws (a throwing
// proxy) propagate as they always did.

const absent = (v) => v === undefined || v === null;
const isObject = (v) => typeof v === "object" && v !== null;
const isFunction = (v) => typeof v === "function";

/** Thrown by `field`: a problem to report, not the page's exception. */
class Problem {
  constructor(message) {
    this.message = message;
  }
}

// obj[key] (undefined for null or undefined); a getter's throw is a problem.
function field(obj, key) {
  if (absent(obj)) return undefined;
  let v;
  try {
    v = Reflect.get(obj, key);
  } catch {
    throw new Problem("reading options." + key + " threw");
  }
  return absent(v) ? undefined : v;
}

// Reflect.get that is undefined where it would throw (primitives).
function get(obj, key) {
  try {
    return Reflect.get(obj, key);
  } catch {
    return undefined;
  }
}

const isWindow = (v) => isFunction(get(v, "postMessage"));

// A node's nodeType as an integer, if it is a number.
function nodeType(v) {
  const n = get(v, "nodeType");
  return typeof n === "number" ? Math.trunc(n) : undefined;
}

function windowOf(root) {
  const doc = nodeType(root) === 9 ? root : get(root, "ownerDocument");
  const view = get(doc, "defaultView");
  return absent(view) ? undefined : view;
}

function slots(value) {
  const out = [];
  for (const [island, specs] of Object.entries(value)) {
    const at = "islandSlots[" + JSON.stringify(island) + "]";
    if (!isObject(specs)) throw new Problem(at + " must be an object of slots");
    const list = [];
    for (const [slot, spec] of Object.entries(specs)) {
      const str = (k) => {
        const v = get(spec, k);
        return typeof v === "string" ? v : undefined;
      };
      const [label, role, name] = [str("ariaLabel"), str("role"), str("name")];
      if (label !== undefined && role === undefined && name === undefined) list.push([slot, label]);
      else if (label === undefined && role !== undefined && name !== undefined) list.push([slot, role, name]);
      else {
        throw new Problem(
          at + "[" + JSON.stringify(slot) + "] must be { ariaLabel: string } or { role: string, name: string }",
        );
      }
    }
    out.push([island, list]);
  }
  return out;
}

export function readOptions(options) {
  try {
    if (!absent(options) && !isObject(options)) return "installPlayable(options) takes an options object";
    const global = globalThis;
    const root = field(options, "root") ?? field(global, "document");
    if (root === undefined) return "no document to scan: pass options.root";
    if (![1, 9, 11].includes(nodeType(root))) {
      return "options.root must be a Document, a ShadowRoot or an Element";
    }
    let window = field(options, "window");
    if (window === undefined) {
      window = windowOf(root) ?? (isWindow(global) ? global : undefined);
      if (window === undefined) return "no window: pass options.window";
    } else if (!isWindow(window)) {
      return "options.window must be a Window";
    }
    const capture = field(options, "captureScreenshot");
    if (capture !== undefined && !isFunction(capture)) {
      return "options.captureScreenshot must be a function (scope) => image";
    }
    const ports = field(options, "ports");
    if (ports !== undefined && !isObject(ports)) return "options.ports must be an object { sense?, bot?, bom? }";
    const islandSlots = field(options, "islandSlots");
    if (islandSlots !== undefined && !isObject(islandSlots)) {
      return "options.islandSlots must be an object: { [islandId]: { [slotName]: spec } }";
    }
    const out = [root, window, capture, islandSlots ? slots(islandSlots) : []];
    const origins = field(options, "allowedOrigins") ?? [];
    if (!Array.isArray(origins)) return "options.allowedOrigins must be an array of origin strings";
    const copy = [];
    for (let i = 0; i < origins.length; i++) {
      const origin = origins[i];
      if (typeof origin !== "string") return "options.allowedOrigins must contain only strings";
      copy.push(origin);
    }
    out.push(copy);
    for (const name of ["sense", "bot", "bom"]) {
      const p = field(ports, name);
      if (p !== undefined && !isObject(p)) return "options.ports." + name + " must be an object";
      out.push(p);
    }
    return out;
  } catch (e) {
    if (e instanceof Problem) return e.message;
    throw e;
  }
}
