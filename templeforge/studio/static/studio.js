// Templeforge studio: one page for every game. It draws what the game's editor describes (a
// grid to paint, lists of names to pick), sends each edit to /api/prove and shows the
// answer; Save writes the card into its deck through the server. No game is named here.
"use strict";

const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000", "#5d6d7e",
                 "#cb4335", "#2e86c1", "#28b463", "#d68910"];
const state = {game: null, path: null, deck: null, card: null, draft: null, undo: [], redo: [], edit: 0, shown: 0, paint: null, frame: null, layer: 0,
               answer: null, dirty: false, timer: null};
const $ = (id) => document.getElementById(id);

async function call(url, body) {
  const options = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                             headers: {"Content-Type": "application/json"}};
  const response = await fetch(url, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("status").textContent = text; }

async function loadFiles(opening) {
  const data = await call("/api/files");
  const games = $("new-game");
  games.innerHTML = "";
  for (const g of data.games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.title;
    games.appendChild(option);
  }
  const select = $("files");
  select.innerHTML = "";
  for (const f of data.files) {
    const option = document.createElement("option");
    option.value = f.path;
    option.textContent = `${f.path} (${f.game}, ${f.cards} cards)${f.editable ? "" : " - not editable yet"}`;
    option.disabled = !f.editable;
    select.appendChild(option);
  }
  if (!data.files.length) { say(`no deck files under ${data.folder}`); return; }
  const wanted = opening || new URLSearchParams(location.search).get("deck");
  const first = data.files.find((f) => f.editable && (!wanted || f.path === wanted)) || data.files.find((f) => f.editable);
  if (first) { select.value = first.path; await openDeck(first.path); }
}

