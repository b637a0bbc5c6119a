// Trims wasm-bindgen's glue (www/pkg/in_page_playable.js, before
// scripts/rename.mjs and scripts/bundle.mjs): drops the paths www/entry.js
// never takes and code every browser that runs this module (reference types,
// bulk memory) does not need. The glue's exports used by www/entry.js, its
// behaviour on load failures and its `import.meta.url` lookup of the .wasm
// stay. Every rewrite must apply (at least once, or exactly once for whole
// functions), or the build fails: wasm-bindgen versions change the glue.
import { readFileSync, writeFileSync } from "node:fs";

const GLUE = "www/pkg/in_page_playable.js";
let js = readFileSync(GLUE, "utf8");

const fail = (why) => {
  console.error(`trim: ${why} (${GLUE}; the wasm-bindgen glue changed shape?)`);
  process.exit(1);
};

/** Replaces `find` (a string: exactly once; a global RegExp: at least once). */
function edit(what, find, replace) {
  if (typeof find === "string") {
    const at = js.indexOf(find);
    if (at < 0 || js.indexOf(find, at + 1) >= 0) fail(`${what}: expected exactly one match`);
    js = js.slice(0, at) + replace + js.slice(at + find.length);
  } else {
    if (!find.test(js)) fail(`${what}: no match`);
    find.lastIndex = 0;
    js = js.replace(find, replace);
  }
}

/** Removes the top-level function `name` (from `function name(` to the next line that is `}`). */
function dropFunction(name, prefix = "function ") {
  const head = `\n${prefix}${name}(`;
  const at = js.indexOf(head);
  if (at < 0 || js.indexOf(head, at + 1) >= 0) fail(`function ${name}: expected exactly one definition`);
  const end = js.indexOf("\n}\n", at);
  if (end < 0) fail(`function ${name}: no end`);
  js = js.slice(0, at) + js.slice(end + 2);
}

// initSync: www/entry.js initialises asynchronously only.
dropFunction("initSync");
edit("export list", "export { initSync, __wbg_init as default };", "export { __wbg_init as default };");

// Loading: www/entry.js (and the bench) call init() bare: only the fetch of
// the .wasm beside the glue stays (and the fallback for a server that serves
// it without the application/wasm MIME type).
dropFunction("__wbg_load", "async function ");
dropFunction("__wbg_init_once", "async function ");
edit(
  "__wbg_init",
  `let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}`,
  `async function __wbg_init() {
    if (wasm === undefined) {
        const imports = __wbg_get_imports();
        const module = await fetch(new URL('in_page_playable_bg.wasm', import.meta.url));
        if (!module.ok) {
            throw new Error(\`failed to fetch Wasm: \${module.status} \${module.statusText} fetching '\${module.url}'\`);
        }
        let loaded;
        try {
            loaded = await WebAssembly.instantiateStreaming(module, imports);
        } catch (e) {
            if (module.headers.get('Content-Type') === 'application/wasm') throw e;
            loaded = await WebAssembly.instantiate(await module.arrayBuffer(), imports);
        }
        __wbg_finalize_init(loaded.instance, loaded.module);
    }
    return wasm;
}`,
);

// FinalizationRegistry and TextEncoder.encodeInto exist wherever the module
// can be compiled (externref needs newer engines than both).
edit(
  "FinalizationRegistry fallbacks",
  /\(typeof FinalizationRegistry === 'undefined'\)\n\s*\? \{ register: \(\) => \{\}, unregister: \(\) => \{\} \}\n\s*: new FinalizationRegistry/g,
  "new FinalizationRegistry",
);
edit(
  "encodeInto polyfill",
  `
if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}
`,
  "",
);

// The exported classes (IPlayable, ISurface) lose
// wasm-bindgen's free() and [Symbol.dispose]: not in www/index.d.ts, and
// freeing by hand would leave the window's instance dangling. Their
// FinalizationRegistry still frees what the page drops.
edit(
  "free() and __destroy_into_raw",
  /^    __destroy_into_raw\(\) \{\n(?: {8}.*\n)+    \}\n    free\(\) \{\n(?: {8}.*\n)+    \}\n/gm,
  "",
);
edit("Symbol.dispose", /^if \(Symbol\.dispose\) \w+\.prototype\[Symbol\.dispose\] = \w+\.prototype\.free;\n/gm, "");
if (/__destroy_into_raw|\.free\b/.test(js)) fail("free() or __destroy_into_raw is still referenced");

