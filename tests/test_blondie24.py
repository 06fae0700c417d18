"""The Blondie24 recipe: network kernel, operators, search players, yardsticks, runs and player files."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import evoplay_in_own_session

import numerics_twin as twin
from support.cli import refused
from support.games import random_positions
from test_search import minimax

from evoplay.checkers.game import CHECKERS
from evoplay.errors import ConfigError, EvoplayError, PlayerFileError, SpecError
from evoplay.framework import config as configs
from evoplay.framework.recipe import Context
from evoplay.framework.streams import Streams, stream
from evoplay.framework.trial import TrialRun
from evoplay.recipes.blondie24 import yardstick
from evoplay.networks.evalnet import SPATIAL_SIZES, Evaluator, forward, n_weights
from evoplay.recipes.blondie24.operators import Net, default_tau, draw_opponents, init_population, mut_selfadaptive, sel_best
from evoplay.arena.players import SearchPlayer
from evoplay.recipes.blondie24.play import play, ttt_move_table
from evoplay.recipes.blondie24.playerfile import network_document
from evoplay.recipes.blondie24.recipe import Blondie24Recipe
from evoplay.recipes.blondie24.scoring import points_of
from evoplay.arena.search import search
from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.tictactoe.game import TICTACTOE
from evoplay.tictactoe.players import TablePlayer, onehot_table

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "configs" / "blondie24-tiny.toml"
CHECKERS_SIZES = (32, 40, 10, 1)


def twin_tanh(z: float) -> float:
    t = 1.0 - 2.0 / (twin.exp(2.0 * abs(z)) + 1.0)
    return t if z >= 0.0 else -t


def twin_forward(view, genome, sizes, king) -> float:
    """The network on one board in plain Python, by its definition (``evoplay.networks.arithmetic``): each
    first-layer unit's terms rounded to the unit's grid and summed exactly, then scaled; the
    other layers' units their bias, then their inputs in order; tanh; the piece difference
    (men + K kings) times its weight added to the output's sum last."""
    from evoplay.networks.evalnet import topology

    first, first_bias, rest, pos = topology(tuple(sizes))
    inputs = len(view)
    shift = 62 - inputs.bit_length()

    def x(v):
        return king if v == 2 else -king if v == -2 else float(v)

    a = []
    for j in range(first.shape[0]):
        wired = [(i, int(first[j, i])) for i in range(inputs) if first[j, i] >= 0]
        bias = genome[int(first_bias[j])]
        top = max([abs(bias)] + [max(abs(genome[g]), abs(king * genome[g])) for _, g in wired])
        e = max(math.frexp(top)[1], -960) if top > 0 else 0
        inv = math.ldexp(1.0, shift - e)
        acc = round(bias * inv) + sum(round((x(view[i]) * genome[g]) * inv) for i, g in wired if view[i] != 0)
        a.append(twin_tanh(float(acc) * math.ldexp(1.0, e - shift)))
    men = sum(v for v in view if abs(v) == 1)
    kings = sum((1 if v > 0 else -1) for v in view if abs(v) == 2)
    pd = float(men) + king * float(kings)
    rest = [int(r) for r in rest]
    for layer, (fan_in, fan_out) in enumerate(zip(rest[:-1], rest[1:])):
        bias = pos + fan_in * fan_out
        out = []
        for j in range(fan_out):
            s = genome[bias + j]
            for i in range(fan_in):
                s += a[i] * genome[pos + j * fan_in + i]
            if layer == len(rest) - 2:
                s += pd * genome[len(genome) - 1]
            out.append(twin_tanh(s))
        pos, a = bias + fan_out, out
    return a[0]


def random_genome(sizes, seed, scale=0.2):
    return np.random.default_rng(seed).uniform(-scale, scale, n_weights(sizes))


# ---------------------------------------------------------------- the network


def test_checkers_network_has_the_published_1742_weights():
    assert n_weights(CHECKERS_SIZES) == 1742
    assert n_weights((9, 10, 1)) == 9 * 10 + 10 + 10 + 1 + 1


@pytest.mark.parametrize("game, sizes", [(CHECKERS, CHECKERS_SIZES), (TICTACTOE, (9, 7, 1)), (CHECKERS, (32, 5, 3, 1)),
                                         (CHECKERS, SPATIAL_SIZES)])
def test_network_gives_the_bits_of_its_plain_python_twin(game, sizes):
    states = random_positions(game, 40, seed=11)
    views = game.views(states)
    if game is CHECKERS:
        assert (np.abs(views) == 2).any()  # kings are in the sample: K is exercised
    genome = random_genome(sizes, 12, scale=0.6)
    got = forward(views, genome, sizes, 1.7)
    want = [twin_forward(v.tolist(), genome.tolist(), sizes, 1.7) for v in views]
    assert got.tolist() == want
    assert forward(views[::-1], genome, sizes, 1.7).tolist() == want[::-1]  # the same bits in any batch


def test_king_value_enters_for_kings_only_and_the_piece_difference_goes_to_the_output():
    sizes = (32, 3, 1)
    genome = np.zeros(n_weights(sizes))
    genome[-1] = 0.1  # only the piece-difference weight
    view = np.zeros((1, 32), dtype=np.int8)
    view[0, :3] = [1, 2, -1]  # a man, a king, the other side's man
    assert forward(view, genome, sizes, 2.5)[0] == pytest.approx(math.tanh(0.1 * (1 + 2.5 - 1)))
    assert forward(view, genome, sizes, 1.0)[0] == pytest.approx(math.tanh(0.1))


# ---------------------------------------------------------------- operators


def test_initial_population_is_uniform_in_the_range_with_the_chapters_step_sizes_and_king():
    pop = init_population(15, np.random.default_rng(1), 1742)
    g = np.stack([n.genome for n in pop])
    assert g.shape == (15, 1742) and g.min() >= -0.2 and g.max() <= 0.2 and g.min() < -0.19 and g.max() > 0.19
    assert all((n.sigma == 0.05).all() and n.king == 2.0 for n in pop)
    assert [n.ident for n in pop] == list(range(15))


