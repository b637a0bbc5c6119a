// DOM primitives for the bot. Rust decides which checks apply and in what
// order (dom.rs); these functions only read the DOM or dispatch.

function win(el) {
  return el.ownerDocument.defaultView || window;
}

/**
 * Whether `v` is an element of this window or of the window its document
 * belongs to: an element of an iframe's document (a root the page may
 * give) is not `instanceof` this window's Element. Its constructors are
 * the ones events for it are made with, too.
 */
export function isElement(v) {
  if (v instanceof Element) return true;
  const w = v !== null && typeof v === "object" && v.ownerDocument ? v.ownerDocument.defaultView : null;
  return !!w && v instanceof w.Element;
}

// The kinds of editable thing setValue is told (bot::Field, field.rs):
// 1 text, 2 contenteditable, 3 checkbox, 4 radio, 5 select, 6 multiple select.
const CHECKBOX = 3, RADIO = 4, SELECT = 5;

// This module's own timer, taken at load: a frame's window cancels its
// timers and rAF callbacks when the frame navigates or is removed, and the
// wait must end all the same (the checks after it then refuse).
const later = setTimeout;

function frame(w) {
  // rAF does not run in hidden tabs: fall back to a short timer.
  return new Promise((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(); } };
    later(finish, 50);
    w.requestAnimationFrame(finish);
  });
}

function center(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Resolves after two animation frames of `el`'s window: the wait of the stable check (dom.rs reads the facts around it). */
export async function twoFrames(el) {
  const w = win(el);
  await frame(w);
  await frame(w);
}

// A node's parent in the flat tree: its slot, else its parent, else (at a
// shadow root) the host.
function up(n) {
  return n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host) || null;
}

/** `a` is `n` or a flat-tree ancestor of it. */
function holds(a, n) {
  for (; n; n = up(n)) if (n === a) return true;
  return false;
}

/**
 * `n` lies in el's shadow tree in the flat tree: a flat-tree descendant of
 * el reached through el's open shadow root (its shadow content, or light
 * content slotted into it).
 */
function inShadowOf(el, n) {
  const s = el.shadowRoot;
  if (s === null) return false;
  for (; n && n !== el; n = up(n)) if (n.parentNode === s) return true;
  return false;
}

/**
 * The facts of a hit test at (x, y) in el's document or shadow root, or null
 * when nothing is hit: [tag, id, class, inside, pinned, shared], and for an
 * open shadow host el also [inShadow, aim]. `inside`: el holds the element
 * hit, in the DOM or in the flat tree. `pinned`: it, or what it hit in an
 * open shadow root, or a flat-tree ancestor of that, has computed position
 * fixed (it stays put when the page scrolls). `shared`: that fixed element
 * holds el too. `aim`: the innermost element at the point, below what was
 * hit in the flat tree (slotted light content included); `inShadow`: it
 * lies in el's shadow tree (dom.rs decides whether a click goes to it).
 */
export function hitAt(el, x, y) {
  const root = el.getRootNode();
  // A document (9) or a shadow root (11): by node type, not instanceof (an iframe's document).
  if (root.nodeType !== 9 && root.nodeType !== 11) return null;
  const hit = root.elementFromPoint(x, y);
  if (!hit) return null;
  // A shadow host stands for what was hit inside it: look there (each step
  // goes one shadow root deeper, so the walk ends).
  let deep = hit;
  for (let s, d; (s = deep.shadowRoot) && (d = s.elementFromPoint(x, y)) && s.contains(d); ) deep = d;
  const w = win(el);
  let pin = deep;
  while (pin && w.getComputedStyle(pin).position !== "fixed") pin = up(pin);
  const shared = !!pin && holds(pin, el);
  // Inside in the flat tree, as the browser dispatches: light content slotted
  // into el (a component's `<button><slot></slot></button>`) is el's, though
  // el.contains() says no.
  let from = deep;
  if (root.nodeType === 11 && hit === root.host) {
    // The root's own host stands for its text slotted into this shadow tree
    // (`<x-btn>Save</x-btn>`): what lies right beneath it here is where that
    // text is rendered.
    const under = root.elementsFromPoint(x, y);
    from = null;
    for (let i = 0; i < under.length && from === null; i++) if (under[i] !== hit) from = under[i];
  }
  const inside = el.contains(hit) || holds(el, from);
  const facts = [hit.tagName, hit.id, hit.getAttribute("class") || "", inside, !!pin, shared];
  if (el.shadowRoot !== null) {
    // Slotted light content too (where the walk above stops): a person's
    // click targets it, and its path runs through the slot.
    let aim = deep;
    for (let s, d; (s = aim.shadowRoot) && (d = s.elementFromPoint(x, y)) && d !== aim && holds(aim, d); ) aim = d;
    facts.push(inShadowOf(el, aim), aim);
  }
  return facts;
}

