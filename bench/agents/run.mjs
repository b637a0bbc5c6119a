// `npm run bench:agents`: the agent's path through three MCP servers, side
// by side in one run, on the same pages in the same Debian Chromium:
// in-page-playable-mcp (this repository), Playwright MCP (@playwright/mcp)
// and Chrome DevTools MCP (chrome-devtools-mcp). Each is driven by the
// official SDK's Client over stdio, as an agent's host would.
//
// For each page (the playground; bench/agents/pages.mjs's generated pages
// of 1k and 10k elements) and server: the observation (the default
// snapshot), find (one item by its words) and act (click it), in tokens
// (gpt-tokenizer, o200k: what the model reads, every text item of the
// result) and ms (wall time of the tool call, median of the samples). Plus
// --inject's first snapshot of pages that do not ship the package.
// Writes bench/agents/results.json and docs/agents-benchmark.md.
//
// The peers live in bench/agents/peers/ (their own package.json, installed
// here with --ignore-scripts when missing: no browser download; they drive
// /usr/bin/chromium, DevTools MCP with usage statistics, CrUX and update
// checks off). Not part of npm test.
//
//   npm run bench:agents               # everything
//   npm run bench:agents -- --quick    # 3 samples (smoke)
//   npm run bench:agents -- --report   # only rewrite the doc from results.json
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem, platform, release } from "node:os";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startServer } from "../../tests/support/server.mjs";
import { agentPage } from "./pages.mjs";
import { writeReport } from "./report.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
process.chdir(ROOT);
const PEERS = `${ROOT}bench/agents/peers/`;
const CWD = `${ROOT}bench/tmp/agents-cwd/`; // Playwright MCP writes .playwright-mcp/ into its cwd
const RESULTS = `${ROOT}bench/agents/results.json`;
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const SAMPLES = QUICK ? 3 : 7;
const INJECT_SAMPLES = QUICK ? 2 : 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const textOf = (res) => res.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
const log = (...a) => console.log(...a);

if (args.has("--report")) {
  writeReport(JSON.parse(readFileSync(RESULTS, "utf8")));
  process.exit(0);
}

function installPeers() {
  if (existsSync(`${PEERS}node_modules/@playwright/mcp/cli.js`) && existsSync(`${PEERS}node_modules/chrome-devtools-mcp/package.json`)) return;
  log("installing the peers into bench/agents/peers/ (npm install --ignore-scripts: no browser download)");
  execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--workspaces=false"], { cwd: PEERS, stdio: "inherit" });
}
const version = (name) => JSON.parse(readFileSync(`${PEERS}node_modules/${name}/package.json`, "utf8")).version;

/** The three servers: how to start one, and its observation, find and act calls. */
const SERVERS = {
  ours: {
    label: "in-page-playable-mcp",
    spawn: (url, extra = []) => ({ command: process.execPath, args: [`${ROOT}mcp/bin.mjs`, "--url", url, ...extra] }),
    navigate: async () => {},
    observe: (c) => c.callTool({ name: "page_snapshot", arguments: {} }),
    find: (c, needle) => c.callTool({ name: "page_snapshot", arguments: { query: needle.text } }),
    act: (c, needle) => c.callTool({ name: "page_run", arguments: { id: needle.id } }),
  },
  playwright: {
    label: "Playwright MCP",
    spawn: () => ({
      command: process.execPath,
      args: [`${PEERS}node_modules/@playwright/mcp/cli.js`, "--executable-path", CHROMIUM, "--headless", "--isolated", "--no-sandbox"],
    }),
    navigate: (c, url) => c.callTool({ name: "browser_navigate", arguments: { url } }),
    observe: (c) => c.callTool({ name: "browser_snapshot", arguments: {} }),
    find: (c, needle) => c.callTool({ name: "browser_find", arguments: { text: needle.name } }),
    // The ref of the button named by the needle, from what find returned.
    act: async (c, needle, found) => {
      const ref = new RegExp(`button "${escape(needle.name)}"[^\\n]*\\[ref=(e\\d+)\\]`).exec(found)?.[1];
      if (!ref) throw new Error(`Playwright MCP: no ref for ${needle.name}`);
      return c.callTool({ name: "browser_click", arguments: { target: ref, element: needle.name } });
    },
  },
  devtools: {
    label: "Chrome DevTools MCP",
    spawn: () => ({
      command: process.execPath,
      args: [
        `${PEERS}node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js`,
        "--executablePath", CHROMIUM, "--headless", "--isolated",
        "--no-usage-statistics", "--no-performance-crux", "--no-page-id-routing",
        "--chromeArg=--no-sandbox", "--chromeArg=--disable-component-update", "--chromeArg=--disable-background-networking",
      ],
      env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: "1", CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: "1" },
    }),
    navigate: (c, url) => c.callTool({ name: "navigate_page", arguments: { type: "url", url } }),
    observe: (c) => c.callTool({ name: "take_snapshot", arguments: {} }),
    // No find tool: the item is found in the snapshot.
    find: (c) => c.callTool({ name: "take_snapshot", arguments: {} }),
    act: async (c, needle, found) => {
      const uid = new RegExp(`uid=(\\S+) button "${escape(needle.name)}"`).exec(found)?.[1];
      if (!uid) throw new Error(`DevTools MCP: no uid for ${needle.name}`);
      return c.callTool({ name: "click", arguments: { uid } });
    },
  },
};

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Set when our server said the page's package does not window snapshots (an older build). */
let unwindowed = false;

