"""value-net: a 9-18-9-3-1 tanh network that learns position values by self-play (a baseline player).

Input: the board seen by the player who just moved: its marks 1, the other's -1, empty
0.01. Output: how good the board is for that player (-1..1). To move, the network rates
the board after each legal move and takes the best (ties: the lowest square).

Training cycles through three kinds of game: net-vs-net, net (X) vs random, random vs net
(O), so the net takes X and O equally often and one game in three is net-vs-net. After
each game every position (the board after each move, whoever made it) gets the target +1
if the player who just moved went on to win, -1 if it lost, 0 for a draw, and the network
takes one backpropagation step on it (squared error, learning rate 0.025, no momentum),
in the order the positions were played. A game is "good" when net-vs-net ends in a draw or
the net beats random.

Exploration: in net-vs-net games each move is, with probability ``explore`` (default
0.03), a uniformly random one instead of the net's choice; those games still count and
still train. Without it a net-vs-net game is one deterministic line, and the net never
learns to defend as X against lines it does not play itself. Measured at 500,000 games,
seed 0 (exact, as X): without exploration it loses 1.0% to random, 21% to logic and 50% to
minimax; with 0.03 it loses none of them (good games 94.6 vs 93.0 per 100 at the end).

Training settings (``train`` arguments, all off by default; see ``evoplay.published.value_net_tutorial``):
``lr``; ``empty`` (the input of an empty square); ``side_input`` (a tenth input, +1 when X is
to move on the rated board and -1 when O is); ``cycle`` (the kinds of game played in turn,
e.g. only net-vs-net, or only the two games against random). Since the sampled good-games
curve then counts different games, ``exact_every`` also records an exact curve that
means the same for every setting: every so many games, the expected good games per 100 of
the standard three-game cycle, computed exactly (``exact_good_per_100``).
"""

from __future__ import annotations

import numpy as np

from evoplay.tictactoe import board
from evoplay.tictactoe.mlp import MLP, SGD
from evoplay.errors import PlayerFileError
from evoplay.tictactoe.trained.common import Trained, arch_sizes, exact_results, figure, greedy_player, just_moved, mlp_from_weights, save_figure

KIND = "value-net"
SIZES = [9, 18, 9, 3, 1]
EMPTY_INPUT = 0.01
LEARNING_RATE = 0.025
EXPLORE = 0.03
DEFAULT_GAMES = 500_000
BLOCK = 100  # games per point of the good-games curve

#: The three kinds of training game, in cycle order: which marks the net plays.
CYCLE = (("net-vs-net", (board.X, board.O)), ("net-vs-random", (board.X,)), ("random-vs-net", (board.O,)))
GAME_KINDS = tuple(mode for mode, _ in CYCLE)


def encode(codes, empty: float = EMPTY_INPUT, side_input: bool = False) -> np.ndarray:
    """Network inputs of boards seen by the player who just moved: own 1, other -1, empty.

    With ``side_input`` a tenth input says who is to move on the board: +1 X, -1 O.
    """
    codes = np.asarray(codes)
    marks = board.MARKS[codes]
    own = just_moved(codes)[..., None]
    x = np.where(marks == board.EMPTY, empty, np.where(marks == own, 1.0, -1.0))
    if side_input:
        side = np.where(board.TO_MOVE[codes] == board.X, 1.0, -1.0)[..., None]
        x = np.concatenate([x, side], axis=-1)
    return x


INPUTS = encode(np.arange(board.N_CODES))
INPUTS.setflags(write=False)


def build_net(rng: np.random.Generator, side_input: bool = False) -> MLP:
    return MLP.build(sizes(side_input), "tanh", "tanh", rng)


def sizes(side_input: bool = False) -> list[int]:
    """Layer sizes: nine inputs, ten with the side-to-move input."""
    return [SIZES[0] + int(side_input), *SIZES[1:]]


def player_from_net(net: MLP, empty: float = EMPTY_INPUT, spec: str = KIND, side_input: bool = False):
    """The deterministic player that moves to the board ``net`` rates best."""
    return greedy_player(spec, lambda kids: net.forward(encode(kids, empty, side_input))[:, 0])


def targets(path: np.ndarray, result: int) -> np.ndarray:
    """+1 / -1 / 0 for each board of a finished game, seen by the player who just moved."""
    if result == board.DRAW:
        return np.zeros(len(path))
    # X_WIN == X and O_WIN == O: the result names the winning mark.
    return np.where(just_moved(path) == result, 1.0, -1.0)


def play_game(net: MLP, net_marks, u: np.ndarray, explore: float = 0.0, inputs=INPUTS) -> tuple[np.ndarray, int]:
    """One training game; ``u`` holds two uniforms per ply. Returns the boards after each
    move and the result. ``inputs`` is the network input of every board code."""
    code, path, ply = 0, [], 0
    while board.OUTCOME[code] == board.ONGOING:
        kids = board.CHILD[code][board.LEGAL[code]]
        if board.TO_MOVE[code] in net_marks and not u[ply, 1] < explore:
            code = int(kids[np.argmax(net.forward(inputs[kids])[:, 0])])
        else:
            code = int(kids[int(u[ply, 0] * len(kids))])
        path.append(code)
        ply += 1
    return np.array(path), int(board.OUTCOME[code])


