// The text an agent reads: a bounded, windowed uplink with what is the
// default left out. The JSON form of the same uplink goes in the result's
// structuredContent (and is the text with format: "json").
//
// A snapshot reads:
//
//   page: orders
//   window: menu 0-49 of 1355; generics all 3 visible; 1 hidden; next offset 50
//   click:
//    orders.refresh Refresh — Reload the order list
//    list:next Next page
//    …
//   input:
//    orders.search Search orders — Type a customer, item or order number
//   disabled:
//    orders.export Export CSV — Download the list as CSV
//   generics:
//    link Docs
//    button Close
//   dirty: orders.note orders.draft +3 more
//   reload: not allowed (unsaved work)
//
// Issue 13's ceilings: at most 4 tokens per menu item beyond its id, title
// and desc, 3 per generic beyond its role and name, and 120 for the frame
// around them (the note included), on any page. Hence:
// - Rows are this server's own form, not TOON: ` id text`, the text being
//   the title, then " — " and the desc. TOON quotes an id with a `-` or `:`
//   and a text with a `:` or a quote, or that reads as a number, and
//   escapes the quotes inside: 1 to 4 tokens more a row on real pages. Here
//   the id ends at the first space: it is bare unless it has a space or a
//   control or format character, or starts with a quote (then it is one
//   JSON string); the text runs to the end of the line (whitespace and
//   controls collapsed to one space, as the page package collapses them
//   already), so it is never quoted. Generics are rows ` role name`.
// - What an item is is told by the key its rows are under: its event when
//   it can run now (click, input, scroll, drag), else why a run would be
//   refused (disabled, hidden, ambiguous, unsupported, unrunnable; such an
//   item's event is in structuredContent only): at most nine key lines of
//   two or three tokens. A kind in the row instead (a column, a first word)
//   costs every row one or two tokens more.
// - The frame is a fixed set of TOON lines (`key: value`) under keys that
//   are never page text, each only when it has something to say. What the
//   page wrote into them (its title, dirty ids, slots not found, a reason
//   or escape type this server does not know) gets the bytes the frame's
//   own lines leave of the 120 tokens: a byte-level BPE tokenizer (o200k,
//   and the models') spends at most one token per UTF-8 byte, so no page
//   text can take the frame past its ceiling. Cut text ends in "…"; lists
//   show their first entries, then `+N more`. structuredContent keeps all.
import { encode } from "@toon-format/toon";
import { quote, UNTRUSTED_NOTE } from "./compact.mjs";
import { GENERIC_REF } from "./names.mjs";

const EVENTS = ["click", "input", "scroll", "drag"];
/** The keys menu items are told under, in this order: runnable by event, then why not. */
export const MENU_KEYS = Object.freeze([...EVENTS, "disabled", "hidden", "ambiguous", "unsupported", "unrunnable"]);
const OPTIONS = { delimiter: "|", indentSize: 1 };

/**
 * The frame's bounds. `tokens`: issue 13's ceiling for the frame, the note
 * included. The rest are UTF-8 bytes of page text, at most, whatever the
 * budget left: the title, one entry of a list (dirty ids, slots not found),
 * a reason; `listed`: entries a list shows, `escapes`: other escape types.
 */
export const FRAME = Object.freeze({ tokens: 120, title: 96, entry: 40, reason: 60, listed: 3, escapes: 2 });

/** The TOON text of a value (the renderer's options). */
export function toon(value) {
  return encode(value, OPTIONS);
}

const utf8 = new TextEncoder();
/** UTF-8 bytes: a byte-level BPE tokenizer's most tokens for a text. */
const bytes = (s) => utf8.encode(s).length;

