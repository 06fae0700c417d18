"""Beyond Fogel: exact fitness, self-adaptive mutation, co-evolution, network-vs-network play, the yardstick."""

import copy
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from conftest import evoplay_in_own_session
from support.games import HMAX, preference_net

from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config as configs
from evoplay.framework.config import recipe_class
from evoplay.framework.trial import TrialRun
from evoplay.recipes.fogel import exact_yardstick
from evoplay.recipes.coevolution import PAIRING, coevolve_chunk, draw_opponents, points_of, round_robin
from evoplay.recipes.exact_fitness import exact_weights, population_outcomes
from evoplay.recipes.fogel.nets import NetBatch, init_population, net_player, stack
from evoplay.recipes.fogel.operators import eval_weights
from evoplay.recipes.fogel.report import champion_row
from evoplay.recipes.selfadaptive import SANet, init_sa_population, mut_selfadaptive, n_weights, sa_from_dict, sa_to_dict, step_sizes
from evoplay.framework.recipe import Context
from evoplay.framework.streams import Streams, stream
from evoplay.tictactoe import board
from evoplay.tictactoe import engine, exact
from evoplay.tictactoe.netplay import Exploring, play_pairs
from evoplay.tictactoe.players import make_player

ROOT = Path(__file__).resolve().parents[1]


def pop(n, seed=0, h_range=(1, HMAX)):
    return init_population(n, np.random.default_rng(seed), h_range=h_range)


def cfg(recipe, **sections):
    raw = {"recipe": recipe, "name": "t", "trials": 1, "generations": 4}
    for k, v in sections.items():
        raw[k] = v
    return configs.resolve(raw)


# ---------------------------------------------------------------- exact fitness


def test_hand_made_networks_get_the_exact_outcome_of_the_player_they_are():
    first_open = preference_net(range(9))
    center_first = preference_net([4, 0, 2, 6, 8, 1, 3, 5, 7])
    # first-open as a table player, built without any network
    assert np.array_equal(net_player(first_open).table, make_player("first-open").table)
    _, w1, w2 = stack([first_open, center_first])
    for spec in ("logic", "random", "minimax", "logic:eps=0.3,develop=other"):
        opp = make_player(spec)
        got = population_outcomes(NetBatch(w1, w2), 2, opp.table, board.X)
        for row, net in zip(got, (first_open, center_first)):
            want = exact.outcome(net_player(net), opp)
            assert row == pytest.approx([want.x_win, want.draw, want.o_win], abs=1e-12)
        got_o = population_outcomes(NetBatch(w1, w2), 2, opp.table, board.O)
        for row, net in zip(got_o, (first_open, center_first)):
            want = exact.outcome(opp, net_player(net))
            assert row == pytest.approx([want.x_win, want.draw, want.o_win], abs=1e-12)
    # first-open as X against minimax: loses for sure (minimax wins whenever it can)
    assert exact.outcome(make_player("first-open"), make_player("minimax")).o_win == pytest.approx(1.0)


def test_exact_fitness_equals_the_exact_analysis_of_every_network():
    nets = pop(60, seed=3)
    _, w1, w2 = stack(nets)
    payoffs, wld = exact_weights(w1, w2, "logic", (1.0, 0.0, -10.0), 32)
    for i, net in enumerate(nets):
        row = champion_row(net_player(net), 0, net.h)  # the reference reproduction's per-champion table
        assert payoffs[i] == pytest.approx(row["expected_payoff_32_vs_logic"], abs=1e-9)
        assert wld[i] == pytest.approx(32 * np.array(row["vs_logic"])[[0, 2, 1]], abs=1e-9)


def test_exact_fitness_of_a_mix_weighs_the_players_by_their_share_of_the_games():
    nets = pop(8, seed=4)
    _, w1, w2 = stack(nets)
    mix = [{"player": "logic", "weight": 3.0}, {"player": "random", "weight": 1.0}]
    payoffs, _ = exact_weights(w1, w2, mix, (1.0, 0.5, -4.0), 32)
    for i, net in enumerate(nets):
        p = net_player(net)
        want = 24 * exact.expected_payoff(p, make_player("logic"), (1.0, 0.5, -4.0)) + 8 * exact.expected_payoff(p, make_player("random"), (1.0, 0.5, -4.0))
        assert payoffs[i] == pytest.approx(want, abs=1e-9)


