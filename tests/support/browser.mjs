// Launches Debian's Chromium through playwright-core (never a downloaded browser).
import { chromium } from "playwright-core";
// One flag list for the suites and the MCP server (which ships it in the package).
import { CHROMIUM_ARGS as BASE_ARGS } from "../../mcp/page.mjs";

export const CHROMIUM_ARGS = ["--headless=new", ...BASE_ARGS];

export async function launch(extra = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [...CHROMIUM_ARGS, ...(extra.args || [])],
    headless: true,
    ...extra.options,
  });
}
