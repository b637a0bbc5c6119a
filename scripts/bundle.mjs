// Bundles www/entry.js (the npm entry's code), wasm-bindgen's glue and the
// crates' JS snippets (www/pkg/snippets/) into one minified
// www/pkg/in_page_playable.js, which www/index.js re-exports. One module
// fetch instead of eight, and less gzip than minifying each file on its own
// (one compression context). Kept: the entry's exports, the glue's
// `import.meta.url` lookup of the .wasm beside it.
import { renameSync, rmSync } from "node:fs";
import { rolldown } from "rolldown";

const out = "www/pkg/in_page_playable.js";
const bundle = await rolldown({ input: "www/entry.js", treeshake: true, logLevel: "warn" });
await bundle.write({ file: out + ".bundle", format: "esm", minify: true });
await bundle.close();
renameSync(out + ".bundle", out);
rmSync("www/pkg/snippets", { recursive: true, force: true });
