// What the benchmark runs inside the page (passed to page.evaluate). Every
// timing repeats its operation until at least `minMs` passed, because
// Chromium clamps performance.now() to 0.1 ms.

export const IN_PAGE = () => {
  const MARKED = "[data-e2e-kind],[data-e2e-pagetitle],[data-e2e-dirty],[data-e2e-noreload]";
  const INTERACTIVE = "a[href],area[href],button,input,select,textarea,summary,[role],[tabindex],[contenteditable]";
  // :where() because Chromium matches it faster than the bare list (the
  // module's gatherer uses it too; see bench/notes.md).
  const FLOOR_SELECTOR = ":where(" + MARKED + "," + INTERACTIVE + ")";

  let sink = 0; // keeps the floor's reads observable

  const visible = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // The contract's disabled: `:disabled`, inside a disabled fieldset, aria-disabled or inert (an
  // ancestor's attribute, or outside an open modal dialog, looked up once per read).
  let modal = null;
  // sense::rules::DISABLING: aria-disabled as Chromium reads it, or inert.
  const DISABLING = '[aria-disabled]:not([aria-disabled=""],[aria-disabled="false" i],[aria-disabled="undefined" i]),[inert]';
  const disabled = (el) =>
    el.matches(":disabled") || el.closest("fieldset[disabled]") !== null ||
    el.closest(DISABLING) !== null || (modal !== null && !modal.contains(el));

  /**
   * The DOM floor: the minimum reads the snapshot contract needs, in a bare
   * loop that builds nothing. One query for markers and interactive
   * elements; every marker's attributes; visibility (checkVisibility plus
   * the zero-size read the contract's `visible` needs) and disabled state of
   * menu candidates (playables, and interactive elements inside islands:
   * possible slots); role, accessible name (aria-label, else text) and
   * visibility (generics carry it) of every unmarked interactive element. Plus the one pass that finds open
   * shadow roots (the contract reads inside them): every element's
   * shadowRoot. The generated pages have none, so nothing more is read.
   */
  function floor(root) {
    modal = (root.ownerDocument || root).querySelector("dialog:modal");
    const all = root.getElementsByTagName("*");
    for (let i = 0, n = all.length; i < n; i++) {
      const shadow = all[i].shadowRoot;
      if (shadow === null) continue;
      sink++;
      // The module looks for a modal dialog in open shadow roots too (a component's own).
      if (modal === null) modal = shadow.querySelector("dialog:modal");
    }
    const list = root.querySelectorAll(FLOOR_SELECTOR);
    const islands = [];
    for (let i = 0; i < list.length; i++) {
      const el = list[i];
      while (islands.length && !islands[islands.length - 1].contains(el)) islands.pop();
      const kind = el.getAttribute("data-e2e-kind");
      const pageTitle = el.getAttribute("data-e2e-pagetitle");
      const dirty = el.getAttribute("data-e2e-dirty");
      if (el.hasAttribute("data-e2e-noreload")) sink++;
      if (pageTitle !== null) sink += pageTitle.length;
      if (dirty !== null) sink += dirty.length;
      if (kind !== null) {
        const id = el.getAttribute("data-e2e-id") || "";
        const event = el.getAttribute("data-e2e-event") || "";
        const title = el.getAttribute("data-e2e-title") || "";
        const desc = el.getAttribute("data-e2e-desc") || "";
        sink += id.length + event.length + title.length + desc.length;
        if (kind === "playable") sink += (visible(el) ? 1 : 0) + (disabled(el) ? 2 : 0);
        else if (kind === "island") islands.push(el);
      } else {
        const role = el.getAttribute("role") || el.tagName;
        const name = el.getAttribute("aria-label") || el.textContent;
        sink += role.length + name.length + (visible(el) ? 1 : 0);
        if (islands.length) sink += disabled(el) ? 2 : 0;
      }
    }
    return sink;
  }

  const state = { p: null, pageId: null, runId: null, seq: 0, waiting: new Map() };
  const snapshotDown = () => ({ pageId: state.pageId, requestId: "s", cmd: "snapshot", payload: {} });

  window.addEventListener("message", (e) => {
    const d = e.data;
    if (d && d.channel === "in-page-playable" && d.dir === "up") {
      const resolve = state.waiting.get(d.seq);
      if (resolve) {
        state.waiting.delete(d.seq);
        resolve(d.envelope);
      }
    }
  });
  const viaBridge = (envelope) =>
    new Promise((resolve) => {
      const seq = ++state.seq;
      state.waiting.set(seq, resolve);
      window.postMessage({ channel: "in-page-playable", dir: "down", seq, envelope }, location.origin);
    });

  // Each timing starts with one untimed call, so no operation pays for
  // style or layout that the previous one invalidated (a run's click).
  async function timed(op, minMs) {
    await op();
    let n = 0;
    const t0 = performance.now();
    let t;
    do {
      await op();
      n++;
      t = performance.now();
    } while (t - t0 < minMs);
    return (t - t0) / n;
  }
  /**
   * An import that started at t0 and ended at t1, split where the page
   * asked for the .wasm (Resource Timing): `scriptMs` fetches and runs the
   * JavaScript up to the glue's fetch of the wasm, `wasmMs` fetches,
   * compiles and instantiates the wasm and finishes the entry.
   */
  function phases(t0, t1) {
    const wasm = performance.getEntriesByType("resource").find((e) => e.startTime >= t0 && e.name.endsWith(".wasm"));
    const asked = wasm ? wasm.startTime : t1;
    return { importMs: t1 - t0, scriptMs: asked - t0, wasmMs: t1 - asked };
  }

  function timedSync(op, minMs) {
    op();
    let n = 0;
    const t0 = performance.now();
    let t;
    do {
      op();
      n++;
      t = performance.now();
    } while (t - t0 < minMs);
    return (t - t0) / n;
  }

  window.__bench = {
    async setup(slotsUrl, runId) {
      const islandSlots = await (await fetch(slotsUrl)).json();
      const P = await import("/www/index.js");
      state.p = P.installPlayable({ islandSlots, allowedOrigins: [location.origin] });
      state.p.attachWindowBridge();
      const hello = await state.p.handle({ pageId: null, requestId: "h", cmd: "hello", payload: {} });
      state.pageId = hello.payload.pageId;
      state.runId = runId;
      const up = await state.p.handle(snapshotDown());
      if (!up.ok) throw new Error("snapshot failed: " + JSON.stringify(up.error));
      if (runId) {
        const run = await state.p.handle({ pageId: state.pageId, requestId: "r", cmd: "run", payload: { id: runId } });
        if (!run.ok) throw new Error("run failed: " + JSON.stringify(run.error));
      }
      const bridged = await viaBridge(snapshotDown());
      if (!bridged.ok) throw new Error("bridge snapshot failed");
      floor(document);
      return {
        elements: document.body.getElementsByTagName("*").length,
        menu: up.payload.snapshot.menu.length,
        generics: up.payload.snapshot.generics.length,
        uplinkBytes: JSON.stringify(up).length,
      };
    },
    /** One sample of each measured operation, interleaved so drift hits all alike. */
    async round(minMs) {
      const runDown = { pageId: state.pageId, requestId: "r", cmd: "run", payload: { id: state.runId } };
      return {
        snapshot: await timed(() => state.p.handle(snapshotDown()), minMs),
        floor: timedSync(() => floor(document), minMs),
        run: state.runId ? await timed(() => state.p.handle(runDown), minMs) : null,
        bridge: await timed(() => viaBridge(snapshotDown()), minMs),
      };
    },
    async bridgeHello(minMs) {
      return timed(() => viaBridge({ pageId: null, requestId: "h", cmd: "hello", payload: {} }), minMs);
    },
    /** For the CPU profiler: `n` back-to-back snapshots or floors. */
    async loop(what, n) {
      for (let i = 0; i < n; i++) {
        if (what === "floor") floor(document);
        else await state.p.handle(snapshotDown());
      }
    },
    async cycles(n) {
      const runDown = { pageId: state.pageId, requestId: "r", cmd: "run", payload: { id: state.runId } };
      for (let i = 0; i < n; i++) {
        const a = await state.p.handle(snapshotDown());
        const b = await state.p.handle(runDown);
        if (!a.ok || !b.ok) throw new Error("cycle failed");
      }
    },
    async wasmMemory() {
      const glue = await import("/www/pkg/in_page_playable.js");
      const exports = await glue.default();
      // Found by type, not by export name: the bench does not depend on the glue's names.
      return Object.values(exports).find((e) => e instanceof WebAssembly.Memory).buffer.byteLength;
    },
    /**
     * import() of the package in a fresh page (fetch, compile, instantiate:
     * once per page, so one operation per sample), then installPlayable()
     * repeated (with resetPlayableForTests between) until minMs passed.
     */
    /**
     * The same import of bench/floor's module (the card's crates, trivial
     * logic; built by bench/floor.mjs), for scale: what any module built on
     * the card pays to load.
     */
    async importFloor() {
      const t0 = performance.now();
      const m = await import("/target/floor/pkg/floor.min.js");
      await m.default();
      return phases(t0, performance.now());
    },
    async install(minMs, entry) {
      const t0 = performance.now();
      const P = await import(entry);
      const { importMs, scriptMs, wasmMs } = phases(t0, performance.now());
      const installMs = timedSync(() => {
        P.resetPlayableForTests();
        P.installPlayable({ allowedOrigins: [location.origin] });
      }, minMs);
      return { importMs, scriptMs, wasmMs, installMs };
    },
  };
};