// passStringToWasm0 is always given wasm's malloc and realloc: it reads them
// itself, and its realloc-less path goes.
edit(
  "passStringToWasm0 calls",
  /passStringToWasm0\((\w+), wasm\.__wbindgen_malloc, wasm\.__wbindgen_realloc\)/g,
  "passStringToWasm0($1)",
);
edit(
  "passStringToWasm0",
  `function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len`,
  `function passStringToWasm0(arg) {
    const malloc = wasm.__wbindgen_malloc, realloc = wasm.__wbindgen_realloc;
    let len`,
);
if (/passStringToWasm0\([^)]*,/.test(js)) fail("passStringToWasm0 is still called with more than one argument");

// The import functions (the import0 literal, one entry per import): arrows
// instead of function expressions, handleError(f) returning the catching
// wrapper instead of a wrapper per import that passes `arguments`, and one
// helper for the four lines that hand a string to wasm through a return slot.
const HEAD = "    const import0 = {\n        __proto__: null,\n";
const start = js.indexOf(HEAD) + HEAD.length;
const end = js.indexOf("\n    };\n    return {\n", start);
if (start < HEAD.length || end < 0) fail("no `const import0 = {...}; return {` in __wbg_get_imports");
const entries = js.slice(start, end + 1).split(/(?=^ {8}[A-Za-z_$][\w$]*: )/m);
let caught = 0, arrows = 0, slots = 0;
const SLOT =
  /^( *)(?:const|var) ptr(\d+) = (isLikeNone\((\w+)\) \? 0 : )?passStringToWasm0\((\w+)\);\n *(?:const|var) len\2 = WASM_VECTOR_LEN;\n *getDataViewMemory0\(\)\.setInt32\(\(arg0 >>> 0\) \+ 4 \* 1, len\2, true\);\n *getDataViewMemory0\(\)\.setInt32\(\(arg0 >>> 0\) \+ 4 \* 0, ptr\2, true\);$/m;
const out = entries.map((entry) => {
  let m = entry.match(SLOT);
  if (m) {
    if (m[3] && m[4] !== m[5]) fail("an optional string slot tests another value than it passes");
    entry = entry.replace(SLOT, `$1${m[3] ? "putOptionalString" : "putString"}(arg0, $5);`);
    slots++;
  }
  m = entry.match(/^( {8}[\w$]+: )function\(\) \{ return handleError\(function \(([\w, ]*)\) \{\n([^]*)\n {8}\}, arguments\); \},\n$/);
  if (m) {
    caught++;
    return `${m[1]}handleError((${m[2]}) => {\n${m[3]}\n        }),\n`;
  }
  m = entry.match(/^( {8}[\w$]+: )function\(([\w, ]*)\) \{\n([^]*)\n {8}\},\n$/);
  if (m && !/\b(arguments|this)\b/.test(m[3])) {
    arrows++;
    return `${m[1]}(${m[2]}) => {\n${m[3]}\n        },\n`;
  }
  return entry;
});
if (!caught || !arrows || !slots) fail(`import functions: ${caught} handleError, ${arrows} arrows, ${slots} string slots rewritten`);
if (/handleError\(function/.test(out.join(""))) fail("a handleError(function ...) entry was not rewritten");
js = js.slice(0, start) + out.join("") + js.slice(end + 1);
edit(
  "handleError",
  `function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_exn_store(idx);
    }
}`,
  `function handleError(f) {
    return (...args) => {
        try {
            return f(...args);
        } catch (e) {
            wasm.__wbindgen_exn_store(addToExternrefTable0(e));
        }
    };
}

function putString(slot, s) {
    const ptr = passStringToWasm0(s);
    getDataViewMemory0().setInt32((slot >>> 0) + 4, WASM_VECTOR_LEN, true);
    getDataViewMemory0().setInt32(slot >>> 0, ptr, true);
}

function putOptionalString(slot, s) {
    const ptr = isLikeNone(s) ? 0 : passStringToWasm0(s);
    getDataViewMemory0().setInt32((slot >>> 0) + 4, WASM_VECTOR_LEN, true);
    getDataViewMemory0().setInt32(slot >>> 0, ptr, true);
}`,
);

writeFileSync(GLUE, js);
