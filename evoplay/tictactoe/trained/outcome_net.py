"""outcome-net: a classifier of final results trained on random games (a baseline player).

Data: every board of N random-vs-random games (the board after each move, so the empty
board is left out), labelled with how that game ended: X win, draw or O win. Duplicates
are kept, as recorded. Positions are shuffled and split 80/20 into training and
validation sets.

Input encoding (9 numbers, fixed seats): X +1, O -1, empty 0. The side to move is implied
by the mark counts, so no tenth input is needed. Network 9-64-128-128-128-3, ReLU hidden
layers, softmax output over (X win, draw, O win); cross-entropy, RMSprop, batch 32,
100 epochs. To move, the player takes the legal move whose resulting board has the
highest predicted probability that the mover wins (ties: the lowest square).
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board
from evoplay.errors import PlayerFileError
from evoplay.tictactoe.mlp import MLP, RMSprop, softmax, softmax_cross_entropy
from evoplay.tictactoe.trained.common import Trained, arch_sizes, exact_results, figure, greedy_player, just_moved, mlp_from_weights, save_figure

KIND = "outcome-net"
SIZES = [9, 64, 128, 128, 128, 3]
DEFAULT_GAMES = 10_000
EPOCHS = 100
BATCH = 32
LEARNING_RATE = 1e-3
VALIDATION = 0.2
#: Output classes, in order.
CLASSES = (board.X_WIN, board.DRAW, board.O_WIN)
CLASS_NAMES = ("x_win", "draw", "o_win")
LABEL_OF = {c: i for i, c in enumerate(CLASSES)}

SIGN = np.array([0.0, 1.0, -1.0])  # mark -> input: empty 0, X +1, O -1


def encode(codes) -> np.ndarray:
    """Network inputs of boards: X +1, O -1, empty 0."""
    return SIGN[board.MARKS[np.asarray(codes)]]


def random_positions(games: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every board of ``games`` random-vs-random games and each game's final result (class index).

    All games advance together, one ply per step, through the shared board tables. A move
    is the ``floor(u * n)``-th of the ``n`` empty squares, so the data set depends on the
    seed only, not on how players sample.
    """
    u = rng.random((games, 9))
    codes = np.zeros(games, dtype=np.int64)
    active = np.arange(games)
    boards, owners = [], []
    for ply in range(9):
        legal = board.LEGAL[codes[active]]
        k = (u[active, ply] * legal.sum(1)).astype(np.int64)
        moves = np.argmax(np.cumsum(legal, 1) > k[:, None], axis=1)
        c = board.CHILD[codes[active], moves]
        codes[active] = c
        boards.append(c)
        owners.append(active)
        active = active[board.OUTCOME[c] == board.ONGOING]
        if active.size == 0:
            break
    to_label = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(CLASSES):
        to_label[c] = i
    labels = to_label[board.OUTCOME[codes]]
    return np.concatenate(boards), labels[np.concatenate(owners)]


def build_net(rng: np.random.Generator) -> MLP:
    return MLP.build(SIZES, "relu", None, rng)


def win_probability(net: MLP, kids) -> np.ndarray:
    """Predicted probability that the player who just moved into each board wins."""
    p = softmax(net.forward(encode(kids)))
    mover_wins = np.where(just_moved(kids) == board.X, LABEL_OF[board.X_WIN], LABEL_OF[board.O_WIN])
    return p[np.arange(len(p)), mover_wins]


def player_from_net(net: MLP, spec: str = KIND):
    return greedy_player(spec, lambda kids: win_probability(net, kids))


def accuracy_and_loss(net: MLP, x, y, batch: int = 4096) -> tuple[float, float]:
    correct, loss = 0, 0.0
    for i in range(0, len(x), batch):
        logits = net.forward(x[i : i + batch])
        correct += int((logits.argmax(1) == y[i : i + batch]).sum())
        loss += softmax_cross_entropy(logits, y[i : i + batch])[0] * len(logits)
    return correct / len(x), loss / len(x)


