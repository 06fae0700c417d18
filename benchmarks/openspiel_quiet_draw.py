"""How often OpenSpiel's 40-ply draw would end a checkers game that evoplay's rules go on with:
`.venv/bin/python benchmarks/openspiel_quiet_draw.py [--games N] [--ballots K] [--json]`.

Two counts (docs/guide/checkers.md, on why ``openspiel-mcts`` sets each position up instead
of following the game's moves):

- in ``N`` uniformly random games of OpenSpiel's own checkers (Python's ``random`` seeded
  with 1), how many plies after the last capture each drawn game ended (OpenSpiel's rule:
  40, a man's move not resetting it);
- in games of ``piece-difference:depth=4`` (Black) against ``piece-difference:depth=2``
  from the first ``K`` three-move ballots under evoplay's rules (the stream keyed ``(1, i)``),
  the share of plies played at 40 or more plies since a capture, and the games that reach it.

Needs open_spiel.
"""

from __future__ import annotations

import argparse
import collections
import json
import random

from evoplay.arena.match import keyed_rng, play_game
from evoplay.arena.specs import make_player
from evoplay.checkers import rules
from evoplay.checkers.game import CHECKERS
from evoplay.checkers.openings import ballots

#: OpenSpiel's checkers: drawn after this many plies without a capture.
SPIEL_QUIET = 40


def spiel_draws(games: int) -> dict:
    """Plies since the last capture at the end of each drawn random OpenSpiel game: {plies: games}."""
    import pyspiel

    game, rng, ends = pyspiel.load_game("checkers"), random.Random(1), collections.Counter()
    for _ in range(games):
        state, ply, last = game.new_initial_state(), 0, 0
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            ply += 1
            last = ply if action % 2 else last  # an odd action is a jump
            state.apply_action(action)
        if state.returns()[0] == 0:
            ends[ply - last] += 1
    return {"games": games, "draws": sum(ends.values()), "plies_since_capture": dict(sorted(ends.items()))}


def evoplay_quiet(count: int) -> dict:
    first, second = make_player(CHECKERS, "piece-difference:depth=4"), make_player(CHECKERS, "piece-difference:depth=2")
    plies = over = reached = 0
    for i, (_, state) in enumerate(ballots()[:count]):
        since, hit = [0], [False]

        def on_move(_, move, since=since, hit=hit):
            nonlocal plies, over
            plies += 1
            if since[0] >= SPIEL_QUIET:
                over, hit[0] = over + 1, True
            since[0] = 0 if rules.is_capture(move) else since[0] + 1

        play_game(CHECKERS, first, second, state, keyed_rng(1, i), on_move=on_move)
        reached += hit[0]
    return {"ballots": count, "plies": plies, "plies_past_40": over, "share": over / plies, "games_reaching_40": reached}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--ballots", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"openspiel": spiel_draws(args.games), "evoplay": evoplay_quiet(args.ballots)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    s, e = result["openspiel"], result["evoplay"]
    print(f"OpenSpiel, {s['games']} random games: {s['draws']} drawn, plies since the last capture at the end: "
          f"{s['plies_since_capture']}")
    print(f"evoplay, {e['ballots']} ballots: {e['plies_past_40']} of {e['plies']} plies ({e['share']:.1%}) at 40 or more "
          f"plies since a capture; {e['games_reaching_40']} games reach it")


if __name__ == "__main__":
    main()
