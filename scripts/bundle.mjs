// Bundles www/entry.js (the npm entry's code), wasm-bindgen's glue as it
// generated it and the crates' JS snippets (www/pkg/snippets/) into one
// minified www/pkg/in_page_playable.js: the package's entry (package.json's
// exports), which www/index.js re-exports for imports by path. One module
// fetch instead of eight, and the package ships three files (the
// example extension copies exactly those). The bundler is rolldown, declared
// in package.json's devDependencies. Minifying renames local variables and
// drops whitespace; no property is renamed, so the glue's own names stay what
// wasm-bindgen wrote. `comments: false` drops every comment, `/* @__PURE__ */`
// annotations too (nothing reads them after bundling). Kept: the entry's
// exports, the glue's `import.meta.url` lookup of the .wasm beside it, and
// the names of the classes and functions the entry and the glue export
// (`PlayableLoadError.name`, `e.constructor.name`, a `Surface`'s
// constructor): the mangler keeps the bindings it is told to reserve, about
// 20 B gzip, where rolldown's `keepNames` costs about 500 B.
import { readFileSync, renameSync, rmSync } from "node:fs";
import { rolldown } from "rolldown";

const out = "www/pkg/in_page_playable.js";
const declared = (file) => [...readFileSync(file, "utf8").matchAll(/^export (?:class|function) ([\w$]+)/gm)].map((m) => m[1]);
const reserved = [...new Set([...declared("www/entry.js"), ...declared(out)])];
const bundle = await rolldown({ input: "www/entry.js", treeshake: true, logLevel: "warn" });
// Written beside the input first: rolldown must not overwrite the glue it is reading.
await bundle.write({ file: out + ".bundle.js", format: "esm", minify: { mangle: { reserved } }, comments: false });
await bundle.close();
renameSync(out + ".bundle.js", out);
rmSync("www/pkg/snippets", { recursive: true, force: true });
