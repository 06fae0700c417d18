"""match, tournament and game for the games other than tic-tac-toe (``--game checkers``).

Games start from the game's committed openings (game ``i`` of a seating from opening
``i mod n``), so deterministic players meet in varied positions; ``--seats both`` plays
each opening from both sides. Tic-tac-toe keeps its batched and exact paths in ``play``.
"""

from __future__ import annotations

import importlib
import sys

import click
import numpy as np

from evoplay.arena.match import MAX_GAMES, pair_result, play_game, round_robin
from evoplay.arena.players import TerminalHuman
from evoplay.errors import EvoplayError, SpecError
from evoplay.games import get_game

#: game -> (player factory "module:function", openings "module:function", default games, default --vs)
DOMAINS = {
    "checkers": ("evoplay.checkers.players:make_player", "evoplay.checkers.openings:ballots", 20, "piece-difference"),
}


def _load(path: str):
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def domain(name: str):
    """The game, its player factory, its opening states, default games and default opponent."""
    players, openings, games, vs = DOMAINS[name]
    return get_game(name), _load(players), [s for _, s in _load(openings)()], games, vs


def make_players(name: str, specs) -> list:
    make = domain(name)[1]
    return [make(s) for s in specs]


def _checked_games(games: int) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise EvoplayError(f"--games must be in 1..{MAX_GAMES:,} for this game, got {games}")


def match(name, player_a, player_b, games, seed, seats, as_json, seatings, echo_json, text_lines):
    game, _, openings, default_games, _ = domain(name)
    games = games or default_games
    _checked_games(games)
    a, b = make_players(name, (player_a, player_b))
    results = []
    for first in seatings:
        x, o = (a, b) if first == "a" else (b, a)
        r = pair_result(game, x, o, openings, games, seed, key=(0 if first == "a" else 1,))
        a_win, b_win = (r["x_win"], r["o_win"]) if first == "a" else (r["o_win"], r["x_win"])
        results.append({"first": first, "games": games, "a_win": a_win, "draw": r["draw"], "b_win": b_win, "a_payoff": None})
    if as_json:
        echo_json({"game": name, "a": player_a, "b": player_b, "exact": False, "openings": len(openings), "results": results})
        return
    click.echo(f"A = {player_a}\nB = {player_b}\n{name}: game i starts from opening i mod {len(openings)}")
    for result in results:
        click.echo("\n".join(text_lines(result, seed, game.side_names[0])))


def tournament(name, specs, games, seed):
    game, _, openings, default_games, _ = domain(name)
    games = games or default_games
    _checked_games(games)
    return round_robin(game, make_players(name, specs), list(specs), openings, games, seed)


def play(name, vs, first, seed):
    """One game against a computer player at the terminal, from the initial position."""
    game, make, _, _, default_vs = domain(name)
    vs = vs or default_vs
    if vs.strip() == "human":
        raise SpecError("--vs needs a computer player, not 'human'")
    ai = make(vs)
    human = TerminalHuman(game, write=click.echo)
    players = (human, ai) if first == "human" else (ai, human)
    mine = 0 if first == "human" else 1
    click.echo(f"You play {game.side_names[mine]} against {vs}. Ctrl-D or Ctrl-C quits.")

    def announce(state, move):
        if players[game.to_move(state)] is ai:
            click.echo(f"{vs} plays {game.move_text(state, move)}.")

    try:
        score, plies, last = play_game(game, *players, game.initial(), np.random.default_rng(seed), announce)
    except EOFError:
        click.echo("\nEnd of input: game abandoned.")
        return
    except KeyboardInterrupt:
        click.echo("\nInterrupted: game abandoned.")
        sys.exit(130)
    click.echo("\n" + game.render(last))
    score = score if mine == 0 else -score
    click.echo({1: "You win!", 0: f"Draw after {plies} plies.", -1: f"{vs} wins."}[score])
