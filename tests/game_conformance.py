"""Conformance of a game to evoplay's game interface (``evoplay.arena.game.Game``), by random playouts.

``conformance(game, rng, playouts)`` plays ``playouts`` uniformly random games of at most
``max_plies`` plies from the start and checks, raising AssertionError with the game's name:

- the start: ``to_move`` is 0, the game is on, and a second ``initial()`` has the same key;
- every state: ``to_move`` is 0 or 1 (sides need not alternate: a side may move several
  times in a row); while ``result`` is None the state has at least one legal move and its
  moves are distinct, with distinct texts; once ``result`` is not None it is -1, 0 or +1
  (``legal_moves`` is not asked of a finished state); the key is hashable;
- moves: the chosen move is one of ``legal_moves``; ``apply`` leaves its state unchanged
  (same key, same text, same legal moves after); ``parse_move(move_text(m)) == m`` for the
  chosen move and up to ``texts_per_state`` others; ``parse_move`` raises ValueError on
  text that is no move;
- keys: replaying a playout's moves from the start gives the same keys; states with equal
  keys have the same side to move and, while on, the same legal moves; where a playout
  has moves a, b, c with the same side to move at a and c, and c, b, a is also legal, the
  two orders give equal keys when they give equal text, side to move and legal moves (a
  transposition);
- views: one array for all states has one row per state, and every state's own row is the
  same (same width and dtype, the game's ``view_size`` when it declares one); for a game
  with ``board_shape``, ``cells`` has one text per square.

Returns counts: ``states``, ``finished`` (playouts that reached an end), ``transpositions``
(found and checked).
"""

from __future__ import annotations

import numpy as np


def conformance(game, rng: np.random.Generator, playouts: int = 3, max_plies: int = 200,
                texts_per_state: int = 4) -> dict:
    name = getattr(game, "name", repr(game))
    start = game.initial()
    assert game.to_move(start) == 0, name
    assert game.result(start) is None and game.legal_moves(start), name
    assert game.key(start) == game.key(game.initial()), name
    for bad in ("", "zz-not-a-move", "-1"):
        try:
            game.parse_move(start, bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"{name}: parse_move({bad!r}) did not raise ValueError")

    by_key: dict = {}
    all_states = []
    counts = {"states": 0, "finished": 0, "transpositions": 0}
    for _ in range(playouts):
        state = game.initial()
        states, moves = [state], []
        while len(moves) < max_plies:
            side = game.to_move(state)
            assert side in (0, 1), f"{name}: to_move {side!r}"
            r = game.result(state)
            key = game.key(state)
            hash(key)
            if r is not None:
                assert r in (-1, 0, 1), f"{name}: result {r!r}"
                break
            legal = game.legal_moves(state)
            assert legal, f"{name}: a game on with no legal move"
            assert len(set(map(repr, legal))) == len(legal), f"{name}: repeated moves"
            texts = [game.move_text(state, m) for m in legal]
            assert len(set(texts)) == len(texts), f"{name}: two moves with one text"
            seen = by_key.setdefault(key, (side, sorted(map(repr, legal))))
            assert seen == (side, sorted(map(repr, legal))), f"{name}: equal keys, different positions"
            move = legal[rng.integers(len(legal))]
            assert move in legal
            picks = {int(i) for i in rng.choice(len(legal), min(texts_per_state, len(legal)), replace=False)}
            for m in [move] + [legal[i] for i in picks]:
                assert game.parse_move(state, game.move_text(state, m)) == m, f"{name}: {game.move_text(state, m)!r}"
            text = game.render(state)
            child = game.apply(state, move)
            assert game.key(state) == key and game.render(state) == text, f"{name}: apply changed its state"
            assert game.legal_moves(state) == legal, f"{name}: apply changed its state's moves"
            state = child
            states.append(state)
            moves.append(move)
        if game.result(state) is not None:
            counts["finished"] += 1
            assert game.result(state) in (-1, 0, 1)
        counts["states"] += len(states)
        all_states += states
        _replay(game, name, states, moves)
        counts["transpositions"] += _transpositions(game, name, states, moves)

    views = game.views(all_states)
    assert views.ndim == 2 and views.shape[0] == len(all_states), f"{name}: views {views.shape}"
    width = getattr(game, "view_size", views.shape[1])
    assert views.shape[1] == width, f"{name}: views {views.shape[1]} wide, view_size {width}"
    for i in sorted({0, 1, len(all_states) // 2, len(all_states) - 1}):
        one = game.views([all_states[i]])
        assert one.dtype == views.dtype and one.shape == (1, width), f"{name}: one view {one.shape} {one.dtype}"
        assert np.array_equal(one[0], views[i]), f"{name}: a state's view depends on its batch"
    shape = getattr(game, "board_shape", None)
    if shape is not None:
        for s in (all_states[0], all_states[-1]):
            cells = game.cells(s)
            assert len(cells) == shape[0] * shape[1] and all(isinstance(c, str) for c in cells), name
    return counts


def _replay(game, name, states, moves) -> None:
    state = game.initial()
    for s, m in zip(states, moves):
        assert game.key(state) == game.key(s), f"{name}: a replay reached another key"
        state = game.apply(state, m)
    assert game.key(state) == game.key(states[-1]), f"{name}: a replay reached another key"


def _transpositions(game, name, states, moves) -> int:
    """Swap moves i and i+2 of one side where legal; equal positions must have equal keys."""
    found = 0
    for i in range(len(moves) - 2):
        s = states[i]
        if game.to_move(s) != game.to_move(states[i + 2]):
            continue
        t = s
        for m in (moves[i + 2], moves[i + 1], moves[i]):
            if game.result(t) is not None or m not in game.legal_moves(t):
                break
            t = game.apply(t, m)
        else:
            u = states[i + 3]
            same = (game.render(t) == game.render(u) and game.to_move(t) == game.to_move(u)
                    and game.result(t) == game.result(u)
                    and (game.result(t) is not None
                         or sorted(map(repr, game.legal_moves(t))) == sorted(map(repr, game.legal_moves(u)))))
            if same:
                assert game.key(t) == game.key(u), f"{name}: a transposition with two keys"
                found += 1
    return found
