"""Fogel's evolutionary programming on DEAP: toolbox, generation loop, logbook, hall of fame.

A trial is a pure function of (config, trial number): every random stream comes from
``numpy.random.SeedSequence(seed, spawn_key=(trial, generation, purpose))`` and
individual ``i`` of a generation always uses row ``i`` of each draw. Population
evaluation goes through ``toolbox.map`` (the seam for Ray), over chunks of networks.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field

import numpy as np
from deap import base, tools

from evoplay.tictactoe import board as B
from evoplay.tictactoe import engine
from evoplay.recipes.fogel.nets import FogelNet, NetBatch, init_population, mut_population, stack
from evoplay.tictactoe.players import make_player, sample_moves

# Purposes of random streams (the last element of every spawn key).
INIT, MUTATE, EVALUATE, SELECT = 0, 1, 2, 3


def stream(seed: int, trial: int, generation: int, purpose: int, skip: int = 0) -> np.random.Generator:
    """The random stream of one purpose in one generation of one trial, ``skip`` draws on."""
    bits = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(trial, generation, purpose)))
    return np.random.Generator(bits.advance(skip) if skip else bits)


def game_uniforms(key: tuple, first: int, last: int, games: int) -> np.ndarray:
    """Uniforms of networks ``first..last-1`` of a generation: (networks, games, 9).

    Network ``i`` owns draws ``i * games * 9`` onwards of the generation's EVALUATE stream
    (one 64-bit draw per double), so a chunk makes exactly its rows of the whole block.
    """
    seed, trial, generation = key
    return stream(seed, trial, generation, EVALUATE, skip=int(first) * int(games) * 9).random((last - first, games, 9))


# ---------------------------------------------------------------- opponents


class MixedOpponent:
    """Several table players as one batched player: game ``g`` is played by ``rows[g]``."""

    deterministic = False

    def __init__(self, players):
        # Row ``player * N_CODES + code`` of the stacked alias tables.
        self.keep = np.concatenate([p.keep for p in players])
        self.alias = np.concatenate([p.alias for p in players])

    def choose(self, codes, u, rows):
        return sample_moves(self.keep, self.alias, rows * B.N_CODES + codes, u)


def opponent_games(opponent, games: int):
    """(players, per-game opponent index or None): games split by weight, largest remainder."""
    if isinstance(opponent, str):
        return [make_player(opponent)], None
    players = [make_player(o["player"]) for o in opponent]
    w = np.array([o["weight"] for o in opponent], dtype=float)
    share = w / w.sum() * games
    counts = np.floor(share).astype(int)
    counts[np.argsort(-(share - counts), kind="stable")[: games - counts.sum()]] += 1
    return players, np.repeat(np.arange(len(players)), counts)


@functools.lru_cache(maxsize=16)
def _opponent_player(key: str, games: int):
    """(batched opponent, per-game opponent index or None) for a JSON-encoded opponent config."""
    players, per_game = opponent_games(json.loads(key), games)
    if per_game is None:
        return players[0], None
    return MixedOpponent(players), per_game


# ---------------------------------------------------------------- operators


def eval_weights(w1, w2, u, opponent, payoff=(1.0, 0.0, -10.0)):
    """Play stacked networks (as X) ``u.shape[1]`` games each; return payoffs and (win, loss, draw).

    ``w1``, ``w2`` are the networks' stacked padded weights and ``u`` (networks, games, 9)
    their uniforms; network ``i`` plays with row ``i`` only.
    """
    n, games = u.shape[:2]
    o_player, per_game = _opponent_player(json.dumps(opponent), games)
    o_rows = None if per_game is None else np.tile(per_game, n)
    x_rows = np.repeat(np.arange(n), games)
    result = engine.play(NetBatch(w1, w2), o_player, u.reshape(n * games, 9), x_rows=x_rows, o_rows=o_rows)
    result = result.reshape(n, games)
    wld = np.stack([(result == B.X_WIN).sum(1), (result == B.O_WIN).sum(1), (result == B.DRAW).sum(1)], axis=1)
    win, draw, loss = payoff
    return wld @ np.array([win, loss, draw], dtype=float), wld


def eval_networks(nets, u, opponent, payoff=(1.0, 0.0, -10.0)):
    """``eval_weights`` for a list of FogelNet individuals."""
    _, w1, w2 = stack(nets)
    return eval_weights(w1, w2, u, opponent, payoff)


def eval_chunk(args):
    """``toolbox.map`` unit of work: (w1, w2, (key, first, last, games), opponent, payoff) -> (payoffs, wld).

    The chunk draws its own uniforms (``game_uniforms``) rather than receiving them.
    """
    w1, w2, rows, opponent, payoff = args
    return eval_weights(w1, w2, game_uniforms(*rows), opponent, payoff)


def sel_tournament_score(payoffs, k: int, rng: np.random.Generator, rivals: int = 10):
    """Fogel's selection: each scores a point per rival (of ``rivals`` drawn) with lower payoff.

    Rivals are drawn without replacement from the others; the ``k`` best scores survive,
    ties broken at random. Returns (selected indices, scores, rival indices).
    """
    payoffs = np.asarray(payoffs)
    n = len(payoffs)
    # Floyd's sampling of ``rivals`` distinct numbers from 0..n-2, for every row at once:
    # column c draws from 0..j (j = n-1-rivals+c) and takes j itself if the draw is taken.
    top = np.arange(n - 1 - rivals, n - 1)
    picks = rng.integers(0, top + 1, size=(n, rivals))
    for c in range(1, rivals):
        taken = (picks[:, :c] == picks[:, c, None]).any(1)
        picks[taken, c] = top[c]
    opp = picks + (picks >= np.arange(n)[:, None])  # skip oneself
    scores = (payoffs[opp] < payoffs[:, None]).sum(1)
    order = np.lexsort((rng.random(n), -scores))
    return np.sort(order[:k]), scores, opp


def make_toolbox(cfg: dict, map_fn=map) -> base.Toolbox:
    """Operators of the Fogel recipe bound to a config."""
    pop, mut = cfg["population"], cfg["mutation"]
    h_range = (pop["hidden_min"], pop["hidden_max"])
    tb = base.Toolbox()
    tb.register("population", init_population, pop["parents"], h_range=h_range, init_scale=pop["init_scale"])
    tb.register("mutate", mut_population, sigma=mut["sigma"], p_arch=mut["p_arch"], h_range=h_range)
    tb.register("evaluate", eval_chunk)
    tb.register("select", sel_tournament_score, rivals=cfg["selection"]["rivals"])
    tb.register("map", map_fn)
    return tb


# ---------------------------------------------------------------- the loop


def new_logbook() -> tools.Logbook:
    lb = tools.Logbook()
    lb.header = ["gen", "max", "mean", "min", "mean_h"]
    return lb


@dataclass
class Generation:
    """What one generation did: the event that logging, checkpoints and detail logs receive."""

    generation: int
    pool: list
    payoffs: np.ndarray
    wld: np.ndarray
    scores: np.ndarray
    rivals: np.ndarray
    selected: np.ndarray
    record: dict
    seconds: dict = field(default_factory=dict)


@dataclass
class TrialState:
    """Everything needed to continue a trial: plain data (checkpointed by the driver)."""

    trial: int
    generation: int
    parents: list
    next_id: int
    logbook: tools.Logbook = field(default_factory=new_logbook)
    hof: tools.HallOfFame = field(default_factory=lambda: tools.HallOfFame(1))
    champion: FogelNet | None = None


class FogelEvolution:
    """Evolutionary programming of Fogel networks, one trial; ``step()`` runs a generation.

    Hooks (callables taking the ``Generation`` event) subscribe to generations; the loop
    itself does not print or write.
    """

    def __init__(self, cfg: dict, state: TrialState, map_fn=map, chunks: int = 1):
        self.cfg = cfg
        self.seed = cfg[""]["seed"]
        self.state = state
        self.toolbox = make_toolbox(cfg, map_fn)
        self.chunks = max(1, chunks)
        self.hooks = []
        ev = cfg["evaluation"]
        self.opponent = ev["opponent"]
        self.payoff = (ev["payoff_win"], ev["payoff_draw"], ev["payoff_loss"])

    @classmethod
    def start(cls, cfg: dict, trial: int, **kw) -> "FogelEvolution":
        """A fresh trial: the initial parents drawn from the trial's INIT stream."""
        n = cfg["population"]["parents"]
        tb = make_toolbox(cfg)
        parents = tb.population(stream(cfg[""]["seed"], trial, 0, INIT))
        return cls(cfg, TrialState(trial, 0, parents, n), **kw)

    def _stream(self, gen, purpose):
        return stream(self.seed, self.state.trial, gen, purpose)

    def evaluate(self, pool, gen):
        """Payoffs and (win, loss, draw) of every network, through ``toolbox.map`` in chunks."""
        key = (self.seed, self.state.trial, gen)
        games = self.cfg["evaluation"]["games"]
        _, w1, w2 = stack(pool)
        bounds = np.linspace(0, len(pool), self.chunks + 1).astype(int)
        jobs = [
            (w1[a:b], w2[a:b], (key, a, b, games), self.opponent, self.payoff)
            for a, b in zip(bounds[:-1], bounds[1:])
            if b > a
        ]
        parts = list(self.toolbox.map(self.toolbox.evaluate, jobs))
        return np.concatenate([p for p, _ in parts]), np.concatenate([w for _, w in parts])

    def step(self) -> Generation:
        st = self.state
        gen = st.generation + 1
        parents = st.parents
        t0 = time.perf_counter()
        children = self.toolbox.mutate(parents, self._stream(gen, MUTATE), ident0=st.next_id)
        pool = parents + children
        t1 = time.perf_counter()
        payoffs, wld = self.evaluate(pool, gen)
        for net, p in zip(pool, payoffs):
            net.fitness.values = (float(p),)
        t2 = time.perf_counter()
        selected, scores, rivals = self.toolbox.select(payoffs, len(parents), self._stream(gen, SELECT))
        t3 = time.perf_counter()
        hs = np.array([n.h for n in pool])
        hmax = self.cfg["population"]["hidden_max"]
        record = {
            "gen": gen,
            "max": float(payoffs.max()),
            "mean": float(payoffs.mean()),
            "min": float(payoffs.min()),
            "mean_h": float(hs.mean()),
            "h_hist": np.bincount(hs, minlength=hmax + 1)[1:].tolist(),
        }
        st.logbook.record(**record)
        best = pool[int(np.argmax(payoffs))]
        st.hof.update([best])
        st.champion = best
        st.parents = pool.pick(selected)
        st.next_id += len(children)
        st.generation = gen
        seconds = {"mutation": t1 - t0, "evaluation": t2 - t1, "selection": t3 - t2, "total": time.perf_counter() - t0}
        event = Generation(gen, pool, payoffs, wld, scores, rivals, selected, record, seconds)
        for hook in self.hooks:
            hook(event)
        return event

    def run(self, until: int) -> TrialState:
        """Run generations until ``until`` have been completed."""
        while self.state.generation < until:
            self.step()
        return self.state
