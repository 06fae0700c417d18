"""Seed 003: a faithful model of a published outcome-net program, kept apart from evoplay's.

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

The faithful player file kind is ``outcome-net-seed003``: the network (inputs X -1, O +1,
empty 0, the program's marks), its columns as ``to_categorical`` made them, and the move
rule that reads column 0 for X and column 2 for O (the argmax over the boards after each
legal move; ties to the lowest square). Loaded by evoplay it plays evoplay's game with
that rule; ``fullboard_results`` plays the program's game.
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


class Seed003Player(TablePlayer):
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


def player_from_net(net: MLP, reading: str = "program", spec: str = KIND) -> Seed003Player:
    return Seed003Player(spec, net, reading)


def player_from_file(architecture: dict, weights: dict) -> Seed003Player:
    """Builder for the ``outcome-net-seed003`` player-file kind."""
    from evoplay.tictactoe.trained.common import arch_sizes, mlp_from_weights

    sizes = arch_sizes(architecture, 9, 3)
    for key, want in (("hidden", "relu"), ("output", "softmax"), ("columns", list(COLUMNS)),
                      ("input", "X -1, O +1, empty 0")):
        if architecture.get(key) != want:
            raise PlayerFileError(f"architecture {key!r} must be {want!r}, got {architecture.get(key)!r}")
    return player_from_net(mlp_from_weights(weights, sizes, "relu", None))


# ---------------------------------------------------------------- the committed player and its report

PLAYER_FILE = "outcome-net-seed003.json"


def player_file(seed: int) -> str:
    """The player file of the net trained with ``seed`` (seed 0: the committed model)."""
    return PLAYER_FILE if seed == 0 else f"outcome-net-seed003-seed{seed}.json"


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


PUBLISHED = {
    "random_split": {"x_win": 0.23, "o_win": 0.64, "draw": 0.11},
    "as_x": {"win": 0.57, "draw": 0.40, "loss": 0.01},
    # The O run's printed lines: "X Wins 3%, O Wins 89%, Draws 6%".
    "as_o_printed": {"X Wins": 0.03, "O Wins": 0.89, "Draws": 0.06},
}


def _runs(x_net_table, o_net_table, random_table, first, play) -> dict:
    """The net as X and as O against random; O run kept as both printings would show it."""
    as_x = play(x_net_table, random_table, first)
    as_o = play(random_table, o_net_table, first)
    return {
        "as_x": {"win": as_x["x_win"], "draw": as_x["draw"], "loss": as_x["o_win"]},
        "as_o": {"win": as_o["o_win"], "draw": as_o["draw"], "loss": as_o["x_win"]},
    }


def _standard(x_player, o_player, first=board.X) -> dict:
    from evoplay.tictactoe import exact

    o = exact.outcome(x_player, o_player)
    return {"x_win": o.x_win, "draw": o.draw, "o_win": o.o_win}


def _fullboard(x_table, o_table, first) -> dict:
    return outcome(x_table, o_table, first)


def evoplay_outcome_net(path):
    """evoplay's correct outcome-net read from its player file, with the program's move rule."""
    from evoplay.files.playerfile import read_document
    from evoplay.tictactoe.trained.common import arch_sizes, mlp_from_weights
    from evoplay.tictactoe.trained import outcome_net

    doc = read_document(path)
    if doc["kind"] != "outcome-net":
        raise PlayerFileError(f"{path} is a {doc['kind']} player file, not an outcome-net")
    net = mlp_from_weights(doc["weights"], arch_sizes(doc["architecture"], 9, 3), "relu", None)
    return net, outcome_net.encode, outcome_net.CLASS_NAMES


def variants(player: Seed003Player, evoplay_net_path) -> list[dict]:
    """Exact results of the model with each hypothesis on, and with each one taken away."""
    from evoplay.tictactoe.players import make_player

    intended = Seed003Player(player.spec + " (intended reading)", player.net, "intended")
    net, enc, cols = evoplay_outcome_net(evoplay_net_path)
    evo_program = Seed003Player("outcome-net (program's reading)", net, "program", cols, enc)
    evo_intended = Seed003Player("outcome-net", net, "intended", cols, enc)
    rnd = make_player("random")
    out = []

    def add(name, game, first, reading, net_name, x_table, o_table, rnd_table, play, data_first=board.O,
            data_play=_fullboard):
        """``random_split``: the net's training data, random games (rule ``data_play``, with
        ``data_first`` moving first): what the program printed as its random games."""
        res = _runs(x_table, o_table, rnd_table, first, play)
        split = data_play(RANDOM_TABLE if data_play is _fullboard else rnd, RANDOM_TABLE if data_play is _fullboard
                          else rnd, data_first)
        out.append({"name": name, "game": game, "data_first": "O" if data_first == board.O else "X",
                    "first": "O" if first == board.O else "X", "reading": reading, "net": net_name, **res,
                    "random_split": split})

    fo, fx = player.fullboard_table(board.O), player.fullboard_table(board.X)
    full = "full board, first line in scan order"
    std = "evoplay's (ends at the first line)"
    add("faithful: all four hypotheses", full, board.O, "program", "seed003", fo, fo, RANDOM_TABLE, _fullboard)
    io = intended.fullboard_table(board.O)
    add("labels read as intended", full, board.O, "intended", "seed003", io, io, RANDOM_TABLE, _fullboard)
    add("X moves first in the net's games", full, board.X, "program", "seed003", fx, fx, RANDOM_TABLE, _fullboard)
    # Trained on X-first games instead: the full-board rule is symmetric in X and O, so the
    # committed net with marks and columns swapped is such a net (same training, mirrored).
    mirrored = Seed003Player(player.spec + " (mirrored)", player.net, "program", MIRRORED_COLUMNS, mirrored_encode)
    mx = mirrored.fullboard_table(board.X)
    add("X moves first everywhere (mirrored net)", full, board.X, "program", "seed003 mirrored", mx, mx, RANDOM_TABLE,
        _fullboard, data_first=board.X)
    add("evoplay's game, seed003 net", std, board.X, "program", "seed003", player, player, rnd, _standard)
    add("evoplay's game and net, program's reading", std, board.X, "program", "outcome-net", evo_program, evo_program,
        rnd, _standard, data_first=board.X, data_play=_standard)
    add("evoplay's outcome-net (correct)", std, board.X, "intended", "outcome-net", evo_intended, evo_intended, rnd,
        _standard, data_first=board.X, data_play=_standard)
    return out


def printed_o_run(as_o: dict, hypothesis: bool = True) -> dict:
    """The O run's three lines as the program prints them: with the printout hypothesis,
    "X Wins" is the net's wins and "O Wins" random's; without it, the marks' wins."""
    if hypothesis:
        return {"X Wins": as_o["win"], "O Wins": as_o["loss"], "Draws": as_o["draw"]}
    return {"X Wins": as_o["loss"], "O Wins": as_o["win"], "Draws": as_o["draw"]}