def test_mutation_moves_every_weight_by_log_normal_step_sizes_updated_first_and_keeps_k_in_range():
    parents = init_population(15, np.random.default_rng(2), 1742)
    kids = mut_selfadaptive(parents, np.random.default_rng(3), ident0=15)
    assert len(kids) == 15 and [k.ident for k in kids] == list(range(15, 30)) and [k.parent for k in kids] == list(range(15))
    tau = default_tau(1742)
    assert tau == 1 / math.sqrt(2 * math.sqrt(1742))
    for p, k in zip(parents, kids):
        assert (k.genome != p.genome).all() and (k.sigma > 0).all()
        z_sigma = np.log(k.sigma / p.sigma) / tau  # log-normal: these are N(0, 1)
        z_weight = (k.genome - p.genome) / k.sigma  # moved by the child's own step sizes
        for z in (z_sigma, z_weight):
            assert abs(z.mean()) < 0.1 and abs(z.std() - 1) < 0.06 and np.abs(z).max() < 6
        assert 1.0 <= k.king <= 3.0
    # the same draws reproduce the child: step sizes first, then weights, then K
    rng = np.random.default_rng(3)
    s = np.stack([p.sigma for p in parents]) * np.exp(tau * rng.normal(size=(15, 1742)))
    w = np.stack([p.genome for p in parents]) + s * rng.normal(size=(15, 1742))
    kings = np.clip(2.0 * np.exp(rng.normal(size=15) / math.sqrt(2)), 1, 3)
    assert np.allclose(s, [k.sigma for k in kids], rtol=1e-15) and np.allclose(w, [k.genome for k in kids], rtol=1e-15)
    assert np.allclose(kings, [k.king for k in kids])


def test_king_value_is_set_back_into_its_range():
    parents = [Net(np.zeros(4), np.full(4, 0.05), king, i) for i, king in enumerate([1.0, 3.0] * 200)]
    kings = np.array([k.king for k in mut_selfadaptive(parents, np.random.default_rng(4))])
    assert kings.min() == 1.0 and kings.max() == 3.0 and ((kings > 1) & (kings < 3)).any()
    assert (kings[0::2] == 1.0).mean() == pytest.approx(0.5, abs=0.1)  # from K = 1 half the draws go below


def test_the_2001_king_rule_adds_minus_d_nothing_or_plus_d_with_equal_chance_within_the_range():
    """``king_step = 0.1``: K' = K + d, d uniform on {-0.1, 0, +0.1}, set back into [1, 3]; the weights and
    step sizes draw as before, and K's draw is one integer per network after them."""
    parents = [Net(np.zeros(4), np.full(4, 0.05), king, i) for i, king in enumerate([2.0, 1.0, 3.0] * 3000)]
    kids = mut_selfadaptive(parents, np.random.default_rng(6), king_step=0.1)
    kings = np.array([k.king for k in kids])
    steps = np.round((kings[0::3] - 2.0) / 0.1)
    assert set(steps) == {-1.0, 0.0, 1.0} and np.allclose(kings[0::3], 2.0 + 0.1 * steps, rtol=0, atol=1e-15)
    assert np.allclose(np.bincount((steps + 1).astype(int)) / 3000, 1 / 3, atol=0.03)
    assert set(kings[1::3]) == {1.0, 1.1} and set(np.round(kings[2::3], 12)) == {2.9, 3.0}
    rng = np.random.default_rng(6)
    rng.normal(size=(9000, 4)), rng.normal(size=(9000, 4))
    assert (kings[0::3] == 2.0 + (rng.integers(0, 3, size=9000)[0::3] - 1) * 0.1).all()
    old = mut_selfadaptive(parents, np.random.default_rng(6))
    assert [k.genome.tolist() for k in old] == [k.genome.tolist() for k in kids]


def test_pairing_draws_others_with_replacement_from_the_stream_alone():
    a = draw_opponents(30, 5, stream(9, 0, 1, 5))
    assert (a == draw_opponents(30, 5, stream(9, 0, 1, 5))).all()
    assert a.shape == (30, 5) and (a != np.arange(30)[:, None]).all() and a.min() >= 0 and a.max() <= 29
    big = draw_opponents(4, 30_000, np.random.default_rng(5))
    for i in range(4):
        counts = np.bincount(big[i], minlength=4)
        assert counts[i] == 0 and np.allclose(counts[np.arange(4) != i] / 30_000, 1 / 3, atol=0.01)
    assert any(len(set(row)) < 5 for row in a)  # with replacement: repeats happen


def test_points_table_scores_the_first_player_and_the_opponent_only_when_asked():
    pairs = np.array([[0, 1], [0, 2], [1, 0], [2, 1]])
    scores = np.array([1, -1, 0, 1])
    pts, wdl = points_of(pairs, scores, 3, (1.0, 0.0, -2.0), False)
    assert pts.tolist() == [-1.0, 0.0, 1.0] and wdl.tolist() == [[1, 0, 1], [0, 1, 0], [1, 0, 0]]
    pts, _ = points_of(pairs, scores, 3, (1.0, 0.0, -2.0), True)
    assert pts.tolist() == [-1.0 + 0.0, 0.0 - 2.0 - 2.0, 1.0 + 1.0]


def test_selection_keeps_the_best_and_breaks_ties_from_the_stream():
    pts = np.array([3.0, 1.0, 3.0, -2.0, 1.0, 0.0])
    assert sel_best(pts, 2, np.random.default_rng(0)).tolist() == [0, 2]
    picks = {tuple(sel_best(pts, 3, np.random.default_rng(s))) for s in range(40)}
    assert picks == {(0, 1, 2), (0, 2, 4)}


# ---------------------------------------------------------------- search players


