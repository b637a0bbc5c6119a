// The npm entry's code: package.json's exports name the bundle made from it
// (www/pkg/in_page_playable.js), so `import "in-page-playable-page"` is one
// module fetch; www/index.js re-exports it for imports by path. It initialises the
// WebAssembly module itself (top-level await), so callers use installPlayable
// synchronously:
//
//   import { installPlayable } from "in-page-playable-page";
//   const playable = installPlayable({ allowedOrigins: [location.origin] });
//
// scripts/bundle.mjs bundles this file with the wasm-bindgen glue into
// www/pkg/in_page_playable.js, which finds the .wasm beside it through
// `new URL(..., import.meta.url)`: plain `import` from a static server (no
// bundler) and Vite both work.

import init, * as wasm from "./pkg/in_page_playable.js";

let loadError = null;
try {
  await init();
} catch (cause) {
  loadError = cause;
}

/** Thrown by every entry point when the WebAssembly module could not load. */
export class PlayableLoadError extends Error {
  constructor(cause) {
    const why = cause && cause.message ? cause.message : String(cause);
    const csp = /Content Security Policy|unsafe-eval/i.test(why);
    super(
      csp
        ? "in-page-playable: this page's Content-Security-Policy forbids compiling WebAssembly, so nothing was installed. " +
            "Allow it with script-src 'wasm-unsafe-eval'. (" + why + ")"
        : "in-page-playable: the WebAssembly module could not be loaded, so nothing was installed (" + why + ")",
      { cause },
    );
    this.name = "PlayableLoadError";
    this.code = csp ? "WASM_BLOCKED_BY_CSP" : "WASM_LOAD_FAILED";
  }
}

function ready() {
  if (loadError) throw new PlayableLoadError(loadError);
}

export function installPlayable(options) {
  ready();
  return wasm.installPlayable(options);
}

export function resetPlayableForTests() {
  ready();
  wasm.forTests(true);
}

export function detachWindowBridgeForTests() {
  ready();
  wasm.forTests(false);
}

export function deriveEscapes(snapshot) {
  ready();
  return wasm.deriveEscapes(snapshot);
}

/** Whether deriveEscapes(snapshot) allows `type` (a string; anything else is no escape); decided in Rust. */
export function isEscapeAllowed(snapshot, type) {
  ready();
  return wasm.isEscapeAllowed(snapshot, type);
}

export function createSurface(options) {
  ready();
  return wasm.createSurface(options);
}

/**
 * Test hooks for tests/webmcp-plan.test.mjs (not part of the API, not in
 * index.d.ts): the WebMCP plan the module computes for an answer, and the
 * hashed tool name of an id. Pure, so they run in Node once the module is
 * instantiated (tests/support/module.mjs); they skip ready() for that.
 */
export function webMcpPlanForTests(surface, answer) {
  return wasm.webMcpPlanForTests(surface, answer);
}

export function webMcpNameForTests(id) {
  return wasm.webMcpNameForTests(id);
}

/** The glue's init (resolves to the wasm exports); bench/inpage.mjs reads the memory through it. */
export { init as default };