function nativeSet(el, prop, value) {
  // The prototype's setter, so frameworks that wrap the instance property
  // (React's value tracker) observe the change.
  let proto = Object.getPrototypeOf(el);
  while (proto) {
    const d = Object.getOwnPropertyDescriptor(proto, prop);
    if (d && d.set) { d.set.call(el, value); return; }
    proto = Object.getPrototypeOf(proto);
  }
  el[prop] = value;
}

function fire(el, type) {
  el.dispatchEvent(new (win(el).Event)(type, { bubbles: true, cancelable: type !== "change", composed: true }));
}

/**
 * What step 3 judges of a field (bot::FieldFacts), read in one call through
 * the page's own getters: [type attribute, tagName, multiple,
 * isContentEditable, checked, maxLength].
 */
export function fieldFacts(el) {
  return [el.getAttribute("type"), el.tagName, el.multiple === true, el.isContentEditable === true, el.checked === true, el.maxLength];
}

/**
 * A select's options, in order, flat: each one's value, then whether it is
 * disabled (its own disabled, or its optgroup's: `:disabled` covers both).
 * Array.from runs the page's iterator or length getter once.
 */
export function optionFacts(el) {
  const list = Array.from(el.options);
  const out = [];
  for (let i = 0; i < list.length; i++) out.push(list[i].value, list[i].matches(":disabled"));
  return out;
}

/**
 * What an <input> of el's type makes of text, and that type: a detached
 * input of the same type, in the same document, is given the text and read
 * back (the browser's own value sanitization; nothing of the page is touched).
 */
export function sanitize(el, text) {
  const type = el.type;
  const probe = el.ownerDocument.createElement("input");
  probe.type = type;
  probe.multiple = el.multiple; // an email field with multiple sanitizes each address of a list
  probe.value = text;
  return [probe.value, type];
}

/**
 * Sets a value the way frameworks observe it: native setter, then input and
 * change. `kind` as field.rs numbers it. False when the page cancelled the
 * text's beforeinput (its input filter refused it): nothing was set.
 */
export function setValue(el, kind, value) {
  if (kind === CHECKBOX || kind === RADIO) {
    // Every change is a click, which toggles and fires click, input, change
    // (what React listens to): field.rs refuses false for a checked radio.
    if (el.checked !== value) el.click();
    return true;
  }
  if (typeof el.focus === "function") el.focus({ preventScroll: true });
  if (kind >= SELECT) {
    const wanted = new Set(Array.isArray(value) ? value : [value]);
    for (const o of el.options) o.selected = wanted.has(o.value);
    fire(el, "input");
    fire(el, "change");
    return true;
  }
  const editable = kind === 2;
  const I = win(el).InputEvent;
  const init = { bubbles: true, composed: true, inputType: "insertReplacementText", data: value };
  // As a person's edit: a page's input mask cancels beforeinput to refuse the text.
  if (!el.dispatchEvent(new I("beforeinput", { ...init, cancelable: true }))) return false;
  if (editable) el.textContent = value;
  else nativeSet(el, "value", value);
  el.dispatchEvent(new I("input", init));
  if (!editable) fire(el, "change");
  return true;
}

function scrolls(el) {
  const s = win(el).getComputedStyle(el);
  const y = (s.overflowY === "auto" || s.overflowY === "scroll") && el.scrollHeight > el.clientHeight;
  const x = (s.overflowX === "auto" || s.overflowX === "scroll") && el.scrollWidth > el.clientWidth;
  return x || y;
}

function container(el) {
  // el itself, then its ancestors, through the shadow roots it sits in.
  for (let p = el; p; p = p.parentElement || (p.getRootNode() && p.getRootNode().host) || null) {
    if (scrolls(p)) return p;
  }
  return el.ownerDocument.scrollingElement || el.ownerDocument.documentElement;
}

/**
 * Scrolls el (when it scrolls) or its scroll container; returns [left, top].
 * f (bot::Align's fraction: 0 start, 0.5 centre, 1 end), when given, aligns
 * el on both axes, as scrollIntoView's block and inline with one alignment:
 * inline start is the right edge in a right-to-left container, and el meets
 * the visible scroll area (inside borders and scrollbars); then (bx, by) is
 * added, both always.
 */
