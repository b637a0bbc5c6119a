// The window bridge's listener: one import that adds it and hands back its
// removal, instead of gloo-events' addEventListener/removeEventListener calls
// and options object.
export function listen(target, type, handler) {
  target.addEventListener(type, handler);
  return () => target.removeEventListener(type, handler);
}
