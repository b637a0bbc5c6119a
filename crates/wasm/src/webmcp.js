// WebMCP publications (publishWebMcp()): when to read the owner's menu or
// capabilities (a hello first, then after DOM changes under the root and
// after every call), which menu items or Surface capabilities become tools,
// under which names, with which description and input schema (planned from
// the answer to a read: a snapshot uplink, a describe response), and the
// browser calls. Every read and tool call is a request that
// src/webmcp/publication.rs carries to the owner's handle. Never throws.
//
// Chromium 156 (--enable-features=WebMCP) exposes document.modelContext
// (earlier drafts: navigator.modelContext). registerTool(tool, { signal })
// returns a promise and there is no unregisterTool: aborting the signal
// withdraws the tool. Invalid or duplicate names reject.
//
// Naming (documented in docs/mcp.md):
// - an id that is already a valid WebMCP tool name (`[A-Za-z0-9_.-]{1,128}`,
//   the rule Chromium enforces) is the name;
// - any other id (island slots `{island}:{slot}`, spaces, non-ASCII, longer
//   than 128) becomes `{prefix}-{hash}`: every other character replaced by
//   `_`, cut to 119 characters, then `-` and the 8 hex digits of the FNV-1a
//   32-bit hash of its UTF-8 bytes, so the same id always gets the same name
//   and two ids that sanitise alike still differ;
// - should a name still be taken (a declared id equal to another's sanitised
//   form, or a hash clash), `-2`, `-3`, … is appended in document order.

const NAME = /^[\w.-]{1,128}$/;

const object = (properties, required) =>
  JSON.stringify(
    required
      ? { type: "object", properties, required: [required], additionalProperties: false }
      : { type: "object", properties, additionalProperties: false },
  );

// The input schema (JSON) per event kind; an event not here is not
// published (a run would only answer UNSUPPORTED_EVENT). Arguments are the
// run payload minus `id`.
const SCHEMAS = {
  __proto__: null,
  click: object({}),
  input: object(
    {
      value: {
        description:
          "Text for a text field or textarea; true or false for a checkbox or radio; an option value, or a list of them, for a select.",
        anyOf: [{ type: "string" }, { type: "boolean" }, { type: "array", items: { type: "string" } }],
      },
    },
    "value",
  ),
  scroll: object({
    to: { type: "string", enum: ["start", "center", "end"], description: "Scroll the item into this position." },
    by: {
      type: "object",
      properties: { x: { type: "number" }, y: { type: "number" } },
      additionalProperties: false,
      description: "Scroll by this many CSS pixels.",
    },
  }),
  drag: object({ to: { type: "string", minLength: 1, description: "The menu id of the item to drop on." } }, "to"),
};

/** v[k] when it is a string, else "". */
function str(v, k) {
  const s = v?.[k];
  return typeof s === "string" ? s : "";
}

function list(v, k) {
  const a = v?.[k];
  return Array.isArray(a) ? a : [];
}

/** The name for an id that is not a valid tool name. */
export function sanitisedName(id) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(id)) h = Math.imul(h ^ b, 0x01000193);
  return (
    Array.from(id)
      .slice(0, 119)
      .map((c) => (/[\w.-]/.test(c) ? c : "_"))
      .join("") +
    "-" +
    (h >>> 0).toString(16).padStart(8, "0")
  );
}

/** Unique tool names for `ids`, in order: valid ids keep theirs first. */
function names(ids) {
  const out = ids.map(() => "");
  ids.forEach((id, i) => {
    if (NAME.test(id) && !out.includes(id)) out[i] = id;
  });
  ids.forEach((id, i) => {
    if (out[i]) return;
    const base = sanitisedName(id);
    let name = base;
    for (let n = 2; out.includes(name); n++) name = base.slice(0, 127 - String(n).length) + "-" + n;
    out[i] = name;
  });
  return out;
}

/**
 * A menu item's or a capability's tool description: its title and
 * description as the page wrote them, plus the id when the name differs
 * from it; without either, a fallback that names the id (WebMCP requires a
 * non-empty description).
 */
function describe(item, name, surface) {
  const id = JSON.stringify(str(item, "id"));
  const title = str(item, "title").trim();
  const desc = str(item, surface ? "description" : "desc").trim();
  const text = title && desc ? title + ": " + desc : title + desc;
  if (!text) return surface ? "Capability " + id : "Menu item " + id + " (" + str(item, "event") + ")";
  return name === str(item, "id") ? text : text + " (" + (surface ? "capability " : "menu item ") + id + ")";
}

