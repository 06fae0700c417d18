"""The first API of the tic-tac-toe page, kept for its users: ``/api/players``,
``/api/analyze``, ``/api/move`` and ``/api/ai-move`` answer as they always did.

Positions travel as nine characters, row by row, ``X``, ``O`` or ``.`` for an empty
square (``"X...O...."``). Each request is checked here in its own words, then answered
by the code the board page uses (``evoplay.web.boards`` for players and moves,
``evoplay.web.tictactoe`` for the exact facts). Every defect of a request raises
``ApiError`` with a 4xx status and one line naming it; nothing here writes anywhere.
"""

from __future__ import annotations

from types import MappingProxyType

from evoplay.games import resolve_game
from evoplay.tictactoe import board
from evoplay.tictactoe.players import REGISTRY, TEMPERATURE_RANGE
from evoplay.web import boards
from evoplay.web.boards import check_fields
from evoplay.web.roots import ApiError
from evoplay.tictactoe.players import Player
from evoplay.web.tictactoe import HUMAN_MODEL, RESULTS, board_text, exact_facts, move_probs, table

MARK_CHARS = MappingProxyType({"X": board.X, "O": board.O, ".": board.EMPTY})
HUMAN = boards.HUMAN
GAME = "tictactoe"


def parse_board(value) -> int:
    """The code of a board sent as nine characters of X, O and '.'; 400 if malformed."""
    if not isinstance(value, str):
        raise ApiError(400, f"board must be a string of 9 characters X, O or '.', got {type(value).__name__}")
    if len(value) != board.N_SQUARES:
        raise ApiError(400, f"board must have 9 squares, got {len(value)} characters in {value[:20]!r}")
    bad = sorted({c for c in value if c not in MARK_CHARS})
    if bad:
        raise ApiError(400, f"board {value!r} has characters other than X, O and '.': {''.join(bad)!r}")
    code = board.encode([MARK_CHARS[c] for c in value])
    if not board.REACHABLE[code]:
        n_x, n_o = value.count("X"), value.count("O")
        raise ApiError(400, f"board {value!r} cannot arise in a game (X has {n_x} marks, O {n_o}; X moves first and play stops at a win)")
    return code


def parse_square(value, code: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"square must be an integer 0-8, got {value!r}")
    if not 0 <= value < board.N_SQUARES:
        raise ApiError(400, f"there is no square {value}: squares are 0-8")
    if board.winner(code) != board.ONGOING:
        raise ApiError(400, f"the game is over ({RESULTS[board.winner(code)].replace('_', ' ')}): no more moves")
    if not board.LEGAL[code, value]:
        raise ApiError(400, f"square {value} is taken")
    return value


class PlayerBook:
    """Tic-tac-toe players by spec, for the old API: the board page's ``boards.Players``."""

    def __init__(self, players: boards.Players):
        self.players, self.game = players, resolve_game(GAME)

    def get(self, spec, what: str):
        """The (batched) player ``spec`` names, None for ``human``; 4xx ApiError naming ``what``."""
        player = self.players.get(self.game, spec, what)
        return None if player is None else table(player, what)


def listing(players: boards.Players) -> dict:
    """The built-in players with their parameters and the player files served."""
    game, adapter = players.games.named(GAME)
    listed = boards.players(game, adapter, players.roots)
    own = {boards.HUMAN, *REGISTRY}  # the old page's menu: tic-tac-toe's own players (every game's are on the board page)
    builtin = [{"name": b["name"], "params": b["params"]} for b in listed["builtin"] if b["name"] in own]
    return {"builtin": builtin, "files": listed["files"], "temperature_range": list(TEMPERATURE_RANGE)}


def analyze(book: PlayerBook, body) -> dict:
    """What evoplay knows about a position for the two chosen players."""
    check_fields(body, ("board", "x", "o"), ("human_model", "minimax"))
    code = parse_board(body["board"])
    x, o = book.get(body["x"], "X player"), book.get(body["o"], "O player")
    model_spec = body.get("human_model", HUMAN_MODEL)
    model = book.get(model_spec, "human model")
    if model is None:
        raise ApiError(400, "human model: must be a computer player, not 'human'")
    want_minimax = body.get("minimax", False)
    if not isinstance(want_minimax, bool):
        raise ApiError(400, f"minimax must be true or false, got {want_minimax!r}")
    return exact_facts(code, x, o, (body["x"], body["o"]), model, model_spec, want_minimax)


def human_move(body) -> dict:
    """A square chosen on the page, checked against the board."""
    check_fields(body, ("board", "square"))
    code = parse_board(body["board"])
    square = parse_square(body["square"], code)
    return {"board": board_text(board.play(code, square)), "square": square}


def computer_move(book: PlayerBook, body) -> dict:
    """The move a computer player makes on the board (sampled; ``seed`` repeats it)."""
    check_fields(body, ("board", "player"), ("seed",))
    code = parse_board(body["board"])
    if board.winner(code) != board.ONGOING:
        raise ApiError(400, f"the game is over ({RESULTS[board.winner(code)].replace('_', ' ')}): no more moves")
    player = boards.within_bounds(book.players.get(book.game, body["player"], "player"), "player")
    if player is None:
        raise ApiError(400, "player: 'human' moves by clicking a square, not by computer")
    seed = boards.check_seed(body.get("seed"))
    if isinstance(player, Player):  # 422 for a player whose probabilities are not finite (mcts has none)
        move_probs(player, code, body["player"])
    square = int(boards.choose(player, code, seed))
    return {"board": board_text(board.play(code, square)), "square": square}
