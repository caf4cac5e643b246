// The board of `polemos serve`. Presentation only: it draws what the server says (the map as SVG
// from the program's renderer, the status, the options of the decision, the trace) and sends what
// the player does as the commands a player would type at the prompt. No rule is decided here.
"use strict";

const state = {
  seq: 0,          // the last log entry shown
  version: 0,      // the game's version drawn
  selected: "",    // the unit chosen on the board
  zoom: 1,
  placed: false,   // the view has been scrolled to the units once
  history: [],     // console lines typed, for the arrow keys
  historyAt: 0,
};

// Everything that talks to the server runs in turn, in the order asked: a command typed while
// another is under way waits for it (none is dropped), and the log is never fetched twice at once.
let queue = Promise.resolve();
let pending = 0;
window.polemosIdle = false;  // true while nothing is under way (tests wait for it)
function enqueue(task) {
  ++pending;
  window.polemosIdle = false;
  queue = queue.then(task).catch((e) => message("error: " + e)).then(() => {
    if (--pending === 0) window.polemosIdle = true;
  });
  return queue;
}

const $ = (id) => document.getElementById(id);
const HELP_SELECTED = "Click a unit: its details, the hexes it can reach (with their cost) and its " +
                      "zone of control. Then click a hex to move there.";

async function api(path, options) {
  const init = options || {};
  if (init.method === "POST") init.headers = Object.assign({"X-Polemos": "1"}, init.headers || {});
  const res = await fetch(path, init);
  const type = res.headers.get("Content-Type") || "";
  const body = type.startsWith("application/json") ? await res.json() : await res.text();
  return {status: res.status, body};
}

function post(path, payload) {
  return api(path, {method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify(payload)});
}

// A line of REPL output, with rule citations marked.
function renderText(el, text) {
  el.textContent = "";
  for (const line of text.replace(/\n$/, "").split("\n")) {
    const div = document.createElement("div");
    if (/^(error|illegal):/.test(line)) div.className = "refused";
    const parts = line.split(/(§[0-9A-Za-z.:_-]*[0-9A-Za-z])/);
    for (const p of parts) {
      if (p.startsWith("§")) {
        const cite = document.createElement("span");
        cite.className = "cite";
        cite.textContent = p;
        cite.title = "rule " + p.slice(1) + " (click: the declarations behind it)";
        cite.addEventListener("click", () => enqueue(() => ask("help " + p)));
        div.appendChild(cite);
      } else {
        div.appendChild(document.createTextNode(p));
      }
    }
    el.appendChild(div);
  }
}

function message(text) {
  renderText($("message"), text || "");
}

function addLog(entry) {
  const item = document.createElement("div");
  item.className = "entry" + (entry.ok ? "" : " bad");
  item.dataset.seq = entry.seq;
  if (entry.command) {
    const cmd = document.createElement("div");
    cmd.className = "command";
    cmd.textContent = "> " + entry.command;
    item.appendChild(cmd);
  }
  const out = document.createElement("div");
  out.className = "output";
  renderText(out, entry.output);
  item.appendChild(out);
  $("log").appendChild(item);
  $("log").scrollTop = $("log").scrollHeight;
}

let shownOptions = "";  // what the menu shows now: drawn again only when it changes
function renderOptions(options) {
  // A refresh that changed nothing (another tab's news of a move this tab made) keeps the buttons
  // as they are: one being clicked is not replaced under the pointer.
  const key = JSON.stringify([state.selected, options]);
  if (key === shownOptions) return;
  shownOptions = key;
  const list = $("options");
  list.textContent = "";
  // Those of no unit (end, pass, a choice) first, so that they are always at hand; then the
  // selected unit's, or all.
  const mine = state.selected ? options.filter((o) => o.unit === state.selected) : [];
  const general = options.filter((o) => !o.unit);
  const shown = general.concat(mine.length ? mine : options.filter((o) => o.unit));
  $("options-note").textContent = mine.length ? `(${state.selected}; ${options.length} in all)`
                                              : `(${options.length})`;
  const limit = 60;
  for (const o of shown.slice(0, limit)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "option";
    b.textContent = o.text;
    b.dataset.text = o.text;
    b.dataset.command = o.command;
    if (o.kind === "pick") b.title = o.command;
    b.addEventListener("click", () => play(o.command));
    li.appendChild(b);
    if (o.kind === "action" && o.action !== "move") {
      const odds = document.createElement("button");
      odds.className = "odds-button";
      odds.textContent = "odds";
      odds.title = "the exact odds of " + o.text + ", before it is made";
      odds.addEventListener("click", () => showOdds(o.text));
      li.appendChild(odds);
    }
    list.appendChild(li);
  }
  if (shown.length > limit) {
    const li = document.createElement("li");
    li.textContent = `... and ${shown.length - limit} more: select a unit, or type \`legal\``;
    list.appendChild(li);
  }
}

