// One bulk read of the scan root: every marked or interactive element's facts,
// packed once (see wire.rs), so the Rust side converts a single string and
// copies one integer array instead of crossing the wasm boundary per
// attribute. The rules live in Rust (build.rs); this file only reads the DOM,
// and only what the menu can use.

// Elements that disable their subtree come through the same query, so the
// enabled check needs no closest() walk per element. Wrapped in :where(),
// which Chromium matches about a third faster than the bare selector list
// (bench/notes.md).
const DISABLING = '[aria-disabled="true"],[inert]';
const SELECTOR =
  ":where([data-e2e-kind],[data-e2e-pagetitle],[data-e2e-dirty],[data-e2e-noreload]," +
  "a[href],area[href],button,input,select,textarea,summary,[role],[aria-label],[tabindex],[contenteditable]," +
  DISABLING +
  ")";

const FLAG_DIRTY = 1, FLAG_NORELOAD = 2, FLAG_INTERACTIVE = 4, FLAG_ENABLED = 8, FLAG_VISIBLE = 16;
const HAS_END = 32, FIELD_SHIFT = 8; // wire.rs
const TEXT_MAX = 2000; // generous: Rust caps to 200 after collapsing whitespace

const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "combobox", "slider", "spinbutton", "treeitem",
]);

const INPUT_ROLES = {
  button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox",
  radio: "radio", range: "slider", number: "spinbutton", search: "searchbox",
};

function implicitRole(el, tag) {
  switch (tag) {
    case "A": case "AREA": return el.hasAttribute("href") ? "link" : "";
    case "BUTTON": case "SUMMARY": return "button";
    case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
    case "TEXTAREA": return "textbox";
    case "INPUT": return INPUT_ROLES[(el.getAttribute("type") || "").toLowerCase()] || "textbox";
    default: return el.isContentEditable ? "textbox" : "";
  }
}

function textOf(el) {
  const t = el.textContent;
  return t && t.length > TEXT_MAX ? t.slice(0, TEXT_MAX) : t || "";
}

function accessibleName(el, tag) {
  const label = el.getAttribute("aria-label");
  if (label && label.trim()) return label;
  const by = el.getAttribute("aria-labelledby");
  if (by) {
    const scope = el.getRootNode();
    const parts = [];
    for (const id of by.split(/\s+/)) {
      const ref = id && scope.getElementById ? scope.getElementById(id) : null;
      if (ref) parts.push(textOf(ref));
    }
    if (parts.length) return parts.join(" ");
  }
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "INPUT" && (type === "button" || type === "submit" || type === "reset")) {
      return el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
    }
    if (el.labels && el.labels.length) return textOf(el.labels[0]);
    return el.getAttribute("placeholder") || el.getAttribute("title") || "";
  }
  if (tag === "IMG" || tag === "AREA") return el.getAttribute("alt") || el.getAttribute("title") || "";
  const text = textOf(el);
  if (text.trim()) return text;
  const img = el.querySelector("img[alt]");
  return (img && img.getAttribute("alt")) || el.getAttribute("title") || "";
}

