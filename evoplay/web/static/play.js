// The play page: the game lives here (a history of boards); the server only answers
// questions about positions (analyze), checks human moves and makes computer moves.
"use strict";

const EMPTY_BOARD = ".........";
const SOFTMAX_DEFAULTS = {t: 0.2, model_t: 1};
const BUILTIN_LABELS = {
  "human": "Human (click the squares)",
  "random": "random",
  "first-open": "first-open",
  "logic": "logic (Fogel's rule player)",
  "minimax": "minimax (perfect play)",
  "softmax": "softmax-minimax",
};

const S = {
  history: [EMPTY_BOARD],
  sides: {x: "human", o: softmaxSpec(SOFTMAX_DEFAULTS.t, SOFTMAX_DEFAULTS.model_t)},
  humanModel: "random",
  auto: true,
  minimax: false,
  analysis: null,
  token: 0,
  timer: null,
  builtins: [],
  files: [],
  ui: {},
};

// ------------------------------------------------------------ specs

function softmaxSpec(t, modelT) {
  return `softmax:t=${t},model_t=${modelT}`;
}

function specName(spec) {
  return spec.split(":")[0].trim();
}

function softmaxParams(spec) {
  const params = {...SOFTMAX_DEFAULTS};
  const rest = spec.split(":").slice(1).join(":");
  for (const item of rest.split(",")) {
    const [key, value] = item.split("=").map((s) => s && s.trim());
    if (key in params && Number.isFinite(Number(value))) params[key] = Number(value);
  }
  return params;
}

function temperature(sliderValue) {
  return Number((10 ** Number(sliderValue)).toPrecision(3));
}

function isFile(spec) {
  return spec.endsWith(".json") || spec.includes("/");
}

// ------------------------------------------------------------ side panels

function buildSide(side) {
  const box = document.querySelector(`fieldset[data-side="${side}"]`);
  box.append(document.getElementById("side-template").content.cloneNode(true));
  const ui = {
    box,
    kind: box.querySelector(".kind"),
    spec: box.querySelector(".spec"),
    softmax: box.querySelector(".softmax"),
    t: box.querySelector(".t"),
    modelT: box.querySelector(".model-t"),
    tValue: box.querySelector(".t-value"),
    modelTValue: box.querySelector(".model-t-value"),
  };
  const builtins = el("optgroup", {label: "Built-in"});
  for (const p of S.builtins) {
    builtins.append(el("option", {value: p.name, text: BUILTIN_LABELS[p.name] || p.name}));
  }
  ui.kind.append(builtins);
  if (S.files.length) {
    const files = el("optgroup", {label: "Player files"});
    for (const f of S.files) files.append(el("option", {value: f.spec, text: f.label}));
    ui.kind.append(files);
  }
  ui.kind.append(el("option", {value: "custom", text: "Other spec (type it below)"}));

  ui.kind.addEventListener("change", () => {
    const v = ui.kind.value;
    if (v === "custom") {
      ui.spec.focus();
      return;
    }
    const spec = v === "softmax" ? softmaxSpec(temperature(ui.t.value), temperature(ui.modelT.value)) : v;
    ui.spec.value = spec;
    refresh({[side]: spec});
  });
  ui.spec.addEventListener("change", () => refresh({[side]: ui.spec.value.trim()}));
  let debounce = null;
  for (const slider of [ui.t, ui.modelT]) {
    slider.addEventListener("input", () => {
      const spec = softmaxSpec(temperature(ui.t.value), temperature(ui.modelT.value));
      ui.tValue.textContent = temperature(ui.t.value);
      ui.modelTValue.textContent = temperature(ui.modelT.value);
      ui.spec.value = spec;
      clearTimeout(debounce);
      debounce = setTimeout(() => refresh({[side]: spec}), 120);
    });
  }
  S.ui[side] = ui;
}

function syncSide(side) {
  const ui = S.ui[side];
  const spec = S.sides[side];
  const name = specName(spec);
  ui.spec.value = spec;
  ui.spec.classList.remove("invalid");
  ui.spec.removeAttribute("aria-invalid");
  let kind = "custom";
  if (S.files.some((f) => f.spec === spec)) kind = spec;
  else if (!isFile(spec) && S.builtins.some((p) => p.name === name)) kind = name;
  ui.kind.value = kind;
  ui.softmax.hidden = name !== "softmax";
  if (name === "softmax") {
    const params = softmaxParams(spec);
    ui.t.value = Math.log10(params.t);
    ui.modelT.value = Math.log10(params.model_t);
    ui.tValue.textContent = params.t;
    ui.modelTValue.textContent = params.model_t;
  }
}