async function connect(spec) {
  const transport = new StdioClientTransport({ ...spec, cwd: CWD, stderr: "pipe" });
  transport.stderr?.on("data", (d) => {
    if (/does not window snapshots/.test(String(d))) unwindowed = true;
  });
  const client = new Client({ name: "bench-agents", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** Times one tool call; returns { ms, tokens, chars, text }. */
async function timed(call) {
  const t0 = performance.now();
  const res = await call();
  const ms = performance.now() - t0;
  if (res.isError) throw new Error(textOf(res).slice(0, 300));
  const text = textOf(res);
  return { ms, tokens: countTokens(text), chars: text.length, text, structuredChars: res.structuredContent ? JSON.stringify(res.structuredContent).length : 0 };
}

async function measure(server, page) {
  const s = SERVERS[server];
  const client = await connect(s.spawn(page.url));
  try {
    await s.navigate(client, page.url);
    const first = await timed(() => s.observe(client));
    const observe = [];
    for (let i = 0; i < SAMPLES; i++) observe.push(await timed(() => s.observe(client)));
    const find = [];
    for (let i = 0; i < SAMPLES; i++) find.push(await timed(() => s.find(client, page.needle)));
    const shown = server === "ours" ? page.needle.id : page.needle.name;
    if (!find[0].text.includes(shown)) throw new Error(`${s.label}: find did not show ${shown}`);
    const act = [];
    for (let i = 0; i < SAMPLES; i++) {
      const found = (await timed(() => s.find(client, page.needle))).text;
      act.push(await timed(() => s.act(client, page.needle, found)));
    }
    const sum = (xs) => ({
      ms: median(xs.map((x) => x.ms)),
      tokens: median(xs.map((x) => x.tokens)),
      chars: median(xs.map((x) => x.chars)),
      structuredChars: median(xs.map((x) => x.structuredChars)),
    });
    const out = { firstObserveMs: first.ms, observe: sum(observe), find: sum(find), act: sum(act), findCalls: 1, actSample: act[0].text.slice(0, 400) };
    log(
      `  ${s.label.padEnd(22)} observe ${out.observe.tokens} tok ${out.observe.ms.toFixed(0)} ms (first ${first.ms.toFixed(0)}), ` +
        `find ${out.find.tokens} tok ${out.find.chars} chars ${out.find.ms.toFixed(0)} ms, act ${out.act.tokens} tok ${out.act.ms.toFixed(0)} ms`,
    );
    return out;
  } finally {
    await client.close();
  }
}

/** --inject: a fresh server on a page without the package, its first page_snapshot. */
async function injectFirst(url) {
  const xs = [];
  for (let i = 0; i < INJECT_SAMPLES; i++) {
    const client = await connect(SERVERS.ours.spawn(url, ["--inject"]));
    try {
      xs.push((await timed(() => SERVERS.ours.observe(client))).ms);
    } finally {
      await client.close();
    }
  }
  return { ms: median(xs), max: Math.max(...xs), samples: xs.length };
}

async function main() {
  installPeers();
  mkdirSync(CWD, { recursive: true });
  mkdirSync(`${ROOT}bench/tmp`, { recursive: true });
  const http = await startServer();
  const pages = [
    { name: "playground", url: `${http.origin}/playground/index.html`, needle: { text: "Show shipped orders", id: "orders.filter.shipped", name: "Shipped" } },
  ];
  for (const size of [1000, 10000]) {
    const { html, rows } = agentPage(size);
    writeFileSync(`${ROOT}bench/tmp/agents-${size}.html`, html);
    writeFileSync(`${ROOT}bench/tmp/bare-${size}.html`, agentPage(size, { ship: false }).html);
    const n = size === 10000 ? 739 : Math.floor(rows / 2) + 2; // rows 4, 14, … are disabled; 739 and 39 are not
    pages.push({
      name: `${size / 1000}k elements`,
      size,
      url: `${http.origin}/bench/tmp/agents-${size}.html`,
      needle: { text: `Approve item ${n}`, id: `row.${n}.approve`, name: `Approve item ${n}` },
    });
  }
  const results = {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, memGiB: +(totalmem() / 2 ** 30).toFixed(1), os: `${platform()} ${release()}`, node: process.version },
    chromium: execFileSync(CHROMIUM, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(),
    versions: { playwrightMcp: version("@playwright/mcp"), devtoolsMcp: version("chrome-devtools-mcp"), ours: JSON.parse(readFileSync(`${ROOT}mcp/package.json`, "utf8")).version },
    commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
    samples: SAMPLES,
    pages: [],
    inject: [],
  };
  try {
    for (const page of pages) {
      log(`${page.name}: ${page.url} (find "${page.needle.text}")`);
      const row = { name: page.name, needle: page.needle, servers: {} };
      for (const server of Object.keys(SERVERS)) row.servers[server] = await measure(server, page);
      results.pages.push(row);
    }
    for (const path of ["/tests/fixtures/seed.html", "/bench/tmp/bare-10000.html"]) {
      const r = await injectFirst(http.origin + path);
      log(`--inject, first page_snapshot of ${path}: ${r.ms.toFixed(0)} ms (max ${r.max.toFixed(0)})`);
      results.inject.push({ path, ...r });
    }
  } finally {
    await http.close();
  }
  results.pageWindows = !unwindowed;
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + "\n");
  writeReport(results);
  log("wrote bench/agents/results.json and docs/agents-benchmark.md");
}

await main();
