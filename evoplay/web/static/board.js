// The board page: every game of evoplay.games, through /api/games/<game>/... .
// The game travels as {start, moves}; the server replays and checks every move. After
// each move, and whenever a player changes, the page asks for the analysis of the
// position with both players: that checks the players' specs and brings the game's
// exact facts where it has them (tic-tac-toe: each square's probability, the exact
// outcome, minimax values, the winning line).
"use strict";

const params = new URLSearchParams(location.search);
const GAME = params.get("game") || "tictactoe";
const base = `/api/games/${encodeURIComponent(GAME)}`;
const BUILTIN_LABELS = {
  "human": "Human (click the board)",
  "logic": "logic (Fogel's rule player)",
  "minimax": "minimax (perfect play)",
  "softmax": "softmax-minimax",
  "piece-difference": "piece-difference (material count)",
};
const HUMAN = "human";

const S = {
  meta: null,          // the game's players: built-ins (with sliders), files, defaults
  start: params.get("start") || undefined,
  moves: [],           // moves played, in the game's notation
  info: null,          // the server's analysis of the position (the position, the facts)
  specs: ["", ""],     // who plays each side, in side order
  picked: [],          // squares clicked so far for the human's move
  auto: params.get("auto") === "1",
  minimax: false,
  humanModel: "random",
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
  for (const b of S.meta.builtin) builtins.append(el("option", {value: b.name, text: BUILTIN_LABELS[b.name] || b.name}));
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
    if (S.meta.facts) Object.assign(body, {human_model: S.humanModel, minimax: S.minimax});
    const info = await api(`${base}/analysis`, body);
    if (token !== S.token) return;
    S.specs = specs;
    S.info = info;
    S.moves = info.moves;
    S.picked = [];
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
    render();
    showError(e.message);
    setBusy(false);
  }
}

function clickSquare(cell) {
  const info = S.info, square = cell.square;
  if (info.result !== "ongoing") return;
  const m = mover();
  if (S.specs[m] !== HUMAN) {
    showError(`${info.to_move} is played by ${S.specs[m]}: press Step, or turn on Auto-play.`);
    return;
  }
  clearError();
  const candidates = info.legal.filter((mv) => S.picked.every((s, i) => mv.path[i] === s));
  if (S.picked.length > 0 && !candidates.some((mv) => mv.path[S.picked.length] === square)) {
    S.picked = [];  // start again from this square
  }
  const extended = [...S.picked, square];
  const matching = info.legal.filter((mv) => extended.every((s, i) => mv.path[i] === s));
  if (matching.length === 0) {
    S.picked = [];
    // where a move is one square (tic-tac-toe), a taken square says so
    if (cell.piece && info.legal.every((mv) => mv.path.length === 1)) showError(`square ${square} is taken`);
    render();
    return;
  }
  S.picked = extended;
  const exact = matching.find((mv) => mv.path.length === S.picked.length);
  if (exact) submit(exact.text);
  else render();
}

// ------------------------------------------------------------ rendering

function who(spec) { return spec === HUMAN ? "you" : spec; }

function render() {
  const info = S.info, facts = info.facts;
  const board = document.getElementById("board");
  board.replaceChildren();
  board.dataset.game = GAME;
  board.classList.toggle("textboard", info.cells.length === 0);
  if (info.cells.length === 0) {  // a game with no grid: its own text, moves from the list below
    board.style.gridTemplateColumns = "";
    board.append(el("pre", {class: "position-text", text: info.text || ""}));
  } else {
    board.style.gridTemplateColumns = `repeat(${info.cells[0].length}, 1fr)`;
    board.style.aspectRatio = `${info.cells[0].length} / ${info.cells.length}`;
  }
  const human = humanToMove();
  const starts = new Set(), next = new Set();
  for (const mv of info.legal) {
    if (S.picked.every((s, i) => mv.path[i] === s)) {
      if (S.picked.length === 0) starts.add(mv.path[0]);
      else if (mv.path.length > S.picked.length) next.add(mv.path[S.picked.length]);
    }
  }
  const line = new Set(((facts && facts.line) || []).map(String));
  const legal = new Set(info.legal.map((mv) => mv.path[0]));
  for (const row of info.cells) {
    for (const cell of row) {
      const node = el("div", {class: cell.square === null ? "sq light" : "sq dark", role: "gridcell"});
      board.append(node);
      if (cell.square === null) continue;
      node.dataset.square = cell.square;
      node.setAttribute("aria-label", `square ${cell.square}: ${cell.piece || "empty"}`);
      node.append(el("span", {class: "num", text: cell.num ?? cell.square}));
      if (human && (starts.has(cell.square) || next.has(cell.square))) node.classList.add("target");
      if (S.picked.includes(cell.square)) node.classList.add("picked");
      if (line.has(cell.square)) node.classList.add("line");
      node.addEventListener("click", () => clickSquare(cell));
      if (cell.piece) {
        node.dataset.piece = cell.piece;
        node.append(el("span", {class: `piece p-${cell.piece}`, text: cell.label || (cell.king ? "K" : "")}));
        continue;
      }
      if (facts && facts.probs) {
        const p = facts.probs[Number(cell.square)];
        node.dataset.prob = String(p);
        node.style.setProperty("--p", p.toFixed(4));
        if (legal.has(cell.square)) node.append(el("span", {class: "prob", text: `${(100 * p).toFixed(1)}%`}));
      }
      const v = facts && facts.minimax && facts.minimax[Number(cell.square)];
      if (v) {
        node.append(el("span", {
          class: `minimax ${v.result}`, text: v.result === "draw" ? "draw" : `${v.result} in ${v.plies}`,
          title: `minimax score ${v.score} for the side to move; ${v.plies} moves to the end with perfect play`,
        }));
      }
    }
  }
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
    const oneSquare = info.legal.every((mv) => mv.path.length === 1);
    const how = oneSquare ? "click a square" : "click a piece, then its landing squares";
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

// Tic-tac-toe's exact facts: the shading's meaning, the exact outcome and its command line.
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
  const named = (i, modelled) => (modelled ? `you (modelled as ${e.human_model})` : S.specs[i]);
  document.getElementById("exact-note").textContent = `X = ${named(0, e.x_modelled)}, O = ${named(1, e.o_modelled)}.`;
  document.getElementById("human-model-row").hidden = !(e.x_modelled || e.o_modelled);
  const quote = (s) => (/^[\w.:=,/-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const x = e.x_modelled ? e.human_model : S.specs[0];
  const o = e.o_modelled ? e.human_model : S.specs[1];
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

async function init() {
  await loadNav(null);
  const chooser = document.getElementById("game");
  chooser.addEventListener("change", () => { location.href = `/?game=${encodeURIComponent(chooser.value)}`; });
  try {
    const {games} = await api("/api/games");
    for (const g of games) chooser.append(el("option", {value: g.name, text: g.title || g.name}));
    chooser.value = GAME;
    S.meta = await api(`${base}/players`);  // an unknown game: its error, and the chooser to leave it
  } catch (e) {
    showError(e.message);
    return;
  }
  document.title = `evoplay: ${chooser.selectedOptions[0].textContent}`;
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
  model.value = S.humanModel;
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
  document.getElementById("show-minimax").addEventListener("change", (e) => { S.minimax = e.target.checked; refresh(); });
  document.getElementById("analyse").addEventListener("click", analyse);

  S.specs = S.meta.defaults.slice();
  const asked = {};
  ["first", "second"].forEach((key, i) => { if (params.get(key)) asked[i] = params.get(key); });
  await refresh(Object.keys(asked).length ? {candidate: asked} : {});
}

init();
