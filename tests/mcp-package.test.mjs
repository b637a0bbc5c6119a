// The package split (issue 13): the page package `in-page-playable-page`
// ships the module alone and brings no browser driver, MCP SDK or zod; the
// MCP server is its own package `in-page-playable-mcp` (mcp/, an npm
// workspace) with a bin of the same name, depending on the page package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER_ONLY = ["playwright-core", "@modelcontextprotocol/sdk", "zod", "@toon-format/toon"];

/** `npm pack --dry-run --json` (of the workspace `workspace`, else of the root): the one entry. */
function pack(workspace) {
  const args = ["pack", "--dry-run", "--json", "--ignore-scripts", ...(workspace ? ["-w", workspace] : [])];
  const out = execFileSync("npm", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const entries = JSON.parse(out);
  assert.equal(entries.length, 1);
  return entries[0];
}

const manifest = (path) => JSON.parse(readFileSync(new URL(path, new URL("..", import.meta.url)), "utf8"));

test("the page package: the module's files only, and none of the server's dependencies", () => {
  const entry = pack();
  assert.equal(entry.name, "in-page-playable-page");
  const files = entry.files.map((f) => f.path);
  assert.ok(files.includes("www/index.js") && files.includes("www/index.d.ts"), files.join(", "));
  assert.deepEqual(files.filter((f) => f.startsWith("mcp/")), [], "mcp/ is not shipped");
  const pkg = manifest("package.json");
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "bundleDependencies"]) {
    for (const name of SERVER_ONLY) assert.equal(pkg[field]?.[name], undefined, `${field} lists ${name}`);
  }
  assert.equal(pkg.bin, undefined, "the page package has no bin");
});

test("the page package ships every doc its README links to, so the links work from node_modules", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  // Links, not images: `[text](docs/x.md#part)`, without the anchor.
  const linked = [...readme.matchAll(/(?<!!)\[[^\]]*\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]);
  assert.ok(linked.length >= 5, `the README links its docs: ${linked.join(", ")}`);
  const files = pack().files.map((f) => f.path);
  for (const doc of new Set(linked)) assert.ok(files.includes(doc), `${doc} in ${files.join(", ")}`);
});

test("the page package's entry is the one bundle: exports, main and the file shipped agree, and it fetches the wasm beside it", () => {
  const pkg = manifest("package.json");
  const entry = pkg.exports["."].import;
  assert.equal(pkg.exports["."].default, entry);
  assert.equal(pkg.main, entry);
  assert.equal(pkg.exports["."].types, "./www/index.d.ts");
  const files = pack().files.map((f) => f.path);
  const path = entry.replace(/^\.\//, "");
  assert.ok(files.includes(path), `${path} in ${files.join(", ")}`);
  const code = readFileSync(new URL(path, new URL("..", import.meta.url)), "utf8");
  const relativeImport = /(?:from|import)\s*\(?\s*["']\.{1,2}\/[^"']*\.m?js["']/;
  assert.match(readFileSync(new URL("../www/index.js", import.meta.url), "utf8"), relativeImport, "the check sees a re-export");
  assert.doesNotMatch(code, relativeImport, "the entry imports no other module of the package");
  assert.match(code, /in_page_playable_bg\.wasm/);
  // Node resolves the package name to that file (what a bundler or an import map is given).
  assert.equal(fileURLToPath(import.meta.resolve("in-page-playable-page")), fileURLToPath(new URL(path, new URL("..", import.meta.url))));
});

test("the MCP package: its bin of the same name, depending on the page package", () => {
  const entry = pack("mcp");
  assert.equal(entry.name, "in-page-playable-mcp");
  const files = entry.files.map((f) => f.path).sort();
  for (const f of ["bin.mjs", "server.mjs", "page.mjs", "names.mjs", "compact.mjs", "render.mjs", "menu-tools.mjs", "package.json"]) {
    assert.ok(files.includes(f), `${f} in ${files.join(", ")}`);
  }
  assert.deepEqual(files.filter((f) => f.includes("/") || f.endsWith(".wasm")), [], "no page files, no tests");
  const pkg = manifest("mcp/package.json");
  assert.deepEqual(pkg.bin, { "in-page-playable-mcp": "bin.mjs" });
  assert.equal(pkg.dependencies["in-page-playable-page"], manifest("package.json").version);
  for (const name of SERVER_ONLY) assert.ok(pkg.dependencies[name], name);
  // The workspace links the bin, and the server finds the page package by name (for --inject).
  const help = spawnSync(process.execPath, [`${ROOT}node_modules/.bin/in-page-playable-mcp`, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage: in-page-playable-mcp --url <URL>/);
  assert.match(help.stdout, /--menu-tools/);
});

test("the MCP package ships the project's LICENSE (npm packs a LICENSE only from the package's own folder)", () => {
  const license = (path) => readFileSync(new URL(path, new URL("..", import.meta.url)), "utf8");
  assert.match(license("LICENSE"), /^MIT License\n/);
  assert.equal(license("mcp/LICENSE"), license("LICENSE"), "mcp/LICENSE is a copy of the root LICENSE");
  assert.equal(manifest("mcp/package.json").license, "MIT");
  assert.ok(pack("mcp").files.some((f) => f.path === "LICENSE"), "in the tarball");
});

test("engines.node is no lower than what the code needs: import.meta.resolve without a flag came in Node 20.6", () => {
  const floor = (range) => range.match(/^>=(\d+)(?:\.(\d+))?/).slice(1).map((n) => Number(n ?? 0));
  const atLeast = ([a, b], [c, d]) => a > c || (a === c && b >= d);
  // The MCP server resolves the page package's files with it when it loads; the root's tests do too.
  for (const [manifestPath, code] of [["mcp/package.json", "mcp/page.mjs"], ["package.json", "tests/mcp-package.test.mjs"]]) {
    const source = readFileSync(new URL(code, new URL("..", import.meta.url)), "utf8");
    assert.match(source, /import\.meta\.resolve\(/, `${code} still uses import.meta.resolve`);
    const range = manifest(manifestPath).engines.node;
    assert.ok(atLeast(floor(range), [20, 6]), `${manifestPath} engines.node ${range} admits a Node without import.meta.resolve`);
  }
});
