// Bundles www/entry.js (the npm entry's code), wasm-bindgen's glue and the
// crates' JS snippets (www/pkg/snippets/) into one minified
// www/pkg/in_page_playable.js, which www/index.js re-exports. One module
// fetch instead of eight, and less gzip than minifying each file on its own
// (one compression context). Kept: the entry's exports, the glue's
// `import.meta.url` lookup of the .wasm beside it.
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { rolldown } from "rolldown";

// Property names only this file reads and writes (the glue's closure state
// and class helpers, boundary.js's budget), so they can be mangled too. Never
// a name the page, the wasm or a caller sees (`__wbg_ptr` is on instances).
const INTERNAL_PROPS = /^(_wbg_cb_unref|__wrap|cnt|problem|nodes|chars)$/;

const out = "www/pkg/in_page_playable.js";
const bundle = await rolldown({ input: "www/entry.js", treeshake: true, logLevel: "warn" });
await bundle.write({ file: out + ".bundle", format: "esm", minify: { mangleProps: { include: INTERNAL_PROPS } } });
await bundle.close();
// The minifier keeps `/* @__PURE__ */` annotations, which nothing reads
// after bundling.
writeFileSync(out, readFileSync(out + ".bundle", "utf8").replaceAll("/* @__PURE__ */ ", ""));
unlinkSync(out + ".bundle");
rmSync("www/pkg/snippets", { recursive: true, force: true });
