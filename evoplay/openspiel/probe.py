"""Trying an OpenSpiel game before evoplay plays it: its size bounded, its first moves played.

``load_game`` accepts parameters that its game cannot use: ``connect_four(rows=0)`` ends the
process with a segmentation fault at its first ``legal_actions``, ``hex(board_size=0)`` starts
in a position that is not over and has no legal move, ``mnk(m=5000,n=5000,k=5)`` has 25
million actions and takes minutes. ``problem(game)`` says what is wrong with a loaded game (or
None); run as a script (``python -P probe.py GAME_TEXT``, as ``evoplay.openspiel.loading`` does
for a game given parameters), it loads and tries the game in a process of its own and prints
``ok`` or the problem, in one line. It imports only pyspiel, so that the child starts fast.
"""

from __future__ import annotations

import importlib

import random
import sys

#: Most distinct actions, and most numbers in an observation tensor, of a game evoplay plays
#: (shogi has 13,689 actions; hive's tensor 6,647 numbers).
MAX_ACTIONS = 100_000
MAX_TENSOR = 100_000
#: Moves played from the start (seeded random ones) to try a game.
PLIES = 8
#: Address space of the child process that tries a game (``gomoku(size=100000)`` would
#: otherwise allocate without end inside ``load_game``).
MEMORY = 1 << 30


def problem(game) -> str | None:
    """What keeps a loaded ``pyspiel.Game`` from being played, in a phrase: too many actions
    or too large a tensor (read from the game's info, before any state is built), or a
    failure in its first few positions (made, read, and left by a legal move)."""
    actions = game.num_distinct_actions()
    if actions > MAX_ACTIONS:
        return f"too large: {actions:,} distinct actions (at most {MAX_ACTIONS:,})"
    tensor = game.get_type().provides_observation_tensor
    if tensor and game.observation_tensor_size() > MAX_TENSOR:
        return f"too large: an observation tensor of {game.observation_tensor_size():,} numbers (at most {MAX_TENSOR:,})"
    rng = random.Random(0)
    state = game.new_initial_state()
    if state.is_terminal():
        return "the game is over before its first move"
    for _ in range(PLIES):
        if state.is_terminal():
            state.returns()
            return None
        player = state.current_player()
        if player < 0:  # chance or simultaneous moves: not a game evoplay plays, said elsewhere
            return None
        legal = state.legal_actions()
        if not legal:
            return "a position that is not over has no legal move"
        if tensor:
            state.observation_tensor(player)
        str(state)
        action = rng.choice(legal)
        state.action_to_string(player, action)
        state = state.child(action)
    return None


def main(text: str) -> str:
    """``ok``, or the first line of what loading and trying the game ``text`` raised or found."""
    pyspiel = importlib.import_module("pyspiel")  # an optional extra, imported by name as the adapter does

    try:
        found = problem(pyspiel.load_game(text))
    except MemoryError:
        found = f"too large: loading it needs more than {MEMORY >> 30} GiB of memory"
    except Exception as e:  # pyspiel.SpielError, and the bindings' ValueError, IndexError, MemoryError
        found = str(e).split("\n", 1)[0].strip() or type(e).__name__
    return found or "ok"


if __name__ == "__main__":
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    print(main(sys.argv[1]), flush=True)