def test_exact_fitness_is_the_mean_of_the_sampled_games_within_their_interval():
    nets = pop(6, seed=5)
    _, w1, w2 = stack(nets)
    games = 20_000
    u = np.random.default_rng(11).random((len(nets), games, 9))
    sampled, _ = eval_weights(w1, w2, u, "logic")
    exact_32, _ = exact_weights(w1, w2, "logic", (1.0, 0.0, -10.0), 32)
    outcomes = population_outcomes(NetBatch(w1, w2), len(nets), make_player("logic").table, board.X)
    for i in range(len(nets)):
        mean = sampled[i] / games
        var = outcomes[i] @ np.array([1.0, 0.0, 100.0]) - (exact_32[i] / 32) ** 2
        assert abs(mean - exact_32[i] / 32) < 4.5 * np.sqrt(var / games) + 1e-12


def test_fogel_exact_recipe_records_exact_payoffs_and_sampled_mode_is_fogels_own():
    r = recipe_class("fogel-exact")(cfg("fogel-exact", population={"parents": 8}, selection={"rivals": 3}))
    tr = TrialRun(r, 0).run(3)
    champ = tr.trial.state.champion
    assert tr.logbook[-1]["max"] == pytest.approx(32 * exact.expected_payoff(net_player(champ), make_player("logic")), abs=1e-9)
    # the yardstick of a fogel-exact run is the champion's exact payoff: the same number
    assert tr.logbook[-1]["yard_logic32"] == pytest.approx(tr.logbook[-1]["max"], abs=1e-9)
    sampled = recipe_class("fogel-exact")(cfg("fogel-exact", population={"parents": 8}, selection={"rivals": 3}, evaluation={"mode": "sampled"}))
    fogel = recipe_class("fogel")(cfg("fogel", population={"parents": 8}, selection={"rivals": 3}))
    a, b = TrialRun(sampled, 0).run(3), TrialRun(fogel, 0).run(3)
    assert [rec["max"] for rec in a.logbook] == [rec["max"] for rec in b.logbook]
    assert a.trial.state.parents == b.trial.state.parents


def test_exact_evaluation_is_the_same_in_any_number_of_chunks():
    c = cfg("fogel-exact", population={"parents": 10}, selection={"rivals": 3})
    whole = TrialRun(recipe_class("fogel-exact")(c), 1).run(3)
    calls = []

    def spy_map(fn, items):
        items = list(items)
        calls.append(len(items))
        return [fn(x) for x in items]

    split = TrialRun(recipe_class("fogel-exact")(c), 1, map_fn=spy_map, chunks=3).run(3)
    assert calls == [3, 3, 3]
    assert whole.to_data() == split.to_data()


# ---------------------------------------------------------------- the yardstick


def test_yardstick_matches_the_reference_analysis():
    from evoplay.recipes.fogel.nets import net_from_file
    from evoplay.files.playerfile import read_document

    docs = [read_document(p) for p in sorted((ROOT / "results/fogel1993/trials").glob("trial_*/champion.json"))]
    nets = pop(25, seed=6) + [preference_net([4, 0, 2, 6, 8, 1, 3, 5, 7])] + [net_from_file(d["architecture"], d["weights"]) for d in docs]
    _, w1, w2 = stack(nets)
    m = exact_yardstick.measure_weights(w1, w2)
    mm = make_player("minimax")
    seen = set()
    for i, net in enumerate(nets):
        p = net_player(net)
        row = champion_row(p, 0, net.h)
        assert m["yard_logic32"][i] == pytest.approx(row["expected_payoff_32_vs_logic"], abs=1e-9)
        assert bool(m["yard_unbeat_x"][i]) == exact.unbeatable(p, as_x=True)
        assert bool(m["yard_unbeat_o"][i]) == exact.unbeatable(p, as_x=False)
        as_x, as_o = exact.outcome(p, mm), exact.outcome(mm, p)
        assert (m["yard_mm_x_draw"][i], m["yard_mm_x_loss"][i]) == pytest.approx((as_x.draw, as_x.o_win), abs=1e-12)
        assert (m["yard_mm_o_draw"][i], m["yard_mm_o_loss"][i]) == pytest.approx((as_o.draw, as_o.x_win), abs=1e-12)
        seen.add((bool(m["yard_unbeat_x"][i]), bool(m["yard_unbeat_o"][i])))
    assert {x for x, _ in seen} == {True, False}  # both answers occur (evolved champions: 10 of 20 unbeatable as X)


