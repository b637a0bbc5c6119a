// `npm run bench`: one Chromium run over generated pages of about 1,000,
// 10,000 and 100,000 elements. Measures the module's snapshot through
// handle(), the DOM floor (bare reads the contract needs), Playwright's
// ariaSnapshot, run, the bridge round trip, install + instantiate, module
// size, and memory over 10,000 snapshot/run cycles. Writes
// bench/results.json and regenerates docs/benchmarks.md.
//
//   npm run bench                  # everything
//   npm run bench -- --quick       # fewer samples, 1k and 10k only (smoke)
//   npm run bench -- --profile     # also CPU-profile snapshot and floor (bench/tmp/*.cpuprofile)
//   npm run bench -- --report      # only rewrite docs/benchmarks.md from bench/results.json
//   npm run bench -- --size        # re-measure only the size and the crates' costs (no timing) of the
//                                  # current build into bench/results.json, then rewrite the report
//   npm run bench -- --import      # only the import (package and bench/floor's module, alternating);
//                                  # prints the medians, writes nothing (to see how the figure varies)
import { mkdirSync, writeFileSync, readFileSync } from "node:fs";
import { cpus, totalmem, platform, release } from "node:os";
import { fileURLToPath } from "node:url";
import { launch } from "../tests/support/browser.mjs";
import { ENTRY_PATH, startServer } from "../tests/support/server.mjs";
import { measure as measureSize, moduleFiles } from "../scripts/size.mjs";
import { generatePage } from "./generate.mjs";
import { crateTable } from "./crates.mjs";
import { floor } from "./floor.mjs";
import { IN_PAGE } from "./inpage.mjs";
import { writeReport } from "./report.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
process.chdir(ROOT);
const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const PROFILE = args.has("--profile");
const SIZES = QUICK ? [1000, 10000] : [1000, 10000, 100000];
const SAMPLES = QUICK ? 7 : 21; // ≥ 15 (issue 5); odd, so the median is a sample
const ARIA_SAMPLES = QUICK ? 5 : 15;
// Issue 5 asks for medians of at least 15 samples, ariaSnapshot's included:
// at 100k each takes about 7 s here, so this stage alone is close to 2 minutes.
const ARIA_SAMPLES_100K = QUICK ? 3 : 15;
const MIN_MS = 10; // each sample repeats until at least this much time passed
const CYCLES = QUICK ? 1000 : 10000;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), samples: xs.length });

function log(...a) {
  console.log(...a);
}

async function openPage(browser, origin, file) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => log("page error:", e.message));
  await page.goto(`${origin}/bench/tmp/${file}`);
  await page.evaluate(IN_PAGE);
  return page;
}

/** Times `ariaSnapshot()` from Node, repeating until MIN_MS elapsed. */
async function ariaSample(page) {
  const loc = page.locator("body");
  let n = 0;
  const t0 = performance.now();
  let t;
  do {
    // One ariaSnapshot of the 100k page can take longer than Playwright's
    // default 30 s on this machine.
    await loc.ariaSnapshot({ timeout: 180_000 });
    n++;
    t = performance.now();
  } while (t - t0 < MIN_MS);
  return (t - t0) / n;
}

async function benchSize(browser, origin, size) {
  const { html, islandSlots, counts, runId } = generatePage(size);
  const file = `page-${size}.html`;
  writeFileSync(`bench/tmp/${file}`, html);
  writeFileSync(`bench/tmp/slots-${size}.json`, JSON.stringify(islandSlots));
  const page = await openPage(browser, origin, file);
  const setup = await page.evaluate(
    async ({ slotsUrl, runId }) => window.__bench.setup(slotsUrl, runId),
    { slotsUrl: `/bench/tmp/slots-${size}.json`, runId },
  );
  const expectedMenu = counts.playables + 2 * counts.islands;
  if (setup.menu !== expectedMenu || setup.generics !== counts.unmarked) {
    throw new Error(`size ${size}: menu ${setup.menu} (want ${expectedMenu}), generics ${setup.generics} (want ${counts.unmarked})`);
  }
  log(`  page ${size}: ${setup.elements} elements, ${setup.menu} menu items, ${setup.generics} generics, uplink ${(setup.uplinkBytes / 1024).toFixed(0)} KiB`);

  const snapshot = [], floor = [], run = [], bridge = [], aria = [];
  for (let i = 0; i < SAMPLES; i++) {
    const s = await page.evaluate((minMs) => window.__bench.round(minMs), MIN_MS);
    snapshot.push(s.snapshot);
    floor.push(s.floor);
    run.push(s.run);
    bridge.push(s.bridge);
    if (i < (size >= 100000 ? ARIA_SAMPLES_100K : ARIA_SAMPLES)) aria.push(await ariaSample(page));
  }
  let profile = null;
  if (PROFILE) profile = await profileSize(page, size);
  await page.close();
  const result = {
    size,
    counts,
    menuItems: setup.menu,
    generics: setup.generics,
    uplinkBytes: setup.uplinkBytes,
    snapshotMs: stats(snapshot),
    floorMs: stats(floor),
    ariaSnapshotMs: stats(aria),
    runMs: stats(run),
    bridgeSnapshotMs: stats(bridge),
  };
  result.ratios = {
    snapshotOverFloor: result.snapshotMs.median / result.floorMs.median,
    ariaOverSnapshot: result.ariaSnapshotMs.median / result.snapshotMs.median,
  };
  if (profile) result.profile = profile;
  log(
    `  snapshot ${result.snapshotMs.median.toFixed(3)} ms, floor ${result.floorMs.median.toFixed(3)} ms ` +
      `(×${result.ratios.snapshotOverFloor.toFixed(2)}), ariaSnapshot ${result.ariaSnapshotMs.median.toFixed(1)} ms ` +
      `(${result.ratios.ariaOverSnapshot.toFixed(0)}× slower), run ${result.runMs.median.toFixed(3)} ms, ` +
      `bridge snapshot ${result.bridgeSnapshotMs.median.toFixed(3)} ms`,
  );
  return result;
}

