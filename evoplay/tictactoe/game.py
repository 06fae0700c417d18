"""Tic-tac-toe behind the game interface (``evoplay.arena.game.Game``): an adapter over the board tables.

A state is a board code; a move is a square 0..8. The batched engine, the players' tables
and the exact analysis keep using ``board`` directly.
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board


class TicTacToe:
    name = "tictactoe"
    side_names = ("X", "O")
    title = "Tic-tac-toe"
    board_shape = (3, 3)
    #: Nine squares: a game never lasts longer.
    max_plies = 9
    #: Work of one game, the unit the runner's chunking is measured in (a Fogel game).
    work_per_game = 1
    #: Players are judged exactly (``evoplay.tictactoe.exact``), not by sampled games.
    yardstick = "exact"
    #: Matches are played in batches over move tables, or computed exactly (``--exact``).
    exact = True
    #: What a person at the terminal is asked for.
    move_prompt = "square 0-8"
    #: ``evoplay game``'s computer player when --vs is not given.
    default_opponent = "logic"
    #: Games per pairing of a sampled match (played in batches over the move tables).
    match_games = 10_000
    #: The board page: nine squares apart, each numbered as its moves are and taking a mark,
    #: shaded by the exact facts' probability of a move there.
    look = "marks"
    square_names = tuple(str(s) for s in range(9))
    piece_symbols = {"X": "X", "O": "O"}
    #: Who plays when the board page opens: a person against a softmax-minimax player that
    #: models its opponent as random-ish (the page's first defaults).
    board_players = ("human", "softmax:t=0.2,model_t=1")
    player_labels = {"logic": "logic (Fogel's rule player)", "minimax": "minimax (perfect play)",
                     "softmax": "softmax-minimax"}
    #: softmax's temperatures as sliders: log10 of the value from -2 to 1 (0.01 to 10).
    player_sliders = {"softmax": {
        "t": {"label": "Own temperature", "min": -2, "max": 1, "log": True, "ends": ("Precise", "Chaotic")},
        "model_t": {"label": "Opponent modelled at", "min": -2, "max": 1, "log": True, "ends": ("Precise", "Chaotic")},
    }}

    def pair_result(self, first, second, games, rng, progress=None):
        """A pairing's results over batched games on the move tables, or exact with
        ``games=None`` (``tournament.pair_result``), for players with move tables; None for
        others (mcts), which play one game at a time."""
        from evoplay.tictactoe.tournament import pair_result

        tables = _move_tables(first, second)
        return None if tables is None else pair_result(*tables, games, rng, progress)

    def exact_analysis(self, player, opponent) -> dict | None:
        """``evoplay analyze``'s exact facts about ``player`` against ``opponent`` (payoff moving
        first, the best response's ceiling, soundness from each seat, agreement with minimax,
        also by the side to move), for players with move tables; None for others (mcts,
        alpha-beta), which are analysed over sampled games."""
        from evoplay.tictactoe import board, exact

        tables = _move_tables(player, opponent)
        if tables is None:
            return None
        mine, theirs = tables
        return {"expected_payoff": exact.expected_payoff(mine, theirs),
                "best_response_payoff": exact.best_response_payoff(theirs),
                "unbeatable_as_x": exact.unbeatable(mine, as_x=True),
                "unbeatable_as_o": exact.unbeatable(mine, as_x=False),
                "minimax_agreement": exact.minimax_agreement(mine),
                "minimax_agreement_by_side": [exact.minimax_agreement(mine, mark) for mark in (board.X, board.O)]}

    @property
    def players(self) -> dict:
        """Its own player specs (``first-open``, ``logic``, ``minimax``, ``softmax``; ``random`` as
        a move table) beside every game's, as players of the game interface."""
        from evoplay.tictactoe.players import game_registry

        return game_registry()

    def make_player(self, spec: str):
        """The player a spec names, as a player of the game interface: tic-tac-toe's own
        (table players, files, user code) where the spec names one, else every game's
        (``mcts``)."""
        from evoplay.arena.specs import common, common_player
        from evoplay.tictactoe.players import REGISTRY, make_player

        name = spec.strip().partition(":")[0].strip()
        if name not in REGISTRY and name in common(self):
            return common_player(self, spec)
        return make_player(spec)

    def search_table(self, evaluate, depth: int):
        """The search player's move on every board code at once (``searchtable.move_table``)."""
        from evoplay.tictactoe.searchtable import move_table

        return move_table(evaluate, depth)

    def initial(self) -> int:
        return 0

    def to_move(self, state) -> int:
        return 0 if board.TO_MOVE[state] == board.X else 1

    def legal_moves(self, state) -> list[int]:
        return board.legal_moves(state)

    def apply(self, state, move) -> int:
        return int(board.CHILD[state, move])

    def result(self, state) -> int | None:
        outcome = board.OUTCOME[state]
        if outcome == board.ONGOING:
            return None
        return 0 if outcome == board.DRAW else -1  # a line is always the last mover's

    def is_capture(self, state, move) -> bool:
        return False

    def key(self, state) -> int:
        return int(state)

    def views(self, states) -> np.ndarray:
        codes = np.asarray(states, dtype=np.int64)
        return board.perspective(codes, board.TO_MOVE[codes]).astype(np.int8)

    def move_text(self, state, move) -> str:
        return str(move)

    def parse_move(self, state, text: str) -> int:
        """The square typed, or ValueError saying what is wrong and what to type instead."""
        from evoplay.arena.players import quoted

        text = str(text).strip()
        if not text:
            raise ValueError("Type a square number from 0 to 8 (Ctrl-D quits).")
        try:
            square = int(text)
        except ValueError:
            raise ValueError(f"{quoted(text)} is not a square number: type a number from 0 to 8.") from None
        if not 0 <= square < board.N_SQUARES:
            raise ValueError(f"There is no square {square}: type a number from 0 to 8.")
        if not board.LEGAL[state, square]:
            free = ", ".join(map(str, board.legal_moves(state)))
            raise ValueError(f"Square {square} is taken: choose one of {free}.")
        return square

    def render(self, state, numbers: bool = False) -> str:
        return board.render(state, numbers)

    def owners(self, state) -> list:
        """Whose mark is on each square: 0 X's, 1 O's, None empty."""
        return [0 if m == board.X else 1 if m == board.O else None for m in board.decode(state)]

    def move_squares(self, state, move) -> list[int]:
        return [int(move)]

    def position_text(self, state) -> str:
        """The board as nine characters row by row, X, O or '.' (``X...O....``)."""
        return "".join(".XO"[m] for m in board.decode(state))

    def parse_position(self, text: str) -> int:
        code = board.parse(text)
        if not board.REACHABLE[code]:
            raise ValueError(f"board {text!r} cannot arise in a game")
        return code

    def cells(self, state) -> list[str]:
        """One text per square, row by row: 'X', 'O' or ''."""
        return ["X" if m == board.X else "O" if m == board.O else "" for m in board.decode(state)]


TICTACTOE = TicTacToe()


def _move_tables(*players) -> list | None:
    """``players`` where each has a move table (tic-tac-toe's own players), else None (mcts,
    alpha-beta)."""
    from evoplay.tictactoe.players import Player

    return list(players) if all(isinstance(p, Player) for p in players) else None
