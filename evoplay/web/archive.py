"""A MAP-Elites run's archive for the run page, and its elites as players.

The archive of each trial is read from the trial's checkpoint (checked against the run's
config digest, as ``--resume`` checks it), so every elite there can be played. A committed
run keeps no checkpoints: then the page gets the grid from the run's ``archive.json``
(each cell's best elite, analysed by ``evoplay report``), without networks to play.

An elite is named as a player by ``RUN#trial=T,cell=K,elite=J``: RUN a run directory the
server was started with, K the flat cell index, J the elite's rank in its cell (0 = best).
"""

from __future__ import annotations

import math
import os
import re
import threading
from pathlib import Path

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.web.roots import ApiError, Roots

ELITE_SPEC = re.compile(r"(?P<run>[^#]+)#trial=(?P<trial>\d{1,6}),cell=(?P<cell>\d{1,6}),elite=(?P<elite>\d{1,6})")
RECIPE = "map-elites"


def is_elite_spec(spec: str) -> bool:
    return "#" in spec


def elite_spec(run: str, trial: int, cell: int, elite: int) -> str:
    return f"{run}#trial={trial},cell={cell},elite={elite}"


def elites_play() -> str:
    """The game (its reference) that MAP-Elites runs' elites play."""
    from evoplay.framework.config import recipe_class

    return recipe_class(RECIPE).game


def elite_player(net, spec: str):
    """An elite of a MAP-Elites archive as a player of its game (``MapElitesRecipe.elite_player``)."""
    from evoplay.framework.config import recipe_class

    return recipe_class(RECIPE).elite_player(net, spec)


