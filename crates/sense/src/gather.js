// The DOM side of sense's read: two bulk reads that return raw facts, packed
// in the wire format of wire.rs (one text as UTF-8 bytes plus one integer
// array), so the Rust side converts a single string and copies one integer
// array instead of crossing the wasm boundary per attribute.
//
// Every rule lives in Rust: which elements are read (the selector comes from
// rules.rs), their roles, which are interactive or disabled, which details
// are needed (read.rs asks for them), what a name is and how it is capped.
// This file reads what it is told to. What stays here is `isVisible`: one
// function that the gather, bot (per element) and Surface's observe.js (in
// its own bulk loop) all apply, so the visibility rule has one home (with
// `boxOf`, the box bot aims at and watches, judged the same way). The
// disabled state is read as facts the same way for all three
// (`browserFacts`), and decided in Rust (`rules::is_disabled`).

const HREF = 1, EDITABLE = 2, NORELOAD = 4, INERT = 8, MULTIPLE = 16, SLOT_DISABLED = 32; // wire.rs FACT_*
const VISIBLE = 1, DISABLED = 2, REFS = 4, MODAL = 8, IN_MODAL = 16, DISABLING = 32; // wire.rs DETAIL_*
const FIELDSETS = 16, LEGENDS = 24; // wire.rs DETAIL_*_SHIFT
const FIELD_SHIFT = 8;
const VALUE = 1 << FIELD_SHIFT, LABEL = VALUE << 1, PLACEHOLDER = VALUE << 2, TITLE = VALUE << 3;
const ALT = VALUE << 4, TEXT = VALUE << 5, IMG_ALT = VALUE << 6;

const VISIBILITY = { visibilityProperty: true };

/**
 * Connected, rendered, not visibility:hidden, and not zero-size; an element
 * rendered without a box of its own by what it shows (`boxless`). `known`:
 * a bulk read's memo for `rendered`.
 */