@pytest.mark.parametrize("game, sizes, depths", [(TICTACTOE, (9, 6, 1), (1, 2, 3)), (CHECKERS, (32, 8, 4, 1), (1, 2, 3))])
def test_network_player_equals_plain_minimax_with_the_same_evaluator(game, sizes, depths):
    evaluate = Evaluator(random_genome(sizes, 21, scale=0.5), sizes, 1.4)
    for state in random_positions(game, 10, seed=22):
        for depth in depths:
            _, move = minimax(game, state, depth, evaluate)
            assert SearchPlayer(game, evaluate, depth).choose(state) == move


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_tictactoe_move_table_is_the_searchs_move_on_every_board(depth):
    evaluate = Evaluator(random_genome((9, 6, 1), depth, scale=1.0), (9, 6, 1), 2.0)
    table = ttt_move_table(evaluate, depth)
    codes = board.DECISION_CODES if depth <= 2 else board.DECISION_CODES[:: 7]
    assert all(table[c] == search(TICTACTOE, int(c), depth, evaluate).move for c in codes)
    assert (table[board.OUTCOME != board.ONGOING] == -1).all()


def seat_table(choose, as_x: bool) -> np.ndarray:
    """Moves of a deterministic player on every board it can reach in one seat (other boards: -1)."""
    me = board.X if as_x else board.O
    moves = np.full(board.N_CODES, -1, dtype=np.int64)
    frontier = [0]
    while frontier:
        nxt = set()
        for code in frontier:
            if board.OUTCOME[code] != board.ONGOING:
                continue
            if board.TO_MOVE[code] == me:
                moves[code] = choose(code)
                nxt.add(int(board.CHILD[code, moves[code]]))
            else:
                nxt.update(int(c) for c in board.CHILD[code][board.LEGAL[code]])
        frontier = sorted(nxt)
    return moves


def test_null_evaluator_search_is_beaten_from_both_seats_to_depth_4_as_o_at_5_and_never_from_6():
    null = lambda views: np.zeros(len(views))  # noqa: E731
    facts = {}
    for depth in range(1, 8):
        seats = []
        for as_x in (True, False):
            moves = seat_table(lambda code: search(TICTACTOE, code, depth, null).move, as_x)
            seats.append(exact.unbeatable(TablePlayer("null", onehot_table(moves)), as_x=as_x))
            table = ttt_move_table(null, depth)  # the batched table agrees on those boards
            assert (table[moves >= 0] == moves[moves >= 0]).all()
        facts[depth] = tuple(seats)
    assert facts == {1: (False, False), 2: (False, False), 3: (False, False), 4: (False, False),
                     5: (True, False), 6: (True, True), 7: (True, True)}


@pytest.mark.parametrize("quiescence", [False, True])
def test_compiled_checkers_search_gives_the_generic_searchs_value_and_move(quiescence):
    from evoplay.checkers.search import search as compiled_search

    def compiled(state, depth, genome, sizes, king, quiescence):
        return compiled_search(state, depth, king, quiescence, network=(genome, sizes))

    genome = random_genome(CHECKERS_SIZES, 51, scale=0.3)
    evaluate = Evaluator(genome, CHECKERS_SIZES, 1.6)
    for state in random_positions(CHECKERS, 12, seed=52):
        for depth in (1, 2, 3, 4):
            want = search(CHECKERS, state, depth, evaluate, quiescence)
            got = compiled(state, depth, genome, CHECKERS_SIZES, 1.6, quiescence)
            assert (got.value, got.move) == (want.value, want.move), (depth, CHECKERS.render(state))


def test_games_stop_as_draws_after_the_ply_limit_and_score_the_first_player():
    evaluate = Evaluator(random_genome((32, 4, 1), 31), (32, 4, 1), 2.0)
    a, b = SearchPlayer(CHECKERS, evaluate, 1), SearchPlayer(CHECKERS, evaluate, 2)
    assert play(CHECKERS, a, b, CHECKERS.initial(), 10) == (0, 10)
    score, plies = play(TICTACTOE, *[SearchPlayer(TICTACTOE, lambda v: np.zeros(len(v)), 1)] * 2, 0, 9)
    assert (score, plies) == (1, 7)  # lowest squares first: X takes 0, 2, 4 ... and wins on the diagonal 2-4-6


# ---------------------------------------------------------------- the recipe


def tiny(**sections) -> dict:
    cfg = configs.load(TINY)
    for key, values in sections.items():
        cfg[key].update(values)
    return cfg


def test_recipe_is_the_same_in_chunks_and_across_a_resume():
    cfg = tiny()
    straight = TrialRun(Blondie24Recipe(cfg), 1).run(3)
    half = TrialRun(Blondie24Recipe(cfg), 1, chunks=4).run(2)
    resumed = TrialRun(Blondie24Recipe(cfg), 1, data=json.loads(json.dumps(half.to_data())), chunks=3).run(3)
    assert json.dumps(straight.to_data()) == json.dumps(resumed.to_data())
    rows = straight.to_data()["logbook"]
    assert [r["yard_gen"] for r in rows] == [1, 2, 3]  # generation 1, every 2nd and the last
    assert all(r["yard_games"] == 4 and r["yard_win"] + r["yard_draw"] + r["yard_loss"] == 4 for r in rows)


