"""Checkers throughput (``evoplay bench --game checkers``): perft, search leaves, games.

CPU time of one core, measured here and now. Search figures run over the first opening
positions of the three-move ballots, so every run times the same positions.
"""

from __future__ import annotations

import time

import numpy as np

from evoplay.arena.match import play_game
from evoplay.checkers import engine
from evoplay.checkers import rules
from evoplay.checkers import search as compiled
from evoplay.checkers.openings import ballots
from evoplay.checkers.players import make_piece_difference, piece_difference
from evoplay.arena.search import search


def _cpu(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def perft_rate(depth: int, rounds: int = 3) -> dict:
    """Leaves of perft(depth) from the start, and leaves per second (best of ``rounds``)."""
    engine.perft(*engine.START, 1)  # compiled or loaded from the cache before timing
    runs = [_cpu(lambda: engine.perft(*engine.START, depth)) for _ in range(rounds)]
    leaves, best = int(runs[0][0]), min(seconds for _, seconds in runs)
    return {"depth": depth, "leaves": leaves, "seconds": best, "leaves_per_second": leaves / best}


def _positions(n: int) -> list:
    return [s for _, s in ballots()[:n]]


def compiled_search_rate(depth: int, positions: int = 157, king: float = 1.5, rounds: int = 3) -> dict:
    """Leaves per second of the compiled piece-difference search over opening positions (best of ``rounds``)."""
    states = _positions(positions)
    compiled.search(states[0], 1)
    results = [compiled.search(s, depth, king) for s in states]
    seconds = min(_cpu(lambda: [compiled.search(s, depth, king) for s in states])[1] for _ in range(rounds))
    leaves = sum(r.leaves for r in results)
    return {"depth": depth, "positions": positions, "leaves": leaves, "seconds": seconds, "leaves_per_second": leaves / seconds}


def generic_search_rate(game, depth: int, positions: int = 10, king: float = 1.5) -> dict:
    """The same through the generic search, its evaluator called on batches of boards."""
    states = _positions(positions)
    evaluate = piece_difference(king)
    results, seconds = _cpu(lambda: [search(game, s, depth, evaluate) for s in states])
    leaves = sum(r.leaves for r in results)
    calls = sum(r.nodes for r in results)
    return {"depth": depth, "positions": positions, "leaves": leaves, "seconds": seconds,
            "leaves_per_second": leaves / seconds, "nodes": calls}


def seconds_per_game(game, depth: int = 4, games: int = 4) -> dict:
    """Seconds per game of two piece-difference players at ``depth``, from the first openings."""
    player = make_piece_difference(game, depth)
    states = _positions(games)
    outcomes, seconds = _cpu(lambda: [play_game(game, player, player, s, np.random.default_rng(0)) for s in states])
    plies = sum(o[1] for o in outcomes)
    return {"depth": depth, "games": games, "plies": plies, "seconds_per_game": seconds / games}


def random_play_states(n: int, seed: int = 0) -> list:
    """``n`` positions of seeded random games (a new game whenever one ends)."""
    rng = np.random.default_rng(seed)
    states, state = [], rules.initial()
    while len(states) < n:
        if rules.result(state) is not None:
            state = rules.initial()
        states.append(state)
        moves = rules.legal_moves(state)
        state = rules.apply(state, moves[rng.integers(len(moves))])
    return states


def move_generation_rate(positions: int = 300) -> dict:
    """Legal-move lists per second through the Python layer (``rules.legal_moves``)."""
    states = random_play_states(positions)
    _, seconds = _cpu(lambda: [rules.legal_moves(s) for s in states])
    return {"positions": positions, "evoplay_per_second": positions / seconds}


def _silent(stage: str):
    pass


def figures(game, quick: bool = False, progress=_silent) -> dict:
    """Every checkers figure of ``evoplay bench --game checkers`` (``game``: the checkers game object)."""
    progress("perft(8)")
    out = {"perft_8": perft_rate(8)}
    if not quick:
        progress("perft(10)")
        out["perft_10"] = perft_rate(10, rounds=1)
    progress("compiled search, depths 4 and 6")
    out["compiled_search"] = [compiled_search_rate(d) for d in (4, 6)]
    progress("generic search with a batched evaluator, depth 4")
    out["generic_search"] = [generic_search_rate(game, 4, positions=4 if quick else 10)]
    progress("games at depth 4")
    out["game"] = seconds_per_game(game, 4, games=2 if quick else 4)
    progress("legal-move lists")
    out["move_generation"] = move_generation_rate(100 if quick else 300)
    return out


def figures_text(result: dict) -> list[str]:
    """The lines ``evoplay bench --game checkers`` prints for ``figures``."""
    out = []
    for key in ("perft_8", "perft_10"):
        if key in result:
            p = result[key]
            out.append(f"checkers perft({p['depth']}): {p['leaves']:,} leaves in {p['seconds']:.3f} s, "
                       f"{p['leaves_per_second']:,.0f} leaves/s on one core")
    for s in result["compiled_search"]:
        out.append(f"alpha-beta, piece difference, depth {s['depth']} (compiled): {s['leaves_per_second']:,.0f} leaves/s "
                   f"({s['leaves']:,} leaves over {s['positions']} opening positions)")
    for s in result["generic_search"]:
        out.append(f"alpha-beta, piece difference, depth {s['depth']} (generic search, batched evaluator): "
                   f"{s['leaves_per_second']:,.0f} leaves/s ({s['leaves']:,} leaves over {s['positions']} positions)")
    g = result["game"]
    out.append(f"a game between two depth-{g['depth']} piece-difference players: {g['seconds_per_game']:.3f} s "
               f"({g['plies'] / g['games']:.0f} plies on average over {g['games']} openings)")
    m = result["move_generation"]
    out.append(f"legal-move lists: {m['evoplay_per_second']:,.0f}/s through the Python layer "
               f"({m['positions']} random-play positions)")
    return out