def gap(ours: dict, published: dict) -> float:
    """Largest difference, in percentage points, between matching entries."""
    return max(abs(100 * (ours[k] - published[k])) for k in published)


def seed_spread(paths) -> list[dict]:
    """The two closest variants for nets trained with other seeds: how much training noise moves them."""
    from evoplay.files.playerfile import load_player

    rows = []
    for path in paths:
        player = load_player(path)
        row = {"player_file": str(path), "seed": player.provenance.get("seed")}
        for key, first in (("games_o_first", board.O), ("games_x_first", board.X)):
            t = player.fullboard_table(first)
            row[key] = _runs(t, t, RANDOM_TABLE, first, _fullboard)
        rows.append(row)
    return rows


def report(player_path, evoplay_net_path, other_seeds=()) -> dict:
    """Everything written to results/seed003: random splits, the variants, the gaps, and
    the faithful model's results for nets trained with ``other_seeds`` (player files)."""
    from evoplay.files.playerfile import load_player

    player = load_player(player_path)
    rows = variants(player, evoplay_net_path)
    for r in rows:
        r["printed_o_run"] = printed_o_run(r["as_o"], True)
        r["printed_o_run_literal"] = printed_o_run(r["as_o"], False)
        r["gap_pp"] = {
            "random_split": gap(r["random_split"], PUBLISHED["random_split"]),
            "as_x": gap(r["as_x"], PUBLISHED["as_x"]),
            "as_o_printed": gap(r["printed_o_run"], PUBLISHED["as_o_printed"]),
            "as_o_printed_literal": gap(r["printed_o_run_literal"], PUBLISHED["as_o_printed"]),
        }
    return {
        "player_file": str(player_path),
        "evoplay_outcome_net": str(evoplay_net_path),
        "published": PUBLISHED,
        "sequence_counts": {"O first": sequence_counts(board.O), "X first": sequence_counts(board.X)},
        "training": player.provenance.get("metrics", {}),
        "variants": rows,
        "seeds": seed_spread([player_path, *other_seeds]),
    }