/** CPU profile of snapshot and floor loops; returns the top self-time functions. */
async function profileSize(page, size) {
  const cdp = await page.context().newCDPSession(page);
  const out = {};
  for (const what of ["snapshot", "floor"]) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    await cdp.send("Profiler.start");
    await page.evaluate((w) => window.__bench.loop(w, 1000), what);
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(`bench/tmp/${what}-${size}.cpuprofile`, JSON.stringify(profile));
    out[what] = topSelf(profile, 12);
  }
  await cdp.detach();
  return out;
}

function topSelf(profile, n) {
  const self = new Map();
  const dt = profile.timeDeltas;
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const total = dt.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const f = node.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (dt[i] || 0));
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, share: +(us / total).toFixed(3) }));
}

/**
 * The package's import in a fresh page, alternating with bench/floor's
 * module (the card's crates alone) so that both see the same machine.
 */
async function benchInstall(browser, origin) {
  const ours = [], installs = [], floors = [];
  for (let i = 0; i < SAMPLES; i++) {
    const page = await openPage(browser, origin, "blank.html");
    const r = await page.evaluate(([m, entry]) => window.__bench.install(m, entry), [MIN_MS, ENTRY_PATH]);
    ours.push(r);
    installs.push(r.installMs);
    await page.close();
    const floorPage = await openPage(browser, origin, "blank.html");
    floors.push(await floorPage.evaluate(() => window.__bench.importFloor()));
    await floorPage.close();
  }
  const of = (rows, key) => stats(rows.map((r) => r[key]));
  return {
    importAndInstantiateMs: of(ours, "importMs"),
    installPlayableMs: stats(installs),
    floorImportMs: of(floors, "importMs"),
    // Where the import goes, split at the glue's fetch of the .wasm (medians of each part, so they need not add up).
    phases: {
      package: { scriptMs: of(ours, "scriptMs"), wasmMs: of(ours, "wasmMs") },
      floor: { scriptMs: of(floors, "scriptMs"), wasmMs: of(floors, "wasmMs") },
    },
  };
}

async function benchBridgeHello(browser, origin) {
  const page = await openPage(browser, origin, "page-1000.html");
  await page.evaluate(() => window.__bench.setup("/bench/tmp/slots-1000.json", null));
  const xs = [];
  for (let i = 0; i < SAMPLES; i++) xs.push(await page.evaluate((m) => window.__bench.bridgeHello(m), MIN_MS));
  await page.close();
  return stats(xs);
}

async function benchMemory(browser, origin) {
  const page = await openPage(browser, origin, "page-1000.html");
  await page.evaluate(() => window.__bench.setup("/bench/tmp/slots-1000.json", "p30"));
  const cdp = await page.context().newCDPSession(page);
  const usage = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = await cdp.send("Runtime.getHeapUsage");
    const wasm = await page.evaluate(() => window.__bench.wasmMemory());
    return { jsHeapUsed: heap.usedSize, wasmMemory: wasm };
  };
  await page.evaluate(() => window.__bench.cycles(200));
  const before = await usage();
  await page.evaluate((n) => window.__bench.cycles(n), CYCLES);
  const after = await usage();
  await page.evaluate((n) => window.__bench.cycles(n), CYCLES);
  const after2 = await usage();
  await cdp.detach();
  await page.close();
  return {
    page: 1000,
    cycles: CYCLES,
    before,
    after,
    afterTwice: after2,
    growth: {
      jsHeapBytes: after.jsHeapUsed - before.jsHeapUsed,
      wasmMemoryBytes: after.wasmMemory - before.wasmMemory,
      jsHeapBytesSecondRound: after2.jsHeapUsed - after.jsHeapUsed,
      wasmMemoryBytesSecondRound: after2.wasmMemory - after.wasmMemory,
    },
  };
}

