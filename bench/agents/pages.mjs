// The pages the agent benchmark (and tests/mcp-observation.test.mjs) drive:
// bench/generate.mjs's deterministic page with a table of order rows in the
// middle, each row with its own declared actions, so that "find one item"
// has a needle: row 739 of the 10k page has `row.739.approve`, titled
// "Approve item 739". The same size always gives the same bytes.
//
// A row is 8 elements: <tr>, three <td>, Approve and Reject (declared, with
// their title as accessible name too, so peers that read the accessibility
// tree find the same words;
// Approve is disabled on rows 4, 14, 24, …, as if already approved), a Details
// link (unmarked: a generic ref) and, on every 7th row, an Undo button that
// is display:none (a hidden generic). Rows take ~60 % of the elements; the
// generated page the rest.
import { generatePage } from "../generate.mjs";

const STATUS = ["pending", "shipped", "on hold", "paid", "returned"];

/**
 * { html, rows, size } for a page of about `size` elements. With `ship`
 * false the page does not load the package (for --inject).
 */
export function agentPage(size, { ship = true } = {}) {
  const rows = Math.round((size * 0.6) / 8);
  const base = generatePage(size - rows * 8);
  const out = ['<table data-orders><tbody>'];
  for (let n = 0; n < rows; n++) {
    const done = n % 10 === 4 ? " disabled" : "";
    const undo = n % 7 === 3 ? `<button type="button" style="display:none">Undo ${n}</button>` : "";
    out.push(
      `<tr><td>Order ${n}</td><td>${STATUS[n % STATUS.length]}</td><td>` +
        `<button data-e2e-kind="playable" data-e2e-id="row.${n}.approve" data-e2e-title="Approve item ${n}" ` +
        `data-e2e-desc="Marks order ${n} approved" aria-label="Approve item ${n}"${done}>Approve</button>` +
        `<button data-e2e-kind="playable" data-e2e-id="row.${n}.reject" data-e2e-title="Reject item ${n}" aria-label="Reject item ${n}">Reject</button>` +
        `<a href="#order-${n}">Details</a>${undo}</td></tr>`,
    );
  }
  out.push("</tbody></table>");
  // Rows go after the first half of the generated content (a line boundary).
  const lines = base.html.split("\n");
  const at = Math.floor(lines.length / 2);
  lines.splice(at, 0, out.join("\n"));
  let html = lines
    .join("\n")
    .replace(/data-e2e-pagetitle="[^"]*"/, `data-e2e-pagetitle="Agents ${size}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>agents ${size}</title>`);
  if (ship) {
    const slots = JSON.stringify(base.islandSlots).replace(/</g, "\\u003c");
    html = html.replace(
      "</body>",
      `<script type="module">import { installPlayable } from "/www/index.js";` +
        `installPlayable({ allowedOrigins: [location.origin], islandSlots: ${slots} }).attachWindowBridge();</script></body>`,
    );
  }
  return { html, rows, size, islandSlots: base.islandSlots };
}