# ---------------------------------------------------------------- self-adaptive mutation


def sa_parents(n=40, seed=7):
    return init_sa_population(n, np.random.default_rng(seed), h_range=(1, HMAX), sigma_init=0.05)


def test_self_adaptive_step_sizes_stay_positive_and_every_weight_moves():
    parents = sa_parents()
    rng = np.random.default_rng(8)
    for _ in range(30):
        children = mut_selfadaptive(parents, rng, p_arch=0.0, h_range=(1, HMAX))
        for p, c in zip(parents, children):
            assert c.h == p.h
            act1 = np.broadcast_to(np.arange(HMAX)[None, :] < c.h, c.w1.shape)
            act2 = np.broadcast_to(((np.arange(HMAX + 1) < c.h) | (np.arange(HMAX + 1) == HMAX))[:, None], c.w2.shape)
            for w, s, wp, active in ((c.w1, c.s1, p.w1, act1), (c.w2, c.s2, p.w2, act2)):
                assert (s[active] > 0).all() and (s[~active] == 0).all()
                assert (w[active] != wp[active]).all()  # every weight moves
                assert (w[~active] == 0).all()
        parents = children


def test_step_sizes_are_updated_log_normally_before_the_weights_move():
    parents = sa_parents(200, seed=9)
    children = mut_selfadaptive(parents, np.random.default_rng(10), p_arch=0.0, h_range=(1, HMAX))
    h, _, _ = stack(parents)
    s1p, s2p = step_sizes(parents)
    s1c, s2c = step_sizes(children)
    tau = 1 / np.sqrt(2 * np.sqrt(n_weights(h)))
    z = np.concatenate([(np.log(s1c[i][s1p[i] > 0] / s1p[i][s1p[i] > 0])) / tau[i] for i in range(200)])
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02  # N(0, 1) per weight
    # the weight moves by the child's step size: (w' - w) / s' is N(0, 1)
    _, w1p, _ = stack(parents)
    _, w1c, _ = stack(children)
    steps = (w1c - w1p)[s1c > 0] / s1c[s1c > 0]
    assert abs(steps.mean()) < 0.03 and abs(steps.std() - 1) < 0.03
    # with a fixed tau of zero-mean noise the step sizes keep their median
    fixed = mut_selfadaptive(parents, np.random.default_rng(10), tau=0.3, p_arch=0.0, h_range=(1, HMAX))
    r = step_sizes(fixed)[0][s1p > 0] / s1p[s1p > 0]
    assert abs(np.log(r).std() - 0.3) < 0.01


def test_cauchy_steps_are_cauchy_and_gaussian_steps_gaussian():
    parents = sa_parents(200, seed=22)
    _, w1p, _ = stack(parents)
    for step, median_abs in (("gauss", 0.6745), ("cauchy", 1.0)):  # median of |N(0,1)| and of |Cauchy(0,1)|
        children = mut_selfadaptive(parents, np.random.default_rng(23), p_arch=0.0, h_range=(1, HMAX), step=step)
        _, w1c, _ = stack(children)
        s1c = step_sizes(children)[0]
        z = np.abs((w1c - w1p)[s1c > 0] / s1c[s1c > 0])
        assert abs(np.median(z) - median_abs) < 0.03
        assert (z > 20).mean() > 0.02 if step == "cauchy" else (z > 20).sum() == 0  # the long jumps
    with pytest.raises(ConfigError, match="mutation.step"):
        cfg("fogel-selfadaptive", mutation={"step": "levy"})


