"""Fogel's (1993) tic-tac-toe networks: encoding, DEAP classes, operators, batched play.

A network has 9 inputs + bias, H hidden logistic units + bias and 9 logistic outputs.
Weights are stored padded to the largest allowed H: ``w1`` is (10, HMAX) with the bias
in row 9, ``w2`` is (HMAX + 1, 9) with the bias in row HMAX. Units at or beyond H have all
weights exactly zero, so they add exactly nothing to any output and a whole population
can be evaluated as one stack of equal-shaped arrays.
"""

from __future__ import annotations

import functools

import numpy as np
from deap import base

from evoplay.recipes.fogel import kernels
from evoplay.tictactoe import board
from evoplay.errors import PlayerFileError
from evoplay.tictactoe.players import TablePlayer, onehot_table

N_IN = 10  # nine squares + bias

#: Network inputs for every board, seen by the side to move, bias last: (N_CODES, 10).
INPUTS = np.concatenate(
    [board.perspective(np.arange(board.N_CODES), board.TO_MOVE), np.ones((board.N_CODES, 1))], axis=1
)
INPUTS.setflags(write=False)


class FitnessMax(base.Fitness):
    """Total payoff over the evaluation games; higher is better."""

    weights = (1.0,)


class FogelNet:
    """A DEAP individual: one network with H hidden units, padded weights and a fitness.

    Defined at module level (not by ``creator.create``) so it pickles on Ray workers.
    """

    __slots__ = ("h", "w1", "w2", "fitness", "ident", "parent")

    def __init__(self, h: int, w1: np.ndarray, w2: np.ndarray, ident: int = -1, parent: int = -1):
        self.h = int(h)
        self.w1 = w1
        self.w2 = w2
        # An empty fitness without Fitness.__init__, whose check of the class's fixed weights
        # against collections.abc.Sequence costs a microsecond per network per generation.
        self.fitness = FitnessMax.__new__(FitnessMax)
        self.ident = ident
        self.parent = parent

    def weights(self) -> np.ndarray:
        """The active weights and biases, flattened (padding excluded)."""
        h = self.h
        return np.concatenate([self.w1[:, :h].ravel(), self.w2[:h].ravel(), self.w2[-1]])

    def __eq__(self, other):
        return (
            isinstance(other, FogelNet)
            and self.h == other.h
            and np.array_equal(self.w1, other.w1)
            and np.array_equal(self.w2, other.w2)
        )

    __hash__ = None

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state):
        for k, v in state.items():
            setattr(self, k, v)

    def __deepcopy__(self, memo):
        twin = FogelNet(self.h, self.w1.copy(), self.w2.copy(), self.ident, self.parent)
        twin.fitness.values = self.fitness.values
        return twin

    def __repr__(self):
        return f"<FogelNet id={self.ident} H={self.h} fitness={self.fitness.values}>"


# ---------------------------------------------------------------- operators


def _masks(h: np.ndarray, hmax: int):
    unit = np.arange(hmax)[None, :] < np.asarray(h)[:, None]  # (n, hmax)
    m1 = np.broadcast_to(unit[:, None, :], (len(h), N_IN, hmax))
    m2 = np.concatenate([unit, np.ones((len(h), 1), dtype=bool)], axis=1)[:, :, None]
    return m1, np.broadcast_to(m2, (len(h), hmax + 1, 9))


@functools.lru_cache(maxsize=None)
def _mask_tables(hmax: int):
    """Float masks of the active weights for every H: (hmax+1, 10, hmax), (hmax+1, hmax+1, 9)."""
    m1, m2 = _masks(np.arange(hmax + 1), hmax)
    return m1.astype(np.float64), m2.astype(np.float64)


def init_population(n: int, rng: np.random.Generator, h_range=(1, 10), init_scale=0.5, ident0=0):
    """``n`` networks, H uniform in ``h_range``, active weights uniform in [-scale, scale]."""
    lo, hi = h_range
    h = rng.integers(lo, hi + 1, size=n)
    m1, m2 = _masks(h, hi)
    w1 = np.where(m1, rng.uniform(-init_scale, init_scale, (n, N_IN, hi)), 0.0)
    w2 = np.where(m2, rng.uniform(-init_scale, init_scale, (n, hi + 1, 9)), 0.0)
    return Population([FogelNet(h[i], w1[i], w2[i], ident0 + i) for i in range(n)], (h, w1, w2), kernels.new_memo(n))


