// The server's one page, reached only through the window bridge (baseline §3):
// a `down` wrapper posted on the page's own window, answered by the `up`
// wrapper with the same seq, within a timeout. No clicks by selector, no
// script for agents, no navigation beyond the configured origin.
import { readFile } from "node:fs/promises";
import { extname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { quote } from "./compact.mjs";

/** @typedef {import("in-page-playable-page").IPlayableDownlink} IPlayableDownlink */
/** @typedef {import("in-page-playable-page").IPlayableUplink} IPlayableUplink */

export const CHANNEL = "in-page-playable";
/** Surface's bridge channel (createSurface(...).attachWindowBridge()). */
export const SURFACE_CHANNEL = "pling.surface";
export const MARKER = "__IN_PAGE_PLAYABLE_V1__";
/** Set on the page's window while a Surface's bridge is attached there (createSurface(...).attachWindowBridge()). */
export const SURFACE_MARKER = "__PLING_SURFACE_V0_1__";
/** Same-origin path under which --inject serves the package's own files. */
const INJECT_PATH = "/__in-page-playable__/";
/** The page package's www/ folder (index.js, index.d.ts, pkg/): what --inject serves. */
const WWW = fileURLToPath(new URL("www/", import.meta.resolve("in-page-playable-page/package.json")));
/** The package's entry (what its exports name) inside WWW: the one module --inject imports. */
const ENTRY_IN_WWW = relative(WWW, fileURLToPath(import.meta.resolve("in-page-playable-page"))).split(sep).join("/");
/**
 * How long after the page's load event a page that ships the package may
 * still take to install it (a module's top-level await, the WebAssembly
 * fetch). Past it, a missing marker means the page does not ship the package:
 * with --inject the server installs its own copy, without it the request
 * fails at once instead of waiting out the timeout. Decided afresh on every
 * request, so a page that installs later still is found by a later one.
 */
export const INSTALL_GRACE_MS = 400;
/**
 * The same rule for a Surface, with more time: a page attaches its Surface
 * when its code gets there (a framework mounting), often after it installed
 * the package (tests/mcp.test.mjs has one that attaches 600 ms after its
 * module ran, and its first request must be heard). Past it, a missing
 * SURFACE_MARKER means no Surface: the Surface tools fail at once.
 */
export const SURFACE_GRACE_MS = 1500;
/**
 * How long a probe of the bridge channel waits at least for an answer
 * before the server says no instance is there (an instance answers in a
 * few ms; a busy page delays the verdict too: see exchange), and longer
 * before --inject installs a copy: a second one would answer on the same
 * channel.
 */
export const PROBE_MS = 100;
export const PROBE_BEFORE_INJECT_MS = 500;
/** Binding the --menu-tools watcher calls when the page's DOM changed. */
const CHANGED_BINDING = "__inPagePlayableMcpChanged";
const TYPES = { ".js": "text/javascript; charset=utf-8", ".wasm": "application/wasm" };

/** Debian's Chromium, as root, with the background traffic a closed network refuses turned off. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-component-extensions-with-background-pages",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--metrics-recording-only",
  "--no-pings",
  "--password-store=basic",
  // The services that still call Google on their own: autofill's server
  // queries, sign-in (accounts.google.com), optimization hints, translate,
  // media router, the variations seed.
  "--disable-features=AutofillServerCommunication,OptimizationHints,OptimizationHintsFetching,Translate,MediaRouter,DialMediaRouteProvider,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,SignInProfileCreation,AccountConsistency",
  // What is left asks a Google host by name: point those names at a closed
  // local port (nothing listens on the discard port), so no lookup leaves.
  "--variations-server-url=http://127.0.0.1:9",
  "--google-base-url=http://127.0.0.1:9",
  "--gaia-url=http://127.0.0.1:9",
  "--lso-url=http://127.0.0.1:9",
  "--google-apis-url=http://127.0.0.1:9",
  "--component-updater=url-source=http://127.0.0.1:9",
];

/**
 * A failure to reach the page (no answer, no instance, wrong origin): not an
 * uplink. `pageText`: the message holds text the page chose (a URL, or what
 * its script threw, JSON-quoted so it cannot make lines of its own), so the
 * result carries the untrusted-content note. `sent`: an action (a run, an
 * escape, a Surface invoke) went out and no answer came back, so it may have
 * taken effect, or still may: the message says what happened to the request,
 * never that the page could not be reached.
 */
export class LinkError extends Error {
  constructor(message, { pageText = false, sent = false, late = false } = {}) {
    super(message);
    this.name = "LinkError";
    this.pageText = pageText;
    this.sent = sent;
    /** Raised while an evaluate was still pending in the page (its deadline, a navigation): Playwright cannot take it back. */
    this.late = late;
  }
}

/** Page-thrown text in a LinkError: one JSON string, bounded. */
const quoted = (text) => quote(String(text).slice(0, 500));

// Runs in the page: waits for an instance (when a marker is given), posts the
// down wrapper and resolves with the matching up wrapper's envelope. Never rejects.
// `graceMs`: stop waiting for the marker as soon as the document has loaded
// and `graceMs` passed since its load event ({ missing: "loaded" }), instead
// of waiting out the timeout ({ missing: "timeout" }); -1 waits it out.
// `repeatMs` (only for requests that are safe to repeat) posts the same
// wrapper again until one is answered: a message posted while no listener
// is attached is simply not heard (a marker set with its listener makes that
// rare, not impossible: a page may detach a bridge and attach another).
// The marker is only a hint (an older copy of the package may have none,
// or one a page's script can delete): before saying
// no one is there, the channel itself is asked, with a null envelope that
// any instance refuses at once and without side effects (BAD_REQUEST,
// INVALID_REQUEST). No answer means no one once `probeMs` passed and two
// messages posted one after the other came back: messages to a window
// arrive in order, so a busy page delays the verdict as much as the answer.
function exchange({ channel, marker, seq, envelopeJson, timeoutMs, repeatMs = 0, graceMs = -1, probeMs = 0 }) {
  // The envelope crosses as JSON text: Playwright's own serializer stalls on
  // a deeply nested argument (100 levels) instead of failing.
  const envelope = JSON.parse(envelopeJson);
  return new Promise((resolve) => {
    const started = Date.now();
    let heard = false;
    const settled = () => {
      if (graceMs < 0 || document.readyState !== "complete") return false;
      const nav = performance.getEntriesByType("navigation")[0];
      const loaded = nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : 0;
      return performance.now() - loaded >= graceMs;
    };
    // Calls `then(answered)` once the probe is answered, or not in time.
    const probe = (then) => {
      const behind = { channel: channel + "#probe", seq: -seq };
      let done = false;
      let rounds = 0;
      let waited = false;
      const finish = (answered) => {
        if (done) return;
        done = true;
        window.removeEventListener("message", onProbe);
        then(answered);
      };
      const silent = () => rounds >= 2 && waited && finish(false);
      function onProbe(event) {
        const data = event.data;
        if (event.source !== window || !data || data.seq !== -seq) return;
        if (data.channel === channel && data.dir === "up") return finish(true);
        if (data.channel !== behind.channel) return;
        if (++rounds < 2) window.postMessage(behind, location.origin);
        silent();
      }
      window.addEventListener("message", onProbe);
      setTimeout(() => {
        waited = true;
        silent();
      }, probeMs);
      window.postMessage({ channel, dir: "down", seq: -seq, envelope: null }, location.origin);
      window.postMessage(behind, location.origin);
    };
    const post = () => {
      if (marker && !window[marker] && !heard) {
        const missing = settled() ? "loaded" : Date.now() - started > timeoutMs ? "timeout" : null;
        if (missing === null) return setTimeout(post, 10);
        if (probeMs <= 0) return resolve({ missing });
        return probe((answered) => {
          if (!answered) return resolve({ missing });
          heard = true;
          post();
        });
      }
      // Repeats back off (repeatMs, 2×, 4×, …) so a slow answer is not buried under copies.
      let again = 0;
      let wait = repeatMs;
      const send = () => {
        window.postMessage({ channel, dir: "down", seq, envelope }, location.origin);
        if (wait > 0) {
          again = setTimeout(send, wait);
          wait *= 2;
        }
      };
      const timer = setTimeout(() => {
        clearTimeout(again);
        window.removeEventListener("message", onMessage);
        resolve({ timeout: true });
      }, Math.max(1, probeMs, timeoutMs - (Date.now() - started)));
      function onMessage(event) {
        const data = event.data;
        if (event.source !== window || !data || data.channel !== channel || data.dir !== "up" || data.seq !== seq) return;
        clearTimeout(timer);
        clearTimeout(again);
        window.removeEventListener("message", onMessage);
        // As JSON text: Playwright hands a string over far faster than it
        // serializes a large object (a whole 10k-element menu: ~0.8 s).
        let json = "null";
        try {
          json = JSON.stringify(data.envelope) ?? "null";
        } catch {
          // a cyclic or BigInt envelope: answered as null (bounded as INTERNAL)
        }
        resolve({ json });
      }
      window.addEventListener("message", onMessage);
      send();
    };
    post();
  });
}

// Runs in the page (--inject): loads the package from this origin and
// installs it with the bridge open to this origin only.
async function injectPackage({ base, entry, marker }) {
  if (window[marker]) return null;
  try {
    const P = await import(base + entry);
    P.installPlayable({ allowedOrigins: [location.origin] }).attachWindowBridge();
    return null;
  } catch (e) {
    return String((e && e.message) || e);
  }
}

// Runs in the page (--menu-tools), once per document: calls the binding at
// most `ms` after the first DOM change of a burst (coalesced, not postponed).
// The page can call the binding too; all it can cause is one more read.
// An observer on the document does not see inside shadow trees, and the scan
// reads open shadow roots (nested ones too): each is observed as well, found
// by a walk at the start and before each notification, so a root attached
// with a change is watched before the read that change causes.
function watchDom({ binding, ms }) {
  const mark = Symbol.for("in-page-playable-mcp.watching");
  if (window[mark]) return;
  window[mark] = true;
  const options = { subtree: true, childList: true, attributes: true, characterData: true };
  const watched = new WeakSet();
  let timer = 0;
  const observer = new MutationObserver(() => {
    if (!timer) timer = setTimeout(fire, ms);
  });
  const watchShadows = (root) => {
    const all = root.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const shadow = all[i].shadowRoot;
      if (shadow === null || shadow === undefined) continue;
      if (!watched.has(shadow)) {
        watched.add(shadow);
        observer.observe(shadow, options);
      }
      watchShadows(shadow);
    }
  };
  function fire() {
    timer = 0;
    watchShadows(document);
    const notify = window[binding];
    if (typeof notify === "function") notify().catch(() => {});
  }
  observer.observe(document, options);
  watchShadows(document);
}

