// The JS half of crates/task. `wait` stores [ok, value] in the box it
// returns once `p` settles, then calls `cb(i)`: Rust wakes the waker kept in
// slot `i` (i < 0: none) and runs its queue.
export function wait(cb, p, i) {
  const box = [];
  const done = (ok, v) => {
    box.push(ok, v);
    cb(i);
  };
  Promise.resolve(p).then((v) => done(1, v), (e) => done(0, e));
  return box;
}

/** A promise and its settle functions: [promise, resolve, reject]. */
export function deferred() {
  let s;
  const p = new Promise((y, n) => (s = [y, n]));
  return [p, ...s];
}
