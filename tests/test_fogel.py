"""Fogel network encoding and operator invariants."""

import json
import pickle
import subprocess
import sys

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.framework import config
from evoplay.framework.trial import TrialRun
from evoplay.framework.streams import EVALUATE, stream
from evoplay.recipes.fogel import operators
from evoplay.recipes.fogel import recipe as evolve
from evoplay.recipes.fogel.nets import (
    INPUTS,
    FogelNet,
    NetBatch,
    file_parts,
    init_population,
    mut_population,
    net_from_file,
    net_player,
)


def rng(seed=0):
    return np.random.default_rng(seed)


def assert_well_formed(net: FogelNet, lo=1, hi=10):
    assert lo <= net.h <= hi
    assert net.w1.shape == (10, hi) and net.w2.shape == (hi + 1, 9)
    assert not net.w1[:, net.h :].any(), "padded hidden inputs must be zero"
    assert not net.w2[net.h : hi].any(), "padded hidden outputs must be zero"


def test_inputs_are_signed_marks_that_cancel_when_x_moves():
    x_to_move = board.DECISION_CODES[board.TO_MOVE[board.DECISION_CODES] == board.X]
    squares = INPUTS[:, :9]
    assert set(np.unique(squares)) <= {-1.0, 0.0, 1.0}
    assert (INPUTS[:, 9] == 1).all()
    assert (squares[x_to_move].sum(1) == 0).all()
    # X . . / . O . / . . .  with X to move: own +1, other -1.
    code = board.parse("X.. / .O. / ...")
    assert INPUTS[code, :9].tolist() == [1, 0, 0, 0, -1, 0, 0, 0, 0]


def hand_made_net(output_bias):
    """H = 1, every weight 0: the outputs are sigmoid(output_bias) on every board."""
    w2 = np.zeros((11, 9))
    w2[10] = output_bias
    return FogelNet(1, np.zeros((10, 10)), w2)


def test_move_choice_skips_occupied_squares_and_breaks_ties_low():
    net = hand_made_net([0.9, 0.95, 0.2, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1])
    batch = NetBatch(net.w1[None], net.w2[None])
    boards = [board.parse(b) for b in ("XO. / ... / ...", "... / ... / ...", "XOX / O.. / ...", "XOX / OOX / X..")]
    # Squares 0 and 1 are taken, 3 ties 4 (lowest wins); on the empty board 1 is highest;
    # with 0-3 taken 4 is best; with only 7 and 8 free they tie at 0.1 (7 wins).
    assert batch.moves(np.zeros(4, dtype=np.int64), np.array(boards)).tolist() == [3, 1, 4, 7]
    assert net_player(net).table[boards[0]].tolist() == [0, 0, 0, 1, 0, 0, 0, 0, 0]


def test_initial_population_weights_and_sizes():
    pop = init_population(500, rng(1))
    hs = np.array([n.h for n in pop])
    assert set(hs) == set(range(1, 11))
    for n in pop:
        assert_well_formed(n)
        w = n.weights()
        assert len(w) == 10 * n.h + (n.h + 1) * 9
        assert (np.abs(w) <= 0.5).all()


def test_mutation_moves_every_weight_within_six_sigma():
    pop = init_population(200, rng(2))
    kids = mut_population(pop, rng(3), p_arch=0.0)
    ups = downs = 0
    for p, c in zip(pop, kids):
        assert c.h == p.h and c.parent == p.ident
        d = c.weights() - p.weights()
        assert (d != 0).all(), "every weight and bias must move"
        assert (np.abs(d) <= 0.3).all()
        ups += (d > 0).sum()
        downs += (d < 0).sum()
        assert_well_formed(c)
    assert ups > 0 and downs > 0


def test_architecture_changes_stay_in_range_and_new_units_are_zero():
    pop = init_population(400, rng(4))
    kids = mut_population(pop, rng(5))
    delta = np.array([c.h - p.h for p, c in zip(pop, kids)])
    assert {-1, 0, 1} == set(delta)
    for p, c in zip(pop, kids):
        assert_well_formed(c)
        if c.h == p.h + 1:
            assert not c.w1[:, p.h].any() and not c.w2[p.h].any(), "a new unit's weights are exactly 0"
    # At the bounds a change that would leave 1..10 is skipped.
    edge = [n for n in init_population(400, rng(6)) if n.h in (1, 10)]
    kids = mut_population(edge, rng(7), p_arch=1.0)
    for p, c in zip(edge, kids):
        assert c.h in ((1, 2) if p.h == 1 else (9, 10))
    assert {c.h for c in kids} == {1, 2, 9, 10}, "the bounds both hold and move"


