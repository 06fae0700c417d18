"""A published Keras outcome-net program, modelled faithfully and kept apart from evoplay's.

The program trains a classifier of game results on random games and plays by it. It
reports its net as X against random at 57% win / 40% draw / 1% loss and, as O, prints
"X Wins 3%, O Wins 89%, Draws 6%"; evoplay's correct ``outcome-net`` gets 99.0 / 0.8 /
0.3 as X. This module models the program as hypothesised, trains that model, and
computes its results exactly, so each hypothesis can be checked against each number:

1. **Game ending.** Its ``getGameResult`` answers "not ended" while any square is empty,
   so every game runs until the board is full, and the first complete line in scan order
   (rows, then columns, then diagonals: ``board.LINES``) decides; no line is a draw.
2. **Seats.** The mark called O moves first (its random games split X 23% / O 64% /
   draws 11%; boards filled at random with O first give 23.8 / 63.5 / 12.7%).
3. **Labels.** Results are labelled -1 (X wins), 0 (draw), 1 (O wins) and one-hot encoded
   by Keras' ``to_categorical``, which maps -1 to the last column: the columns are
   (draw, O wins, X wins). The program reads them as if they were (X wins, draw, O wins),
   so its X player maximises the draw column and its O player the X-win column.
4. **Printout.** Its "X Wins / O Wins" lines for the O run print the network's wins and
   the random player's wins.

The faithful player file kind is ``outcome-net-seed003`` (a name kept from an earlier
release: the committed player files carry it): the network (inputs X -1, O +1,
empty 0, the program's marks), its columns as ``to_categorical`` made them, and the move
rule that reads column 0 for X and column 2 for O (the argmax over the boards after each
legal move; ties to the lowest square). Loaded by evoplay it plays evoplay's game with
that rule; ``fullboard_table`` gives its moves in the program's game.

This module is the model: the program's game, data, net, move rule and training.
``keras_outcome_net_report`` sets its results beside the published ones
(``evoplay figures keras-outcome-net``).
"""

from __future__ import annotations

import numpy as np

from evoplay.errors import PlayerFileError
from evoplay.tictactoe import board
from evoplay.tictactoe.mlp import MLP, softmax
from evoplay.tictactoe.players import TablePlayer, onehot_table, uniform_table

KIND = "outcome-net-seed003"
GAMES = 10_000
FIRST = board.O  # the program's first mover

#: Network inputs of the marks (empty, X, O): the program's board values.
SIGN = np.array([0.0, -1.0, 1.0])
#: The program's result labels and where ``to_categorical(label, 3)`` puts each (-1 -> last).
LABEL = {board.X_WIN: -1, board.DRAW: 0, board.O_WIN: 1}
COLUMNS = ("draw", "o_win", "x_win")  # column k holds label k, with -1 at index 2
#: Which column each side maximises: as the program reads its output, and as it meant to.
READINGS = {
    "program": {board.X: 0, board.O: 2},  # believes columns are (x_win, draw, o_win) in label order -1, 0, 1
    "intended": {board.X: COLUMNS.index("x_win"), board.O: COLUMNS.index("o_win")},
}

# ---------------------------------------------------------------- the full-board game

FULL = (board.MARKS != board.EMPTY).all(1)


def _scan_outcome() -> np.ndarray:
    """Outcome of every board under the program's rule: ONGOING while any square is empty;
    on a full board the first complete line in scan order wins, none is a draw."""
    out = np.full(board.N_CODES, board.ONGOING, dtype=np.int8)
    lines = board.MARKS[:, board.LINES]  # (N, 8, 3)
    complete = (lines == lines[:, :, :1]).all(2) & (lines[:, :, 0] != board.EMPTY)
    first = np.argmax(complete, axis=1)
    owner = lines[np.arange(board.N_CODES), first, 0]
    decided = complete.any(1)
    out[FULL] = board.DRAW
    out[FULL & decided & (owner == board.X)] = board.X_WIN
    out[FULL & decided & (owner == board.O)] = board.O_WIN
    return out


SCAN_OUTCOME = _scan_outcome()
SCAN_OUTCOME.setflags(write=False)
#: Squares that can be played in the full-board game: every empty one.
OPEN = board.MARKS == board.EMPTY


def mover(codes, first: int = FIRST) -> np.ndarray:
    """The mark to move on each board when ``first`` moves first."""
    counts = board.N_MARKS[np.asarray(codes)]
    return np.where(counts % 2 == 0, first, 3 - first).astype(np.int64)


