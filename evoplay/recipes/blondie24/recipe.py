"""Blondie24 (Chellapilla and Fogel 1999) as a recipe for any game of the interface.

Each generation the parents (15) make one child each by self-adaptive mutation
(``operators``); each of the pool's networks (30) plays ``evaluation.games`` (5) games as
the first player against opponents drawn uniformly, with replacement, from the other
members by the generation's PAIRING stream; it scores ``points_win`` / ``points_draw`` /
``points_loss`` (+1 / 0 / -2) per game, and the best ``population.parents`` by points
survive (ties at random from the SELECT stream). With ``evaluation.random_plies = K`` a
game starts after 0..K uniform random plies (the OPENING stream), the first player still
the side that moved first, so deterministic players meet varied positions (as checkers
matches start from ballots). With ``evaluation.round_robin`` each member plays every other
once as the first player instead of ``games`` drawn opponents; with
``evaluation.both_seats`` every game is played again with the seats swapped and the
member it was drawn for scores both (so every network is judged as first AND as second
player, not only as X); with ``evaluation.hall_of_fame = H`` the best networks of the last
``H`` generations (co-evolved, never hand-made) are extra opponents: every member plays
each of them once from each seat, and only the member scores; with
``evaluation.hall_of_fame_games = K`` (Rosin and Belew's hall of fame, 1997) the best
network of generation 1 and of every ``evaluation.hall_of_fame_every``-th generation after
it joins an archive kept for the whole trial, and from generation 2 on ``K`` of each
member's ``games`` games are against archived champions drawn uniformly with replacement
by the generation's HALL stream (the other ``games - K`` against the pool as before; with
``both_seats`` replayed with the seats swapped too), only the member scoring them; with
``evaluation.anchor_games = K`` (checkers) ``K`` of each member's games are against an anchor
outside the pool, piece difference (``operators.material_network``, kings of
``yardstick.pd_king``, searching as the members do), the member first in the 1st, 3rd, ...
and second in the 2nd, 4th, ..., only the member scoring them: a fixed opponent whose
strength does not drift with the pool's. Moves are chosen by alpha-beta to
``game.depth`` plies with the network at the leaves (``play``); a game still on after
``game.max_plies`` plies (Blondie24: 100 moves each) is a draw. On checkers the search
is the compiled one (``evoplay.checkers.search`` with the network at the leaves), the generic search's move and value.

Choices the published procedure leaves open, and the defaults here: only the first
player scores (``evaluation.opponent_scores = false``; Skycak's chapter credits the
network that moves first); an opponent is never the network itself; terminal positions
score beyond any network value (a win is worth more than any evaluation, faster wins
more), where the chapter returns +-1; no search extension on captures
(``game.quiescence = false``; the chapter searches a fixed depth); ties in selection are
broken at random.

The generation's games are the unit fanned out through ``toolbox.map``, in ``ctx.chunks``
consecutive ranges; a game depends only on its two networks, so any split gives the same
results. Yardsticks selection never sees: on tic-tac-toe every generation the best
network's exact strength (``yardstick.ttt_facts``); on checkers every
``yardstick.every`` generations the best network against ``piece-difference`` at the
same depth over the committed three-move ballots from both colours.

The champion of a trial, by a rule fixed in the config before the run (``champion.rule``):
``best``, the best network by points of the last generation (the default, as published);
``league`` (checkers), the winner of the last parents' league, played at the end of the
last generation (``league.play_league``: every pair of the surviving parents over the first
``champion.ballots`` ballots from both colours, both players scoring the points table, ties
to the parent listed first) through ``toolbox.map``; the league's table goes into the
checkpoint and the summary, and its winner is measured against piece difference and the
earlier champions like the best network would be.

The recipe's rooms: the config's sections and their checks in ``schema.py``, the scoring of
a generation's games (who scores each, the points that follow, the games against the hall
of fame or the archive) in ``scoring.py``, a trial's state and its checkpoint data in
``state.py``; this module holds the recipe class and its generation loop.
"""

from __future__ import annotations

import math
import time

import numpy as np
from deap import base

from evoplay.errors import EvoplayError
from evoplay.framework.recipe import Context, Recipe
from evoplay.framework.streams import INIT, MUTATE, SELECT
from evoplay.arena.game import capability
from evoplay.games import game_digest, resolve_game
from evoplay.recipes.blondie24 import yardstick
from evoplay.recipes.blondie24.operators import (Net, draw_archive, draw_openings, draw_opponents, init_population,
                                                 mut_selfadaptive, sel_best)
