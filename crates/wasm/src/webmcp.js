// The acts of a WebMCP publication (src/webmcp/publication.rs and
// plan.rs decide what to publish and when): finding document.modelContext,
// registering a tool, withdrawing it, and observing the root and its open
// shadow roots for DOM changes. Never throws (a throw would cross into wasm).
//
// Chromium 156 (--enable-features=WebMCP) exposes document.modelContext
// (earlier drafts: navigator.modelContext). registerTool(tool, { signal })
// returns a promise and there is no unregisterTool: aborting the signal
// withdraws the tool. Invalid or duplicate names reject.

// As the module loaded it: a page's later replacement cannot make the
// refusal warning throw (into wasm).
const quote = JSON.stringify;

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
 * `execute: (input) => call(id, input)`; returns the registration
 * `{ ctrl, refused }`: `ctrl` is the AbortController that withdraws it, and
 * `refused` turns true when the browser refuses it (registerTool threw, or
 * its promise rejected), a fact Rust reads (webmcp/publication.rs decides
 * what it means). `refused` is an own data property of a literal, so
 * reading it runs no page code. A refusal is also a console warning
 * unless the tool was withdrawn meanwhile.
 */
export function register(mc, tool, id, call) {
  const ctrl = new AbortController();
  const registration = { ctrl, refused: false };
  const warn = (e) => {
    registration.refused = true;
    // (A page may have replaced console.warn, or e.message, with a throw.)
    try {
      if (!ctrl.signal.aborted) console.warn("in-page-playable: WebMCP did not register tool " + quote(tool.name) + ": " + (e && e.message));
    } catch {
      // the fact above is what counts
    }
  };
  try {
    tool.execute = (input) => call(id, input);
    const done = mc.registerTool(tool, { signal: ctrl.signal });
    if (done && typeof done.catch === "function") done.catch(warn);
  } catch (e) {
    warn(e);
  }
  return registration;
}

/** Withdraws what register() registered. */
export function withdraw(registration) {
  try {
    registration.ctrl.abort();
  } catch {
    // already gone
  }
}

const CHANGES = { subtree: true, childList: true, attributes: true, characterData: true };
/** observer → { root, seen }: its root and the shadow roots it observes. */
const watches = new WeakMap();

/**
 * Observes DOM changes under root (child lists, attributes, text), calling
 * onChange() for each batch; the observer, or null when root cannot be
 * observed. When to re-read is decided in Rust (webmcp/plan.rs, Resync).
 */
export function observe(root, onChange) {
  try {
    const observer = new MutationObserver(() => onChange());
    observer.observe(root, CHANGES);
    watches.set(observer, { root, seen: new WeakSet() });
    return observer;
  } catch {
    return null;
  }
}

/**
 * Makes observer (from observe()) observe every open shadow root under its
 * root (the root's own, nested ones too) it does not observe yet: a subtree
 * observer does not see into shadow trees, which the menu read includes.
 * Called before each re-read, so a shadow root attached since the last one
 * is watched from then on.
 */
export function watchShadows(observer) {
  const watch = watches.get(observer);
  const add = (shadow) => {
    if (!watch.seen.has(shadow)) {
      watch.seen.add(shadow);
      observer.observe(shadow, CHANGES);
    }
    walk(shadow);
  };
  const walk = (node) => {
    const all = node.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) if (all[i].shadowRoot) add(all[i].shadowRoot);
  };
  try {
    if (watch.root.shadowRoot) add(watch.root.shadowRoot);
    walk(watch.root);
  } catch {
    // no watch, or a page script's getter threw: what was found stays watched
  }
}

/** Disconnects what observe() returned. */
export function disconnect(observer) {
  try {
    observer.disconnect();
  } catch {
    // already gone
  }
}
