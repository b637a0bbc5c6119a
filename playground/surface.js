// The seed's "orders" Surface demo: a small order list declared with Surface
// markers, the page's own execute path, and a console that sends describe /
// invoke requests (also answered on the "pling.surface" window bridge).
import { createSurface, installPlayable } from "../www/index.js";
import { h } from "./dom.js";

const orders = [
  { id: "SO-1001", customer: "Ada Lovelace", total: "120.00", state: "open", note: "" },
  { id: "SO-1002", customer: "Grace Hopper", total: "89.50", state: "locked", note: "月底结算" },
  { id: "SO-1003", customer: "Alan Turing", total: "42.00", state: "open", note: "" },
  { id: "SO-1004", customer: "Katherine Johnson", total: "310.00", state: "open", note: "" },
  { id: "SO-1005", customer: "Edsger Dijkstra", total: "18.20", state: "open", note: "" },
];
let query = "";
const $ = (id) => document.getElementById(id);

// ---- the page ----

function render() {
  const shown = orders.filter((o) => !query || (o.id + " " + o.customer).toLowerCase().includes(query.toLowerCase()));
  $("rows").replaceChildren(...shown.map((o) => {
    const locked = o.state === "locked";
    return h("tr", { "data-e2e-kind": "record", "data-e2e-record": "order", "data-e2e-id": o.id, "data-e2e-state": o.state },
      h("td", { "data-e2e-field": "id" }, o.id),
      h("td", { "data-e2e-field": "customer" }, o.customer),
      h("td", { class: "num", "data-e2e-field": "total" }, o.total),
      h("td", {}, h("span", { class: "status " + (locked ? "status-cancelled" : "status-pending") }, o.state)),
      h("td", { "data-e2e-field": "note" }, o.note),
      h("td", { class: "open" },
        h("button", { class: "link-button", onclick: () => open(o.id) }, "Open"),
        h("button", {
          class: "link-button",
          "data-e2e-kind": "playable",
          "data-e2e-id": "orders.update_note@order",
          "data-e2e-unavailable": locked ? "记录已锁定" : null,
          disabled: locked,
          onclick: () => { const note = prompt("Note for " + o.id, o.note); if (note !== null) updateNote(o.id, note); },
        }, "Edit note")));
  }));
  return shown.length;
}

function say(text) {
  $("status").textContent = text;
  $("feedback").textContent = "";
}

function search(q) {
  query = q;
  $("q").value = q;
  const n = render();
  say(`${n} order${n === 1 ? "" : "s"} match "${q}"`);
  return n;
}

function open(id) {
  const o = orders.find((x) => x.id === id);
  if (!o) return false;
  $("detail").hidden = false;
  $("detail-title").textContent = o.id;
  $("detail-customer").textContent = o.customer;
  $("detail-total").textContent = o.total;
  $("detail-note").textContent = o.note || "—";
  say("Opened " + o.id);
  return true;
}

function updateNote(id, note) {
  const o = orders.find((x) => x.id === id);
  o.note = note;
  render();
  say("Saving the note for " + id + "…");
  // The backend answers a moment later; the declared expectation waits for this text.
  setTimeout(() => {
    $("status").textContent = "Saved the note for " + id;
    $("feedback").textContent = "备注已保存";
  }, 300);
}

$("search").addEventListener("click", () => search($("q").value));
$("detail-close").addEventListener("click", () => { $("detail").hidden = true; });
render();
say(`${orders.length} orders`);

// ---- the declarations and the page's execution path ----

const registry = [
  {
    id: "orders.search", title: "Search orders", description: "Filter the list by customer or order number",
    input: { type: "object", properties: { q: { type: "string", maxLength: 100 } }, required: ["q"], additionalProperties: false },
  },
  {
    id: "orders.open", title: "Open an order", description: "Show one order in the detail panel",
    input: { type: "object", properties: { order: { type: "string", minLength: 1 } }, required: ["order"], additionalProperties: false },
  },
  {
    id: "orders.update_note@order", title: "Update an order's note",
    input: { type: "object", properties: { note: { type: "string", minLength: 1, maxLength: 200 } }, required: ["note"] },
    expect: { text: "备注已保存", within: 2000 },
  },
  // Declared but not exposed: invoking it is CAPABILITY_NOT_EXPOSED.
  { id: "orders.cancel@order", title: "Cancel an order", risk: "high" },
];

function execute(id, args) {
  switch (id) {
    case "orders.search":
      return { ok: true, value: { matches: search(args.q) } };
    case "orders.open":
      return open(args.order)
        ? { ok: true }
        : { ok: false, error: { code: "ACTION_UNAVAILABLE", message: `no order ${args.order}` } };
    case "orders.update_note@order": {
      const o = orders.find((x) => x.id === args.record);
      if (!o) return { ok: false, error: { code: "ACTION_UNAVAILABLE", message: `no order ${args.record}` } };
      if (o.state === "locked") return { ok: false, error: { code: "ACTION_UNAVAILABLE", message: "记录已锁定" } };
      updateNote(o.id, args.note);
      return { ok: true };
    }
    default:
      return { ok: false, error: { code: "ACTION_NOT_FOUND", message: id } };
  }
}

