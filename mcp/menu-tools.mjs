// --menu-tools: each runnable menu item is also an MCP tool, named by the
// WebMCP naming rule (names.mjs), with its event's input schema. The tools
// follow the menu: the server re-reads it after DOM changes (PageLink.watch),
// after every call and on every new document, and brings the registered
// tools in line; the SDK then sends notifications/tools/list_changed (one
// per burst: the server debounces it). A call is a `run` like page_run's:
// the page reads its menu afresh, checks the latch and actionability, and a
// refusal changes nothing; a tool whose item went away answers NOT_IN_MENU.
// Its result is page_run's (text, structuredContent and outputSchema).
//
// Past MAX_MENU_TOOLS runnable items, the first ones in menu order are tools
// and the snapshot says so (page_run runs any item).
import { z } from "zod";
import { menuTools } from "./names.mjs";

export const MAX_MENU_TOOLS = 64;
/** Menu items per read while collecting runnable ones. */
const READ_LIMIT = 200;
/** At most this many reads per sync (READ_LIMIT × READS items). */
const READS = 10;

const ANNOTATIONS = Object.freeze({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });

export class MenuTools {
  /**
   * @param {import("@modelcontextprotocol/sdk/server/mcp.js").McpServer} server
   * @param {{
   *   read: (window: { offset: number, limit: number }) => Promise<any>,
   *   run: (id: string, args: Record<string, unknown>) => Promise<any>,
   *   outputSchema: Record<string, import("zod").ZodType>,
   *   reserved: string[],
   * }} hooks read: a windowed snapshot uplink; run: the tool result of a run;
   *   outputSchema: its structuredContent (page_run's)
   */
  constructor(server, { read, run, outputSchema, reserved }) {
    this.server = server;
    this.read = read;
    this.run = run;
    this.outputSchema = outputSchema;
    this.reserved = reserved;
    /** name → { key, tool } */
    this.registered = new Map();
    /** More runnable items than tools at the last sync. */
    this.more = false;
    /** @type {Promise<void> | null} */
    this.syncing = null;
    this.again = false;
  }

  /** The names registered now, in menu order. */
  names() {
    return [...this.registered.keys()];
  }

  /** A line for snapshots when not every runnable item is a tool. */
  note() {
    return this.more ? `first ${MAX_MENU_TOOLS} runnable items; page_run runs any` : undefined;
  }

  /** Re-reads the menu and updates the tools; coalesced. Resolves when the tools match a read made after the call. */
  sync() {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      try {
        do {
          this.again = false;
          try {
            await this.#syncOnce();
          } catch (e) {
            // A change asked for a read while this one failed: that read
            // still happens (it may well succeed); otherwise say why.
            if (!this.again) throw e;
          }
        } while (this.again);
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  /** sync() for callers that do not wait (DOM changes, after a call); never rejects. */
  schedule() {
    this.sync().catch((e) => process.stderr.write(`in-page-playable-mcp: menu tools not updated: ${e?.message ?? e}\n`));
  }

  async #syncOnce() {
    const items = [];
    for (let offset = 0, reads = 0; reads < READS; reads++) {
      const up = await this.read({ offset, limit: READ_LIMIT });
      if (up?.ok !== true) return; // no usable answer: keep what is registered
      const { menu, menuWindow } = up.payload.snapshot;
      items.push(...menu);
      const runnableSeen = menuTools(items, this.reserved).length;
      offset += menu.length;
      if (runnableSeen > MAX_MENU_TOOLS || menu.length === 0 || offset >= menuWindow.total) break;
    }
    const planned = menuTools(items, this.reserved);
    this.more = planned.length > MAX_MENU_TOOLS;
    const wanted = new Map(
      planned.slice(0, MAX_MENU_TOOLS).map((t) => [t.name, { ...t, key: JSON.stringify([t.id, t.description, t.inputSchema]) }]),
    );
    for (const [name, entry] of this.registered) {
      if (wanted.get(name)?.key !== entry.key) {
        entry.tool.remove();
        this.registered.delete(name);
      }
    }
    for (const [name, t] of wanted) {
      if (this.registered.has(name)) continue;
      const id = t.id;
      const tool = this.server.registerTool(
        name,
        { description: t.description, inputSchema: z.fromJSONSchema(t.inputSchema), outputSchema: this.outputSchema, annotations: ANNOTATIONS },
        async (args) => {
          const result = await this.run(id, args ?? {});
          this.schedule(); // the page may have changed in ways no mutation shows
          return result;
        },
      );
      this.registered.set(name, { key: t.key, tool });
    }
  }
}