def train(
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    epochs: int = EPOCHS,
    batch: int = BATCH,
    lr: float = LEARNING_RATE,
    progress: bool = False,
) -> Trained:
    """Generate the random-game data set and fit the classifier; see the module doc."""
    data_seq, *fit_seqs = np.random.SeedSequence(seed).spawn(4)
    codes, labels = random_positions(games, np.random.default_rng(data_seq))
    net, history, metrics = fit(codes, labels, encode, fit_seqs, epochs, batch, lr, progress, KIND)
    player = player_from_net(net)
    metrics = {
        "settings": {"games": games, "epochs": epochs, "batch": batch, "lr": lr, "validation": VALIDATION},
        **metrics,
        "label_share": {n: float((labels == i).mean()) for i, n in enumerate(CLASS_NAMES)},
        "train_accuracy": history["train_accuracy"][-1] if epochs else None,
        "val_accuracy": history["val_accuracy"][-1] if epochs else None,
        "exact": exact_results(player),
    }
    return Trained(KIND, architecture(), net.weights(), player, history, metrics)


def fit(codes, labels, encoder, seqs, epochs: int, batch: int, lr: float, progress: bool = False, desc: str = KIND):
    """Shuffle and split the positions 80/20, then fit a fresh classifier (module doc).

    ``seqs`` are three SeedSequences: the split, the initial weights, the batches.
    ``encoder(codes)`` gives the network inputs. Returns the net, its per-epoch history
    and the data-set sizes.
    """
    from tqdm import tqdm

    split_seq, init_seq, batch_seq = seqs
    order = np.random.default_rng(split_seq).permutation(len(codes))
    n_val = int(round(VALIDATION * len(codes)))
    val, tr = order[:n_val], order[n_val:]
    x_tr, y_tr, x_val, y_val = encoder(codes[tr]), labels[tr], encoder(codes[val]), labels[val]

    net = build_net(np.random.default_rng(init_seq))
    opt = RMSprop(lr)
    rng = np.random.default_rng(batch_seq)
    history = {"train_accuracy": [], "val_accuracy": [], "train_loss": [], "val_loss": []}
    for _ in tqdm(range(epochs), unit="epoch", desc=desc, disable=not progress):
        perm = rng.permutation(len(x_tr))
        for i in range(0, len(perm), batch):
            idx = perm[i : i + batch]
            _, grads = net.loss_and_grads(x_tr[idx], y_tr[idx], softmax_cross_entropy)
            opt.step(net.params, grads)
        for name, x, y in (("train", x_tr, y_tr), ("val", x_val, y_val)):
            acc, loss = accuracy_and_loss(net, x, y)
            history[f"{name}_accuracy"].append(acc)
            history[f"{name}_loss"].append(loss)
    sizes = {"positions": int(len(codes)), "train_positions": int(len(tr)), "val_positions": int(len(val))}
    return net, history, sizes


def architecture() -> dict:
    return {
        "sizes": SIZES,
        "hidden": "relu",
        "output": "softmax",
        "classes": list(CLASS_NAMES),
        "input": "X +1, O -1, empty 0",
    }


def plot(history: dict, path) -> None:
    """Training and validation accuracy per epoch."""
    fig, ax = figure("outcome-net training", "epoch", "accuracy")
    epochs = np.arange(1, len(history["train_accuracy"]) + 1)
    ax.plot(epochs, history["train_accuracy"], label="train")
    ax.plot(epochs, history["val_accuracy"], label="validation")
    ax.legend(loc="lower right")
    save_figure(fig, path)


def player_from_file(architecture: dict, weights: dict):
    """Builder for the ``outcome-net`` player-file kind."""
    sizes = arch_sizes(architecture, 9, 3)
    for key, want in (("hidden", "relu"), ("output", "softmax")):
        if architecture.get(key, want) != want:
            raise PlayerFileError(f"architecture {key!r} must be {want!r}, got {architecture.get(key)!r}")
    return player_from_net(mlp_from_weights(weights, sizes, "relu", None))
