// The board page: every game of evoplay.games, through /api/games/<game>/... .
// The game travels as {start, moves}; the server replays and checks every move. After
// each move, and whenever a player changes, the page asks for the analysis of the
// position with both players: that checks the players' specs and brings the game's
// exact facts where it has them (each square's probability, the exact outcome, values
// per square on request, the winning line).
//
// This script names no game and no game's player: all of it comes from the server. The
// game is the address's ?game=, else the server's default, which GET /api/games names
// ("default"); the players' menu labels, the board's look and what the exact facts offer
// come with the game's players (GET /api/games/<game>/players).
"use strict";

const params = new URLSearchParams(location.search);
let GAME = params.get("game");  // set by init(): the server's default game where the address names none
let base = null;                // `/api/games/${GAME}`, set by init()
// Pieces of a side named for a colour are drawn in it; other sides: the first dark, the second light.
const SIDE_COLOURS = {
  black: ["#1d1d1f", "#f5c542"], white: ["#f7f3ea", "#8a5a00"], red: ["#c62828", "#fff"],
  yellow: ["#f5c542", "#1d1d1f"], blue: ["#1e5bc6", "#fff"], green: ["#2e7d32", "#fff"],
};
const HUMAN = "human";

const S = {
  meta: null,          // the game's players: built-ins (with sliders), files, defaults
  start: params.get("start") || undefined,
  moves: [],           // moves played, in the game's notation
  info: null,          // the server's analysis of the position (the position, the facts)
  specs: ["", ""],     // who plays each side, in side order
  picked: [],          // squares clicked so far for the human's move
  candidates: [],      // the moves those squares name when they name more than one
  auto: params.get("auto") === "1",
  showValues: false,   // whether the facts' values per square are asked for (S.meta.facts.values)
  humanModel: null,    // the player standing in for a human side in the exact facts
  token: 0,            // bumped by every request that changes the position: stale answers are dropped
  timer: null,
  ui: [],
};

function setBusy(busy) { document.body.dataset.busy = busy ? "1" : ""; }

// ------------------------------------------------------------ specs

function specName(spec) { return spec.split(":")[0].trim(); }

function isFile(spec) { return spec.endsWith(".json") || spec.includes("/") || spec.includes("#"); }

function specParams(spec) {
  const found = {};
  for (const item of spec.split(":").slice(1).join(":").split(",")) {
    const [key, value] = item.split("=").map((s) => s && s.trim());
    if (key && Number.isFinite(Number(value))) found[key] = Number(value);
  }
  return found;
}

function builtin(name) { return S.meta.builtin.find((b) => b.name === name); }

function sliderValue(slider, position) {
  return slider.log ? Number((10 ** Number(position)).toPrecision(3)) : Number(position);
}

function sliderPosition(slider, value) { return slider.log ? Math.log10(value) : value; }

// The spec a built-in's sliders say: NAME:key=value,... in the order of its parameters.
function sliderSpec(i, name) {
  const b = builtin(name);
  const inputs = S.ui[i].sliders[name];
  const parts = Object.keys(b.sliders).map((k) => `${k}=${sliderValue(b.sliders[k], inputs[k].value)}`);
  return `${name}:${parts.join(",")}`;
}

// ------------------------------------------------------------ side panels

function sliderClass(param) { return param.replace(/_/g, "-"); }