def test_the_last_generation_plays_the_champions_of_the_earlier_measurements():
    cfg = tiny(yardstick={"openings": 3})
    run = TrialRun(Blondie24Recipe(cfg), 0).run(3)
    st = run.trial.state
    assert [e["gen"] for e in st.earlier] == [1, 2]  # generation 1 and every 2nd; the last plays them
    assert [v["gen"] for v in st.versus] == [1, 2]
    recipe = run.recipe
    for e, v in zip(st.earlier, st.versus):  # the same games as the yardstick's, the earlier champion for piece difference
        args = (st.best.genome, st.best.king, recipe.sizes, 1, False, ("network", np.array(e["genome"]), e["king"]), 0, 6, 40)
        scores = yardstick.checkers_chunk(args)
        assert (v["games"], v["win"], v["draw"], v["loss"]) == (6, (scores == 1).sum(), (scores == 0).sum(), (scores == -1).sum())
    # a network against itself from both colours plays each game twice with the seats swapped: exactly even
    ctx = Context(Streams(7, 0, 3), map, 2)
    [mirror] = yardstick.against_earlier(recipe, st.best, [{"gen": 3, "genome": st.best.genome.tolist(), "king": st.best.king}], ctx)
    assert mirror["win"] == mirror["loss"] and mirror["score"] == 0.0
    _, facts = recipe.finish(st, 0, run.to_data()["logbook"])
    assert facts["champion_vs_earlier"] == st.versus
    data = json.loads(json.dumps(run.to_data()["state"]))
    data["earlier"][0]["king"] = 9.0  # outside [king_min, king_max]
    with pytest.raises(EvoplayError, match="king value"):
        recipe.from_data(data)


def test_points_are_the_drawn_games_and_the_best_by_points_survive():
    recipe = Blondie24Recipe(tiny())
    events = []
    recipe.hooks.append(events.append)
    run = TrialRun(recipe, 0).run(2)
    for e in events:
        pool, pairs, results = e["pool"], e["pairs"], e["results"]
        assert len(pool) == 6 and (pairs[:, 0] == np.repeat(np.arange(6), 2)).all() and (pairs[:, 0] != pairs[:, 1]).all()
        for i, net in enumerate(pool):  # only the first player scores, +1 / 0 / -2
            mine = results[pairs[:, 0] == i, 0]
            assert net.points == (mine == 1).sum() - 2 * (mine == -1).sum()
        kept = sorted(n.points for n in (pool[i] for i in e["selected"]))
        assert kept == sorted(n.points for n in pool)[-3:]
        assert e["record"]["max"] == max(n.points for n in pool)
    assert [n.ident for n in run.trial.state.parents] == [pool[i].ident for i in events[-1]["selected"]]


def test_tictactoe_run_records_the_exact_yardstick_of_the_best_network():
    cfg = configs.load(ROOT / "configs" / "blondie24-ttt-d2.toml")
    recipe = Blondie24Recipe(cfg)
    run = TrialRun(recipe, 0).run(2)
    best = run.trial.state.best
    rec = run.to_data()["logbook"][-1]
    facts = yardstick.ttt_facts(yardstick.ttt_player(best.genome, recipe.sizes, best.king, 2))
    assert {k: rec[k] for k in yardstick.TTT_COLUMNS} == facts
    assert best.points == rec["max"]


def test_config_errors_name_the_key():
    for raw, key in [({"game": {"name": "chess"}}, "game.name"), ({"network": {"hidden": [0]}}, "network.hidden"),
                     ({"network": {"king_init": 5.0}}, "network.king_init"), ({"evaluation": {"gamez": 3}}, "evaluation.gamez"),
                     ({"game": {"depth": 13}}, "game.depth")]:
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
            configs.resolve({"recipe": "blondie24", **raw})
    assert configs.resolve({"recipe": "blondie24"})["network"]["hidden"] == [40, 10]


def test_checkers_yardstick_is_reproducible_and_the_same_in_chunks():
    cfg = tiny(yardstick={"openings": 3})
    recipe = Blondie24Recipe(cfg)
    net = recipe.toolbox.population(np.random.default_rng(8))[0]
    [one] = yardstick.checkers_scores(recipe, net, [(0, 6)])
    assert one.tolist() == yardstick.checkers_scores(recipe, net, [(0, 1), (1, 4), (4, 6)])[0].tolist()
    assert set(one.tolist()) <= {-1, 0, 1}
    s = yardstick.summarize(one, 5)
    assert s["yard_win"] - s["yard_loss"] == pytest.approx(s["yard_score"] * 6) and s["yard_lo"] <= s["yard_score"] <= s["yard_hi"]


# ---------------------------------------------------------------- player files and runs


def test_player_files_load_as_players_of_their_game_and_tampering_is_refused(tmp_path):
    from evoplay.arena.specs import make_player as any_game_player
    from evoplay.checkers.game import CHECKERS as checkers_game

    def checkers_player(spec):
        return any_game_player(checkers_game, spec)

    from evoplay.tictactoe.players import make_player as ttt_player

    genome = random_genome(CHECKERS_SIZES, 40)
    doc = network_document("checkers", CHECKERS_SIZES, 2, genome, 1.3, {"seed": 1})
    path = tmp_path / "b24.json"
    path.write_text(json.dumps(doc))
    player = checkers_player(str(path))
    state = random_positions(CHECKERS, 1, seed=41)[0]
    assert player.choose(state, None) == SearchPlayer(CHECKERS, Evaluator(genome, CHECKERS_SIZES, 1.3), 2).choose(state)
    with pytest.raises(SpecError, match="plays checkers, not tic-tac-toe"):  # refused where it is built
        ttt_player(str(path))
    small = (9, 4, 1)
    t_genome = random_genome(small, 42)
    tpath = tmp_path / "ttt.json"
    tpath.write_text(json.dumps(network_document("tictactoe", small, 2, t_genome, 2.0, {})))
    assert (ttt_player(str(tpath)).probs(board.DECISION_CODES).argmax(1) == ttt_move_table(Evaluator(t_genome, small, 2.0), 2)[board.DECISION_CODES]).all()
    with pytest.raises(SpecError, match="not a checkers player"):
        checkers_player(str(tpath))
    bad = dict(doc, architecture={**doc["architecture"], "layers": [32, 40, 10, 2]})
    path.write_text(json.dumps(bad))
    with pytest.raises(PlayerFileError, match="modified"):
        checkers_player(str(path))


# The CLI in this process, each run in a Ray session of its own sized by its --workers.
evoplay_cli = evoplay_in_own_session


