// Launches Debian's Chromium through playwright-core (never a downloaded browser).
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launch(extra = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [...CHROMIUM_ARGS, ...(extra.args || [])],
    headless: true,
    ...extra.options,
  });
}
