// Side-by-side snapshot timing of this checkout's build against another
// checkout's (for example an older commit in a `git worktree`, built there
// with `npm run build`). Each build runs in its own tab; rounds alternate
// between them so that drift hits both alike, and every trial opens fresh
// tabs (the figures vary from tab to tab more than from build to build).
// Both tabs time the same DOM floor (this checkout's bench/inpage.mjs).
// Prints, per trial, each build's median snapshot, floor and their ratio.
//
//   node bench/ab.mjs /path/to/other/checkout [sizes] [rounds] [trials]
//   node bench/ab.mjs /tmp/wt-old 10000,100000 11 4
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { launch } from "../tests/support/browser.mjs";
import { startServer } from "../tests/support/server.mjs";
import { generatePage } from "./generate.mjs";
import { IN_PAGE } from "./inpage.mjs";

const [other, sizesArg = "10000,100000", roundsArg = "11", trialsArg = "4"] = process.argv.slice(2);
if (!other) {
  console.error("usage: node bench/ab.mjs OTHER_CHECKOUT [sizes] [rounds] [trials]");
  process.exit(2);
}
const here = resolve(new URL("..", import.meta.url).pathname);
const there = resolve(other);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { startServer: startOther } = await import(`${there}/tests/support/server.mjs`);
const servers = { this: await startServer(), other: await startOther() };
const dirs = { this: here, other: there };
const browser = await launch();
try {
  for (const size of sizesArg.split(",").map(Number)) {
    const { html, islandSlots, runId } = generatePage(size);
    for (const dir of Object.values(dirs)) {
      mkdirSync(`${dir}/bench/tmp`, { recursive: true });
      writeFileSync(`${dir}/bench/tmp/ab-${size}.html`, html);
      writeFileSync(`${dir}/bench/tmp/ab-slots-${size}.json`, JSON.stringify(islandSlots));
    }
    for (let trial = 0; trial < Number(trialsArg); trial++) {
      const pages = {};
      for (const k of ["this", "other"]) {
        const page = await browser.newPage();
        await page.goto(`${servers[k].origin}/bench/tmp/ab-${size}.html`);
        await page.evaluate(IN_PAGE);
        await page.evaluate(({ u, r }) => window.__bench.setup(u, r), { u: `/bench/tmp/ab-slots-${size}.json`, r: runId });
        pages[k] = page;
      }
      const times = { this: { s: [], f: [] }, other: { s: [], f: [] } };
      for (let i = 0; i < Number(roundsArg); i++) {
        for (const k of i % 2 ? ["other", "this"] : ["this", "other"]) {
          const r = await pages[k].evaluate(() => window.__bench.round(10));
          times[k].s.push(r.snapshot);
          times[k].f.push(r.floor);
        }
      }
      for (const k of ["this", "other"]) {
        const s = median(times[k].s), f = median(times[k].f);
        console.log(`${size} trial ${trial} ${k.padEnd(5)}: snapshot ${s.toFixed(2)} ms, floor ${f.toFixed(2)} ms, ratio ${(s / f).toFixed(3)}`);
      }
      for (const page of Object.values(pages)) await page.close();
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) await s.close();
}