def test_deleting_a_unit_keeps_the_others():
    p = init_population(1, rng(8), h_range=(3, 3))[0]
    p = FogelNet(3, np.pad(p.w1, ((0, 0), (0, 7))), np.pad(p.w2[:3], ((0, 8), (0, 0))) + 0, 0)
    p.w2[10] = 0.25
    for seed in range(50):
        c = mut_population([p], rng(seed), sigma=0.0, p_arch=1.0)[0]
        if c.h == 2:
            # The two remaining units are two of the old ones, each with its own in and out weights.
            units = {j for j in range(3) for k in range(2)
                     if np.array_equal(c.w1[:, k], p.w1[:, j]) and np.array_equal(c.w2[k], p.w2[j])}
            assert len(units) == 2
            assert np.array_equal(c.w2[10], p.w2[10])
            assert_well_formed(c)
            return
    pytest.fail("no deletion in 50 tries")


def test_evolution_keeps_networks_well_formed():
    cfg = config.override(config.load("configs/quick.toml"), generations=15)
    recipe = evolve.FogelRecipe(cfg)
    events = []
    recipe.hooks.append(events.append)
    trial = TrialRun(recipe, 0)
    for _ in range(15):
        trial.step()
        ev = events[-1]
        assert len(ev.pool) == 20 and len(trial.trial.state.parents) == 10
        for net in ev.pool:
            assert_well_formed(net)


def test_batched_play_matches_single_network_tables():
    pop = init_population(6, rng(9))
    batch = NetBatch(np.stack([n.w1 for n in pop]), np.stack([n.w2 for n in pop]))
    codes = board.DECISION_CODES
    for i, net in enumerate(pop):
        table = net_player(net).table
        moves = batch.sample(codes, None, np.full(len(codes), i))
        assert (table[codes, moves] == 1).all()


def test_player_file_parts_round_trip():
    net = init_population(1, rng(10))[0]
    arch, weights = file_parts(net)
    back = net_from_file(arch, {k: v.tolist() for k, v in weights.items()})
    assert back.h == net.h and np.array_equal(back.w1, net.w1) and np.array_equal(back.w2, net.w2)