/** bench/tmp/blank.html: the fresh page each import sample opens. */
function writeBlankPage() {
  mkdirSync("bench/tmp", { recursive: true });
  writeFileSync("bench/tmp/blank.html", "<!doctype html><html><head><meta charset=utf-8></head><body></body></html>");
}

async function main() {
  writeBlankPage();
  const size = measureSize(moduleFiles());
  // Before any timing (and before the browser): a missing twiggy or release
  // .wasm must not cost a whole run.
  const crates = crateTableLogged();
  const server = await startServer();
  const browser = await launch();
  const machine = {
    cpu: cpus()[0]?.model?.trim() || "unknown",
    cores: cpus().length,
    memoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
    os: `${platform()} ${release()}`,
    node: process.version,
    chromium: browser.version(),
    playwrightCore: JSON.parse(readFileSync("node_modules/playwright-core/package.json", "utf8")).version,
  };
  log(`machine: ${machine.cpu}, ${machine.cores} cores, Chromium ${machine.chromium}`);
  log(`module: raw ${size.raw} B, gzip ${size.gzip} B, brotli ${size.brotli} B`);
  try {
    // Built first: the install stage imports bench/floor's module beside the package.
    const entry = await entryFee();
    const pages = [];
    for (const n of SIZES) pages.push(await benchSize(browser, server.origin, n));
    log("  install…");
    const install = await benchInstall(browser, server.origin);
    log(`  import + instantiate ${install.importAndInstantiateMs.median.toFixed(2)} ms (the card floor's module: ${install.floorImportMs.median.toFixed(2)} ms), installPlayable ${install.installPlayableMs.median.toFixed(3)} ms`);
    const bridgeHello = await benchBridgeHello(browser, server.origin);
    log(`  bridge hello round trip ${bridgeHello.median.toFixed(3)} ms`);
    log(`  memory over ${CYCLES} snapshot/run cycles…`);
    const memory = await benchMemory(browser, server.origin);
    log(`  growth: JS heap ${memory.growth.jsHeapBytes} B, wasm memory ${memory.growth.wasmMemoryBytes} B`);
    const results = {
      generated: new Date().toISOString(),
      quick: QUICK,
      method: { samples: SAMPLES, ariaSamples: ARIA_SAMPLES, ariaSamples100k: ARIA_SAMPLES_100K, minSampleMs: MIN_MS, statistic: "median" },
      machine,
      moduleSize: size,
      pages,
      install,
      bridgeHelloMs: bridgeHello,
      memory,
      crates,
      entryFee: entry,
    };
    if (!QUICK) writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
    writeReport(results, QUICK ? "bench/tmp/benchmarks.md" : "docs/benchmarks.md");
    log(QUICK ? "quick run: wrote bench/tmp/benchmarks.md only" : "wrote bench/results.json and docs/benchmarks.md");
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The import stage alone, as main() runs it; prints, writes nothing. */
async function importOnly() {
  writeBlankPage();
  await floor(true);
  const server = await startServer();
  const browser = await launch();
  try {
    const r = await benchInstall(browser, server.origin);
    const m = (s) => s.median.toFixed(1) + " ms";
    log(`import + instantiate ${m(r.importAndInstantiateMs)} (min ${r.importAndInstantiateMs.min.toFixed(1)}, max ${r.importAndInstantiateMs.max.toFixed(1)}); bench/floor's module ${m(r.floorImportMs)}`);
    log(`  split: package ${m(r.phases.package.scriptMs)} / ${m(r.phases.package.wasmMs)}, floor ${m(r.phases.floor.scriptMs)} / ${m(r.phases.floor.wasmMs)}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The crate table, or a note at the start of the run that it is left out and how to get it. */
function crateTableLogged() {
  const crates = crateTable();
  if (crates.skipped) log(`crate table skipped: ${crates.skipped}`);
  return crates;
}

/** bench/floor built twice: wasm-bindgen alone, then the card's crates (sizes as scripts/size.mjs counts them). */
async function entryFee() {
  const bare = await floor(false);
  const card = await floor(true);
  log(`  the card's entry fee: wasm-bindgen alone ${bare.gzip} B gzip, with the card's crates ${card.gzip} B`);
  return { bare, card };
}

if (args.has("--size")) {
  const results = JSON.parse(readFileSync("bench/results.json", "utf8"));
  results.moduleSize = measureSize(moduleFiles());
  results.crates = crateTableLogged();
  results.entryFee = await entryFee();
  results.sizeMeasured = new Date().toISOString();
  writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
  writeReport(results, "docs/benchmarks.md");
  log(`size re-measured: ${results.moduleSize.gzip} B gzip; rewrote bench/results.json and docs/benchmarks.md`);
} else if (args.has("--import")) {
  await importOnly();
} else if (args.has("--report")) {
  writeReport(JSON.parse(readFileSync("bench/results.json", "utf8")), "docs/benchmarks.md");
  log("rewrote docs/benchmarks.md from bench/results.json");
} else {
  await main();
}