function buildSide(i) {
  const box = document.querySelector(`fieldset.side[data-index="${i}"]`);
  const side = S.meta.sides[i];
  box.dataset.side = side.toLowerCase();
  box.querySelector("legend").replaceChildren(side, ...(i === 0 ? [" ", el("span", {class: "muted", text: "moves first"})] : []));
  box.append(document.getElementById("side-template").content.cloneNode(true));
  const ui = {box, kind: box.querySelector(".kind"), spec: box.querySelector(".spec"), blocks: {}, sliders: {}};
  ui.spec.setAttribute("aria-label", `${side} player spec`);
  const builtins = el("optgroup", {label: "Built-in"});
  for (const b of S.meta.builtin) builtins.append(el("option", {value: b.name, text: b.label || b.name}));
  ui.kind.append(builtins);
  if (S.meta.files.length) {
    const files = el("optgroup", {label: "Player files"});
    for (const f of S.meta.files) files.append(el("option", {value: f.spec, text: f.label}));
    ui.kind.append(files);
  }
  ui.kind.append(el("option", {value: "custom", text: "Other spec (type it below)"}));
  let debounce = null;
  for (const b of S.meta.builtin.filter((b) => b.sliders)) {
    const block = el("div", {class: `params ${b.name}`});
    block.hidden = true;
    ui.sliders[b.name] = {};
    for (const [key, s] of Object.entries(b.sliders)) {
      const cls = sliderClass(key);
      const input = el("input", {type: "range", class: cls, min: String(s.min), max: String(s.max), step: "0.01"});
      const shown = el("output", {class: `${cls}-value`});
      block.append(el("div", {class: "slider"},
        el("span", {class: "slider-label", text: `${s.label} `}, shown),
        el("div", {class: "slider-row"}, el("span", {text: s.ends[0]}), input, el("span", {text: s.ends[1]}))));
      input.addEventListener("input", () => {
        shown.textContent = sliderValue(s, input.value);
        const spec = sliderSpec(i, b.name);
        ui.spec.value = spec;
        clearTimeout(debounce);
        debounce = setTimeout(() => tryPlayers({[i]: spec}), 120);
      });
      ui.sliders[b.name][key] = input;
    }
    ui.blocks[b.name] = block;
    box.append(block);
  }
  ui.kind.addEventListener("change", () => {
    const v = ui.kind.value;
    if (v === "custom") { ui.spec.focus(); return; }
    const b = builtin(v);
    const spec = b && b.sliders ? sliderSpec(i, v) : v;
    ui.spec.value = spec;
    tryPlayers({[i]: spec});
  });
  ui.spec.addEventListener("change", () => tryPlayers({[i]: ui.spec.value.trim()}));
  S.ui[i] = ui;
}

// Show a side's spec: its menu entry, and its sliders set to its parameters.
function syncSide(i) {
  const ui = S.ui[i], spec = S.specs[i], name = specName(spec);
  ui.spec.value = spec;
  ui.spec.classList.remove("invalid");
  ui.spec.removeAttribute("aria-invalid");
  let kind = "custom";
  if (S.meta.files.some((f) => f.spec === spec)) kind = spec;
  else if (!isFile(spec) && builtin(name)) kind = name;
  ui.kind.value = kind;
  for (const [bname, block] of Object.entries(ui.blocks)) {
    block.hidden = bname !== kind;
    if (bname !== kind) continue;
    const b = builtin(bname), given = specParams(spec);
    for (const [key, s] of Object.entries(b.sliders)) {
      const value = key in given ? given[key] : b.params[key].default;
      ui.sliders[bname][key].value = sliderPosition(s, value);
      block.querySelector(`.${sliderClass(key)}-value`).textContent = value;
    }
  }
}

function markInvalid(indices) {
  for (const i of indices) {
    S.ui[i].spec.classList.add("invalid");
    S.ui[i].spec.setAttribute("aria-invalid", "true");
  }
}

// ------------------------------------------------------------ talking to the server

function mover() {
  const info = S.info;
  return info && info.to_move !== null ? info.sides.indexOf(info.to_move) : null;
}

function humanToMove() {
  const m = mover();
  return m !== null && S.specs[m] === HUMAN;
}

function tryPlayers(candidate) { return refresh({candidate}); }