class Population(list):
    """A list of networks that also carries their stacked (h, w1, w2) arrays and move memos.

    The arrays are a read-only view of the same data (each network's ``w1`` and ``w2``
    are rows of them), kept so that batched operators need not stack the list again.
    ``memo`` (``kernels.new_memo``) remembers each network's moves on the boards it has
    met, so a surviving parent does not compute them again; a population read from a
    checkpoint starts with empty memos, and plays the same moves.
    """

    def __init__(self, nets=(), arrays=None, memo=None):
        super().__init__(nets)
        self.arrays = arrays
        self.memo = memo

    @classmethod
    def of(cls, nets) -> "Population":
        """A Population of ``nets`` (say, read from a checkpoint) with its arrays stacked once.

        Each network's ``w1`` and ``w2`` become rows of the stacked arrays, as in a
        population the operators made; its memos start empty.
        """
        h, w1, w2 = stack(list(nets))
        for i, net in enumerate(nets):
            net.w1, net.w2 = w1[i], w2[i]
        return cls(nets, (h, w1, w2), kernels.new_memo(len(nets)))

    def __add__(self, other):
        both, memo = None, None
        if isinstance(other, Population) and self.arrays is not None and other.arrays is not None:
            both = tuple(np.concatenate([a, b]) for a, b in zip(self.arrays, other.arrays))
        if isinstance(other, Population) and self.memo is not None and other.memo is not None:
            memo = tuple(np.concatenate([a, b]) for a, b in zip(self.memo, other.memo))
        return Population(list(self) + list(other), both, memo)

    def pick(self, index) -> "Population":
        """The networks at ``index`` (an array of positions), arrays and memos included."""
        arrays = None if self.arrays is None else tuple(a[index] for a in self.arrays)
        memo = None if self.memo is None else tuple(a[index] for a in self.memo)
        return Population([self[i] for i in np.asarray(index).tolist()], arrays, memo)


def stack(nets):
    """Stacked (h, w1, w2) arrays of a list of networks (not to be modified in place)."""
    if isinstance(nets, Population) and nets.arrays is not None:
        return nets.arrays
    return (
        np.array([n.h for n in nets]),
        np.stack([n.w1 for n in nets]),
        np.stack([n.w2 for n in nets]),
    )


def mut_population(parents, rng: np.random.Generator, sigma=0.05, p_arch=0.5, h_range=(1, 10), ident0=0):
    """One child per parent: Gaussian noise on every active weight, then maybe +/- one unit.

    With probability ``p_arch`` the architecture changes: with equal chance a hidden unit
    is added (all its weights 0) or a random one deleted; a change leaving ``h_range`` is
    skipped. Vectorized over the population; parent ``i`` uses row ``i`` of every draw.
    """
    n = len(parents)
    lo, hi = h_range
    h, w1, w2 = stack(parents)
    m1, m2 = _mask_tables(w1.shape[2])
    w1 = w1 + rng.normal(0.0, sigma, w1.shape) * m1[h]
    w2 = w2 + rng.normal(0.0, sigma, w2.shape) * m2[h]
    change = rng.random(n) < p_arch
    grow = rng.random(n) < 0.5
    victim = (rng.random(n) * h).astype(np.int64)  # uniform in 0..h-1
    add = change & grow & (h < hi)
    delete = np.flatnonzero(change & ~grow & (h > lo))
    # A new unit occupies the first padded slot, whose weights are already zero. A deleted
    # unit's slot takes the last active unit, whose old slot becomes padding.
    if delete.size:
        last, gone = h[delete] - 1, victim[delete]
        w1[delete, :, gone] = w1[delete, :, last]
        w1[delete, :, last] = 0.0
        w2[delete, gone] = w2[delete, last]
        w2[delete, last] = 0.0
    h = h + add  # a new array: the parents' stacked arrays are never written
    h[delete] -= 1
    return Population([FogelNet(h[i], w1[i], w2[i], ident0 + i, parents[i].ident) for i in range(n)], (h, w1, w2), kernels.new_memo(n))