export function isVisible(el) {
  if (!el.isConnected) return false;
  if (!el.checkVisibility({ visibilityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

export function isEnabled(el) {
  return !(el.matches(":disabled") || el.closest('[aria-disabled="true"],[inert]'));
}

/** [isVisible, isEnabled], so other bulk readers (Surface) apply the same rules. */
export function checks() {
  return [isVisible, isEnabled];
}

function isInteractive(el, tag, role) {
  if (tag === "INPUT") return (el.getAttribute("type") || "").toLowerCase() !== "hidden";
  if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA" || tag === "SUMMARY") return true;
  if ((tag === "A" || tag === "AREA") && el.hasAttribute("href")) return true;
  if (role && INTERACTIVE_ROLES.has(role)) return true;
  if (el.isContentEditable) return true;
  const tabindex = el.getAttribute("tabindex");
  return tabindex !== null && Number(tabindex) >= 0;
}

/** `a` contains `el`, looking through the shadow roots `el` sits in. */
function within(a, el) {
  for (let n = el; n; ) {
    if (a.contains(n)) return true;
    const r = n.getRootNode();
    n = r.host || null;
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
 * The candidate elements of `root` in document order; each open shadow
 * root's elements follow right after its host (before the host's light
 * children), recursively. Without shadow roots this is the query's own
 * NodeList (no copy).
 */
function collect(root) {
  const list = root.querySelectorAll(SELECTOR);
  const self = root.nodeType === 1 && root.matches(SELECTOR);
  const hosts = shadowHosts(root);
  if (root.nodeType === 1 && root.shadowRoot !== null) hosts.unshift(root);
  if (hosts.length === 0 && !self) return list;
  const els = [];
  if (self) els.push(root);
  merge(list, hosts, els);
  return els;
}

function collectInto(root, els) {
  merge(root.querySelectorAll(SELECTOR), shadowHosts(root), els);
}

function merge(list, hosts, els) {
  let h = 0;
  for (let i = 0; i < list.length; i++) {
    const el = list[i];
    while (h < hosts.length && hosts[h] !== el && hosts[h].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
      collectInto(hosts[h++].shadowRoot, els);
    }
    els.push(el);
    if (h < hosts.length && hosts[h] === el) collectInto(hosts[h++].shadowRoot, els);
  }
  while (h < hosts.length) collectInto(hosts[h++].shadowRoot, els);
}

const encoder = new TextEncoder();

/**
 * Returns [text, ints, elements] in the wire format of wire.rs (the ints as
 * the bytes of a Uint32Array): per element,
 * a head (flags, HAS_END, one presence bit per field), an island's end index,
 * then each present field's length (UTF-16 units); the field values go into
 * text back to back, handed over as UTF-8 bytes (TextEncoder is native and
 * much faster than wasm-bindgen's per-character string copy).
 */
export function gather(root) {
  const els = collect(root);
  const count = els.length;

  let ints = new Uint32Array(count * 4 + 16);
  let len = 0;
  let text = "";
  let head = 0;
  const field = (bit, value) => {
    if (value === null) return;
    head |= 1 << (FIELD_SHIFT + bit);
    ints[len++] = value.length;
    text += value;
  };
  // Enclosing islands (element, position of its end in ints) and enclosing
  // disabling elements; both in document order, so a stack suffices.
  const islands = [], islandEnds = [], disabling = [];
  const disabledAbove = root.nodeType === 1 && root.parentElement !== null && root.parentElement.closest(DISABLING) !== null;
  for (let i = 0; i < count; i++) {
    const el = els[i];
    while (islands.length && !within(islands[islands.length - 1], el)) {
      islands.pop();
      ints[islandEnds.pop()] = i;
    }
    while (disabling.length && !within(disabling[disabling.length - 1], el)) disabling.pop();
    if (el.getAttribute("aria-disabled") === "true" || el.hasAttribute("inert")) disabling.push(el);
    if (len + 12 > ints.length) {
      const grown = new Uint32Array(ints.length * 2);
      grown.set(ints);
      ints = grown;
    }

    const kind = el.getAttribute("data-e2e-kind");
    const dirty = el.getAttribute("data-e2e-dirty") === "true";
    // The id matters for markers and dirty elements only.
    const id = kind !== null || dirty ? el.getAttribute("data-e2e-id") : null;
    const tag = el.tagName;
    const explicit = el.getAttribute("role");
    const role = explicit ? explicit.trim().split(/\s+/)[0].toLowerCase() : implicitRole(el, tag);
    const inIsland = islands.length > 0;
    const ariaLabel = inIsland ? el.getAttribute("aria-label") : null;
    head = 0;
    if (dirty) head |= FLAG_DIRTY;
    if (el.hasAttribute("data-e2e-noreload")) head |= FLAG_NORELOAD;
    const interactive = isInteractive(el, tag, role);
    if (interactive) head |= FLAG_INTERACTIVE;
    // What the menu can use: states and names of playables and of possible
    // slot elements (inside an island, with a role or an aria-label); names of
    // the other interactive elements (generic refs).
    const playable = kind === "playable" && id !== null && id !== "";
    const slotCandidate = inIsland && (role !== "" || ariaLabel !== null);
    if (playable || slotCandidate) {
      if (disabling.length === 0 && !disabledAbove && !el.matches(":disabled")) head |= FLAG_ENABLED;
      if (el.checkVisibility({ visibilityProperty: true })) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) head |= FLAG_VISIBLE;
      }
    }
    const named = (interactive && !playable) || slotCandidate;

    const at = len++;
    if (kind === "island") {
      head |= HAS_END;
      islands.push(el);
      islandEnds.push(len);
      ints[len++] = count;
    }
    field(0, kind);
    field(1, id);
    if (kind !== null || inIsland) field(2, el.getAttribute("data-e2e-event"));
    if (kind !== null) {
      field(3, el.getAttribute("data-e2e-title"));
      field(4, el.getAttribute("data-e2e-desc"));
    }
    field(5, el.getAttribute("data-e2e-pagetitle"));
    field(6, role || null);
    field(7, named ? accessibleName(el, tag) : null);
    field(8, ariaLabel);
    ints[at] = head;
  }
  // The integers as their bytes: the Rust side reads both as Uint8Array.
  return [encoder.encode(text), new Uint8Array(ints.buffer, 0, len * 4), els];
}
