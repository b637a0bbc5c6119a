// Rewrites wasm-bindgen's glue (www/pkg/in_page_playable.js, before
// scripts/bundle.mjs bundles it) to the import and export names wasm-opt's
// --minify-imports-and-exports-and-modules gave the .wasm. argv[2] is the
// mapping wasm-opt printed ({ imports: [[module, old, new]], exports:
// [[old, new]] }), argv[3] the minified .wasm. Every `wasm.<old>` becomes
// `wasm.<new>`; the keys of the import0 literal are renamed in place; the
// snippet functions the wasm imports join that literal under their new names
// (named imports, so no namespace objects get bundled); the import object
// becomes { <new module>: import0 }. Fails loudly when the glue does not have
// the shape this expects (wasm-bindgen versions change it), so the build never
// ships a module that cannot instantiate.
import { readFileSync, writeFileSync } from "node:fs";

const GLUE = "www/pkg/in_page_playable.js";
const BG = "./in_page_playable_bg.js";
/**
 * Exports the glue may never read: wasm-bindgen's abort bookkeeping, and
 * `__wbindgen_free`, which stays exported when the glue has nothing left to
 * free (e.g. once no string crosses out of wasm by pointer).
 */
const UNREAD_EXPORTS = new Set(["__abort_handler", "__instance_terminated", "__wbindgen_free"]);

const fail = (why) => {
  console.error(`rename: ${why} (${GLUE}; the wasm-bindgen glue changed shape?)`);
  process.exit(1);
};

const map = JSON.parse(readFileSync(process.argv[2], "utf8"));
let js = readFileSync(GLUE, "utf8");

// Exports: every `wasm.<name>` must be a renamed export.
const exports = new Map(map.exports);
const read = new Set();
js = js.replace(/\bwasm\.([A-Za-z_$][\w$]*)/g, (_, name) => {
  if (!exports.has(name)) fail(`wasm.${name} is not an export of the module`);
  read.add(name);
  return "wasm." + exports.get(name);
});
const given = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(process.argv[3]))).map((e) => e.name);
if (given.length !== exports.size || !given.every((n) => [...exports.values()].includes(n))) {
  fail("the mapping's exports are not the minified wasm's");
}
for (const name of exports.keys()) {
  if (!read.has(name) && !UNREAD_EXPORTS.has(name)) fail(`export ${name} is never read by the glue`);
}

// Imports: the minified wasm (argv[3]) takes every import from one module
// (the -and-modules variant of the pass), under the mapping's new names. The
// mapping comes before -Oz, which may drop an unused import: the glue then
// drops its function too.
const taken = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(process.argv[3])));
const modules = new Set(taken.map((i) => i.module));
if (modules.size !== 1) fail(`the minified wasm imports from ${modules.size} modules, not 1`);
const [newModule] = modules;
if (!/^[A-Za-z_$][\w$]*$/.test(newModule)) fail(`module name ${newModule} is not an identifier`);
const newNames = new Set(map.imports.map(([, , neu]) => neu));
const kept = new Set(taken.map((i) => i.name));
if (!taken.every((i) => newNames.has(i.name))) fail("the minified wasm imports a name the mapping does not give");

// Snippet imports: `import * as importN from "<path>"` namespaces become named
// imports of just the functions the wasm takes, entered into import0.
const namespaces = new Map(); // importN -> path
js = js.replace(/^import \* as (import\d+) from "([^"]+)"\n/gm, (_, id, path) => {
  namespaces.set(id, path);
  return "";
});
const HEAD = "    const import0 = {\n        __proto__: null,\n";
const start = js.indexOf(HEAD);
const end = js.indexOf("\n    };\n    return {\n", start);
if (start < 0 || end < 0 || js.indexOf(HEAD, start + 1) >= 0) fail("no single `const import0 = {...}; return {` in __wbg_get_imports");
let lit = js.slice(start + HEAD.length, end);

// The import0 keys: exactly the wasm's imports from ./in_page_playable_bg.js.
const keys = [...lit.matchAll(/^ {8}([A-Za-z_$][\w$]*):/gm)].map((m) => m[1]);
const fromBg = new Map(map.imports.filter(([m]) => m === BG).map(([, old, neu]) => [old, neu]));
for (const key of keys) if (!fromBg.has(key)) fail(`import0.${key} is not imported by the module`);
for (const old of fromBg.keys()) if (!keys.includes(old)) fail(`import ${old} is not a key of import0`);
if (new Set(keys).size !== keys.length) fail("import0 has a key twice");
lit = lit.replace(/^ {8}([A-Za-z_$][\w$]*):/gm, (_, key) => `        ${fromBg.get(key)}:`);
lit = lit
  .split(/(?=^ {8}[A-Za-z_$][\w$]*: )/m)
  .filter((entry) => !/^ {8}[\w$]+: /.test(entry) || kept.has(entry.match(/^ {8}([\w$]+): /)[1]))
  .join("")
  .replace(/,?\n?$/, ",");

const snippetPaths = new Set(namespaces.values());
const named = new Map(); // path -> ["old as local"]
let extra = "";
map.imports.forEach(([module, old, neu], i) => {
  if (module === BG) return;
  if (!snippetPaths.has(module)) fail(`imports from ${module}, which the glue does not import`);
  if (!kept.has(neu)) return;
  if (!/^[A-Za-z_$][\w$]*$/.test(old)) fail(`snippet import ${old} is not an identifier`);
  const local = `__wbg_s${i}`;
  if (!named.has(module)) named.set(module, []);
  named.get(module).push(`${old} as ${local}`);
  extra += `        ${neu}: ${local},\n`;
});
const mappedPaths = new Set(map.imports.map(([module]) => module));
for (const path of snippetPaths) if (!mappedPaths.has(path)) fail(`the glue imports ${path} but the module takes nothing from it`);
const imports = [...named].map(([path, names]) => `import { ${names.join(", ")} } from "${path}";\n`).join("");

// The import object: { <new module>: import0 }.
const retStart = end + "\n    };\n".length;
const retEnd = js.indexOf("\n    };\n}\n", retStart);
if (retEnd < 0) fail("no end of the object __wbg_get_imports returns");
const ret = js.slice(retStart, retEnd);
const entries = [...ret.matchAll(/^ {8}"([^"]+)": (import\d+),$/gm)];
const lines = ret.split("\n").length;
if (entries.length + 2 !== lines) fail("the returned import object has entries other than \"<module>\": importN");
for (const [, path, id] of entries) {
  if (id === "import0" ? path !== BG : namespaces.get(id) !== path) fail(`the import object maps ${path} to ${id}`);
}
const objectReturned = `return { ${newModule}: import0 };`;

js =
  imports +
  js.slice(0, start + HEAD.length) +
  extra +
  lit +
  "\n    };\n    " +
  objectReturned +
  js.slice(retEnd + "\n    };".length);
writeFileSync(GLUE, js);
