"""A user's game that breaks the protocol or never ends (issue 40): every game is bounded by
its ``max_plies`` (default ``DEFAULT_MAX_PLIES``), a draw past it; a break is refused in one
line naming the file, line and method, by the conformance run when the game is resolved or
at the move in play; user code that exits while loading is one line too."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess

import numpy as np
import pytest

from evoplay.arena.match import play_game
from evoplay.arena.players import RandomPlayer
from evoplay.errors import EvoplayError
from evoplay.arena.game import DEFAULT_MAX_PLIES, play_out, ply_limit
from evoplay.games import GameError, resolve_game

from support.cli import EVOPLAY, problem, refused, run_in_process
from support.nowork import forbid_ray
from test_fuzz_cli import USER_GAME


@pytest.fixture
def write_game(tmp_path, monkeypatch):
    """Writes ``USER_GAME`` and ``source`` to a new file; returns the reference to its ``name``."""
    monkeypatch.chdir(tmp_path)
    count = iter(range(1000))

    def write(source: str, name: str = "Case") -> tuple[str, str]:
        path = tmp_path / f"game{next(count)}.py"
        path.write_text(USER_GAME + "\n\n" + source)
        return f"{path}:{name}", str(path)

    return write


@contextlib.contextmanager
def within(seconds: int = 60):
    """Games played here directly must end (an unbounded game would hang the test run): a
    guard against a hang, generous enough for a loaded machine, not a speed check."""

    def late(signum, frame):
        raise TimeoutError(f"a game still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def line_of(path: str, text: str) -> int:
    """The number of the last line of ``path`` holding ``text`` (``Case``'s, after ``Nim``'s)."""
    return max(i for i, line in enumerate(open(path).read().splitlines(), 1) if text in line)


# ---------------------------------------------------------------- a game that never ends


def test_a_game_that_never_ends_is_drawn_at_its_ply_limit(write_game):
    ref, _ = write_game("class Case(Endless):\n    pass\n")
    code, out, err = run_in_process(["match", "random", "random", "--game", ref, "--games", "3", "--json"])
    assert code in (0, None) and not err
    assert [(r["a_win"], r["draw"], r["b_win"]) for r in json.loads(out)["results"]] == [(0, 1, 0), (0, 1, 0)]
    game = resolve_game(ref)
    random = RandomPlayer(game)
    assert ply_limit(game) == DEFAULT_MAX_PLIES == 1000
    with within():
        assert play_game(game, random, random, game.initial(), np.random.default_rng(0))[:2] == (0, 1000)
        assert play_game(game, random, random, game.initial(), np.random.default_rng(0), max_plies=30)[:2] == (0, 30)


def test_a_game_declares_its_own_ply_limit(write_game):
    ref, _ = write_game("class Case(Endless):\n    max_plies = 12\n")
    game = resolve_game(ref)
    random = RandomPlayer(game)
    with within():
        assert play_game(game, random, random, game.initial(), np.random.default_rng(0))[:2] == (0, 12)
        assert play_game(game, random, random, game.initial(), np.random.default_rng(0), max_plies=200)[:2] == (0, 12)
    code, out, err = run_in_process(["game", "--game", ref, "--vs", "random"], stdin="1\n" * 10)
    assert code in (0, None) and not err and "Draw after 12 plies (the game's limit)." in out


@pytest.mark.parametrize("value", ["0", "-3", "True", "2.5", "'many'", "10 ** 9"])
def test_a_ply_limit_that_is_no_count_is_refused(write_game, value):
    ref, _ = write_game(f"class Case(Endless):\n    max_plies = {value}\n")
    refused(["match", "random", "random", "--game", ref, "--games", "1"], "max_plies must be a whole number")


def test_the_built_in_games_are_bounded_by_their_rules_not_cut():
    assert ply_limit(resolve_game("tictactoe")) == 9
    checkers = resolve_game("checkers")
    # at most 2 x 12 x 7 man moves and 24 king captures make progress, fewer than quiet_limit plies between them
    assert ply_limit(checkers) == (2 * 12 * 7 + 24 + 1) * checkers.quiet_limit
    rng = np.random.default_rng(1)
    for _ in range(2):
        states = play_out(checkers, checkers.initial(), rng, max_plies=ply_limit(checkers))
        assert checkers.result(states[-1]) is not None and len(states) < ply_limit(checkers)


# ---------------------------------------------------------------- protocol breaks


BREAKS = {
    "no legal move": ("legal_moves", "return [] if s[0] < 5 else super().legal_moves(s)", "returned no move while result is None"),
    "to_move 2": ("to_move", "return 2 if s[0] < 5 else super().to_move(s)", "returned 2, not 0 or 1"),
    "result 5": ("result", "return None if s[0] else 5", "returned 5, not None, -1, 0 or 1"),
    "result NaN": ("result", "return None if s[0] else float('nan')", "returned nan, not None, -1, 0 or 1"),
    "apply raises": ("apply", "raise RuntimeError('boom')", "Case.apply: RuntimeError: boom"),
    "key unhashable": ("key", "return list(s)", "returned a value that cannot be hashed"),
    "views raise": ("views", "return undefined_name", "NameError"),
}


@pytest.mark.parametrize("command", ["match", "game", "tournament"])
@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_protocol_break_is_one_line_naming_file_line_and_method(write_game, name, command):
    method, body, words = BREAKS[name]
    ref, path = write_game(f"class Case(Nim):\n    def {method}(self, s, *rest):\n        {body}\n")
    argv = {"match": ["match", "random", "random", "--game", ref, "--games", "2"],
            "game": ["game", "--game", ref, "--vs", "random"],
            "tournament": ["tournament", "random", "random", "--game", ref, "--games", "1"]}[command]
    err = refused(argv, words, stdin="1\n" * 20)
    assert f"{path}:{line_of(path, body if name in ('apply raises', 'views raise') else f'def {method}')}" in err
    assert f"Case.{method}" in err


def test_a_break_past_the_conformance_run_is_refused_at_the_move(write_game):
    """An endless game whose result turns 5 at ply 150, or whose apply raises there: the
    conformance run plays 100 plies; the match meets it and names the position."""
    ref, path = write_game("class Case(Endless):\n    def result(self, s):\n        return 5 if s[2] >= 150 else None\n")
    refused(["match", "random", "random", "--game", ref, "--games", "2"], f"{path}:{line_of(path, 'def result')}",
            "Case.result returned 5", "(position after 150 plies: (7, 0, 150))")
    ref, path = write_game("class Case(Endless):\n    def apply(self, s, m):\n        if s[2] >= 150:\n"
                           "            raise ValueError('no more')\n        return super().apply(s, m)\n")
    refused(["game", "--game", ref, "--vs", "random"], f"{path}:{line_of(path, 'no more')}", "apply: ValueError: no more",
            "after 150 plies", stdin="1\n" * 200)


def test_a_break_in_a_workers_game_is_one_line(write_game):
    """Blondie24's games (a Ray task's unit of work) go through the same loop."""
    from evoplay.networks.evalnet import n_weights
    from evoplay.recipes.blondie24.play import play_chunk

    ref, _ = write_game("class Case(Endless):\n    def result(self, s):\n        return 5 if s[2] >= 150 else None\n")
    sizes = (2, 2, 1)
    genomes = np.random.default_rng(0).normal(size=(2, n_weights(sizes)))
    with pytest.raises(GameError, match="Case.result returned 5"), within():
        play_chunk((ref, genomes, np.ones(2), sizes, 1, False, np.array([[0, 1]]), 200))


def test_a_class_with_slots_plays_and_the_users_object_is_not_written_to(write_game):
    """A game lacking ``name``, ``ref`` or ``side_names`` was given them by setattr on the user's
    own object, and a class whose ``__slots__`` left them out was refused for it: now evoplay
    names such a game in a wrapper of its own and every such class plays."""
    from evoplay.arena.game import unwrapped
    from evoplay.games import resolve_game

    rules = "".join(f"    {m} = Nim.{m}\n" for m in ("initial", "to_move", "legal_moves", "apply", "result", "key", "views",
                                                      "is_capture", "move_text", "parse_move", "render"))
    for slots in ("()", "('name', 'ref')", "('name', 'ref', 'side_names')"):
        ref, _ = write_game(f"class Case:\n    __slots__ = {slots}\n{rules}")
        code, out, err = run_in_process(["match", "random", "random", "--game", ref, "--games", "2"])
        assert code in (0, None) and not err and "A wins" in out, (slots, err)
    ref, _ = write_game(f"class Case(Nim):\n    pass\n")
    game = resolve_game(ref)
    mine = unwrapped(game)
    assert game.ref == ref and game.side_names == ("first", "second") and game.initial() == mine.initial()
    assert "ref" not in vars(mine) and "side_names" not in vars(mine)


def test_a_render_evoplay_cannot_call_is_refused_before_play(write_game):
    ref, path = write_game("class Case(Nim):\n    def render(self, s):\n        return str(s)\n")
    refused(["game", "--game", ref, "--vs", "random"], f"{path}:{line_of(path, 'def render')}",
            "Case.render cannot be called as render(state, numbers=True)", stdin="1\n")


# ---------------------------------------------------------------- user code that exits while loading


@pytest.mark.parametrize("statement, words", [("sys.exit(3)", "it called sys.exit(3)"), ("sys.exit(0)", "sys.exit(0)"),
                                              ("raise SystemExit", "sys.exit(None)"), ("raise KeyboardInterrupt", "KeyboardInterrupt")])
def test_user_code_that_exits_while_loading_is_one_line(write_game, statement, words):
    ref, path = write_game(f"{statement}\n")
    refused(["match", "random", "random", "--game", ref, "--games", "2"], f"{path}:{line_of(path, statement)}", words)


def test_user_code_that_exits_while_loading_ends_evoplay_with_code_2(write_game, tmp_path):
    ref, _ = write_game("sys.exit(3)\n")
    proc = subprocess.run([str(EVOPLAY), "match", "random", "random", "--game", ref], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert problem(proc.returncode, proc.stdout, proc.stderr) is None, (proc.returncode, proc.stderr)


# ---------------------------------------------------------------- views a network cannot read


def test_a_blondie24_config_on_ragged_views_is_refused_before_evolution(write_game, tmp_path, monkeypatch):
    ref, path = write_game("class Case(Nim):\n    def views(self, s):\n        return np.zeros((len(s), 1 + s[0][2]))\n")
    config = tmp_path / "ragged.toml"
    config.write_text(f'recipe = "blondie24"\nname = "ragged"\ntrials = 1\ngenerations = 1\n[game]\nname = "{ref}"\n'
                      'depth = 1\n[network]\nhidden = [2]\n[population]\nparents = 2\n')
    ray_started = forbid_ray(monkeypatch)
    refused(["evolve", str(config), "--out", str(tmp_path / "out"), "-q"], "config key 'game.name'",
            f"{path}:{line_of(path, 'def views')}", "a network needs one width at every position")
    assert not ray_started and not (tmp_path / "out").exists()


def test_a_network_refuses_views_of_another_width():
    """Compiled code reads a view's row unchecked: a row of another width is refused, not read past its end."""
    from evoplay.networks.evalnet import Evaluator, n_weights

    sizes = (3, 2, 1)
    evaluate = Evaluator(np.zeros(n_weights(sizes)), sizes, 1.0)
    assert evaluate(np.zeros((2, 3), dtype=np.int8)).shape == (2,)
    for views in (np.zeros((2, 2)), np.zeros((2, 5)), np.zeros(3)):
        with pytest.raises(EvoplayError, match="a network of 3 inputs was given views of shape"):
            evaluate(views)