// o200k's pre-tokenizer (gpt-tokenizer's), the contractions' case written out.
const PIECE =
  /[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/**
 * The o200k tokens of the frame's own lines (plain ASCII English and
 * numbers), or more: one per piece the tokenizer splits the text into
 * (";", ":\n", " offset", up to three digits…), plus the pieces a word of
 * the frame's splits into (WORDS); a word it does not list counts one more
 * from 7 letters and two from 10. tests/mcp-server.test.mjs holds it
 * to gpt-tokenizer on every line the frame can have.
 */
export function ownTokens(text) {
  let n = 0;
  for (const piece of text.match(PIECE) ?? []) {
    if (!/^[\x20-\x7e\n]+$/.test(piece)) n += bytes(piece);
    else {
      const word = piece.replace(/[^A-Za-z]/g, "");
      n += 1 + (WORDS.get(word.toLowerCase()) ?? (word.length >= 10 ? 2 : word.length >= 7 ? 1 : 0));
    }
  }
  return n;
}
/** Words of 7 letters or more in the frame's own text, and the pieces o200k makes of each, less one. */
const WORDS = new Map(Object.entries({ generics: 1, ambiguous: 1, unrunnable: 2, unsaved: 1, escapes: 1, untrusted: 1 }));
for (const word of ["unsupported", "disabled", "visible", "forbidden", "runnable", "allowed", "content", "instructions"]) WORDS.set(word, 0);

/** `s` clipped to at most `max` UTF-8 bytes once shown by `show`, ending in "…" when cut; null when not even that fits. */
function clipShown(s, max, show = (x) => x) {
  if (bytes(show(s)) <= max) return show(s);
  const chars = [...s];
  // Shown text grows with its source (quotes, escapes): shrink until it fits.
  let n = chars.length;
  while (n > 0) {
    const shown = show(chars.slice(0, n).join("") + "…");
    const over = bytes(shown) - max;
    if (over <= 0) return shown;
    n -= Math.max(1, Math.ceil(over / 4));
  }
  return null;
}

/** A text on one line: runs of whitespace and control characters as one space. */
const oneLine = (s) => s.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** An id (or a role) shown bare: no space, control or format character, no leading quote. */
const BARE = /^[^\s\p{C}"][^\s\p{C}]*$/u;

/**
 * An id as a row shows it: bare when it can be (it then ends at the first
 * space), else as one JSON string. In a list with a `+N more` (`list`), an
 * id that starts with "+" is quoted too.
 */
export function shownId(id, list = false) {
  return BARE.test(id) && !(list && id.startsWith("+")) ? id : quote(id);
}

/** A menu row: ` id`, then a space and its text when it has one. */
function menuRow(item) {
  const title = oneLine(item.title);
  const desc = oneLine(item.desc);
  const text = desc ? (title ? `${title} — ${desc}` : `— ${desc}`) : title;
  return ` ${shownId(item.id)}${text ? ` ${text}` : ""}`;
}

/** A generic's row: ` role name` (role "generic" when the page has none). */
function genericRow(g) {
  const name = oneLine(g.name);
  return ` ${shownId(g.role || "generic")}${name ? ` ${name}` : ""}`;
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
 * What the text says of an escape: "allowed", or the reason a reload is
 * refused for the snapshot's own `noReload` or `dirty` told short (the
 * dirty line names the ids the reason lists), or `reason`: a reason this
 * server does not know (page text: the frame clips it).
 */
function escapeSaid(e, s) {
  if (e.allowed) return { said: "allowed" };
  if (e.type === "reload" && e.reason === NO_RELOAD && s.noReload) return { said: "forbidden by the page" };
  if (e.type === "reload" && e.reason?.startsWith(DIRTY) && s.dirty.length) return { said: "not allowed (unsaved work)" };
  return e.reason ? { said: "not allowed: ", reason: e.reason } : { said: "not allowed" };
}

/** The TOON form of a string value (quoted when TOON needs it). */
const toonValue = (s) => toon({ v: s }).slice(3);

/**
 * A frame line with page text in it: `own`, the line without it (what
 * ownTokens counts), `want`, the bytes of page text it would show whole,
 * and `fill(max)`: the line with at most `max` bytes of page text, and
 * the bytes it used.
 * @typedef {{ own: string, want: number, fill: (max: number) => { text: string, used: number } }} Filled
 */

/**
 * A list line (`dirty:`, `slotsNotFound:`): the first entries that fit,
 * each as a row's id (clipped to FRAME.entry bytes), then `+N more`.
 * @returns {Filled}
 */
function listLine(key, all, total) {
  const more = (shown) => (total > shown ? ` +${total - shown} more` : "");
  const first = all.slice(0, FRAME.listed);
  return {
    own: `${key}:${more(0)}`,
    want: first.reduce((n, e) => n + 1 + Math.min(bytes(shownId(e, true)), FRAME.entry), 0),
    fill(max) {
      const shown = [];
      let used = 0;
      for (const entry of first) {
        const whole = shownId(entry, true);
        const text = clipShown(entry, Math.min(max - used - 1, FRAME.entry), (x) => shownId(x, true));
        // A cut id this short tells too little to be worth its bytes.
        if (text === null || (text !== whole && text.length < 8)) break;
        shown.push(text);
        used += 1 + bytes(text);
      }
      return { text: `${key}:${shown.map((e) => ` ${e}`).join("")}${more(shown.length)}`, used };
    },
  };
}

/**
 * A line `key: <value>`, the value `said` (this server's words) then page
 * text, TOON-quoted when it needs it: the quotes and escapes count as page
 * text, `said` as the line's own.
 * @returns {Filled}
 */
function textLine(key, said, text, cap) {
  const value = (x) => toonValue(said + x);
  const used = (shown) => bytes(shown) - bytes(said);
  return {
    own: said ? `${key}: ${said}` : `${key}:`,
    want: Math.min(used(value(text)), cap),
    fill(max) {
      const shown = clipShown(text, Math.min(max, cap) + bytes(said), value) ?? value("…");
      return { text: `${key}: ${shown}`, used: used(shown) };
    },
  };
}

/**
 * Escape types other than the protocol's "reload", which only a page's own
 * script can have answered: the first FRAME.escapes as TOON keys one level
 * in under `escapes:` (so no type takes the place of a line of the frame),
 * each "allowed" or "not allowed" (its reason is in structuredContent),
 * then `+N more`.
 * @returns {Filled}
 */
function escapesLine(others, s) {
  const first = others.slice(0, FRAME.escapes).map((e) => ` ${toon({ [e.type]: escapeSaid(e, s).said.replace(/: $/, "") })}`);
  const more = (n) => (others.length > n ? `\n +${others.length - n} more` : "");
  return {
    own: `escapes:${more(0)}`,
    want: first.reduce((n, line) => n + 1 + bytes(line), 0),
    fill(max) {
      const lines = [];
      let used = 0;
      for (const line of first) {
        if (used + 1 + bytes(line) > max) break;
        lines.push(line);
        used += 1 + bytes(line);
      }
      return { text: ["escapes:", ...lines].join("\n") + more(lines.length), used };
    },
  };
}

/**
 * A compacted snapshot payload (compact.mjs) as text: frame lines in TOON,
 * rows in this server's form (above).
 * @param {{ snapshot: any, escapes: any[] }} payload
 * @param {{ tools?: string }} [extra] a line about the menu tools (--menu-tools)
 */
export function renderSnapshot(payload, extra = {}) {
  const s = payload.snapshot;
  const mw = s.menuWindow;
  const gw = s.genericsWindow;
  /** The text in order: frame lines (strings), rows (`{ rows }`), and lines with page text (Filled). */
  const parts = [];
  if (s.pageTitle !== null) parts.push(textLine("page", "", oneLine(s.pageTitle), FRAME.title));
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
  parts.push(toon({ window: `menu ${span(mw, s.menu.length)}; generics ${span(gw, s.generics.length, " visible")}${hidden}${next}` }));

  // The module lists an id once; a repeated one (a page script's own
  // answer) keeps its first row here (structuredContent has them all).
  const groups = new Map(MENU_KEYS.map((k) => [k, []]));
  const seen = new Set();
  for (const item of s.menu) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    groups.get(kind(item)).push(menuRow(item));
  }
  for (const [key, rows] of groups) if (rows.length) parts.push(`${key}:`, { rows });
  if (extra.tools) parts.push(toon({ tools: extra.tools }));
  if (s.generics.length) parts.push("generics:", { rows: s.generics.map(genericRow) });

  const unresolved = s.islands.flatMap((i) => i.slots.filter((slot) => !slot.resolved).map((slot) => `${i.id}:${slot.name}`));
  if (unresolved.length) parts.push(listLine("slotsNotFound", unresolved, unresolved.length));
  if (s.dirty.length) parts.push(listLine("dirty", s.dirty, Math.max(s.dirtyTotal, s.dirty.length)));
  // Escape types are page text: only the protocol's own ("reload") gets a
  // line of its own; others go under `escapes` (escapesLine).
  for (const e of payload.escapes) {
    if (e.type !== "reload") continue;
    const { said, reason } = escapeSaid(e, s);
    parts.push(reason === undefined ? toon({ reload: said }) : textLine("reload", said, oneLine(reason), FRAME.reason));
  }
  const others = payload.escapes.filter((e) => e.type !== "reload");
  if (others.length) parts.push(escapesLine(others, s));

  // The frame's own tokens (its lines without their page text, and the
  // note; one spare where a line meets its page text), and the bytes that
  // leaves the page's text, shared out evenly (the line that wants least
  // first: what it leaves goes to the others).
  const filled = parts.filter((part) => typeof part === "object" && "own" in part);
  const own = parts.flatMap((part) => (typeof part === "string" ? [part] : "own" in part ? [part.own] : []));
  let left = Math.max(0, FRAME.tokens - ownTokens([...own, UNTRUSTED_NOTE].join("\n")) - filled.length);
  const texts = new Map();
  [...filled]
    .sort((a, b) => a.want - b.want)
    .forEach((line, i, all) => {
      const { text, used } = line.fill(Math.min(line.want, Math.floor(left / (all.length - i))));
      left -= used;
      texts.set(line, text);
    });
  return parts.flatMap((part) => (typeof part === "string" ? [part] : "rows" in part ? part.rows : [texts.get(part)])).join("\n");
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
