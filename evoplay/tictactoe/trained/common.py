"""What every trained tic-tac-toe player shares: greedy play from a network's scores,
exact reports, training figures, player files.

Each trainer module (``value_net``, ``outcome_net``, the GA recipe) trains one kind, saves it as a player file and rebuilds it from one
(``player_from_file``). A trained network is deterministic given the board, so once loaded
it is a ``TablePlayer``: the network is evaluated once, vectorized, on every board with a
legal move, and the table holds all mass on the square it picks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from evoplay.tictactoe import board as ttt_board
from evoplay.errors import PlayerFileError
from evoplay.tictactoe.mlp import MLP
from evoplay.tictactoe.players import Player, TablePlayer, make_player, onehot_table
from evoplay.files.playerfile import weight_array

#: Every board where the side to move has a legal move (reachable or not).
MOVE_CODES = np.flatnonzero(ttt_board.LEGAL.any(1))

#: Opponents whose exact results every trained player reports, from both seats.
REPORT_OPPONENTS = ("random", "logic", "minimax")


def just_moved(codes) -> np.ndarray:
    """The mark (1 X, 2 O) of the player who made the last move on each board."""
    return (3 - ttt_board.TO_MOVE[np.asarray(codes)]).astype(np.int8)


def best_moves(score, codes) -> np.ndarray:
    """For each board, the legal move whose resulting board ``score`` rates highest (-1: none).

    ``score(child_codes)`` rates boards for the player who just moved into them. Ties go to
    the lowest square.
    """
    codes = np.asarray(codes)
    kids = ttt_board.CHILD[codes]
    legal = ttt_board.LEGAL[codes]
    values = np.full(kids.shape, -np.inf)
    unique, index = np.unique(kids[legal], return_inverse=True)  # boards share children
    scores = score(unique)
    if np.isnan(scores).any():  # inf - inf or 0 * inf: weights so large that the sums overflow
        board = ttt_board.render(int(unique[np.argmax(np.isnan(scores))])).replace("\n", " / ")
        raise PlayerFileError(f"the network's output on board {board} is not a number (its weights are too large to evaluate)")
    values[legal] = scores[index]
    return np.where(legal.any(1), np.argmax(values, axis=1), -1)


def greedy_player(spec: str, score) -> TablePlayer:
    """The deterministic player that always takes the move ``score`` rates best, as a table."""
    moves = np.full(ttt_board.N_CODES, -1, dtype=np.int64)
    moves[MOVE_CODES] = best_moves(score, MOVE_CODES)
    return TablePlayer(spec, onehot_table(moves))


class GreedyPlayer(Player):
    """The same player computed on demand, for boards actually played (cheap to build)."""

    deterministic = True

    def __init__(self, spec: str, score):
        self.spec, self.score = spec, score

    def probs(self, codes):
        return onehot_table(best_moves(self.score, codes))

    def sample(self, codes, u):
        return best_moves(self.score, codes)


def arch_sizes(architecture: dict, first: int, last: int) -> list[int]:
    """The ``sizes`` list of a layered network: ``first`` inputs, ``last`` outputs."""
    sizes = architecture.get("sizes")
    if (
        not isinstance(sizes, list)
        or not 2 <= len(sizes) <= 8
        or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 1024 for n in sizes)
    ):
        raise PlayerFileError(f"architecture 'sizes' must be a list of 2..8 integers in 1..1024, got {sizes!r}")
    if sizes[0] != first or sizes[-1] != last:
        raise PlayerFileError(f"architecture 'sizes' must start with {first} and end with {last}, got {sizes!r}")
    return sizes


def mlp_from_weights(weights: dict, sizes, hidden: str, output: str | None) -> MLP:
    """An MLP of the given layout whose arrays ``W0, b0, ...`` are checked and loaded."""
    if not isinstance(weights, dict):
        raise PlayerFileError("weights must be an object of named arrays")
    expected = {f"{p}{k}" for k in range(len(sizes) - 1) for p in "Wb"}
    extra = sorted(set(weights) - expected)
    if extra:
        raise PlayerFileError(f"unexpected weights {', '.join(map(repr, extra))}")
    net = MLP.build(sizes, hidden, output, np.random.default_rng(0))
    params = []
    for k, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        params += [weight_array(weights, f"W{k}", (a, b)), weight_array(weights, f"b{k}", (b,))]
    net.params = params
    return net


def exact_results(player, opponents=REPORT_OPPONENTS) -> dict:
    """Exact win/draw/loss of ``player`` against each opponent, as X and as O."""
    from evoplay.tictactoe.exact import outcome

    out = {}
    for spec in opponents:
        opp = make_player(spec)
        as_x = outcome(player, opp)
        as_o = outcome(opp, player)
        out[spec] = {
            "as_x": {"win": as_x.x_win, "draw": as_x.draw, "loss": as_x.o_win},
            "as_o": {"win": as_o.o_win, "draw": as_o.draw, "loss": as_o.x_win},
        }
    return out


@dataclass
class Trained:
    """What a training run produces: the player file's contents, its curves, its metrics."""

    kind: str
    architecture: dict
    weights: dict
    player: TablePlayer
    history: dict = field(default_factory=dict)
    metrics: dict = field(default_factory=dict)


def save_figure(fig, path) -> None:
    """Write a matplotlib figure atomically (format from the suffix) and close it."""
    import io

    import matplotlib.pyplot as plt

    from evoplay.files.atomic import write_bytes

    buf = io.BytesIO()
    fig.savefig(buf, format=str(path).rsplit(".", 1)[-1], dpi=120, bbox_inches="tight")
    plt.close(fig)
    write_bytes(path, buf.getvalue())


def figure(title: str, xlabel: str, ylabel: str):
    """A fresh figure and axes on the non-interactive backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return fig, ax


def write(trained: Trained, out, provenance: dict, plot):
    """Save the player file (provenance plus metrics and curves) and its plot beside it.

    ``plot(history, path)`` draws the training curves (each trainer module's ``plot``).
    Returns the paths of the player file and of the plot (same name, ``.png``).
    """
    from pathlib import Path

    from evoplay import __version__
    from evoplay.files.playerfile import save_player

    out = Path(out)
    plot_path = out.with_suffix(".png")
    prov = {**provenance, "evoplay": __version__, "plot": plot_path.name, "metrics": trained.metrics,
            "history": trained.history}
    save_player(out, trained.kind, trained.architecture, trained.weights, prov)
    plot(trained.history, plot_path)
    return out, plot_path
