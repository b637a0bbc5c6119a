// The shell: a top-level page with its own small menu that embeds the orders
// app in an iframe. Both windows install the package; each has its own instance.
import { installPlayable } from "../www/index.js";
import { mountConsole } from "./console.js";
import { captureScreenshot } from "./capture.js";

const root = document.getElementById("shell");
const frame = document.getElementById("app-frame");
// The first load may finish before this module runs.
let loads = frame.contentDocument?.readyState === "complete" && frame.contentDocument.URL !== "about:blank" ? 1 : 0;
frame.addEventListener("load", () => {
  loads++;
  document.getElementById("shell-status").textContent =
    loads === 1 ? "The app has been loaded once." : `The app has been loaded ${loads} times: each load is a new document with a fresh instance.`;
});

root.addEventListener("click", (event) => {
  const id = event.target.closest("[data-e2e-id]")?.dataset.e2eId;
  if (id === "shell.reloadApp") frame.contentWindow.location.reload();
  if (id === "shell.toggleWidth") {
    const narrow = frame.classList.toggle("narrow");
    event.target.setAttribute("aria-pressed", String(narrow));
    event.target.textContent = narrow ? "Wide app" : "Narrow app";
  }
});

let playable;
let installError;
try {
  playable = installPlayable({ root, captureScreenshot, allowedOrigins: [location.origin] });
  playable.attachWindowBridge();
} catch (error) {
  installError = error;
}
mountConsole(document.getElementById("console"), { playable, installError, where: "shell · top window" });
