"""The compiled checkers search keeps its exact results: value, move, leaves and nodes.

``tests/data/checkers_search_yardstick.json`` was written by the two compiled searches as
they were when committed runs were made with them (piece difference in
``evoplay.checkers.search``, the Blondie24 network in its own copy of that search), on 200
random positions at depths 1-4 with each evaluator. Any later search must give the same
numbers: the same value and move, and the same leaf and node counts, which only the same
move order visits. Regenerate the file only on purpose:
``.venv/bin/python tests/test_checkers_search_yardstick.py --write``.

Regenerated once, for issue 32: killer moves and a table sized by depth cut the leaves
(piece difference 44,263 -> 42,310 over the 800 searches, the network 42,747 -> 38,487),
and the network's first layer became an exact sum (``evoplay.networks.arithmetic``), which moved 195
of the 800 network values by at most 4.4e-16; all 1,600 moves and the 800 piece-difference
values stayed as they were.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.networks.evalnet import n_weights

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support.games import random_positions  # noqa: E402

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "checkers_search_yardstick.json")
SIZES = (32, 40, 10, 1)
POSITIONS = 200


def network_genome() -> np.ndarray:
    return np.random.default_rng(61).uniform(-0.3, 0.3, n_weights(SIZES))


def state_data(state: rules.State) -> list:
    return [state.black, state.white, state.kings, state.turn, state.quiet, [list(h) for h in state.history]]


def state_of(data: list) -> rules.State:
    b, w, k, t, quiet, history = data
    return rules.State(b, w, k, t, quiet, tuple(tuple(h) for h in history))


def result_row(result) -> list:
    return [result.value, list(result.move), result.leaves, result.nodes]


def piece_difference_rows(states) -> list:
    """Depths 1-4; king weights 1.5 and 2.0 and quiescence on and off alternate by position."""
    from evoplay.checkers.search import search

    return [[result_row(search(s, d, 1.5 if i % 3 else 2.0, i % 2 == 1)) for d in (1, 2, 3, 4)]
            for i, s in enumerate(states)]


def network_rows(states) -> list:
    from evoplay.checkers.search import search

    genome = network_genome()
    return [[result_row(search(s, d, 1.5 if i % 3 else 2.2, i % 2 == 0, network=(genome, SIZES))) for d in (1, 2, 3, 4)]
            for i, s in enumerate(states)]


def compute(states) -> dict:
    return {"piece_difference": piece_difference_rows(states), "network": network_rows(states)}


def committed() -> dict:
    with open(PATH) as f:
        return json.load(f)


def test_the_yardstick_covers_what_it_claims():
    doc = committed()
    states = [state_of(d) for d in doc["positions"]]
    assert len(states) == POSITIONS and len(set(states)) == POSITIONS
    assert all(rules.result(s, rules.QUIET_LIMIT) is None for s in states)
    assert any(s.history for s in states) and any(s.kings for s in states)
    for kind in ("piece_difference", "network"):
        rows = doc[kind]
        assert len(rows) == POSITIONS and all(len(r) == 4 for r in rows)
        leaves = [r[3][2] for r in rows]
        assert sum(leaves) > 20_000  # depth 4 searches, not trivial ones


def test_compiled_searches_give_the_committed_values_moves_and_counts():
    doc = committed()
    states = [state_of(d) for d in doc["positions"]]
    got = compute(states)
    for kind in ("piece_difference", "network"):
        for i, (want_row, got_row) in enumerate(zip(doc[kind], got[kind])):
            assert got_row == want_row, (kind, i, rules.to_fen(states[i]))


def write() -> None:
    from evoplay.files.atomic import write_text

    states = list(dict.fromkeys(random_positions(CHECKERS, 2 * POSITIONS, seed=62)))[:POSITIONS]
    doc = {"positions": [state_data(s) for s in states], **compute(states)}
    write_text(PATH, json.dumps(doc, separators=(",", ":")) + "\n")


if __name__ == "__main__" and "--write" in sys.argv:
    write()