def train(
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    lr: float = LEARNING_RATE,
    explore: float = EXPLORE,
    progress: bool = False,
    empty: float = EMPTY_INPUT,
    side_input: bool = False,
    cycle: tuple = GAME_KINDS,
    exact_every: int = 0,
) -> Trained:
    """Train a value network by self-play and play against random; see the module doc."""
    from tqdm import tqdm

    cycle = tuple(cycle)
    if not cycle or not set(cycle) <= set(GAME_KINDS):
        raise ValueError(f"cycle must list game kinds among {', '.join(GAME_KINDS)}, got {cycle!r}")
    marks_of = dict(CYCLE)
    default_inputs = empty == EMPTY_INPUT and not side_input
    inputs = INPUTS if default_inputs else encode(np.arange(board.N_CODES), empty, side_input)
    init_seq, play_seq = np.random.SeedSequence(seed).spawn(2)
    net = build_net(np.random.default_rng(init_seq), side_input)
    rng = np.random.default_rng(play_seq)
    opt = SGD(lr)
    good = np.zeros(games, dtype=bool)
    exact_curve = []
    wanted = {"net-vs-net": board.DRAW, "net-vs-random": board.X_WIN, "random-vs-net": board.O_WIN}
    with tqdm(total=games, unit="game", desc=KIND, disable=not progress, mininterval=1.0) as bar:
        for g in range(games):
            mode = cycle[g % len(cycle)]
            self_play = mode == "net-vs-net"
            path, result = play_game(net, marks_of[mode], rng.random((9, 2)), explore if self_play else 0.0, inputs)
            good[g] = result == wanted[mode]
            for code, t in zip(path, targets(path, result)):
                _, grads = net.loss_and_grads(inputs[code], np.array([t]))
                opt.step(net.params, grads)
            if exact_every and (g + 1) % exact_every == 0:
                exact_curve.append(exact_good_per_100(player_from_net(net, empty, side_input=side_input), explore))
            if g % 1000 == 999:
                bar.update(1000)
        bar.update(games - bar.n)
    blocks = good[: games // BLOCK * BLOCK].reshape(-1, BLOCK).sum(1)
    player = player_from_net(net, empty, side_input=side_input)
    tail = blocks[-10:]
    settings = {"games": games, "lr": lr, "explore": explore}
    # Non-default settings only, so a default run's file is what it always was.
    if empty != EMPTY_INPUT:
        settings["empty"] = empty
    if side_input:
        settings["side_input"] = True
    if cycle != GAME_KINDS:
        settings["cycle"] = list(cycle)
    history = {"good_per_100": blocks.tolist()}
    if exact_every:
        settings["exact_every"] = exact_every
        history["exact_good_per_100"] = exact_curve
    metrics = {
        "settings": settings,
        "good_per_100_last_block": int(blocks[-1]) if blocks.size else None,
        "good_per_100_last_10_blocks": float(tail.mean()) if tail.size else None,
        "good_fraction_all": float(good.mean()) if games else None,
        "exact": exact_results(player),
    }
    return Trained(
        kind=KIND,
        architecture=architecture(empty, side_input),
        weights=net.weights(),
        player=player,
        history=history,
        metrics=metrics,
    )


def exact_good_per_100(player, explore: float = EXPLORE) -> float:
    """Expected good games per 100 of the standard cycle, exactly: the mean of the
    probability that net-vs-net (each move random with probability ``explore``) is drawn
    and that the net beats random as X and as O."""
    from evoplay.tictactoe.exact import outcome
    from evoplay.tictactoe.players import TablePlayer, make_player, uniform_table

    rnd = make_player("random")
    explorer = TablePlayer(player.spec, (1.0 - explore) * player.table + explore * uniform_table(board.LEGAL))
    draw = outcome(explorer, explorer).draw
    return 100.0 * (draw + outcome(player, rnd).x_win + outcome(rnd, player).o_win) / 3.0


def architecture(empty: float = EMPTY_INPUT, side_input: bool = False) -> dict:
    arch = {"sizes": sizes(side_input), "activation": "tanh", "empty": empty, "input": "player who just moved"}
    if side_input:
        arch["side_input"] = True
    return arch


def plot(history: dict, path) -> None:
    """Good games per 100-game block, with a moving average."""
    blocks = np.asarray(history["good_per_100"], dtype=float)
    fig, ax = figure("value-net training: good games per 100", "games played", "good games per 100")
    x = (np.arange(len(blocks)) + 1) * BLOCK
    ax.plot(x, blocks, lw=0.5, alpha=0.4, label="per block")
    w = max(1, min(50, len(blocks) // 10))
    if len(blocks) >= w:
        ax.plot(x[w - 1 :], np.convolve(blocks, np.ones(w) / w, "valid"), lw=1.5, label=f"mean of {w} blocks")
    ax.axhline(90, color="grey", ls="--", lw=1, label="90")
    ax.set_ylim(0, 100)
    ax.legend(loc="lower right")
    save_figure(fig, path)


def player_from_file(architecture: dict, weights: dict):
    """Builder for the ``value-net`` player-file kind."""
    side_input = architecture.get("side_input", False)
    if not isinstance(side_input, bool):
        raise PlayerFileError(f"architecture 'side_input' must be true or false, got {side_input!r}")
    layers = arch_sizes(architecture, 9 + side_input, 1)
    if architecture.get("activation", "tanh") != "tanh":
        raise PlayerFileError(f"architecture 'activation' must be 'tanh', got {architecture.get('activation')!r}")
    empty = architecture.get("empty", EMPTY_INPUT)
    if not isinstance(empty, (int, float)) or isinstance(empty, bool) or not -1.0 <= empty <= 1.0:
        raise PlayerFileError(f"architecture 'empty' must be a number in -1..1, got {empty!r}")
    net = mlp_from_weights(weights, layers, "tanh", "tanh")
    return player_from_net(net, float(empty), side_input=side_input)
