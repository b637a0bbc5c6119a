// Menu items as MCP tools (--menu-tools): which items, under which names,
// with which description and input schema. The same rule as the page's
// WebMCP publication (crates/wasm/src/webmcp/plan.rs, documented in docs/mcp.md),
// kept here for the Node side: tests/mcp-names.test.mjs pins both to the
// same vectors and compares them on generated ids, so they cannot drift.
//
// - An id that already is a valid tool name (`[A-Za-z0-9_.-]{1,128}`) is
//   the name.
// - Any other id becomes `{prefix}-{hash}`: each character (code point)
//   outside that set replaced by `_`, cut to 119 characters, then `-` and
//   the 8 lowercase hex digits of the id's name hash: 64-bit FNV-1a over
//   its UTF-8 bytes (the module's one hash, the `fnv` crate's), folded to
//   32 bits (high half xor low half).
// - A name still taken (by a valid id, an earlier item, or a name in
//   `reserved`) gets `-2`, `-3`, … in document order. Valid ids are
//   assigned first.

export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const NAME_CHAR = /^[A-Za-z0-9_.-]$/;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const utf8 = new TextEncoder();

/**
 * The name hash of `text`: 64-bit FNV-1a over its UTF-8 bytes, its high
 * and low halves xor-ed, as 8 lowercase hex digits.
 */
export function nameHash(text) {
  let hash = FNV_OFFSET;
  for (const byte of utf8.encode(text)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * FNV_PRIME);
  return ((hash >> 32n) ^ BigInt.asUintN(32, hash)).toString(16).padStart(8, "0");
}

/** The `{prefix}-{hash}` name of an id that is not a valid tool name. */
export function hashedName(id) {
  let prefix = "";
  let kept = 0;
  for (const ch of id) {
    if (kept === 119) break;
    prefix += NAME_CHAR.test(ch) ? ch : "_";
    kept++;
  }
  return `${prefix}-${nameHash(id)}`;
}

/**
 * One unique tool name per id, in order. `reserved` names (the server's own
 * tools) count as taken from the start.
 * @param {string[]} ids
 * @param {Iterable<string>} [reserved]
 * @returns {string[]}
 */
export function toolNames(ids, reserved = []) {
  const taken = new Set(reserved);
  const out = new Array(ids.length).fill("");
  ids.forEach((id, i) => {
    if (TOOL_NAME.test(id) && !taken.has(id)) {
      out[i] = id;
      taken.add(id);
    }
  });
  ids.forEach((id, i) => {
    if (out[i]) return;
    const base = hashedName(id);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `-${n}`;
      name = base.slice(0, 128 - suffix.length) + suffix;
    }
    out[i] = name;
    taken.add(name);
  });
  return out;
}

const closed = (properties, required) =>
  required
    ? { type: "object", properties, required: [required], additionalProperties: false }
    : { type: "object", properties, additionalProperties: false };

/**
 * The input schema per event kind (arguments: the run payload without `id`).
 * An event not listed here gets no tool: a run would only answer
 * UNSUPPORTED_EVENT.
 */
export const EVENT_SCHEMAS = Object.freeze({
  __proto__: null,
  click: closed({}),
  input: closed(
    {
      value: {
        description:
          "Text for a text field or textarea; true or false for a checkbox or radio; an option value, or a list of them, for a select.",
        anyOf: [{ type: "string" }, { type: "boolean" }, { type: "array", items: { type: "string" } }],
      },
    },
    "value",
  ),
  // `to`, `by` or both: a run with neither is BAD_REQUEST.
  scroll: {
    ...closed({
      to: { type: "string", enum: ["start", "center", "end"], description: "Scroll the item into this position." },
      by: {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
        additionalProperties: false,
        description: "Scroll by this many CSS pixels.",
      },
    }),
    minProperties: 1,
  },
  drag: closed({ to: { type: "string", minLength: 1, description: "The menu id of the item to drop on." } }, "to"),
});

const text = (v) => (typeof v === "string" ? v : "");

/** A generic ref's shape (g + digits): no run takes such an id, a playable's included. */
export const GENERIC_REF = /^g\d+$/;

/** Can a run of this menu item act? (enabled, visible, one element, a dispatchable event, an id a run takes) */
export function runnable(item) {
  return (
    item?.enabled === true &&
    item.visible === true &&
    item.ambiguous !== true &&
    text(item.id) !== "" &&
    !GENERIC_REF.test(text(item.id)) &&
    Object.hasOwn(EVENT_SCHEMAS, text(item.event))
  );
}

/** "{title}: {desc}", or whichever the page wrote, plus the id when the name differs. */
export function toolDescription(item, name) {
  const id = text(item.id);
  const title = text(item.title).trim();
  const desc = text(item.desc).trim();
  const said = title && desc ? `${title}: ${desc}` : title || desc;
  if (!said) return `Menu item ${JSON.stringify(id)} (${text(item.event)})`;
  return name === id ? said : `${said} (menu item ${JSON.stringify(id)})`;
}

/**
 * The tools for a menu: `{ name, id, event, description, inputSchema }` for
 * each runnable item, in menu order.
 * @param {unknown[]} menu
 * @param {Iterable<string>} [reserved]
 */
export function menuTools(menu, reserved = []) {
  const items = (Array.isArray(menu) ? menu : []).filter(runnable);
  const names = toolNames(items.map((i) => i.id), reserved);
  return items.map((item, n) => ({
    name: names[n],
    id: item.id,
    event: item.event,
    description: toolDescription(item, names[n]),
    inputSchema: EVENT_SCHEMAS[item.event],
  }));
}