export function scroll(el, f, bx, by) {
  const c = container(el);
  const w = win(el);
  const d = el.ownerDocument;
  const page = c === d.scrollingElement || c === d.documentElement;
  let left = c.scrollLeft;
  let top = c.scrollTop;
  if (f != null) {
    // The viewport takes its direction from <body> (CSS Writing Modes' HTML
    // special case), so <html dir=rtl><body dir=ltr> scrolls left to right.
    const rtl = w.getComputedStyle(page ? d.body || c : c).direction === "rtl";
    // In right-to-left, scrollLeft runs from 0 (start, at the right) to negatives.
    const fx = rtl ? 1 - f : f;
    if (c === el) {
      left = (rtl ? -f : f) * (c.scrollWidth - c.clientWidth);
      top = f * (c.scrollHeight - c.clientHeight);
    } else {
      const e = el.getBoundingClientRect();
      // The scrollport: client* leave out borders and scrollbars (clientLeft
      // also holds a vertical scrollbar drawn on the left, as in Chromium's rtl).
      const b = page ? null : c.getBoundingClientRect();
      const r = b ? { left: b.left + c.clientLeft, top: b.top + c.clientTop } : { left: 0, top: 0 };
      // The same point of el and of the scrollport meet: their starts, centres or ends.
      left += e.left + fx * e.width - (r.left + fx * c.clientWidth);
      top += e.top + f * e.height - (r.top + f * c.clientHeight);
    }
  }
  c.scrollTo({ left: left + bx, top: top + by, behavior: "instant" });
  return [Math.round(c.scrollLeft), Math.round(c.scrollTop)];
}

/** One drag gesture from src's centre to dst's centre: pointer and mouse events, plus HTML5 DnD when src is draggable. */
export function drag(src, dst) {
  const w = win(src);
  const a = center(src.getBoundingClientRect());
  const b = center(dst.getBoundingClientRect());
  const at = (p, fallback) => {
    const root = fallback.getRootNode();
    const hit = p.x >= 0 && p.y >= 0 && p.x < w.innerWidth && p.y < w.innerHeight && root.elementFromPoint ? root.elementFromPoint(p.x, p.y) : null;
    return hit || fallback;
  };
  const base = { bubbles: true, cancelable: true, composed: true, view: w, button: 0 };
  const pointer = (type, target, p, buttons) =>
    target.dispatchEvent(new w.PointerEvent(type, { ...base, clientX: p.x, clientY: p.y, buttons, pointerId: 1, pointerType: "mouse", isPrimary: true }));
  const mouse = (type, target, p, buttons) =>
    target.dispatchEvent(new w.MouseEvent(type, { ...base, clientX: p.x, clientY: p.y, buttons }));
  pointer("pointerdown", src, a, 1);
  mouse("mousedown", src, a, 1);
  if (src.draggable) {
    const dataTransfer = new w.DataTransfer();
    const dnd = (type, target, p) =>
      target.dispatchEvent(new w.DragEvent(type, { ...base, clientX: p.x, clientY: p.y, dataTransfer }));
    if (dnd("dragstart", src, a)) {
      pointer("pointercancel", src, a, 0);
      dnd("drag", src, a);
      dnd("dragenter", dst, b);
      const accepted = !dnd("dragover", dst, b); // a cancelled dragover allows the drop
      if (accepted) dnd("drop", dst, b);
      else dnd("dragleave", dst, b);
      dnd("dragend", src, b);
      return;
    }
  }
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  for (const p of [mid, b]) {
    pointer("pointermove", at(p, dst), p, 1);
    mouse("mousemove", at(p, dst), p, 1);
  }
  const end = at(b, dst);
  pointer("pointerup", end, b, 0);
  mouse("mouseup", end, b, 0);
}

/**
 * Exactly one click on `el` (the target, or what dom.rs aimed at inside its
 * shadow tree): HTMLElement.click() (activation behaviour included), or a
 * synthetic `click` MouseEvent for other elements (SVG…). Null, or why it
 * could not.
 */
export function click(el) {
  if (!isElement(el)) return "the target is not an element";
  const w = win(el);
  if (el instanceof w.HTMLElement) {
    el.click();
    return null;
  }
  try {
    el.dispatchEvent(new w.MouseEvent("click", { bubbles: true, cancelable: true, composed: true }));
    return null;
  } catch {
    return "dispatching a click event threw";
  }
}
