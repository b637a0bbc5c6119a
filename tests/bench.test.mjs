// The bench's crate table without twiggy (bench/crates.mjs, bench/report.mjs):
// twiggy is looked for before any timing and, when missing, the table is left
// out with a note saying how to get it; nothing is installed and the run is
// not lost. Node only, no browser, no build.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { crateTable, findTwiggy, TWIGGY_HINT } from "../bench/crates.mjs";
import { markdown } from "../bench/report.mjs";

test("findTwiggy: ~/.cargo/bin first, then PATH, else null", () => {
  const env = { HOME: "/h", PATH: "/a:/b" };
  assert.equal(findTwiggy(env, () => false), null);
  assert.equal(findTwiggy(env, (p) => p === "/b/twiggy"), "/b/twiggy");
  assert.equal(findTwiggy(env, (p) => p === "/b/twiggy" || p === "/h/.cargo/bin/twiggy"), "/h/.cargo/bin/twiggy");
  assert.equal(findTwiggy({}, () => true), null, "no HOME, no PATH: nowhere to look");
});

test("findTwiggy: only an executable file counts", () => {
  const dir = mkdtempSync(join(tmpdir(), "twiggy-"));
  try {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const env = { HOME: join(dir, "home"), PATH: bin };
    writeFileSync(join(bin, "twiggy"), "#!/bin/sh\n");
    assert.equal(findTwiggy(env), null, "not executable");
    chmodSync(join(bin, "twiggy"), 0o755);
    assert.equal(findTwiggy(env), join(bin, "twiggy"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("crateTable without twiggy: skipped with the way to get it, nothing run", () => {
  // A release .wasm that does not exist: anything but the skip would throw.
  assert.deepEqual(crateTable(null, "/nonexistent.wasm"), { skipped: TWIGGY_HINT });
  assert.match(TWIGGY_HINT, /cargo install twiggy/);
});

test("the report: a note in place of the crate table when it was skipped; the intro names twiggy", () => {
  const results = JSON.parse(readFileSync(new URL("../bench/results.json", import.meta.url), "utf8"));
  assert.ok(results.crates?.rows?.length, "bench/results.json holds a measured crate table");
  const measured = markdown(results, "benchmarks.svg");
  assert.match(measured, /\| crate \| bytes \| share \|/);
  assert.match(measured, /`cargo install twiggy`/, "the intro says the table needs twiggy");
  const skipped = markdown({ ...results, crates: crateTable(null) }, "benchmarks.svg");
  assert.doesNotMatch(skipped, /\| crate \| bytes \| share \|/);
  assert.ok(skipped.includes(`## What each crate costs\n\nNot measured in this run: ${TWIGGY_HINT}.`));
});
