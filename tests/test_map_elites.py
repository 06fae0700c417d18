"""MAP-Elites: the archive by hand, descriptors of hand-made networks, the recipe's invariants, same bytes across workers and resume."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from conftest import evoplay_in_own_session
from support.games import HMAX, preference_net

from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config as configs
from evoplay.framework.config import recipe_class
from evoplay.framework.rundir import RunDir, digest
from evoplay.framework.trial import TrialRun
from evoplay.recipes.exact_fitness import exact_weights
from evoplay.recipes.fogel.nets import FitnessMax, FogelNet, init_population, net_player, stack
from evoplay.recipes.map_elites import archive as elite_archive
from evoplay.recipes.map_elites.descriptors import DESCRIPTORS, describe
from evoplay.tictactoe import board as ttt_board

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["opening", "reply_centre", "reply_corner"]


class Ind:
    """A stand-in individual: a name and a DEAP fitness."""

    def __init__(self, name, fitness):
        self.name = name
        self.fitness = FitnessMax()
        self.fitness.values = (fitness,)


def names(archive):
    return {archive.cell(k): [e.name for e in members] for k, members in archive.cells.items() if members}


# ---------------------------------------------------------------- the archive


def test_insertion_fills_empty_cells_replaces_on_better_or_equal_and_keeps_batch_order():
    ar = elite_archive.Archive((3, 2))
    status = ar.insert([Ind("a", 5.0), Ind("b", 3.0), Ind("c", 5.0), Ind("d", -7.0)], [(0, 0), (0, 0), (0, 0), (2, 1)])
    assert status.tolist() == [elite_archive.NEW, elite_archive.REJECTED, elite_archive.EQUAL, elite_archive.NEW]
    assert names(ar) == {(0, 0): ["c"], (2, 1): ["d"]} and ar.occupied() == [0, 5]
    # a better one replaces; in one batch a later better one replaces an earlier new one
    status = ar.insert([Ind("e", 6.0), Ind("f", 1.0), Ind("g", 2.0), Ind("h", -7.5)], [(0, 0), (1, 0), (1, 0), (2, 1)])
    assert status.tolist() == [elite_archive.BETTER, elite_archive.NEW, elite_archive.BETTER, elite_archive.REJECTED]
    assert names(ar) == {(0, 0): ["e"], (1, 0): ["g"], (2, 1): ["d"]}
    best, count = ar.fitness_grid()
    assert best.tolist() == [6.0, 0.0, 2.0, 0.0, 0.0, -7.0] and count.tolist() == [1, 0, 1, 0, 0, 1]
    assert ar.best() == (0, ar.cells[0][0]) and [e.name for e in ar.elites()] == ["e", "g", "d"]


def test_a_cell_of_capacity_three_keeps_its_best_three_best_first_a_newcomer_before_its_equals():
    ar = elite_archive.Archive((2,), capacity=3)
    status = ar.insert([Ind("a", 1.0), Ind("b", 3.0), Ind("c", 2.0), Ind("d", 0.5), Ind("e", 2.0), Ind("f", 1.0), Ind("g", 1.5)], [(0,)] * 7)
    # a, b, c fill the cell; d is below the worst (a); e beats a; f is below the worst (c = 2.0); g too
    assert status.tolist() == [elite_archive.NEW, elite_archive.NEW, elite_archive.NEW, elite_archive.REJECTED, elite_archive.BETTER, elite_archive.REJECTED, elite_archive.REJECTED]
    assert names(ar) == {(0,): ["b", "e", "c"]}
    assert ar.insert([Ind("h", 2.0)], [(0,)]).tolist() == [elite_archive.EQUAL]  # ties the worst: in, before its equals; the old worst leaves
    assert names(ar) == {(0,): ["b", "h", "e"]}
    assert ar.fitness_grid()[1].tolist() == [3, 0]


def test_best_breaks_ties_by_the_lowest_cell_and_parents_come_from_occupied_cells_uniformly_or_by_tournament():
    ar = elite_archive.Archive((2, 2))
    ar.insert([Ind("late", 4.0), Ind("early", 4.0), Ind("low", 1.0)], [(1, 1), (0, 1), (0, 0)])
    assert ar.best()[1].name == "early"
    by_position = ["low", "early", "late"]  # the occupied cells 0, 1, 3 in order
    picks = elite_archive.sel_cells(ar, 3000, np.random.default_rng(3))
    want = np.random.default_rng(3).integers(0, 3, size=(3000, 1))[:, 0]  # one elite per cell: any member draw picks it
    assert [p.name for p in picks] == [by_position[i] for i in want]
    assert np.bincount(want, minlength=3).min() > 900  # each occupied cell about a third of the time; the empty one never
    # a tournament of two cells: the fitter of the two drawn, "early" over "late" on a tie (the lower cell)
    picks = elite_archive.sel_cells(ar, 500, np.random.default_rng(5), tournament=2)
    strength = {"low": 0, "late": 1, "early": 2}
    pairs = np.random.default_rng(5).integers(0, 3, size=(500, 2))
    assert [p.name for p in picks] == [max((by_position[i] for i in row), key=strength.get) for row in pairs]
    assert sum(p.name == "low" for p in picks) == sum((row == 0).all() for row in pairs) > 0


# ---------------------------------------------------------------- descriptors


@pytest.mark.parametrize("order, cats", [
    ([4, 0, 1, 2, 3, 5, 6, 7, 8], [2, 0, 0]),  # centre; as O: corner 0 after the centre, centre after corner 0
    ([1, 8, 0, 2, 3, 4, 5, 6, 7], [1, 1, 1]),  # edge; edge 1 after the centre; adjacent edge 1 after corner 0
    ([8, 5, 0, 1, 2, 3, 4, 6, 7], [0, 0, 4]),  # corner; corner 8 after the centre; opposite corner 8 after corner 0
    ([5, 4, 0, 1, 2, 3, 6, 7, 8], [1, 1, 3]),  # edge; edge 5 after the centre; far edge 5 after corner 0
    ([0, 6, 1, 2, 3, 4, 5, 7, 8], [0, 0, 2]),  # corner; corner 0 after the centre; adjacent corner 6 after corner 0
])
def test_descriptors_of_hand_made_networks(order, cats):
    net = preference_net(order)
    assert describe(net.w1[None], net.w2[None], NAMES).tolist() == [cats]
    assert describe(net.w1[None], net.w2[None], ["opening_square"]).tolist() == [[order[0]]]


def test_descriptors_are_the_categories_of_each_networks_own_moves():
    nets = init_population(60, np.random.default_rng(4), h_range=(1, HMAX))
    _, w1, w2 = stack(nets)
    got = describe(w1, w2, NAMES)
    for net, row in zip(nets, got):
        table = net_player(net).table
        moves = [int(np.argmax(table[DESCRIPTORS[n].board])) for n in NAMES]
        assert row.tolist() == [int(DESCRIPTORS[n].classes[m]) for n, m in zip(NAMES, moves)]
    assert len({tuple(r) for r in got}) > 5  # random networks spread over the grid


# ---------------------------------------------------------------- the recipe


def cfg(**sections):
    raw = {"recipe": "map-elites", "name": "t", "seed": 11, "trials": 1, "generations": 6,
           "population": {"batch": 12, "hidden_min": 3, "hidden_max": 5}}
    raw.update(sections)
    return configs.resolve(raw)


def test_elites_hold_their_exact_fitness_play_their_cell_and_the_budget_is_batch_per_generation():
    c = cfg()
    r = recipe_class("map-elites")(c)
    run = TrialRun(r, 0).run(8)
    st = run.trial.state
    assert st.next_id == 8 * 12  # every generation evaluates exactly one batch: 8 x 12 networks made
    elites = st.archive.elites()
    _, w1, w2 = stack(elites)
    payoffs, _ = exact_weights(w1, w2, c["evaluation"]["opponent"], r.payoff, 32)
    assert [e.fitness.values[0] for e in elites] == payoffs.tolist()
    assert [st.archive.flat([row])[0] for row in describe(w1, w2, NAMES)] == st.archive.occupied()
    maxes = [rec["max"] for rec in run.logbook]
    cover = [rec["coverage"] for rec in run.logbook]
    assert maxes == sorted(maxes) and cover == sorted(cover) and cover[-1] == len(elites)
    last = run.logbook[-1]
    filled = np.flatnonzero(last["cell_count"])
    assert filled.tolist() == st.archive.occupied()
    best = [st.archive.cells[k][0].fitness.values[0] for k in st.archive.occupied()]
    assert np.array(last["cell_best"])[filled] == pytest.approx(best, abs=5e-5) and last["cell_count"][filled[0]] >= 1


DEEP = {"archive": {"descriptors": ["opening"], "capacity": 4, "canonical": True}, "selection": {"tournament": 2}}


@pytest.mark.parametrize("sections", [{}, DEEP], ids=["one-elite-cells", "deep-cells"])
def test_map_elites_resumes_bit_for_bit_and_is_the_same_in_chunks(sections):
    c = cfg(**sections)
    straight = TrialRun(recipe_class("map-elites")(c), 2).run(7)
    half = TrialRun(recipe_class("map-elites")(c), 2).run(3)
    resumed = TrialRun(recipe_class("map-elites")(c), 2, data=json.loads(json.dumps(half.to_data()))).run(7)
    chunked = TrialRun(recipe_class("map-elites")(c), 2, chunks=3).run(7)
    assert straight.to_data() == resumed.to_data() == chunked.to_data()
    # generation 0 (the random networks not yet evaluated) is plain data too
    zero = TrialRun(recipe_class("map-elites")(c), 2)
    again = TrialRun(recipe_class("map-elites")(c), 2, data=json.loads(json.dumps(zero.to_data()))).run(7)
    assert again.to_data() == straight.to_data()


def test_a_tampered_archive_is_refused():
    c = cfg()
    r = recipe_class("map-elites")(c)
    data = json.loads(json.dumps(TrialRun(r, 0).run(4).to_data()["state"]))
    moved = json.loads(json.dumps(data))
    moved["elites"][0]["cell"][0] = (moved["elites"][0]["cell"][0] + 1) % 3
    moved["elites"].sort(key=lambda e: e["cell"])
    with pytest.raises(EvoplayError, match="does not play the behaviour of its cell"):
        r.from_data(moved)
    twice = json.loads(json.dumps(data))
    twice["elites"].insert(1, twice["elites"][0])
    with pytest.raises(EvoplayError, match="more than 1 elites"):
        r.from_data(twice)
    unordered = json.loads(json.dumps(data))
    unordered["elites"].reverse()
    with pytest.raises(EvoplayError, match="not in cell order"):
        r.from_data(unordered)
    outside = json.loads(json.dumps(data))
    outside["elites"][0]["cell"] = [0, 2, 0]
    with pytest.raises(EvoplayError, match="outside the archive's grid"):
        r.from_data(outside)
    assert r.to_data(r.from_data(data)) == data


def test_deep_cells_hold_their_best_elites_best_first():
    r = recipe_class("map-elites")(cfg(**DEEP))
    run = TrialRun(r, 1).run(6)
    cells = run.trial.state.archive.cells
    assert len(cells) == 3 and all(1 <= len(m) <= 4 for m in cells.values()) and max(map(len, cells.values())) == 4
    for members in cells.values():
        fit = [m.fitness.values[0] for m in members]
        assert fit == sorted(fit, reverse=True)
        assert {int(np.argmax(net_player(m).table[0])) for m in members} <= {0, 1, 4}  # canonical openings only
    data = json.loads(json.dumps(r.to_data(run.trial.state)))
    e = data["elites"]
    i = next(i for i in range(len(e) - 1) if e[i]["cell"] == e[i + 1]["cell"] and e[i]["net"]["fitness"] > e[i + 1]["net"]["fitness"])
    e[i], e[i + 1] = e[i + 1], e[i]
    with pytest.raises(EvoplayError, match="not best first"):
        r.from_data(data)


def test_config_errors_name_the_key():
    with pytest.raises(ConfigError, match="archive.descriptors"):
        cfg(archive={"descriptors": ["opening", "mood"]})
    with pytest.raises(ConfigError, match="archive.descriptors"):
        cfg(archive={"descriptors": ["opening", "opening"]})
    with pytest.raises(ConfigError, match="population.batch"):
        cfg(population={"batch": 0})


# ---------------------------------------------------------------- on Ray, through the CLI


# The CLI in this process, each run in a Ray session of its own sized by its --workers.
evoplay_cli = evoplay_in_own_session


FILES = ("summary.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv", "trials/trial_01/champion.json",
         "checkpoints/trial_00.json", "checkpoints/trial_01.json")


@pytest.fixture(scope="module")
def me_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("me")
    toml = tmp / "me.toml"
    toml.write_text('recipe = "map-elites"\nname = "me"\nseed = 3\ntrials = 2\ngenerations = 6\n'
                    "[population]\nbatch = 10\nhidden_min = 2\nhidden_max = 4\n[run]\ncheckpoint_every = 3\n")
    evoplay_cli("evolve", toml, "--out", tmp / "one", "--workers", "1", "--quiet")
    (tmp / "chunked.toml").write_text(toml.read_text().replace("checkpoint_every = 3", "checkpoint_every = 3\neval_chunks = 2"))
    evoplay_cli("evolve", tmp / "chunked.toml", "--out", tmp / "two", "--workers", "2", "--quiet")
    return tmp


def test_map_elites_run_is_identical_with_one_and_two_workers_and_in_chunks(me_runs):
    for f in FILES[:4]:
        assert (me_runs / "one" / f).read_bytes() == (me_runs / "two" / f).read_bytes(), f
    for f in FILES[4:]:  # the checkpoints name their configs (eval_chunks differs): the rest is the same
        one, two = (json.loads((me_runs / run / f).read_text()) for run in ("one", "two"))
        assert one.pop("config_sha256") != two.pop("config_sha256")
        one.pop("sha256"), two.pop("sha256")
        assert one == two, f


def test_map_elites_run_resumed_from_mid_run_checkpoints_is_identical(me_runs):
    cut = me_runs / "cut"
    shutil.copytree(me_runs / "one", cut)
    rd = RunDir(cut)
    stored = configs.load(rd.config)
    recipe = recipe_class("map-elites")(stored)
    for t in (0, 1):
        rd.write_checkpoint(TrialRun(recipe, t).run(3 + t).to_data(), digest(stored))
    for f in ("summary.json", "trials/trial_00/champion.json", "trials/trial_01/champion.json"):
        (cut / f).unlink()
    evoplay_cli("evolve", "--out", cut, "--resume", "--workers", "2", "--quiet", cut / "config.toml")
    for f in FILES:
        assert (me_runs / "one" / f).read_bytes() == (cut / f).read_bytes(), f


def test_report_lists_every_cells_elite_with_its_exact_analysis(me_runs, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(me_runs / "one", run)
    out = evoplay_cli("report", run).stdout
    assert f"archive: {run / 'archive.md'}" in out and "opening corner:" in out
    summary = json.loads((run / "summary.json").read_text())
    rows = json.loads((run / "archive.json").read_text())["elites"]
    for t in (0, 1):
        mine = [r for r in rows if r["trial"] == t]
        assert len(mine) == summary["per_trial"][t]["coverage"]
        champ = [r for r in mine if r["champion"]]
        assert len(champ) == 1 and champ[0]["cell_labels"] == summary["per_trial"][t]["champion_cell"]
        assert champ[0]["expected_payoff_32_vs_logic"] == pytest.approx(32 * summary["per_trial"][t]["champion_expected_payoff_per_game"], abs=1e-9)
    for r in rows:  # the fitness is the exact payoff per 32 games against logic, as the analysis finds it
        assert r["fitness"] == pytest.approx(r["expected_payoff_32_vs_logic"], abs=1e-9)
    assert len((run / "archive.md").read_text().splitlines()) == 6 + len(rows)
    shutil.rmtree(run / "checkpoints")  # as committed: the report keeps the archive table it wrote
    table = (run / "archive.md").read_bytes()
    out = evoplay_cli("report", run).stdout
    assert "kept as written" in out and (run / "archive.md").read_bytes() == table


def test_the_archive_is_drawn_beside_the_curve_at_the_end_of_a_run_and_by_plot(me_runs, tmp_path):
    assert (me_runs / "one" / "curve-archive.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (me_runs / "one" / "curve-archive.svg").read_bytes() == (me_runs / "two" / "curve-archive.svg").read_bytes()
    out = evoplay_cli("plot", me_runs / "one", "--out", tmp_path / "c.png").stdout.split()
    assert out == [str(tmp_path / "c.png"), str(tmp_path / "c-archive.png")]
    assert (tmp_path / "c-archive.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_diversity_config_spends_the_exact_evaluations_of_the_30_unit_exact_run():
    me, sa = configs.load(ROOT / "configs/diversity.toml"), configs.load(ROOT / "configs/fogel-exact-sa-h30.toml")
    assert me[""]["generations"] * me["population"]["batch"] == sa[""]["generations"] * 2 * sa["population"]["parents"] == 150_000
    for key in ("hidden_min", "hidden_max", "init_scale"):
        assert me["population"][key] == sa["population"][key]
    assert me["evaluation"] == {k: v for k, v in sa["evaluation"].items() if k != "mode"} and sa["evaluation"]["mode"] == "exact"
    assert {k: me["mutation"][k] for k in ("sigma_init", "sigma_new", "tau", "sigma_min")} == {k: sa["mutation"][k] for k in ("sigma_init", "sigma_new", "tau", "sigma_min")}


# ---------------------------------------------------------------- symmetry


def test_the_eight_symmetries_are_distinct_and_map_lines_to_lines():
    from evoplay.recipes.map_elites.symmetry import SYMMETRIES, TO_CANONICAL

    assert len({tuple(g) for g in SYMMETRIES}) == 8 and SYMMETRIES[0].tolist() == list(range(9))
    lines = {frozenset(line) for line in ttt_board.LINES.tolist()}
    for g in SYMMETRIES:
        assert {frozenset(g[list(line)].tolist()) for line in lines} == lines
    assert [int(SYMMETRIES[TO_CANONICAL[s], s]) for s in range(9)] == [0, 1, 0, 1, 4, 1, 0, 1, 0]


def test_a_permuted_network_plays_the_image_of_every_move_and_canonical_networks_keep_their_exact_fitness():
    from evoplay.recipes.map_elites.symmetry import SYMMETRIES, board_image, canonical, permute
    from evoplay.recipes.selfadaptive import init_sa_population
    from evoplay.tictactoe import exact
    from evoplay.tictactoe.players import make_player

    nets = list(init_sa_population(12, np.random.default_rng(8), h_range=(2, 4)))
    codes = ttt_board.DECISION_CODES
    for net, g in zip(nets[:4], SYMMETRIES[[1, 2, 5, 6]]):
        moves = np.argmax(net_player(net).table, axis=1)
        w1, w2 = permute(net.w1, net.w2, g)
        image = np.argmax(net_player(FogelNet(net.h, w1, w2)).table, axis=1)
        assert all(image[board_image(c, g)] == g[moves[c]] for c in codes)
    logic = make_player("logic")
    for net, twin in zip(nets, canonical(nets)):
        assert int(np.argmax(net_player(twin).table[0])) in (0, 1, 4)
        assert exact.expected_payoff(net_player(twin), logic) == pytest.approx(exact.expected_payoff(net_player(net), logic), abs=1e-12)
        g = SYMMETRIES[:, :][[k for k in range(8) if np.array_equal(permute(net.w1, net.w2, SYMMETRIES[k])[0], twin.w1)][0]]
        assert np.array_equal(permute(net.s1, net.s2, g)[0], twin.s1) and np.array_equal(permute(net.s1, net.s2, g)[1], twin.s2)
