"""The checkers benchmark: `.venv/bin/python benchmarks/bench_checkers.py [--json]`.

Prints, measured here and now on one core: everything `evoplay bench --game checkers`
prints (perft(8) and perft(10), compiled and generic alpha-beta leaves per second with
piece difference at depths 4 and 6, seconds per depth-4 game, legal-move lists per
second), and beside them the same positions through pydraughts, the independent English
draughts implementation the engine is tested against: legal-move lists per second and
perft(5) from the start.
"""

from __future__ import annotations

import json
import sys
import time

from draughts import Board

from evoplay.checkers import engine
from evoplay.checkers import rules
from evoplay.checkers.bench import figures, random_play_states
from evoplay.checkers.game import CHECKERS


def reference_perft(board: Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


def side_by_side(positions: int = 300, perft_depth: int = 5) -> dict:
    fens = [rules.to_fen(s) for s in random_play_states(positions)]
    t = time.process_time()
    for fen in fens:
        Board(variant="english", fen=fen).legal_moves()
    lists = positions / (time.process_time() - t)
    t = time.process_time()
    leaves = reference_perft(Board(variant="english"), perft_depth)
    seconds = time.process_time() - t
    assert leaves == engine.perft(*engine.START, perft_depth)
    return {"pydraughts_move_lists_per_second": lists, "pydraughts_perft": {"depth": perft_depth, "leaves": leaves,
            "seconds": seconds, "leaves_per_second": leaves / seconds}}


def main():
    result = figures(CHECKERS, progress=lambda stage: print(f"... {stage}", file=sys.stderr))
    print("... pydraughts on the same positions", file=sys.stderr)
    result["pydraughts"] = side_by_side()
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
        return
    p8, p10 = result["perft_8"], result["perft_10"]
    print(f"perft(8): {p8['leaves']:,} leaves, {p8['leaves_per_second']:,.0f} leaves/s; "
          f"perft(10): {p10['leaves']:,} leaves in {p10['seconds']:.2f} s")
    for s in result["compiled_search"] + result["generic_search"]:
        kind = "compiled" if s in result["compiled_search"] else "generic, batched evaluator"
        print(f"alpha-beta, piece difference, depth {s['depth']} ({kind}): {s['leaves_per_second']:,.0f} leaves/s")
    print(f"depth-4 game: {result['game']['seconds_per_game']:.3f} s")
    ref = result["pydraughts"]
    print(f"legal-move lists per second: evoplay {result['move_generation']['evoplay_per_second']:,.0f}, "
          f"pydraughts {ref['pydraughts_move_lists_per_second']:,.0f}")
    rp = ref["pydraughts_perft"]
    print(f"perft({rp['depth']}): evoplay {p8['leaves_per_second']:,.0f} leaves/s (perft(8)), "
          f"pydraughts {rp['leaves_per_second']:,.0f} leaves/s ({rp['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
