"""Head-to-head results between players, sampled or exact: single pairings and round robins.

Every pairing is reported from the side of the player moving first (X): fractions of
X wins, draws and O wins, and X's mean Fogel payoff per game. Sampled pairings draw their
randomness from ``SeedSequence(seed, spawn_key=key)``, so a pairing's result depends on the
seed and its key only, never on which other pairings run beside it.
"""

from __future__ import annotations

import math


from evoplay.arena.match import keyed_rng
from evoplay.errors import EvoplayError
from evoplay.tictactoe import engine
from evoplay.tictactoe import exact
from evoplay.tictactoe.players import Player, make_player

#: Most games one pairing may sample: at about 10^7 games/s a pairing of 10^10 games
#: takes some twenty minutes on one core (memory stays flat, see ``engine.BATCH``).
MAX_GAMES = 10**10


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


def round_robin(players, games: int | None = None, seed: int = 0, progress=None) -> dict:
    """Every ordered pairing (each player as X against each as O, itself included).

    ``players`` holds spec strings or Player objects; ``games=None`` computes exact
    probabilities. Rows run over X players, then O players, in the order given; the
    pairing ``(i, j)`` samples from the stream keyed ``(i, j)``. ``progress(n)`` is told
    of every batch of ``n`` sampled games played.
    """
    check_games(games)
    built = [make_player(p) if isinstance(p, str) else p for p in players]
    specs = [p if isinstance(p, str) else p.spec for p in players]
    rows = []
    for i, x_player in enumerate(built):
        for j, o_player in enumerate(built):
            rng = None if games is None else keyed_rng(seed, i, j)
            rows.append({"x": specs[i], "o": specs[j], **pair_result(x_player, o_player, games, rng, progress)})
    return {
        "players": specs,
        "exact": games is None,
        "games": games,
        "seed": None if games is None else seed,
        "rows": rows,
    }


def wilson_interval(count: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% with the default ``z``)."""
    p = count / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