from evoplay.recipes.blondie24.play import play_chunk
from evoplay.recipes.blondie24.league import words
from evoplay.recipes.blondie24.playerfile import network_document
from evoplay.recipes.blondie24.schema import SCHEMA, anchor_networks, check_config, searched_network
from evoplay.recipes.blondie24.scoring import anchor_games, archive_games, credited, hall_games, points_of
from evoplay.recipes.blondie24.state import B24State, json_copy, state_from_data, state_to_data

#: Stream purposes of the pairing and of the games' random openings (after the framework's INIT..VARIATE).
PAIRING, OPENING = 5, 6
#: Stream purpose of the seeds of games against anchors given by a spec (after HALL, 8, and the yardstick's 7).
ANCHOR_PLAY = 10
#: Stream purpose of the games against the archive (``evaluation.hall_of_fame_games``; after the yardstick's 7).
HALL = 8


class Blondie24Recipe(Recipe):
    """Evaluation networks at the leaves of alpha-beta, co-evolved by games among themselves."""

    name = "blondie24"
    default_name = "blondie24"
    schema = SCHEMA
    report_files = ("duels.json", "league.json", "league-champions")  # report --depths/--versus, --league
    _map = map

    def __init__(self, cfg: dict):
        super().__init__(cfg)
        self.game, self.depth, self.sizes, self.n_weights = searched_network(cfg)
        net, mut, ev = cfg["network"], cfg["mutation"], cfg["evaluation"]
        self.king_range = (net["king_min"], net["king_max"])
        self.points = (ev["points_win"], ev["points_draw"], ev["points_loss"])
        tb = base.Toolbox()
        tb.register("population", init_population, cfg["population"]["parents"], n_weights=self.n_weights,
                    init_scale=net["init_scale"], sigma_init=mut["sigma_init"], king_init=net["king_init"])
        tb.register("mutate", mut_selfadaptive, tau=mut["tau"], king_range=self.king_range, king_step=mut["king_step"])
        tb.register("pair", draw_opponents, games=ev["games"])
        tb.register("evaluate", play_chunk)
        tb.register("select", sel_best)
        tb.register("map", map)
        self.toolbox = tb
        self.hooks = []
        self._anchors = None if ev["anchor_games"] else []

    @classmethod
    def check(cls, cfg: dict):
        """The checks across keys of a resolved config (``schema.check_config``)."""
        check_config(cfg)

    #: Generations of equal points for every network after which a run says selection has no signal.
    NO_SIGNAL_GENERATIONS = 3

    def notice(self, logbook: list[dict]) -> str | None:
        """One line when every network scored the same points in each of the first
        generations: selection then picks at random (a game the second player always wins,
        scored by the first player only, gives every network the loss)."""
        first = logbook[: self.NO_SIGNAL_GENERATIONS]
        if len(first) < self.NO_SIGNAL_GENERATIONS or any(row["max"] != row["min"] for row in first):
            return None
        ev = self.cfg["evaluation"]
        change = ("set evaluation.opponent_scores = true or evaluation.both_seats = true, so that "
                  "the second player's games count" if not (ev["opponent_scores"] or ev["both_seats"])
                  else "raise evaluation.games, evaluation.random_plies or the search depth")
        return (f"every network scored {first[0]['max']:g} points in each of generations 1-{len(first)}: "
                f"selection has no signal; {change}")

    def games_per_generation(self) -> int:
        """Games of a generation once the hall of fame (if any) is full."""
        n, ev = 2 * self.cfg["population"]["parents"], self.cfg["evaluation"]
        games = n * (n - 1) if ev["round_robin"] else n * ev["games"]
        return (2 * games if ev["both_seats"] else games) + 2 * n * ev["hall_of_fame"]

    def generation_work(self) -> float:
        return float(self.games_per_generation() * capability(resolve_game(self.game), "work_per_game"))

    def run_facts(self) -> dict:
        """The run's game (and, for a game file of the user's own, the sha256 of its bytes:
        ``game_sha256``), the search depth, the network's size and the games played."""
        c = self.cfg
        digest = game_digest(self.game)
        return {"game": self.game, **({"game_sha256": digest} if digest else {}), "depth": self.depth, "weights": self.n_weights,
                "games_played": c[""]["trials"] * sum(self.games_in(g) for g in range(1, c[""]["generations"] + 1))}

    def games_in(self, generation: int) -> int:
        """Games of generation ``generation`` (from 1): the hall of fame grows by one network a generation."""
        n, h = 2 * self.cfg["population"]["parents"], self.cfg["evaluation"]["hall_of_fame"]
        return self.games_per_generation() - 2 * n * (h - min(generation - 1, h))

    # -- a trial
    def start(self, ctx: Context) -> B24State:
        n = self.cfg["population"]["parents"]
        return B24State(self.toolbox.population(ctx.stream(INIT)), n)

    def pairing(self, n: int, ctx: Context, hall: int = 0) -> np.ndarray:
        """(games, 2) pairs (first, second): member ``i``'s games as first player, in draw order
        (``evaluation.round_robin``: every other member once, in order, no draws; else ``games - hall``
        drawn, ``hall`` of its games being against the archive or the anchor); with ``evaluation.both_seats`` followed by
        the same games with the seats swapped."""
        ev = self.cfg["evaluation"]
        if ev["round_robin"]:
            opp = np.array([[j for j in range(n) if j != i] for i in range(n)], dtype=np.int64)
        else:
            opp = self.toolbox.pair(n, rng=ctx.stream(PAIRING), games=ev["games"] - hall)
        pairs = np.stack([np.repeat(np.arange(n), opp.shape[1]), opp.ravel()], axis=1)
        return np.concatenate([pairs, pairs[:, ::-1]]) if ev["both_seats"] else pairs

    def openings(self, count: int, ctx: Context) -> list | None:
        """The random opening plies of the generation's games (``evaluation.random_plies``), or None."""
        most = self.cfg["evaluation"]["random_plies"]
        return draw_openings(resolve_game(self.game), count, most, ctx.stream(OPENING)) if most else None

    @property
    def anchors(self) -> list[dict]:
        """``evaluation.anchors``' opponents (``anchor_networks``), read when first played against,
        not when the recipe is made: a run's stored config read as data (report, plot) opens no
        anchor file, which may be elsewhere on another machine."""
        if self._anchors is None:
            self._anchors = anchor_networks(self.cfg)
        return self._anchors

    def play_games(self, genomes, kings, pairs, ctx: Context, specs: dict | None = None) -> np.ndarray:
        """(score of the first player, plies) of every pair, through ``toolbox.map`` in chunks.

        ``specs``: the players among ``genomes`` that are anchors given by a spec (index ->
        spec), which play as themselves; each game then draws its moves' randomness from its
        own seed, drawn for every pair from the generation's ANCHOR_PLAY stream, so a run is
        the same bytes in any number of chunks."""
        g = self.cfg["game"]
        openings = self.openings(len(pairs), ctx)
        seeds = ctx.stream(ANCHOR_PLAY).integers(2**63, size=len(pairs)) if specs else None
        jobs = []
        for a, b in ctx.bounds(len(pairs)):
            # a chunk carries only the networks its pairs name (on 150 one-game tasks, 2 of 30 genomes each)
            named, local = np.unique(np.asarray(pairs[a:b]), return_inverse=True)
            job = (self.game, genomes[named], kings[named], self.sizes, self.depth,
                   g["quiescence"], local.reshape(-1, 2), g["max_plies"], openings[a:b] if openings else None)
            if specs:
                job += ({i: specs[int(n)] for i, n in enumerate(named) if int(n) in specs}, seeds[a:b])
            jobs.append(job)
        return np.concatenate(list(self.toolbox.map(self.toolbox.evaluate, jobs)))

    def step(self, st: B24State, ctx: Context) -> dict:
        if ctx.map is not self._map:
            self.toolbox.register("map", ctx.map)
            self._map = ctx.map
        t0 = time.perf_counter()
        children = self.toolbox.mutate(st.parents, ctx.stream(MUTATE), ident0=st.next_id)
        pool = st.parents + children
        ev = self.cfg["evaluation"]
        from_archive = ev["hall_of_fame_games"] if st.archive else 0  # generation 1 has no archive yet: all games in the pool
        pairs = self.pairing(len(pool), ctx, from_archive + ev["anchor_games"])
        credit = credited(pairs, ev["opponent_scores"], ev["both_seats"])
        others = st.hall + st.archive  # at most one of the two holds networks (``check`` refuses both)
        if ev["anchor_games"]:  # the anchors, last
            others = others + self.anchors
        genomes = np.stack([n.genome for n in pool] + [h["genome"] for h in others])
        kings = np.array([n.king for n in pool] + [h["king"] for h in others])
        if st.hall:
            pairs, credit = hall_games(len(pool), len(st.hall), pairs, credit)
        pooled = len(pairs)
        if from_archive:
            picks = draw_archive(len(pool), from_archive, len(st.archive), ctx.stream(HALL))
            pairs, credit = archive_games(len(pool), picks, pairs, credit, ev["both_seats"])
        archived = len(pairs)
        first_anchor = len(genomes) - len(self.anchors)
        if ev["anchor_games"]:
            pairs, credit = anchor_games(len(pool), list(range(first_anchor, len(genomes))), ev["anchor_games"], pairs, credit,
                                         ev["both_seats"])
        specs = {first_anchor + j: a["spec"] for j, a in enumerate(self.anchors) if "spec" in a}
        results = self.play_games(genomes, kings, pairs, ctx, specs)
        points, wdl = points_of(pairs, results[:, 0], len(pool), self.points, ev["opponent_scores"], ev["both_seats"], credit)
        for net, p, r in zip(pool, points, wdl):
            net.points, net.record = float(p), tuple(int(x) for x in r)
        t1 = time.perf_counter()
        selected = self.toolbox.select(points, len(st.parents), ctx.stream(SELECT))
        best = pool[int(np.argmax(points))]
        record = {
            "gen": ctx.generation,
            "max": float(points.max()),
            "mean": float(points.mean()),
            "min": float(points.min()),
            "draws": float((results[:, 0] == 0).mean()),
            "mean_plies": float(results[:, 1].mean()),
            "best_king": best.king,
            # exactly rounded sums: the same bits whatever numpy's summation kernel
            "mean_king": math.fsum(kings) / len(kings),
            "mean_sigma": math.fsum(math.fsum(n.sigma) for n in pool) / (len(pool) * self.n_weights),
        }
        st.yard = yardstick.measure(self, best, ctx, st.yard)
        record.update(st.yard)
        last = ctx.generation == self.cfg[""]["generations"]
        if yardstick.kind(self) == "piece-difference" and yardstick.measuring(self, ctx.generation) and not last:
            st.earlier.append({"gen": ctx.generation, "genome": best.genome.tolist(), "king": best.king})
        st.best = best
        if ev["hall_of_fame"]:
            st.hall = (st.hall + [{"genome": best.genome.copy(), "king": best.king}])[-ev["hall_of_fame"]:]
        st.parents = [pool[i] for i in selected]
        st.next_id += len(children)
        if last and yardstick.kind(self) == "piece-difference":
            champ = best
            if self.cfg["champion"]["rule"] == "league":
                st.league = self.league(st, best, ctx)
                champ = st.parents[st.league["champion"]]
            st.versus = yardstick.against_earlier(self, champ, st.earlier, ctx)
        event = {"record": record, "pool": pool, "pairs": pairs, "results": results, "selected": selected,
                 "seconds": {"evaluation": t1 - t0, "total": time.perf_counter() - t0}}
        if ev["hall_of_fame_games"]:
            self.keep(st, best, ctx.generation, record, results[pooled:archived, 0], pairs[pooled:archived, 0] < len(pool))
        if ev["anchor_games"]:  # the members' mean score against piece difference (+1, 0, -1 each game)
            record["anchor_score"] = float(np.where(pairs[archived:, 0] < len(pool), results[archived:, 0], -results[archived:, 0]).mean())
        for hook in self.hooks:  # timings go to hooks (benchmarks, tests), never into the logbook
            hook(event)
        return record

    def judged(self) -> "Blondie24Recipe":
        """The recipe as its judging reads it (``report --depths``, ``--versus``): itself."""
        return self

    def keep(self, st: B24State, best: Net, generation: int, record: dict, scores: np.ndarray, member_first: np.ndarray):
        """With ``evaluation.hall_of_fame_games``: the archive's size and the members' mean score in their
        games against it (``scores``: the first player's; 0 without any) into the record; the generation's
        best network into the archive at generation 1 and every ``hall_of_fame_every``-th after it."""
        mine = np.where(member_first, scores, -scores)
        record["archive"] = len(st.archive)
        record["archive_score"] = float(mine.mean()) if len(mine) else 0.0
        if (generation - 1) % self.cfg["evaluation"]["hall_of_fame_every"] == 0:
            st.archive.append({"gen": generation, "genome": best.genome.copy(), "king": best.king})

    def league(self, st: B24State, best: Net, ctx: Context) -> dict:
        """The last parents' league (``champion.rule = "league"``): its table, winner, and the winner against
        piece difference over the yardstick's games (the generation's measurement when the winner is ``best``)."""
        from evoplay.recipes.blondie24.league import play_league

        ballots = self.cfg["champion"]["ballots"]
        rows, k = play_league(self, st.parents, ballots)
        champ = st.parents[k]
        yard = dict(st.yard) if champ is best else yardstick.summarize(
            yardstick.checkers_scores(self, champ, ctx.bounds(yardstick.n_games(self)))[0], ctx.generation)
        return {"ballots": ballots, "games_per_pair": 2 * ballots, "table": rows, "champion": k,
                "champion_id": champ.ident, "yard": yard}

    # -- plain data
    def to_data(self, st: B24State) -> dict:
        return state_to_data(st, self.cfg)

    def from_data(self, d: dict) -> B24State:
        return state_from_data(d, self.cfg, self.n_weights, self.king_range)

    def _league_rule(self) -> bool:
        return self.cfg["champion"]["rule"] == "league"

    # -- the end of a trial
    def finish(self, st: B24State, trial: int, logbook: list[dict]) -> tuple[dict, dict]:
        """(champion document, facts): the champion by ``champion.rule``; with ``league``, the league's winner,
        its table and the last generation's best network (the ``best`` rule's pick) in the facts."""
        champ, yard, extra, more = st.best, st.yard, {}, {}
        if self._league_rule():
            if not st.league:
                raise EvoplayError("champion.rule = \"league\": the league is played at the run's last generation, not reached")
            lg = st.league
            champ, yard = st.parents[lg["champion"]], lg["yard"]
            extra = {"rule": "league", "league": words(lg["ballots"]), "league_points": lg["table"][lg["champion"]]["points"]}
            more = {"champion_rule": "league",
                    "league": {k: json_copy(lg[k]) for k in ("ballots", "games_per_pair", "table", "champion")},
                    "last_best_id": st.best.ident,
                    **{"last_best_" + k.removeprefix("yard_"): v for k, v in st.yard.items()}}
        provenance = {"config": self.cfg[""]["name"], "seed": self.cfg[""]["seed"], "trial": trial,
                      "generation": logbook[-1]["gen"], "network_id": champ.ident, "points": champ.points,
                      "games": self.cfg["evaluation"]["games"], **extra}
        facts = {"champion_id": champ.ident, "champion_points": champ.points, "champion_king": champ.king,
                 **yardstick.champion_facts(self, champ),
                 **({"champion_" + k.removeprefix("yard_"): v for k, v in yard.items()} if yardstick.by_matches(self) else {}),
                 **({"champion_vs_earlier": [dict(v) for v in st.versus]} if st.versus else {}),
                 **more,
                 "final_max": logbook[-1]["max"], "final_mean": logbook[-1]["mean"]}
        return network_document(self.game, self.sizes, self.depth, champ.genome, champ.king, provenance), facts

    def report(self, run_dir) -> list[str]:
        """A checkers run's champions against piece difference and against the earlier champions
        (analysis.md, analysis.json); tic-tac-toe champions get the exact analysis instead; any
        other game's the table of the champions' recorded games against random and mcts
        (analysis.md, analysis.json)."""
        if yardstick.kind(self) == "baselines":
            return yardstick.baseline_report(self, run_dir)
        if yardstick.kind(self) != "piece-difference":
            return []
        from evoplay.framework.rundir import RunDir
        from evoplay.recipes.blondie24.report import analyze_checkers_run, summary_lines

        return summary_lines(run_dir, analyze_checkers_run(run_dir, RunDir(run_dir).read_summary(), self.depth))

    def champion_analysis(self, champion: dict) -> dict:
        from evoplay.recipes.blondie24.playerfile import network_parts

        game, sizes, depth, genome, king = network_parts(champion["architecture"], champion["weights"])
        return yardstick.analysis(game, sizes, depth, genome, king)

    def trial_measures(self) -> dict[str, str]:
        """On checkers, each trial's champion against piece difference over the yardstick's games
        (both sides searching the run's depth): what a study of variants whose training points
        differ in scale (``opponent_scores``, the points) can compare."""
        if yardstick.kind(self) != "piece-difference":
            return {}
        return {"champion_score": f"champion's score against piece difference at depth {self.depth}"}

    def reported_measures(self, run_dir) -> dict[str, dict]:
        """After ``evoplay report RUN --depths ... --versus ...``: each trial's champion in each
        of its duels (``duels.json``), say against piece difference at depth 6. The duel at the
        run's own depth is left out where the yardstick plays all the ballots: it replays the
        games of the champion's score (``trial_measures``), which a study already compares."""
        from evoplay.recipes.blondie24.duels import measures

        scored = self.trial_measures() and self.cfg["yardstick"]["openings"] == 0
        return measures(run_dir, self.depth if scored else None)

    def payoff_scale(self) -> float:
        return 1.0

    def score(self, facts: dict) -> float:
        return facts.get("score", facts["final_max"])

    def duel(self, first: dict, second: dict, openings: int, seed: int) -> dict:
        """Two champions of this run against each other, for a league (``evoplay.recipes.duel``)."""
        from evoplay.recipes.duel import duel

        return duel(self.game, first, second, openings, seed)
