"""OpenSpiel's two-player, zero-sum, perfect-information, deterministic games behind evoplay's
game interface (``evoplay.arena.game.Game``): ``load("connect_four")``, ``eligible_games()``.

Needs open_spiel (``pip install open_spiel``, or the extra ``evoplay[openspiel]``); the
adapter's module imports it only when a game is loaded.
"""

from evoplay.openspiel.game import OpenSpielGame, bench_moves, eligible_games, load

__all__ = ["OpenSpielGame", "bench_moves", "eligible_games", "load"]
