// The run page's archive (map-elites runs): a trial's grid of cells, a cell's elites,
// an elite's exact analysis and a link that plays it on the board of the game the server
// names (archive.game; none where it does not play it). Uses heading/cell/playLink of run.js.
"use strict";

function archiveGrid(run, archive, trial) {
  const grid = document.getElementById("archive-grid");
  grid.replaceChildren();
  document.getElementById("elites").replaceChildren();
  document.getElementById("elite-box").hidden = true;
  const columns = archive.shape[archive.shape.length - 1];
  grid.style.gridTemplateColumns = `repeat(${Math.min(columns, 6)}, minmax(6rem, 1fr))`;
  const source = document.getElementById("archive-source");
  source.textContent = trial.source === "checkpoint" ? "From the trial's checkpoint: every elite can be played."
    : trial.source === "archive.json" ? "This run keeps no checkpoint of the trial: the cells' best elites come from archive.json (evoplay report), without networks to play."
    : "This run keeps neither a checkpoint nor an archive.json entry of the trial.";
  const byCell = new Map(trial.cells.map((c) => [c.cell, c]));
  archive.labels.forEach((label, k) => {
    const c = byCell.get(k);
    const text = c ? `${label}\n${c.best.toFixed(2)} · ${c.count} elite${c.count === 1 ? "" : "s"}` : `${label}\nempty`;
    const box = el("button", {type: "button", class: "cell-box" + (c ? "" : " empty"), "data-cell": String(k),
                              "aria-pressed": "false", title: label, text});
    box.style.whiteSpace = "pre-line";
    if (k === trial.champion_cell) box.classList.add("champion");
    if (!c) box.disabled = true;
    else box.addEventListener("click", () => {
      for (const b of grid.children) b.setAttribute("aria-pressed", String(b === box));
      eliteList(run, archive.game, trial, c, label);
    });
    grid.append(box);
  });
}

function eliteList(run, game, trial, c, label) {
  const t = document.getElementById("elites");
  t.replaceChildren();
  document.getElementById("elite-box").hidden = true;
  if (!c.elites) {  // from archive.json: the cell's best elite's analysis, nothing to play
    showAnalysis(`Trial ${trial.trial}, ${label}: best elite (network ${c.analysis.network_id})`, c.analysis, null, game);
    return;
  }
  const head = el("tr", {}, ...["elite", "network id", "hidden", "fitness", ""].map((h) => el("th", {scope: "col", text: h})));
  const body = el("tbody", {});
  for (const e of c.elites) {
    const button = el("button", {type: "button", class: "button analyse", text: "Analyse and play"});
    button.addEventListener("click", async () => {
      try {
        const d = await api(`/api/runs/${run.id}/elite?trial=${trial.trial}&cell=${c.cell}&elite=${e.elite}`);
        showAnalysis(`Trial ${d.trial}, ${d.cell_labels}: elite ${d.elite} (network ${d.network_id})`, d.analysis, d.spec, game);
      } catch (err) {
        showError(err.message);
      }
    });
    body.append(el("tr", {"data-elite": String(e.elite)}, el("td", {text: String(e.elite)}), el("td", {text: String(e.network_id)}),
                   el("td", {text: String(e.hidden)}), el("td", {text: cell("fitness", e.fitness)}), el("td", {}, button)));
  }
  t.append(el("thead", {}, head), body);
}

function showAnalysis(title, row, spec, game) {
  document.getElementById("elite-name").textContent = title;
  const t = document.getElementById("elite-analysis");
  t.replaceChildren();
  const keys = Object.keys(row).filter((k) => k !== "trial");
  t.append(el("thead", {}, el("tr", {}, ...keys.map((k) =>
    el("th", {scope: "col", text: heading(k) + (Array.isArray(row[k]) ? " (W / D / L %)" : "")})))));
  t.append(el("tbody", {}, el("tr", {}, ...keys.map((k) => el("td", {text: cell(k, row[k])})))));
  const play = document.getElementById("play-elite");
  play.hidden = spec === null || !game;
  if (!play.hidden) {
    play.href = playLink(spec, game);
    play.title = spec;
  }
  document.getElementById("elite-box").hidden = false;
}

// One trial at a time: a trial's checkpoint is megabytes for the server to read and check.
async function trialArchive(run, trial) {
  const data = await api(`/api/runs/${run.id}/archive?trial=${trial}`);
  return data.archive;
}

async function showArchive(run) {
  const best = Number.isInteger(run.summary.best_trial) ? run.summary.best_trial : 0;
  let archive;
  try {
    archive = await trialArchive(run, best);
  } catch (e) {
    showError(e.message);
    return;
  }
  if (!archive) return;
  const select = document.getElementById("archive-trial");
  for (let t = 0; t < archive.n_trials; t++) select.append(el("option", {value: String(t), text: `trial ${t}`}));
  select.value = String(best);
  select.addEventListener("change", async () => {
    try {
      const chosen = await trialArchive(run, Number(select.value));
      archiveGrid(run, chosen, chosen.trials[0]);
    } catch (e) {
      showError(e.message);
    }
  });
  archiveGrid(run, archive, archive.trials[0]);
  document.getElementById("archive-box").hidden = false;
}