def test_a_new_unit_has_zero_weights_and_its_own_step_sizes_and_a_deleted_unit_takes_its_step_sizes_along():
    parents = sa_parents(300, seed=12)
    for p in parents:  # unit j of every parent gets step sizes 0.001 * (j + 1): each unit recognisable
        p.s1[:, : p.h] = 0.001 * (np.arange(p.h) + 1)
        p.s2[: p.h] = 0.001 * (np.arange(p.h) + 1)[:, None]
    rng = np.random.default_rng(13)
    # tau ~ 0: step sizes keep their values, so where each unit went can be read off them
    children = mut_selfadaptive(parents, rng, tau=1e-12, sigma_new=0.123, p_arch=1.0, h_range=(1, HMAX))
    grew = shrank = 0
    for p, c in zip(parents, children):
        unit = np.round(c.s1[0, : c.h] / 0.001, 6)  # which parent unit each child unit is (0.123 / 0.001 for a new one)
        assert np.array_equal(np.round(c.s2[: c.h, 0] / 0.001, 6), unit)  # a unit's in and out step sizes travel together
        assert (c.s1[:, c.h :] == 0).all() and (c.w1[:, c.h :] == 0).all() and (c.s2[c.h : HMAX] == 0).all() and (c.w2[c.h : HMAX] == 0).all()
        if c.h == p.h + 1:
            grew += 1
            assert unit.tolist() == list(range(1, p.h + 1)) + [123.0]
            assert (c.w1[:, p.h] == 0).all() and (c.w2[p.h] == 0).all()  # the new unit's weights are zero
            assert (c.s1[:, p.h] == 0.123).all() and (c.s2[p.h] == 0.123).all()  # with step sizes of its own
        elif c.h == p.h - 1:
            shrank += 1
            gone = sorted(set(range(1, p.h + 1)) - set(unit.tolist()))
            assert len(gone) == 1  # one unit left, with its step sizes; the others kept theirs
            victim = gone[0] - 1
            want = list(range(1, p.h + 1))
            want[victim] = p.h  # the last unit moved into the deleted unit's slot
            assert unit.tolist() == [float(x) for x in want[: c.h]]
            # weights went with their step sizes: each child unit is near its parent unit (steps of at most ~6 s)
            for j, src in enumerate(want[: c.h]):
                assert np.abs(c.w1[:, j] - p.w1[:, src - 1]).max() < 0.006 * src
                assert np.abs(c.w2[j] - p.w2[src - 1]).max() < 0.006 * src
        else:
            assert c.h == p.h and p.h in (1, HMAX)  # a change that would leave 1..10 is skipped
            assert unit.tolist() == list(range(1, p.h + 1))
    assert grew > 50 and shrank > 50


def test_self_adaptive_networks_pickle_and_checkpoint_exactly():
    net = sa_parents(3)[1]
    net.fitness.values = (3.5,)
    for twin in (pickle.loads(pickle.dumps(net)), copy.deepcopy(net), sa_from_dict(json.loads(json.dumps(sa_to_dict(net))), HMAX)):
        assert isinstance(twin, SANet) and twin == net and twin.fitness.values == (3.5,)
    bad = sa_to_dict(net)
    bad["s1"][0][0] = -1.0
    with pytest.raises(EvoplayError, match="step sizes"):
        sa_from_dict(bad, HMAX)


def test_self_adaptive_recipe_resumes_bit_for_bit_and_fixed_mode_is_fogels_mutation():
    c = cfg("fogel-selfadaptive", population={"parents": 8}, selection={"rivals": 3})
    r = recipe_class("fogel-selfadaptive")(c)
    straight = TrialRun(r, 2).run(6)
    half = TrialRun(r, 2).run(3)
    resumed = TrialRun(recipe_class("fogel-selfadaptive")(c), 2, data=json.loads(json.dumps(half.to_data()))).run(6)
    assert straight.to_data() == resumed.to_data()
    assert "mean_sigma" in straight.logbook[-1]
    fixed = cfg("fogel-selfadaptive", population={"parents": 8}, selection={"rivals": 3}, mutation={"self_adaptive": False}, evaluation={"mode": "sampled"})
    a = TrialRun(recipe_class("fogel-selfadaptive")(fixed), 0).run(3)
    b = TrialRun(recipe_class("fogel")(cfg("fogel", population={"parents": 8}, selection={"rivals": 3})), 0).run(3)
    assert a.trial.state.parents == b.trial.state.parents
    with pytest.raises(ConfigError, match="mutation.self_adaptive"):
        cfg("fogel-selfadaptive", mutation={"self_adaptive": "yes"})


