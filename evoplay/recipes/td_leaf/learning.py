"""TDLeaf(lambda) (Baxter, Tridgell and Weaver, 1998) for the evaluation networks evolution
evolves: a network plays itself with the alpha-beta search it is judged with, and learns
from the leaves of the principal variations.

At each position x_t of a game the search finds its principal variation; its leaf l_t is
the position the search's value comes from, so J_t = J(l_t, w) is the network's output
there (the game's result where the line ends the game), all seen from the side that
moves first. With d_t = J_{t+1} - J_t and J_N the game's result, one game moves the weights by

    alpha * sum_t grad J(l_t, w) * sum_{j >= t} lambda^(j - t) d_j,

the eligibility traces summed backwards (e_t = d_t + lambda e_{t+1}) and the products added
position by position in the game's order: no BLAS, no reassociated sum, so an update is
the same bits on every CPU and, summed over games in a fixed order, on 1 or N workers.
Self-play explores through random openings (``random_plies`` uniform moves first) and a
share ``explore`` of uniformly random moves, drawn from the game's own stream.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from evoplay.arena.game import capability, game_ref, ply_limit
from evoplay.arena.match import random_opening
from evoplay.arena.search import principal_variation
from evoplay.games import resolve_game
from evoplay.networks.evalnet import Evaluator, prepare
from evoplay.networks.gradient import value_and_gradient


class Net(NamedTuple):
    """An evaluation network: its genome, layer sizes and king value K (held fixed)."""

    genome: np.ndarray
    sizes: tuple
    king: float


class PlayedGame(NamedTuple):
    """What TDLeaf learns from one self-play game: J_t and grad J_t at each searched position
    (from the first side's view), the result for the first side, the plies played."""

    values: list
    grads: list
    result: float
    plies: int


def traces(values, result: float, lam: float) -> list[float]:
    """e_t = sum_{j >= t} lambda^(j - t) (J_{j+1} - J_j), J_N = ``result``: each position's
    share of the error ahead of it, summed backwards."""
    out, e = [0.0] * len(values), 0.0
    for t in range(len(values) - 1, -1, -1):
        ahead = result if t == len(values) - 1 else values[t + 1]
        e = (ahead - values[t]) + lam * e
        out[t] = e
    return out


def update(game: PlayedGame, lam: float, size: int) -> np.ndarray:
    """The direction one game moves the weights: sum_t e_t grad J_t, in the game's order."""
    step = np.zeros(size)
    for e, grad in zip(traces(game.values, game.result, lam), game.grads):
        if grad is not None:
            step += e * grad
    return step


def leaf_value(game, net: Net, leaf) -> tuple[float, np.ndarray | None]:
    """(J, grad J) at a principal variation's leaf, from the first side's view: the game's
    result where it is over there (no gradient), else the network's output for the side to
    move, its sign turned for the first side."""
    result = game.result(leaf)
    sign = 1.0 if game.to_move(leaf) == 0 else -1.0
    if result is not None:
        return sign * float(result), None
    value, grad = value_and_gradient(game.views([leaf])[0], net.genome, net.sizes, net.king)
    return sign * value, sign * grad


def searched(game, net: Net):
    """The network as the game's search takes it: prepared for the compiled network search where
    the game has one (once a game, not once a search), else the generic search's evaluator."""
    if capability(game, "network_search") is None:
        return Evaluator(net.genome, net.sizes, net.king)
    return prepare(net.genome, net.sizes, net.king)


def principal_line(game, net: Net, state, depth: int, evaluate) -> tuple[list, object]:
    """(the moves the search expects from ``state`` to its horizon, the position they lead to)
    (``principal_variation``): in the game's compiled network search where it has one
    (checkers': the generic search's move at every depth, some 25 times faster; the searches of
    falling depth all in one compiled call, ``network_line``, where the game offers it), else in
    the generic search; ``evaluate`` is the network as ``searched`` gives it."""
    compiled = capability(game, "network_search")
    if compiled is None:
        line = principal_variation(game, state, depth, evaluate)
        for move in line:
            state = game.apply(state, move)
        return line, state
    one_call = capability(game, "network_line")  # the same line from one compiled call (checkers)
    if one_call is not None:
        return one_call(state, depth, evaluate, net.sizes, net.king, False)
    line = []
    for d in range(depth, 0, -1):
        if game.result(state) is not None:
            break
        move = compiled(state, d, evaluate, net.sizes, net.king, False).move
        line.append(move)
        state = game.apply(state, move)
    return line, state


def self_play(game, net: Net, depth: int, rng: np.random.Generator, random_plies: int = 0,
              explore: float = 0.0, max_plies: int | None = None) -> PlayedGame:
    """One game of the network against itself from a random opening, drawn after ``max_plies``
    plies (or the game's own limit, ``ply_limit``, where smaller); what TDLeaf learns from it."""
    evaluate = searched(game, net)
    state = random_opening(game, rng, random_plies)
    values, grads, plies = [], [], 0
    limit = ply_limit(game) if max_plies is None else min(max_plies, ply_limit(game))
    while game.result(state) is None and plies < limit:
        line, leaf = principal_line(game, net, state, depth, evaluate)
        value, grad = leaf_value(game, net, leaf)
        values.append(value)
        grads.append(grad)
        if explore > 0 and rng.random() < explore:
            moves = game.legal_moves(state)
            move = moves[int(rng.integers(len(moves)))]
        else:
            move = line[0]
        state = game.apply(state, move)
        plies += 1
    r = game.result(state)
    result = 0.0 if r is None else float(r) * (1.0 if game.to_move(state) == 0 else -1.0)
    return PlayedGame(values, grads, result + 0.0, plies)  # + 0.0: no -0.0


def game_stream(seed: int, index: int) -> np.random.Generator:
    """The stream of training game ``index``: keyed by the run's seed and the game's number,
    never by the worker that plays it."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def play_batch(args) -> list[np.ndarray]:
    """``map`` unit of work (a Ray task): (game reference, net, depth, lam, seed, indices,
    random_plies, explore, max_plies or None) -> each game's update direction, in ``indices``' order."""
    ref, net, depth, lam, seed, indices, random_plies, explore, max_plies = args
    game = resolve_game(ref)
    return [update(self_play(game, net, depth, game_stream(seed, i), random_plies, explore, max_plies), lam,
                   len(net.genome)) for i in indices]


def batch_step(ref: str, net: Net, depth: int, lam: float, seed: int, ranges: list, random_plies: int,
               explore: float, max_plies: int | None = None, map=map) -> np.ndarray:
    """The summed update direction of the games in ``ranges`` (consecutive (first, last) ranges of
    game numbers), all played with ``net``: one ``map`` task a range, wherever it runs, the
    directions summed in game order (the ranges come back in order)."""
    jobs = [(ref, net, depth, lam, seed, list(range(a, b)), random_plies, explore, max_plies) for a, b in ranges]
    step = np.zeros(len(net.genome))
    for directions in map(play_batch, jobs):
        for direction in directions:
            step += direction
    return step


def train(game, net: Net, games: int, depth: int, alpha: float, lam: float, seed: int, batch: int = 8,
          random_plies: int = 2, explore: float = 0.0, map=map, chunks: int = 1) -> Net:
    """``games`` self-play games, ``batch`` at a time with the same weights (synchronous
    updates: the batch's games may be played anywhere, ``map`` over ``chunks`` ranges), each
    batch's directions summed in game order and applied as ``alpha`` times their sum."""
    genome = np.array(net.genome, dtype=np.float64)
    for start in range(0, games, batch):
        stop = min(start + batch, games)
        cuts = np.linspace(start, stop, min(chunks, stop - start) + 1).astype(int)
        ranges = [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]
        genome += alpha * batch_step(game_ref(game), Net(genome.copy(), net.sizes, net.king), depth, lam, seed, ranges,
                                     random_plies, explore, map=map)
    return Net(genome, net.sizes, net.king)
