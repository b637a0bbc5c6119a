// Minifies the generated JS of the package in place (wasm-bindgen's glue and
// the crates' JS snippets under www/pkg/): they ship as written, comments and
// long local names included, and count against the module's size budget.
// Exports and the wasm import names are kept.
import { readFileSync, writeFileSync } from "node:fs";
import { minifySync } from "rolldown/utils";
import { moduleFiles } from "./size.mjs";

for (const file of moduleFiles("www/pkg")) {
  if (!file.startsWith("www/pkg/") || !file.endsWith(".js")) continue;
  const source = readFileSync(file, "utf8");
  const out = minifySync(file, source, { module: true, compress: true, mangle: { toplevel: true } });
  if (out.errors && out.errors.length) {
    throw new Error(`minifying ${file} failed: ${out.errors.map((e) => e.message).join("; ")}`);
  }
  writeFileSync(file, out.code);
}