# ---------------------------------------------------------------- network against network


def test_batched_network_play_equals_one_game_at_a_time():
    nets = pop(30, seed=14)
    _, w1, w2 = stack(nets)
    rng = np.random.default_rng(15)
    a, b = rng.integers(0, 30, 200), rng.integers(0, 30, 200)
    as_x, as_o = play_pairs(NetBatch(w1, w2), a, b)
    players = [net_player(n) for n in nets]
    zero = np.zeros((1, 9))
    for k in range(200):
        assert as_x[k] == engine.play(players[a[k]], players[b[k]], zero)[0]
        assert as_o[k] == engine.play(players[b[k]], players[a[k]], zero)[0]
    # deterministic networks: the exact outcome has all its mass on the game played
    k = 0
    o = exact.outcome(players[a[k]], players[b[k]])
    assert [o.x_win, o.o_win, o.draw][[board.X_WIN, board.O_WIN, board.DRAW].index(as_x[k])] == 1.0


def test_exploring_play_equals_one_game_at_a_time_with_the_same_uniforms():
    nets = pop(12, seed=16)
    _, w1, w2 = stack(nets)
    rng = np.random.default_rng(17)
    a, b = rng.integers(0, 12, 100), rng.integers(0, 12, 100)
    u = rng.random((200, 9))
    as_x, as_o = play_pairs(Exploring(NetBatch(w1, w2), 0.3), a, b, u)
    players = [Exploring(net_player(n), 0.3) for n in nets]
    for k in range(100):
        assert as_x[k] == engine.play(players[a[k]], players[b[k]], u[k : k + 1])[0]
        assert as_o[k] == engine.play(players[b[k]], players[a[k]], u[100 + k : 101 + k])[0]
    # exploration moves are uniform over the legal squares
    codes = np.full(90_000, board.parse("X.. / .O. / ..."))
    moves = Exploring(make_player("first-open"), 0.999999).sample(codes, np.random.default_rng(1).random(90_000))
    counts = np.bincount(moves, minlength=9)
    assert counts[0] == counts[4] == 0 and all(abs(c / 90_000 - 1 / 7) < 0.006 for c in counts[[1, 2, 3, 5, 6, 7, 8]])


# ---------------------------------------------------------------- co-evolution


def test_pairing_draws_distinct_others_from_the_stream_alone():
    opp = draw_opponents(100, 7, stream(5, 0, 3, PAIRING))
    assert opp.shape == (100, 7)
    assert all(len(set(row)) == 7 and i not in row for i, row in enumerate(opp.tolist()))
    assert opp.min() >= 0 and opp.max() <= 99
    assert np.array_equal(opp, draw_opponents(100, 7, stream(5, 0, 3, PAIRING)))
    assert not np.array_equal(opp, draw_opponents(100, 7, stream(5, 0, 4, PAIRING)))
    # every other member is equally likely: 100 x 7 draws over 99 others, 2000 times
    counts = np.zeros(100)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        counts += np.bincount(draw_opponents(100, 7, rng)[0], minlength=100)
    assert counts[0] == 0 and np.abs(counts[1:] / 2000 - 7 / 99).max() < 0.02


def test_points_come_from_both_seats_with_the_configured_table():
    as_x = np.array([[board.X_WIN, board.DRAW, board.O_WIN]])
    as_o = np.array([[board.O_WIN, board.X_WIN, board.X_WIN]])
    pts, wld = points_of(as_x, as_o, (1.0, 0.0, -2.0))
    assert pts[0] == 2 * 1.0 + 0.0 - 3 * 2.0 and wld.tolist() == [[2, 3, 1]]
    nets = pop(5, seed=18)
    _, w1, w2 = stack(nets)
    rr = round_robin(w1, w2, (1.0, 0.5, -2.0))
    players = [net_player(n) for n in nets]
    for i in range(5):
        want = 0.0
        for j in range(5):
            if i != j:
                for res, mine in ((engine.play(players[i], players[j], np.zeros((1, 9)))[0], board.X_WIN), (engine.play(players[j], players[i], np.zeros((1, 9)))[0], board.O_WIN)):
                    want += 0.5 if res == board.DRAW else 1.0 if res == mine else -2.0
        assert rr[i] == want