function markInvalid(sides) {
  for (const side of sides) {
    S.ui[side].spec.classList.add("invalid");
    S.ui[side].spec.setAttribute("aria-invalid", "true");
  }
}

// ------------------------------------------------------------ talking to the server

function board() {
  return S.history[S.history.length - 1];
}

function moverSide() {
  const a = S.analysis;
  return a && a.to_move ? a.to_move.toLowerCase() : null;
}

// Ask about the current position; ``candidate`` holds side specs to try: they are kept
// only if the server accepts them, else the old ones stay and the error is shown.
async function refresh(candidate, keepError) {
  const token = ++S.token;
  clearTimeout(S.timer);
  const sides = {...S.sides, ...(candidate || {})};
  document.body.dataset.busy = "1";
  try {
    const analysis = await api("/api/analyze", {
      board: board(), x: sides.x, o: sides.o, human_model: S.humanModel, minimax: S.minimax,
    });
    if (token !== S.token) return;
    S.sides = sides;
    S.analysis = analysis;
    if (!keepError) clearError();
    syncSide("x");
    syncSide("o");
    render();
    schedule();
  } catch (e) {
    if (token !== S.token) return;
    showError(e.message);
    if (candidate) markInvalid(Object.keys(candidate));
    if (!S.analysis) await refresh(null, true);  // first load with a bad query: defaults
  } finally {
    if (token === S.token) document.body.dataset.busy = "";
  }
}

function schedule() {
  const side = moverSide();
  if (!side || !S.auto || S.sides[side] === "human") return;
  const bothComputers = S.sides.x !== "human" && S.sides.o !== "human";
  const token = S.token;
  S.timer = setTimeout(() => computerMove(token), bothComputers ? 700 : 300);
}

async function computerMove(token) {
  const side = moverSide();
  if (!side || S.sides[side] === "human") return;
  try {
    const r = await api("/api/ai-move", {board: board(), player: S.sides[side]});
    if (token !== S.token) return;
    S.history.push(r.board);
    refresh();
  } catch (e) {
    if (token === S.token) showError(e.message);
  }
}

async function clickSquare(square) {
  const side = moverSide();
  if (side && S.sides[side] !== "human") {
    showError(`${side.toUpperCase()} is played by ${S.sides[side]}: press Step, or turn on Auto-play.`);
    return;
  }
  const token = S.token;
  try {
    const r = await api("/api/move", {board: board(), square});
    if (token !== S.token) return;
    S.history.push(r.board);
    refresh();
  } catch (e) {
    showError(e.message);
  }
}

// ------------------------------------------------------------ rendering

function describe(spec) {
  return spec === "human" ? "you" : spec;
}

