"""Help, lists and messages for any game: every command's help is game-neutral (defaults per
game come from the games' declared features and `evoplay games` lists them), `evoplay players`
lists every player spec with its parameters, and messages read right ("an openspiel:... player")."""

import json
import re

import click
import pytest
from test_fuzz_cli import run_in_process

from evoplay.arena.game import FEATURES, capability
from evoplay.arena.players import with_article
from evoplay.arena.specs import make_player, registry
from evoplay.cli import cli
from evoplay.errors import SpecError
from evoplay.games import resolve_game

#: A built-in game named in a help text.
GAME_NAMES = re.compile(r"tic-tac-toe|tictactoe|checkers", re.IGNORECASE)
#: Where a help text may name built-in games: the list of them all (or of the references one
#: can give), and the legacy default of a player file that names no game.
LISTS = re.compile(r"(tic-tac-toe|tictactoe) and checkers|tictactoe, checkers, openspiel|else tictactoe", re.IGNORECASE)
#: A help text that names a game while saying what holds for the others is neutral too
#: (defaults per game, stated: "logic for tic-tac-toe, random and mcts for any other game").
OTHERS = re.compile(r"any\s+other\s+game|other\s+games|every\s+other\s+game|any\s+game|a\s+game\s+that", re.IGNORECASE)  # words may wrap
#: Commands and options that are one game's own, and name it: (command, option or None) -> the game.
OWN = {
    ("train", None): "tic-tac-toe",  # its trained baseline players
    ("baselines", None): "tic-tac-toe",
    ("figures", None): "tic-tac-toe",  # published tic-tac-toe programs
    ("report", "league"): "checkers",  # a checkers run's league, duels and versus
    ("report", "depths"): "checkers",
    ("report", "versus"): "checkers",
}


def help_texts():
    """(command, option or None, text) of the main help, every command's and every option's."""
    yield None, None, cli.help or ""
    for name, command in sorted(cli.commands.items()):
        yield name, None, command.help or ""
        for param in command.params:
            if isinstance(param, click.Option):
                yield name, param.name, param.help or ""


def speaking_of_built_ins(texts) -> list[str]:
    """The help texts that name built-in games and no other, outside a game's own command or option."""
    found = []
    for command, option, text in texts:
        named = GAME_NAMES.findall(LISTS.sub("", text))
        if named and not OTHERS.search(text) and (command, option) not in OWN:
            found.append(f"{command} {option or ''}: {text}")
    return found


def test_the_checker_finds_a_help_text_that_speaks_of_the_built_in_games_only():
    issue = "Games per pairing [default: 10000 for tic-tac-toe, 20 for checkers]."  # match --games, as the issue quotes it
    assert speaking_of_built_ins([("match", "games", issue)]) == [f"match games: {issue}"]
    assert speaking_of_built_ins([("game", "vs", "[default: logic for tic-tac-toe; mcts for any other game]"),
                                  ("match", "game_name", "The game: tictactoe, checkers, openspiel:NAME(params)"),
                                  ("train", None, "Train a tic-tac-toe baseline player")]) == []


def test_every_help_text_is_game_neutral_unless_it_is_a_games_own():
    assert speaking_of_built_ins(help_texts()) == []
    for (command, option), game in OWN.items():  # a game's own command or option says whose it is
        texts = [text for c, o, text in help_texts() if (c, o) == (command, option)]
        assert texts and game.lower() in texts[0].lower(), (command, option)


def test_the_defaults_per_game_are_the_games_declared_ones_and_evoplay_games_lists_them():
    options = {(c, o): text for c, o, text in help_texts()}
    for command in ("match", "tournament"):
        assert "[default: the game's own number, which evoplay games lists; 20 where it declares none]" in options[command, "games"]
        assert "evoplay players" in options[command, None]
    assert FEATURES["match_games"].default == 20 and FEATURES["default_opponent"].default == "mcts:sims=1000"
    assert "[default: the game's own, which evoplay games lists; mcts:sims=1000 where it declares none]" in options["game", "vs"]
    code, out, err = run_in_process(["games", "--json"])
    assert code == 0, err
    found = json.loads(out)
    for entry in found["builtin"]:
        game = resolve_game(entry["ref"])
        assert {key: entry[key] for key in ("match_games", "default_opponent", "exact")} == {
            key: capability(game, key) for key in ("match_games", "default_opponent", "exact")}
    assert found["any_game"] == {"match_games": 20, "default_opponent": "mcts:sims=1000", "exact": False}