def test_coevolution_is_the_same_in_chunks_and_across_resume():
    c = cfg("coevolution", population={"parents": 10}, selection={"rivals": 3}, coevolution={"opponents": 4, "explore": 0.2, "games": 2})
    straight = TrialRun(recipe_class("coevolution")(c), 0).run(6)
    chunked = TrialRun(recipe_class("coevolution")(c), 0, map_fn=lambda f, xs: [f(x) for x in xs], chunks=4).run(3)
    resumed = TrialRun(recipe_class("coevolution")(c), 0, data=json.loads(json.dumps(chunked.to_data())), chunks=3).run(6)
    assert straight.to_data() == resumed.to_data()
    rec = straight.logbook[-1]
    assert set(exact_yardstick.COLUMNS) <= set(rec) and "mean_sigma" in rec
    doc, facts = recipe_class("coevolution")(c).finish(straight.trial.state, 0, list(straight.logbook))
    assert doc["kind"] == "fogel-net" and facts["champion_logic32"] == pytest.approx(doc["provenance"]["expected_payoff_32_vs_logic"])


def test_coevolution_fitness_is_the_points_of_the_drawn_games_and_uses_no_hand_made_opponent():
    c = cfg("coevolution", population={"parents": 6}, selection={"rivals": 3}, coevolution={"opponents": 3})
    r = recipe_class("coevolution")(c)
    assert r.ship() == {} and "evaluation" not in c
    st = r.start(Context(Streams(c[""]["seed"], 0, 0)))
    ctx = Context(Streams(c[""]["seed"], 0, 1))
    pool = st.parents + st.parents  # any 12 networks
    pts, wld = r.evaluate(pool, ctx)
    opp = draw_opponents(12, 3, ctx.stream(PAIRING))
    players = [net_player(n) for n in pool]
    for i in range(12):
        want = 0.0
        for j in opp[i]:
            x = engine.play(players[i], players[j], np.zeros((1, 9)))[0]
            o = engine.play(players[j], players[i], np.zeros((1, 9)))[0]
            want += {board.X_WIN: 1.0, board.DRAW: 0.0, board.O_WIN: -2.0}[x] + {board.O_WIN: 1.0, board.DRAW: 0.0, board.X_WIN: -2.0}[o]
        assert pts[i] == want and wld[i].sum() == 6


def test_coevolution_config_errors_name_the_key():
    with pytest.raises(ConfigError, match="coevolution.opponents"):
        configs.resolve({"recipe": "coevolution", "name": "t", "population": {"parents": 3}, "selection": {"rivals": 2}, "coevolution": {"opponents": 6}})
    with pytest.raises(ConfigError, match="coevolution.games"):
        configs.resolve({"recipe": "coevolution", "name": "t", "coevolution": {"games": 3}})
    with pytest.raises(ConfigError, match="coevolution.explore"):
        configs.resolve({"recipe": "coevolution", "name": "t", "coevolution": {"explore": 1.0}})
    with pytest.raises(ConfigError, match="evaluation"):
        configs.resolve({"recipe": "coevolution", "name": "t", "evaluation": {"games": 3}})


# ---------------------------------------------------------------- on Ray, through the CLI


# The CLI in this process, each run in a Ray session of its own sized by its --workers.
evoplay_cli = evoplay_in_own_session


def test_coevolution_run_is_identical_with_one_and_two_workers(tmp_path):
    toml = tmp_path / "co.toml"
    toml.write_text(
        'recipe = "coevolution"\nname = "co"\nseed = 3\ntrials = 2\ngenerations = 6\n'
        "[population]\nparents = 8\n[selection]\nrivals = 3\n[coevolution]\nopponents = 4\nexplore = 0.1\ngames = 2\n"
        "[run]\ncheckpoint_every = 3\neval_chunks = 2\n"
    )
    evoplay_cli("evolve", toml, "--out", tmp_path / "one", "--workers", "1", "--quiet")
    evoplay_cli("evolve", toml, "--out", tmp_path / "two", "--workers", "2", "--quiet")
    for f in ("summary.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv", "trials/trial_01/champion.json"):
        assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes(), f


