// The text an agent reads: a bounded, windowed uplink rendered as TOON
// (@toon-format/toon, "|"-delimited, one space of indent) with what is the
// default left out. The JSON form of the same uplink goes in the result's
// structuredContent (and is the text with format: "json").
//
// A snapshot reads:
//
//   page: orders
//   window: menu 0-49 of 1355; generics all 3 visible; 1 hidden; next offset 50
//   click:
//    orders.refresh: Refresh — Reload the order list
//    "list:next": Next page
//    …
//   input:
//    orders.search: Search orders — Type a customer, item or order number
//   disabled:
//    orders.export: Export CSV — Download the list as CSV
//   unsupported:
//    orders.tips: Show tips — …
//   generics[3|]: link Docs|link Pricing, plans|button Close
//   reload: allowed
//
// Issue 13's ceilings: at most 4 tokens per menu item beyond its id, title
// and desc, 3 per generic beyond its role and name, and 120 for the frame
// around them (the note included), on any page. So the frame is a fixed
// set of lines, whatever the page holds. A menu row is `id: text` (the
// title, then " — " and the desc; structuredContent keeps them apart) and
// nothing else, under a key that says what the item is: its event when it
// can run now (click, input, scroll, drag), else why a run would be
// refused (disabled, hidden, ambiguous, unsupported, unrunnable; such an
// item's event is in structuredContent only). That is at most nine keys of
// two or three tokens each. A table per kind (`click[45]{id,text}:`) costs
// about nine a header, and nine of them would take the frame past 120 on a
// paged page; a kind told in the row instead (a column, or a first word)
// costs a row one or two more, five where the row already costs four. The
// delimiter is "|", which page text seldom holds, so a text with a comma
// stays bare. Generics are one list of `role name`. A reload refused for
// the snapshot's own dirty ids or noreload marker is told short. An escape
// type other than the protocol's "reload" (page text) is told under
// `escapes:`, never as a line of its own.
import { encode } from "@toon-format/toon";
import { quote } from "./compact.mjs";
import { GENERIC_REF } from "./names.mjs";

const EVENTS = ["click", "input", "scroll", "drag"];
/** The keys menu items are told under, in this order: runnable by event, then why not. */
export const MENU_KEYS = Object.freeze([...EVENTS, "disabled", "hidden", "ambiguous", "unsupported", "unrunnable"]);
const OPTIONS = { delimiter: "|", indentSize: 1 };

/** The TOON text of a value (the renderer's options). */
export function toon(value) {
  return encode(value, OPTIONS);
}

/** "0-49 of 1355", "all 12", "none of 12 from offset 40", "none". */
function span(window, shown, what = "") {
  if (shown === 0) return window.total === 0 ? `none${what}` : `none of ${window.total}${what} from offset ${window.offset}`;
  if (window.offset === 0 && shown === window.total) return `all ${shown}${what}`;
  return `${window.offset}-${window.offset + shown - 1} of ${window.total}${what}`;
}

/**
 * The key an item is told under: its event when it can run now, else why
 * a run would be refused, in the order run checks (docs/protocol.md):
 * "unrunnable" is an id with a generic ref's shape (g + digits), which no
 * run takes (NOT_IN_MENU).
 */
function kind(item) {
  if (GENERIC_REF.test(item.id)) return "unrunnable";
  if (item.ambiguous) return "ambiguous";
  if (!item.visible) return "hidden";
  if (!item.enabled) return "disabled";
  if (!EVENTS.includes(item.event)) return "unsupported";
  return item.event;
}

/** The reasons deriveEscapes gives (crates/playable/src/escape.rs) that the snapshot tells already. */
const NO_RELOAD = "the page forbids reload (data-e2e-noreload)";
const DIRTY = "unsaved work would be lost (dirty: ";

/**
 * What the text says of an escape. A reload refused for the snapshot's own
 * `noReload` or `dirty` is told short (the dirty line names the ids the
 * reason lists); any other reason as it is.
 */