def children(codes, first: int = FIRST) -> np.ndarray:
    """(n, 9) boards after each square is marked by the side to move (-1: square taken)."""
    codes = np.asarray(codes, dtype=np.int64)
    kids = codes[:, None] + mover(codes, first)[:, None] * board.POW3[None, :]
    return np.where(OPEN[codes], kids, -1)


def sequence_counts(first: int = FIRST) -> dict:
    """Move sequences (all 9! fillings) ending in each result, and the final boards behind them."""
    paths = np.zeros(board.N_CODES)
    paths[0] = 1
    for n in range(9):
        layer = np.flatnonzero((board.N_MARKS == n) & (paths > 0))
        kids = children(layer, first)
        ok = kids >= 0
        np.add.at(paths, kids[ok], np.repeat(paths[layer], ok.sum(1)))
    full = np.flatnonzero(FULL & (paths > 0))
    out = {}
    for name, code in (("x_win", board.X_WIN), ("o_win", board.O_WIN), ("draw", board.DRAW)):
        hit = full[SCAN_OUTCOME[full] == code]
        out[name] = {"sequences": int(paths[hit].sum()), "boards": int(hit.size)}
    return out


def reach(x_table: np.ndarray, o_table: np.ndarray, first: int = FIRST) -> np.ndarray:
    """Probability of passing through each board of a full-board game between two move tables."""
    mass = np.zeros(board.N_CODES)
    mass[0] = 1.0
    for n in range(9):
        layer = np.flatnonzero((board.N_MARKS == n) & (mass > 0))
        side = mover(layer, first)
        probs = np.where((side == board.X)[:, None], x_table[layer], o_table[layer])
        flow = mass[layer, None] * probs
        ok = flow > 0
        np.add.at(mass, children(layer, first)[ok], flow[ok])
    return mass


def outcome(x_table: np.ndarray, o_table: np.ndarray, first: int = FIRST) -> dict:
    """Exact X-win / draw / O-win probabilities of a full-board game."""
    mass = reach(x_table, o_table, first)
    return {name: float(mass[SCAN_OUTCOME == code].sum())
            for name, code in (("x_win", board.X_WIN), ("draw", board.DRAW), ("o_win", board.O_WIN))}


#: Uniform over the empty squares: the random player of the full-board game.
RANDOM_TABLE = uniform_table(OPEN & ~FULL[:, None])


# ---------------------------------------------------------------- the program's data and net


def encode(codes) -> np.ndarray:
    return SIGN[board.MARKS[np.asarray(codes)]]


def mirrored_encode(codes) -> np.ndarray:
    """Inputs of the boards with X and O swapped (for the mirrored net, see ``variants``)."""
    return -encode(codes)


#: The columns of the committed net seen through the X/O mirror: its O-win column is the
#: mirrored net's X-win column.
MIRRORED_COLUMNS = ("draw", "x_win", "o_win")


def label_column(outcomes) -> np.ndarray:
    """``to_categorical``'s column of each result label (-1 -> 2, 0 -> 0, 1 -> 1)."""
    labels = np.zeros(4, dtype=np.int64)
    for code, label in LABEL.items():
        labels[code] = label % 3
    return labels[np.asarray(outcomes)]


def random_positions(games: int, rng: np.random.Generator, first: int = FIRST) -> tuple[np.ndarray, np.ndarray]:
    """Every board of ``games`` random full-board games (nine each) and its game's label column.

    A move is the ``floor(u * n)``-th of the ``n`` empty squares.
    """
    u = rng.random((games, 9))
    codes = np.zeros(games, dtype=np.int64)
    boards = []
    for ply in range(9):
        open_ = OPEN[codes]
        k = (u[:, ply] * open_.sum(1)).astype(np.int64)
        square = np.argmax(np.cumsum(open_, 1) > k[:, None], axis=1)
        codes = children(codes, first)[np.arange(games), square]
        boards.append(codes)
    labels = label_column(SCAN_OUTCOME[codes])
    return np.stack(boards, 1).ravel(), np.repeat(labels, 9)


def train(games: int = GAMES, seed: int = 0, epochs: int = 100, batch: int = 32, lr: float = 1e-3,
          progress: bool = False):
    """The program's net: evoplay's outcome-net layout and fit, on the program's data and labels."""
    from evoplay.tictactoe.trained.common import Trained
    from evoplay.tictactoe.trained import outcome_net

    data_seq, *fit_seqs = np.random.SeedSequence(seed).spawn(4)
    codes, labels = random_positions(games, np.random.default_rng(data_seq))
    net, history, sizes = outcome_net.fit(codes, labels, encode, fit_seqs, epochs, batch, lr, progress, KIND)
    player = player_from_net(net)
    metrics = {
        "settings": {"games": games, "epochs": epochs, "batch": batch, "lr": lr, "validation": outcome_net.VALIDATION,
                     "first": "O", "ending": "full board, first line in scan order"},
        **sizes,
        "label_share": {n: float((labels == i).mean()) for i, n in enumerate(COLUMNS)},
        "train_accuracy": history["train_accuracy"][-1] if epochs else None,
        "val_accuracy": history["val_accuracy"][-1] if epochs else None,
    }
    return Trained(KIND, architecture(), net.weights(), player, history, metrics)