def test_tiny_checkers_run_is_identical_with_one_and_two_workers_and_its_champion_plays(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text(TINY.read_text().replace("[run]\n", "[run]\neval_chunks = 2\n"))
    evoplay_cli("evolve", toml, "--out", tmp_path / "one", "--workers", "1", "--quiet")
    evoplay_cli("evolve", toml, "--out", tmp_path / "two", "--workers", "2", "--quiet")
    for f in ("summary.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv", "trials/trial_01/champion.json"):
        assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes(), f
    champion = tmp_path / "one" / "trials" / "trial_01" / "champion.json"
    out = evoplay_cli("match", "--game", "checkers", champion, "piece-difference:depth=1", "--games", "2", "--json")
    result = json.loads(out.stdout)["results"][0]
    assert result["games"] == 2 and result["a_win"] + result["draw"] + result["b_win"] == pytest.approx(1.0)
    # the report: the champions' games against piece difference and the earlier champions, from the summary
    report = evoplay_cli("report", tmp_path / "one")
    summary = json.loads((tmp_path / "one" / "summary.json").read_text())
    analysis = json.loads((tmp_path / "one" / "analysis.json").read_text())
    assert analysis["game"] == "checkers" and analysis["depth"] == 1
    for facts, row in zip(summary["per_trial"], analysis["champions"]):
        assert (row["games"], row["win"], row["draw"], row["loss"]) == tuple(facts[f"champion_{k}"] for k in ("games", "win", "draw", "loss"))
        assert row["vs_earlier"] == facts["champion_vs_earlier"] and [e["gen"] for e in row["vs_earlier"]] == [1, 2]
    best = analysis["champions"][summary["best_trial"]]
    assert f"{best['win']} wins, {best['draw']} draws, {best['loss']} losses" in report.stdout
    assert "| earlier generation |" in (tmp_path / "one" / "analysis.md").read_text()
    # the last parents' league, on Ray: the same games as played here, its winner measured like a champion
    from evoplay.arena.specs import make_player as any_game_player
    from evoplay.checkers.game import CHECKERS as checkers_game

    def checkers_player(spec):
        return any_game_player(checkers_game, spec)

    from evoplay.framework.rundir import RunDir
    from evoplay.recipes.blondie24 import league

    # the league and the champion's duels (below), one report on one Ray start
    twin = tmp_path / "two" / "trials" / "trial_01" / "champion.json"
    report = evoplay_cli("report", tmp_path / "one", "--league", "2", "--depths", "1,2", "--versus", twin, "--workers", "2")
    played = json.loads((tmp_path / "one" / "league.json").read_text())
    recipe = Blondie24Recipe(configs.load(tmp_path / "one" / "config.toml"))
    for t, nets in enumerate(league.final_parents(recipe, RunDir(tmp_path / "one"))):
        pairs, jobs = league.league_jobs(recipe, nets, 2)
        rows = league.standings(len(nets), pairs, [yardstick.checkers_chunk(j) for j in jobs], recipe.points)
        got = played["trials"][t]
        assert [{k: r[k] for k in ("points", "win", "draw", "loss")} for r in got["table"]] == rows
        assert all(r["win"] + r["draw"] + r["loss"] == 4 * (len(nets) - 1) for r in rows)  # 2 ballots x 2 colours a pair
        assert got["champion"] == league.winner(rows) and got["champion_id"] == nets[got["champion"]].ident
        [scores] = yardstick.checkers_scores(recipe, nets[got["champion"]], [(0, 4)])
        assert got["vs_piece_difference"]["score"] == pytest.approx(scores.mean())
        player = checkers_player(str(tmp_path / "one" / "league-champions" / f"trial_{t:02d}.json"))
        assert player.genome.tolist() == nets[got["champion"]].genome.tolist() and player.king == nets[got["champion"]].king
    assert "league champion:" in report.stdout and "## The last parents' league" in (tmp_path / "one" / "analysis.md").read_text()
    assert json.loads((tmp_path / "one" / "analysis.json").read_text())["league"] == played
    # the champion deeper and against another network (--depths, --versus), on Ray. At the run's own depth (1)
    # the duel against piece difference is the run's yardstick of its champion; a network against an equal one
    # over both colours scores exactly 0 (game 2b+1 is game 2b with the seats swapped)
    from evoplay.recipes.blondie24 import duels

    got = json.loads((tmp_path / "one" / "duels.json").read_text())
    assert got["games"] == 4 and [t["trial"] for t in got["trials"]] == [0, 1]
    for t, facts in zip(got["trials"], summary["per_trial"]):
        d1, d2, vs = t["duels"]
        assert (d1["opponent"], d1["depth"], d1["opponent_depth"]) == ("piece-difference:depth=1", 1, 1)
        assert (d1["win"], d1["draw"], d1["loss"]) == tuple(facts[f"champion_{k}"] for k in ("win", "draw", "loss"))
        champ = duels.network_of(tmp_path / "one" / "trials" / f"trial_{t['trial']:02d}" / "champion.json")
        here = duels.duel_chunk((duels.net_spec(champ, 2, False), ("piece-difference", 2, 1.5), 0, 4, 40))
        assert (d2["depth"], d2["win"], d2["draw"], d2["loss"]) == (2, int((here == 1).sum()), int((here == 0).sum()), int((here == -1).sum()))
        assert vs["opponent"] == str(twin) and (vs["depth"], vs["opponent_depth"]) == (1, 1)
        if t["trial"] == 1:
            assert vs["score"] == 0.0 and vs["win"] == vs["loss"]
    assert "## The champion deeper, and against other networks" in (tmp_path / "one" / "analysis.md").read_text()
    assert "champion vs piece-difference:depth=2 (depth 2 / 2)" in report.stdout
    # refusals, in one line and before Ray starts (run in this process: see support.cli.run_in_process)
    report = ["report", str(tmp_path / "two")]
    for args, words in ((("--depths", "0"), "a depth must be in 1..12, got 0"), (("--depths", "4,x"), "--depths must be depths"),
                        (("--versus", str(ROOT / "README.md")), "--versus"), (("--depths", "2,2"), "names a depth twice")):
        refused([*report, *args], words)
        assert not (tmp_path / "two" / "duels.json").exists()
    refused([*report, "--league", "158"], "--league takes 1 to 157 ballots, got 158")
    (tmp_path / "two" / "checkpoints" / "trial_01.json").unlink()
    refused([*report, "--league", "2"], "trial_01.json is missing or not at the run's last generation")
    assert not (tmp_path / "two" / "league.json").exists()


def test_the_report_names_a_tictactoe_champions_hidden_layers(tmp_path):
    toml = tmp_path / "ttt.toml"
    toml.write_text((ROOT / "configs" / "blondie24-ttt-d1.toml").read_text().replace("trials = 20", "trials = 1")
                    .replace("generations = 200", "generations = 2"))
    evoplay_cli("evolve", toml, "--out", tmp_path / "run", "--workers", "1", "--quiet")
    out = evoplay_cli("report", tmp_path / "run").stdout
    assert "(trial 0, H=10)" in out
    assert json.loads((tmp_path / "run" / "analysis.json").read_text())["champions"][0]["hidden"] == "10"
    refused = subprocess.run([sys.executable, "-m", "evoplay", "report", str(tmp_path / "run"), "--league", "2"],
                             capture_output=True, text=True, env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
    assert refused.returncode == 2 and "--league is for Blondie24 checkers runs" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and not (tmp_path / "run" / "league.json").exists()


def test_the_league_scores_both_players_by_the_points_table_and_ties_go_to_the_first():
    from evoplay.recipes.blondie24.league import standings, winner

    rows = standings(3, [(0, 1), (0, 2), (1, 2)], [np.array([1, 0]), np.array([-1, -1]), np.array([0, 1])], (1.0, 0.0, -2.0))
    assert [(r["points"], r["win"], r["draw"], r["loss"]) for r in rows] == [(-3.0, 1, 1, 2), (-1.0, 1, 2, 1), (0.0, 2, 1, 1)]
    assert winner(rows) == 2
    assert winner([{"points": 1.0}, {"points": 3.0}, {"points": 3.0}]) == 1


def test_the_report_words_a_champion_without_a_hidden_size():
    from evoplay.recipes.fogel.report import hidden_label, hidden_words

    assert [hidden_words(hidden_label({"hidden": h})) for h in (10, [40, 10], None)] == [", H=10", ", H=40-10", ""]
    assert hidden_words(hidden_label({})) == ""


def test_random_openings_are_legal_reproducible_and_the_first_player_is_the_side_that_moved_first():
    from evoplay.recipes.blondie24.operators import draw_openings
    from evoplay.recipes.blondie24.play import play_chunk

    openings = draw_openings(TICTACTOE, 200, 3, np.random.default_rng(4))
    assert openings == draw_openings(TICTACTOE, 200, 3, np.random.default_rng(4))
    assert {len(o) for o in openings} == {0, 1, 2, 3}  # 0..3 plies, each count drawn
    for o in openings:
        state = TICTACTOE.initial()
        for move in o:
            assert move in TICTACTOE.legal_moves(state)
            state = TICTACTOE.apply(state, move)
    # two networks from the centre opening: the second network replies as O, the first plays on as X
    genomes = np.random.default_rng(5).uniform(-1, 1, (2, n_weights((9, 4, 1))))
    sizes, kings = (9, 4, 1), np.array([2.0, 2.0])
    a, b = (TablePlayerFromNet(genomes[i], sizes) for i in range(2))
    state = TICTACTOE.apply(TICTACTOE.initial(), 4)
    score, plies = play(TICTACTOE, b, a, state, 8)  # O (b) to move
    [[got_score, got_plies]] = play_chunk(("tictactoe", genomes, kings, sizes, 1, False, np.array([[0, 1]]), 9, [[4]]))
    assert (got_score, got_plies) == (-score, plies + 1)


def TablePlayerFromNet(genome, sizes):
    from evoplay.recipes.blondie24.play import TableMover

    return TableMover(ttt_move_table(Evaluator(genome, sizes, 2.0), 1))


def test_a_run_with_random_openings_is_the_same_in_chunks_and_differs_from_one_without():
    cfg = configs.load(ROOT / "configs" / "blondie24-ttt-d1.toml")
    cfg["evaluation"]["random_plies"] = 2
    one = TrialRun(Blondie24Recipe(cfg), 0).run(3).to_data()
    three = TrialRun(Blondie24Recipe(cfg), 0, chunks=3).run(3).to_data()
    assert json.dumps(one) == json.dumps(three)
    cfg["evaluation"]["random_plies"] = 0
    plain = TrialRun(Blondie24Recipe(cfg), 0).run(3).to_data()
    assert [r["mean_plies"] for r in plain["logbook"]] != [r["mean_plies"] for r in one["logbook"]]


def test_the_committed_checkers_run_directory_is_a_checkers_player():
    from evoplay.arena.specs import make_player as any_game_player
    from evoplay.checkers.game import CHECKERS as checkers_game

    def checkers_player(spec):
        return any_game_player(checkers_game, spec)


    player = checkers_player(str(ROOT / "results" / "blondie24"))
    doc = json.loads((ROOT / "results" / "blondie24" / "champion.json").read_text())
    assert player.genome.tolist() == doc["weights"]["genome"] and player.depth == 4 and player.king == doc["weights"]["king"][0]
    with pytest.raises(Exception, match="not a checkers player"):
        checkers_player(str(ROOT / "results" / "fogel1993"))


def test_both_seats_credits_the_drawn_member_as_first_and_as_second_player():
    pairs = np.array([[0, 1], [2, 0], [1, 0], [0, 2]])  # the second half: the first half, seats swapped
    scores = np.array([1, 0, 1, -1])  # the first player's result
    pts, _ = points_of(pairs, scores, 3, (1.0, 0.0, -2.0), False, both_seats=True)
    # games 0, 1 are drawn for members 0 and 2 (first player); games 2, 3 replay them swapped, and 0 (lost
    # game 2) and 2 (won game 3) score them as the second player; nobody else scores without opponent_scores
    assert pts.tolist() == [1.0 - 2.0, 0.0, 0.0 + 1.0]
    pts, _ = points_of(pairs, scores, 3, (1.0, 0.0, -2.0), True, both_seats=True)
    assert pts.tolist() == [1.0 - 2.0 + 0.0 - 2.0, -2.0 + 1.0, 0.0 + 1.0 + 0.0]


def _events(cfg, gens=2, chunks=1):
    recipe = Blondie24Recipe(cfg)
    events = []
    recipe.hooks.append(lambda e: events.append({**e, "points": [n.points for n in e["pool"]]}))  # before re-scoring
    run = TrialRun(recipe, 0, chunks=chunks).run(gens)
    return recipe, events, run


@pytest.mark.parametrize("round_robin, both_seats, games", [(True, False, 29), (False, True, 10), (True, True, 58)])
def test_round_robin_and_both_seats_give_every_network_its_games_from_each_seat(round_robin, both_seats, games):
    cfg = configs.load(ROOT / "configs" / "blondie24-ttt-d1.toml")
    cfg["evaluation"].update(round_robin=round_robin, both_seats=both_seats, opponent_scores=False)
    recipe, events, _ = _events(cfg)
    assert recipe.games_per_generation() == 30 * games
    for e in events:
        pairs, results, points = e["pairs"], e["results"], e["points"]
        assert len(pairs) == 30 * games and (pairs[:, 0] != pairs[:, 1]).all()
        as_first, as_second = np.bincount(pairs[:, 0], minlength=30), np.bincount(pairs[:, 1], minlength=30)
        if round_robin:  # every ordered pair once (twice with both seats): each network meets all 29 others
            assert set(map(tuple, pairs)) == {(i, j) for i in range(30) for j in range(30) if i != j}
            assert (as_first == games).all() and (as_second == games).all()
        if both_seats:  # the second half is the first with the seats swapped: everyone plays as X and as O
            half = len(pairs) // 2
            assert (pairs[half:] == pairs[:half, ::-1]).all() and (as_first > 0).all() and (as_second > 0).all()
            for i, got in enumerate(points):  # the member a game was drawn for scores it, from either seat
                mine = np.concatenate([results[:half][pairs[:half, 0] == i, 0], -results[half:][pairs[half:, 1] == i, 0]])
                assert len(mine) == games and got == (mine == 1).sum() - 2 * (mine == -1).sum()


def test_round_robin_draws_nothing_from_the_pairing_stream_and_seat_options_are_the_same_in_chunks():
    cfg = configs.load(ROOT / "configs" / "blondie24-ttt-d1.toml")
    cfg["evaluation"].update(round_robin=True, both_seats=True, opponent_scores=True, random_plies=2)
    recipe = Blondie24Recipe(cfg)
    ctx_pairs = [recipe.pairing(30, Context(Streams(0, 0, g))) for g in (1, 2)]
    assert (ctx_pairs[0] == ctx_pairs[1]).all()  # no draws: the same schedule every generation
    one = TrialRun(Blondie24Recipe(cfg), 0).run(3).to_data()
    two = TrialRun(Blondie24Recipe(cfg), 0, chunks=2).run(3).to_data()
    assert json.dumps(one) == json.dumps(two)
    cfg["evaluation"].update(round_robin=False, both_seats=False, opponent_scores=False, random_plies=0)
    plain = TrialRun(Blondie24Recipe(cfg), 0).run(3).to_data()
    assert json.dumps(plain) != json.dumps(one)


def test_hall_of_fame_holds_the_last_champions_who_play_every_member_from_both_seats_and_never_score():
    cfg = configs.load(ROOT / "configs" / "blondie24-ttt-d1.toml")
    cfg["evaluation"]["hall_of_fame"] = 2
    recipe, events, run = _events(cfg, gens=4)
    assert [recipe.games_in(g) for g in (1, 2, 3, 4)] == [150, 150 + 60, 150 + 120, 150 + 120] == [len(e["pairs"]) for e in events]
    assert recipe.games_per_generation() == 270
    for g, e in enumerate(events):
        pairs, results, points = e["pairs"], e["results"], e["points"]
        h = min(g, 2)
        extra = pairs[150:]
        assert len(extra) == 2 * 30 * h and (extra[:30 * h, 0] == np.repeat(np.arange(30), h)).all()
        assert set(extra[:30 * h, 1]) == set(range(30, 30 + h)) and (extra[30 * h:] == extra[:30 * h, ::-1]).all()
        for i in range(30):  # the member's 5 drawn games as first player and its hall games from both seats
            mine = np.concatenate([results[:150][pairs[:150, 0] == i, 0], results[150:150 + 30 * h][extra[:30 * h, 0] == i, 0],
                                   -results[150 + 30 * h:][extra[30 * h:, 1] == i, 0]])
            assert len(mine) == 5 + 2 * h and points[i] == (mine == 1).sum() - 2 * (mine == -1).sum()
    # the hall: the last two generations' best networks, oldest first, in the checkpoint and back
    data = run.to_data()
    assert [h["genome"] for h in data["state"]["hall"]] == [e["pool"][int(np.argmax(e["points"]))].genome.tolist() for e in events[-2:]]
    again = TrialRun(Blondie24Recipe(cfg), 0, data=json.loads(json.dumps(recipe_state_at(cfg, 2)))).run(4).to_data()
    assert json.dumps(again) == json.dumps(data)
    two = TrialRun(Blondie24Recipe(cfg), 0, chunks=2).run(4).to_data()
    assert json.dumps(two) == json.dumps(data)
    bad = json.loads(json.dumps(data))
    bad["state"]["hall"].append(bad["state"]["hall"][0])
    with pytest.raises(EvoplayError, match="hall of fame"):
        TrialRun(Blondie24Recipe(cfg), 0, data=bad)
    cfg["evaluation"]["hall_of_fame"] = 0  # without a hall the state has no hall key (checkpoints keep their bytes)
    assert "hall" not in TrialRun(Blondie24Recipe(cfg), 0).run(1).to_data()["state"]


def recipe_state_at(cfg, gens):
    return TrialRun(Blondie24Recipe(cfg), 0).run(gens).to_data()


def test_depth_two_can_be_unbeatable_from_both_seats_with_open_line_counts_but_not_with_square_weights():
    """What the tic-tac-toe target asks of an evaluator: the classic open-line count (own lines
    with 1 or 2 marks and none of the other's, minus the other's) searched 2 plies is unbeatable
    from both seats; weights per square (centre, corner, edge: any linear evaluator symmetric
    under the board's symmetries tried here) are never unbeatable as O at depths 1 to 3."""
    from evoplay.tictactoe.players import TablePlayer, onehot_table

    lines = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])

    def open_lines(v):
        own, other = (v[:, lines] == 1).sum(2), (v[:, lines] == -1).sum(2)
        mine = np.where(other == 0, np.where(own == 2, 10, own), 0)
        theirs = np.where(own == 0, np.where(other == 2, 10, other), 0)
        return np.tanh(0.02 * (mine - theirs).sum(1))

    def unbeatable(evaluate, depth):
        player = TablePlayer("t", onehot_table(ttt_move_table(evaluate, depth)))
        return exact.unbeatable(player, as_x=True), exact.unbeatable(player, as_x=False)

    assert unbeatable(open_lines, 2) == (True, True)
    assert unbeatable(open_lines, 1) == (True, False)  # one ply does not see the fork coming
    for centre, corner, edge in [(4, 3, 2), (3, 2, 1), (6, 2, 0), (2, 3, 1), (1, 1, 1)]:
        w = np.array([corner, edge, corner, edge, centre, edge, corner, edge, corner], float)
        for depth in (1, 2, 3):
            assert not unbeatable(lambda v: np.tanh(0.05 * (v @ w)), depth)[1]


