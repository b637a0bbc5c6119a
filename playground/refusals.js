// What each refusal means, in words a person reads at a glance. Every refusal
// has zero side effects: nothing was clicked, nothing in the page changed.
export const REFUSALS = {
  BAD_REQUEST: {
    short: "Malformed request",
    why: "The envelope is not an object, or requestId / cmd / payload is missing or of the wrong type.",
    next: "Send { pageId, requestId, cmd, payload } with the right types.",
  },
  UNKNOWN_CMD: {
    short: "No such command",
    why: "cmd is a string but not hello, snapshot, run or escape.",
    next: "Use one of the four commands.",
  },
  NOT_LIVE: {
    short: "Say hello first",
    why: "snapshot, run and escape need a live page; this instance has not answered a hello yet.",
    next: "Send hello and keep the pageId it returns.",
  },
  RETIRED: {
    short: "This document is gone",
    why: "A reload escape retired this instance. The reloaded document has a new instance with a new pageId.",
    next: "Send hello to the new document.",
  },
  PAGE_MISMATCH: {
    short: "Wrong page",
    why: "The request's pageId is not this page's current pageId: it talks about another page or an old one.",
    next: "Use the pageId from this page's hello.",
  },
  NOT_IN_MENU: {
    short: "Not on the menu",
    why: "The id is empty, has a generic ref's shape (g0, g1, …: visible but never runnable, even on a playable), or the page does not declare it right now.",
    next: "Pick an id from a fresh snapshot's menu.",
  },
  AMBIGUOUS: {
    short: "Two elements claim this id",
    why: "More than one element carries this data-e2e-id, so the page cannot say which one is meant.",
    next: "The page must give each action its own id.",
  },
  NOT_ACTIONABLE: {
    short: "Can't be used now",
    why: "The item is declared but disabled, hidden or detached at this moment.",
    next: "Change what makes it available (e.g. open an order, go to another page), then snapshot again.",
  },
  UNSUPPORTED_EVENT: {
    short: "Can't dispatch that event",
    why: "The item declares an event this version cannot perform (e.g. hover).",
    next: "A person has to do this one.",
  },
  ESCAPE_NOT_ALLOWED: {
    short: "Reload refused",
    why: "The page holds unsaved work (data-e2e-dirty) or forbids reload (data-e2e-noreload), or the escape type is not reload.",
    next: "Save or clear the unsaved work first; the agent never throws it away.",
  },
  DISPATCH_FAILED: {
    short: "The browser said no",
    why: "The click or reload was attempted and the browser reported a failure.",
    next: "Snapshot again and check the page.",
  },
  INTERNAL: {
    short: "Unexpected failure",
    why: "Something went wrong inside the module. This is a bug.",
    next: "Report it with the request that caused it.",
  },
  // Not uplink codes: installation failures (PlayableLoadError.code).
  WASM_BLOCKED_BY_CSP: {
    short: "Blocked by the page's CSP",
    why: "The page's Content-Security-Policy forbids compiling WebAssembly, so nothing was installed.",
    next: "Add 'wasm-unsafe-eval' to the page's script-src.",
  },
  WASM_LOAD_FAILED: {
    short: "Module did not load",
    why: "The WebAssembly file could not be fetched or instantiated, so nothing was installed.",
    next: "Run npm run build and check the network panel.",
  },
};

const KNOWN_EVENTS = ["click", "input", "drag", "scroll"];

/** What the console predicts a run of this menu item would answer, or null when it would run. */
export function predictRun(item) {
  if (/^g\d+$/.test(item.id)) return "NOT_IN_MENU"; // a generic ref's shape: no run takes it
  if (item.ambiguous) return "AMBIGUOUS";
  if (!item.enabled || !item.visible) return "NOT_ACTIONABLE";
  if (!KNOWN_EVENTS.includes(item.event)) return "UNSUPPORTED_EVENT";
  return null;
}
