// Deterministic benchmark pages: nested sections with about 5 % playables,
// 1 % islands (two slots each), 5 % unmarked links and buttons, the rest
// plain content. The same seed and size always give the same bytes.

/** mulberry32: a small seeded PRNG, good enough to shape a page. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "alpha beta gamma delta order invoice customer shipment archive export filter status note total draft review".split(" ");

/**
 * Returns { html, islandSlots, counts, runId } for a page of about `target`
 * elements inside <body>. `runId` names an enabled, visible playable.
 */
export function generatePage(target, seed = 20261130) {
  const random = rng(seed ^ target);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const out = [];
  const counts = { elements: 0, playables: 0, islands: 0, unmarked: 0, sections: 0, maxDepth: 0 };
  const islandSlots = {};
  let depth = 0;
  let runId = null;

  out.push(`<main data-e2e-pagetitle="Benchmark ${target}">`);
  counts.elements++;
  while (counts.elements < target) {
    const r = random();
    if (r < 0.04 && depth < 10) {
      out.push(`<section class="s${depth}"><h2>${words(2)}</h2>`);
      depth++;
      counts.sections++;
      counts.elements += 2;
      counts.maxDepth = Math.max(counts.maxDepth, depth);
    } else if (r < 0.075 && depth > 0) {
      out.push("</section>");
      depth--;
    } else if (r < 0.125) {
      const n = counts.playables++;
      const id = `p${n}`;
      const state = random();
      const attrs =
        state < 0.08 ? " disabled" : state < 0.12 ? ' style="display:none"' : state < 0.15 ? ' aria-disabled="true"' : "";
      const desc = random() < 0.5 ? ` data-e2e-desc="${words(6)}"` : "";
      out.push(
        `<button data-e2e-kind="playable" data-e2e-id="${id}" data-e2e-title="${words(2)} ${n}"${desc}${attrs}>${words(2)}</button>`,
      );
      if (attrs === "" && runId === null && counts.elements > target / 2) runId = id;
      counts.elements++;
    } else if (r < 0.135) {
      // 3 elements: the island and its two slots.
      const id = `isl${counts.islands++}`;
      islandSlots[id] = { next: { ariaLabel: "Next page" }, prev: { role: "button", name: "Previous" } };
      out.push(
        `<nav data-e2e-kind="island" data-e2e-id="${id}"><button aria-label="Next page">›</button><button>Previous</button></nav>`,
      );
      counts.elements += 3;
    } else if (r < 0.185) {
      const n = counts.unmarked++;
      out.push(n % 2 ? `<a href="#l${n}">${words(3)}</a>` : `<button type="button">${words(2)}</button>`);
      counts.elements++;
    } else {
      const kind = random();
      out.push(kind < 0.5 ? `<p>${words(8)}</p>` : kind < 0.8 ? `<div>${words(4)}</div>` : `<span>${words(2)}</span>`);
      counts.elements++;
    }
  }
  while (depth-- > 0) out.push("</section>");
  out.push("</main>");
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>bench ${target}</title></head>` +
    `<body>${out.join("\n")}</body></html>`;
  return { html, islandSlots, counts, runId };
}
