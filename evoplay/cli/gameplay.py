"""match, tournament, analyze and game for every game (``--game REF``).

Games start from the game's openings when it offers them (checkers: the three-move
ballots; game ``i`` of a seating from opening ``i mod n``), else from its initial position,
so deterministic players meet in varied positions; ``--seats both`` plays each opening
from both sides. Players are ``evoplay.arena.specs``'s: ``random`` and ``mcts`` for every
game, the game's own, and player files of that game. A game that plays a pairing in
batches or exactly (tic-tac-toe's ``pair_result``, and ``--exact`` where it says ``exact``)
does so on the same path, through ``evoplay.arena.match.pair_result``; ``analyze`` of
players a game analyses exactly (its ``exact_analysis``: tic-tac-toe's table players) is
printed by ``evoplay.cli.play``, any other here.
"""

from __future__ import annotations

import sys

import click
import numpy as np

from evoplay.arena.match import MAX_GAMES, pair_result, play_game, round_robin
from evoplay.arena.players import TerminalHuman, side_with_pieces
from evoplay.cli.progress import Progress
from evoplay.arena.specs import is_path, make_player
from evoplay.errors import EvoplayError, SpecError
from evoplay.arena.game import capability, game_ref
from evoplay.files.playerfile import LEGACY_GAME
from evoplay.games import GameError, check_text, is_code_ref, resolve_game, unnamed_game



def choose_game(ref: str | None, specs=()):
    """The game of a command: ``--game REF`` if given, else the game the first player file or
    run directory among ``specs`` names, else tic-tac-toe (``LEGACY_GAME``)."""
    if ref is not None:
        return resolve_game(ref)
    for spec in specs:
        if isinstance(spec, str) and spec.strip() and is_path(spec):
            try:
                named = file_game(spec.strip())
                if named is not None:
                    return resolve_game(named)
            except GameError as e:
                raise GameError(f"player file {spec.strip()}: {e}") from None
    return resolve_game(LEGACY_GAME)


def file_game(spec: str) -> str | None:
    """The game reference a player file (or a run directory's champion) names, if it names one."""
    from evoplay.errors import PlayerFileError
    from evoplay.files.playerfile import document_game, player_path, read_envelope

    try:
        doc = read_envelope(player_path(spec))
    except PlayerFileError:
        return None  # the player's own loading says what is wrong
    game = document_game(doc)
    check_text(game)  # before it is written in a message
    if is_code_ref(game):  # a data file never makes evoplay load code by itself
        raise SpecError(f"player file {spec} {unnamed_game(game, doc['architecture'].get('game_sha256'))}")
    return game


def domain(game):
    """The game's opening states, default games per pairing and default opponent."""
    openings = capability(game, "openings")
    states = list(openings()) if openings is not None else [game.initial()]
    return states, capability(game, "match_games"), capability(game, "default_opponent")


def make_players(game, specs) -> list:
    return [make_player(game, s) for s in specs]


def _games(game, games: int) -> int:
    """``games`` per pairing, checked before any is played: a game that plays matches in
    batches (``pair_result``: tic-tac-toe) takes as many as ``--games`` allows, any other
    at most ``MAX_GAMES``, one game at a time."""
    if capability(game, "pair_result") is None and not 1 <= games <= MAX_GAMES:
        raise EvoplayError(f"--games must be in 1..{MAX_GAMES:,} for this game, got {games}")
    return games