function render() {
  const a = S.analysis;
  const cells = document.querySelectorAll("#board .cell");
  const line = new Set(a.line || []);
  cells.forEach((cell, i) => {
    const mark = a.board[i];
    cell.className = "cell" + (mark === "X" ? " x" : mark === "O" ? " o" : "") + (line.has(i) ? " line" : "");
    cell.replaceChildren();
    cell.style.removeProperty("--p");
    delete cell.dataset.prob;
    if (mark !== ".") {
      cell.append(el("span", {class: "mark", text: mark}));
      cell.setAttribute("aria-label", `square ${i}: ${mark}`);
      return;
    }
    cell.setAttribute("aria-label", `square ${i}: empty`);
    if (a.probs) {
      const p = a.probs[i];
      cell.dataset.prob = String(p);
      cell.style.setProperty("--p", p.toFixed(4));
      if (a.legal.includes(i)) cell.append(el("span", {class: "prob", text: `${(100 * p).toFixed(1)}%`}));
    }
    if (a.minimax && a.minimax[i]) {
      const v = a.minimax[i];
      const text = v.result === "draw" ? "draw" : `${v.result} in ${v.plies}`;
      cell.append(el("span", {
        class: `minimax ${v.result}`, text,
        title: `minimax score ${v.score} for the side to move; ${v.plies} moves to the end with perfect play`,
      }));
    }
  });

  const status = document.getElementById("status");
  const mover = moverSide();
  if (a.result === "ongoing") {
    const who = describe(S.sides[mover]);
    status.textContent = `${a.to_move} to move: ${who}` + (S.sides[mover] === "human" ? " (click a square)" : "");
  } else if (a.result === "draw") {
    status.textContent = "Draw.";
  } else {
    const winner = a.result === "x_win" ? "x" : "o";
    status.textContent = `${winner.toUpperCase()} wins (${describe(S.sides[winner])}).`;
  }
  status.dataset.result = a.result;

  const note = document.getElementById("shading-note");
  if (a.result !== "ongoing") note.textContent = "Game over: New game or Undo.";
  else if (a.probs) note.textContent = `Shading: the probability of each move of ${a.to_move} (${S.sides[mover]}).`;
  else note.textContent = "Your move: squares are not shaded for a human.";

  for (const row of document.querySelectorAll("#exact tr")) {
    const v = a.exact[row.dataset.key];
    row.querySelector(".value").textContent = v.toFixed(5);
    row.querySelector(".value").dataset.value = String(v);
    row.querySelector(".pct").textContent = `${(100 * v).toFixed(1)}%`;
    row.querySelector(".bar span").style.width = `${(100 * v).toFixed(2)}%`;
  }
  const e = a.exact;
  const named = (side, modelled) => (modelled ? `you (modelled as ${e.human_model})` : S.sides[side]);
  document.getElementById("exact-note").textContent =
    `X = ${named("x", e.x_modelled)}, O = ${named("o", e.o_modelled)}.`;
  const anyHuman = e.x_modelled || e.o_modelled;
  document.getElementById("human-model-row").hidden = !anyHuman;
  const quote = (s) => (/^[\w.:=,/-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const x = e.x_modelled ? e.human_model : S.sides.x;
  const o = e.o_modelled ? e.human_model : S.sides.o;
  const fromStart = board() === EMPTY_BOARD;
  document.getElementById("cli-note").textContent = fromStart
    ? "Computed over the whole game tree, not sampled: the same numbers as"
    : "Computed over the whole game tree from this position, not sampled. From the empty board:";
  document.getElementById("cli-hint").textContent = `evoplay match ${quote(x)} ${quote(o)} --exact --seats a-first`;

  document.getElementById("undo").disabled = S.history.length < 2;
  document.getElementById("step").disabled = !mover || S.sides[mover] === "human";
}

// ------------------------------------------------------------ controls

function undo() {
  if (S.history.length < 2) return;
  const humans = S.sides.x === "human" || S.sides.o === "human";
  S.history.pop();
  if (humans) {
    // back to the last position where a human is to move (the computer's reply goes too)
    while (S.history.length > 1) {
      const b = board();
      const xToMove = [...b].filter((c) => c === "X").length === [...b].filter((c) => c === "O").length;
      if (S.sides[xToMove ? "x" : "o"] === "human") break;
      S.history.pop();
    }
  } else {
    setAuto(false);  // two computers: stay on the position asked for
  }
  refresh();
}

function setAuto(on) {
  S.auto = on;
  document.getElementById("auto").checked = on;
  clearTimeout(S.timer);
  if (on) schedule();
}

async function start() {
  await loadNav(null);
  const board = document.getElementById("board");
  for (let i = 0; i < 9; i++) {
    const cell = el("button", {type: "button", class: "cell", "data-square": String(i), role: "gridcell"});
    cell.addEventListener("click", () => clickSquare(i));
    board.append(cell);
  }
  try {
    const players = await api("/api/players");
    S.builtins = players.builtin;
    S.files = players.files;
  } catch (e) {
    showError(e.message);
    return;
  }
  buildSide("x");
  buildSide("o");
  const model = document.getElementById("human-model");
  for (const p of S.builtins.filter((p) => p.name !== "human")) {
    const spec = p.name === "softmax" ? softmaxSpec(SOFTMAX_DEFAULTS.t, SOFTMAX_DEFAULTS.model_t) : p.name;
    model.append(el("option", {value: spec, text: spec}));
  }
  model.value = S.humanModel;
  model.addEventListener("change", () => {
    S.humanModel = model.value;
    refresh();
  });

  document.getElementById("new-game").addEventListener("click", () => {
    S.history = [EMPTY_BOARD];
    refresh();
  });
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("swap").addEventListener("click", () => {
    S.sides = {x: S.sides.o, o: S.sides.x};
    refresh();
  });
  document.getElementById("step").addEventListener("click", () => {
    clearTimeout(S.timer);
    computerMove(S.token);
  });
  document.getElementById("auto").addEventListener("change", (e) => setAuto(e.target.checked));
  document.getElementById("show-minimax").addEventListener("change", (e) => {
    S.minimax = e.target.checked;
    refresh();
  });

  const query = new URLSearchParams(location.search);
  if (query.get("auto") === "0") setAuto(false);
  const asked = {};
  for (const side of ["x", "o"]) if (query.get(side)) asked[side] = query.get(side);
  syncSide("x");
  syncSide("o");
  await refresh(Object.keys(asked).length ? asked : null);
}

start();
