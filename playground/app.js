// The orders app a person (or an agent, through the menu) uses. The markup
// with its data-e2e-* markers is in index.html so you can read what the page
// declares; this module only fills the table and reacts to clicks and typing.

const ORDERS = [
  [1042, "Ada Lovelace", "Analytical engine gears", 129.0, "pending"],
  [1043, "Grace Hopper", "Moth trap, 3 pack", 18.5, "shipped"],
  [1044, "Alan Turing", "Paper tape, 10 rolls", 42.0, "pending"],
  [1045, "Katherine Johnson", "Slide rule", 35.9, "shipped"],
  [1046, "Edsger Dijkstra", "Fountain pen", 64.0, "cancelled"],
  [1047, "Barbara Liskov", "Whiteboard markers", 12.4, "pending"],
  [1048, "Donald Knuth", "Typesetting fonts", 250.0, "shipped"],
  [1049, "Margaret Hamilton", "Printed listings binder", 88.0, "pending"],
  [1050, "Ken Thompson", "Chess clock", 49.0, "shipped"],
  [1051, "Frances Allen", "Compiler manual", 71.3, "cancelled"],
  [1052, "John McCarthy", "Parentheses, assorted", 9.99, "pending"],
  [1053, "Radia Perlman", "Network cable, 20 m", 27.0, "shipped"],
  [1054, "Leslie Lamport", "Logical clock", 55.0, "pending"],
  [1055, "Hedy Lamarr", "Frequency hopping kit", 199.0, "shipped"],
  [1056, "Dennis Ritchie", "C reference card", 5.5, "pending"],
  [1057, "Adele Goldberg", "Smalltalk stickers", 7.0, "shipped"],
  [1058, "Tony Hoare", "Quicksort poster", 15.0, "cancelled"],
  [1059, "Shafi Goldwasser", "Zero-knowledge puzzle", 33.0, "pending"],
  [1060, "Tim Berners-Lee", "Hypertext notebook", 21.0, "shipped"],
  [1061, "Sophie Wilson", "ARM dev board", 140.0, "pending"],
  [1062, "Bjarne Stroustrup", "Template cookbook", 59.0, "shipped"],
  [1063, "Lynn Conway", "VLSI design kit", 310.0, "pending"],
  [1064, "Niklaus Wirth", "Pascal triangle mug", 14.0, "shipped"],
].map(([id, customer, item, total, status]) => ({ id, customer, item, total, status }));

export const PAGE_SIZE = 5;
const NOTE_KEY = "in-page-playable-playground-note";

/** How the page's pagination island is expanded into menu items (installPlayable's islandSlots). */
export const ISLAND_SLOTS = {
  "list-pagination": {
    prev: { ariaLabel: "Previous page" },
    next: { ariaLabel: "Next page" },
  },
};

const money = (n) => "$" + n.toFixed(2);

