"""``openspiel-mcts:sims=N,c=C,rollouts=R,solve=0|1,seed=S``: OpenSpiel's own ``MCTSBot`` (C++,
through ``pyspiel``) with random rollouts, playing evoplay's checkers: an engine no one here wrote.

For each move the position is set up in OpenSpiel's ``checkers`` (``evoplay.checkers.spielboard``:
a list of unchecked actions from its initial state builds the board, the player to move and
a count of 0 plies since a capture where it can; the state is checked against the position),
a fresh ``pyspiel.MCTSBot(game, RandomRolloutEvaluator(R, seed), C, N, 1000 MB, solve, seed)``
chooses an action, and where that action is a jump that can go on (OpenSpiel's multi-jump is
one action per jump, the same player moving again) the same bot chooses again, until the
turn passes; the actions are read back as evoplay's move, which must be legal. With one
legal move it plays it without searching. The bot's seed is drawn from the match's random
stream and mixed with ``S``: the same match seed, the same moves.

The rules agree on every move of a game that is still on (captures forced, a multi-jump
played to its end, crowning ending the move: tested on random positions); they differ on
draws, which evoplay's rules judge: OpenSpiel's game is drawn after 40 plies without a
capture (the bot's rollouts stop there, counted from the translated state) and has no
repetition rule; evoplay's after 100 plies without a capture or a man's move, or by
threefold repetition. open_spiel is an optional extra: without it the spec is refused in
one line.
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

from evoplay.arena.players import format_spec, in_range
from evoplay.checkers import rules
from evoplay.checkers import spielboard
from evoplay.errors import EvoplayError, SpecError

NAME = "openspiel-mcts"
_INSTALL = "pip install open_spiel, or the extra evoplay[openspiel]"
#: The bot's memory bound (OpenSpiel's examples' default); 1,000 simulations use a few MB.
MAX_MEMORY_MB = 1000


def _pyspiel():
    # An optional extra (evoplay[openspiel]), imported by name when the player is made.
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        raise SpecError(f"player {NAME} needs open_spiel, which is not installed ({_INSTALL})") from None


def bot_seeds(seed: int, draw: int) -> tuple[int, int]:
    """The bot's and its evaluator's seeds (non-negative 32-bit ints, as the C++ takes them)
    for the spec's ``seed`` and a draw from the match's stream."""
    words = np.random.SeedSequence([seed, draw]).generate_state(2)
    return int(words[0] & 0x7FFFFFFF), int(words[1] & 0x7FFFFFFF)


class SpielMCTSPlayer:
    """OpenSpiel's C++ ``MCTSBot`` with random rollouts on evoplay's checkers positions."""

    deterministic = False

    def __init__(self, game, sims: int = 1000, c: float = 2.0, rollouts: int = 1, solve: int = 1, seed: int = 0):
        self.pyspiel = _pyspiel()
        self.game, self.spiel_game = game, self.pyspiel.load_game("checkers")
        self.sims, self.c, self.rollouts, self.solve, self.seed = sims, c, rollouts, bool(solve), seed
        self.spec = format_spec(NAME, {"sims": sims, "c": float(c), "rollouts": rollouts, "solve": int(solve),
                                       "seed": seed})

    def distribution(self, state) -> list:
        raise SpecError(f"{NAME} samples its moves: it has no move distribution to compute exactly")

    def spiel_state(self, state: rules.State):
        """OpenSpiel's checkers state of the position ``state``, checked: the same board, the same player to move."""
        board = spielboard.cells(state)
        try:
            actions, _ = spielboard.setup(board, state.turn)
        except EvoplayError as e:
            raise EvoplayError(f"{NAME}: {e} ({rules.to_fen(state)})") from None
        spiel = self.spiel_game.new_initial_state()
        for number in actions:
            spiel.apply_action(number)
        if spiel.to_string() != spielboard.drawing(board) or spiel.current_player() != state.turn:
            raise EvoplayError(f"{NAME}: OpenSpiel's checkers was not set to the position {rules.to_fen(state)}")
        return spiel

    def bot(self, draw: int):
        bot_seed, rollout_seed = bot_seeds(self.seed, draw)
        evaluator = self.pyspiel.RandomRolloutEvaluator(self.rollouts, rollout_seed)
        return self.pyspiel.MCTSBot(self.spiel_game, evaluator, self.c, self.sims, MAX_MEMORY_MB, self.solve,
                                    bot_seed, False)

    def choose(self, state, rng):
        moves = self.game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        bot = self.bot(int(rng.integers(2**31)))
        spiel = self.spiel_state(state)
        actions = []
        while True:
            legal = spiel.legal_actions()
            number = legal[0] if len(legal) == 1 else bot.step(spiel)
            actions.append(number)
            spiel.apply_action(number)
            if spiel.is_terminal() or spiel.current_player() != state.turn:
                break
        move = spielboard.move_of(actions)
        if move not in moves:
            raise EvoplayError(f"{NAME}: OpenSpiel's move {rules.move_text(move)} is not legal in {rules.to_fen(state)}")
        return move


def make_player(game, sims: int = 1000, c: float = 2.0, rollouts: int = 1, solve: int = 1, seed: int = 0):
    """OpenSpiel's own MCTSBot (C++, random rollouts): sims simulations a move, exploration constant c, rollouts random games per leaf, solve=1 to back up proven outcomes, seed for its streams (needs open_spiel)."""
    return SpielMCTSPlayer(game, sims, c, rollouts, solve, seed)


#: ``openspiel-mcts``'s parameters: {param: (type, check)}.
SCHEMA = {
    "sims": (int, in_range(f"{NAME} sims", 1, 1_000_000)),
    "c": (float, in_range(f"{NAME} c", 0.0, 100.0)),
    "rollouts": (int, in_range(f"{NAME} rollouts", 1, 1000)),
    "solve": (int, in_range(f"{NAME} solve", 0, 1)),
    "seed": (int, in_range(f"{NAME} seed", 0, 2**31 - 1)),
}


def registry_entry(game) -> tuple:
    """``(factory, schema)`` of the player for ``game`` (the checkers game object)."""
    return functools.partial(make_player, game), SCHEMA
