// The acts of a WebMCP publication (src/webmcp/publication.rs decides
// what to publish and when): finding document.modelContext, registering a
// tool, withdrawing it, and watching the root for DOM changes. Never throws
// (a throw would cross into wasm).
//
// Chromium 156 (--enable-features=WebMCP) exposes document.modelContext
// (earlier drafts: navigator.modelContext). registerTool(tool, { signal })
// returns a promise and there is no unregisterTool: aborting the signal
// withdraws the tool. Invalid or duplicate names reject.

/** The window's model context when it can register tools, else null. */
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
 * Registers `tool` ({ name, description, inputSchema, annotations }) with
 * `execute: (input) => call(id, input)`; returns the AbortController that
 * withdraws it. A refused registration is a console warning (unless the
 * tool was withdrawn meanwhile).
 */
export function register(mc, tool, id, call) {
  const ctrl = new AbortController();
  const warn = (e) => {
    if (!ctrl.signal.aborted) {
      console.warn("in-page-playable: WebMCP did not register tool " + JSON.stringify(tool.name) + ": " + (e && e.message));
    }
  };
  try {
    tool.execute = (input) => call(id, input);
    const done = mc.registerTool(tool, { signal: ctrl.signal });
    if (done && typeof done.catch === "function") done.catch(warn);
  } catch (e) {
    warn(e);
  }
  return ctrl;
}

/** Withdraws what register() registered. */
export function withdraw(ctrl) {
  try {
    ctrl.abort();
  } catch {
    // already gone
  }
}

/**
 * Calls onChange at most `ms` after the first of any burst of DOM changes
 * under root (coalesced, not postponed by later changes). schedule() asks
 * for one too; stop() ends it.
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
