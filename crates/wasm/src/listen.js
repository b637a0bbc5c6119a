// The bridge's trial before gloo-events adds its listener (serve.rs
// decides; why a trial: serve.rs's comment). Adds a no-op `message`
// listener to `target` as gloo-events adds its own (bubble phase,
// passive), then removes it: undefined, or [method, thrown] for the method
// that threw. Never throws. The trial listener is a function of its own (a
// page's instrumentation may mark the listeners it is given).
export function tryListening(target) {
  const probe = () => {};
  let method = "addEventListener";
  try {
    target.addEventListener("message", probe, { passive: true });
    method = "removeEventListener";
    target.removeEventListener("message", probe);
  } catch (e) {
    return [method, e];
  }
}
