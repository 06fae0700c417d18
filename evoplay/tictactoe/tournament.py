"""Head-to-head results between tic-tac-toe players, sampled in batches or exact: the game's
``pair_result``, which ``evoplay.arena.match`` (pairings and round robins for every game) asks.

Every pairing is reported from the side of the player moving first (X): fractions of
X wins, draws and O wins, and X's mean Fogel payoff per game. Sampled pairings draw their
randomness from ``SeedSequence(seed, spawn_key=key)``, so a pairing's result depends on the
seed and its key only, never on which other pairings run beside it.
"""

from __future__ import annotations



from evoplay.arena.match import MAX_BATCHED_GAMES
from evoplay.errors import EvoplayError
from evoplay.tictactoe import engine
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import Player

#: Most games one pairing may sample (memory stays flat, see ``engine.BATCH``).
MAX_GAMES = MAX_BATCHED_GAMES


def check_games(games: int | None) -> None:
    """Refuse a number of games outside 1..MAX_GAMES (None, exact, is fine)."""
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise EvoplayError(f"games must be between 1 and {MAX_GAMES:.0e} per pairing, got {games}")


def pair_result(x_player: Player, o_player: Player, games: int | None = None, rng=None, progress=None) -> dict:
    """X-win / draw / O-win fractions and X's mean Fogel payoff; exact when ``games`` is None.

    ``progress(n)`` is told of every batch of ``n`` sampled games played.
    """
    check_games(games)
    if games is None:
        out = exact.outcome(x_player, o_player)
        fractions = (out.x_win, out.draw, out.o_win)
    else:
        counts = engine.match(x_player, o_player, games, rng, progress)
        fractions = tuple(counts[k] / games for k in ("x_win", "draw", "o_win"))
    x_win, draw, o_win = fractions
    payoff = exact.Outcome(x_win, draw, o_win).payoff()
    return {"games": games, "x_win": x_win, "draw": draw, "o_win": o_win, "x_payoff": payoff}
