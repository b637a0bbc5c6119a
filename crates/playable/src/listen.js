// The window bridge's JS side (bridge.rs): the listener, the filter and the
// reply, each one import instead of a wasm call per field read or written.

export function listen(target, type, handler) {
  target.addEventListener(type, handler);
  return () => target.removeEventListener(type, handler);
}

/**
 * The bridge filter: [seq, envelope, origin] of a message event from `win`
 * itself, from one of `origins`, wrapped as { channel, dir: "down", seq
 * (an integer), envelope }; else undefined. A page can dispatch a synthetic
 * MessageEvent whose data throws when read: ignored like any stranger.
 */
export function accept(event, win, channel, origins) {
  try {
    const origin = event.origin;
    const data = event.data;
    if (event.source !== win || typeof origin !== "string" || !origins.includes(origin)) return undefined;
    if (typeof data !== "object" || data === null || data.channel !== channel || data.dir !== "down") return undefined;
    const seq = data.seq;
    return Number.isInteger(seq) ? [seq, data.envelope, origin] : undefined;
  } catch {
    return undefined;
  }
}

/** Posts { channel, dir: "up", seq, envelope } to `origin` only; an origin the browser cannot target (e.g. "null") drops it. */
export function reply(win, channel, origin, seq, envelope) {
  try {
    win.postMessage({ channel, dir: "up", seq, envelope }, origin);
  } catch {}
}
