// One bulk read of the scan root: every marked or interactive element's facts,
// serialised once, so the Rust side converts a single string instead of
// crossing the wasm boundary per attribute. The rules live in Rust (build.rs);
// this file only reads the DOM.

const SELECTOR =
  "[data-e2e-kind],[data-e2e-pagetitle],[data-e2e-dirty],[data-e2e-noreload]," +
  "a[href],area[href],button,input,select,textarea,summary,[role],[aria-label],[tabindex],[contenteditable]";

const FLAG_DIRTY = 1, FLAG_NORELOAD = 2, FLAG_INTERACTIVE = 4, FLAG_ENABLED = 8, FLAG_VISIBLE = 16;
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

/** Returns [json, elements]: json is an array of RawNode tuples (see model.rs). */
export function gather(root) {
  const list = root.querySelectorAll(SELECTOR);
  const els = [];
  if (root.nodeType === 1 && root.matches(SELECTOR)) els.push(root);
  for (let i = 0; i < list.length; i++) els.push(list[i]);

  const rows = new Array(els.length);
  const open = []; // stack of [islandElement, index] enclosing the current element
  for (let i = 0; i < els.length; i++) {
    const el = els[i];
    while (open.length && !open[open.length - 1][0].contains(el)) open.pop();
    const islands = open.length ? open.map((o) => o[1]) : [];
    const kind = el.getAttribute("data-e2e-kind");
    const tag = el.tagName;
    const explicit = el.getAttribute("role");
    const role = explicit ? explicit.trim().split(/\s+/)[0].toLowerCase() : implicitRole(el, tag);
    let flags = 0;
    if (el.getAttribute("data-e2e-dirty") === "true") flags |= FLAG_DIRTY;
    if (el.hasAttribute("data-e2e-noreload")) flags |= FLAG_NORELOAD;
    const interactive = isInteractive(el, tag, role);
    if (interactive) flags |= FLAG_INTERACTIVE;
    // Visibility and enabled state matter for menu candidates only: playables and
    // anything inside an island (possible slot elements).
    const candidate = kind === "playable" || islands.length > 0;
    if (candidate) {
      if (isEnabled(el)) flags |= FLAG_ENABLED;
      if (isVisible(el)) flags |= FLAG_VISIBLE;
    }
    const named = interactive || candidate || explicit !== null;
    rows[i] = [
      flags,
      islands,
      kind,
      el.getAttribute("data-e2e-id"),
      el.getAttribute("data-e2e-event"),
      el.getAttribute("data-e2e-title"),
      el.getAttribute("data-e2e-desc"),
      el.getAttribute("data-e2e-pagetitle"),
      role || null,
      named ? accessibleName(el, tag) : null,
      el.getAttribute("aria-label"),
    ];
    if (kind === "island") open.push([el, i]);
  }
  return [JSON.stringify(rows), els];
}
