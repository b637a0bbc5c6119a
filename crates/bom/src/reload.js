// Reload only after the reply to the agent is on its way: the uplink (and a
// bridge reply, which is a posted message) is sent in the microtasks that
// follow handle(); the timer runs after them, and the MessageChannel message
// it posts queues behind any posted message already waiting, so the reload
// starts only once the reply has been delivered. Throws (nothing scheduled)
// when the window's location cannot be read (cross-origin, closed).
//
// Returns what happened next, as facts for lib.rs (which decides): `triedAt`,
// when location.reload() returned (0: not yet), and `left`, whether this
// document's pagehide followed. A reload the page cancels (a beforeunload
// handler, its person choosing to stay) returns with the document in place,
// and no pagehide comes.
export function reloadSoon(win) {
  if (typeof win.location.href !== "string") throw new TypeError("no readable location");
  const facts = { triedAt: 0, left: false };
  win.setTimeout(() => {
    const channel = new win.MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      win.addEventListener("pagehide", () => { facts.left = true; }, { once: true });
      try {
        win.location.reload();
      } finally {
        facts.triedAt = Date.now();
      }
    };
    channel.port2.postMessage(0);
  }, 0);
  return facts;
}
