// Reload only after the reply to the agent is on its way: the uplink (and a
// bridge reply, which is a posted message) is sent in the microtasks that
// follow handle(); the timer runs after them, and the MessageChannel message
// it posts queues behind any posted message already waiting, so the reload
// starts only once the reply has been delivered. Throws (nothing scheduled)
// when the window's location cannot be read (cross-origin, closed).
export function reloadSoon(win) {
  if (typeof win.location.href !== "string") throw new TypeError("no readable location");
  win.setTimeout(() => {
    const channel = new win.MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      win.location.reload();
    };
    channel.port2.postMessage(0);
  }, 0);
}
