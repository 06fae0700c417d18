"""Exact analysis: probabilities propagated over the game tree, no sampling.

Built on the same board tables and player distributions as the batched engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.tictactoe import board
from evoplay.tictactoe.players import Player, minimax_optimal_moves

#: Fogel's payoff per game for the player moving first: win, draw, loss.
FOGEL_PAYOFF = (1.0, 0.0, -10.0)


@dataclass(frozen=True)
class Outcome:
    """Exact probabilities of the three results of a game."""

    x_win: float
    draw: float
    o_win: float

    def payoff(self, table=FOGEL_PAYOFF) -> float:
        """Expected payoff per game of X (the side moving first)."""
        win, draw, loss = table
        return win * self.x_win + draw * self.draw + loss * self.o_win


def _tables(player: Player) -> np.ndarray:
    table = getattr(player, "table", None)
    return table if table is not None else player.probs(np.arange(board.N_CODES))


def reach_probabilities(x_player: Player, o_player: Player, start: int = 0) -> np.ndarray:
    """Probability that a game between the two players passes through each board.

    The game starts from board code ``start`` (the empty board by default).
    """
    tx, to = _tables(x_player), _tables(o_player)
    mass = np.zeros(board.N_CODES)
    mass[start] = 1.0
    for n in range(int(board.N_MARKS[start]), 9):
        layer = np.flatnonzero((board.N_MARKS == n) & (mass > 0) & (board.OUTCOME == board.ONGOING))
        if layer.size == 0:
            break
        probs = np.where((board.TO_MOVE[layer] == board.X)[:, None], tx[layer], to[layer])
        flow = mass[layer, None] * probs
        ok = flow > 0
        np.add.at(mass, board.CHILD[layer][ok], flow[ok])
    return mass


def outcome(x_player: Player, o_player: Player, start: int = 0) -> Outcome:
    """Exact X-win / draw / O-win probabilities of ``x_player`` (first) against ``o_player``.

    From board code ``start`` (the empty board by default) with the side to move read off
    it; a finished board gives its own result with probability 1.
    """
    mass = reach_probabilities(x_player, o_player, start)
    return Outcome(
        x_win=float(mass[board.OUTCOME == board.X_WIN].sum()),
        draw=float(mass[board.OUTCOME == board.DRAW].sum()),
        o_win=float(mass[board.OUTCOME == board.O_WIN].sum()),
    )


def expected_payoff(player: Player, opponent: Player, table=FOGEL_PAYOFF) -> float:
    """Exact expected Fogel payoff per game of ``player`` moving first against ``opponent``."""
    return outcome(player, opponent).payoff(table)


def best_response_payoff(opponent: Player, table=FOGEL_PAYOFF, first: bool = True) -> float:
    """The highest expected payoff any policy can get against ``opponent`` (expectimax).

    With ``first`` the responder is X (moves first), as in Fogel's experiment.
    """
    win, draw, loss = table
    me = board.X if first else board.O
    value = np.zeros(board.N_CODES)
    value[board.OUTCOME == board.DRAW] = draw
    value[board.OUTCOME == (board.X_WIN if first else board.O_WIN)] = win
    value[board.OUTCOME == (board.O_WIN if first else board.X_WIN)] = loss
    opp = _tables(opponent)
    for n in range(8, -1, -1):
        layer = np.flatnonzero((board.N_MARKS == n) & (board.OUTCOME == board.ONGOING))
        kids = value[np.maximum(board.CHILD[layer], 0)]
        legal = board.LEGAL[layer]
        best = np.where(legal, kids, -np.inf).max(1)
        mean = (np.where(legal, kids, 0.0) * opp[layer]).sum(1)
        value[layer] = np.where(board.TO_MOVE[layer] == me, best, mean)
    return float(value[0])


def unbeatable(player: Player, as_x: bool = True) -> bool:
    """True when no line of opponent moves beats ``player`` in the given seat.

    The player's moves are those it plays with positive probability; the opponent may
    play any legal move.
    """
    probs = _tables(player)
    me = board.X if as_x else board.O
    lost = board.O_WIN if as_x else board.X_WIN
    seen = np.zeros(board.N_CODES, dtype=bool)
    seen[0] = True
    for n in range(9):
        layer = np.flatnonzero((board.N_MARKS == n) & seen & (board.OUTCOME == board.ONGOING))
        moves = np.where((board.TO_MOVE[layer] == me)[:, None], probs[layer] > 0, board.LEGAL[layer])
        seen[board.CHILD[layer][moves]] = True
    return not bool((seen & (board.OUTCOME == lost)).any())


def minimax_agreement(player: Player, mark: int | None = None) -> float:
    """Share of reachable unfinished boards where the player's move is minimax-optimal.

    Optimal means it keeps the game-theoretic value (win / draw / loss). For a random
    player this is the probability mass on optimal moves, averaged over boards. ``mark``
    restricts to boards with X (1) or O (2) to move; None takes both.
    """
    codes = board.DECISION_CODES
    if mark is not None:
        codes = codes[board.TO_MOVE[codes] == mark]
    probs = _tables(player)[codes]
    good = minimax_optimal_moves()[codes]
    return float((probs * good).sum(1).mean())
