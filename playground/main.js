// The orders page: installs the package for this window, attaches the window
// bridge for this page's own origin (so an outside agent — a test, an
// extension relay — can talk to it at once), and mounts the agent console.
import { installPlayable } from "../www/index.js";
import { mountOrdersApp, ISLAND_SLOTS } from "./app.js";
import { mountConsole } from "./console.js";
import { captureScreenshot } from "./capture.js";

const embedded = window.parent !== window;
document.body.classList.toggle("embedded", embedded);

const root = document.getElementById("app");
mountOrdersApp(root);

let playable;
let installError;
try {
  playable = installPlayable({ root, islandSlots: ISLAND_SLOTS, captureScreenshot, allowedOrigins: [location.origin] });
  playable.attachWindowBridge();
} catch (error) {
  // PlayableLoadError (e.g. WASM_BLOCKED_BY_CSP), or another copy already
  // installed in this window (e.g. by the example extension): the console says which.
  installError = error;
}

mountConsole(document.getElementById("console"), {
  playable,
  installError,
  where: embedded ? "embedded app · its own window" : "top page",
});
