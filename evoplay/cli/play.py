"""Commands that pit players against each other: match, tournament, analyze, game."""

from __future__ import annotations

import json

import click

from evoplay.errors import SpecError
from evoplay.arena.specs import make_player as any_player
from evoplay.framework.stats import wilson_interval
from evoplay.arena.match import MAX_BATCHED_GAMES as MAX_GAMES
from evoplay.cli import gameplay
from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, game_option
from evoplay.arena.game import capability, game_ref

#: --seats choice -> which player moves first in each reported result.
SEATS = {"a-first": ("a",), "b-first": ("b",), "both": ("a", "b")}
#: Stream key of each seating, so ``--seats b-first`` repeats the b-first half of ``both``.
SEAT_KEY = {"a": 0, "b": 1}
PAYOFF_NOTE = "Fogel payoff: +1 win, 0 draw, -10 loss"

games_option = click.option(
    "--games", type=BoundedInt(1, MAX_GAMES), default=None,
    help=f"Games per pairing, at most {MAX_GAMES:.0e}, from the game's openings where it declares them [default: the "
    "game's own number, which evoplay games lists; 20 where it declares none].",
)
#: Seeds accepted by every command (numpy's SeedSequence takes any non-negative integer).
SEED_TYPE = BoundedInt(0, 2**64 - 1)
seed_option = click.option("--seed", type=SEED_TYPE, default=0, show_default=True, help="Run seed.")
exact_option = click.option("--exact", is_flag=True, help="Exact probabilities instead of sampled games, for a game "
                            "with an exact analysis (evoplay games says which).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _echo_json(obj):
    click.echo(json.dumps(obj, indent=1))


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _no_exact(exact: bool, game):
    """Refuse ``--exact`` for a game without an exact analysis."""
    if exact and not capability(game, "exact"):
        raise SpecError(f"--exact needs a game with an exact analysis (evoplay games says which); {game_ref(game)} "
                        "plays sampled games")


# ---------------------------------------------------------------- match


def _named(side: str | None) -> str:
    """`` (X)`` after "moves first" where the side has a name of its own."""
    return "" if side in (None, "first") else f" ({side})"


def side_words(game) -> tuple[str, str, str]:
    """How the sides are named in a command's output: "as X (moves first)", "as O" and "as X",
    or for a game whose sides have no names of their own, "moving first", "moving second" and
    "moving first"."""
    first, second = game.side_names
    if (first, second) == ("first", "second"):
        return "moving first", "moving second", "moving first"
    return f"as {first} (moves first)", f"as {second}", f"as {first}"


def _match_text(result: dict, seed: int, first_side: str | None) -> list[str]:
    first = result["first"].upper()
    rows = (("A wins", result["a_win"]), ("draws", result["draw"]), ("B wins", result["b_win"]))
    n = result["games"]
    if n is None:
        lines = [f"{first} moves first{_named(first_side)}: exact probabilities"]
        lines += [f"  {name:<7} {p:.5f}  {_pct(p):>6}" for name, p in rows]
    else:
        w = max(6, len(str(n)))
        lines = [f"{first} moves first{_named(first_side)}: {n} games, seed {seed}",
                 f"  result  {'count':>{w}}       %   95% interval"]
        for name, p in rows:
            count = round(p * n)
            lo, hi = wilson_interval(count, n)
            lines.append(f"  {name:<7} {count:>{w}}  {_pct(p):>6}   [{_pct(lo)}, {_pct(hi)}]")
    if result["a_payoff"] is not None:
        kind = "expected" if n is None else "mean"
        lines.append(f"  A's {kind} payoff per game: {result['a_payoff']:+.4f} ({PAYOFF_NOTE})")
    return lines


@cli.command()
@click.argument("player_a")
@click.argument("player_b")
@games_option
@seed_option
@click.option("--seats", type=click.Choice(list(SEATS)), default="both", show_default=True, help="Who moves first.")
@exact_option
@json_option
@game_option()
def match(player_a, player_b, games, seed, seats, exact, as_json, game_name):
    """Play PLAYER_A against PLAYER_B (player specs, player files or run directories).

    evoplay players lists the specs of every game and, with --game, a game's own.
    """
    game = gameplay.choose_game(game_name, (player_a, player_b))
    _no_exact(exact, game)
    return gameplay.match(game, player_a, player_b, games, seed, SEATS[seats], exact, as_json, _echo_json, _match_text)


# ---------------------------------------------------------------- tournament


def _tournament_grid(table: dict, as_x: bool) -> list[str]:
    """Rows of win/draw/loss percentages of each row player against each column player."""
    cells = {}
    for r in table["rows"]:
        if as_x:
            cells[r["x"], r["o"]] = (r["x_win"], r["draw"], r["o_win"])
        else:
            cells[r["o"], r["x"]] = (r["o_win"], r["draw"], r["x_win"])
    specs = table["players"]
    labels = dict(zip(specs, tournament_labels(specs)))
    text = {k: "/".join(f"{100 * p:.1f}" for p in v) for k, v in cells.items()}
    width = max([len(s) for s in labels.values()] + [len(t) for t in text.values()]) + 2
    lines = [" " * width + "".join(f"{labels[s]:>{width}}" for s in specs)]
    for row in specs:
        lines.append(f"{labels[row]:<{width}}" + "".join(f"{text[row, col]:>{width}}" for col in specs))
    return lines


#: Longest player spec written in a tournament's grid; longer ones (a player file's path) are
#: written P1, P2, ... there and in full in a legend above, so that a row fits a terminal.
GRID_LABEL = 16


def tournament_labels(specs) -> list[str]:
    """The players' labels in the grid: their specs, or P1, P2, ... where one is longer than ``GRID_LABEL``."""
    return list(specs) if all(len(s) <= GRID_LABEL for s in specs) else [f"P{i + 1}" for i in range(len(specs))]


@cli.command()
@click.argument("players", nargs=-1, required=True)
@games_option
@seed_option
@exact_option
@json_option
@game_option()
def tournament(players, games, seed, exact, as_json, game_name):
    """Round robin: every player moving first against every player moving second, itself included.

    PLAYERS are player specs, player files or run directories (evoplay players lists the specs).
    """
    game = gameplay.choose_game(game_name, players)
    _no_exact(exact, game)
    table = gameplay.tournament(game, players, games, seed, exact)
    games = table["games"]
    if as_json:
        _echo_json(table)
        return
    first, second, first_again = side_words(game)
    how = "exact probabilities" if exact else f"{games} games per pairing, seed {seed}"
    click.echo(f"Round robin, {how}. Cells: win/draw/loss % of the row player.")
    labels = tournament_labels(players)
    if labels != list(players):
        click.echo("\n".join(f"{label} = {spec}" for label, spec in zip(labels, players)))
    click.echo(f"Row player {first} against column player {second}:")
    click.echo("\n".join(_tournament_grid(table, as_x=True)))
    click.echo(f"Row player {second} against column player {first_again}:")
    click.echo("\n".join(_tournament_grid(table, as_x=False)))


# ---------------------------------------------------------------- analyze


@cli.command()
@click.argument("player")
@click.option("--opponent", default=None, help="The opponent [default: logic for an exact analysis (tic-tac-toe's table players); "
              "random and mcts:sims=100 for any other game].")
@click.option("--openings", type=BoundedInt(1, 10_000), default=None,
              help="A sampled analysis (a game or players without an exact one): random openings, each played "
              "from both seats [default: 50].")
@seed_option
@json_option
@game_option()
def analyze(player, opponent, openings, seed, as_json, game_name):
    """Analyse PLAYER (a spec, player file or run directory) against an opponent.

    Tic-tac-toe's table players exactly: payoff moving first, best-response ceiling,
    soundness. Any other game or player (mcts, alpha-beta): wins, draws and losses against
    each opponent from both seats over random openings, the mean score and its 95% interval
    (inside [-1, 1]). The game is the one PLAYER's file names, or --game.
    """
    game = gameplay.choose_game(game_name, (player,))
    facts = exact_facts(game, player, "logic" if opponent is None else opponent)
    if facts is None:  # players without an exact analysis: sampled games, as for any game
        return gameplay.analyze(game, player, opponent, openings, seed, as_json, _echo_json)
    opponent = "logic" if opponent is None else opponent
    if openings is not None:
        raise SpecError(f"--openings is for a sampled analysis; {game_ref(game)}'s analysis of these players is exact")
    by_side = [_pct(share) for share in facts.pop("minimax_agreement_by_side")]
    if as_json:
        _echo_json({"player": player, "opponent": opponent, **facts})
        return
    yes = {True: "yes", False: "no"}
    click.echo(
        "\n".join(
            [
                f"player:   {player}",
                f"opponent: {opponent}",
                f"expected payoff per game moving first: {facts['expected_payoff']:+.6f} ({PAYOFF_NOTE})",
                f"best-response ceiling against it:      {facts['best_response_payoff']:+.6f}",
                f"unbeatable as X: {yes[facts['unbeatable_as_x']]}; as O: {yes[facts['unbeatable_as_o']]}",
                f"minimax agreement: {_pct(facts['minimax_agreement'])} of reachable positions "
                f"(X to move {by_side[0]}, O to move {by_side[1]})",
            ]
        )
    )


def exact_facts(game, player: str, opponent: str) -> dict | None:
    """The game's exact analysis of the two players (``exact_analysis``), or None where the
    game has none or these players have none (they are analysed over sampled games). Both
    are built first, so a bad spec or another game's player is refused as that."""
    analysis = capability(game, "exact_analysis")
    return None if analysis is None else analysis(*(any_player(game, spec) for spec in (player, opponent)))


# ---------------------------------------------------------------- game


@cli.command()
@click.option("--vs", "vs", default=None, help="The computer player, any player spec (evoplay players lists them) "
              "[default: the game's own, which evoplay games lists; mcts:sims=1000 where it declares none].")
@click.option("--first", type=click.Choice(["human", "ai"]), default="human", show_default=True,
              help="Who moves first: you (human) or the computer player (ai).")
@click.option("--seed", type=SEED_TYPE, default=None, help="Seed of the computer's moves.")
@game_option()
def game(vs, first, seed, game_name):
    """Play one game against a computer player at the terminal."""
    game = gameplay.choose_game(game_name, (vs,) if vs else ())
    return gameplay.play(game, vs, first, seed)
