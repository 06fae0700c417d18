"""Blondie24's operators: the initial population and self-adaptive mutation of weights and K.

Each network carries a step size per weight. A child first updates every step size
log-normally, ``s' = s * exp(tau * N(0, 1))`` with ``tau = 1 / sqrt(2 sqrt(W))`` (``W``
the number of weights, 1,742 for checkers), then moves every weight by ``s' * N(0, 1)``;
its king value is ``K' = K * exp(N(0, 1) / sqrt(2))`` set back into ``[king_min,
king_max]`` (Chellapilla and Fogel 1999, as Skycak's chapter spells it out), or with a
``king_step`` d, ``K' = K + delta``, delta uniform on ``{-d, 0, +d}``, set back likewise
(the 2001 paper's rule, d = 0.1). Parent ``i``
uses row ``i`` of every draw, so the children are a pure function of the stream.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from evoplay.networks.arithmetic import exp_array


@dataclass
class Net:
    """One evaluation network: its genome, step sizes, king value, id and its parent's id."""

    genome: np.ndarray
    sigma: np.ndarray
    king: float
    ident: int
    parent: int = -1
    points: float = 0.0
    record: tuple = field(default=(0, 0, 0))  # wins, draws, losses as the first player

    def to_dict(self) -> dict:
        return {"id": self.ident, "parent": self.parent, "king": self.king, "points": self.points,
                "record": list(self.record), "genome": self.genome.tolist(), "sigma": self.sigma.tolist()}


#: The piece-difference weight of ``material_network``: small enough that the output's tanh keeps every
#: material count apart (with the yardstick's kings of 1.5, 12 kings against none is tanh(1.8), far from
#: where tanh rounds to 1), so the network orders positions exactly as their piece difference does.
MATERIAL_WEIGHT = 0.1


def material_network(n_weights: int) -> np.ndarray:
    """The genome that plays piece difference: every weight 0 (each hidden unit reads tanh(0) = 0) but the
    piece-difference weight, the last, ``MATERIAL_WEIGHT``; with king value K its evaluation is
    tanh(0.1 (men + K kings, own less the other's)), the same order as the material count."""
    genome = np.zeros(n_weights)
    genome[-1] = MATERIAL_WEIGHT
    return genome


def default_tau(n: int) -> float:
    """Chellapilla and Fogel's learning rate ``1 / sqrt(2 sqrt(n))``."""
    return 1.0 / math.sqrt(2.0 * math.sqrt(n))


def init_population(n: int, rng: np.random.Generator, n_weights: int, init_scale=0.2, sigma_init=0.05, king_init=2.0) -> list[Net]:
    """``n`` networks, every weight uniform in ``[-init_scale, init_scale]``, step sizes ``sigma_init``, K ``king_init``."""
    genomes = rng.uniform(-init_scale, init_scale, size=(n, n_weights))
    return [Net(genomes[i], np.full(n_weights, float(sigma_init)), float(king_init), i) for i in range(n)]


def mut_selfadaptive(parents: list[Net], rng: np.random.Generator, tau=0.0, king_range=(1.0, 3.0), ident0=0, king_step=0.0) -> list[Net]:
    """One child per parent: step sizes log-normally, then every weight by its own step size, then K.

    ``tau = 0`` means ``1 / sqrt(2 sqrt(W))``. Draws, in order: the step-size normals
    (networks x weights), the weight normals (the same shape), then per network one king
    normal (``king_step = 0``, 1999's rule) or one integer in {0, 1, 2} picking
    ``-king_step``, 0 or ``+king_step`` (2001's).
    """
    n, w = len(parents), len(parents[0].genome)
    t = default_tau(w) if tau == 0 else float(tau)
    genome = np.stack([p.genome for p in parents])
    sigma = np.stack([p.sigma for p in parents])
    sigma = sigma * exp_array(t * rng.normal(size=(n, w)))
    genome = genome + sigma * rng.normal(size=(n, w))
    kings = np.array([p.king for p in parents])
    if king_step:
        kings = kings + (rng.integers(0, 3, size=n) - 1) * float(king_step)
    else:
        kings = kings * exp_array(rng.normal(size=n) / math.sqrt(2.0))
    kings = np.clip(kings, *king_range)
    return [Net(genome[i], sigma[i], float(kings[i]), ident0 + i, parents[i].ident) for i in range(n)]


def draw_opponents(n: int, games: int, rng: np.random.Generator) -> np.ndarray:
    """(n, games): for every member, opponents drawn uniformly with replacement from the n - 1 others."""
    picks = rng.integers(0, n - 1, size=(n, games))
    return picks + (picks >= np.arange(n)[:, None])


def draw_archive(n: int, games: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """(n, games): for every member, indices into an archive of ``size`` networks, uniform with replacement."""
    return rng.integers(0, size, size=(n, games))


def draw_openings(game, count: int, most: int, rng: np.random.Generator) -> list:
    """``count`` opening move lists: each a number of plies drawn uniformly from 0..``most``, each ply a
    uniform legal move (an opening that ends the game stops there)."""
    out = []
    for k in rng.integers(0, most + 1, size=count):
        state, moves = game.initial(), []
        for _ in range(int(k)):
            legal = game.legal_moves(state)
            if game.result(state) is not None or not legal:
                break
            move = legal[int(rng.integers(len(legal)))]
            moves.append(move)
            state = game.apply(state, move)
        out.append(moves)
    return out


def sel_best(points: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Indices (ascending) of the ``k`` highest totals, ties broken at random."""
    order = np.lexsort((rng.random(len(points)), -np.asarray(points)))
    return np.sort(order[:k])
