// MAIN-world content script: runs in the page's own JavaScript world, so the
// instance it installs is the page's one instance (the same one a page that
// imports the package itself would get). It installs the package, attaches the
// window bridge for the page's own origin, and tells the relay how it went.
//
// It installs lazily: only when the relay asks, i.e. when an agent first needs
// the page (its first request to this tab). A page that ships the package and
// installs it after an await (a config fetch, a framework mount) has usually
// done so by then; its instance is used and nothing is installed over it
// (installing first would make the page's own installPlayable throw).
//
// A MAIN-world script has no chrome.* APIs, so it cannot compute the
// extension's URL itself: the ISOLATED-world relay sends it with the request
// to install (handshake below, safe in either injection order).
(() => {
  const CONTROL = "in-page-playable-extension"; // not the bridge's channel: the bridge ignores it
  let booted = false;

  const tell = (status) => window.postMessage({ channel: CONTROL, kind: "status", ...status }, location.origin);
  // The page ships the package itself: talk to its bridge, do not install a second copy.
  function pageHasIt() {
    if (!window.__IN_PAGE_PLAYABLE_V1__) return false;
    tell({ state: "ready", installedBy: "page" });
    return true;
  }

  async function boot(base) {
    if (booted) return;
    booted = true;
    if (pageHasIt()) return;
    let P;
    try {
      P = await import(base + "index.js");
    } catch (e) {
      tell({ state: "failed", error: { name: "Error", code: "MODULE_LOAD_FAILED", message: "in-page-playable: could not import the package from the extension: " + (e && e.message) } });
      return;
    }
    // The page may have installed its own copy while the import was in flight.
    if (pageHasIt()) return;
    try {
      const playable = P.installPlayable({ allowedOrigins: [location.origin] });
      playable.attachWindowBridge();
      tell({ state: "ready", installedBy: "extension" });
    } catch (e) {
      // PlayableLoadError (code WASM_BLOCKED_BY_CSP or WASM_LOAD_FAILED) when the
      // page's CSP forbids compiling WebAssembly: nothing was installed.
      tell({ state: "failed", error: { name: (e && e.name) || "Error", code: (e && e.code) || "INSTALL_FAILED", message: String((e && e.message) || e) } });
    }
  }

  window.addEventListener("message", (event) => {
    const m = event.data;
    if (event.source !== window || !m || m.channel !== CONTROL || m.kind !== "install") return;
    if (typeof m.base === "string" && m.base.startsWith("chrome-extension://")) boot(m.base);
  });
  // Tells a relay that is already waiting to install (the agent asked before this script ran) that it can.
  window.postMessage({ channel: CONTROL, kind: "present" }, location.origin);
})();