def _three(d: dict, keys) -> str:
    return " / ".join(f"{100 * d[k]:.1f}" for k in keys)


def table(rep: dict) -> str:
    """The seed's published figures beside the faithful model's, then every variant."""
    pub = rep["published"]
    faithful = rep["variants"][0]
    seq = rep["sequence_counts"]["O first"]
    total = sum(v["sequences"] for v in seq.values())
    correct = rep["variants"][-1]
    lines = [
        "| figure | published | evoplay | how |",
        "|---|---|---|---|",
        f"| random games: X wins / O wins / draws % | {_three(pub['random_split'], ('x_win', 'o_win', 'draw'))} | "
        f"{_three(faithful['random_split'], ('x_win', 'o_win', 'draw'))} (full board, O first: "
        f"{seq['x_win']['sequences']:,} / {seq['o_win']['sequences']:,} / {seq['draw']['sequences']:,} of {total:,} "
        f"move orders) | exact, by enumeration |",
        f"| net as X vs random: win / draw / loss % | {_three(pub['as_x'], ('win', 'draw', 'loss'))} | "
        f"{_three(faithful['as_x'], ('win', 'draw', 'loss'))} (faithful model) | exact, committed player file |",
        f"| net as O vs random, printed \"X Wins / O Wins / Draws\" % | "
        f"{_three(pub['as_o_printed'], ('X Wins', 'O Wins', 'Draws'))} | "
        f"{_three(faithful['printed_o_run'], ('X Wins', 'O Wins', 'Draws'))} (faithful model: net's wins / "
        f"random's wins / draws) | exact, committed player file |",
        f"| evoplay's `outcome-net` as X vs random (correct program) | - | "
        f"{_three(correct['as_x'], ('win', 'draw', 'loss'))} | exact |",
        "",
        "Every variant, exact (net's win / draw / loss % against random; the O run also as printed):",
        "",
        "| variant | game | first to move: data / net's games | columns read | net | "
        "random games (data) X / O / draw | as X | as O | "
        "O run printed (net / random / draws) | gap to published, points: split, X run, O run printed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v in rep["variants"]:
        g = v["gap_pp"]
        lines.append(
            f"| {v['name']} | {v['game']} | {v['data_first']} / {v['first']} | {v['reading']} | {v['net']} | "
            f"{_three(v['random_split'], ('x_win', 'o_win', 'draw'))} | {_three(v['as_x'], ('win', 'draw', 'loss'))} | "
            f"{_three(v['as_o'], ('win', 'draw', 'loss'))} | {_three(v['printed_o_run'], ('X Wins', 'O Wins', 'Draws'))} | "
            f"{g['random_split']:.1f}, {g['as_x']:.1f}, {g['as_o_printed']:.1f} |"
        )
    lines += [
        "",
        "The model with the net trained from each seed (full board; data O first; program's columns; win / draw / loss %):",
        "",
        "| training seed | net's games O first: as X | as O | net's games X first: as X | as O |",
        "|---:|---|---|---|---|",
    ]
    for r in rep["seeds"]:
        o, x = r["games_o_first"], r["games_x_first"]
        keys = ("win", "draw", "loss")
        lines.append(f"| {r['seed']} | {_three(o['as_x'], keys)} | {_three(o['as_o'], keys)} | "
                     f"{_three(x['as_x'], keys)} | {_three(x['as_o'], keys)} |")
    return "\n".join(lines) + "\n"


def write_results(out, player_path, evoplay_net_path) -> dict:
    """results.json and table.md in ``out``; returns the report."""
    from pathlib import Path

    from evoplay.files.atomic import write_text
    from evoplay.published.common import write_json

    out = Path(out)
    others = sorted(Path(player_path).parent.glob("outcome-net-seed003-seed*.json"),
                    key=lambda p: int(p.stem.rsplit("seed", 1)[1]))
    rep = report(player_path, evoplay_net_path, others)
    write_json(out / "results.json", rep)
    write_text(out / "table.md", table(rep))
    return rep
