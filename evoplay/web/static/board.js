// The board page: any game of evoplay.games, through /api/games/<game>/... .
// The game travels as {start, moves}; the server replays and checks every move.
"use strict";

const params = new URLSearchParams(location.search);
const GAME = params.get("game") || "checkers";
const base = `/api/games/${encodeURIComponent(GAME)}`;
let info = null;         // the server's description of the position
let moves = [];          // moves played, in the game's notation
let start = params.get("start") || undefined;
let picked = [];         // squares clicked so far for the human's move
let generation = 0;      // bumped by every new position: stale computer moves are dropped

function specs() {
  return [0, 1].map(i => document.querySelector(`fieldset[data-side="${i}"] .spec`).value.trim());
}

function setBusy(busy) { document.body.dataset.busy = busy ? "1" : ""; }

function render() {
  const board = document.getElementById("gboard");
  board.replaceChildren();
  board.style.gridTemplateColumns = `repeat(${info.cells[0].length}, 1fr)`;
  const mover = info.to_move === null ? null : info.sides.indexOf(info.to_move);
  const human = mover !== null && specs()[mover] === "human";
  const starts = new Set(), next = new Set();
  for (const m of info.legal) {
    if (picked.every((s, i) => m.path[i] === s)) {
      if (picked.length === 0) starts.add(m.path[0]);
      else if (m.path.length > picked.length) next.add(m.path[picked.length]);
    }
  }
  for (const row of info.cells) {
    for (const cell of row) {
      const node = el("div", {class: cell.square === null ? "sq light" : "sq dark"});
      if (cell.square !== null) {
        node.dataset.square = cell.square;
        node.append(el("span", {class: "num", text: cell.square}));
        if (human && (starts.has(cell.square) || next.has(cell.square))) node.classList.add("target");
        if (picked.includes(cell.square)) node.classList.add("picked");
        if (human) node.addEventListener("click", () => clickSquare(cell.square));
      }
      if (cell.piece) {
        node.dataset.piece = cell.piece;
        node.append(el("span", {class: `piece p-${cell.piece}`, text: cell.king ? "K" : ""}));
      }
      board.append(node);
    }
  }
  const legal = document.getElementById("legal");
  legal.replaceChildren(...info.legal.map(m => {
    const b = el("button", {type: "button", class: "legal-move", text: m.text});
    b.disabled = !human;
    b.addEventListener("click", () => submit(m.text));
    return b;
  }));
  document.getElementById("played").replaceChildren(...info.moves.map(t => el("li", {text: t})));
  const status = document.getElementById("status");
  status.dataset.result = info.result;
  if (info.result === "ongoing") {
    status.textContent = `${info.to_move} to move: ` + (human ? "you (click a piece, then its landing squares)" : specs()[mover]);
  } else if (info.result === "draw") {
    status.textContent = "Draw.";
  } else {
    status.textContent = `${info.winner} wins (${specs()[info.sides.indexOf(info.winner)]}).`;
  }
  document.getElementById("step").disabled = info.result !== "ongoing" || human;
  for (const i of [0, 1]) document.querySelector(`fieldset[data-side="${i}"] .side-name`).textContent = info.sides[i];
}

async function load(newMoves) {
  const mine = ++generation;
  setBusy(true);
  try {
    const data = await api(`${base}/state`, {start, moves: newMoves});
    if (mine !== generation) return;
    info = data; moves = data.moves; picked = [];
    render();
    history.replaceState(null, "", `?game=${GAME}&first=${encodeURIComponent(specs()[0])}&second=${encodeURIComponent(specs()[1])}` + (start ? `&start=${encodeURIComponent(start)}` : ""));
    maybeComputer();
  } catch (e) {
    showError(e.message);
  } finally {
    if (mine === generation) setBusy(false);
  }
}

function clickSquare(square) {
  clearError();
  const candidates = info.legal.filter(m => picked.every((s, i) => m.path[i] === s));
  if (picked.length > 0 && !candidates.some(m => m.path[picked.length] === square)) {
    picked = [];  // start again from this square
  }
  const extended = [...picked, square];
  const matching = info.legal.filter(m => extended.every((s, i) => m.path[i] === s));
  if (matching.length === 0) {
    picked = [];
    render();
    return;
  }
  picked = extended;
  const exact = matching.find(m => m.path.length === picked.length);
  if (exact) submit(exact.text);
  else render();
}

async function submit(text) {
  const mine = ++generation;
  setBusy(true);
  try {
    const data = await api(`${base}/move`, {start, moves, move: text});
    if (mine !== generation) return;
    info = data; moves = data.moves; picked = [];
    render();
    maybeComputer();
  } catch (e) {
    picked = [];
    render();
    showError(e.message);
  } finally {
    if (mine === generation) setBusy(false);
  }
}

async function computerMove() {
  const mover = info.sides.indexOf(info.to_move);
  const mine = ++generation;
  setBusy(true);
  try {
    const data = await api(`${base}/ai-move`, {start, moves, player: specs()[mover]});
    if (mine !== generation) return;
    info = data; moves = data.moves; picked = [];
    render();
    maybeComputer();
  } catch (e) {
    showError(e.message);
  } finally {
    if (mine === generation) setBusy(false);
  }
}

function maybeComputer() {
  if (info.result !== "ongoing") return;
  const s = specs();
  const mover = info.sides.indexOf(info.to_move);
  if (s[mover] === "human") return;
  // against a person the computer answers at once; two computers play on only with auto-play
  if (s[1 - mover] === "human" || document.getElementById("auto").checked) {
    setTimeout(() => { if (info && info.result === "ongoing") computerMove(); }, 0);
  }
}

async function analyse() {
  clearError();
  const pv = document.getElementById("pv"), table = document.getElementById("scores");
  try {
    const a = await api(`${base}/analysis`, {start, moves, player: document.getElementById("analyst").value.trim()});
    pv.textContent = `PV (${a.depth} plies, ${a.to_move} to move, value ${a.value}): ${a.pv.join(" ")}`;
    pv.dataset.pv = a.pv.join(" ");
    table.replaceChildren(...a.scores.map(s => {
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
  document.getElementById("error-close").addEventListener("click", clearError);
  const inputs = document.querySelectorAll(".side .spec");
  inputs[0].value = params.get("first") || "human";
  inputs[1].value = params.get("second") || "piece-difference";
  document.getElementById("auto").checked = params.get("auto") === "1";
  for (const input of inputs) input.addEventListener("change", () => load(moves));
  document.getElementById("auto").addEventListener("change", () => maybeComputer());
  document.getElementById("new-game").addEventListener("click", () => { clearError(); load([]); });
  document.getElementById("undo").addEventListener("click", () => {
    // back to the last position where a person is to move (or one move, between computers)
    const s = specs(), first = info.sides.indexOf(info.start_to_move);
    const humanAt = n => s[(first + n) % 2] === "human";  // sides alternate
    let n = moves.length - 1;
    if (s.includes("human")) while (n > 0 && !humanAt(n)) n--;
    else document.getElementById("auto").checked = false;  // between computers: pause on the position
    load(moves.slice(0, Math.max(n, 0)));
  });
  document.getElementById("step").addEventListener("click", () => { clearError(); computerMove(); });
  document.getElementById("analyse").addEventListener("click", analyse);
  try {
    const p = await api(`${base}/players`);
    const list = document.getElementById("specs");
    for (const b of p.builtin) list.append(el("option", {value: b.name}));
    for (const f of p.files) list.append(el("option", {value: f.spec, label: f.label}));
  } catch (e) {
    showError(e.message);
  }
  load([]);
}

init();
