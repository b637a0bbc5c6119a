// Reload only after the reply to the agent is on its way: the uplink (and a
// bridge reply, which is a posted message) is sent in the microtasks that
// follow handle(); the timer runs after them, and the MessageChannel message
// it posts queues behind any posted message already waiting, so the promise
// soon() returns resolves only once the reply has been delivered. The
// timer, the channel, the promise and the clock are the ones this module
// loaded with: a page that fakes its timers (a test clock) during an escape
// does not stop the reload from ever starting. Then lib.rs checks the
// escape rule afresh and calls reload(), or skips it (Rust decides).
const later = setTimeout;
const Channel = MessageChannel;
const Later = Promise;
export const now = Date.now;

// Throws (nothing scheduled) when the window is closed (a removed frame's
// window, whose location still reads) or its location cannot be read
// (cross-origin).
export function soon(win) {
  if (win.closed || typeof win.location.href !== "string") throw new TypeError("no readable location");
  return new Later((resolve) => {
    later(() => {
      const channel = new Channel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(0);
    }, 0);
  });
}

// The one act, with its facts for lib.rs: `triedAt`, when location.reload()
// returned, and `left`, whether this document's pagehide followed. A reload
// the page cancels (a beforeunload handler, its person choosing to stay)
// returns with the document in place, and no pagehide comes. A persisted
// pagehide is not the reload: the document went into the back/forward cache
// (its person left after staying) and may come back as it was, so the
// listener stays for a pagehide after that.
export function reload(win, facts) {
  win.addEventListener("pagehide", (e) => { if (!e?.persisted) facts.left = true; });
  try {
    win.location.reload();
  } finally {
    facts.triedAt = now();
  }
}
