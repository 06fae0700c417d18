"""Players: each gives its move distribution for a board; table-driven ones precompute it.

One interface serves matches, fitness evaluation and exact analysis:

- ``probs(codes)`` -> ``(n, 9)`` move probabilities for boards given as codes (the side to
  move is read off the board, so every player can play either side);
- ``sample(codes, u)`` -> ``(n,)`` moves, sampled with one uniform number per board;
- as every game's player (``evoplay.arena.players``): ``distribution(state)`` and
  ``choose(state, rng)`` on one board, so a tic-tac-toe player is an ordinary player of its
  game, with its move table as a capability the game's batched and exact matches read.

Built-in players are computed once over all 3**9 boards (``TablePlayer``), so playing a
move is a table look-up.
"""

from __future__ import annotations

import functools
import inspect
import os
from types import MappingProxyType

import numpy as np

from evoplay import context
from evoplay.tictactoe import board
from evoplay.files.paths import check_path
from evoplay.tictactoe.userplayer import split_user_spec, user_table
from evoplay.arena.players import format_spec, quoted
from evoplay.arena.players import parse_spec as arena_parse_spec
from evoplay.errors import SpecError
from evoplay.networks.arithmetic import exp_array


class Player:
    """A player known by its move distribution."""

    spec: str = "?"
    deterministic: bool = False

    def probs(self, codes) -> np.ndarray:
        raise NotImplementedError

    def sample(self, codes, u) -> np.ndarray:
        raise NotImplementedError

    # as a player of the game interface (``evoplay.arena.players``), on one board code
    def distribution(self, state) -> list:
        row = self.probs(np.array([state]))[0]
        return [(int(m), float(row[m])) for m in np.flatnonzero(row > 0)]

    def choose(self, state, rng):
        """Its move on one board, drawn with one uniform of ``rng``, as the batched engine draws
        one per board, so a seeded game repeats."""
        return int(self.sample(np.array([state]), rng.random(1))[0])

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec}>"


def alias_tables(probs: np.ndarray):
    """Walker alias tables of move distributions (rows of 9): ``(keep, alias)``, each (rows, 9).

    A uniform ``u`` picks slot ``i = floor(9u)``; the move is ``i`` if the rest of ``9u``
    is below ``keep[i]``, else ``alias[i]``. Slot ``i`` carries ``keep[i] / 9`` of square
    ``i`` and ``(1 - keep[i]) / 9`` of its alias, which adds up to the row's distribution.
    Squares without probability get ``keep = 0`` and a positive alias, so they are never
    drawn.
    """
    n = probs.shape[0]
    rows = np.arange(n)
    q = probs * 9.0
    keep = np.ones_like(q)
    alias = np.tile(np.arange(9), (n, 1))
    done = np.zeros(q.shape, dtype=bool)
    for _ in range(8):  # pair the smallest remaining slot with the largest
        small = np.argmin(np.where(done, np.inf, q), axis=1)
        big_q = np.where(done, -np.inf, q)
        big_q[rows, small] = -np.inf
        large = np.argmax(big_q, axis=1)
        qs = q[rows, small]
        act = np.flatnonzero(qs < 1.0)
        keep[act, small[act]] = qs[act]
        alias[act, small[act]] = large[act]
        q[act, large[act]] -= 1.0 - qs[act]
        done[act, small[act]] = True
    return keep, alias


