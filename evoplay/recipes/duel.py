"""Two trials' champions of one game against each other: the duel that the built-in recipes play
when a run's champion among its trials is chosen by a league (``run.champion``, see
``evoplay.framework.league``).

Each champion document becomes the player its player file would be (``build_player``), so
the league judges the champions as ``evoplay export`` hands them out. The pair meets from
``openings`` positions, each from both seats: the game's own openings where it declares
them (``openings``: checkers' ballots, the first ``openings`` of them), else positions
reached by ``OPENING_PLIES`` uniformly random plies from the start, opening ``k`` drawn
from the stream keyed ``(seed, 0, k)`` (the same openings for every pair); a player's own
draws in game ``i`` of a seating come from the stream keyed ``(seed, seating, i)``
(``evoplay.arena.match.pair_result``). A game still on after its ``max_plies`` is a draw. A
game whose matches are computed exactly (``exact``: tic-tac-toe) has each seating computed
exactly from the start instead, for players it can analyse, and no games are sampled.
"""

from __future__ import annotations

from evoplay.arena.game import capability
from evoplay.arena.match import keyed_rng, pair_result
from evoplay.files.playerfile import build_player
from evoplay.games import resolve_game

#: Uniformly random plies that make an opening, for a game that declares no openings of its
#: own: enough that deterministic players meet in different positions, few enough that
#: the opening decides little.
OPENING_PLIES = 2


def openings_of(game, count: int, seed: int) -> list:
    """The ``count`` positions a duel starts from (see the module doc)."""
    declared = capability(game, "openings")
    if declared is not None:
        positions = list(declared())
        return [positions[k % len(positions)] for k in range(count)]
    out = []
    for k in range(count):
        rng = keyed_rng(seed, 0, k)
        state = game.initial()
        for _ in range(OPENING_PLIES):
            if game.result(state) is not None:
                break
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.integers(len(moves))])
        out.append(state if game.result(state) is None else game.initial())  # an opening never ends the game
    return out


def seating(game, first, second, positions: list, seed: int, key: int) -> tuple[dict, int | None]:
    """One seating's first-player win, draw and second-player win fractions, and the games
    sampled (None: computed exactly, where the game can)."""
    if capability(game, "exact"):
        exact = capability(game, "pair_result")(first, second, None, None, None)
        if exact is not None:
            return exact, None
    return pair_result(game, first, second, positions, len(positions), seed, (key,)), len(positions)


def duel(game_ref: str, first: dict, second: dict, openings: int, seed: int) -> dict:
    """The first champion document's ``win``, ``draw`` and ``loss`` fractions against the second,
    over both seats from ``openings`` openings (``games``: how many were played; None where the
    game computed them exactly)."""
    game = resolve_game(game_ref)  # first, so that a user's game is the one the documents name
    a, b = build_player(first, "champion"), build_player(second, "champion")
    positions = openings_of(game, openings, seed)
    as_first, games_first = seating(game, a, b, positions, seed, 1)
    as_second, games_second = seating(game, b, a, positions, seed, 2)
    win = (as_first["x_win"] + as_second["o_win"]) / 2
    draw = (as_first["draw"] + as_second["draw"]) / 2
    loss = (as_first["o_win"] + as_second["x_win"]) / 2
    games = None if games_first is None and games_second is None else (games_first or 0) + (games_second or 0)
    return {"games": games, "win": win, "draw": draw, "loss": loss}