def _square_tables():
    """Per board: occupied squares as keys (square, +9 if the opponent's) and empty squares.

    Both ascending and padded with -1; boards with k marks use the first k / 9 - k entries.
    """
    occ = np.full((board.N_CODES, 9), -1, dtype=np.int8)
    free = np.full((board.N_CODES, 9), -1, dtype=np.int8)
    marks = board.MARKS.astype(np.int64)
    key = np.arange(9)[None, :] + 9 * (marks != board.TO_MOVE[:, None])
    taken = marks != board.EMPTY
    o_rank = np.cumsum(taken, 1) - 1
    f_rank = np.cumsum(~taken, 1) - 1
    rows, cols = np.nonzero(taken)
    occ[rows, o_rank[rows, cols]] = key[rows, cols]
    rows, cols = np.nonzero(~taken)
    free[rows, f_rank[rows, cols]] = cols
    return occ, free


# The kernels' board tables, in the narrowest integer types that hold them: the games walk
# them at random, and a fifth of int64 tables' bytes stays in faster caches.
OCCUPIED, FREE = _square_tables()
N_MARKS = np.ascontiguousarray(board.N_MARKS, dtype=np.int8)
#: What ``kernels.play_vs_table`` reads after the memos: child, outcome, legal count, first legal, occupied, free, marks.
GAME_TABLES = (board.CHILD.astype(np.int16), board.OUTCOME, board.N_LEGAL, board.FIRST_LEGAL.astype(np.int8), OCCUPIED, FREE, N_MARKS)