def match(game, player_a, player_b, games, seed, seatings, exact, as_json, echo_json, text_lines):
    """``evoplay match`` for every game: each seating's results from A's side (win, draw and
    loss fractions, and A's payoff where the game scores one), exact with ``exact``."""
    openings, default_games, _ = domain(game)
    games = None if exact else _games(game, games or default_games)
    a, b = make_players(game, (player_a, player_b))
    name = game_ref(game)
    results = []
    with Progress(games and games * len(seatings)) as progress:
        for first in seatings:
            x, o = (a, b) if first == "a" else (b, a)
            r = pair_result(game, x, o, openings, games, seed, (0 if first == "a" else 1,), progress)
            a_win, b_win = (r["x_win"], r["o_win"]) if first == "a" else (r["o_win"], r["x_win"])
            results.append({"first": first, "games": games, "a_win": a_win, "draw": r["draw"], "b_win": b_win,
                            "a_payoff": r["x_payoff"] if first == "a" else None})
    if as_json:
        echo_json({"game": name, "a": player_a, "b": player_b, "exact": exact, "openings": len(openings), "results": results})
        return
    click.echo(f"A = {player_a}\nB = {player_b}")
    if not exact:
        start = (f"game i starts from opening i mod {len(openings)} (the game's {len(openings)} openings)"
                 if len(openings) > 1 else "every game starts from the initial position")
        click.echo(f"{name}: {start}")
    for result in results:
        click.echo("\n".join(text_lines(result, seed, game.side_names[0])))


def tournament(game, specs, games, seed, exact=False):
    """``evoplay tournament`` for every game: the round robin's table, exact with ``exact``."""
    openings, default_games, _ = domain(game)
    games = None if exact else _games(game, games or default_games)
    players = make_players(game, specs)
    with Progress(games and games * len(specs) ** 2) as progress:
        return round_robin(game, players, list(specs), openings, games, seed, progress)


def play(game, vs, first, seed):
    """One game against a computer player at the terminal, from the initial position: the
    game's own ``make_player`` builds the computer player where it has one (tic-tac-toe's
    table players), the same loop and the same terminal human for every game."""
    _, _, default_vs = domain(game)
    vs = default_vs if vs is None else vs
    if vs.strip() == "human":
        raise SpecError("--vs needs a computer player, not 'human'")
    ai = make_player(game, vs)
    human = TerminalHuman(game, write=click.echo)
    players = (human, ai) if first == "human" else (ai, human)
    mine = 0 if first == "human" else 1
    click.echo(f"You play {side_with_pieces(game, game.initial(), mine)} against {vs}. Ctrl-D or Ctrl-C quits.")

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
    limit = " (the game's limit)" if game.result(last) is None else ""
    click.echo({1: "You win!", 0: f"Draw after {plies} plies{limit}.", -1: f"{vs} wins."}[score])


def analyze(game, spec: str, opponent: str | None, openings: int | None, seed: int, as_json: bool, echo_json):
    """``analyze`` for a game without an exact analysis: the player against each opponent
    (default: the game's yardstick players, random and mcts) from both seats over random
    openings (``evoplay.recipes.yardstick_table``), the mean score with its 95% interval."""
    from evoplay.recipes import yardstick_table as table

    player = make_player(game, spec)
    opponents = table.opponents() if opponent is None else [opponent]
    for other in opponents:
        make_player(game, other)  # a bad spec is refused before any game is played
    openings = openings or table.OPENINGS
    with Progress(2 * openings * len(opponents)) as progress:
        rows = [table.play(game, player, other, openings, table.RANDOM_PLIES, seed, progress=progress)
                for other in opponents]
    if as_json:
        echo_json({"player": spec, "game": game_ref(game), "openings": openings, "random_plies": table.RANDOM_PLIES,
                   "seed": seed, "opponents": rows})
        return
    width = max(len(r["opponent"]) for r in rows) + 1
    click.echo(f"player: {spec}\ngame:   {table.title(game)}")
    click.echo(f"against each opponent from both seats, {table.counted(openings, 'random opening')} of up to "
               f"{table.counted(table.RANDOM_PLIES, 'ply')} (seed {seed}): mean score per game (+1 win, 0 draw, -1 loss) "
               "and its 95% interval")
    for r in rows:
        click.echo(f"  {r['opponent'] + ':':<{width}} {table.counted(r['win'], 'win')}, {table.counted(r['draw'], 'draw')}, "
                   f"{table.counted(r['loss'], 'loss')}; {table.interval_text(r)}")