class Archives:
    """The archives of the server's MAP-Elites runs, read from checkpoints and cached by file identity."""

    def __init__(self, roots: Roots):
        self.roots = roots
        self._cache: dict = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ reading
    def _recipe(self, root):
        """The run's recipe, or None when the run is not a MAP-Elites run (or has no loadable config)."""
        from evoplay.framework.config import load, recipe_class

        config = root.real / "config.toml"
        if not config.is_file() or not self.roots.inside(Path(os.path.realpath(config))):
            return None
        try:
            cfg = load(config)
        except EvoplayError:
            return None
        if cfg[""]["recipe"] != RECIPE:
            return None
        return recipe_class(RECIPE)(cfg)

    def _trial_archive(self, root, recipe, trial: int):
        """The trial's final archive from its checkpoint; None if the run keeps no checkpoint of it."""
        from evoplay.framework.rundir import RunDir

        rd = RunDir(root.real)
        path = rd.checkpoint(trial)
        if not path.is_file():
            return None
        real = Path(os.path.realpath(path))
        if not self.roots.inside(real):
            raise ApiError(403, f"checkpoint of trial {trial} leads outside the paths this server was started with")
        stat = real.stat()
        key = (real, stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        try:
            data = rd.read_checkpoint(trial, rd.config_key(recipe.cfg))
            if data["generation"] != recipe.cfg[""]["generations"]:
                raise EvoplayError(f"checkpoint of trial {trial} is at generation {data['generation']}, "
                                   f"not at the run's last ({recipe.cfg['']['generations']})")
            archive = recipe.from_data(data["state"]).archive
        except EvoplayError as e:
            raise ApiError(409, str(e).replace(str(root.real), root.given)) from None
        with self._lock:
            if len(self._cache) >= 64:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = archive
        return archive

    # ------------------------------------------------------------ what the page gets
    def view(self, index: int, only: int | None = None) -> dict:
        """The run's archive per trial (all, or trial ``only``: a checkpoint is megabytes to read and check):
        every cell's best fitness and elites count, and the elites where playable."""
        from evoplay.recipes.map_elites.descriptors import cell_labels

        root = self.roots.run(index)
        recipe = self._recipe(root)
        if recipe is None:
            return {"id": index, "archive": None}
        shape = list(recipe.shape)
        size = math.prod(recipe.shape)
        labels = []
        for k in range(size):
            cell = tuple(int(c) for c in np.unravel_index(k, recipe.shape))
            labels.append(cell_labels(recipe.names, cell))
        n_trials = recipe.cfg[""]["trials"]
        if only is not None and not 0 <= only < n_trials:
            raise ApiError(404, f"run {root.given} has no trial {only} (trials 0-{n_trials - 1})")
        wanted = range(n_trials) if only is None else [only]
        trials = []
        for t in wanted:
            archive = self._trial_archive(root, recipe, t)
            if archive is None:
                trials.append(t)
                continue
            best_cell = archive.best()[0]
            cells = []
            for k in archive.occupied():
                members = archive.cells[k]
                cells.append({
                    "cell": k,
                    "best": members[0].fitness.values[0],
                    "count": len(members),
                    "elites": [{"elite": j, "network_id": e.ident, "hidden": e.h, "fitness": e.fitness.values[0],
                                "spec": elite_spec(root.given, t, k, j)} for j, e in enumerate(members)],
                })
            trials.append({"trial": t, "source": "checkpoint", "champion_cell": best_cell, "cells": cells})
        if any(isinstance(t, int) for t in trials):
            trials = self._from_report(root, recipe, trials)
        return {"id": index, "archive": {"descriptors": recipe.names, "shape": shape, "labels": labels,
                                         "capacity": recipe.capacity, "n_trials": n_trials, "trials": trials}}

    def _from_report(self, root, recipe, trials: list) -> list:
        """Trials without a checkpoint (given by number), from archive.json (best elite per cell; not playable)."""
        shown = os.path.join(root.given, "archive.json")
        rows = self.roots.run_json(root, "archive.json") if (root.real / "archive.json").is_file() else None
        if rows is not None and not (isinstance(rows, dict) and isinstance(rows.get("elites"), list)):
            raise ApiError(409, f"run file {shown} is not a table of elites")
        shape = recipe.shape
        out = []
        for got in trials:
            if not isinstance(got, int):
                out.append(got)
                continue
            t = got
            mine = [r for r in (rows["elites"] if rows else []) if isinstance(r, dict) and r.get("trial") == t]
            if not mine:
                out.append({"trial": t, "source": None, "champion_cell": None, "cells": []})
                continue
            cells, champion = [], None
            for r in mine:
                try:
                    k, best, count = int(np.ravel_multi_index(tuple(r["cell"]), shape)), r["fitness"], r["elites_in_cell"]
                except (KeyError, TypeError, ValueError):
                    raise ApiError(409, f"run file {shown}: an elite of trial {t} lacks a valid cell, fitness or elites_in_cell") from None
                if r.get("champion"):
                    champion = k
                cells.append({"cell": k, "best": best, "count": count, "elites": None,
                              "analysis": {key: r[key] for key in ("network_id", "hidden", "expected_payoff_32_vs_logic",
                                                                   "unbeatable_as_x", "minimax_agreement_x", "vs_logic",
                                                                   "vs_random") if key in r}})
            out.append({"trial": t, "source": "archive.json", "champion_cell": champion,
                        "cells": sorted(cells, key=lambda c: c["cell"])})
        return out

    def elite(self, spec: str, what: str = "player"):
        """(run root, trial, cell, rank, the elite network) named by an elite spec; 4xx ApiError otherwise."""
        m = ELITE_SPEC.fullmatch(spec)
        if m is None:
            raise ApiError(400, f"{what}: {spec[:80]!r} is no elite spec (RUN#trial=T,cell=K,elite=J)")
        run, trial, cell, rank = m["run"], int(m["trial"]), int(m["cell"]), int(m["elite"])
        if ".." in Path(run).parts:
            raise ApiError(403, f"{what}: run path {run!r} may not contain '..'")
        full = Path(run) if Path(run).is_absolute() else self.roots.base / run
        real = Path(os.path.realpath(full))
        matches = [i for i, r in enumerate(self.roots.runs) if r.real == real]
        if not matches:
            raise ApiError(403, f"{what}: {run!r} is not a run directory this server was started with")
        return self.elite_at(matches[0], trial, cell, rank, what)

    def elite_at(self, index: int, trial: int, cell: int, rank: int, what: str = "elite"):
        root = self.roots.run(index)
        recipe = self._recipe(root)
        if recipe is None:
            raise ApiError(404, f"{what}: run {root.given} is not a map-elites run")
        if not 0 <= trial < recipe.cfg[""]["trials"]:
            raise ApiError(404, f"{what}: run {root.given} has no trial {trial} (trials 0-{recipe.cfg['']['trials'] - 1})")
        archive = self._trial_archive(root, recipe, trial)
        if archive is None:
            raise ApiError(404, f"{what}: run {root.given} keeps no checkpoint of trial {trial}, so its elites cannot be played")
        members = archive.cells.get(cell) or []
        if not members:
            raise ApiError(404, f"{what}: cell {cell} of trial {trial} holds no elite")
        if not 0 <= rank < len(members):
            raise ApiError(404, f"{what}: cell {cell} of trial {trial} holds {len(members)} elites (0-{len(members) - 1}), not {rank}")
        return root, trial, cell, rank, members[rank]


def parse_index(value, name: str, limit: int = 10**6) -> int:
    """A whole number from a query parameter; 400 naming ``name`` otherwise."""
    if value is None or value == "":
        raise ApiError(400, f"missing query parameter {name!r}")
    if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 7) or int(value) >= limit:
        raise ApiError(400, f"{name} must be a whole number 0-{limit - 1}, got {str(value)[:20]!r}")
    return int(value)


def elite_details(archives: Archives, index: int, trial: int, cell: int, rank: int) -> dict:
    """An elite's exact analysis (as a champion's in analysis.json) and the spec that plays it."""
    from evoplay.recipes.fogel.nets import net_player
    from evoplay.recipes.fogel.report import champion_row
    from evoplay.recipes.map_elites.descriptors import cell_labels

    root, trial, cell, rank, net = archives.elite_at(index, trial, cell, rank)
    recipe = archives._recipe(root)
    row = champion_row(net_player(net), trial, net.h)
    where = cell_labels(recipe.names, tuple(int(c) for c in np.unravel_index(cell, recipe.shape)))
    return {"spec": elite_spec(root.given, trial, cell, rank), "trial": trial, "cell": cell, "cell_labels": where,
            "elite": rank, "network_id": net.ident, "fitness": net.fitness.values[0], "analysis": row}