async function showOdds(text) {
  const r = await api("/api/odds?option=" + encodeURIComponent(text));
  const box = $("odds");
  box.textContent = "";
  if (!r.body.ok) {
    renderText(box, r.body.output);
    return;
  }
  let report;
  try {
    report = JSON.parse(r.body.output);
  } catch (e) {
    renderText(box, r.body.output);
    return;
  }
  const head = document.createElement("div");
  head.className = "odds-head";
  head.textContent = `odds of ${report.odds || text} (${report.side || ""})`;
  box.appendChild(head);
  for (const o of report.outcomes || []) {
    const row = document.createElement("div");
    row.className = "odds-row";
    const p = Number(o.p);
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = Math.round(160 * (isFinite(p) ? p : 0)) + "px";
    const label = document.createElement("span");
    label.className = "odds-label";
    label.textContent = `${o.probability || ""} (${(100 * p).toFixed(1)}%) ${o.result || ""}` +
                        (o.changes && o.changes.length ? " — " + o.changes.join(", ") : "");
    row.appendChild(bar);
    row.appendChild(label);
    box.appendChild(row);
  }
}

async function ask(line) {
  const r = await api("/api/ask?line=" + encodeURIComponent(line));
  message(r.body.output || "");
}

async function drawMap() {
  // The chosen unit's reach and zone of control; where the rules give none (a unit that cannot
  // move now, a ruleset without zones), less, and the reason said.
  const u = encodeURIComponent(state.selected);
  const tries = state.selected ? [`?reach=${u}&zoc=${u}`, `?reach=${u}`, ""] : [""];
  let r = null;
  for (const query of tries) {
    r = await api("/api/map.svg" + query);
    if (r.status === 200) break;
    if (query.includes("reach") && !query.includes("zoc")) message(typeof r.body === "object" ? r.body.output : String(r.body));
  }
  if (r.status !== 200) return;
  const board = $("board");
  board.innerHTML = r.body;
  const svg = board.querySelector("svg");
  if (!svg) return;
  svg.dataset.width = svg.getAttribute("width");
  svg.dataset.height = svg.getAttribute("height");
  svg.setAttribute("viewBox", `0 0 ${svg.dataset.width} ${svg.dataset.height}`);
  applyZoom();
  if (state.selected) {
    const c = svg.querySelector(`g.counter[data-unit="${CSS.escape(state.selected)}"]`);
    if (c) c.classList.add("selected");
  }
  if (!state.placed) {
    // The first drawing shows the side to act: its first counter in the middle of the view.
    state.placed = true;
    const first = svg.querySelector("g.counter");
    if (first) first.scrollIntoView({block: "center", inline: "center"});
  }
}

function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.setAttribute("width", Math.round(svg.dataset.width * state.zoom));
  svg.setAttribute("height", Math.round(svg.dataset.height * state.zoom));
}

async function refresh() {
  const r = await api("/api/state?since=" + state.seq);
  if (r.status !== 200) return;
  const s = r.body;
  $("title").textContent = s.title;
  document.title = "Polemos: " + s.title;
  renderText($("status"), s.status);
  for (const e of s.log) {
    addLog(e);
    state.seq = Math.max(state.seq, e.seq);
  }
  renderOptions(s.options);
  if (s.version !== state.version) {
    state.version = s.version;
    await drawMap();
    if (state.selected) await describeSelected();
  }
}

