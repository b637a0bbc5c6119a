// Surface's host callbacks (crates/wasm/src/surface.rs decides): each
// function performs one act and reports raw facts. A callback's value
// crosses through boundary.js's `stringify`; Rust decides on it
// (surface::crossing) and bounds the text (surface::bounds).
import { stringify, thrown } from "./boundary.js";

// [text, fact, thrown, threw]: `f()`, or `f(id, input)`, awaited, then
// `stringify`, loose (a Date crosses as its ISO text) unless `strict` (a
// confirm's answer: a Boolean object or a toJSON is a fact, never `true`);
// never rejects.
export async function call(f, id, input, strict) {
  let v;
  try { v = await (id === undefined ? f() : f(id, input)); } catch (e) { return [null, null, thrown(e), true]; }
  const s = stringify(v, !strict); // (no spread: a page may replace the array iterator)
  return [s[0], s[1], s[2], false];
}

// One warning on the console, prefixed; a page's throwing console is ignored.
export function warn(m) {
  try { console.warn("in-page-playable surface: " + m); } catch {}
}
