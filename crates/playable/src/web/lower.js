// `String.prototype.toLowerCase` as the module loaded it (the snapshot
// query's case folding, playable::window): a page script that later
// replaces it, even with one that throws, cannot break a snapshot. A throw
// unwinding through wasm would abandon the request mid-way.
const lower = String.prototype.toLowerCase;
const apply = Reflect.apply;

export function lowercase(s) {
  return apply(lower, s, []);
}