export function isVisible(el, known) {
  if (!el.isConnected) return false;
  // Only elements without a rendered box take the slower reads.
  if (!el.checkVisibility(VISIBILITY)) return boxless(el, known) !== null;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/** `isVisible` for one bulk read: a fresh memo shared by its elements. */
function visibility() {
  const known = new Map();
  return (el) => isVisible(el, known);
}

/**
 * The box where `el` shows and takes clicks (bot's centre, hit test and
 * stability): its bounding box, or `boxless`'s when it has no box of its own.
 */
export function boxOf(el) {
  return (!el.checkVisibility(VISIBILITY) && boxless(el)) || el.getBoundingClientRect();
}

/**
 * The box of an element that is rendered without a box of its own, or null:
 * a `display: contents` element's is the union of its rendered children's
 * (`contentsBox`), an `<area>`'s its region of the image that uses its map
 * (`areaBox`). Null for an element that is just not rendered.
 */
function boxless(el, known) {
  if (el.localName === "area" && el.shape !== undefined) return areaBox(el);
  // It shows only inside a rendered flat parent: an element under
  // display:none stops here, without reading its own style (slow there),
  // and its siblings share its parent's answer through `known`.
  const up = flatParent(el);
  return up !== null && rendered(up, known) ? contentsBox(el) : null;
}

/** `el` has a box, or is `display: contents` in a rendered flat parent. */
function rendered(el, known) {
  let yes = known === undefined ? undefined : known.get(el);
  if (yes !== undefined) return yes;
  if (el.checkVisibility()) yes = true;
  else {
    const up = flatParent(el);
    yes = up !== null && rendered(up, known) && display(el).display === "contents";
  }
  if (known !== undefined) known.set(el, yes);
  return yes;
}

function display(el) {
  const view = el.ownerDocument.defaultView;
  return view === null ? {} : view.getComputedStyle(el);
}

/**
 * The box of a `display: contents` element whose flat parent is rendered
 * (else null): the union of its flat-tree children's (a host's shadow
 * content, a slot's assigned nodes): an element child's box, or a text
 * child's when it is not `visibility: hidden`. As Playwright judges it,
 * null when no child shows.
 */
function contentsBox(el) {
  const style = display(el);
  if (style.display !== "contents") return null;
  let box = null;
  for (const kid of el.shadowRoot ? el.shadowRoot.childNodes : slotted(el)) {
    let r = null;
    if (kid.nodeType === 1) r = kid.checkVisibility(VISIBILITY) ? kid.getBoundingClientRect() : contentsBox(kid);
    else if (kid.nodeType === 3 && style.visibility === "visible") {
      const range = el.ownerDocument.createRange();
      range.selectNode(kid);
      r = range.getBoundingClientRect();
    }
    if (r && r.width > 0 && r.height > 0) box = box ? union(box, r) : r;
  }
  return box;
}

/** A `<slot>`'s children in the flat tree: its assigned nodes, else its own (the fallback). */
function slotted(el) {
  const assigned = el.assignedNodes ? el.assignedNodes() : [];
  return assigned.length ? assigned : el.childNodes;
}

function union(a, b) {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/**
 * An `<area>`'s box: its region inside the first visible `<img>` that uses
 * its map (`usemap` naming the `<map name>` it sits in, in its tree), where
 * Chromium hit-tests it: `coords` from the image's border box's top-left,
 * cut to the image. Each shape is taken as a polygon (`rect`, also a
 * missing or unknown `shape`: its two corners; `circle`: its bounding
 * square; `default`: the whole image) and the box is, on the row through
 * the middle of its bounds, its widest span, over the bounds' height: the
 * shape itself for a rectangle, and a point inside any polygon at its
 * centre. Null without such an image, or when the region is empty (coords
 * too few for the shape: no click lands on it).
 */
function areaBox(area) {
  const map = area.closest("map");
  let img = null;
  if (map && map.name) {
    for (const i of area.getRootNode().querySelectorAll("img[usemap]")) {
      const use = i.getAttribute("usemap");
      if (img === null && use.slice(use.indexOf("#")) === "#" + map.name && isVisible(i)) img = i;
    }
  }
  if (img === null) return null;
  const b = img.getBoundingClientRect(), w = b.width, h = b.height;
  const c = area.coords.split(/[\s,;]+/).filter(Boolean).map((t) => parseFloat(t) || 0);
  const [x, y, r] = c, shape = area.shape.toLowerCase();
  const p = shape === "default" ? [0, 0, w, 0, w, h, 0, h]
    : shape === "circle" || shape === "circ" ? (r > 0 ? [x - r, y - r, x + r, y - r, x + r, y + r, x - r, y + r] : [])
    : shape === "poly" || shape === "polygon" ? (c.length > 5 ? c.slice(0, c.length & ~1) : [])
    : c.length > 3 ? [x, y, c[2], y, c[2], c[3], x, c[3]] : [];
  const ys = p.filter((_, i) => i & 1);
  const top = Math.max(0, Math.min(...ys)), bottom = Math.min(h, Math.max(...ys)), mid = (top + bottom) / 2;
  // Where the edges cross the middle row, in order: inside between each pair.
  const xs = [];
  for (let i = 0, n = p.length; i < n; i += 2) {
    const j = (i + 2) % n;
    if (p[i + 1] > mid !== p[j + 1] > mid) xs.push(p[i] + ((mid - p[i + 1]) * (p[j] - p[i])) / (p[j + 1] - p[i + 1]));
  }
  xs.sort((u, v) => u - v);
  let box = null;
  for (let i = 1; i < xs.length && bottom > top; i += 2) {
    const left = Math.max(0, xs[i - 1]), span = Math.min(w, xs[i]) - left;
    if (span > 0 && !(box && box.width >= span)) box = { x: b.x + left, y: b.y + top, width: span, height: bottom - top };
  }
  return box;
}

/** The open modal dialog of `el`'s document, if any (`modalIn`). */
function modalOf(el) {
  const doc = el.ownerDocument;
  return doc ? modalIn(doc) : null;
}

/**
 * The open modal dialog of `doc`: in its light tree, else in its open shadow
 * roots, which `dialog:modal` on the document does not search (a web
 * component's own `<dialog>` opened with `showModal()`). `hosts`: the
 * document's shadow hosts when the caller already found them (the gather
 * did, for a Document root); else they are looked for here, which reads
 * every element, and only when the light tree has no modal dialog.
 */
function modalIn(doc, hosts) {
  const modal = doc.querySelector("dialog:modal");
  return modal !== null ? modal : shadowModal(hosts === undefined ? shadowHosts(doc) : hosts);
}

function shadowModal(hosts) {
  for (let i = 0; i < hosts.length; i++) {
    const root = hosts[i].shadowRoot;
    const modal = root.querySelector("dialog:modal") || shadowModal(shadowHosts(root));
    if (modal !== null) return modal;
  }
  return null;
}

/**
 * `modal` holds `el` in the flat tree, as the browser's inertness counts it:
 * the dialog's shadow content, through its hosts, and light children slotted
 * into a dialog that sits in a shadow root (a component's
 * `<dialog><slot></slot></dialog>`) are inside it.
 */
function holds(modal, el) {
  if (modal.contains(el)) return true;
  for (let n = el; n !== null; n = flatParent(n)) if (n === modal) return true;
  return false;
}

/**
 * `n`'s parent element in the flat tree: the slot it is assigned to, else
 * its parent, a shadow root's host for a shadow root's child (null at the
 * top of the document).
 */
function flatParent(n) {
  const up = n.assignedSlot || n.parentNode;
  if (!up) return null;
  return up.nodeType === 1 ? up : up.host || null;
}

/**
 * What the browser says of `el`'s disabled state, as the bits of wire.rs
 * (`DETAIL_DISABLED` …, `Disabling`): whether it matches `:disabled`, the
 * `<fieldset disabled>` elements it is in and how many of them hold it in
 * their first `<legend>` child (each counted up to 255), whether an open
 * modal dialog (`modal`) exists and holds it. Whether that disables it is
 * Rust's (`rules::is_disabled`).
 */
function browserFacts(el, modal) {
  let bits = el.matches(":disabled") ? DISABLED : 0;
  if (modal !== null) bits |= holds(modal, el) ? MODAL | IN_MODAL : MODAL;
  let sets = 0, legends = 0;
  for (let set = el.closest("fieldset[disabled]"); set; set = set.parentElement && set.parentElement.closest("fieldset[disabled]")) {
    sets++;
    const legend = set.querySelector(":scope > legend");
    if (legend && legend.contains(el)) legends++;
  }
  return (bits | (Math.min(sets, 255) << FIELDSETS) | (Math.min(legends, 255) << LEGENDS)) >>> 0;
}

/**
 * `el` or an ancestor in the flat tree matches `selector`, as the browser
 * counts inertness and Chromium's accessibility tree `aria-disabled`: an
 * `inert` or `aria-disabled` host disables its shadow content, and one
 * around a `<slot>` in a shadow tree the light content slotted into it
 * (`closest` alone stops at the shadow root, and never enters a slot).
 */
function closestComposed(el, selector) {
  if (el.closest(selector) !== null) return true;
  // `closest` tested el's own tree; what it skips starts at the first
  // ancestor-or-self assigned to a slot (its flat parent: the slot, whose
  // flat ancestors reach the host), else at the tree's host.
  let n = el;
  while (n.assignedSlot === null && n.parentElement !== null) n = n.parentElement;
  const next = n.assignedSlot || (n.parentNode && n.parentNode.host) || null;
  return next !== null && closestComposed(next, selector);
}

/**
 * What an `inert` or disabling (`selector`) element around a `<slot>` in
 * the shadow roots `roots` disables: the light elements assigned to such a
 * slot (and so their subtrees), which the gather's records, where light
 * children sit under their host, do not show inside it. Empty when no
 * shadow root holds such an element (the usual case: then no slot is read).
 */
function slotDisabled(roots, selector) {
  const out = new Set();
  if (!roots.some((root) => root.querySelector(selector) !== null)) return out;
  for (const root of roots) {
    for (const slot of root.querySelectorAll("slot")) {
      if (closestComposed(slot, selector)) for (const a of slot.assignedElements()) out.add(a);
    }
  }
  return out;
}

/** `el` or an ancestor (through the shadow roots it sits in) is in `set`. */
function underAny(set, el) {
  for (let n = el; n; n = n.parentElement || (n.parentNode && n.parentNode.host) || null) if (set.has(n)) return true;
  return false;
}

/** `browserFacts`, plus whether `el` or an ancestor matches `disabling` (Rust's selector). */
function facts(el, disabling, modal) {
  return (browserFacts(el, modal) | (closestComposed(el, disabling) ? DISABLING : 0)) >>> 0;
}

/** The disabled facts of one element (bot, per run). */
export function disabledFacts(el, disabling) {
  return facts(el, disabling, modalOf(el));
}

/**
 * [isVisible, disabledFacts], so other bulk readers (Surface) read the same
 * facts: one pair per read, which looks the open modal dialog up once, not
 * once per element.
 */
export function checks(disabling) {
  let modal;
  return [
    visibility(),
    (el) => {
      if (modal === undefined) modal = modalOf(el);
      return facts(el, disabling, modal);
    },
  ];
}

/** `a` contains `el`, looking through the shadow roots `el` sits in (when `deep`). */
function within(a, el, deep) {
  if (a.contains(el)) return true;
  for (let n = deep ? el.getRootNode().host : null; n; n = n.getRootNode().host) {
    if (a.contains(n)) return true;
  }
  return false;
}

/** Open shadow roots below `root` (closed ones are invisible by design). */
function shadowHosts(root) {
  const hosts = [];
  // A live collection iterates faster than a static NodeList of every element;
  // ShadowRoot has no getElementsByTagName.
  const all = root.getElementsByTagName ? root.getElementsByTagName("*") : root.querySelectorAll("*");
  for (let i = 0, n = all.length; i < n; i++) if (all[i].shadowRoot !== null) hosts.push(all[i]);
  return hosts;
}

/**
 * The elements of `root` matching `selector` in document order; each open
 * shadow root's elements follow right after its host (before the host's
 * light children), recursively. Without shadow roots this is the query's own
 * NodeList (no copy). Also returns the shadow hosts found at the top level,
 * and every open shadow root read.
 */
function collect(root, selector) {
  const list = root.querySelectorAll(selector);
  const self = root.nodeType === 1 && root.matches(selector);
  const hosts = shadowHosts(root);
  if (root.nodeType === 1 && root.shadowRoot !== null) hosts.unshift(root);
  if (hosts.length === 0 && !self) return [list, hosts, hosts];
  const els = [], roots = [];
  if (self) els.push(root);
  merge(list, hosts, els, selector, roots);
  return [els, hosts, roots];
}

function collectInto(root, els, selector, roots) {
  roots.push(root);
  merge(root.querySelectorAll(selector), shadowHosts(root), els, selector, roots);
}

function merge(list, hosts, els, selector, roots) {
  let h = 0;
  for (let i = 0; i < list.length; i++) {
    const el = list[i];
    while (h < hosts.length && hosts[h] !== el && hosts[h].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
      collectInto(hosts[h++].shadowRoot, els, selector, roots);
    }
    els.push(el);
    if (h < hosts.length && hosts[h] === el) collectInto(hosts[h++].shadowRoot, els, selector, roots);
  }
  while (h < hosts.length) collectInto(hosts[h++].shadowRoot, els, selector, roots);
}

/**
 * The windows of the frames of `root` (a Document: its window's `frames`),
 * then those of the frames in its open shadow roots, recursively, which
 * `frames` leaves out (a frame not loaded has none: null). A reload reloads
 * them all.
 */
export function frameWindows(root, out = Array.from(root.defaultView || [])) {
  for (const host of shadowHosts(root)) {
    for (const frame of host.shadowRoot.querySelectorAll("iframe,object")) out.push(frame.contentWindow);
    frameWindows(host.shadowRoot, out);
  }
  return out;
}

const encoder = new TextEncoder();

// Attribute name → field index (wire.rs `Facts` order, after the tag) or
// FACT_* flag (as its negation): one getAttributeNames() per element, then
// only the attributes it has are read (about twice as fast as asking for
// each by name).
const ATTRIBUTES = new Map([
  ["data-e2e-kind", 1], ["data-e2e-id", 2], ["data-e2e-event", 3], ["data-e2e-title", 4],
  ["data-e2e-desc", 5], ["data-e2e-pagetitle", 6], ["data-e2e-dirty", 7], ["role", 8],
  ["aria-label", 9], ["type", 10], ["tabindex", 11], ["aria-disabled", 12], ["size", 13],
  ["href", -HREF], ["data-e2e-noreload", -NORELOAD], ["inert", -INERT], ["multiple", -MULTIPLE],
]);

/**
 * The facts of every element of `root` (and its open shadow roots) that
 * matches `selector`: [text, ints, elements, above, hosts] in the wire format of
 * wire.rs (the ints as the bytes of a Uint32Array). Per element: a head
 * (FACT_* bits, one presence bit per field), the index one past its last
 * descendant, then each present field's length in UTF-16 units (the tag,
 * then the attributes of ATTRIBUTES); the values go into text back to back,
 * handed over as UTF-8 bytes (TextEncoder is native and much faster than
 * wasm-bindgen's per-character string copy). `above`: an ancestor of an
 * element root matches `ancestors`. `hosts`: for a Document root, its
 * shadow hosts, which `details` hands to `modalIn` (else `undefined`).
 */
export function gather(root, selector, ancestors) {
  const [els, hosts, roots] = collect(root, selector);
  const deep = hosts.length > 0;
  const count = els.length;
  const bySlot = slotDisabled(roots, ancestors);

  let ints = new Uint32Array(count * 4 + 32);
  let len = 0;
  let text = "";
  const values = [];
  // The open elements (those with children) and where their end goes.
  const open = [], openAt = [];
  for (let i = 0; i < count; i++) {
    const el = els[i];
    while (open.length && !within(open[open.length - 1], el, deep)) {
      open.pop();
      ints[openAt.pop()] = i;
    }
    if (len + 20 > ints.length) {
      const grown = new Uint32Array(ints.length * 2);
      grown.set(ints);
      ints = grown;
    }
    let head = 1 << FIELD_SHIFT; // the tag
    if (el.isContentEditable) head |= EDITABLE;
    if (bySlot.size > 0 && underAny(bySlot, el)) head |= SLOT_DISABLED;
    const names = el.getAttributeNames();
    for (let k = 0; k < names.length; k++) {
      const f = ATTRIBUTES.get(names[k]);
      if (f === undefined) continue;
      if (f < 0) head |= -f;
      else {
        head |= 1 << (FIELD_SHIFT + f);
        values[f] = el.getAttribute(names[k]);
      }
    }
    const at = len;
    ints[at] = head;
    len += 2;
    values[0] = el.tagName;
    for (let f = 0, bits = head >>> FIELD_SHIFT; bits !== 0; f++, bits >>>= 1) {
      if (bits & 1) {
        ints[len++] = values[f].length;
        text += values[f];
      }
    }
    if (el.firstElementChild === null && el.shadowRoot === null) ints[at + 1] = i + 1;
    else {
      open.push(el);
      openAt.push(at + 1);
    }
  }
  while (open.length) {
    open.pop();
    ints[openAt.pop()] = count;
  }
  // The root's parent in the flat tree: a ShadowRoot's host, or an element
  // root's slot or parent (its host when it is a shadow root's child).
  const parent = root.nodeType === 1 ? flatParent(root) : root.host || null;
  const above = parent !== null && closestComposed(parent, ancestors);
  // The integers as their bytes: the Rust side reads both as Uint8Array.
  return [encoder.encode(text), new Uint8Array(ints.buffer, 0, len * 4), els, above, root.nodeType === 9 ? hosts : undefined];
}

/** Runs of the characters Rust's `char::is_whitespace` takes. */
const WHITESPACE_RUNS = /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/** Elements whose text is never rendered (a component's own `<style>`). */
const UNRENDERED = new Set(["style", "script"]);

/**
 * `n`'s children in the flat tree, as the browser renders them: a shadow
 * host's are its shadow root's (its light children come in only through
 * slots); a slot's are the nodes assigned to it, flattened, else its
 * fallback content (a slot outside a shadow tree has none assigned).
 */
function flatKids(n) {
  if (n.shadowRoot !== null) return n.shadowRoot.childNodes;
  if (n.localName === "slot" && typeof n.assignedNodes === "function") {
    const assigned = n.assignedNodes({ flatten: true });
    if (assigned.length > 0) return assigned;
  }
  return n.childNodes;
}

/**
 * Calls `visit` on each node below `el` in the flat tree, in order, leaving
 * out what is inside `UNRENDERED` elements; stops when `visit` returns true.
 * A loop, not recursion: a page's nesting depth is its own.
 */
function flatWalk(el, visit) {
  const lists = [flatKids(el)], at = [0];
  while (lists.length) {
    const top = lists.length - 1;
    const n = lists[top][at[top]++];
    if (n === undefined) {
      lists.pop();
      at.pop();
    } else if (visit(n)) return;
    else if (n.nodeType === 1 && !UNRENDERED.has(n.localName)) {
      lists.push(flatKids(n));
      at.push(0);
    }
  }
}

/**
 * The elements whose text differs in the flat tree, as a Set: each open
 * shadow host and each slot of an open shadow root (`hosts`: the
 * document's), and their ancestors through shadow roots; null when there
 * is no shadow root. The text of any other element is its textContent.
 */
function flatMarks(hosts) {
  if (hosts.length === 0) return null;
  const marks = new Set();
  const mark = (n) => {
    for (; n && !marks.has(n); n = n.parentNode || n.host || null) marks.add(n);
  };
  const visit = (list) => {
    for (let i = 0; i < list.length; i++) {
      const root = list[i].shadowRoot;
      mark(list[i]);
      const slots = root.querySelectorAll("slot");
      for (let k = 0; k < slots.length; k++) mark(slots[k]);
      visit(shadowHosts(root));
    }
  };
  visit(hosts);
  return marks;
}

/**
 * Reads what `asks` ([index, bits] pairs into `els`) asks for: visibility,
 * the browser's disabled facts (`browserFacts`, in the head), the texts of the `aria-labelledby` references that exist,
 * and the fields (value, first label's text, placeholder, title, alt, text,
 * first `img[alt]`'s alt); texts cut to `textMax` UTF-16 units (a longer
 * one has its whitespace runs made one space first). Texts and the first
 * image are read in the flat tree, as the browser names elements: slotted
 * content in its slot, a shadow host's shadow content in place of its light
 * children (only where a shadow root or slot is involved: else textContent
 * and querySelector, which are the same there and native). Returns [text,
 * ints], one record per ask (wire.rs). `hosts`: the gather's, for
 * `modalIn`, and for which texts are flat.
 */
export function details(els, asks, textMax, hosts) {
  let ints = new Uint32Array(asks.length * 2 + 32);
  let len = 0;
  let text = "";
  let head = 0;
  const ensure = (n) => {
    if (len + n <= ints.length) return;
    const grown = new Uint32Array((len + n) * 2);
    grown.set(ints);
    ints = grown;
  };
  const put = (value) => {
    ints[len++] = value.length;
    text += value;
  };
  const field = (bit, value) => {
    if (value === null || value === undefined) return;
    head |= 1 << (FIELD_SHIFT + bit);
    put(value);
  };
  const doc = els.length ? els[0].ownerDocument : null;
  const modal = doc ? modalIn(doc, hosts) : null;
  // Looked up at the first text asked: undefined until then.
  let marks;
  const flat = (el) => {
    if (marks === undefined) marks = doc ? flatMarks(hosts === undefined ? shadowHosts(doc) : hosts) : null;
    return marks !== null && marks.has(el);
  };
  // Over the cut, runs of whitespace become one space first, so that they
  // do not use it up ("      Delete" is still Delete): the same runs
  // sense::cap_chars collapses after (char::is_whitespace's characters),
  // so the name Rust makes of the text is unchanged.
  const cut = (t) => (t.length <= textMax ? t : t.replace(WHITESPACE_RUNS, " ").slice(0, textMax));
  const textOf = (el) => {
    if (!flat(el)) {
      const t = el.textContent;
      return t === null ? "" : cut(t);
    }
    // The flat tree's text nodes, joined as `cut` would have them: once
    // over the cut, each piece is collapsed as it comes (a run across two
    // pieces stays one space), and the walk stops when the cut is full.
    let t = "", over = false;
    flatWalk(el, (n) => {
      if (n.nodeType !== 3) return false;
      let piece = n.data;
      if (!over) {
        t += piece;
        if (t.length <= textMax) return false;
        over = true;
        t = t.replace(WHITESPACE_RUNS, " ");
      } else {
        piece = piece.replace(WHITESPACE_RUNS, " ");
        t += t.endsWith(" ") && piece.startsWith(" ") ? piece.slice(1) : piece;
      }
      if (t.length < textMax) return false;
      t = t.slice(0, textMax);
      return true;
    });
    return t;
  };
  const firstImgAlt = (el) => {
    if (!flat(el)) return el.querySelector("img[alt]");
    let img = null;
    flatWalk(el, (n) => {
      if (n.nodeType !== 1 || n.localName !== "img" || !n.hasAttribute("alt")) return false;
      img = n;
      return true;
    });
    return img;
  };
  const visible = visibility();
  for (let k = 0; k < asks.length; k += 2) {
    const el = els[asks[k]];
    const ask = asks[k + 1];
    ensure(16);
    head = 0;
    const at = len++;
    if (ask & VISIBLE && visible(el)) head |= VISIBLE;
    if (ask & DISABLED) head |= browserFacts(el, modal);
    if (ask & REFS) {
      const by = el.getAttribute("aria-labelledby");
      if (by) {
        const scope = el.getRootNode();
        const refs = [];
        for (const id of by.split(/\s+/)) {
          const ref = id && scope.getElementById ? scope.getElementById(id) : null;
          if (ref) refs.push(textOf(ref));
        }
        head |= REFS;
        ensure(refs.length + 16);
        ints[len++] = refs.length;
        for (const t of refs) put(t);
      }
    }
    if (ask & VALUE) field(0, typeof el.value === "string" ? el.value : null);
    if (ask & LABEL) {
      const labels = el.labels;
      field(1, labels && labels.length ? textOf(labels[0]) : null);
    }
    if (ask & PLACEHOLDER) field(2, el.getAttribute("placeholder"));
    if (ask & TITLE) field(3, el.getAttribute("title"));
    if (ask & ALT) field(4, el.getAttribute("alt"));
    if (ask & TEXT) field(5, textOf(el));
    if (ask & IMG_ALT) {
      const img = firstImgAlt(el);
      field(6, img && img.getAttribute("alt"));
    }
    ints[at] = head;
  }
  return [encoder.encode(text), new Uint8Array(ints.buffer, 0, len * 4)];
}