def architecture() -> dict:
    return {
        "sizes": [9, 64, 128, 128, 128, 3],
        "hidden": "relu",
        "output": "softmax",
        "columns": list(COLUMNS),
        "input": "X -1, O +1, empty 0",
        "move_rule": "X maximises column 0, O column 2",
    }


class ProgramPlayer(TablePlayer):
    """The program's move rule over a net: the mover maximises the column ``reading`` names.

    As a TablePlayer it plays evoplay's game (side to move from ``board.TO_MOVE``);
    ``fullboard_table`` gives its moves in the program's game.
    """

    def __init__(self, spec: str, net: MLP, reading: str = "program", columns=COLUMNS, encoder=encode):
        self.net, self.reading, self.columns, self.encoder = net, reading, tuple(columns), encoder
        super().__init__(spec, self._table(board.CHILD, board.LEGAL, board.TO_MOVE))

    def __reduce__(self):
        return (type(self), (self.spec, self.net, self.reading, self.columns, self.encoder))

    def column(self, side: int) -> int:
        """Output column maximised by ``side`` (names follow the program's COLUMNS order)."""
        return self.columns.index(COLUMNS[READINGS[self.reading][side]])

    def _table(self, child, legal, to_move) -> np.ndarray:
        codes = np.flatnonzero(legal.any(1))
        kids, ok = child[codes], legal[codes]
        unique, index = np.unique(kids[ok], return_inverse=True)
        p = softmax(self.net.forward(self.encoder(unique)))
        values = np.full(kids.shape, -np.inf)
        side = to_move[codes]
        col = np.where(side == board.X, self.column(board.X), self.column(board.O))
        values[ok] = p[index, np.repeat(col, ok.sum(1))]
        moves = np.full(board.N_CODES, -1, dtype=np.int64)
        moves[codes] = np.argmax(values, axis=1)
        return onehot_table(moves)

    def fullboard_table(self, first: int = FIRST) -> np.ndarray:
        """Its move on every board of the program's full-board game."""
        codes = np.arange(board.N_CODES)
        legal = OPEN & ~FULL[:, None]
        return self._table(np.where(legal, children(codes, first), -1), legal, mover(codes, first))


def player_from_net(net: MLP, reading: str = "program", spec: str = KIND) -> ProgramPlayer:
    return ProgramPlayer(spec, net, reading)


def player_from_file(architecture: dict, weights: dict) -> ProgramPlayer:
    """Builder for the ``outcome-net-seed003`` player-file kind."""
    from evoplay.tictactoe.trained.common import arch_sizes, mlp_from_weights

    sizes = arch_sizes(architecture, 9, 3)
    for key, want in (("hidden", "relu"), ("output", "softmax"), ("columns", list(COLUMNS)),
                      ("input", "X -1, O +1, empty 0")):
        if architecture.get(key) != want:
            raise PlayerFileError(f"architecture {key!r} must be {want!r}, got {architecture.get(key)!r}")
    return player_from_net(mlp_from_weights(weights, sizes, "relu", None))


# ---------------------------------------------------------------- the committed player files

PLAYER_FILE = f"{KIND}.json"


def player_file(seed: int) -> str:
    """The player file of the net trained with random seed ``seed`` (seed 0: the committed model)."""
    return PLAYER_FILE if seed == 0 else f"{KIND}-seed{seed}.json"


def train_player(out, games: int = GAMES, seed: int = 0, progress: bool = False, command: str = ""):
    """Train the program's net and save it as ``out/player_file(seed)`` (plot beside it)."""
    import time
    from pathlib import Path

    from evoplay import __version__
    from evoplay.files.playerfile import save_player
    from evoplay.tictactoe.trained import outcome_net

    out = Path(out)
    t0 = time.perf_counter()
    trained = train(games=games, seed=seed, progress=progress)
    prov = {"command": command, "seed": seed, "games": games, "train_seconds": round(time.perf_counter() - t0, 1),
            "evoplay": __version__, "metrics": trained.metrics, "history": trained.history,
            "plot": player_file(seed).replace(".json", ".png")}
    path = save_player(out / player_file(seed), KIND, trained.architecture, trained.weights, prov)
    outcome_net.plot(trained.history, path.with_suffix(".png"))
    return path