// Ask for the analysis of the position after ``moves`` with both players; ``candidate``
// holds specs to try by side: they are kept only if the server accepts them, else the
// old ones stay and the error is shown on the side.
async function refresh({candidate = null, moves = S.moves, keepError = false} = {}) {
  const token = ++S.token;
  clearTimeout(S.timer);
  const specs = S.specs.slice();
  for (const [i, spec] of Object.entries(candidate || {})) specs[Number(i)] = spec;
  setBusy(true);
  try {
    const body = {start: S.start, moves, players: specs};
    if (S.meta.facts) {
      body.human_model = S.humanModel;
      if (S.meta.facts.values) body[S.meta.facts.values.field] = S.showValues;
    }
    const info = await api(`${base}/analysis`, body);
    if (token !== S.token) return;
    S.specs = specs;
    S.info = info;
    S.moves = info.moves;
    S.picked = [];
    S.candidates = [];
    if (!keepError) clearError();
    syncSide(0);
    syncSide(1);
    render();
    remember();
    schedule();
  } catch (e) {
    if (token !== S.token) return;
    showError(e.message);
    if (candidate) markInvalid(Object.keys(candidate).map(Number));
    if (!S.info && candidate) await refresh({keepError: true});  // a bad address: the defaults
  } finally {
    if (token === S.token) setBusy(false);
  }
}

function remember() {
  const q = new URLSearchParams({game: GAME, first: S.specs[0], second: S.specs[1]});
  if (S.start) q.set("start", S.start);
  if (S.auto) q.set("auto", "1");
  history.replaceState(null, "", `?${q}`);
}

// The computer to move plays at once against a person; two computers play on with auto-play.
function schedule() {
  const m = mover();
  if (m === null || S.specs[m] === HUMAN) return;
  const againstPerson = S.specs[1 - m] === HUMAN;
  if (!againstPerson && !S.auto) return;
  const token = S.token;
  S.timer = setTimeout(() => computerMove(token), againstPerson ? 100 : 300);
}

async function computerMove(token) {
  const m = mover();
  if (m === null || S.specs[m] === HUMAN || token !== S.token) return;
  setBusy(true);
  try {
    const r = await api(`${base}/ai-move`, {start: S.start, moves: S.moves, player: S.specs[m]});
    if (token !== S.token) return;
    await refresh({moves: r.moves});
  } catch (e) {
    if (token === S.token) { showError(e.message); setBusy(false); }
  }
}

async function submit(text) {
  const token = ++S.token;
  setBusy(true);
  try {
    const r = await api(`${base}/move`, {start: S.start, moves: S.moves, move: text});
    if (token !== S.token) return;
    await refresh({moves: r.moves});
  } catch (e) {
    if (token !== S.token) return;
    S.picked = [];
    S.candidates = [];
    render();
    showError(e.message);
    setBusy(false);
  }
}

// The legal moves whose squares begin with ``squares``.
function movesFrom(squares) {
  return S.info.legal.filter((mv) => mv.path.length > 0 && squares.every((s, i) => mv.path[i] === s));
}

// A click on a square: the from-square, then the next squares of a move. A move is played
// when the squares clicked are all of one move's squares and begin no other; when they are
// all of several moves' squares (a promotion's choices, a rotation), those are offered.
function clickSquare(cell) {
  const info = S.info, square = cell.square;
  if (info.result !== "ongoing") return;
  const m = mover();
  if (S.specs[m] !== HUMAN) {
    showError(`${info.to_move} is played by ${S.specs[m]}: press Step, or turn on Auto-play.`);
    return;
  }
  clearError();
  S.candidates = [];
  let extended = [...S.picked, square];
  if (S.picked.length > 0 && movesFrom(extended).length === 0) extended = [square];  // start again from this square
  const matching = movesFrom(extended);
  if (matching.length === 0) {
    S.picked = [];
    // where every move is one square, a taken square says so
    if (cell.piece && info.legal.every((mv) => mv.path.length === 1)) showError(`square ${squareName(square)} is taken`);
    render();
    return;
  }
  S.picked = extended;
  const exact = matching.filter((mv) => mv.path.length === extended.length);
  if (exact.length === 1 && matching.length === 1) { submit(exact[0].text); return; }
  if (exact.length > 0) S.candidates = exact;
  render();
}

