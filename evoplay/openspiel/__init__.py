"""OpenSpiel's two-player, zero-sum, perfect-information, deterministic games behind evoplay's
game interface (``evoplay.arena.game.Game``): ``load("connect_four")``, ``eligible_games()``.

Needs open_spiel (``pip install open_spiel``, or the extra ``evoplay[openspiel]``);
``evoplay.openspiel.loading`` imports it only when a game is loaded. The adapter lives in
``game``, the checks of a game string in ``loading``, the per-family tables in ``layouts``.
"""

from evoplay.openspiel.game import OpenSpielGame, bench_moves, load
from evoplay.openspiel.loading import eligible_games

__all__ = ["OpenSpielGame", "bench_moves", "eligible_games", "load"]