def sample_moves(keep: np.ndarray, alias: np.ndarray, rows: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Moves drawn with uniforms ``u`` in [0, 1) from flattened alias tables at table ``rows``."""
    scaled = u * 9.0
    slot = np.minimum(scaled.astype(np.int64), 8)
    at = rows * 9 + slot
    return np.where(scaled - slot < keep[at], slot, alias[at])


class TablePlayer(Player):
    """A player whose distribution is precomputed for every board code."""

    def __init__(self, spec: str, table: np.ndarray):
        self.spec = spec
        table = np.asarray(table, dtype=np.float64)
        table = np.where(board.LEGAL, table, 0.0)
        if not np.isfinite(table).all():
            raise SpecError(f"player {spec}: its move probabilities are not finite numbers")
        table.setflags(write=False)
        self.table = table
        self.deterministic = bool(np.all((table == 0) | (table == 1)))

    @functools.cached_property
    def _sampling(self) -> tuple[np.ndarray, np.ndarray]:
        """The flattened alias tables (``alias_tables``), made on first use: exact analysis reads ``table`` only."""
        keep, alias = alias_tables(self.table)
        return keep.ravel(), alias.ravel().astype(np.int8)  # squares: the compiled games read it at random

    keep = property(lambda self: self._sampling[0], doc="Flattened ``keep`` of the alias tables (rows of 9 by board code).")
    alias = property(lambda self: self._sampling[1], doc="Flattened ``alias`` of the alias tables (rows of 9 by board code).")

    def __reduce__(self):  # ship the table only; the sampling tables are rebuilt
        return (type(self), (self.spec, self.table))

    def probs(self, codes):
        return self.table[np.asarray(codes)]

    def sample(self, codes, u):
        return sample_moves(self.keep, self.alias, np.asarray(codes), np.asarray(u))


def uniform_table(mask: np.ndarray) -> np.ndarray:
    """Uniform distribution over the True squares of each row (zeros where none)."""
    mask = mask.astype(np.float64)
    n = mask.sum(-1, keepdims=True)
    return np.divide(mask, n, out=np.zeros_like(mask), where=n > 0)


def onehot_table(moves: np.ndarray) -> np.ndarray:
    """All mass on one square per board (``-1`` for boards with no move)."""
    table = np.zeros((len(moves), 9))
    ok = moves >= 0
    table[np.flatnonzero(ok), moves[ok]] = 1.0
    return table


# ---------------------------------------------------------------- built-in players


def make_random() -> TablePlayer:
    """Uniform over the empty squares."""
    return TablePlayer("random", uniform_table(board.LEGAL))


def make_first_open() -> TablePlayer:
    """The lowest-numbered empty square."""
    moves = np.where(board.LEGAL.any(1), np.argmax(board.LEGAL, axis=1), -1)
    return TablePlayer("first-open", onehot_table(moves))


def _line_squares(own_count: int, other_count: int, mark_of: str) -> np.ndarray:
    """Empty squares lying in a line with exactly these counts of marks.

    ``mark_of`` says whose marks count as "own": ``"mover"`` or ``"other"``.
    """
    mover = board.TO_MOVE.astype(np.int8)[:, None, None]
    other = np.int8(3) - mover
    own_mark, opp_mark = (mover, other) if mark_of == "mover" else (other, mover)
    lm = board.MARKS[:, board.LINES]  # (N, 8, 3)
    n_own = (lm == own_mark).sum(2)
    n_opp = (lm == opp_mark).sum(2)
    hit = (n_own == own_count) & (n_opp == other_count)  # (N, 8)
    squares = np.zeros((board.N_CODES, 9), dtype=bool)
    for k, line in enumerate(board.LINES):
        for s in line:
            squares[:, s] |= hit[:, k] & (board.MARKS[:, s] == board.EMPTY)
    return squares & board.LEGAL


def logic_rule_table(develop: str = "own") -> np.ndarray:
    """Fogel's rule-based opponent with no random moves (``eps = 0``)."""
    rules = [
        _line_squares(2, 0, "mover"),  # 1. complete three of its own
        _line_squares(2, 0, "other"),  # 2. block the other side's three
        _line_squares(1, 0, "mover" if develop == "own" else "other"),  # 3. develop a line
        board.LEGAL,  # 4. anything
    ]
    table = np.zeros((board.N_CODES, 9))
    done = np.zeros(board.N_CODES, dtype=bool)
    for mask in rules:
        applies = mask.any(1) & ~done
        table[applies] = uniform_table(mask[applies])
        done |= applies
    return table


def make_logic(eps: float = 0.1, develop: str = "own") -> TablePlayer:
    """Fogel's rule-based opponent: a random move with probability ``eps``, else win, block,
    develop a line (its ``own`` or the ``other`` side's), anything."""
    table = eps * uniform_table(board.LEGAL) + (1.0 - eps) * logic_rule_table(develop)
    return TablePlayer(format_spec("logic", {"eps": eps, "develop": develop}), table)


def minimax_scores() -> np.ndarray:
    """Minimax score of every board from X's view, preferring faster wins.

    A won game scores ``10 - marks`` for X (negative for O), a draw 0, so X maximizing and
    O minimizing both prefer the faster win and the slower loss.
    """
    score = np.zeros(board.N_CODES)
    end = board.OUTCOME != board.ONGOING
    score[board.OUTCOME == board.X_WIN] = 10 - board.N_MARKS[board.OUTCOME == board.X_WIN]
    score[board.OUTCOME == board.O_WIN] = -(10 - board.N_MARKS[board.OUTCOME == board.O_WIN])
    for n in range(8, -1, -1):
        layer = np.flatnonzero((board.N_MARKS == n) & ~end)
        kids = score[np.maximum(board.CHILD[layer], 0)]
        legal = board.LEGAL[layer]
        best_x = np.where(legal, kids, -np.inf).max(1)
        best_o = np.where(legal, kids, np.inf).min(1)
        score[layer] = np.where(board.TO_MOVE[layer] == board.X, best_x, best_o)
    return score


MINIMAX_SCORES = minimax_scores()
MINIMAX_SCORES.setflags(write=False)


def minimax_best_moves(scores: np.ndarray = MINIMAX_SCORES) -> np.ndarray:
    """Boolean (N, 9): the moves that attain the best score for the side to move."""
    kids = scores[np.maximum(board.CHILD, 0)]
    sign = np.where(board.TO_MOVE == board.X, 1.0, -1.0)[:, None]
    val = np.where(board.LEGAL, sign * kids, -np.inf)
    best = val.max(1, keepdims=True)
    return board.LEGAL & (val == best)


def minimax_optimal_moves() -> np.ndarray:
    """Boolean (N, 9): moves that keep the game-theoretic value (win/draw/loss only)."""
    return minimax_best_moves(np.sign(MINIMAX_SCORES))


def make_minimax(tiebreak: str = "random") -> TablePlayer:
    """Perfect play, faster wins and slower losses first; ties broken at ``random`` or the ``first`` square."""
    best = minimax_best_moves()
    if tiebreak == "first":
        table = onehot_table(np.where(best.any(1), np.argmax(best, axis=1), -1))
    else:
        table = uniform_table(best)
    return TablePlayer(format_spec("minimax", {"tiebreak": tiebreak}), table)


def softmax_values(t_x: float, t_o: float) -> np.ndarray:
    """Expected score (X's view) of every board when X moves at ``t_x`` and O at ``t_o``."""
    value = np.zeros(board.N_CODES)
    value[board.OUTCOME == board.X_WIN] = 1.0
    value[board.OUTCOME == board.O_WIN] = -1.0
    for n in range(8, -1, -1):
        layer = np.flatnonzero((board.N_MARKS == n) & (board.OUTCOME == board.ONGOING))
        w = _softmax_weights(layer, value, t_x, t_o)
        value[layer] = (w * value[np.maximum(board.CHILD[layer], 0)]).sum(1)
    return value


def _softmax_weights(layer, value, t_x, t_o):
    kids = value[np.maximum(board.CHILD[layer], 0)]
    x_moves = board.TO_MOVE[layer] == board.X
    sign = np.where(x_moves, 1.0, -1.0)[:, None]
    temp = np.where(x_moves, t_x, t_o)[:, None]
    logits = np.where(board.LEGAL[layer], sign * kids / temp, -np.inf)
    logits -= logits.max(1, keepdims=True)
    w = exp_array(logits)
    return w / w.sum(1, keepdims=True)


def softmax_table(t: float, model_t: float) -> np.ndarray:
    """Move distribution of the softmax player: own moves at ``t``, opponent modelled at ``model_t``."""
    table = np.zeros((board.N_CODES, 9))
    as_x = softmax_values(t, model_t)  # the player is X: X moves at t
    as_o = softmax_values(model_t, t)  # the player is O: O moves at t
    ongoing = board.OUTCOME == board.ONGOING
    for mark, value, temps in ((board.X, as_x, (t, model_t)), (board.O, as_o, (model_t, t))):
        layer = np.flatnonzero(ongoing & (board.TO_MOVE == mark))
        table[layer] = _softmax_weights(layer, value, *temps)
    return table


def make_softmax(t: float = 0.2, model_t: float = 1.0) -> TablePlayer:
    """Probabilistic minimax: its own moves at temperature ``t``, the opponent's modelled at ``model_t``."""
    return TablePlayer(format_spec("softmax", {"t": t, "model_t": model_t}), softmax_table(t, model_t))


# ---------------------------------------------------------------- spec strings


#: Softmax temperatures: below the range the player is greedy already (board values lie
#: in [-1, 1]) and far below it the logits overflow; above it the player is uniform.
TEMPERATURE_RANGE = (1e-3, 1e3)


def _temperature(name):
    lo, hi = TEMPERATURE_RANGE

    def check(v):
        if not lo <= v <= hi:
            raise SpecError(f"{name} must be in [{lo:g}, {hi:g}], got {v:g}")
        return v

    check.allowed = f"in [{lo:g}, {hi:g}]"
    return check


def _probability(name):
    def check(v):
        if not 0.0 <= v <= 1.0:
            raise SpecError(f"{name} must be in [0, 1], got {v}")
        return v

    check.allowed = "in [0, 1]"
    return check


def _choice(name, options):
    def check(v):
        if v not in options:
            raise SpecError(f"{name} must be one of {'|'.join(options)}, got {quoted(v)}")
        return v

    check.allowed = "|".join(options)
    return check


#: name -> (factory, {param: (type, check)}): a fixed table (read-only)
REGISTRY = MappingProxyType({
    "random": (make_random, {}),
    "first-open": (make_first_open, {}),
    "logic": (
        make_logic,
        {"eps": (float, _probability("logic eps")), "develop": (str, _choice("logic develop", ("own", "other")))},
    ),
    "minimax": (make_minimax, {"tiebreak": (str, _choice("minimax tiebreak", ("random", "first")))}),
    "softmax": (
        make_softmax,
        {"t": (float, _temperature("softmax t")), "model_t": (float, _temperature("softmax model_t"))},
    ),
})


def game_registry() -> dict:
    """``REGISTRY``'s players with their parameters: the game's own ``players`` beside every
    game's (``evoplay.arena.specs``); a table player is a player of the game interface too."""
    return dict(REGISTRY)


#: Names that are players but not table players (handled by the command that plays them).
INTERACTIVE = ("human",)


def parse_spec(spec: str) -> tuple[str, dict]:
    """Split and check ``NAME`` or ``NAME:key=value,...`` against the tic-tac-toe players
    (``evoplay.arena.players.parse_spec``, which every game's specs go through)."""
    return arena_parse_spec(spec, REGISTRY, "tictactoe", also=(*INTERACTIVE, "PATH.json", "RUN_DIR"))


def provide_files(documents: dict):
    """Make player files the driver read and shipped (path -> checked document) available by
    path in this context without reading them from disk (on workers)."""
    context.current().player_files.update(documents)


def tictactoe_only(player, spec: str) -> Player:
    """``player`` if it plays tic-tac-toe; a player file of another game is refused here, where
    it is built, not by a traceback when it is asked for a move."""
    if isinstance(player, Player):
        return player
    game = getattr(getattr(player, "game", None), "name", None)
    raise SpecError(f"player file {spec} plays {game}, not tic-tac-toe" if isinstance(game, str)
                    else f"player file {spec} is not a tic-tac-toe player")


def make_player(spec: str) -> Player:
    """The player named by a spec string, a path to a saved player file (``.json``) or a run
    directory (its best champion, ``champion.json``)."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty player spec")
    spec = spec.strip()
    builtin = spec.partition(":")[0].strip() in REGISTRY  # minimax:tiebreak is a (bad) built-in spec
    if not builtin and split_user_spec(spec)[0] is not None:  # user code: path/to/file.py:Name or package.module:Name
        built = context.current().players
        if spec not in built:
            built[spec] = TablePlayer(spec, user_table(spec))
        return built[spec]
    if spec.endswith(".json") or "/" in spec:
        from evoplay.files.playerfile import build_player, load_player

        check_path(spec, "player file", SpecError)

        shipped = context.current().player_files  # read by the driver, shipped to workers
        player = build_player(shipped[spec], spec) if spec in shipped else load_player(spec)
        return tictactoe_only(player, spec)
    if spec in INTERACTIVE:
        raise SpecError(f"player {spec!r} plays only in `evoplay game`")
    name, params = parse_spec(spec)
    factory, _ = REGISTRY[name]
    full = {k: p.default for k, p in inspect.signature(factory).parameters.items()} | params
    return builtin_player(name, tuple(sorted(full.items())), tuple(sorted(params.items())))


@functools.cache
def builtin_player(name: str, full: tuple, given: tuple) -> Player:
    """The built-in player ``name`` with its parameters (``full``: every one, the defaults
    included; ``given``: those the spec named): a pure function of them, its tables made once
    a process (a Fogel run's workers build ``logic`` and ``minimax`` once, not once a segment)."""
    factory, _ = REGISTRY[name]
    return factory(**dict(given))
