"""The yardstick: what a generation's best network is worth, computed exactly, never used to select.

For one network (the generation's best by the recipe's own fitness): its expected payoff
per 32 games against ``logic`` moving first (Fogel's payoff), its draw and loss
probabilities against ``minimax`` as X and as O (a network cannot beat minimax), and
whether it is unbeatable as X and as O. Unbeatable in a seat means no line of opponent
moves beats it there, which for a deterministic network is the same as losing with
probability zero against ``random`` (every legal move has positive probability).
Everything goes through ``population_outcomes``: only the boards the network reaches.
"""

from __future__ import annotations

import functools


import numpy as np

from evoplay.networks.arithmetic import plain_rows
from evoplay.recipes.exact_outcomes import population_outcomes
from evoplay.recipes.fogel.nets import NetBatch
from evoplay.tictactoe import board
from evoplay.tictactoe.exact import FOGEL_PAYOFF
from evoplay.tictactoe.players import make_player

GAMES = 32

#: Logbook columns written by ``record`` (all numbers: 0/1 for yes/no).
COLUMNS = ("yard_logic32", "yard_mm_x_draw", "yard_mm_x_loss", "yard_mm_o_draw", "yard_mm_o_loss", "yard_unbeat_x", "yard_unbeat_o")


@functools.cache
def _table(spec: str) -> np.ndarray:
    """The move table of a built-in player (``logic``, ``minimax``): a pure function of its name."""
    return make_player(spec).probs(np.arange(board.N_CODES))


def measure_weights(w1: np.ndarray, w2: np.ndarray) -> dict:
    """The yardstick of stacked networks ``w1`` (n, 10, H), ``w2`` (n, H+1, 9): a dict of (n,) arrays."""
    n = len(w1)
    batch = NetBatch(w1, w2)
    logic = population_outcomes(batch, n, _table("logic"), board.X)
    mm_x = population_outcomes(batch, n, _table("minimax"), board.X)
    mm_o = population_outcomes(batch, n, _table("minimax"), board.O)
    rnd_x = population_outcomes(batch, n, _table("random"), board.X)
    rnd_o = population_outcomes(batch, n, _table("random"), board.O)
    win, draw, loss = FOGEL_PAYOFF
    return {
        "yard_logic32": GAMES * plain_rows(logic, (win, draw, loss)),
        "yard_mm_x_draw": mm_x[:, 1],
        "yard_mm_x_loss": mm_x[:, 2],
        "yard_mm_o_draw": mm_o[:, 1],
        "yard_mm_o_loss": mm_o[:, 0],
        "yard_unbeat_x": (rnd_x[:, 2] == 0).astype(int),
        "yard_unbeat_o": (rnd_o[:, 0] == 0).astype(int),
    }


def record(net) -> dict:
    """The yardstick of one network as logbook columns (plain numbers)."""
    m = measure_weights(net.w1[None], net.w2[None])
    return {k: (int(m[k][0]) if k.startswith("yard_unbeat") else float(m[k][0])) for k in COLUMNS}


def facts(net) -> dict:
    """The yardstick of a trial's champion as summary facts."""
    r = record(net)
    return {
        "champion_logic32": r["yard_logic32"],
        "champion_unbeatable_as_x": bool(r["yard_unbeat_x"]),
        "champion_unbeatable_as_o": bool(r["yard_unbeat_o"]),
        "champion_vs_minimax_as_x_draw": r["yard_mm_x_draw"],
        "champion_vs_minimax_as_o_draw": r["yard_mm_o_draw"],
    }