def test_the_committed_checkers_run_resumes_and_reports_after_its_recipe_gained_config_keys():
    """The run was checkpointed before evaluation.random_plies, both_seats, round_robin and hall_of_fame
    existed: its checkpoints were refused as "another config" (resume, the league) until the config key
    left out what the stored config.toml does not name."""
    from evoplay.framework.rundir import RunDir, digest
    from evoplay.framework.runner import _prepare

    rd = RunDir(ROOT / "results" / "blondie24")
    cfg = configs.load(rd.config)
    stored = json.loads(rd.checkpoint(0).read_text())["config_sha256"]
    assert "random_plies" not in rd.config.read_text() and digest(cfg) != stored
    assert rd.config_key(cfg) == stored
    _, states = _prepare(rd, None, resume=True, overwrite=False)
    assert states[0]["generation"] == 250
    assert len(rd.final_states(Blondie24Recipe(cfg))[0].parents) == 15


def test_the_committed_league_is_consistent_with_the_runs_last_parents():
    """results/blondie24/league.json (`evoplay report results/blondie24 --league 8`): every one of the 15
    last parents played 14 others x 16 games, the table adds up, and the league champion's file holds
    the parent with the most points."""
    from evoplay.arena.specs import make_player as any_game_player
    from evoplay.checkers.game import CHECKERS as checkers_game

    def checkers_player(spec):
        return any_game_player(checkers_game, spec)

    from evoplay.framework.rundir import RunDir
    from evoplay.recipes.blondie24 import league

    root = ROOT / "results" / "blondie24"
    played = json.loads((root / "league.json").read_text())
    [trial] = played["trials"]
    nets = league.final_parents(Blondie24Recipe(configs.load(root / "config.toml")), RunDir(root))[0]
    rows = trial["table"]
    assert [r["network_id"] for r in rows] == [n.ident for n in nets] and trial["games_per_pair"] == 2 * played["openings"] == 16
    assert all(r["win"] + r["draw"] + r["loss"] == 14 * 16 and r["points"] == r["win"] - 2 * r["loss"] for r in rows)
    assert sum(r["win"] for r in rows) == sum(r["loss"] for r in rows)
    assert trial["champion"] == league.winner(rows) and trial["champion_id"] == nets[trial["champion"]].ident
    player = checkers_player(str(root / "league-champions" / "trial_00.json"))
    assert player.genome.tolist() == nets[trial["champion"]].genome.tolist() and player.depth == 4
    v = trial["vs_piece_difference"]
    assert v["games"] == 314 and v["win"] + v["draw"] + v["loss"] == 314 and v["score"] == pytest.approx((v["win"] - v["loss"]) / 314)
    assert json.loads((root / "analysis.json").read_text())["league"] == played
    assert league.read_league(root) == played


def test_a_damaged_duels_file_is_refused_in_one_line(tmp_path):
    from evoplay.recipes.blondie24.duels import read_duels

    assert read_duels(tmp_path) == {}
    (tmp_path / "duels.json").write_text(json.dumps({"games": 314, "max_plies": 200, "pd_king": 1.5, "trials": [{"trial": 0}]}))
    with pytest.raises(EvoplayError, match=r"duels.json is damaged \(KeyError\): run `evoplay report RUN --depths"):
        read_duels(tmp_path)
    (tmp_path / "duels.json").write_text("{")
    with pytest.raises(EvoplayError, match=r"duels.json is damaged \(JSONDecodeError\)"):
        read_duels(tmp_path)


def test_a_damaged_league_file_is_refused_in_one_line(tmp_path):
    from evoplay.recipes.blondie24.league import read_league

    assert read_league(tmp_path) == {}
    (tmp_path / "league.json").write_text(json.dumps({"openings": 8, "depth": 4, "points": [1, 0, -2], "trials": [{"trial": 0}]}))
    with pytest.raises(EvoplayError, match=r"league.json is damaged \(KeyError\)"):
        read_league(tmp_path)