def test_exact_coevolution_points_are_the_expected_points_against_each_exploring_opponent():
    from evoplay.tictactoe.players import TablePlayer, uniform_table

    nets = pop(6, seed=19)
    _, w1, w2 = stack(nets)
    opp = draw_opponents(6, 2, np.random.default_rng(20))
    eps, points = 0.25, (1.0, 0.0, -2.0)
    pts, wld = coevolve_chunk((w1, w2, 0, opp, points, eps, 1, None, True))
    tables = [eps * uniform_table(board.LEGAL) + (1 - eps) * net_player(n).table for n in nets]
    for i in range(6):
        want, w_l_d = 0.0, np.zeros(3)
        for j in opp[i]:
            x = exact.outcome(net_player(nets[i]), TablePlayer("explorer", tables[j]))
            o = exact.outcome(TablePlayer("explorer", tables[j]), net_player(nets[i]))
            w_l_d += [x.x_win + o.o_win, x.o_win + o.x_win, x.draw + o.draw]
        want = points[0] * w_l_d[0] + points[1] * w_l_d[2] + points[2] * w_l_d[1]
        assert pts[i] == pytest.approx(want, abs=1e-12) and wld[i] == pytest.approx(w_l_d, abs=1e-12)


def test_only_the_exploring_copies_explore():
    nets = pop(4, seed=21)
    _, w1, w2 = stack(nets)
    batch = NetBatch(w1, w2)
    codes = np.zeros(8, dtype=np.int64)
    u = np.full(8, 0.01)  # below eps: an exploring copy plays legal square floor(0.01 / 0.5 * 9) = 0
    rows = np.array([0, 1, 2, 3, 4, 5, 6, 7])
    moves = Exploring(batch, 0.5, members=4).sample(codes, u, rows)
    plain = batch.sample(codes[:4], u[:4], rows[:4])
    assert moves[:4].tolist() == plain.tolist() and moves[4:].tolist() == [0, 0, 0, 0]
    # above eps an exploring copy plays its member's move
    moves = Exploring(batch, 0.5, members=4).sample(codes, np.full(8, 0.9), rows)
    assert moves[4:].tolist() == plain.tolist()


