// The text an agent reads: a bounded, windowed uplink rendered as TOON
// (@toon-format/toon, comma-delimited, one space of indent) with what is the
// default left out. The JSON form of the same uplink goes in the result's
// structuredContent (and is the text with format: "json").
//
// A snapshot reads:
//
//   page: orders
//   menu: 0-49 of 1355; next offset 50
//   click[45]{id,text}:
//    orders.refresh,Refresh — Reload the order list
//    "list:next",Next page
//    …
//   input[1]{id,text}:
//    orders.search,"Search orders — Type a customer, item or order number"
//   disabled[2]{id,text}:
//    orders.export,Export CSV — Download the list as CSV
//    orders.note,Note
//   "unsupported hover"[1]{id,text}:
//    orders.tips,Show tips — …
//   generics: 0-2 of 3 visible; 1 hidden
//   roles:
//    link[2]: Docs,Pricing
//    button[1]: Close
//   reload: allowed
//
// Every row is an id and its text and nothing else (issue 13: at most 4
// tokens per item beyond its id, title and desc): what an item is — its
// event when it can run now, else why not and its event unless click — is
// the key of its table. A row has no room for a fifth: TOON quotes an id
// with a ":" (every island slot's), and o200k reads a quote and a comma as
// one token but a quote and a tab as two; a column of its own (a tab or a
// comma, and a word) costs two. So the delimiter is a comma, the title and
// the desc are one field ("title — desc"; structuredContent keeps them
// apart), and an item's kind is its table's key, about ten tokens once per
// table. Generics are only named, grouped by role. An escape type other
// than the protocol's "reload" (page text) is told under `escapes:`, never
// as a line of its own.
import { encode } from "@toon-format/toon";
import { quote } from "./compact.mjs";
import { GENERIC_REF } from "./names.mjs";

const EVENTS = ["click", "input", "scroll", "drag"];
const OPTIONS = { delimiter: ",", indentSize: 1 };

/** The TOON text of a value (the renderer's options). */
export function toon(value) {
  return encode(value, OPTIONS);
}

/** "0-49 of 1355; next offset 50" (no comma: TOON would quote it), "all 12", "none of 12 from offset 40", "none". */
function span(window, shown, what = "") {
  const of = `of ${window.total}${what}`;
  if (shown === 0) return window.total === 0 ? `none${what}` : `none ${of} from offset ${window.offset}`;
  if (window.offset === 0 && shown === window.total) return `all ${shown}${what}`;
  const end = window.offset + shown;
  const more = end < window.total ? `; next offset ${end}` : "";
  return `${window.offset}-${end - 1} ${of}${more}`;
}

/**
 * The table a menu item is told in: its event when it can run now, else why
 * not (the refusal a run would get), with its event unless click:
 * "unrunnable" (an id with a generic ref's shape, g + digits), "disabled",
 * "hidden input", "ambiguous", "unsupported hover". Every key
 * but the four events starts with a reason and a space, so none that holds
 * page text (an event the page made up) can be a line of the frame.
 */
function table(item) {
  const event = item.event === "click" ? "" : ` ${item.event}`;
  if (GENERIC_REF.test(item.id)) return `unrunnable${event}`;
  if (item.ambiguous) return `ambiguous${event}`;
  if (!item.visible) return `hidden${event}`;
  if (!item.enabled) return `disabled${event}`;
  if (!EVENTS.includes(item.event)) return `unsupported${event}`;
  return item.event;
}

/** An item's title, then " — " and its desc when it has one. */
const text = (item) => (item.desc ? `${item.title} — ${item.desc}` : item.title);

/**
 * A compacted snapshot payload (compact.mjs) as TOON text.
 * @param {{ snapshot: any, escapes: any[] }} payload
 * @param {{ tools?: string }} [extra] a line about the menu tools (--menu-tools)
 */
export function renderSnapshot(payload, extra = {}) {
  const s = payload.snapshot;
  /** @type {Record<string, unknown>} */
  const out = {};
  if (s.pageTitle !== null) out.page = s.pageTitle;
  out.menu = span(s.menuWindow, s.menu.length);
  // Runnable tables first, in EVENTS order; then the others as they come.
  const tables = new Map(EVENTS.map((e) => [e, []]));
  for (const item of s.menu) {
    const key = table(item);
    if (!tables.has(key)) tables.set(key, []);
    tables.get(key).push({ id: item.id, text: text(item) });
  }
  for (const [key, rows] of tables) if (rows.length) out[key] = rows;
  if (extra.tools) out.tools = extra.tools;

  const gw = s.genericsWindow;
  const hidden = gw.hidden === null ? "; hidden ones not told apart" : gw.hidden > 0 ? `; ${gw.hidden} hidden` : "";
  out.generics = span(gw, s.generics.length, " visible") + hidden;
  if (s.generics.length) {
    // Role keys are page text: a null-prototype object keeps "__proto__" a plain key.
    const roles = Object.create(null);
    for (const g of s.generics) (roles[g.role || "generic"] ??= []).push(g.name);
    out.roles = roles;
  }

  const unresolved = s.islands.flatMap((i) => i.slots.filter((slot) => !slot.resolved).map((slot) => `${i.id}:${slot.name}`));
  if (unresolved.length) out.slotsNotFound = unresolved;
  if (s.dirty.length) out.dirty = s.dirty.map((d) => d || '""');
  // Escape types are page text: only the protocol's own ("reload") gets a
  // line of its own; any other goes under `escapes`, a null-prototype
  // object, so no type can replace the menu, click, … lines above.
  let others = null;
  for (const e of payload.escapes) {
    const said = e.allowed ? "allowed" : `not allowed${e.reason ? `: ${e.reason}` : ""}`;
    if (e.type === "reload") out.reload = said;
    else (others ??= Object.create(null))[e.type] = said;
  }
  if (others) out.escapes = others;
  return toon(out);
}

/**
 * Any other ok uplink's payload (hello, run, escape), as TOON, with what
 * the agent has no use for (pageId, requestId: the server keeps them) left out.
 */
export function renderPayload(payload) {
  return toon(payload);
}

/** A run's ok payload fields after its id (docs/protocol.md), in the order they are told. */
const RUN_FIELDS = ["value", "scrollLeft", "scrollTop", "to"];
/** A string told bare: no space, control or format character, quote, backslash or "=". */
const PLAIN = /^[^\s\p{C}"\\=]+$/u;

/**
 * A successful run's payload as one short line: `ok <id>` (quoted unless
 * plain), then each field the protocol defines as `key=value` (as JSON,
 * quote(): a string never makes a line). Only those keys are told, so no
 * key is page text. A run's reply is read after every act, so it stays
 * within issue 13's 40 tokens with its structuredContent, for a scroll's
 * position or a drag's target too; an input's value comes here only when
 * the page answered one other than the agent's (boundAnswer's `told`).
 */
export function renderRan(payload) {
  const id = typeof payload.id !== "string" ? "" : PLAIN.test(payload.id) ? ` ${payload.id}` : ` ${quote(payload.id)}`;
  const rest = RUN_FIELDS.filter((key) => payload[key] !== undefined).map((key) => ` ${key}=${quote(payload[key])}`);
  return `ok${id}${rest.join("")}`;
}

/** A refusal: "refused CODE: message". */
export function renderError(error) {
  return `refused ${error.code}: ${error.message}`;
}