class NetBatch:
    """A population of networks playing as one batched player.

    ``sample(codes, u, rows)`` moves for game boards ``codes`` where network ``rows[g]``
    plays game ``g``. Each distinct (network, board) pair is computed once, and only what
    the move needs (``kernels.net_moves``): the hidden sums over occupied squares (inputs
    are +1/-1 there, 0 elsewhere) and the outputs of empty squares, in a fixed order per
    pair, so a network's move depends neither on what else is in the batch nor on the CPU.
    """

    deterministic = True

    def __init__(self, w1: np.ndarray, w2: np.ndarray):
        # Rows 18 * net + square (+ 9 for an opponent's mark) of w1s hold that input's signed
        # weights; rows 9 * net + square of w2t an output's weights from every unit, bias
        # last; h[net] counts the units up to the last with a nonzero weight (the rest add
        # exactly nothing and are skipped).
        w1 = np.ascontiguousarray(w1, dtype=np.float64)
        w2 = np.ascontiguousarray(w2, dtype=np.float64)
        self.w1s, self.b1, self.w2t, self.h = kernels.prepare(w1, w2)

    def outputs(self, r: np.ndarray, c: np.ndarray) -> np.ndarray:
        """(pairs, 9) outputs of networks ``r`` on boards ``c``, by square (NaN where occupied)."""
        r = np.ascontiguousarray(r, dtype=np.int64)
        c = np.ascontiguousarray(c, dtype=np.int64)
        return kernels.net_outputs(self.w1s, self.b1, self.w2t, self.h, r, c, OCCUPIED, FREE, N_MARKS)

    def moves(self, r: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Moves of networks ``r`` on boards ``c``: the empty square with the highest output (ties: the lowest)."""
        r = np.ascontiguousarray(r, dtype=np.int64)
        c = np.ascontiguousarray(c, dtype=np.int64)
        return kernels.net_moves(self.w1s, self.b1, self.w2t, self.h, r, c, OCCUPIED, FREE, N_MARKS)

    def play_vs_table(self, x_rows, u, keep, alias, o_base, memo=None) -> np.ndarray:
        """Outcomes of games of networks ``x_rows`` (X) against a table player's alias tables (O); see ``kernels.play_vs_table``.

        ``memo``: the networks' move memos (``kernels.new_memo``), updated in place; fresh ones if None.
        """
        codes, moves = kernels.new_memo(len(self.b1)) if memo is None else memo
        return kernels.play_vs_table(
            self.w1s, self.b1, self.w2t, self.h, np.ascontiguousarray(x_rows, dtype=np.int64), np.ascontiguousarray(u, dtype=np.float64),
            _NO_STREAM, _NO_JUMPS, keep, alias, np.ascontiguousarray(o_base, dtype=np.int64), codes, moves, *GAME_TABLES,
        )

    def sample(self, codes, u, rows):
        moves = board.FIRST_LEGAL[codes]  # right wherever the move is forced
        todo = np.flatnonzero(board.N_LEGAL[codes] > 1)
        if todo.size:
            first, inverse = distinct(rows[todo] * board.N_CODES + codes[todo], len(self.b1) * board.N_CODES)
            pick = todo[first]
            moves[todo] = self.moves(rows[pick], codes[pick])[inverse]
        return moves


_NO_STREAM, _NO_JUMPS = np.empty(0, dtype=np.uint64), np.empty((0, 4), dtype=np.uint64)  # kernels.play_vs_table reads u
_SCRATCH = np.empty(0, dtype=np.int64)
#: Largest key space served by the scratch array (32 MiB, about 200 networks' boards).
SCRATCH_LIMIT = 1 << 22


def distinct(keys: np.ndarray, key_space: int):
    """(positions of one copy of each distinct key, index of each key's copy among them).

    Like ``np.unique(..., return_inverse=True)`` without sorting: a scratch array over
    the key space remembers, for each key, one position that holds it. Beyond
    ``SCRATCH_LIMIT`` keys (big populations in one chunk) it sorts, so memory stays
    linear in the number of keys; either way every key gets the same move.
    """
    global _SCRATCH
    if key_space > SCRATCH_LIMIT:  # a big population: sort instead, memory linear in the keys
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return first, inverse.reshape(-1)
    if len(_SCRATCH) < key_space:
        _SCRATCH = np.empty(key_space, dtype=np.int64)
    n = len(keys)
    at = np.arange(n)
    _SCRATCH[keys] = at
    rep = _SCRATCH[keys]
    first = np.flatnonzero(rep == at)
    slot = np.empty(n, dtype=np.int64)
    slot[first] = np.arange(len(first))
    return first, slot[rep]


def net_player(net: FogelNet, spec: str = "fogel-net") -> TablePlayer:
    """A single network as a table player (its move on every board, computed once)."""
    batch = NetBatch(net.w1[None], net.w2[None])
    codes = np.flatnonzero(board.OUTCOME == board.ONGOING)
    moves = np.full(board.N_CODES, -1)
    moves[codes] = batch.moves(np.zeros(len(codes), dtype=np.int64), codes)
    return TablePlayer(spec, onehot_table(moves))


# ---------------------------------------------------------------- player files


def file_parts(net: FogelNet):
    """(architecture, weights) of a network for a player file (padding removed)."""
    h = net.h
    arch = {"inputs": 9, "hidden": h, "outputs": 9, "activation": "logistic", "input": "own +1, other -1, empty 0"}
    weights = {
        "hidden_weights": net.w1[:9, :h],
        "hidden_bias": net.w1[9, :h],
        "output_weights": net.w2[:h],
        "output_bias": net.w2[-1],
    }
    return arch, weights


def net_from_file(architecture: dict, weights: dict, hmax: int = 10) -> FogelNet:
    """Rebuild a network from player-file parts, checking every shape."""
    from evoplay.files.playerfile import arch_int, weight_array

    if architecture.get("inputs") != 9 or architecture.get("outputs") != 9:
        raise PlayerFileError("architecture must have 9 inputs and 9 outputs")
    h = arch_int(architecture, "hidden", 1, 64)
    hmax = max(hmax, h)
    w1 = np.zeros((N_IN, hmax))
    w2 = np.zeros((hmax + 1, 9))
    w1[:9, :h] = weight_array(weights, "hidden_weights", (9, h))
    w1[9, :h] = weight_array(weights, "hidden_bias", (h,))
    w2[:h] = weight_array(weights, "output_weights", (h, 9))
    w2[-1] = weight_array(weights, "output_bias", (9,))
    return FogelNet(h, w1, w2)


def player_from_file(architecture: dict, weights: dict) -> TablePlayer:
    """Player-file builder for kind ``fogel-net``."""
    return net_player(net_from_file(architecture, weights))