async function describeSelected() {
  if (!state.selected) {
    $("selected-id").textContent = "";
    $("selected").textContent = HELP_SELECTED;
    return;
  }
  $("selected-id").textContent = state.selected;
  const r = await api("/api/ask?line=" + encodeURIComponent("show " + state.selected));
  renderText($("selected"), r.body.output || "");
}

function play(line) {
  return enqueue(async () => {
    const r = await post("/api/command", {line});
    message(r.body.ok ? "" : r.body.output);
    await refresh();
  });
}

function select(unit) {
  return enqueue(async () => {
    state.selected = state.selected === unit ? "" : unit;
    state.version = -1;  // redraw with the unit's reach
    await describeSelected();
    await refresh();
  });
}

function clickHex(hex) {
  if (!state.selected) {
    $("hover").textContent = hex;
    return;
  }
  return enqueue(async () => {
    const r = await post("/api/click", {unit: state.selected, hex});
    message(r.body.ok ? "" : r.body.output);
    await refresh();
  });
}

function setUp() {
  const board = $("board");
  board.addEventListener("click", (ev) => {
    const counter = ev.target.closest("g.counter");
    if (counter) return select(counter.dataset.unit);
    const hex = ev.target.closest("[data-hex]");
    if (hex) return clickHex(hex.dataset.hex);
  });
  board.addEventListener("mouseover", (ev) => {
    const hex = ev.target.closest("[data-hex]");
    const counter = ev.target.closest("g.counter");
    const title = counter ? counter.querySelector("title") : hex ? hex.querySelector("title") : null;
    $("hover").textContent = title ? title.textContent : "";
  });
  // Pan by dragging the map; zoom with the buttons or the wheel with Ctrl.
  let drag = null;
  board.addEventListener("mousedown", (ev) => {
    drag = {x: ev.clientX, y: ev.clientY, left: board.scrollLeft, top: board.scrollTop, moved: false};
  });
  window.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    board.scrollLeft = drag.left - dx;
    board.scrollTop = drag.top - dy;
  });
  window.addEventListener("mouseup", () => { drag = null; });
  board.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2);
  }, {passive: false});
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  $("zoom-fit").addEventListener("click", () => {
    const svg = board.querySelector("svg");
    if (!svg) return;
    state.zoom = Math.min(board.clientWidth / svg.dataset.width, board.clientHeight / svg.dataset.height);
    applyZoom();
  });
  $("undo").addEventListener("click", () => play("undo"));
  $("redo").addEventListener("click", () => play("redo"));
  $("why").addEventListener("click", () => enqueue(() => ask("why")));
  $("trace-level").addEventListener("change", (ev) => play("trace " + ev.target.value));
  $("load").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    ev.target.value = "";
    enqueue(async () => {
      const r = await api("/api/load", {method: "POST", headers: {"Content-Type": "application/json"}, body: text});
      message(r.body.ok ? "" : r.body.output);
      await refresh();
    });
  });
  $("console-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const line = $("console").value;
    if (!line.trim()) return;
    state.history.push(line);
    state.historyAt = state.history.length;
    $("console").value = "";
    await play(line);
  });
  $("console").addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowUp" && ev.key !== "ArrowDown") return;
    ev.preventDefault();
    state.historyAt = Math.max(0, Math.min(state.history.length,
                                           state.historyAt + (ev.key === "ArrowUp" ? -1 : 1)));
    $("console").value = state.history[state.historyAt] || "";
  });
  // Other tabs' moves: the server says when the game changed.
  if (window.EventSource) {
    const events = new EventSource("/api/events");
    events.onmessage = (ev) => {
      if (Number(ev.data) !== state.version) enqueue(refresh);
    };
  }
  $("selected").textContent = HELP_SELECTED;
  enqueue(refresh);
}

function zoom(factor) {
  state.zoom = Math.max(0.2, Math.min(5, state.zoom * factor));
  applyZoom();
}

setUp();
