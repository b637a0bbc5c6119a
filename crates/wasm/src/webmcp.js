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

/** Registers one tool; returns a function that withdraws it. */
export function register(mc, name, description, schema, id, run) {
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

/** The run downlink for a tool call: the tool's arguments plus its menu id. */
export function runEnvelope(pageId, requestId, id, input) {
  const payload = {};
  try {
    if (input && typeof input === "object" && !Array.isArray(input)) {
      for (const k of Object.keys(input)) if (k !== "__proto__") payload[k] = input[k];
    }
  } catch {
    // unreadable arguments: run with the id alone, the page decides
  }
  payload.id = id;
  return { pageId, requestId, cmd: "run", payload };
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

/** A Surface request for a publication: describe (all capabilities, one record) or invoke. */
export function surfaceRequest(id, method, capability, input) {
  const request = { protocol: "pling.surface/0.1", id, method };
  if (method === "describe") {
    request.input = { capabilities: "all", limit: 1 };
  } else {
    request.capability = capability;
    request.input = input && typeof input === "object" && !Array.isArray(input) ? input : {};
  }
  return request;
}
