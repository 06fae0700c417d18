// The run page: a run directory's curve, its champions' analysis and a way to play them.
"use strict";

// The board page with the player as the first side and a person as the second (game: the
// server's name for the run's game; null where it does not play it, and no link is made).
function playLink(spec, game) {
  return `/?game=${encodeURIComponent(game)}&first=${encodeURIComponent(spec)}&second=human`;
}

// One of a list of results (a champion's opponents, its duels with earlier champions): who, then
// the mean score with its interval where it has one, else wins / draws / losses.
function resultText(r) {
  const who = r.opponent !== undefined ? `${r.opponent}: ` : r.gen !== undefined ? `generation ${r.gen}: ` : "";
  const signed = (v) => (v >= 0 ? "+" : "") + v.toFixed(2);
  if ([r.score, r.lo, r.hi].every((v) => typeof v === "number")) return `${who}${signed(r.score)} [${signed(r.lo)}, ${signed(r.hi)}]`;
  if ([r.win, r.draw, r.loss].every((v) => typeof v === "number")) return `${who}${r.win} / ${r.draw} / ${r.loss}`;
  return who + JSON.stringify(r);
}

function heading(key) {
  return key.replace(/_/g, " ").replace(/\b([xo])\b/g, (m) => m.toUpperCase());
}

function cell(key, value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "number")) {
    return value.map((v) => (100 * v).toFixed(1)).join(" / ");
  }
  if (Array.isArray(value) && value.every((v) => v && typeof v === "object")) return value.map(resultText).join("; ");
  if (typeof value === "number") {
    if (key.includes("agreement")) return `${(100 * value).toFixed(1)}%`;
    return Number.isInteger(value) ? String(value) : value.toFixed(2);
  }
  return String(value);
}

function facts(run) {
  const s = run.summary;
  const list = document.getElementById("run-facts");
  const add = (name, value) => {
    if (value === undefined || value === null) return;
    list.append(el("dt", {text: name}), el("dd", {text: String(value)}));
  };
  add("directory", run.path);
  add("seed", s.seed);
  add("trials", s.trials);
  add("generations", s.generations);
  if (typeof s.games_played === "number") add("games played", s.games_played.toLocaleString("en"));
  add("best trial", s.best_trial);
  // The mean max curve's entry is named in the recipe's words: mean_max_payoff, mean_max_fitness, ...
  const key = Object.keys(s).find((k) => k.startsWith("mean_max_") && s[k] && typeof s[k] === "object");
  const m = key && s[key];
  if (m) add(`mean best ${key.slice("mean_max_".length).replace(/_/g, " ")}`,
             `${m.first} (first generation) → ${m.last} (last); mean of the last 10: ${m.last10}`);
}

function table(run) {
  const champions = new Map(run.champions.filter((c) => c.trial !== null).map((c) => [c.trial, c.spec]));
  const rows = run.analysis && Array.isArray(run.analysis.champions) ? run.analysis.champions : null;
  const t = document.getElementById("champions");
  if (!rows || !rows.length) {
    const note = document.getElementById("no-analysis");
    note.hidden = false;
    note.textContent = "This run has no analysis.json: the champions are listed without their analysis.";
  }
  const keys = rows && rows.length ? Object.keys(rows[0]) : ["trial"];
  const head = el("tr", {});
  for (const k of keys) {
    const first = rows && rows[0][k];
    const label = heading(k) + (Array.isArray(first) && first.every((v) => typeof v === "number") ? " (W / D / L %)" : "");
    head.append(el("th", {scope: "col", text: label}));
  }
  head.append(el("th", {scope: "col", text: ""}));
  t.append(el("thead", {}, head));
  const body = el("tbody", {});
  const list = rows || [...champions.keys()].map((trial) => ({trial}));
  for (const r of list) {
    const tr = el("tr", {"data-trial": String(r.trial)});
    if (r.trial === run.summary.best_trial) tr.classList.add("best");
    for (const k of keys) tr.append(el("td", {text: cell(k, r[k]) + (k === "trial" && tr.classList.contains("best") ? " (best)" : "")}));
    const spec = champions.get(r.trial);
    const td = el("td", {});
    if (spec && run.game) td.append(el("a", {class: "button play", href: playLink(spec, run.game), title: spec, text: "Play this champion"}));
    tr.append(td);
    body.append(tr);
  }
  t.append(body);
  const refs = run.analysis && run.analysis.references;
  if (refs) {
    document.getElementById("references").textContent =
      "References: " + Object.entries(refs).map(([k, v]) => `${heading(k)} ${cell(k, v)}`).join("; ") + ".";
  }
}

async function startRun() {
  const id = new URLSearchParams(location.search).get("id") || "0";
  await loadNav(Number(id));
  let run;
  try {
    run = await api(`/api/runs/${encodeURIComponent(id)}`);
  } catch (e) {
    showError(e.message);
    return;
  }
  document.title = `evoplay: ${run.name}`;
  document.getElementById("run-name").textContent = `Run ${run.name}`;
  facts(run);
  const best = run.champions.find((c) => c.trial === null);
  if (run.game_note) {
    const note = document.getElementById("game-note");
    note.textContent = `The champions cannot be played here: this run ${run.game_note}.`;
    note.hidden = false;
  }
  if (best && run.game) {
    const a = document.getElementById("play-best");
    a.href = playLink(best.spec, run.game);
    a.title = best.spec;
    a.hidden = false;
  }
  if (run.curve) {
    const img = document.getElementById("curve");
    img.src = `/api/runs/${run.id}/curve`;
    document.getElementById("curve-caption").textContent = `${run.path}/${run.curve}`;
    document.getElementById("curve-box").hidden = false;
  }
  table(run);
  await showArchive(run);
}

startRun();