/**
 * The tools (`[[name, id, description, schema JSON], …]`) to publish for the
 * answer to a read, or undefined to keep what is published (no usable answer
 * this time). For a playable instance: the snapshot's runnable menu items
 * (enabled, visible, claimed by one element, with a known event). For a
 * Surface: its capabilities (already exposed ∩ session scope ∩ registered)
 * less those unavailable as a whole (an `unavailable` entry without a
 * record; row actions stay, as their availability depends on
 * `input.record`), each with the schema the Surface enforces; none without
 * a session.
 */
export function plan(surface, response) {
  const ok = response?.ok === true;
  let items;
  if (surface) {
    const result = ok ? response.result : undefined;
    const gone = list(result, "unavailable");
    items = list(result, "capabilities").filter((c) => {
      const id = str(c, "id");
      return id && !gone.some((u) => u?.record === undefined && str(u, "capability") === id);
    });
  } else {
    const snapshot = response?.payload?.snapshot;
    if (!ok || snapshot === undefined) return;
    items = list(snapshot, "menu").filter(
      (i) => i?.enabled === true && i.visible === true && i.ambiguous !== true && str(i, "id") && SCHEMAS[str(i, "event")],
    );
  }
  const ids = items.map((i) => str(i, "id"));
  return names(ids).map((name, n) => {
    const item = items[n];
    const input = item.input;
    return [
      name,
      ids[n],
      describe(item, name, surface),
      !surface ? SCHEMAS[str(item, "event")] : plainObject(input) ? JSON.stringify(input) : '{"type":"object"}',
    ];
  });
}

function modelContext(win) {
  try {
    const doc = win.document;
    const mc = (doc && doc.modelContext) || (win.navigator && win.navigator.modelContext);
    return mc && typeof mc.registerTool === "function" ? mc : null;
  } catch {
    return null;
  }
}

/** Publications started so far (see the request-id prefix). */
let started = 0;

/** At most this long between a DOM change and the tools reflecting it (plus one read). */
const RESYNC_MS = 50;

/**
 * Starts a publication for an owner (a Surface when `surface`) and returns
 * what publishWebMcp() returns: { active, stop() }. Inactive where WebMCP is
 * absent or unless `live` (a retired owner). `send([request, resolve])`
 * resolves with the owner's answer, or undefined once the owner is gone.
 * A playable publication says hello first (it needs the pageId); then it
 * watches the root and publishes the first plan.
 */
export function start(win, root, surface, live, send) {
  const mc = live && modelContext(win);
  let stopped = !mc;
  let syncing = false;
  let again = false;
  let seq = 0;
  let pageId;
  let watcher;
  const tools = new Map(); // what is registered now: name → { key, withdraw }
  // Request ids never repeat (Surface refuses a replayed id): a random
  // prefix per publication, then a counter. Should crypto fail, the count
  // of publications started still tells them apart.
  let nonce = started++;
  try {
    nonce ^= win.crypto.getRandomValues(new Uint32Array(1))[0];
  } catch {
    // the count alone
  }
  const prefix = "webmcp-" + (nonce >>> 0).toString(16).padStart(8, "0") + "-";
  const ask = (cmd, id, input) =>
    stopped
      ? Promise.resolve()
      : new Promise((resolve) => send([request(surface, prefix + ++seq, pageId, cmd, id, input), resolve]));
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (watcher) watcher.stop();
    for (const entry of tools.values()) entry.withdraw();
    tools.clear();
  };
  // Reads afresh and brings the registered tools in line. One at a time; a
  // change during a sync triggers one more.
  const sync = async () => {
    if (stopped) return;
    if (syncing) {
      again = true;
      return;
    }
    syncing = true;
    do {
      again = false;
      const response = await ask(surface ? "describe" : "snapshot");
      if (stopped) break;
      if (response === undefined) {
        stop(); // the owner is gone
        break;
      }
      publish(mc, tools, response, surface, run);
    } while (again);
    syncing = false;
  };
  // One tool call: a run (or invoke) through the owner's handle.
  const run = async (id, input) => {
    const answer = await ask(surface ? "invoke" : "run", id, input);
    // The page may have changed in ways no mutation shows (an item hidden
    // by a stylesheet rule alone): re-read after every call.
    if (watcher && !stopped) watcher.schedule();
    return answer === undefined ? withdrawn(surface, pageId, id) : answer;
  };
  if (!stopped) {
    Promise.resolve().then(async () => {
      if (!surface) {
        const up = await ask("hello");
        pageId = up && up.ok === true && up.payload && typeof up.payload.pageId === "string" ? up.payload.pageId : undefined;
        if (pageId === undefined) return stop(); // retired: nothing to publish
      }
      if (stopped) return;
      watcher = watch(root, RESYNC_MS, sync);
      sync();
    });
  }
  return {
    get active() {
      return !stopped;
    },
    stop,
  };
}