def test_yardstick_figure_and_table_of_runs_and_a_run_without_yardstick_is_refused(tmp_path, capsys):
    from evoplay.recipes import beyond_figure

    toml = tmp_path / "ex.toml"
    toml.write_text('recipe = "fogel-exact"\nname = "ex"\nseed = 3\ntrials = 2\ngenerations = 5\n[population]\nparents = 6\n[selection]\nrivals = 3\n')
    evoplay_cli("evolve", toml, "--out", tmp_path / "ex", "--workers", "1", "--quiet")
    out = tmp_path / "fig.png"
    assert beyond_figure.main(["--analyze", "--table", str(out), str(tmp_path / "ex")]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "ex" / "analysis.md").exists()
    line = capsys.readouterr().out.splitlines()[-1]
    analysis = json.loads((tmp_path / "ex" / "analysis.json").read_text())
    mean = np.mean([c["expected_payoff_32_vs_logic"] for c in analysis["champions"]])
    assert line.startswith("| `ex` | 5 | ") and f"| {mean:.2f} |" in line
    assert beyond_figure.main([str(tmp_path / "no.png"), str(ROOT / "results/fogel1993")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no yardstick columns" in err and not (tmp_path / "no.png").exists()


def test_opening_values_are_the_best_response_after_each_opening():
    from evoplay.recipes.beyond_figure import opening_values

    for spec in ("logic", "random", "logic:eps=0.3,develop=other"):
        opp = make_player(spec)
        v = opening_values(opp)
        assert v.max() == pytest.approx(exact.best_response_payoff(opp), abs=1e-12)
        # the board's symmetries: every corner alike, every edge alike (logic's rules are symmetric)
        assert v[0] == pytest.approx(v[2]) and v[0] == pytest.approx(v[6]) and v[0] == pytest.approx(v[8])
        assert v[1] == pytest.approx(v[3]) and v[1] == pytest.approx(v[5]) and v[1] == pytest.approx(v[7])
    # against logic a centre opening caps the payoff below minimax's (25.59 per 32 games)
    v = 32 * opening_values(make_player("logic"))
    assert v[4] < 32 * exact.expected_payoff(make_player("minimax"), make_player("logic")) < v[1] < v[0]
    # a deterministic X that opens in the centre never gets more than the centre's value
    champ = net_player(preference_net([4, 0, 2, 6, 8, 1, 3, 5, 7]))
    assert 32 * exact.expected_payoff(champ, make_player("logic")) <= v[4] + 1e-9


def test_coevolution_champion_analysis_for_studies_is_its_yardstick():
    from evoplay.files.playerfile import read_document

    c = cfg("coevolution")
    r = recipe_class("coevolution")(c)
    doc = read_document(ROOT / "results/coevolution/trials/trial_00/champion.json")
    got = r.champion_analysis(doc)
    assert got["expected_payoff"] == pytest.approx(doc["provenance"]["expected_payoff_32_vs_logic"], abs=1e-9)
    assert got["unbeatable_as_x"] is False and got["hidden"] == doc["architecture"]["hidden"] and r.payoff_scale() == 1.0
    # the exact-fitness recipes keep Fogel's analysis: per 32 games against their opponent
    e = recipe_class("fogel-exact")(cfg("fogel-exact"))
    fogel_doc = read_document(ROOT / "results/fogel-exact/trials/trial_00/champion.json")
    assert e.champion_analysis(fogel_doc)["expected_payoff"] == pytest.approx(32 * fogel_doc["provenance"]["expected_payoff_per_game"], abs=1e-9)


BEYOND_RUNS = ["fogel1993-yardstick", "fogel-exact", "fogel-selfadaptive", "fogel-exact-sa", "fogel-exact-sa-2000", "fogel-exact-sa-h30",
               "fogel-exact-sa-h30-p100", "fogel-exact-sa-h30-cauchy", "coevolution", "coevolution-hof"]


@pytest.mark.parametrize("run", ["coevolution-hof", "fogel-exact-sa-h30"])
def test_committed_runs_reproduce_their_first_generations(tmp_path, run):
    committed = ROOT / "results" / run
    evoplay_cli("evolve", ROOT / "configs" / f"{run}.toml", "--trials", 1, "--generations", 30, "--out", tmp_path / "run", "--quiet")
    head = (committed / "trials/trial_00/logbook.csv").read_text().splitlines()[:31]
    assert (tmp_path / "run/trials/trial_00/logbook.csv").read_text().splitlines() == head


def test_committed_analyses_agree_with_the_champions_and_the_yardstick():
    from evoplay.recipes.fogel.nets import net_from_file
    from evoplay.files.playerfile import read_document

    for run in BEYOND_RUNS:
        root = ROOT / "results" / run
        analysis = json.loads((root / "analysis.json").read_text())
        summary = json.loads((root / "summary.json").read_text())
        assert summary["trials"] == 20 and len(analysis["champions"]) == 20 and (root / "config.toml").exists()
        for t, row in enumerate(analysis["champions"]):
            doc = read_document(root / f"trials/trial_{t:02d}/champion.json")
            prov = doc["provenance"]
            want = prov.get("expected_payoff_32_vs_logic", 32 * prov.get("expected_payoff_per_game", np.nan))
            assert row["expected_payoff_32_vs_logic"] == pytest.approx(want, abs=1e-9), (run, t)
            y = exact_yardstick.record(net_from_file(doc["architecture"], doc["weights"], 30))
            assert bool(y["yard_unbeat_x"]) == row["unbeatable_as_x"], (run, t)
        if not run.startswith("coevolution"):
            # the champion is the last generation's best: the logbook's last yardstick is its exact payoff
            last = (root / "trials/trial_00/logbook.csv").read_text().splitlines()
            cols = last[0].split(",")
            assert float(last[-1].split(",")[cols.index("yard_logic32")]) == pytest.approx(analysis["champions"][0]["expected_payoff_32_vs_logic"], abs=1e-9)
