// "Upgrading wasm-bindgen means changing the `=` pin in Cargo.toml and
// WASM_BINDGEN_VERSION in scripts/setup.sh, nothing else"
// (docs/architecture.md): every other Cargo.toml takes wasm-bindgen from the
// workspace, and there is one workspace and one Cargo.lock, so no crate (the
// bench's included) stays behind on an old version the CLI no longer matches.
// Reads files only.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", "target", ".git"]);

/** Every file named `name` in the repository, outside build output and dependencies. */
function find(name, dir = ROOT, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !SKIP.has(e.name)) find(name, join(dir, e.name), out);
    else if (e.isFile() && e.name === name) out.push(relative(ROOT, join(dir, e.name)));
  }
  return out;
}

/** The wasm-bindgen declarations of a Cargo.toml: `wasm-bindgen = …` lines and `[….wasm-bindgen]` tables. */
const declarations = (text) => [
  ...[...text.matchAll(/^\s*wasm-bindgen\s*=\s*(.*)$/gm)].map((m) => m[1].trim()),
  ...[...text.matchAll(/^\s*\[[^\]]*\.wasm-bindgen\]\s*$/gm)].map((m) => m[0].trim()),
];

test("wasm-bindgen: the root's `=` pin equals scripts/setup.sh's CLI version", () => {
  const setup = /^WASM_BINDGEN_VERSION=(\S+)/m.exec(readFileSync(join(ROOT, "scripts/setup.sh"), "utf8"));
  assert.ok(setup, "scripts/setup.sh sets WASM_BINDGEN_VERSION");
  assert.deepEqual(declarations(readFileSync(join(ROOT, "Cargo.toml"), "utf8")), [`"=${setup[1]}"`]);
});

test("wasm-bindgen: every other Cargo.toml takes it from the workspace; one workspace, one Cargo.lock", () => {
  const manifests = find("Cargo.toml").filter((p) => p !== "Cargo.toml");
  assert.ok(manifests.includes("bench/floor/Cargo.toml"), "bench/floor is looked at");
  for (const path of manifests) {
    const text = readFileSync(join(ROOT, path), "utf8");
    assert.doesNotMatch(text, /^\s*\[workspace\]/m, `${path} is a workspace of its own (its own lock and wasm-bindgen)`);
    for (const d of declarations(text)) assert.match(d, /^\{\s*workspace\s*=\s*true\b/, `${path}: wasm-bindgen = ${d}, not { workspace = true }`);
  }
  assert.deepEqual(find("Cargo.lock"), ["Cargo.lock"]);
  assert.ok(existsSync(join(ROOT, "Cargo.lock")));
});
