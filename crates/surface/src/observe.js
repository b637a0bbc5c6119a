// Surface's page reader: one pass, one JSON string; the rules are in markers.rs.
// Visibility and the disabled facts are sense's own reads, passed in.

const ALL =
  '[data-e2e-kind="region"],[data-e2e-kind="record"],[data-e2e-kind="playable"],' +
  '[data-e2e-kind="status"],[data-e2e-kind="feedback"],[data-e2e-field],[data-e2e-pagetitle]';
const TEXTS = '[data-e2e-kind="status"],[data-e2e-kind="feedback"]';
// Row slot per attribute; a row ends at its last value.
const SLOT = {
  "data-e2e-id": 3, "data-e2e-field": 4, "data-e2e-record": 5, "data-e2e-title": 6, "data-e2e-state": 7,
  "data-e2e-active": 8, "data-e2e-unavailable": 9, "data-e2e-level": 10, "data-e2e-pagetitle": 11,
};
const RAW_MAX = 4000; // Rust collapses whitespace, then caps at 200 / 1000
// JSON.stringify as the module loaded it: a page that replaces it later
// cannot break the page read.
const jsonStringify = JSON.stringify;
const serials = new WeakMap();
let nextSerial = 1;

const cut = (s) => (s.length > RAW_MAX ? s.slice(0, RAW_MAX) : s);
const UNSEEN = new Set(["script", "style", "noscript", "template"]);

// What a person sees of el: a rendered element's innerText (no hidden
// descendants, no script or style); for one not rendered (in a hidden
// region, say, where innerText is all of textContent), its text outside
// script, style, noscript and template.
function seen(el) {
  if (el.getClientRects().length && typeof el.innerText === "string") return el.innerText;
  const skip = (n) => (n.nodeType === 1 && UNSEEN.has(n.localName) ? 2 : 1); // FILTER_REJECT skips the subtree
  const walk = el.ownerDocument.createTreeWalker(el, 5, skip); // SHOW_ELEMENT | SHOW_TEXT
  let s = "";
  for (let n = walk.nextNode(); n && s.length <= RAW_MAX; n = walk.nextNode()) if (n.nodeType === 3) s += n.data;
  return s;
}

/** `[documentSerial, href, documentTitle, rows]` as JSON (see markers.rs), or why not; never throws. */
export function observe(root, all, checks) {
  try {
    return gather(root, all, checks);
  } catch (e) {
    return "reading the scan root failed: " + String((e && e.message) || "not a Document, ShadowRoot or Element");
  }
}

function gather(root, all, [isVisible, disabledFacts]) {
  const doc = root.nodeType === 9 ? root : root.ownerDocument;
  let serial = serials.get(doc);
  if (!serial) serials.set(doc, (serial = nextSerial++));
  const selector = all ? ALL : TEXTS;
  const els = Array.from(root.querySelectorAll(selector));
  if (root.nodeType === 1 && root.matches(selector)) els.unshift(root);
  const rows = [];
  const open = []; // enclosing [region/record element, row index]
  for (let i = 0; i < els.length; i++) {
    const el = els[i];
    while (open.length && !open[open.length - 1][0].contains(el)) open.pop();
    const kind = el.getAttribute("data-e2e-kind");
    const texts = kind === "status" || kind === "feedback";
    const playable = kind === "playable";
    // Bit 0: visible; a playable's disabled facts above it (sense's wire.rs bits).
    const flags = (((kind === "region" || texts || playable) && isVisible(el) ? 1 : 0) | (playable ? disabledFacts(el) : 0)) >>> 0;
    const row = [open.length ? open[open.length - 1][1] : -1, flags, kind];
    for (const a of el.attributes) {
      const slot = SLOT[a.name];
      if (slot === undefined) continue;
      while (row.length < slot) row.push(null);
      row[slot] = cut(a.value);
    }
    if (texts || row[4] != null) {
      while (row.length < 12) row.push(null);
      row[12] = cut(seen(el) || "");
    }
    rows.push(row);
    if (kind === "region" || kind === "record") open.push([el, i]);
  }
  const href = doc && doc.location ? doc.location.href : (doc && doc.URL) || "";
  return jsonStringify([serial, href, cut((doc && doc.title) || ""), rows]);
}

/** Resolves true on the next change under root that could alter status or feedback, false at `deadline` (ms since the epoch). */
export function nextChange(root, deadline) {
  return new Promise((resolve) => {
    const ms = deadline - Date.now();
    if (!(ms > 0)) return resolve(false);
    const done = (changed) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(changed);
    };
    const observer = new MutationObserver(() => done(true));
    // setTimeout fires at once beyond 2^31-1 ms.
    const timer = setTimeout(() => done(false), Math.min(ms, 2147483647));
    // hidden, style, class: a hidden status or feedback shown counts too.
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-e2e-kind", "hidden", "style", "class"] });
  });
}

/** Record elements of `kind` with `id` under root (root included). */
export function findRecords(root, kind, id) {
  const all = Array.from(root.querySelectorAll('[data-e2e-kind="record"]'));
  if (root.nodeType === 1) all.unshift(root);
  return all.filter((el) => el.getAttribute("data-e2e-kind") === "record" && el.getAttribute("data-e2e-record") === kind && el.getAttribute("data-e2e-id") === id);
}

