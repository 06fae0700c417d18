"""MAP-Elites (Mouret and Clune, 2015) of Fogel's networks with exact fitness: recipe ``map-elites``.

Evolution on one exact fitness converges on one opening: after a centre opening no
policy scores more than 25.20 per 32 games against ``logic``, after a corner 29.78, and a
population that settled in the centre cannot cross. Here every behaviour keeps its own
elite. The archive's cells are the categories of the configured descriptors (opening as
X, reply as O to a centre and to a corner opening: 3 x 2 x 5 cells by default, see
``descriptors``). Generation 1 evaluates ``population.batch`` random networks; every
later one draws ``batch`` parents uniformly among the occupied cells, makes one
self-adaptive child of each (``selfadaptive.mut_selfadaptive``), evaluates the children
exactly (``exact_fitness.exact_chunk`` through ``toolbox.map`` in chunks) and offers
each to the cell of its behaviour. Elites are never evaluated again (exact fitness does
not change), so a run costs ``generations x batch`` exact evaluations. The champion is
the best elite; the yardstick follows it every generation. With ``archive.canonical``
every network is moved, before it is evaluated, by the board symmetry that takes its
opening to the canonical square of its class (``symmetry.canonical``): the four corner
openings become one, and so do the four edge ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from deap import base

from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config
from evoplay.framework.recipe import Context, Recipe
from evoplay.framework.streams import INIT, MUTATE, SELECT
from evoplay.recipes.fogel import exact_yardstick
from evoplay.recipes.exact_fitness import exact_chunk
from evoplay.recipes.fogel.nets import file_parts, net_player, stack
from evoplay.recipes.fogel.recipe import FogelRecipe, _whole
from evoplay.recipes.fogel.schema import SCHEMA
from evoplay.recipes.map_elites import archive as elite_archive
from evoplay.recipes.map_elites.symmetry import canonical
from evoplay.recipes.map_elites.descriptors import DESCRIPTORS, cell_labels, describe, shape
from evoplay.recipes.selfadaptive import MUTATION_SCHEMA, init_sa_population, mut_selfadaptive, n_weights, sa_from_dict, sa_to_dict, step_sizes
from evoplay.tictactoe import board
from evoplay.files.playerfile import player_document


def _descriptor_names(v):
    if not isinstance(v, list) or not v or len(set(map(str, v))) != len(v) or not all(isinstance(n, str) and n in DESCRIPTORS for n in v):
        return False
    return list(v)


MAP_ELITES_SCHEMA = {
    "population": {
        "batch": (int, 100, config.in_range(1, 100_000)),
        **{k: SCHEMA["population"][k] for k in ("hidden_min", "hidden_max", "init_scale")},
    },
    "mutation": {k: v for k, v in MUTATION_SCHEMA.items() if k not in ("self_adaptive", "sigma")},
    "evaluation": SCHEMA["evaluation"],
    "selection": {
        "tournament": (int, 1, config.in_range(1, 1000)),
    },
    "archive": {
        "capacity": (int, 1, config.in_range(1, 10_000)),
        "canonical": (object, False, config.BOOLEAN),
        "descriptors": (object, ["opening", "reply_centre", "reply_corner"],
                        (_descriptor_names, f"a non-empty list of distinct descriptor names from {sorted(DESCRIPTORS)}")),
    },
}


@dataclass
class ArchiveState:
    """A trial between generations: its archive, the next network id, and (before generation 1) the random networks to evaluate."""

    archive: elite_archive.Archive
    next_id: int
    pending: list | None = None


def _unevaluated(d, hmax: int):
    """A network of checkpoint data that has no fitness yet (``"fitness": []``)."""
    if not isinstance(d, dict) or d.get("fitness") != []:
        raise EvoplayError("a pending network of the checkpoint already has a fitness")
    net = sa_from_dict({**d, "fitness": [0.0]}, hmax)
    del net.fitness.values
    return net


class MapElitesRecipe(FogelRecipe):
    """MAP-Elites of Fogel's self-adaptive networks over behaviour descriptors, exact fitness.

    A FogelRecipe for what concerns one network (exact expected payoff, champion files,
    provenance, study analysis); its own start, generation, state and end.
    """

    name = "map-elites"
    default_name = "map-elites"
    schema = MAP_ELITES_SCHEMA
    report_files = ("archive.json", "archive.md")

    @staticmethod
    def elite_player(net, spec: str):
        """An elite of its archive (a Fogel network) as a player of tic-tac-toe: its move table."""
        from evoplay.recipes.fogel.nets import net_player

        return net_player(net, spec)

    def __init__(self, cfg: dict):
        Recipe.__init__(self, cfg)
        pop, mut, ev = cfg["population"], cfg["mutation"], cfg["evaluation"]
        self.seed = cfg[""]["seed"]
        self.opponent = ev["opponent"]
        self.payoff = (ev["payoff_win"], ev["payoff_draw"], ev["payoff_loss"])
        self.hmax = pop["hidden_max"]
        self.batch = pop["batch"]
        self.names = list(cfg["archive"]["descriptors"])
        self.shape = shape(self.names)
        self.capacity = cfg["archive"]["capacity"]
        self.canonical = cfg["archive"]["canonical"]
        h_range = (pop["hidden_min"], pop["hidden_max"])
        self.toolbox = base.Toolbox()
        self.toolbox.register("population", init_sa_population, self.batch, h_range=h_range, init_scale=pop["init_scale"], sigma_init=mut["sigma_init"])
        self.toolbox.register("mutate", mut_selfadaptive, tau=mut["tau"], sigma_new=mut["sigma_new"], sigma_min=mut["sigma_min"],
                              p_arch=mut["p_arch"], h_range=h_range, step=mut["step"])
        self.toolbox.register("describe", describe, names=self.names)
        self.toolbox.register("select", elite_archive.sel_cells, tournament=cfg["selection"]["tournament"])
        self.toolbox.register("map", map)
        self.hooks = []

    @classmethod
    def check(cls, cfg: dict):
        pop = cfg["population"]
        if pop["hidden_min"] > pop["hidden_max"]:
            raise ConfigError("config key 'population.hidden_min' must not exceed 'population.hidden_max'")

    def run_facts(self) -> dict:
        c = self.cfg
        return {"exact_evaluations": c[""]["trials"] * c[""]["generations"] * self.batch,
                "archive_descriptors": self.names, "archive_shape": list(self.shape)}

    def generation_work(self) -> float:
        # an exact evaluation costs about what twice the sampled games do (as in fogel-exact)
        return 2 * self.batch * self.cfg["evaluation"]["games"]

    # -- a trial
    def start(self, ctx: Context) -> ArchiveState:
        return ArchiveState(elite_archive.Archive(self.shape, self.capacity), self.batch, list(self.toolbox.population(ctx.stream(INIT))))

    def evaluate(self, pool, ctx: Context):
        """Exact payoffs and expected (win, loss, draw) counts of ``pool``, through ``toolbox.map`` in chunks."""
        games = self.cfg["evaluation"]["games"]
        _, w1, w2 = stack(pool)
        jobs = [(w1[a:b], w2[a:b], self.opponent, self.payoff, games) for a, b in ctx.bounds(len(pool))]
        parts = list(self.toolbox.map(exact_chunk, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def step(self, st: ArchiveState, ctx: Context) -> dict:
        if ctx.map is not self._map:
            self.toolbox.register("map", ctx.map)
            self._map = ctx.map
        if st.pending is not None:  # generation 1: the random networks
            pool, st.pending = st.pending, None
        else:
            parents = self.toolbox.select(st.archive, self.batch, ctx.stream(SELECT))
            pool = list(self.toolbox.mutate(parents, ctx.stream(MUTATE), ident0=st.next_id))
            st.next_id += len(pool)
        if self.canonical:
            pool = canonical(pool)
        payoffs, _ = self.evaluate(pool, ctx)
        for net, p in zip(pool, payoffs):
            net.fitness.values = (float(p),)
        _, w1, w2 = stack(pool)
        status = st.archive.insert(pool, self.toolbox.describe(w1, w2))
        return self.record(st, ctx.generation, payoffs, status)

    def record(self, st: ArchiveState, gen: int, payoffs: np.ndarray, status: np.ndarray) -> dict:
        """The generation's logbook row: the archive's fitness (max, mean, min over elites), its coverage, every cell, the yardstick."""
        elites = st.archive.elites()
        fit = np.array([e.fitness.values[0] for e in elites])
        h = np.array([e.h for e in elites])
        s1, s2 = step_sizes(elites)
        best_cell, champion = st.archive.best()
        cell_best, cell_count = st.archive.fitness_grid()
        record = {
            "gen": gen,
            "max": float(fit.max()),
            "mean": float(fit.mean()),
            "min": float(fit.min()),
            "mean_h": float(h.mean()),
            "coverage": len(st.archive.occupied()),
            "elites": len(elites),
            "batch_max": float(payoffs.max()),
            "new": int((status == elite_archive.NEW).sum()),
            "better": int((status == elite_archive.BETTER).sum()),
            "equal": int((status == elite_archive.EQUAL).sum()),
            "champion_cell": int(best_cell),
            "mean_sigma": float((s1.sum() + s2.sum()) / n_weights(h).sum()),
            "cell_best": np.round(cell_best, 4).tolist(),  # for the figures: 4 decimals keep the logbooks small
            "cell_count": cell_count.tolist(),
        }
        record.update(exact_yardstick.record(champion))
        return record

    # -- plain data
    def to_data(self, st: ArchiveState) -> dict:
        return {
            "next_id": st.next_id,
            "elites": [{"cell": list(st.archive.cell(k)), "net": sa_to_dict(e)} for k in st.archive.occupied() for e in st.archive.cells[k]],
            "pending": None if st.pending is None else [sa_to_dict(n) for n in st.pending],
        }

    def from_data(self, d: dict) -> ArchiveState:
        """The state of a checkpoint, checked: cells inside the grid and distinct, every elite playing its cell's behaviour."""
        if not isinstance(d, dict) or set(d) != {"next_id", "elites", "pending"}:
            raise EvoplayError("the checkpoint's state does not hold exactly next_id, elites and pending")
        try:
            next_id = _whole(d, "next_id")
        except ValueError as e:
            raise EvoplayError(f"the checkpoint's state: {e}") from None
        if not isinstance(d["elites"], list) or not d["elites"] and d["pending"] is None:
            raise EvoplayError("the checkpoint's archive is not a non-empty list of elites")
        archive = elite_archive.Archive(self.shape, self.capacity)
        cells, nets = [], []
        for item in d["elites"]:
            if not isinstance(item, dict) or set(item) != {"cell", "net"}:
                raise EvoplayError("an elite of the checkpoint is not a table of cell and net")
            cell = item["cell"]
            if not (isinstance(cell, list) and len(cell) == len(self.shape)
                    and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < s for c, s in zip(cell, self.shape))):
                raise EvoplayError(f"an elite of the checkpoint has a cell outside the archive's grid {self.shape}: {str(cell)[:60]}")
            cells.append(cell)
            nets.append(sa_from_dict(item["net"], self.hmax))
        if nets:
            flat = archive.flat(cells).tolist()
            if flat != sorted(flat):
                raise EvoplayError("the checkpoint's elites are not in cell order")
            _, w1, w2 = stack(nets)
            if not np.array_equal(describe(w1, w2, self.names), np.array(cells)):
                raise EvoplayError("an elite of the checkpoint does not play the behaviour of its cell")
            for k, net in zip(flat, nets):
                archive.cells.setdefault(k, []).append(net)
            for members in archive.cells.values():
                fit = [elite_archive.fitness(m) for m in members]
                if len(members) > self.capacity or fit != sorted(fit, reverse=True):
                    raise EvoplayError(f"a cell of the checkpoint holds more than {self.capacity} elites or not best first")
        pending = None
        if d["pending"] is not None:
            if not isinstance(d["pending"], list) or len(d["pending"]) != self.batch:
                raise EvoplayError(f"the checkpoint's pending networks are not a list of {self.batch}")
            pending = [_unevaluated(n, self.hmax) for n in d["pending"]]
        for net in nets + (pending or []):
            if not (0 <= net.ident < next_id and -1 <= net.parent < next_id):
                raise EvoplayError(f"the checkpoint holds a network id ({net.ident}, parent {net.parent}) outside 0..{next_id - 1}")
        return ArchiveState(archive, next_id, pending)

    # -- the end of a trial
    def elite_facts(self, net) -> dict:
        """What a file of an elite says about it: exact payoff per game, opening square."""
        player = net_player(net)
        return {"expected_payoff_per_game": self.expected_payoff(player),
                "opening_square": int(np.argmax(player.table[board.encode([0] * 9)]))}

    def finish(self, st: ArchiveState, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        cell, champ = st.archive.best()
        about = self.elite_facts(champ)
        where = cell_labels(self.names, st.archive.cell(cell))
        arch, weights = file_parts(champ)
        provenance = {
            **self.provenance(champ, trial, logbook),
            "payoff": champ.fitness.values[0],
            "games": self.cfg["evaluation"]["games"],
            "expected_payoff_per_game": about["expected_payoff_per_game"],
            "archive_cell": where,
        }
        facts = {
            "champion_id": champ.ident,
            "champion_hidden": champ.h,
            "champion_payoff": champ.fitness.values[0],
            "champion_expected_payoff_per_game": about["expected_payoff_per_game"],
            "champion_cell": where,
            "champion_opening_square": about["opening_square"],
            "coverage": len(st.archive.occupied()),
            "final_max": logbook[-1]["max"],
            "final_mean": logbook[-1]["mean"],
            "final_mean_h": logbook[-1]["mean_h"],
            **exact_yardstick.facts(champ),
        }
        return player_document("fogel-net", arch, weights, provenance), facts

    # -- seeing the archive
    def figures(self, run_dir, curve) -> list:
        """The archive figure (``plot.archive_figure``) beside the curve: CURVE-archive with the curve's format."""
        from pathlib import Path

        from evoplay.recipes.map_elites.plot import plot_archive

        curve = Path(curve)
        out = curve.with_name(f"{curve.stem}-archive{curve.suffix}")
        title = f"{self.cfg['']['name']}, seed {self.seed}: archive over {', '.join(self.names)}"
        return [plot_archive(run_dir, out, title, self.names, self.payoff_scale())]

    def report(self, run_dir) -> list[str]:
        """Every cell's best elite of every trial, analysed exactly (archive.md, archive.json)."""
        from evoplay.framework.rundir import RunDir
        from evoplay.recipes.map_elites.report import analyze_archive, summary_lines

        rd = RunDir(run_dir)
        if not all(rd.checkpoint(t).is_file() for t in range(self.cfg[""]["trials"])):
            # committed runs keep no checkpoints (they are large): their archive.md stays as written
            kept = "kept as written" if (rd.root / "archive.md").is_file() else "not written"
            return [f"archive: {rd.root / 'archive.md'} {kept} (the archives are read from the checkpoints, which this run directory has not)"]
        return summary_lines(run_dir, analyze_archive(self, run_dir))
