// The acts behind a window marker (marker.rs decides). `define` defines `key` on
// `win` as a non-configurable accessor without a setter, so a page script
// can neither delete nor overwrite it. Its getter returns `state.on`, which
// Rust sets; no page script can reach `state`, and a page's read never
// calls into the module. `Reflect.defineProperty` as the module loaded it:
// false (nothing defined) when the property is already non-configurable.
const { defineProperty } = Reflect;

export function define(win, key) {
  const state = { on: undefined };
  return defineProperty(win, key, { get: () => state.on, configurable: false }) ? state : null;
}

// Whether `win` still reads its marker `key` through `state`: a value of its
// own is set there for a moment, then the old one put back (all in one
// turn: no page script sees it). A frame's window object outlives its
// global when its document is replaced (a reload, a navigation): the new
// global does not hold the old one's marker. False when reading throws (a
// window now of another origin).
export function holds(win, key, state) {
  const { on } = state;
  const probe = {};
  state.on = probe;
  try {
    return win[key] === probe;
  } catch {
    return false;
  } finally {
    state.on = on;
  }
}