// A square as people read it: its coordinates where the game declares them, else its number.
function squareName(square) {
  const c = S.info.coordinates, width = S.info.cells[0].length;
  if (!c) return square;
  const file = c.columns[Number(square) % width], rank = c.rows[Math.floor(Number(square) / width)];
  return !rank ? file : /^\d+$/.test(file) ? `(${rank}, ${file})` : `${file}${rank}`;
}

function sideColours(board, sides) {
  sides.forEach((side, i) => {
    const [fill, ink] = SIDE_COLOURS[side.toLowerCase()] || SIDE_COLOURS[i === 0 ? "black" : "white"];
    board.style.setProperty(`--side${i}`, fill);
    board.style.setProperty(`--side${i}-ink`, ink);
  });
}

// Coordinates beside the board: row labels on the left, column labels below.
function renderCoordinates(info) {
  const ranks = document.getElementById("rank-labels"), files = document.getElementById("file-labels");
  const c = info.cells.length ? info.coordinates : null;
  ranks.hidden = files.hidden = !c;
  ranks.replaceChildren(...(c ? c.rows.map((t) => el("span", {text: t})) : []));
  files.replaceChildren(...(c ? c.columns.map((t) => el("span", {text: t})) : []));
  if (c) files.style.gridTemplateColumns = `repeat(${c.columns.length}, minmax(0, 1fr))`;
}

// The moves the squares clicked name, when they name several: one button each.
function renderCandidates(human) {
  const box = document.getElementById("candidates");
  box.hidden = S.candidates.length === 0;
  box.replaceChildren(...(S.candidates.length ? [el("span", {text: "Which move? "})] : []), ...S.candidates.map((mv) => {
    const b = el("button", {type: "button", class: "candidate-move", text: mv.text});
    b.disabled = !human;
    b.addEventListener("click", () => { clearError(); submit(mv.text); });
    return b;
  }));
}

// ------------------------------------------------------------ rendering

function who(spec) { return spec === HUMAN ? "you" : spec; }

