#!/usr/bin/env node
// in-page-playable-mcp --url <URL> [--cdp <endpoint>] [--inject] [--menu-tools]
//                      [--timeout <ms>] [--chromium <path>] [--headed]
// An MCP server on stdio that lets an agent act on one page only through the
// menu it declares (see docs/mcp.md). Logs go to stderr; stdout is the protocol.
import { parseArgs } from "node:util";

const USAGE = `usage: in-page-playable-mcp --url <URL> [options]

  --url <URL>          the page to open (required); the server never leaves its origin
  --cdp <endpoint>     attach to a running Chromium over CDP (e.g. http://127.0.0.1:9222)
                       instead of launching one; reuses a tab already at <URL>
  --inject             install the package into the page when it has none
  --menu-tools         also offer each runnable menu item as a tool (the first 64)
  --timeout <ms>       how long to wait for the page's answer, 100 to 600000 (default 10000)
  --chromium <path>    the browser to launch (default $CHROMIUM_PATH or /usr/bin/chromium)
  --headed             show the launched browser window
  -h, --help           this text
`;

function fail(message) {
  process.stderr.write(`in-page-playable-mcp: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      url: { type: "string" },
      cdp: { type: "string" },
      inject: { type: "boolean", default: false },
      "menu-tools": { type: "boolean", default: false },
      timeout: { type: "string" },
      chromium: { type: "string" },
      headed: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (e) {
  fail(e.message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!values.url) fail("--url is required");
let url;
try {
  url = new URL(values.url);
} catch {
  fail(`--url ${JSON.stringify(values.url)} is not a URL`);
}
if (url.protocol !== "http:" && url.protocol !== "https:") fail(`--url must be http: or https:, not ${url.protocol}`);
const timeoutMs = values.timeout === undefined ? 10000 : Number(values.timeout);
if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600000) fail("--timeout must be a whole number of ms between 100 and 600000");

// Loaded after the arguments are checked: a usage error needs no browser driver.
const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
const { PageLink } = await import("./page.mjs");
const { createServer } = await import("./server.mjs");

const link = new PageLink({
  url: url.href,
  cdp: values.cdp,
  inject: values.inject,
  timeoutMs,
  chromium: values.chromium,
  headed: values.headed,
});
try {
  await link.open();
} catch (e) {
  // A redirect away (http → https, apex → www): the server stays on --url's origin, so the user picks the final one.
  const what = e.redirectedTo ? `${e.message}: pass the final URL (where the redirect leads) as --url` : e.message;
  process.stderr.write(`in-page-playable-mcp: could not open ${url.href}: ${what}\n`);
  await link.close().catch(() => {});
  process.exit(1);
}

const server = createServer(link, { menuTools: values["menu-tools"] });
if (server.menuTools) {
  // The first tools/list already lists the menu; then the tools follow it.
  const menu = server.menuTools;
  await menu.sync().catch((e) => process.stderr.write(`in-page-playable-mcp: menu tools: ${e.message}\n`));
  await link.watch(() => menu.schedule());
}
let closing = false;
async function shutdown(code = 0) {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  await link.close().catch(() => {});
  process.exit(code);
}
server.server.onclose = () => void shutdown(0);
process.stdin.on("end", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
await server.connect(new StdioServerTransport());
process.stderr.write(`in-page-playable-mcp: serving ${url.href} on stdio\n`);