/**
 * Brings a publication's registered tools (`tools`: name → { key, withdraw })
 * in line with the plan for `response` (see plan()): withdraws what went
 * away or changed, then registers what is new, so a replaced tool can take
 * its name again.
 */
function publish(mc, tools, response, surface, run) {
  let rows;
  try {
    rows = plan(surface, response);
  } catch {
    return;
  }
  if (!rows) return;
  const wanted = new Map(rows.map((t) => [t[0], t.join("\0")]));
  for (const [name, entry] of tools) {
    if (wanted.get(name) !== entry.key) {
      entry.withdraw();
      tools.delete(name);
    }
  }
  for (const [name, id, description, schema] of rows) {
    if (!tools.has(name)) {
      tools.set(name, { key: wanted.get(name), withdraw: register(mc, name, description, schema, id, run) });
    }
  }
}

/** Registers one tool; returns a function that withdraws it. */
function register(mc, name, description, schema, id, run) {
  const ctrl = new AbortController();
  const warn = (e) => {
    if (!ctrl.signal.aborted) console.warn("in-page-playable: WebMCP did not register tool " + JSON.stringify(name) + ": " + (e && e.message));
  };
  try {
    const done = mc.registerTool(
      { name, description, inputSchema: JSON.parse(schema), execute: (input) => run(id, input) },
      { signal: ctrl.signal },
    );
    if (done && typeof done.catch === "function") done.catch(warn);
  } catch (e) {
    warn(e);
  }
  return () => ctrl.abort();
}

/**
 * The request a publication sends through handle(): for a playable instance
 * a hello, snapshot or run downlink (a run's payload is the tool's arguments
 * plus its menu id); for a Surface a describe (all capabilities, one record)
 * or an invoke.
 */
function request(surface, requestId, pageId, cmd, id, input) {
  if (surface) {
    const r = { protocol: "pling.surface/0.1", id: requestId, method: cmd };
    if (cmd === "describe") r.input = { capabilities: "all", limit: 1 };
    else {
      r.capability = id;
      r.input = plainObject(input) ? input : {};
    }
    return r;
  }
  const payload = {};
  if (cmd === "run") {
    try {
      if (plainObject(input)) for (const k of Object.keys(input)) if (k !== "__proto__") payload[k] = input[k];
    } catch {
      // unreadable arguments: run with the id alone, the page decides
    }
    payload.id = id;
  }
  return { pageId: pageId ?? null, requestId, cmd, payload }; // no pageId yet: the hello
}

function plainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The answer to a call that raced stop(): nothing was run. */
function withdrawn(surface, pageId, id) {
  const message = JSON.stringify(id) + ": this WebMCP tool was withdrawn; nothing was run";
  return surface
    ? { protocol: "pling.surface/0.1", id: "", ok: false, error: { code: "CAPABILITY_NOT_EXPOSED", message } }
    : { pageId: pageId ?? null, requestId: "", ok: false, error: { code: "NOT_IN_MENU", message } };
}

/**
 * Calls onChange at most `ms` after the first of any burst of DOM changes
 * under root (coalesced, not postponed by later changes). schedule() asks for
 * one too; stop() ends it.
 */
function watch(root, ms, onChange) {
  let timer = 0;
  const fire = () => {
    timer = 0;
    onChange();
  };
  const schedule = () => {
    if (!timer) timer = setTimeout(fire, ms);
  };
  let observer = null;
  try {
    observer = new MutationObserver(schedule);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch {
    observer = null;
  }
  return {
    schedule,
    stop() {
      if (observer) observer.disconnect();
      clearTimeout(timer);
      timer = 0;
    },
  };
}

