"""A checkers player against OpenSpiel's MCTSBot over fresh random openings, from both colours:
`.venv/bin/python benchmarks/openspiel_mcts_match.py PLAYER [--versus SPEC] [--openings N] [--plies P] [--seed S] [--part K/M] [--json]`,
or `... --merge PART.json ...` to add up parts written with --json.

PLAYER is any checkers player spec or player file (e.g. ``results/blondie24/champion.json``),
SPEC the opponent (default ``openspiel-mcts:sims=1000``: OpenSpiel's C++ MCTSBot with one
random rollout a simulation). Opening ``i`` is ``P`` uniformly random plies from the start,
drawn from the stream keyed ``(S, 0, i)``, distinct from the openings before it (a repeat is
drawn again, on the next stream); each opening is played twice, PLAYER moving first
(Black) and second, the moves' random draws from the stream keyed ``(S, 1, i, colour)``.
Games end by evoplay's rules (a side without a move loses; 100 plies without a capture or
a man's move, or a threefold repetition, draw). Prints PLAYER's wins, draws and losses, its
mean score a game (+1, 0, -1) with the 95% interval ``evoplay.framework.stats.score_interval``,
per colour and in all, and the seconds it took. ``--part K/M`` plays only the openings ``i``
with ``i mod M = K`` (the same games as in the whole run), so M processes can share the
work; ``--merge`` adds their JSON files up. Needs open_spiel.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from evoplay.arena.match import keyed_rng, play_game
from evoplay.arena.specs import make_player
from evoplay.checkers.game import CHECKERS
from evoplay.framework.stats import score_interval


def openings(count: int, plies: int, seed: int) -> list:
    """``count`` distinct positions, each ``plies`` uniformly random plies from the start."""
    out, keys, stream = [], set(), 0
    while len(out) < count:
        rng = keyed_rng(seed, 0, stream)
        stream += 1
        state = CHECKERS.initial()
        for _ in range(plies):
            moves = CHECKERS.legal_moves(state)
            state = CHECKERS.apply(state, moves[rng.integers(len(moves))])
        if CHECKERS.result(state) is None and state.key not in keys:
            keys.add(state.key)
            out.append(state)
    return out


def tally(scores: list) -> dict:
    win, draw, loss = scores.count(1), scores.count(0), scores.count(-1)
    low, high = score_interval(win, draw, loss)
    return {"games": len(scores), "win": win, "draw": draw, "loss": loss,
            "score": (win - loss) / len(scores), "low": low, "high": high}


def merged(paths: list[str]) -> dict:
    """The result of the parts written to ``paths`` (``--json``), as one run's."""
    parts = [json.loads(open(path).read()) for path in paths]
    out = {k: parts[0][k] for k in ("player", "versus", "openings", "plies", "seed")}
    for key in ("as_black", "as_white", "all"):
        counts = [sum(p[key][k] for p in parts) for k in ("win", "draw", "loss")]
        out[key] = tally([1] * counts[0] + [0] * counts[1] + [-1] * counts[2])
    out["seconds"] = max(p["seconds"] for p in parts)
    out["cpu_seconds"] = sum(p["cpu_seconds"] for p in parts)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player", nargs="?")
    parser.add_argument("--part", default="0/1")
    parser.add_argument("--merge", nargs="+")
    parser.add_argument("--versus", default="openspiel-mcts:sims=1000")
    parser.add_argument("--openings", type=int, default=50)
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.merge:
        show(merged(args.merge), args.json)
        return
    part, parts = (int(x) for x in args.part.split("/"))
    mine, theirs = make_player(CHECKERS, args.player), make_player(CHECKERS, args.versus)
    started, cpu = time.perf_counter(), time.process_time()
    scores = {0: [], 1: []}
    for i, opening in enumerate(openings(args.openings, args.plies, args.seed)):
        if i % parts != part:
            continue
        for colour in (0, 1):
            first, second = (mine, theirs) if colour == 0 else (theirs, mine)
            score, plies, _ = play_game(CHECKERS, first, second, opening, keyed_rng(args.seed, 1, i, colour))
            scores[colour].append(score if colour == 0 else -score)
            print(f"opening {i} as {CHECKERS.side_names[colour]}: {scores[colour][-1]:+d} in {plies} plies",
                  file=sys.stderr, flush=True)
    result = {"player": args.player, "versus": theirs.spec, "openings": args.openings, "plies": args.plies,
              "seed": args.seed, "as_black": tally(scores[0]), "as_white": tally(scores[1]),
              "all": tally(scores[0] + scores[1]), "seconds": time.perf_counter() - started,
              "cpu_seconds": time.process_time() - cpu}
    show(result, args.json)


def show(result: dict, as_json: bool):
    if as_json:
        print(json.dumps(result, indent=1))
        return
    print(f"{result['player']} against {result['versus']}: {result['openings']} openings of {result['plies']} "
          f"random plies (seed {result['seed']}), each from both colours")
    for name, key in (("as Black", "as_black"), ("as White", "as_white"), ("in all", "all")):
        r = result[key]
        print(f"  {name:<9} {r['games']:>4} games: {r['win']} won, {r['draw']} drawn, {r['loss']} lost; "
              f"score {r['score']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]")
    print(f"  {result['seconds']:.0f} s, {result['cpu_seconds']:.0f} s CPU")


if __name__ == "__main__":
    main()