def test_evoplay_players_lists_every_games_players_with_their_parameters():
    code, out, err = run_in_process(["players"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Every game's players (NAME or NAME:key=value,...; shown with every parameter at its default):"
    assert "  mcts:sims=1000,c=2,solve=1" in lines and "      sims in [1, 1000000]; c in [0, 100]; solve in [0, 1]" in lines
    assert "  alpha-beta:depth=4" in lines and "      depth in [1, 64], or full (to the end of the game)" in lines
    about = lines[lines.index("  mcts:sims=1000,c=2,solve=1") + 1]
    assert "sims simulations per move, exploration constant c, and with solve=1 proven wins and losses" in about
    assert "depth=full solves a small game to its end" in lines[lines.index("  alpha-beta:depth=4") + 1]
    assert lines[-2:] == ["A game's own players: evoplay players --game REF.",
                          "Player files: PATH.json (a player file names its game), or RUN_DIR for a run's champion; "
                          "human: you, at the terminal (evoplay game)."]
    code, out, err = run_in_process(["players", "--game", "checkers"])
    assert code == 0, err
    assert "Players of checkers only:\n  piece-difference:depth=4,king=1.5\n" in out and "depth in [1, 12]; king in [0, 100]" in out


@pytest.mark.parametrize("ref", ["tictactoe", "checkers", "examples/games/hexapawn.py:Hexapawn"])
def test_every_listed_spec_is_the_spec_of_the_player_it_makes(ref):
    """The listing shows each player with every parameter at its default: exactly the canonical
    spec of the player that the bare name makes, for every game's players and the game's own."""
    code, out, err = run_in_process(["players", "--game", ref, "--json"])
    assert code == 0, err
    found = json.loads(out)
    game = resolve_game(ref)
    listed = found["every_game"] + found["own"]
    assert {entry["name"] for entry in listed} == set(registry(game))
    for entry in listed:
        assert make_player(game, entry["name"]).spec == entry["spec"], entry
        assert make_player(game, entry["spec"]).spec == entry["spec"]


def test_tic_tac_toe_declares_its_own_players_as_players_of_the_game_interface():
    """Before, tic-tac-toe's own players were read only by its make_player: the spec reader of
    every game refused them ("unknown player 'logic': not a tictactoe player")."""
    import numpy as np

    from evoplay.tictactoe import board
    from evoplay.tictactoe.players import make_player as table_player

    game = resolve_game("tictactoe")
    assert list(capability(game, "players")) == ["random", "first-open", "logic", "minimax", "softmax"]
    logic = make_player(game, "logic:eps=0.3")
    codes = np.flatnonzero(board.LEGAL.any(1))[:200]
    for code in codes:
        got = dict(logic.distribution(int(code)))
        row = table_player("logic:eps=0.3").probs(np.array([code]))[0]
        assert got == {int(m): float(row[m]) for m in np.flatnonzero(row > 0)}


def test_a_message_names_a_game_with_the_article_it_is_read_with():
    assert [with_article(w) for w in ("openspiel:hex", "checkers", "othello", "examples/g.py:G", "/abs/g.py:G",
                                      "user_game.py:G", "eight", "hexapawn")] == [
        "an openspiel:hex", "a checkers", "an othello", "an examples/g.py:G", "a /abs/g.py:G", "a user_game.py:G",
        "an eight", "a hexapawn"]
    with pytest.raises(SpecError, match=r"^unknown player 'logic': not a checkers player \(known: "):
        make_player(resolve_game("checkers"), "logic")
    pytest.importorskip("pyspiel")
    with pytest.raises(SpecError, match=r"^unknown player 'logic': not an openspiel:tic_tac_toe player \(known: "):
        make_player(resolve_game("openspiel:tic_tac_toe"), "logic")


@pytest.mark.parametrize("ref", ["tictactoe", "checkers", "openspiel:connect_four"])
def test_every_listed_player_says_what_it_is(ref):
    """`evoplay players --game checkers` listed openspiel-mcts with no description."""
    from evoplay.cli.catalog import player_catalog

    listed = player_catalog(resolve_game(ref))
    assert all(entry["about"] for entry in listed["every_game"] + listed["own"]), listed


def test_every_option_of_every_command_is_described():
    """`game --help` left --first undescribed."""
    bare = [f"{name} {param.opts[0]}" for name, command in cli.commands.items() for param in command.params
            if isinstance(param, click.Option) and not param.help and param.opts[0] not in ("--help",)]
    assert bare == []
