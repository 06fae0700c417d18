"""Checkers as the name ``checkers`` resolves: the rules' game object (``game.CHECKERS``)
with what checkers offers beyond the game interface, attached here so that the rules
import none of it.

- ``players``: its own player specs (``piece-difference``) beside every game's;
- ``openings()``: the 157 three-move ballots' positions, in order (matches start from them);
- ``network_search(state, depth, genome, sizes, king, quiescence)``: the compiled
  alpha-beta with a Blondie24 network at the leaves, the generic search's value and move;
- ``bench_figures(quick, progress)``: perft, leaves per second, seconds per game.
"""

from __future__ import annotations

from evoplay.checkers import bench, openings, players, search
from evoplay.checkers.game import CHECKERS


def _openings() -> list:
    return [s for _, s in openings.ballots()]


def _network_search(state, depth: int, genome, sizes, king: float, quiescence: bool = False):
    return search.search(state, depth, king, quiescence, CHECKERS.quiet_limit, network=(genome, sizes))


CHECKERS.players = players.REGISTRY
CHECKERS.openings = _openings
CHECKERS.network_search = _network_search
CHECKERS.bench_figures = bench.figures
