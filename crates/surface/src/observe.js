// The Surface page vocabulary, read in one pass and handed to Rust as one
// JSON string. The rules (what counts, what belongs to which record, text
// caps) live in markers.rs; this file only reads the DOM. Visibility and
// enabled state come from sense's own checks, passed in, so they are the
// same rules the playable menu uses.

const ALL =
  '[data-e2e-kind="region"],[data-e2e-kind="record"],[data-e2e-kind="playable"],' +
  '[data-e2e-kind="status"],[data-e2e-kind="feedback"],[data-e2e-field],[data-e2e-pagetitle]';
const TEXTS = '[data-e2e-kind="status"],[data-e2e-kind="feedback"]';
// Row slot of each attribute (see markers.rs); rows end at their last value.
const SLOT = {
  "data-e2e-id": 3, "data-e2e-field": 4, "data-e2e-record": 5, "data-e2e-title": 6, "data-e2e-state": 7,
  "data-e2e-active": 8, "data-e2e-unavailable": 9, "data-e2e-level": 10, "data-e2e-pagetitle": 11,
};
const RAW_MAX = 4000; // generous: Rust collapses whitespace, then caps (200 / 1000)
const TIMER_MAX = 2147483647; // setTimeout fires at once beyond this

const serials = new WeakMap();
let nextSerial = 1;

function cut(s) {
  return s !== null && s.length > RAW_MAX ? s.slice(0, RAW_MAX) : s;
}

function docOf(root) {
  return root.nodeType === 9 ? root : root.ownerDocument;
}

/** `[documentSerial, href, documentTitle, rows]`, stringified (see markers.rs). */
export function observe(root, all, checks) {
  const [isVisible, isEnabled] = checks;
  const doc = docOf(root);
  let serial = serials.get(doc);
  if (!serial) serials.set(doc, (serial = nextSerial++));
  const selector = all ? ALL : TEXTS;
  const els = [];
  if (root.nodeType === 1 && root.matches(selector)) els.push(root);
  const list = root.querySelectorAll(selector);
  for (let i = 0; i < list.length; i++) els.push(list[i]);
  const rows = new Array(els.length);
  const open = []; // enclosing region/record elements and their row index
  for (let i = 0; i < els.length; i++) {
    const el = els[i];
    while (open.length && !open[open.length - 1][0].contains(el)) open.pop();
    const kind = el.getAttribute("data-e2e-kind");
    let flags = 0;
    if (kind === "region" && isVisible(el)) flags |= 1;
    if (kind === "playable" && isEnabled(el)) flags |= 2;
    const row = [open.length ? open[open.length - 1][1] : -1, flags, kind];
    const attrs = el.attributes;
    for (let j = 0; j < attrs.length; j++) {
      const slot = SLOT[attrs[j].name];
      if (slot !== undefined) {
        while (row.length < slot) row.push(null);
        row[slot] = cut(attrs[j].value);
      }
    }
    if (kind === "status" || kind === "feedback" || row[4] != null) {
      while (row.length < 12) row.push(null);
      row[12] = cut(el.textContent || "");
    }
    rows[i] = row;
    if (kind === "region" || kind === "record") open.push([el, i]);
  }
  const href = doc && doc.location ? doc.location.href : (doc && doc.URL) || "";
  return JSON.stringify([serial, href, cut((doc && doc.title) || ""), rows]);
}

/**
 * Resolves true on the next change under `root` that could alter status or
 * feedback text, false once `ms` pass first. A MutationObserver, not polling.
 */
export function nextChange(root, ms) {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => finish(true));
    const timer = setTimeout(() => finish(false), Math.max(0, Math.min(ms, TIMER_MAX)));
    function finish(changed) {
      observer.disconnect();
      clearTimeout(timer);
      resolve(changed);
    }
    observer.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["data-e2e-kind"],
    });
  });
}

/** The record elements `[data-e2e-kind=record][data-e2e-record=kind][data-e2e-id=id]` under root. */
export function findRecords(root, kind, id) {
  const out = [];
  const candidates = [];
  if (root.nodeType === 1) candidates.push(root);
  const list = root.querySelectorAll('[data-e2e-kind="record"]');
  for (let i = 0; i < list.length; i++) candidates.push(list[i]);
  for (const el of candidates) {
    if (el.getAttribute("data-e2e-kind") === "record" && el.getAttribute("data-e2e-record") === kind && el.getAttribute("data-e2e-id") === id) {
      out.push(el);
    }
  }
  return out;
}