/** The page's one playable instance, on the "in-page-playable" channel. */
const PLAYABLE = {
  channel: CHANNEL,
  marker: MARKER,
  graceMs: INSTALL_GRACE_MS,
  /** --inject installs an instance when the marker is missing. */
  inject: true,
  /** No marker: `where` is "in <page URL> (none … after the page's load event; …)" or "in <page URL> within N ms". */
  missing: (where) =>
    `no in-page-playable instance ${where}: ` +
    "install the package in the page (installPlayable + attachWindowBridge), or start the server with --inject",
};

/** Surface's one rule, on the "pling.surface" channel: the same shape, its own marker and grace, no --inject. */
const SURFACE = {
  channel: SURFACE_CHANNEL,
  marker: SURFACE_MARKER,
  graceMs: SURFACE_GRACE_MS,
  inject: false,
  missing: (where, origin) => `no Surface answered on "${SURFACE_CHANNEL}" ${where}: ${surfaceHint(origin)}`,
};

/** What a page needs for the Surface tools (said when none answered). */
const surfaceHint = (origin) =>
  `does the page call createSurface({ …, allowedOrigins: [${JSON.stringify(origin)}] }).attachWindowBridge()?`;

export class PageLink {
  /**
   * @param {{ url: string, cdp?: string, inject?: boolean, timeoutMs?: number,
   *           chromium?: string, headed?: boolean }} options
   */
  constructor(options) {
    this.options = options;
    this.url = new URL(options.url);
    this.origin = this.url.origin;
    this.timeoutMs = options.timeoutMs ?? 10000;
    this.seq = 0;
    this.browser = null;
    this.page = null;
    this.ownsBrowser = false;
    /** Set when the page tried to leave the origin (the navigation was stopped). */
    this.blocked = null;
    /**
     * The URL of the last document the page had on the origin (where #landed
     * takes it back); null until one landed: the configured URL itself may
     * redirect away, and going back to it would only leave again, forever.
     */
    this.here = null;
    /** Settles once #landed has taken the page back to the origin. */
    this.returning = null;
    /** Count of main-frame loads: tells when a reload has replaced the document. */
    this.loads = 0;
    /** The value of `loads` when this document's Surface last answered (null: not yet). */
    this.surfaceHeardAt = null;
  }