function render() {
  const info = S.info, facts = info.facts;
  const board = document.getElementById("board");
  board.replaceChildren();
  board.dataset.game = GAME;
  board.dataset.look = S.meta.look || "";  // how the server says to draw it (style.css)
  board.classList.toggle("textboard", info.cells.length === 0);
  if (info.cells.length === 0) {  // a game with no grid: its own text, moves from the list below
    board.style.gridTemplateColumns = "";
    board.append(el("pre", {class: "position-text", text: info.text || ""}));
  } else {  // square cells, every row as tall as any other whether empty or not
    board.style.gridTemplateColumns = `repeat(${info.cells[0].length}, minmax(0, 1fr))`;
    board.style.gridTemplateRows = `repeat(${info.cells.length}, minmax(0, 1fr))`;
    board.style.aspectRatio = `${info.cells[0].length} / ${info.cells.length}`;
  }
  // every board but one of marks: a checkered, lined grid, each side's pieces in its own colour
  const grid = info.cells.length > 0 && S.meta.look !== "marks";
  board.classList.toggle("grid", grid);
  if (grid) sideColours(board, info.sides);
  renderCoordinates(info);
  const human = humanToMove();
  const starts = new Set(), next = new Set();
  for (const mv of movesFrom(S.picked)) {
    if (S.picked.length === 0) starts.add(mv.path[0]);
    else if (mv.path.length > S.picked.length) next.add(mv.path[S.picked.length]);
  }
  const last = new Set(info.last || []);
  const line = new Set(((facts && facts.line) || []).map(String));
  const legal = new Set(info.legal.map((mv) => mv.path[0]));
  info.cells.forEach((row, r) => row.forEach((cell, c) => {
    const shade = grid ? ((r + c) % 2 ? "dark" : "light") : cell.square === null ? "light" : "dark";
    const node = el("div", {class: `sq ${shade}`, role: "gridcell"});
    board.append(node);
    if (cell.square === null) return;
    node.dataset.square = cell.square;
    const whose = cell.owner === undefined || cell.owner === null ? null : info.sides[cell.owner];
    node.setAttribute("aria-label", `square ${grid ? squareName(cell.square) : cell.square}: ` +
      (whose ? `${whose}${cell.label && cell.label !== whose ? " " + cell.label : ""}` : cell.label || cell.piece || "empty"));
    node.append(el("span", {class: "num", text: cell.num}));
    if (human && (starts.has(cell.square) || next.has(cell.square))) node.classList.add("target");
    if (S.picked.includes(cell.square)) node.classList.add("picked");
    if (line.has(cell.square)) node.classList.add("line");
    if (last.has(cell.square)) node.classList.add("last");
    node.addEventListener("click", () => clickSquare(cell));
    if (cell.piece) {
      node.dataset.piece = cell.piece;
      if (whose !== null) node.dataset.owner = String(cell.owner);
      node.append(el("span", {class: `piece p-${cell.piece}`, text: cell.label || ""}));
      return;
    }
    if (facts && facts.probs) {
      const p = facts.probs[Number(cell.square)];
      node.dataset.prob = String(p);
      node.style.setProperty("--p", p.toFixed(4));
      if (legal.has(cell.square)) node.append(el("span", {class: "prob", text: `${(100 * p).toFixed(1)}%`}));
    }
    const field = S.meta.facts && S.meta.facts.values && S.meta.facts.values.field;
    const v = facts && field && facts[field] && facts[field][Number(cell.square)];
    if (v) {
      node.append(el("span", {
        class: `square-value ${field} ${v.result}`, text: v.result === "draw" ? "draw" : `${v.result} in ${v.plies}`,
        title: `${field} score ${v.score} for the side to move; ${v.plies} moves to the end with perfect play`,
      }));
    }
  }));
  renderCandidates(human);
  const buttons = info.legal.map((mv) => {
    const b = el("button", {type: "button", class: "legal-move", text: mv.text});
    b.disabled = !human;
    b.addEventListener("click", () => { clearError(); submit(mv.text); });
    return b;
  });
  document.getElementById("legal").replaceChildren(...buttons);
  document.getElementById("played").replaceChildren(...info.moves.map((t) => el("li", {text: t})));

  const status = document.getElementById("status");
  const m = mover();
  if (info.result === "ongoing") {
    const clicked = info.cells.length ? info.legal.filter((mv) => mv.path.length > 0) : [];
    const how = clicked.length === 0 ? "choose one of the legal moves"
      : clicked.every((mv) => mv.path.length === 1) ? "click a square" : "click a piece, then its landing squares";
    status.textContent = `${info.to_move} to move: ${who(S.specs[m])}` + (human ? ` (${how})` : "");
    status.dataset.result = "ongoing";
  } else if (info.result === "draw") {
    status.textContent = "Draw.";
    status.dataset.result = "draw";
  } else {
    status.textContent = `${info.winner} wins (${who(S.specs[info.sides.indexOf(info.winner)])}).`;
    status.dataset.result = `${info.winner.toLowerCase()}_win`;
  }
  document.getElementById("undo").disabled = info.moves.length === 0;
  document.getElementById("step").disabled = m === null || S.specs[m] === HUMAN;
  for (const node of document.querySelectorAll(".facts-only")) node.hidden = !facts;
  if (facts) renderFacts(info, facts);
}

