// WebMCP browser calls for src/webmcp/publication.rs. Rust decides which
// tools exist, their names, descriptions and schemas, and what running one
// does; this file only touches the browser API. Never throws.
//
// Chromium 156 (--enable-features=WebMCP) exposes document.modelContext
// (earlier drafts: navigator.modelContext). registerTool(tool, { signal })
// returns a promise and there is no unregisterTool: aborting the signal
// withdraws the tool. Invalid or duplicate names reject.

export function modelContext(win) {
  try {
    const doc = win.document;
    const mc = (doc && doc.modelContext) || (win.navigator && win.navigator.modelContext);
    return mc && typeof mc.registerTool === "function" ? mc : null;
  } catch {
    return null;
  }
}

/**
 * Brings a publication's registered tools (`tools`: name → { key, withdraw })
 * in line with the plan Rust made (JSON: [[name, id, description, schema], …]):
 * withdraws what went away or changed, then registers what is new, so a
 * replaced tool can take its name again.
 */
export function publish(mc, tools, planJson, run) {
  let plan;
  try {
    plan = JSON.parse(planJson);
  } catch {
    return;
  }
  const wanted = new Map(plan.map((t) => [t[0], t.join("\0")]));
  for (const [name, entry] of tools) {
    if (wanted.get(name) !== entry.key) {
      entry.withdraw();
      tools.delete(name);
    }
  }
  for (const [name, id, description, schema] of plan) {
    if (!tools.has(name)) {
      tools.set(name, { key: wanted.get(name), withdraw: register(mc, name, description, schema, id, run) });
    }
  }
}

/** Withdraws every tool of a publication. */
export function withdrawAll(tools) {
  for (const entry of tools.values()) entry.withdraw();
  tools.clear();
}

/** Registers one tool; returns a function that withdraws it. */
function register(mc, name, description, schema, id, run) {
  const ctrl = new AbortController();
  const warn = (e) => {
    if (!ctrl.signal.aborted) console.warn("in-page-playable: WebMCP did not register tool " + JSON.stringify(name) + ": " + (e && e.message));
  };
  try {
    const done = mc.registerTool(
      { name, description, inputSchema: JSON.parse(schema), execute: (input) => new Promise((resolve) => run([id, input, resolve])) },
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
export function request(surface, requestId, pageId, cmd, id, input) {
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
  return { pageId: cmd === "hello" ? null : pageId, requestId, cmd, payload };
}

function plainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The pageId a hello uplink carries, or undefined. */
export function helloPageId(up) {
  return up && up.ok === true && up.payload && typeof up.payload.pageId === "string" ? up.payload.pageId : undefined;
}

/** The answer to a call that raced stop(): nothing was run. */
export function withdrawn(surface, pageId, id) {
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
export function watch(root, ms, onChange) {
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