  async open() {
    const { cdp, headed } = this.options;
    if (cdp) {
      this.browser = await chromium.connectOverCDP(cdp);
      const context = this.browser.contexts()[0] ?? (await this.browser.newContext());
      this.page = context.pages().find((p) => p.url() === this.url.href) ?? null;
      if (this.page) this.here = this.url.href;
    } else {
      this.ownsBrowser = true;
      this.browser = await chromium.launch({
        executablePath: this.options.chromium || process.env.CHROMIUM_PATH || "/usr/bin/chromium",
        headless: !headed,
        args: [...CHROMIUM_ARGS, ...(headed ? [] : ["--headless=new"])],
      });
    }
    const fresh = !this.page;
    if (fresh) this.page = await (this.browser.contexts()[0] ?? (await this.browser.newContext())).newPage();
    this.page.on("load", () => this.loads++);
    this.page.on("framenavigated", (frame) => void this.#landed(frame));
    // A launched browser is the server's own: its whole context is routed,
    // so a popup or a target=_blank tab is kept on the origin too. An
    // attached one (--cdp) is the user's: only the server's tab is.
    const routed = this.ownsBrowser ? this.page.context() : this.page;
    // A throw in a route handler would take the whole server down: the
    // request then goes on as the browser sent it.
    await routed.route(() => true, (route) => this.#route(route).catch(() => route.fallback().catch(() => {})));
    if (fresh) await this.#goto();
  }

  /**
   * Opens the configured URL. One that redirects to another origin is
   * stopped (#route: a 204, which fails the navigation; #landed: a chain that
   * left after a same-origin hop) and said as such (`redirectedTo`), not as
   * the browser's bare net::ERR_ABORTED.
   */
  async #goto() {
    let failure = null;
    try {
      await this.page.goto(this.url.href);
    } catch (e) {
      failure = e;
    }
    let at = null;
    try {
      at = new URL(this.page.url());
    } catch {
      // no URL yet
    }
    const left = at !== null && at.origin !== this.origin && at.protocol !== "about:" && at.protocol !== "chrome-error:";
    // The 204 that stops a redirect aborts the navigation; any other failure (refused, DNS) is the browser's to tell.
    const stopped = failure !== null && this.blocked !== null && /ERR_ABORTED/.test(String(failure.message));
    const to = left ? (this.blocked ?? at.href) : stopped ? this.blocked : null;
    if (to !== null) {
      let toOrigin = to;
      try {
        toOrigin = new URL(to).origin;
      } catch {
        // said whole
      }
      const e = new Error(`it redirects to ${to}, on another origin (${this.origin} → ${toOrigin}), and this server never leaves ${this.origin}`);
      e.redirectedTo = to;
      throw e;
    }
    if (failure !== null) throw failure;
  }

  /**
   * The last line of the origin guard: Playwright routes only the first
   * request of a redirect chain, so a chain that turns away from the origin
   * after a same-origin hop is seen only once the page has landed. The page
   * is then taken back to the last document it had on the origin.
   */
  async #landed(frame) {
    if (frame !== this.page.mainFrame()) return;
    let url;
    try {
      url = new URL(frame.url());
    } catch {
      return;
    }
    if (url.origin === this.origin) {
      this.here = url.href;
      return;
    }
    if (url.protocol === "about:" || url.protocol === "chrome-error:") return;
    this.blocked = url.href;
    if (this.here === null) return; // nowhere on the origin to go back to (open() says so)
    // #send waits for this before it looks where the page is.
    this.returning = this.page.goto(this.here).then(() => {}, () => {});
    await this.returning;
  }