// The rows of the exact outcome: the first side wins, a draw, the second side wins (the facts'
// fields <side>_win and draw, as the status names a result).
function buildFacts(sides) {
  const outcomes = [[`${sides[0].toLowerCase()}_win`, `${sides[0]} wins`], ["draw", "Draw"],
                    [`${sides[1].toLowerCase()}_win`, `${sides[1]} wins`]];
  document.querySelector("#exact tbody").replaceChildren(...outcomes.map(([key, name]) =>
    el("tr", {"data-key": key}, el("th", {text: name}), el("td", {class: "value"}), el("td", {class: "pct"}),
       el("td", {class: "bar"}, el("span", {})))));
  const values = S.meta.facts.values;
  document.getElementById("values-row").hidden = !values;
  if (values) document.getElementById("values-label").textContent = values.label;
}

// The game's exact facts: the shading's meaning, the exact outcome and its command line.
function renderFacts(info, facts) {
  const m = mover();
  const note = document.getElementById("shading-note");
  if (info.result !== "ongoing") note.textContent = "Game over: New game or Undo.";
  else if (facts.probs) note.textContent = `Shading: the probability of each move of ${info.to_move} (${S.specs[m]}).`;
  else note.textContent = "Your move: squares are not shaded for a human.";
  const e = facts.exact;
  for (const row of document.querySelectorAll("#exact tr")) {
    const v = e[row.dataset.key];
    row.querySelector(".value").textContent = v.toFixed(5);
    row.querySelector(".value").dataset.value = String(v);
    row.querySelector(".pct").textContent = `${(100 * v).toFixed(1)}%`;
    row.querySelector(".bar span").style.width = `${(100 * v).toFixed(2)}%`;
  }
  const modelled = info.sides.map((side) => e[`${side.toLowerCase()}_modelled`]);
  const named = (i) => (modelled[i] ? `you (modelled as ${e.human_model})` : S.specs[i]);
  document.getElementById("exact-note").textContent = `${info.sides[0]} = ${named(0)}, ${info.sides[1]} = ${named(1)}.`;
  document.getElementById("human-model-row").hidden = !modelled.some(Boolean);
  const quote = (s) => (/^[\w.:=,/-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const x = modelled[0] ? e.human_model : S.specs[0];
  const o = modelled[1] ? e.human_model : S.specs[1];
  document.getElementById("cli-note").textContent = info.moves.length === 0 && !S.start
    ? "Computed over the whole game tree, not sampled: the same numbers as"
    : "Computed over the whole game tree from this position, not sampled. From the empty board:";
  document.getElementById("cli-hint").textContent = `evoplay match ${quote(x)} ${quote(o)} --exact --seats a-first`;
}

// ------------------------------------------------------------ controls

function undo() {
  // back to the last position where a person is to move (or one move, between computers)
  const info = S.info, first = info.sides.indexOf(info.start_to_move);
  const humanAt = (n) => S.specs[(first + n) % 2] === HUMAN;  // sides alternate
  let n = S.moves.length - 1;
  if (S.specs.includes(HUMAN)) while (n > 0 && !humanAt(n)) n--;
  else setAuto(false);  // between computers: pause on the position asked for
  clearError();
  refresh({moves: S.moves.slice(0, Math.max(n, 0))});
}

function setAuto(on) {
  S.auto = on;
  document.getElementById("auto").checked = on;
  clearTimeout(S.timer);
  if (S.info) remember();
  if (on && S.info) schedule();
}

async function analyse() {
  clearError();
  const pv = document.getElementById("pv"), table = document.getElementById("scores");
  try {
    const a = await api(`${base}/analysis`, {start: S.start, moves: S.moves, player: document.getElementById("analyst").value.trim()});
    pv.textContent = `PV (${a.depth} plies, ${a.to_move} to move, value ${a.value}): ${a.pv.join(" ")}`;
    pv.dataset.pv = a.pv.join(" ");
    table.replaceChildren(...a.scores.map((s) => {
      const row = el("tr", {}, el("td", {text: s.move}), el("td", {class: "value", text: String(s.score)}));
      row.dataset.move = s.move;
      row.dataset.score = String(s.score);
      return row;
    }));
  } catch (e) {
    showError(e.message);
  }
}

// What a side's spec may be for this game: its own built-in players, never another game's.
function specHint() {
  const code = (text) => el("code", {text});
  const names = S.meta.builtin.map((b) => b.name).filter((n) => n !== HUMAN);
  const listed = names.flatMap((n, i) => (i ? [", ", code(n)] : [code(n)]));
  const tuned = S.meta.builtin.find((b) => Object.keys(b.params).length > 0);
  const example = tuned ? Object.entries(tuned.params).slice(0, 1).map(([k, p]) => `${k}=${p.default}`).join(",") : "";
  document.getElementById("spec-hint").replaceChildren(
    "A spec as ", code("evoplay match"), " takes it: ", code(HUMAN), ", a player of this game (", ...listed,
    ...(tuned ? [", with parameters as in ", code(`${tuned.name}:${example}`)] : []),
    "), a player file or run directory served by this server",
    ...(S.meta.elites ? [", or an elite of its MAP-Elites runs"] : []), ".");
}

async function init() {
  await loadNav(null);
  const chooser = document.getElementById("game");
  chooser.addEventListener("change", () => { location.href = `/?game=${encodeURIComponent(chooser.value)}`; });
  try {
    const {games, default: fallback} = await api("/api/games");
    GAME = GAME || fallback;
    base = `/api/games/${encodeURIComponent(GAME)}`;
    for (const g of games) chooser.append(el("option", {value: g.name, text: g.title || g.name}));
    chooser.value = GAME;
    S.meta = await api(`${base}/players`);  // an unknown game: its error, and the chooser to leave it
  } catch (e) {
    showError(e.message);
    return;
  }
  document.title = `evoplay: ${chooser.selectedOptions[0].textContent}`;
  specHint();
  const list = document.getElementById("specs");
  for (const b of S.meta.builtin) list.append(el("option", {value: b.name}));
  for (const f of S.meta.files) list.append(el("option", {value: f.spec, label: f.label}));
  buildSide(0);
  buildSide(1);
  const model = document.getElementById("human-model");
  for (const b of S.meta.builtin.filter((b) => b.name !== HUMAN)) {
    const spec = b.sliders ? `${b.name}:` + Object.keys(b.sliders).map((k) => `${k}=${b.params[k].default}`).join(",") : b.name;
    model.append(el("option", {value: spec, text: spec}));
  }
  if (S.meta.facts) {
    S.humanModel = S.meta.facts.human_model;
    model.value = S.humanModel;
    buildFacts(S.meta.sides);
  }
  model.addEventListener("change", () => { S.humanModel = model.value; refresh(); });
  if (S.meta.analyst) {
    document.getElementById("analysis-box").hidden = false;
    document.getElementById("analyst").value = S.meta.analyst;
  }
  document.getElementById("auto").checked = S.auto;
  document.getElementById("auto").addEventListener("change", (e) => setAuto(e.target.checked));
  document.getElementById("new-game").addEventListener("click", () => { clearError(); refresh({moves: []}); });
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("swap").addEventListener("click", () => tryPlayers({0: S.specs[1], 1: S.specs[0]}));
  document.getElementById("step").addEventListener("click", () => { clearError(); clearTimeout(S.timer); computerMove(S.token); });
  document.getElementById("show-values").addEventListener("change", (e) => { S.showValues = e.target.checked; refresh(); });
  document.getElementById("analyse").addEventListener("click", analyse);

  S.specs = S.meta.defaults.slice();
  const asked = {};
  ["first", "second"].forEach((key, i) => { if (params.get(key)) asked[i] = params.get(key); });
  await refresh(Object.keys(asked).length ? {candidate: asked} : {});
}

init();