# ---------------------------------------------------------------- the conformance run, reusable


def test_the_conformance_run_passes_evoplays_games_and_the_example(monkeypatch):
    """It passes them, and its work is bounded by its playouts, not by the game: at most
    PLAYOUTS x PLAYOUT_PLIES moves applied (counted, not timed)."""
    import functools

    from evoplay.arena import gamecheck
    from evoplay.arena.game import unwrapped

    for ref in ("tictactoe", "checkers", "examples/games/connect_four.py:ConnectFour"):
        game = resolve_game(ref)
        applied = []
        cls = type(unwrapped(game))
        apply = cls.apply

        @functools.wraps(apply)
        def counted(self, state, move, apply=apply, applied=applied):
            applied.append(move)
            return apply(self, state, move)

        monkeypatch.setattr(cls, "apply", counted)
        gamecheck.check(game)
        assert 0 < len(applied) <= gamecheck.PLAYOUTS * gamecheck.PLAYOUT_PLIES, ref


def test_the_conformance_run_refuses_a_game_object(write_game):
    """``check`` takes any game object, as every command may call it before Ray starts."""
    from evoplay.arena import gamecheck

    namespace = {}
    exec(compile(USER_GAME, "<game>", "exec"), namespace)

    class Broken(namespace["Nim"]):
        name = ref = "broken"

        def legal_moves(self, s):
            return [] if s[2] == 3 else super().legal_moves(s)

    with pytest.raises(GameError, match=r"Broken.legal_moves returned no move .* after 3 plies"):
        gamecheck.check(Broken())
    assert "\n" not in str(pytest.raises(GameError, gamecheck.check, Broken()).value)