/** Wires the orders app inside `root` (the element carrying the app's markup). */
export function mountOrdersApp(root) {
  const $ = (sel) => root.querySelector(sel);
  const state = { query: "", filter: "all", page: 0, open: null, refreshes: 0 };
  const rows = $("#rows");
  const activity = $("#activity");

  const log = (text) => {
    const li = document.createElement("li");
    li.textContent = text;
    activity.prepend(li);
    while (activity.children.length > 40) activity.lastElementChild.remove();
  };

  const matching = () => {
    const q = state.query.trim().toLowerCase();
    return ORDERS.filter(
      (o) =>
        (state.filter === "all" || o.status === state.filter) &&
        (!q || o.customer.toLowerCase().includes(q) || String(o.id).includes(q) || o.item.toLowerCase().includes(q)),
    );
  };

  function renderList() {
    const list = matching();
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    rows.replaceChildren(
      ...list.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE).map((o) => {
        const tr = document.createElement("tr");
        tr.innerHTML = `<td class="num">#${o.id}</td><td></td><td></td><td class="num">${money(o.total)}</td>
          <td><span class="status status-${o.status}">${o.status}</span></td><td class="open"></td>`;
        tr.children[1].textContent = o.customer;
        tr.children[2].textContent = o.item;
        const open = document.createElement("button");
        open.className = "link-button";
        open.textContent = "Open";
        open.dataset.order = o.id;
        Object.assign(open.dataset, {
          e2eKind: "playable",
          e2eId: `orders.open.${o.id}`,
          e2eTitle: `Open order #${o.id}`,
          e2eDesc: `Show the details of ${o.customer}'s order`,
        });
        tr.children[5].append(open);
        return tr;
      }),
    );
    $("#empty").hidden = list.length > 0;
    $("#summary").textContent = `${list.length} of ${ORDERS.length} orders` + (state.refreshes ? ` · refreshed ${state.refreshes}×` : "");
    $("#page-label").textContent = `Page ${state.page + 1} of ${pages}`;
    $('[aria-label="Previous page"]').disabled = state.page === 0;
    $('[aria-label="Next page"]').disabled = state.page >= pages - 1;
    for (const chip of root.querySelectorAll("[data-filter]")) {
      chip.setAttribute("aria-pressed", String(chip.dataset.filter === state.filter));
    }
  }

  function renderDetail() {
    const detail = $("#detail");
    const o = ORDERS.find((x) => x.id === state.open);
    detail.hidden = !o;
    if (!o) return;
    $("#detail-title").textContent = `Order #${o.id}`;
    $("#detail-customer").textContent = o.customer;
    $("#detail-item").textContent = o.item;
    $("#detail-total").textContent = money(o.total);
    $("#detail-status").textContent = o.status;
    $("#detail-status").className = `status status-${o.status}`;
    // Only pending orders can ship: the menu reports the button as disabled otherwise.
    $('[data-e2e-id="order.ship"]').disabled = o.status !== "pending";
  }

  root.addEventListener("click", (event) => {
    const el = event.target.closest("button, a");
    if (!el || !root.contains(el)) return;
    if (el.dataset.order) {
      state.open = Number(el.dataset.order);
      log(`Opened order #${state.open}`);
      renderDetail();
      return;
    }
    if (el.dataset.filter) {
      state.filter = el.dataset.filter;
      state.page = 0;
      log(`Filter: ${state.filter}`);
      renderList();
      return;
    }
    switch (el.dataset.e2eId || el.getAttribute("aria-label")) {
      case "orders.refresh":
        state.refreshes++;
        log("Refreshed the list");
        renderList();
        break;
      case "Previous page":
        state.page--;
        log(`Page ${state.page + 1}`);
        renderList();
        break;
      case "Next page":
        state.page++;
        log(`Page ${state.page + 1}`);
        renderList();
        break;
      case "order.ship": {
        const o = ORDERS.find((x) => x.id === state.open);
        o.status = "shipped";
        log(`Shipped order #${o.id}`);
        renderDetail();
        renderList();
        break;
      }
      case "order.close":
        log(`Closed order #${state.open}`);
        state.open = null;
        renderDetail();
        break;
      case "desk.saveNote":
        saveNote();
        break;
    }
  });

  $("#search").addEventListener("input", (event) => {
    state.query = event.target.value;
    state.page = 0;
    renderList();
  });

  // The note marks itself dirty while it holds text that is not saved: the
  // menu then forbids a reload escape, so an agent cannot throw the text away.
  const note = $("#note");
  let saved = localStorage.getItem(NOTE_KEY) || "";
  note.value = saved;
  const markNote = () => {
    const dirty = note.value !== saved;
    if (dirty) note.setAttribute("data-e2e-dirty", "true");
    else note.removeAttribute("data-e2e-dirty");
    $("#note-state").textContent = dirty ? "Unsaved changes — reload is blocked" : saved ? "Saved" : "Empty";
    $("#note-state").classList.toggle("warn", dirty);
  };
  function saveNote() {
    saved = note.value;
    localStorage.setItem(NOTE_KEY, saved);
    log("Saved the note");
    markNote();
  }
  note.addEventListener("input", markNote);

  // Triage: HTML5 drag and drop of the flagged order onto a lane.
  const card = $("#triage-card");
  card.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card.id));
  for (const lane of root.querySelectorAll(".lane")) {
    lane.addEventListener("dragover", (event) => event.preventDefault());
    lane.addEventListener("drop", (event) => {
      event.preventDefault();
      if (event.dataTransfer.getData("text/plain") !== card.id) return;
      lane.append(card);
      log(`Triage: SO-1001 moved to ${lane.textContent.replace(card.textContent, "").trim()}`);
    });
  }

  renderList();
  renderDetail();
  markNote();
  log("Page loaded");
}