  /** Closes a launched browser; from an attached one it only detaches (the tab stays). */
  async close() {
    if (!this.ownsBrowser) await this.page?.unrouteAll({ behavior: "ignoreErrors" }).catch(() => {});
    await this.browser?.close().catch(() => {});
  }

  /** Keeps the main frame on the configured origin; serves --inject's files. */
  async #route(route) {
    const request = route.request();
    const url = new URL(request.url());
    if (this.options.inject && url.origin === this.origin && url.pathname.startsWith(INJECT_PATH)) {
      const file = normalize(join(WWW, url.pathname.slice(INJECT_PATH.length)));
      if (!file.startsWith(WWW.endsWith(sep) ? WWW : WWW + sep)) return route.fulfill({ status: 403 });
      try {
        const body = await readFile(file);
        return route.fulfill({ status: 200, body, contentType: TYPES[extname(file)] ?? "application/octet-stream" });
      } catch {
        return route.fulfill({ status: 404 });
      }
    }
    if (!request.isNavigationRequest()) return route.fallback();
    // A new tab's first navigation comes before its frame exists: a main frame.
    let frame = null;
    try {
      frame = request.frame();
    } catch {
      // no frame yet
    }
    if (frame !== null && frame.parentFrame() !== null) return route.fallback();
    if (url.origin !== this.origin) {
      // 204 No Content: the browser stays on the current document (an abort
      // would replace it with an error page).
      this.blocked = url.href;
      return route.fulfill({ status: 204 });
    }
    if (frame !== this.page.mainFrame()) return route.fallback();
    // A same-origin navigation of the server's page may answer with a
    // redirect to another origin, which the browser would follow unrouted:
    // fetch it here without following, and stop a redirect that leaves.
    let response;
    try {
      response = await route.fetch({ maxRedirects: 0 });
    } catch {
      return route.fallback();
    }
    const location = response.status() >= 300 && response.status() < 400 ? response.headers()["location"] : undefined;
    if (location !== undefined) {
      let to = null;
      try {
        to = new URL(location, url);
      } catch {
        // an unreadable Location: let the browser deal with it
      }
      if (to && to.origin !== this.origin) {
        this.blocked = to.href;
        return route.fulfill({ status: 204 });
      }
    }
    return route.fulfill({ response });
  }

  /**
   * Sends one downlink through the bridge and returns the page's uplink as
   * it came (the caller bounds it). Throws LinkError when the page cannot
   * be reached, or (`sent`) when a run or escape went out unanswered.
   * @param {IPlayableDownlink} envelope
   * @returns {Promise<IPlayableUplink>}
   */
  async send(envelope) {
    const action = envelope?.cmd === "run" || envelope?.cmd === "escape" ? envelope.cmd : null;
    return this.#send(envelope, PLAYABLE, { action });
  }

  /**
   * Sends one Surface request on the "pling.surface" channel; returns the response as it came.
   * @param {import("in-page-playable-page").ISurfaceRequest} request
   * @returns {Promise<import("in-page-playable-page").ISurfaceResponse>}
   */
  async sendSurface(request) {
    const invoke = request.method !== "describe";
    // Evidence that this document's Surface listens: it answered here before,
    // or it answers the probe below.
    let listening = this.surfaceHeardAt === this.loads;
    try {
      // A describe is a read: safe to post again until the Surface hears it.
      // An invoke is posted exactly once, so first make sure this document's
      // Surface is listening, with a describe probe when it has not answered yet.
      if (invoke && !listening) {
        const loads = this.loads;
        await this.#send({ protocol: request.protocol, id: `${request.id}-probe`, method: "describe", input: {} }, SURFACE, { repeat: true });
        this.surfaceHeardAt = loads;
        listening = true;
      }
      const loads = this.loads;
      const response = await this.#send(request, SURFACE, { repeat: !invoke, action: invoke ? "invoke" : null });
      this.surfaceHeardAt = loads;
      return response;
    } catch (e) {
      // A sent invoke (`sent`) is not a missing Surface: it may be waiting on a confirm or a slow execute.
      if (!(e instanceof LinkError) || e.sent || !/did not answer/.test(e.message)) throw e;
      if (listening) {
        throw new LinkError(`the page's Surface did not answer within ${this.timeoutMs} ms, though it answered on this page before (it may be busy)`);
      }
      // A marked window whose Surface stays silent: the timeout passed.
      const notSent = invoke ? " (the invoke was not sent)" : "";
      throw new LinkError(`no Surface answered on "${SURFACE_CHANNEL}" within ${this.timeoutMs} ms${notSent}: ${surfaceHint(this.origin)}`);
    }
  }

  /**
   * @param {typeof PLAYABLE} path the channel, its marker and grace, and
   *   what to say when no one is there
   * @param {{ repeat?: boolean, action?: string | null }} [how] `repeat`:
   *   post again until answered (reads only); `action`: what the request
   *   does ("run", "escape", "invoke"), so an unanswered one says it was sent
   */
  async #send(envelope, path, { repeat = false, action = null } = {}) {
    const page = this.page;
    if (!page || page.isClosed()) throw new LinkError("the page is closed; restart the server");
    let here = new URL(page.url());
    // Off the origin: #landed may be taking the page back right now (give it
    // up to two seconds: the load of the last same-origin document).
    for (const until = Date.now() + 2000; here.origin !== this.origin && Date.now() < until; ) {
      await (this.returning ?? new Promise((r) => setTimeout(r, 25)));
      this.returning = null;
      here = new URL(page.url());
    }
    if (here.origin !== this.origin) {
      throw new LinkError(`the page is at ${here.origin}, not ${this.origin}; this server only talks to ${this.origin}`, { pageText: true });
    }
    const args = {
      channel: path.channel,
      marker: path.marker,
      seq: ++this.seq,
      envelopeJson: JSON.stringify(envelope),
      timeoutMs: this.timeoutMs,
      repeatMs: repeat ? 50 : 0,
      // One rule for both paths: no marker once the page has loaded and the
      // path's grace passed means no one is there (--inject then installs
      // an instance: the playable path only, it creates no Surface).
      graceMs: path.graceMs,
      probeMs: path.inject && this.options.inject ? PROBE_BEFORE_INJECT_MS : PROBE_MS,
    };
    let answer = await this.#exchange(args, action);
    if (answer.missing && path.inject && this.options.inject) {
      const failed = await this.#evaluate(injectPackage, { base: this.origin + INJECT_PATH, entry: ENTRY_IN_WWW, marker: MARKER });
      if (failed) throw new LinkError(`could not inject in-page-playable into ${here.href}: ${quoted(failed)}`, { pageText: true });
      answer = await this.#exchange({ ...args, seq: ++this.seq, graceMs: -1, probeMs: PROBE_MS }, action);
    }
    if (answer.missing) {
      const when =
        answer.missing === "loaded"
          ? `(none ${path.graceMs} ms after the page's load event; checked again on every request)`
          : `within ${this.timeoutMs} ms`;
      // The URL is the page's to choose (history.pushState).
      throw new LinkError(path.missing(`in ${here.href} ${when}`, this.origin), { pageText: true });
    }
    if (answer.timeout) {
      // The exchange posted the request: an action may be under way (a long task, a confirm).
      if (action) throw new LinkError(`the page did not answer within ${this.timeoutMs} ms`, { sent: true });
      throw new LinkError(
        `the page did not answer within ${this.timeoutMs} ms: is attachWindowBridge() called with allowedOrigins [${JSON.stringify(this.origin)}]?`,
      );
    }
    return JSON.parse(answer.json);
  }

  /**
   * Runs the exchange. An action whose evaluate was cut short (its deadline,
   * a navigation) is marked `sent`: the exchange may have posted it, and a
   * page busy in a long task runs the pending evaluate, and posts it, later.
   */
  async #exchange(args, action) {
    try {
      return await this.#evaluate(exchange, args);
    } catch (e) {
      if (action && e instanceof LinkError && e.late) throw new LinkError(e.message, { pageText: e.pageText, sent: true });
      throw e;
    }
  }

  async #evaluate(fn, arg) {
    // The page bounds its own wait by timeoutMs; this bounds everything
    // else (a page busy in a long task, a stalled evaluate), with a margin
    // so the page's own timeout answer wins when it can (a probe of the
    // channel may add up to twice its wait).
    let timer;
    const margin = 2000 + 2 * (arg.probeMs ?? 0);
    const deadline = new Promise((_, reject) => {
      const late = new LinkError(`the page did not answer within ${this.timeoutMs} ms (it may be busy)`, { late: true });
      timer = setTimeout(() => reject(late), this.timeoutMs + margin);
    });
    try {
      return await Promise.race([this.page.evaluate(fn, arg), deadline]);
    } catch (e) {
      if (e instanceof LinkError) throw e;
      // Playwright's message, or what the page's script threw (a page can
      // replace the builtins the exchange uses): quoted, and marked.
      const why = String(e?.message ?? e).split("\n")[0];
      if (/context was destroyed|navigat|Target .*closed/i.test(why)) {
        throw new LinkError(`the page navigated or closed before answering (${quoted(why)})`, { pageText: true, late: true });
      }
      throw new LinkError(`could not reach the page: ${quoted(why)}`, { pageText: true });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Calls `onChange()` after DOM changes in the page (within 100 ms of the
   * first of a burst) and after every load of a new document.
   * @param {() => void} onChange
   */
  async watch(onChange) {
    const page = this.page;
    await page.exposeBinding(CHANGED_BINDING, () => void onChange());
    const arg = { binding: CHANGED_BINDING, ms: 100 };
    await page.addInitScript(watchDom, arg);
    page.on("load", () => void onChange());
    await page.evaluate(watchDom, arg).catch(() => {});
  }

  /** Waits (bounded) until a document loaded after `loadsBefore` (after a reload escape). */
  async settle(loadsBefore) {
    const deadline = Date.now() + this.timeoutMs;
    while (this.loads <= loadsBefore && Date.now() < deadline && !this.page.isClosed()) {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
