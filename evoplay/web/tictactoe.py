"""Tic-tac-toe's analysis panel on the board page (``PANEL``): the exact facts only its whole
game tree can give.

A position is a board code (``evoplay.tictactoe.board``); a move is a square 0-8. Beside
what the one board page shows of every game (drawn from what the game declares), the page
gets for tic-tac-toe the side to move's probability of each square, the exact outcome
between the two chosen players from this position (a human side modelled by a computer
player), the minimax value of each square and the winning line. The old ``/api/analyze``
answers the same facts (``evoplay.web.api``).
"""

from __future__ import annotations

import math
from types import MappingProxyType

import numpy as np

from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.tictactoe.game import TICTACTOE
from evoplay.tictactoe.players import MINIMAX_SCORES, Player
from evoplay.web.pages import Panel
from evoplay.web.roots import ApiError

RESULTS = MappingProxyType({board.ONGOING: "ongoing", board.X_WIN: "x_win", board.O_WIN: "o_win", board.DRAW: "draw"})
#: The player that stands in for a human side in the exact outcome unless another is named.
HUMAN_MODEL = "random"
#: The values per square the page may ask the facts for: the request field (the facts' own
#: field in the answer) and the label of the page's checkbox.
FACT_VALUES = MappingProxyType({"field": "minimax", "label": "Show minimax value of each move"})


def table(player, what: str) -> Player:
    """The move-table player behind a page's player; 400 for one that samples its moves
    (``mcts``), which has no move probabilities to compute exact facts with."""
    if not isinstance(player, Player):
        raise ApiError(400, f"{what}: {player.spec} samples its moves: exact facts need a player with move probabilities")
    return player


#: A board as nine characters row by row, X, O or '.': the game's own position text.
board_text = TICTACTOE.position_text


# ---------------------------------------------------------------- exact facts


def minimax_values(code: int) -> list:
    """Per square: the minimax result of playing there, for the side to move.

    ``score`` is the minimax score from the mover's view (``10 - marks`` at the end of a
    won game, 0 for a draw), ``result`` win/draw/loss, ``plies`` the moves left to the end
    of the game under perfect play, this one included. None for squares not playable.
    """
    sign = 1.0 if board.TO_MOVE[code] == board.X else -1.0
    values = []
    for s in range(board.N_SQUARES):
        child = int(board.CHILD[code, s])
        if child < 0:
            values.append(None)
            continue
        score = sign * float(MINIMAX_SCORES[child])
        end_marks = 9 if score == 0 else 10 - abs(score)
        result = "win" if score > 0 else "loss" if score < 0 else "draw"
        values.append({"score": score, "result": result, "plies": int(end_marks - board.N_MARKS[code])})
    return values


def winning_line(code: int) -> list | None:
    marks = board.decode(code)
    for line in board.LINES:
        a, b, c = marks[line]
        if a != board.EMPTY and a == b == c:
            return [int(s) for s in line]
    return None


def move_probs(player: Player, code: int, spec: str) -> list:
    """The player's probability of each square on this board; 422 if not finite."""
    probs = player.probs(np.array([code]))[0]
    if not np.isfinite(probs).all():
        raise ApiError(422, f"player {spec} gives non-finite move probabilities on this board")
    return probs.tolist()


def exact_facts(code: int, x: Player | None, o: Player | None, specs: tuple, model: Player, model_spec: str,
                want_minimax: bool) -> dict:
    """What evoplay knows about a board for two players (None: a human, modelled by ``model``)."""
    result = board.winner(code)
    ongoing = result == board.ONGOING
    x_moves = bool(board.TO_MOVE[code] == board.X)
    mover, mover_spec = (x, specs[0]) if x_moves else (o, specs[1])
    probs = move_probs(mover, code, mover_spec) if ongoing and mover is not None else None
    outcome = exact.outcome(x if x is not None else model, o if o is not None else model, code)
    values = [outcome.x_win, outcome.draw, outcome.o_win]
    if not all(math.isfinite(v) for v in values):
        raise ApiError(422, "these players give non-finite outcome probabilities")
    return {
        "board": board_text(code),
        "result": RESULTS[result],
        "to_move": ("X" if x_moves else "O") if ongoing else None,
        "line": winning_line(code),
        "legal": board.legal_moves(code),
        "probs": probs,
        "exact": {
            "x_win": outcome.x_win,
            "draw": outcome.draw,
            "o_win": outcome.o_win,
            "x_modelled": x is None,
            "o_modelled": o is None,
            "human_model": model_spec.strip(),
        },
        "minimax": minimax_values(code) if want_minimax and ongoing else None,
    }


def facts(state, sides: list, body: dict, get) -> dict | None:
    """The board page's exact facts: ``sides`` the two (spec, player or None) in X, O order;
    ``body`` may name ``human_model`` and ask for ``minimax``; ``get(spec, what)`` finds a player.
    None where a side samples its moves (``mcts``): the game tree gives nothing exact for it."""
    model_spec = body.get("human_model", HUMAN_MODEL)
    model = get(model_spec, "human model")
    if model is None:
        raise ApiError(400, "human model: must be a computer player, not 'human'")
    model = table(model, "human model")
    want_minimax = body.get("minimax", False)
    if not isinstance(want_minimax, bool):
        raise ApiError(400, f"minimax must be true or false, got {want_minimax!r}")
    (x_spec, x), (o_spec, o) = sides
    if not all(p is None or isinstance(p, Player) for p in (x, o)):
        return None
    return exact_facts(state, x, o, (x_spec, o_spec), model, str(model_spec), want_minimax)


FACT_FIELDS = ("human_model", "minimax")


#: The panel the board page shows beside tic-tac-toe's board.
PANEL = Panel(facts, FACT_FIELDS, HUMAN_MODEL, FACT_VALUES)
