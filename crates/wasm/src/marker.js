// The one act behind a window marker (marker.rs decides): defines `key` on
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
