// The module's size budget (issue 5): wasm plus JS glue, measured exactly as
// scripts/size.mjs prints it (gzip level 9, per file, summed), at most
// 60 KB = 60,000 bytes. Deterministic: it reads the built files, no timing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { moduleFiles, measure } from "../scripts/size.mjs";

const BUDGET_GZIP_BYTES = 60_000;

process.chdir(fileURLToPath(new URL("..", import.meta.url)));

test("the built module (wasm + JS glue) is at most 60 KB gzip", () => {
  assert.ok(existsSync("www/pkg/in_page_playable_bg.wasm"), "build first: npm run build");
  const files = moduleFiles();
  const total = measure(files);
  const perFile = files
    .map((f) => `  ${f}: ${gzipSync(readFileSync(f), { level: 9 }).length} B gzip`)
    .join("\n");
  assert.ok(
    total.gzip <= BUDGET_GZIP_BYTES,
    `module is ${total.gzip} B gzip (${(total.gzip / 1024).toFixed(1)} KiB), over the ${BUDGET_GZIP_BYTES} B budget by ${total.gzip - BUDGET_GZIP_BYTES} B:\n${perFile}`,
  );
});