// The host's verified session: in a real app this comes from sign-in.
let revoked = false;
const session = { id: "demo-session", scope: ["orders.*"], expiresAt: Date.now() + 3_600_000 };

// ---- the console ----

const con = $("console");
let surface;
try {
  surface = createSurface({
    registry,
    execute,
    app: "orders",
    expose: ["orders.search", "orders.open", "orders.update_note@order"],
    session: () => ({ ...session, revoked }),
    recordLimit: 8,
    root: $("app"),
    allowedOrigins: [location.origin],
  });
  surface.attachWindowBridge();
  window.surface = surface; // for the browser console and tests
  // Like every playground page, the window's playable instance too, its
  // bridge open to this origin: a playable agent sees the same controls.
  window.playable = installPlayable({ root: $("app"), allowedOrigins: [location.origin] });
  window.playable.attachWindowBridge();
} catch (e) {
  con.replaceChildren(h("p", { class: "hint install-error" }, String(e && e.message ? e.message : e)));
  throw e;
}

let n = 0;
const nextId = () => "req-" + (1000 + ++n);
const PRESETS = [
  ["describe (seed req-1)", () => ({ protocol: "pling.surface/0.1", id: "req-1", method: "describe", input: { limit: 8, capabilities: "changed" } })],
  ["invoke (seed req-2): SO-1002 locked", () => ({ protocol: "pling.surface/0.1", id: "req-2", method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1002", note: "周五前回电" } })],
  ["update SO-1001's note", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1001", note: "周五前回电" } })],
  ["search \"ada\"", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "invoke", capability: "orders.search", input: { q: "ada" } })],
  ["open SO-1003", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "invoke", capability: "orders.open", input: { order: "SO-1003" } })],
  ["bad params", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1001", note: 42 } })],
  ["not exposed", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "invoke", capability: "orders.cancel@order", input: { record: "SO-1001" } })],
  ["describe SO-1002 only", () => ({ protocol: "pling.surface/0.1", id: nextId(), method: "describe", input: { record: "SO-1002" } })],
];

const editor = h("textarea", { rows: 8, spellcheck: "false", "aria-label": "Request JSON" });
const log = h("ol", { class: "log" });
const load = (make) => { editor.value = JSON.stringify(make(), null, 2); };

function outcome(resp) {
  if (!resp.ok) return { bad: true, label: resp.error.code, text: resp.error.message };
  if (resp.result.error) return { bad: true, label: resp.result.error.code, text: resp.result.error.message };
  return { bad: false, label: "ok", text: "" };
}

async function send() {
  let request;
  try {
    request = JSON.parse(editor.value);
  } catch (e) {
    request = editor.value; // sent as is: Surface answers INVALID_REQUEST
  }
  const resp = await surface.handle(request);
  const o = outcome(resp);
  log.prepend(h("li", { class: "entry" + (o.bad ? " refused" : "") },
    h("div", { class: "entry-head" },
      h("span", { class: "badge " + (o.bad ? "bad" : "ok") }, o.label),
      h("span", {}, request && request.method ? request.method + (request.capability ? " " + request.capability : "") : "?"),
      h("span", { class: "via" }, request && request.id ? request.id : "")),
    o.text ? h("p", { class: "gist" }, o.text) : null,
    h("details", {}, h("summary", {}, "request"), h("pre", {}, JSON.stringify(request, null, 2))),
    h("pre", {}, JSON.stringify(resp, null, 2))));
  // A fresh id for the next send: ids are never reused within a session.
  if (request && typeof request === "object" && !/^req-[12]$/.test(request.id)) {
    request.id = nextId();
    editor.value = JSON.stringify(request, null, 2);
  }
}

const revoke = h("input", { type: "checkbox", onchange: (e) => { revoked = e.target.checked; } });
con.replaceChildren(
  h("div", { class: "console-head" }, h("h2", {}, "Surface console"), h("span", { class: "where" }, "pling.surface/0.1")),
  h("p", { class: "hint" }, "Describe and invoke the page's declared capabilities. The same requests are answered on the window bridge channel \"pling.surface\". Request ids are single-use: sending req-1 or req-2 twice shows REPLAY_DETECTED."),
  h("div", { class: "presets" }, PRESETS.map(([label, make]) => h("button", { onclick: () => { load(make); send(); } }, label))),
  editor,
  h("div", { class: "controls" },
    h("button", { onclick: send }, "Send"),
    h("label", { class: "check" }, revoke, "revoke the session")),
  h("h3", {}, "Responses"),
  log,
);
load(PRESETS[0][1]);
