// `JSON.stringify` as the module loaded it (playable::web::js decides on
// what it writes): a page script that later replaces the global cannot
// break a crossing. What it throws (a cycle, a BigInt, a throwing getter)
// is thrown to Rust, which binds it with `catch`.
const s = JSON.stringify;

export function stringify(v) {
  return s(v);
}
