"""The Fogel recipe's DEAP operators: evaluation against the opponent(s), selection, the toolbox.

Each parent makes one child by Gaussian mutation and maybe an architecture change
(``nets.mut_population``); all 2N networks play the configured games as X against the
opponent (or a weighted mix: ``opponent_games``); each scores a point per rival (of
``rivals`` drawn) with a strictly lower payoff and the N best scores survive
(``sel_tournament_score``). Individual ``i`` of a generation always uses row ``i`` of each
draw, and evaluation goes through ``toolbox.map`` in chunks (``eval_chunk``) that draw
their own rows of the generation's uniforms (``game_uniforms``), so a trial is the same
however its evaluation is split.
"""

from __future__ import annotations

import json

import numpy as np
from deap import base

from evoplay import context
from evoplay.framework.streams import EVALUATE, stream
from evoplay.networks.arithmetic import weighted_rows
from evoplay.recipes.fogel import kernels
from evoplay.recipes.fogel.nets import NetBatch, init_population, mut_population, stack
from evoplay.tictactoe import board
from evoplay.tictactoe import engine
from evoplay.tictactoe.players import TablePlayer, make_player, sample_moves


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

    def sample(self, codes, u, rows):
        return sample_moves(self.keep, self.alias, rows * board.N_CODES + codes, u)


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


def opponent_player(key: str, games: int):
    """(batched opponent, per-game opponent index or None) for a JSON-encoded opponent config,
    built once a context (``evoplay.context``)."""
    return context.current().cached(("fogel-opponent", key, games), lambda: _opponent_player(key, games))


def _opponent_player(key: str, games: int):
    players, per_game = opponent_games(json.loads(key), games)
    if per_game is None:
        return players[0], None
    return MixedOpponent(players), per_game


# ---------------------------------------------------------------- operators


def eval_weights(w1, w2, u, opponent, payoff=(1.0, 0.0, -10.0), memo=None):
    """Play stacked networks (as X) ``u.shape[1]`` games each; return payoffs and (win, loss, draw).

    ``w1``, ``w2`` are the networks' stacked padded weights and ``u`` (networks, games, 9)
    their uniforms; network ``i`` plays with row ``i`` only.
    """
    n, games = u.shape[:2]
    o_player, per_game = opponent_player(json.dumps(opponent), games)
    o_rows = None if per_game is None else np.tile(per_game, n)
    x_rows = np.repeat(np.arange(n), games)
    u = u.reshape(n * games, 9)
    if isinstance(o_player, (TablePlayer, MixedOpponent)):  # the whole games in compiled code
        o_base = np.zeros(n * games, dtype=np.int64) if o_rows is None else o_rows * board.N_CODES
        if memo is not None and not (memo[0].flags.writeable and memo[1].flags.writeable):
            memo = tuple(a.copy() for a in memo)  # received read-only (from Ray's object store)
        result = NetBatch(w1, w2).play_vs_table(x_rows, u, o_player.keep, o_player.alias, o_base, memo)
    else:
        result = engine.play(NetBatch(w1, w2), o_player, u, x_rows=x_rows, o_rows=o_rows)
    result = result.reshape(n, games)
    wld = np.stack([(result == board.X_WIN).sum(1), (result == board.O_WIN).sum(1), (result == board.DRAW).sum(1)], axis=1)
    win, draw, loss = payoff
    return weighted_rows(wld, (win, loss, draw)), wld


def eval_networks(nets, u, opponent, payoff=(1.0, 0.0, -10.0)):
    """``eval_weights`` for a list of FogelNet individuals."""
    _, w1, w2 = stack(nets)
    return eval_weights(w1, w2, u, opponent, payoff)


def eval_chunk(args):
    """``toolbox.map`` unit of work: (w1, w2, (key, first, last, games), opponent, payoff[, memo]) -> (payoffs, wld).

    The chunk draws its own uniforms (``game_uniforms``) rather than receiving them. The
    optional move memos (``kernels.new_memo``) only save work: they change no result.
    """
    w1, w2, rows, opponent, payoff, *memo = args
    return eval_weights(w1, w2, game_uniforms(*rows), opponent, payoff, memo[0] if memo else None)


def sel_tournament_score(payoffs, k: int, rng: np.random.Generator, rivals: int = 10):
    """Fogel's selection: each scores a point per rival (of ``rivals`` drawn) with lower payoff.

    Rivals are drawn without replacement from the others; the ``k`` best scores survive,
    ties broken at random. Returns (selected indices, scores, rival indices).
    """
    payoffs = np.ascontiguousarray(payoffs, dtype=np.float64)
    n = len(payoffs)
    # Floyd's sampling of ``rivals`` distinct numbers from 0..n-2, for every row at once:
    # column c draws from 0..j (j = n-1-rivals+c) and takes j itself if the draw is taken.
    top = np.arange(n - 1 - rivals, n - 1)
    opp, scores = kernels.rival_scores(rng.integers(0, top + 1, size=(n, rivals)), top, payoffs)
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
