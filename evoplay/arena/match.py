"""Games, matches and round robins between players of one game, from a list of opening states.

A match plays game ``i`` of a seating from opening ``i mod len(openings)`` with the
random stream keyed ``(seat, i)`` of the seed, so deterministic players meet in varied
positions and every game repeats exactly. Results are scored for the side moving first.
"""

from __future__ import annotations

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.arena.game import capability, game_ref, ply_limit
from evoplay.arena.gamecheck import RAISED, fault


def keyed_rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def random_opening(game, rng: np.random.Generator, plies: int):
    """A position after up to ``plies`` uniform random plies from the start (how many, drawn from
    ``rng`` too); the initial position where those plies ended the game."""
    state = game.initial()
    for _ in range(int(rng.integers(plies + 1))):
        if game.result(state) is not None:
            break
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.integers(len(moves))])
    return game.initial() if game.result(state) is not None else state


def play_game(game, first, second, state, rng, on_move=None, max_plies: int | None = None) -> tuple[int, int, object]:
    """Play to the end: the score of the side moving first (+1, 0, -1), the plies, the last state.

    The one loop that plays games for matches, tournaments, yardsticks and evolution: a game
    still on after ``ply_limit(game)`` plies, or after ``max_plies`` where a caller's own cap
    is smaller (a recipe's), is a draw. ``on_move(state, move)`` is told of every move before
    it is made. A user's game that breaks the protocol or raises during play is refused in one
    line naming its file, line and method and the position (``evoplay.arena.gamecheck.fault``).
    """
    limit = ply_limit(game) if max_plies is None else min(max_plies, ply_limit(game))
    players = (first, second)
    plies = 0
    try:
        while (r := game.result(state)) is None and plies < limit:
            side = game.to_move(state)
            if side not in (0, 1):
                raise ValueError(f"to_move gave {side!r}")
            move = players[side].choose(state, rng)
            if on_move is not None:
                on_move(state, move)
            state = game.apply(state, move)
            plies += 1
        if r is None:
            return 0, plies, state
        side = game.to_move(state)
        if r not in (-1, 0, 1) or side not in (0, 1):
            raise ValueError(f"result {r!r} with to_move {side!r}")
    except EvoplayError:
        raise
    except RAISED as e:
        refusal = fault(game, state, plies, e)
        if refusal is None:
            raise
        raise refusal from None
    return (r if side == 0 else -r), plies, state


def pair_result(game, first, second, openings: list, games: int | None, seed: int, key: tuple = (),
                progress=None) -> dict:
    """Fractions of first-player wins, draws and second-player wins over ``games`` games
    (exact probabilities with ``games=None`` where the game can compute them).

    A game that plays matches faster than one game at a time offers ``pair_result(first,
    second, games, rng, progress)`` (tic-tac-toe: batched over its move tables, or exact);
    it gets the same keyed stream and may decline (None) players it cannot batch.
    """
    batched = capability(game, "pair_result")
    if batched is not None:
        r = batched(first, second, games, None if games is None else keyed_rng(seed, *key), progress)
        if r is not None:
            return r
    if games is None:
        raise EvoplayError(f"{game_ref(game)} has no exact analysis for these players: give a number of games")
    if not 1 <= games <= MAX_GAMES:
        raise EvoplayError(f"games must be between 1 and {MAX_GAMES} per pairing here, got {games}")
    scores = []
    for i in range(games):
        scores.append(play_game(game, first, second, openings[i % len(openings)], keyed_rng(seed, *key, i))[0])
        if progress is not None:
            progress(1)
    scores = np.array(scores)
    return {"games": games, "x_win": float(np.mean(scores == 1)), "draw": float(np.mean(scores == 0)),
            "o_win": float(np.mean(scores == -1)), "x_payoff": None}


#: Most games one pairing may play: games here are played one by one.
MAX_GAMES = 100_000
#: Most games one pairing may ask for where the game plays a pairing in batches (its
#: ``pair_result``: tic-tac-toe's, at about 10^7 games/s, 10^10 in some twenty minutes on
#: one core, memory flat); the bound of every command's ``--games``.
MAX_BATCHED_GAMES = 10**10


def round_robin(game, players: list, specs: list, openings: list, games: int | None, seed: int, progress=None) -> dict:
    """Every player first against every player second, itself included; pairing ``(i, j)``
    plays from the stream keyed ``(i, j)`` of the seed."""
    rows = []
    for i, a in enumerate(players):
        for j, b in enumerate(players):
            rows.append({"x": specs[i], "o": specs[j], **pair_result(game, a, b, openings, games, seed, (i, j), progress)})
    return {"game": game_ref(game), "players": specs, "exact": games is None, "games": games,
            "seed": None if games is None else seed, "rows": rows}