async function openDeck(path, fresh) {
  if (state.dirty && !confirm("Leave the unsaved card?")) { $("files").value = state.path; return; }
  say(`opening ${path}`);
  state.deck = fresh || await call(`/api/deck?path=${encodeURIComponent(path)}`);
  state.loaded = Date.now();
  state.game = fresh ? fresh.game : null; // a deck not written yet: its game goes with every request
  state.path = path;
  $("deck-title").textContent = `${state.deck.title}: ${state.deck.cards.length} cards`;
  const list = $("cards");
  list.innerHTML = "";
  for (const c of state.deck.cards) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Card ${c.id}`;
    b.dataset.card = c.id;
    b.onclick = () => openCard(c.id);
    li.appendChild(b);
    list.appendChild(li);
  }
  const parts = state.deck.parts || [];
  $("parts-box").hidden = !parts.length;
  $("parts").innerHTML = "";
  for (const part of parts) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = part.label;
    b.title = part.title || "";
    b.dataset.card = part.id;
    b.onclick = () => openCard(part.id);
    li.appendChild(b);
    $("parts").appendChild(li);
  }
  say(fresh ? `${path}: a new deck, written when its first card is saved` : `${path}`);
  if (state.deck.cards.length) openCard(state.deck.cards[0].id, true); else openCard(null, true);
}

function folderOf(path) { return path.includes("/") ? path.replace(/[^/]*$/, "") : ""; }

function fileLink(path, label) {
  const a = document.createElement("a");
  a.href = "/files/" + path.split("/").map(encodeURIComponent).join("/");
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = label === undefined ? path : label;
  return a;
}

const OPEN = /\.(html|pdf|csv|gcode)$/; // the files a designer opens first; the rest are listed below them

function showTask(task) {
  const running = task && task.running;
  for (const b of $("run").querySelectorAll("button[data-command]")) b.disabled = running || state.game !== null
    || (b.dataset.command === "playtest" && !state.deck.players.length);
  $("stop").hidden = !running;
  $("stop").disabled = task ? task.stopping : true;
  const said = $("run-state");
  if (!task) { said.textContent = state.game !== null ? "Save a card first: the commands run on the deck file." : ""; said.dataset.state = ""; $("run-log").hidden = true; $("run-files").innerHTML = ""; return; }
  said.dataset.state = running ? "running" : task.status === 0 ? "done" : "failed";
  said.textContent = `${task.line}: ${running ? (task.stopping ? "stopping" : "running") : task.state} (${task.seconds.toFixed(1)} s)`;
  const log = $("run-log");
  log.hidden = !task.lines.length;
  const end = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = task.lines.join("\n");
  if (end) log.scrollTop = log.scrollHeight;
  const box = $("run-files");
  box.innerHTML = "";
  if (task.files.length) {
    const open = document.createElement("p");
    open.className = "open";
    open.appendChild(document.createTextNode("Open: "));
    const rank = (f) => ["html", "pdf", "csv", "gcode"].indexOf(f.path.match(OPEN)[1]);
    for (const f of task.files.filter((f) => OPEN.test(f.path)).sort((a, b) => rank(a) - rank(b))) open.appendChild(fileLink(f.path, f.path.replace(/^.*\.kit\//, "")));
    box.appendChild(open);
    const pictures = task.files.filter((f) => /\/previews\/[^/]+\.png$/.test(f.path)).slice(0, 10);
    if (pictures.length) {
      const strip = document.createElement("div");
      strip.className = "pictures";
      for (const f of pictures) {
        const a = fileLink(f.path, "");
        const img = document.createElement("img");
        img.loading = "lazy"; img.alt = f.path; img.title = f.path.replace(/^.*\//, "");
        img.src = a.href;
        a.appendChild(img);
        strip.appendChild(a);
      }
      box.appendChild(strip);
    }
    const more = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `all ${task.files.length} files`;
    more.appendChild(summary);
    const ul = document.createElement("ul");
    for (const f of task.files) {
      const li = document.createElement("li");
      li.appendChild(fileLink(f.path, f.path.replace(/^.*\.kit\//, "")));
      li.appendChild(document.createTextNode(` ${Math.max(1, Math.round(f.bytes / 1024))} KiB`));
      ul.appendChild(li);
    }
    more.appendChild(ul);
    box.appendChild(more);
  }
}

async function history() { // the latest run of each command on this deck, each a button that shows it again
  const data = await call(`/api/run?path=${encodeURIComponent(state.path)}`);
  const box = $("run-history");
  box.innerHTML = "";
  for (const t of data.tasks) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = (t.running ? "" : t.status === 0 ? "done" : "failed") + (t.id === state.task ? " shown" : "");
    b.textContent = `${t.command}: ${t.running ? "running" : t.state}`;
    b.title = t.line;
    b.onclick = () => follow(t);
    box.appendChild(b);
  }
  return data.tasks;
}

async function follow(task) {
  state.task = task.id;
  showTask(task);
  await history();
  while (task.running && state.task === task.id) {
    await new Promise((done) => setTimeout(done, 600));
    task = await call(`/api/run?id=${task.id}`);
    if (state.task === task.id) showTask(task);
  }
  if (state.task === task.id) await history();
  if (task.command === "playtest" && task.status === 0 && state.path === task.deck) {
    state.deck = await call(`/api/deck?path=${encodeURIComponent(state.path)}`);
    showPlayed();
  }
}

async function runCommand(command) {
  try {
    const players = command === "playtest" ? Number($("players").value) : undefined;
    await follow(await call("/api/run", {path: state.path, command, players}));
  } catch (err) { $("run-state").dataset.state = "failed"; $("run-state").textContent = err.message; }
}

function showPlayed() {
  const p = state.deck.played;
  $("played").hidden = !p;
  if (!p) return;
  $("played-title").textContent = `The last playtest: ${p.games} games of ${p.players} players`;
  $("played-title").className = p.current ? "" : "stale";
  $("played-seats").textContent = `Seats win ${p.seats.map((w) => `${Math.round(w * 100)}%`).join(", ")}`
    + (p.current ? "" : " (the deck changed since: play it again)");
  $("played-seats").appendChild(document.createTextNode(" - "));
  $("played-seats").appendChild(fileLink(folderOf(state.path) + p.file.replace(/\.json$/, ".html"), "the whole report"));
  const ul = $("played-findings");
  ul.innerHTML = "";
  for (const f of p.findings) { const li = document.createElement("li"); li.textContent = f; ul.appendChild(li); }
}

// -- the deck's spread: each column of the table as a histogram, beside a reference -------------

function counted(values) { // [[value, cards], ...] from plain values (nulls left out)
  const map = new Map();
  for (const v of values) if (typeof v === "number") map.set(v, (map.get(v) || 0) + 1);
  return [...map.entries()];
}

function bins(mine, theirs) { // shared bins for two [[value, cards]] lists: [[label, share mine, share theirs, n mine, n theirs]]
  const all = [...mine, ...theirs].map((p) => p[0]);
  if (!all.length) return [];
  const integers = all.every(Number.isInteger);
  const distinct = [...new Set(all)].sort((a, b) => a - b);
  let edges;
  if (integers && distinct.length <= 12) edges = distinct.map((v) => [v, v, String(v)]);
  else {
    const low = distinct[0], high = distinct[distinct.length - 1], step = (high - low) / 8 || 1;
    edges = [...Array(8).keys()].map((i) => [low + i * step, i === 7 ? high : low + (i + 1) * step,
                                               (low + i * step).toFixed(step < 1 ? 2 : 1)]);
  }
  const total = (list) => list.reduce((t, p) => t + p[1], 0) || 1;
  const tm = total(mine), tt = total(theirs);
  return edges.map(([a, b, label], i) => {
    const inside = (list) => list.filter(([v]) => (integers && distinct.length <= 12) ? v === a
      : v >= a && (v < b || (i === edges.length - 1 && v <= b))).reduce((t, p) => t + p[1], 0);
    const m = inside(mine), t = inside(theirs);
    return [label, m / tm, t / tt, m, t];
  });
}

function mean(list) {
  const n = list.reduce((t, p) => t + p[1], 0);
  return n ? list.reduce((t, p) => t + p[0] * p[1], 0) / n : null;
}

async function reference() { // the compared deck's (or the game's) [[value, cards]] by column name, and its label
  const chosen = $("compare").value;
  if (!chosen) return null;
  if (chosen === "@game") return state.deck.table.reference;
  state.refs = state.refs || {};
  if (!state.refs[chosen]) {
    const other = await call(`/api/deck?path=${encodeURIComponent(chosen)}`);
    const columns = {};
    other.table.columns.forEach((name, i) => { columns[name] = counted(other.table.rows.map((r) => r.values[i])); });
    state.refs[chosen] = {label: `${chosen} (${other.cards.length} cards)`, columns};
  }
  return state.refs[chosen];
}

async function showSpread() {
  const table = state.deck.table;
  const ref = await reference();
  const box = $("charts");
  box.innerHTML = "";
  table.columns.forEach((name, i) => {
    const mine = counted(table.rows.map((r) => r.values[i]));
    const theirs = (ref && ref.columns[name]) || [];
    if (!mine.length && !theirs.length) return;
    const chart = document.createElement("div");
    chart.className = "chart";
    chart.dataset.column = name;
    const h = document.createElement("h4");
    h.textContent = name;
    chart.appendChild(h);
    const row = document.createElement("div");
    row.className = "bins";
    const shown = bins(mine, theirs);
    const top = Math.max(...shown.map((b) => Math.max(b[1], b[2])), 0.01);
    for (const [label, m, t, nm, nt] of shown) {
      const column = document.createElement("div");
      column.className = "column";
      const bin = document.createElement("div");
      bin.className = "bin";
      column.title = `${label}: ${Math.round(m * 100)}% of this deck (${nm})` + (theirs.length ? `, ${Math.round(t * 100)}% of ${ref.label} (${nt})` : "");
      const a = document.createElement("div");
      a.className = "mine"; a.style.height = `${(m / top) * 100}%`;
      bin.appendChild(a);
      if (theirs.length) { const b = document.createElement("div"); b.className = "theirs"; b.style.height = `${(t / top) * 100}%`; bin.appendChild(b); }
      column.appendChild(bin);
      const span = document.createElement("span");
      span.className = "label";
      span.textContent = label;
      column.appendChild(span);
      row.appendChild(column);
    }
    chart.appendChild(row);
    const key = document.createElement("p");
    key.className = "key";
    const fmt = (x) => (x === null ? "-" : Number.isInteger(x) ? String(x) : x.toFixed(2));
    key.innerHTML = `<i style="background:#2e3a46"></i>this deck, mean ${fmt(mean(mine))}`
      + (theirs.length ? `<i style="background:#c9a55a"></i><span class="ref"></span>, mean ${fmt(mean(theirs))}` : "");
    if (theirs.length) key.querySelector(".ref").textContent = ref.label;
    chart.appendChild(key);
    box.appendChild(chart);
  });
}

async function fillCompare() {
  const select = $("compare");
  const keep = select.value;
  select.innerHTML = "";
  const none = document.createElement("option");
  none.value = ""; none.textContent = "nothing";
  select.appendChild(none);
  if (state.deck.table.reference) {
    const o = document.createElement("option");
    o.value = "@game"; o.textContent = state.deck.table.reference.label;
    select.appendChild(o);
  }
  const data = await call("/api/files");
  for (const f of data.files) {
    if (f.game !== state.deck.title || f.path === state.path) continue;
    const o = document.createElement("option");
    o.value = f.path; o.textContent = `${f.path} (${f.cards} cards)`;
    select.appendChild(o);
  }
  if (state.compared && [...select.options].some((o) => o.value === keep)) select.value = keep; // the designer's choice
  else if (state.deck.table.reference) select.value = "@game";
}

async function showRuns() {
  state.refs = {};
  await fillCompare();
  await showSpread();
  const players = $("players");
  players.innerHTML = "";
  for (const n of state.deck.players || []) {
    const option = document.createElement("option");
    option.value = n; option.textContent = n;
    players.appendChild(option);
  }
  if (state.deck.players && state.deck.players.length) players.value = state.deck.players[state.deck.players.length - 1];
  $("players-label").hidden = !(state.deck.players || []).length;
  showPlayed();
  state.task = null; // a command followed for another deck is no longer shown
  if (state.game !== null) { showTask(null); return; }
  const tasks = await history();
  const last = tasks.sort((a, b) => b.id - a.id)[0];
  if (last) await follow(last); else showTask(null);
}

function showDeck(column, down) {
  const table = state.deck.table;
  $("editor").hidden = true;
  if ($("deck").hidden) showRuns().catch((err) => { $("run-state").textContent = err.message; });
  $("deck").hidden = false;
  $("deck-view-title").textContent = `${state.deck.title}: ${state.deck.cards.length} cards`;
  const head = $("deck-table").querySelector("thead");
  const body = $("deck-table").querySelector("tbody");
  head.innerHTML = "";
  const row = document.createElement("tr");
  ["card", ...table.columns].forEach((name, i) => {
    const th = document.createElement("th");
    th.textContent = name;
    th.dataset.column = i - 1;
    if (i - 1 === column) th.className = "sorted" + (down ? " down" : "");
    th.onclick = () => showDeck(i - 1, i - 1 === column ? !down : false);
    row.appendChild(th);
  });
  head.appendChild(row);
  const rows = table.rows.map((r, index) => ({...r, index}));
  if (column >= 0) {
    rows.sort((a, b) => {
      const x = a.values[column], y = b.values[column];
      if (x === null) return 1; if (y === null) return -1;
      return down ? y - x : x - y;
    });
  }
  body.innerHTML = "";
  for (const r of rows) {
    const tr = document.createElement("tr");
    tr.className = "card";
    tr.dataset.card = r.id;
    const first = document.createElement("td");
    if (state.game === null) {
      const img = document.createElement("img");
      img.loading = "lazy";
      img.alt = `card ${r.id}`;
      img.src = `/api/front.png?path=${encodeURIComponent(state.path)}&index=${r.index}&at=${state.loaded}`;
      first.appendChild(img);
    }
    first.appendChild(document.createTextNode(` ${r.id}`));
    tr.appendChild(first);
    for (const v of r.values) {
      const td = document.createElement("td");
      td.textContent = v === null ? "-" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v);
      tr.appendChild(td);
    }
    tr.onclick = () => openCard(r.id);
    body.appendChild(tr);
  }
}

function openCard(id, force) {
  if (!force && state.dirty && !confirm("Leave the unsaved card?")) return;
  const part = id === null ? null : (state.deck.parts || []).find((p) => p.id === id);
  const card = id === null || part ? null : state.deck.cards.find((c) => String(c.id) === String(id));
  state.card = part ? part.id : card ? card.id : null;
  state.draft = JSON.parse(JSON.stringify(part ? part.draft : card ? card.draft : state.deck.new));
  state.undo = []; state.redo = []; state.dirty = false; state.shown = 0; state.picked = null; state.answer = null;
  state.layer = 0; // a card opens on its first layer (the heights)
  for (const b of document.querySelectorAll("#cards button, #parts button")) b.classList.toggle("current", b.dataset.card === String(id));
  $("card-title").textContent = part ? part.label : card ? `Card ${card.id}` : "New card";
  $("help").textContent = (part ? part.help : state.deck.editor.help) || "";
  const played = state.deck.played, seen = card && played && played.cards ? played.cards[String(card.id)] : null;
  $("in-play").hidden = !seen;
  if (seen) { // what the card did in the deck's last playtest (each game deals it, or not)
    const share = seen.dealt ? Math.round((100 * seen.scored) / seen.dealt) : 0;
    $("in-play").textContent = `In the last playtest (${played.games} games of ${played.players}): dealt ${seen.dealt} times, `
      + `scored ${seen.scored} (${share}%)` + (seen.value === null ? "" : `; ${seen.value.toFixed(1)} ${played.effort || "effort"}`)
      + (played.current ? "" : " - the deck changed since");
  }
  $("saved").textContent = "";
  $("editor").hidden = false;
  $("deck").hidden = true;
  const index = card ? state.deck.cards.indexOf(card) : -1;
  $("printed").hidden = index < 0 || state.game !== null;
  if (index >= 0 && state.game === null) {
    $("printed-img").src = `/api/front.png?path=${encodeURIComponent(state.path)}&index=${index}&at=${Date.now()}`;
  }
  draw();
  prove();
}

function change(edit) {
  state.undo.push(JSON.stringify(state.draft));
  state.redo = [];
  edit(state.draft);
  state.dirty = true;
  $("saved").textContent = "not saved";
  draw();
  $("verdict").dataset.verdict = "working"; // the answer on show is the older draft's until the new one comes
  $("verdict").textContent = "proving...";
  state.edit++; // an answer already on its way is for an older draft
  clearTimeout(state.timer);
  state.timer = setTimeout(prove, 120);
}

function step(from, to) {
  if (!from.length) return;
  to.push(JSON.stringify(state.draft));
  state.draft = JSON.parse(from.pop());
  state.dirty = true;
  draw();
  prove();
}

function gridSize() {
  const g = state.deck.editor.grid;
  return [g.rows, g.columns];
}

// A grid may have layers (the heights, then a colour per level): the layer painted is state.layer,
// its codes in the draft under its key.
function layers() { return state.deck.editor.grid.layers || null; }
function layer() { const all = layers(); return all ? all[Math.min(state.layer || 0, all.length - 1)] : null; }
function layerKey() { const l = layer(); return l ? l.key : "grid"; }

function codeAt(r, c, key) {
  const rows = state.draft[key || layerKey()] || [];
  const row = rows[r] || "";
  return row[c] || ".";
}

function reaches(r, c) { // a colour layer's cell: the column's height reaches the layer's level
  const l = layer();
  if (!l || !l.reach) return true;
  const h = parseInt(codeAt(r, c, "grid"), 10);
  return !Number.isNaN(h) && h >= l.reach;
}

function cellOn(r, c) { return codeAt(r, c) !== "."; }

function ink(colour) { // black or white, whichever reads better on the colour
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 ? "#111" : "#fff";
}

function palette() {
  const l = layer();
  return (l && l.palette) || state.deck.editor.grid.palette || [{code: "#", label: "cell", short: "", colour: ""}];
}

function setCell(draft, r, c, code) {
  const [rows, columns] = gridSize();
  const key = layerKey();
  const grid = [];
  for (let i = 0; i < rows; i++) grid.push(((draft[key] || [])[i] || "").padEnd(columns, ".").split(""));
  grid[r][c] = code;
  // trim empty rows and columns at the bottom and right (the card's frame stays top-left)
  let text = grid.map((row) => row.join(""));
  while (text.length && !/[^.]/.test(text[text.length - 1])) text.pop();
  const width = Math.max(0, ...text.map((row) => row.replace(/\.+$/, "").length));
  if (key !== "grid" && !text.length) delete draft[key];
  else draft[key] = text.map((row) => row.slice(0, width));
}

let painting = null;

function drawPalette() {
  const box = $("palette");
  box.innerHTML = "";
  if (!state.deck.editor.grid.palette) { box.hidden = true; return; }
  box.hidden = false;
  if (layers()) { // the layers first: the heights, then the colours of each level
    const row = document.createElement("div");
    row.className = "layers";
    layers().forEach((l, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "layer" + (l === layer() ? " on" : "");
      b.dataset.layer = l.key;
      b.textContent = l.label;
      b.onclick = () => { state.layer = i; state.paint = null; draw(); };
      row.appendChild(b);
    });
    box.appendChild(row);
  }
  if (!palette().some((p) => p.code === state.paint)) state.paint = palette()[0].code;
  for (const p of palette()) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "paint" + (p.code === state.paint ? " on" : "");
    b.dataset.code = p.code;
    b.title = p.label;
    b.innerHTML = `<span class="swatch" style="background:${p.colour}"></span>${p.label}`;
    b.onclick = () => { state.paint = p.code; drawPalette(); };
    box.appendChild(b);
  }
}

function drawGrid() {
  const e = state.deck.editor;
  const [rows, columns] = gridSize();
  const grid = $("grid");
  grid.style.gridTemplateColumns = `repeat(${columns}, 42px)`;
  grid.innerHTML = "";
  const overlay = {};
  const item = state.answer && state.answer.items && state.answer.items[state.shown];
  const letters = [];
  const frames = item && item.frames ? item.frames : null;
  if (frames && (state.frame === null || state.frame >= frames.length)) state.frame = frames.length - 1;
  const shown = frames ? frames[state.frame].overlay : item && item.overlay;
  const picture = frames && frames[state.frame].picture ? frames[state.frame].picture : item && item.picture;
  $("picture").hidden = !picture; // a picture the game draws (an SVG), shown as an image: nothing in it runs
  if (picture) $("picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(picture);
  $("steps").hidden = !frames;
  if (frames) {
    $("step-caption").textContent = frames[state.frame].caption;
    $("step-back").disabled = state.frame === 0;
    $("step-on").disabled = state.frame === frames.length - 1;
  }
  const fresh = new Set();
  const colouring = Boolean(layer() && layer().reach);
  if (shown && !colouring) for (const [r, c, letter, changed] of shown) {
    overlay[`${r},${c}`] = letter;
    if (changed) fresh.add(`${r},${c}`);
    if (!letters.includes(letter)) letters.push(letter);
  }
  const codes = Object.fromEntries(palette().map((p) => [p.code, p]));
  const painted = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) if (cellOn(r, c)) painted.push([r, c]);
  const inside = (r, c) => e.grid.palette && painted.length && r >= Math.min(...painted.map((p) => p[0]))
    && r <= Math.max(...painted.map((p) => p[0])) && c >= Math.min(...painted.map((p) => p[1]))
    && c <= Math.max(...painted.map((p) => p[1]));
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) {
    const cell = document.createElement("div");
    const code = codeAt(r, c);
    cell.className = "cell" + (code !== "." ? " on" : "");
    cell.dataset.r = r; cell.dataset.c = c; cell.dataset.code = code;
    const letter = code !== "." ? overlay[`${r},${c}`] : undefined;
    if (letter && codes[letter] && e.grid.palette) { // a code of the palette: drawn in its colour
      cell.textContent = letter; cell.style.background = codes[letter].colour; cell.style.color = ink(codes[letter].colour);
    } else if (letter) { cell.textContent = letter; cell.style.background = COLOURS[letters.indexOf(letter) % COLOURS.length]; }
    else if (code !== "." && e.grid.palette && codes[code]) {
      cell.textContent = codes[code].short; cell.title = codes[code].label; cell.style.background = codes[code].colour;
      cell.style.color = ink(codes[code].colour);
    }
    else if (colouring && !reaches(r, c)) {
      cell.className += " low"; cell.title = `the column does not reach level ${layer().reach}`;
    }
    else if (code === "." && (colouring || inside(r, c))) {
      const blank = (layer() && layer().blank) || e.grid.blank || {short: "?", label: "any"};
      cell.className += " blank"; cell.textContent = blank.short; cell.title = blank.label;
    }
    if (frames && !colouring && code !== "." && letter !== code) cell.classList.add("later"); // not yet what the card asks
    if (fresh.has(`${r},${c}`)) cell.classList.add("fresh");
    const paint = () => (state.paint && e.grid.palette ? state.paint : "#");
    cell.onmousedown = (ev) => {
      ev.preventDefault();
      if (!reaches(r, c)) return; // no colour for a cube the heights do not reach
      painting = codeAt(r, c) === paint() ? "." : paint();
      change((d) => setCell(d, r, c, painting));
    };
    cell.onmouseenter = () => {
      if (painting !== null && reaches(r, c) && codeAt(r, c) !== painting) change((d) => setCell(d, r, c, painting));
    };
    grid.appendChild(cell);
  }
}

function answerBox(i, label, answer) {
  const box = document.createElement("div");
  box.className = "item" + (i === state.shown ? " shown" : "");
  box.dataset.i = i;
  const head = document.createElement("div");
  head.className = "head";
  const strong = document.createElement("strong");
  strong.textContent = label;
  head.appendChild(strong);
  const status = document.createElement("span");
  status.className = "status " + (answer ? answer.status : "");
  status.textContent = answer ? answer.status : "...";
  head.appendChild(status);
  box.appendChild(head);
  const text = document.createElement("div");
  text.className = "text";
  text.textContent = answer ? answer.text : "";
  box.onclick = () => { state.shown = i; draw(); };
  return [box, text];
}

// -- a part drawn as points joined by lines (a crystal grid): click two points to join or part them,
// a point then an empty place to move it there ---------------------------------------------------

const GRAPH = {width: 380, height: 320, margin: 30};

function graphScale(slots) {
  const xs = slots.map((p) => p[0]), ys = slots.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs) - 0.5, Math.max(...xs) + 0.5, Math.min(...ys) - 0.5, Math.max(...ys) + 0.5];
  const k = Math.min((GRAPH.width - 2 * GRAPH.margin) / (x1 - x0), (GRAPH.height - 2 * GRAPH.margin) / (y1 - y0));
  return {k, x0, y0, to: (p) => [GRAPH.margin + (p[0] - x0) * k, GRAPH.margin + (p[1] - y0) * k],
          from: (u, v) => [x0 + (u - GRAPH.margin) / k, y0 + (v - GRAPH.margin) / k]};
}

function svgNode(name, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function drawGraph() {
  const svg = $("graph");
  svg.innerHTML = "";
  const graph = state.draft.graph;
  if (!state.scale) state.scale = graphScale(graph.slots); // kept while the part is open, so points stay put
  const s = state.scale;
  for (const [a, b] of graph.lines) {
    const [u1, v1] = s.to(graph.slots[a]), [u2, v2] = s.to(graph.slots[b]);
    const line = svgNode("line", {x1: u1, y1: v1, x2: u2, y2: v2, "data-line": `${a}-${b}`});
    line.onclick = (ev) => { ev.stopPropagation(); change((d) => { d.graph.lines = d.graph.lines.filter((l) => !(l[0] === a && l[1] === b)); }); };
    svg.appendChild(line);
  }
  graph.slots.forEach((p, i) => {
    const [u, v] = s.to(p);
    const dot = svgNode("circle", {cx: u, cy: v, r: 13, "data-slot": i, class: state.picked === i ? "picked" : ""});
    dot.onclick = (ev) => {
      ev.stopPropagation();
      if (state.picked === null) { state.picked = i; drawGraph(); return; }
      const a = Math.min(state.picked, i), b = Math.max(state.picked, i);
      state.picked = null;
      if (a === b) { drawGraph(); return; }
      change((d) => {
        const has = d.graph.lines.some((l) => l[0] === a && l[1] === b);
        d.graph.lines = has ? d.graph.lines.filter((l) => !(l[0] === a && l[1] === b)) : d.graph.lines.concat([[a, b]]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      });
    };
    svg.appendChild(dot);
    const label = svgNode("text", {x: u, y: v + 4});
    label.textContent = String(i + 1);
    svg.appendChild(label);
  });
  svg.onclick = (ev) => { // a picked point moves to the place clicked (a quarter of a pitch at a time)
    if (state.picked === null) return;
    const box = svg.getBoundingClientRect();
    const [x, y] = s.from(ev.clientX - box.left, ev.clientY - box.top).map((c) => Math.round(c * 4) / 4);
    const i = state.picked;
    state.picked = null;
    change((d) => { d.graph.slots[i] = [x, y]; });
  };
}

function draw() {
  const e = state.deck.editor;
  const graph = Boolean(state.draft.graph);
  $("grid").hidden = graph;
  $("graph-box").hidden = !graph;
  if (!graph) state.scale = null;
  $("grid-label").textContent = graph ? "Slots and lines: click two slots to join or part them; a slot, then an empty place, to move it" : e.grid.label;
  if (graph) { $("palette").hidden = true; $("steps").hidden = true; $("picture").hidden = true; drawGraph(); drawItems(); return; }
  drawPalette();
  drawGrid();
  drawItems();
}

function drawItems() {
  const e = state.deck.editor;
  const lists = $("lists");
  lists.innerHTML = "";
  const items = (state.answer && state.answer.items) || [];
  if (!e.lists || state.draft.graph) {
    $("lists-label").textContent = "Measured";
    items.forEach((answer, i) => {
      const [box, text] = answerBox(i, answer.label, answer);
      box.appendChild(text);
      lists.appendChild(box);
    });
  } else {
    $("lists-label").textContent = `${e.lists.label}s: pick ${e.lists.pick[0]}-${e.lists.pick[1]}`;
    e.lists.names.forEach((name, i) => {
      const [box, text] = answerBox(i, `${e.lists.label} ${name}`, items[i]);
      const chips = document.createElement("div");
      chips.className = "chips";
      for (const choice of e.lists.choices) {
        const chip = document.createElement("button");
        chip.type = "button";
        const on = (state.draft.lists[i] || []).includes(choice);
        chip.className = "chip" + (on ? " on" : "");
        chip.textContent = choice;
        chip.dataset.name = choice;
        chip.onclick = (ev) => {
          ev.stopPropagation();
          change((d) => {
            const list = d.lists[i] || [];
            d.lists[i] = list.includes(choice) ? list.filter((x) => x !== choice) : list.concat([choice]);
          });
        };
        chips.appendChild(chip);
      }
      box.appendChild(chips);
      box.appendChild(text);
      lists.appendChild(box);
    });
  }
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
}

function proving(edit) { // after a second, the time so far and a Stop button, until the answer comes
  const began = Date.now();
  clearInterval(state.clock);
  $("stop-proof").hidden = true;
  $("stop-proof").textContent = "Stop";
  state.clock = setInterval(() => {
    if (edit !== state.edit) { clearInterval(state.clock); return; }
    const seconds = Math.round((Date.now() - began) / 1000);
    if (seconds >= 1 && !state.halted) {
      $("verdict").textContent = `proving... ${seconds} s`;
      $("stop-proof").hidden = false;
    }
  }, 250);
}

async function prove() {
  const edit = ++state.edit;
  state.halted = false;
  $("verdict").dataset.verdict = "working";
  $("verdict").textContent = "proving...";
  proving(edit);
  try {
    const answer = await call("/api/prove", {path: state.path, game: state.game, card: state.card, draft: state.draft, edit});
    if (answer.edit !== edit || edit !== state.edit) return; // a newer edit is on its way
    clearInterval(state.clock);
    if (answer.verdict === "superseded" && state.halted) { // the designer stopped it
      $("verdict").dataset.verdict = "stopped";
      $("verdict").textContent = "stopped: nothing proved; edit the card, or prove it again";
      $("stop-proof").textContent = "Prove again";
      $("stop-proof").hidden = false;
      return;
    }
    $("stop-proof").hidden = true;
    state.answer = answer;
    state.frame = null;
    $("verdict").dataset.verdict = answer.verdict;
    $("verdict").textContent = answer.verdict;
    $("headline").textContent = answer.headline;
    draw();
  } catch (err) {
    if (edit === state.edit) {
      clearInterval(state.clock);
      $("stop-proof").hidden = true;
      $("verdict").dataset.verdict = "invalid";
      $("verdict").textContent = err.message;
    }
  }
}

async function save() {
  $("save").disabled = true;
  $("saved").textContent = "saving: the whole deck is verified...";
  try {
    const answer = await call("/api/save", {path: state.path, game: state.game, card: state.card, draft: state.draft});
    state.dirty = false;
    const keep = state.card;
    if (state.game) { state.game = null; await loadFiles(state.path); } // the file exists now
    else await openDeck(state.path);
    openCard(keep === null ? state.deck.cards[answer.cards - 1].id : keep, true);
    $("saved").textContent = answer.sealed
      ? `saved and sealed: ${answer.said}`
      : `saved, not sealed: ${answer.problems[0] || "not verified"}`;
    $("saved").dataset.sealed = answer.sealed;
  } catch (err) {
    $("saved").textContent = `not saved: ${err.message}`;
  } finally {
    $("save").disabled = false;
  }
}

document.addEventListener("mouseup", () => { painting = null; });
document.addEventListener("keydown", (ev) => {
  if (!(ev.ctrlKey || ev.metaKey)) return;
  if (ev.key === "z") { ev.preventDefault(); step(state.undo, state.redo); }
  if (ev.key === "y") { ev.preventDefault(); step(state.redo, state.undo); }
});
window.addEventListener("beforeunload", (ev) => { if (state.dirty) { ev.preventDefault(); ev.returnValue = ""; } });
$("files").onchange = (ev) => openDeck(ev.target.value);
$("new-card").onclick = () => openCard(null);
$("show-deck").onclick = () => { if (!state.dirty || confirm("Leave the unsaved card?")) { state.dirty = false; showDeck(-1, false); } };
$("new-deck").onsubmit = async (ev) => {
  ev.preventDefault();
  try {
    const path = $("new-path").value.trim();
    const fresh = await call("/api/new", {path, game: $("new-game").value});
    await openDeck(fresh.path, fresh);
  } catch (err) { say(err.message); }
};
$("undo").onclick = () => step(state.undo, state.redo);
$("redo").onclick = () => step(state.redo, state.undo);
$("save").onclick = save;
for (const b of $("run").querySelectorAll("button[data-command]")) b.onclick = () => runCommand(b.dataset.command);
$("stop-proof").onclick = async () => {
  if (state.halted) { prove(); return; }
  state.halted = true;
  $("stop-proof").disabled = true;
  try { await call("/api/prove/stop", {}); } catch (err) { say(err.message); } finally { $("stop-proof").disabled = false; }
};
$("compare").onchange = () => { state.compared = true; showSpread().catch((err) => say(err.message)); };
$("stop").onclick = async () => {
  $("stop").disabled = true;
  try { await call("/api/stop", {id: state.task}); } catch (err) { $("run-state").textContent = err.message; }
};
$("step-back").onclick = () => { state.frame = Math.max(0, state.frame - 1); draw(); };
$("step-on").onclick = () => { state.frame += 1; draw(); };
loadFiles().catch((err) => say(err.message));