function escapeSaid(e, s) {
  if (e.allowed) return "allowed";
  if (e.type === "reload" && e.reason === NO_RELOAD && s.noReload) return "forbidden by the page";
  if (e.type === "reload" && e.reason?.startsWith(DIRTY) && s.dirty.length) return "not allowed (unsaved work)";
  return `not allowed${e.reason ? `: ${e.reason}` : ""}`;
}

/**
 * A compacted snapshot payload (compact.mjs) as TOON text.
 * @param {{ snapshot: any, escapes: any[] }} payload
 * @param {{ tools?: string }} [extra] a line about the menu tools (--menu-tools)
 */
export function renderSnapshot(payload, extra = {}) {
  const s = payload.snapshot;
  const mw = s.menuWindow;
  const gw = s.genericsWindow;
  /** @type {Record<string, unknown>} */
  const out = {};
  if (s.pageTitle !== null) out.page = s.pageTitle;
  // One offset and limit window both lists: one next offset, the lowest
  // where a list that showed rows has more, so no row is skipped.
  const ends = [
    [mw, s.menu.length],
    [gw, s.generics.length],
  ]
    .filter(([w, shown]) => shown > 0 && w.offset + shown < w.total)
    .map(([w, shown]) => w.offset + shown);
  const hidden = gw.hidden === null ? "; hidden ones not told apart" : gw.hidden > 0 ? `; ${gw.hidden} hidden` : "";
  const next = ends.length ? `; next offset ${Math.min(...ends)}` : "";
  out.window = `menu ${span(mw, s.menu.length)}; generics ${span(gw, s.generics.length, " visible")}${hidden}${next}`;

  // Ids are page text: null-prototype objects keep "__proto__" a plain key.
  // The module lists an id once; a repeated one (a page script's own
  // answer) keeps its first row here (structuredContent has them all).
  const groups = new Map(MENU_KEYS.map((k) => [k, Object.create(null)]));
  for (const item of s.menu) {
    const rows = groups.get(kind(item));
    if (!(item.id in rows)) rows[item.id] = item.desc ? `${item.title} — ${item.desc}` : item.title;
  }
  for (const [key, rows] of groups) if (Object.keys(rows).length) out[key] = rows;
  if (extra.tools) out.tools = extra.tools;
  if (s.generics.length) out.generics = s.generics.map((g) => (g.name ? `${g.role || "generic"} ${g.name}` : g.role || "generic"));

  const unresolved = s.islands.flatMap((i) => i.slots.filter((slot) => !slot.resolved).map((slot) => `${i.id}:${slot.name}`));
  if (unresolved.length) out.slotsNotFound = unresolved;
  if (s.dirty.length) out.dirty = s.dirty.map((d) => d || '""');
  // Escape types are page text: only the protocol's own ("reload") gets a
  // line of its own; any other goes under `escapes`, a null-prototype
  // object, so no type can replace the window, click, … lines above.
  let others = null;
  for (const e of payload.escapes) {
    if (e.type === "reload") out.reload = escapeSaid(e, s);
    else (others ??= Object.create(null))[e.type] = escapeSaid(e, s);
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

/** A run's ok payload fields (docs/protocol.md), in the order they are told. */
const RUN_FIELDS = ["id", "value", "scrollLeft", "scrollTop", "to"];

/**
 * A successful run as one short line: `ok`, then each field the agent is
 * told (boundAnswer's `told`: what the page reported that the agent did not
 * send: a scroll's position, or a string the page changed) as `key=value`,
 * the value as JSON (quote(): a string never makes a line). Only the
 * protocol's keys are told, so no key is page text. A click, an input or a
 * drag is `ok`; a scroll `ok scrollLeft=0 scrollTop=80`. A run's reply is
 * read after every act: issue 13 gives it 40 tokens with its
 * structuredContent, whatever the id, value or target.
 */
export function renderRan(told) {
  return ["ok", ...RUN_FIELDS.filter((key) => told[key] !== undefined).map((key) => `${key}=${quote(told[key])}`)].join(" ");
}

/** A refusal: "refused CODE: message". */
export function renderError(error) {
  return `refused ${error.code}: ${error.message}`;
}