def test_individual_pickles_in_a_fresh_process(tmp_path):
    net = init_population(1, rng(11))[0]
    net.fitness.values = (-3.0,)
    path = tmp_path / "net.pkl"
    path.write_bytes(pickle.dumps(net))
    code = (
        "import pickle, sys; n = pickle.load(open(sys.argv[1], 'rb'));"
        "print(type(n).__module__, type(n).__name__, n.h, n.fitness.values[0], float(n.w1.sum()))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["evoplay.recipes.fogel.nets", "FogelNet", str(net.h), "-3.0", str(float(net.w1.sum()))]


def test_network_outputs_do_not_depend_on_the_rest_of_the_batch():
    pop = init_population(40, rng(12))
    batch = NetBatch(np.stack([n.w1 for n in pop]), np.stack([n.w2 for n in pop]))
    g = rng(13)
    for k in (0, 2, 4, 6):
        boards = np.flatnonzero((board.N_MARKS == k) & (board.OUTCOME == board.ONGOING) & board.REACHABLE)
        c = g.choice(boards, 500)
        r = g.integers(0, 40, 500)
        whole = batch.outputs(r, c)
        for part in (slice(0, 1), slice(3, 200, 7), slice(250, 500)):
            alone = batch.outputs(r[part], c[part])
            assert np.array_equal(alone, whole[part], equal_nan=True), "bitwise identical whatever the batch"


def test_compiled_outputs_are_the_bits_of_a_plain_python_twin():
    """The kernel's order (hidden sums over occupied squares, outputs over units, bias last) by hand."""
    from evoplay.recipes.fogel.nets import INPUTS
    from numerics_twin import exp as twin_exp

    def sig(z):
        return 1.0 / (1.0 + twin_exp(-z))

    pop = init_population(6, rng(14), init_scale=3.0)
    _, w1, w2 = pop.arrays
    batch = NetBatch(w1, w2)
    codes = np.flatnonzero((board.OUTCOME == board.ONGOING) & board.REACHABLE)[::37]
    for r, net in enumerate(pop):
        got = batch.outputs(np.full(len(codes), r), codes)
        for row, c in zip(got, codes):
            x = INPUTS[c]
            hid = []
            for u in range(net.h):
                z = 0.0
                for sq in range(9):
                    if x[sq] != 0:
                        z += x[sq] * net.w1[sq, u]
                hid.append(sig(z + net.w1[9, u]))
            for sq in range(9):
                if x[sq] != 0:
                    assert np.isnan(row[sq])
                    continue
                y = 0.0
                for u in range(net.h):
                    y += net.w2[u, sq] * hid[u]
                assert row[sq] == sig(y + net.w2[-1, sq]), (r, c, sq)


@pytest.mark.parametrize("scale", [0.5, 5.0, 60.0, 1e3, 1e306])
def test_moves_are_the_argmax_of_every_output(scale):
    """The move kernel passes only outputs that could tie through the sigmoid; its moves are those of all outputs."""
    pop = init_population(50, rng(26), init_scale=scale)
    _, w1, w2 = pop.arrays
    if scale == 60.0:  # outputs of equal sums: exact ties, broken low
        w2 = w2.copy()
        w2[:, :, 5] = w2[:, :, 2]
    batch = NetBatch(w1, w2)
    codes = np.flatnonzero((board.OUTCOME == board.ONGOING) & board.REACHABLE)
    g = rng(27)
    r = g.integers(0, 50, 20_000)
    c = g.choice(codes, 20_000)
    with np.errstate(invalid="ignore"):
        y = np.where(np.isnan(batch.outputs(r, c)), -np.inf, batch.outputs(r, c))
    assert np.array_equal(batch.moves(r, c), np.argmax(y, axis=1))


def test_a_memo_carried_from_generation_to_generation_changes_no_game():
    from evoplay.recipes.fogel import kernels

    cfg = config.override(config.load("configs/quick.toml"), generations=30)
    carried = TrialRun(evolve.FogelRecipe(cfg), 2)
    carried.run(30)
    fresh_recipe = evolve.FogelRecipe(cfg)
    fresh_recipe.toolbox.register("evaluate", lambda job: operators.eval_chunk(job[:5]))  # no memo
    fresh = TrialRun(fresh_recipe, 2)
    fresh.run(30)
    assert list(carried.logbook) == list(fresh.logbook)
    memo_codes = carried.trial.state.parents.memo[0]
    assert (memo_codes >= 0).sum(1).max() > 0 and memo_codes.shape[1] == kernels.MEMO_SLOTS


def test_evaluation_chunks_change_nothing():
    cfg = config.override(config.load("configs/quick.toml"), generations=25)
    one = TrialRun(evolve.FogelRecipe(cfg), 1).run(25)
    three = TrialRun(evolve.FogelRecipe(cfg), 1, chunks=3).run(25)
    assert list(one.logbook) == list(three.logbook)
    assert [n.ident for n in one.trial.state.parents] == [n.ident for n in three.trial.state.parents]


def test_opponent_mix_splits_games_by_weight():
    players, per_game = operators.opponent_games([{"player": "logic", "weight": 3}, {"player": "minimax", "weight": 1}], 32)
    assert np.bincount(per_game).tolist() == [24, 8]
    _, per_game = operators.opponent_games([{"player": "random", "weight": 1}] * 3, 32)
    assert np.bincount(per_game).tolist() == [11, 11, 10]
    # Nobody beats minimax: against an even mix with it, at most half the games are won.
    pool = init_population(30, rng(15))
    u = rng(16).random((30, 32, 9))
    mix = [{"player": "random", "weight": 1}, {"player": "minimax", "weight": 1}]
    _, wld = operators.eval_networks(pool, u, mix)
    assert wld.sum(1).tolist() == [32] * 30
    assert (wld[:, 0] <= 16).all()
    _, wld_random = operators.eval_networks(pool, u, "random")
    assert wld_random[:, 0].sum() > wld[:, 0].sum()


def test_a_chunk_draws_exactly_its_rows_of_the_generation_block():
    block = stream(3, 1, 7, EVALUATE).random((50, 32, 9))
    for a, b in ((0, 50), (0, 1), (13, 29), (49, 50)):
        assert np.array_equal(operators.game_uniforms((3, 1, 7), a, b, 32), block[a:b])


def test_big_populations_sort_instead_of_a_scratch_array_and_play_the_same(monkeypatch):
    """parents = 10000 once cost 3.6 GiB per worker (a networks x 3^9 scratch array)."""
    from evoplay.recipes.fogel import nets

    pool = init_population(60, rng(21))
    u = rng(22).random((60, 32, 9))
    payoffs, wld = operators.eval_networks(pool, u, "logic")
    monkeypatch.setattr(nets, "SCRATCH_LIMIT", 0)
    payoffs_sorted, wld_sorted = operators.eval_networks(pool, u, "logic")
    assert np.array_equal(payoffs, payoffs_sorted) and np.array_equal(wld, wld_sorted)
    keys = rng(23).integers(0, 50, 400)
    first, inverse = nets.distinct(keys, 50)
    assert np.array_equal(keys[first][inverse], keys) and len(first) == len(np.unique(keys))


@pytest.mark.parametrize("opponent", ["logic:eps=0.1", [{"player": "logic", "weight": 3}, {"player": "random", "weight": 1}]])
def test_compiled_games_against_a_table_player_are_the_batched_engine_games(opponent):
    from evoplay.tictactoe import engine

    pool = init_population(40, rng(24))
    pool += [FogelNet(n.h, 200 * n.w1, 200 * n.w2) for n in pool[:10]]  # large weights: many exact ties broken low
    n, games = len(pool), 32
    u = rng(25).random((n * games, 9))
    o_player, per_game = operators.opponent_player(json.dumps(opponent), games)
    o_rows = None if per_game is None else np.tile(per_game, n)
    x_rows = np.repeat(np.arange(n), games)
    batch = NetBatch(np.stack([p.w1 for p in pool]), np.stack([p.w2 for p in pool]))
    expected = engine.play(batch, o_player, u, x_rows=x_rows, o_rows=o_rows)
    o_base = np.zeros(n * games, dtype=np.int64) if o_rows is None else o_rows * board.N_CODES
    compiled = batch.play_vs_table(x_rows, u, o_player.keep, o_player.alias, o_base)
    assert np.array_equal(compiled, expected)
    assert len(np.unique(expected)) == 3  # wins, losses and draws all occur


def test_a_plain_list_of_networks_evaluates_like_a_population():
    """Memos travel with a Population; a plain list (say, from user code) plays the same games without them."""
    from evoplay.framework.recipe import Context
    from evoplay.framework.streams import Streams

    r = evolve.FogelRecipe(config.load("configs/quick.toml"))
    pop = init_population(10, rng(28))
    ctx = Context(Streams(1, 0, 1), map, 0, None)
    as_list = r.evaluate(list(pop), ctx)
    as_population = r.evaluate(pop, ctx)
    assert all(np.array_equal(a, b) for a, b in zip(as_list, as_population))


def test_a_resumed_trial_keeps_its_population_stacked_and_plays_on_identically():
    """A trial read back from its data carried no stacked arrays, so every later generation stacked 100 networks twice."""
    cfg = config.override(config.load("configs/quick.toml"), generations=12)
    straight = TrialRun(evolve.FogelRecipe(cfg), 3).run(12)
    half = TrialRun(evolve.FogelRecipe(cfg), 3).run(6).to_data()
    resumed = TrialRun(evolve.FogelRecipe(cfg), 3, json.loads(json.dumps(half)))
    parents = resumed.trial.state.parents
    h, w1, w2 = parents.arrays
    assert h.tolist() == [n.h for n in parents]
    assert all(n.w1.base is w1 and n.w2.base is w2 for n in parents)  # rows of the stacked arrays, not copies
    resumed.run(12)
    assert resumed.trial.state.parents.arrays is not None
    assert list(resumed.logbook) == list(straight.logbook)
    assert resumed.to_data() == straight.to_data()
