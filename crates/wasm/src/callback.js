// Surface's host callbacks (crates/wasm/src/surface.rs decides): each
// function performs one act and reports raw facts. A callback's value
// crosses through boundary.js's `stringify`; Rust decides on it
// (surface::crossing) and bounds the text (surface::bounds).
import { stringify, thrown } from "./boundary.js";

// [text, fact, thrown, threw, value]: `f()`, or `f(id, input)`, awaited,
// then `stringify` at `level` (0 for a confirm's answer: a Boolean object
// or a toJSON is a fact, never `true`); `value` as awaited, for Rust to
// read further when it could not cross whole (a registry declaration by
// declaration, an execute result's `ok`). Never rejects.
export async function call(f, id, input, level) {
  let v;
  try { v = await (id === undefined ? f() : f(id, input)); } catch (e) { return [null, null, thrown(e), true]; }
  const s = stringify(v, level); // (no spread: a page may replace the array iterator)
  return [s[0], s[1], s[2], false, v];
}

// One warning on the console, prefixed; a page's throwing console is ignored.
export function warn(m) {
  try { console.warn("in-page-playable surface: " + m); } catch {}
}
