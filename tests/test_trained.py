"""Trained baseline players: player files, move choice, training, seeds, the GA's map seam."""

import json
import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from evoplay.tictactoe import board
from evoplay.tictactoe import exact
from evoplay.cli import main
from evoplay.framework import config
from evoplay.errors import PlayerFileError
from evoplay.files.playerfile import load_player, save_player
from evoplay.tictactoe.players import make_player
from evoplay.published.baselines import trainer
from evoplay.tictactoe.trained.common import GreedyPlayer, write
from evoplay.recipes import ga_value_net
from evoplay.tictactoe.trained import outcome_net
from evoplay.tictactoe.trained import value_net

RANDOM = make_player("random")


def score_vs_random(player) -> float:
    """Exact mean of (win - loss) against random over both seats."""
    a, b = exact.outcome(player, RANDOM), exact.outcome(RANDOM, player)
    return (a.x_win - a.o_win + b.o_win - b.x_win) / 2


@pytest.fixture(scope="module")
def small():
    """One small training run of each kind (seeded), shared by the tests below."""
    return {
        "value-net": value_net.train(games=300, seed=1),
        "outcome-net": outcome_net.train(games=200, seed=1, epochs=2),
        "ga-value-net": ga_value_net.train(seed=1, generations=3, population=10, games=20),
    }


# ---------------------------------------------------------------- player files


@pytest.mark.parametrize("kind", ["value-net", "outcome-net", "ga-value-net"])
def test_player_file_round_trip(small, tmp_path, kind):
    trained = small[kind]
    path, plot = write(trained, tmp_path / f"{kind}.json", {"seed": 1, "command": "test"}, trainer(kind).plot)
    assert plot.stat().st_size > 0
    loaded = make_player(str(path))
    assert np.array_equal(loaded.table, trained.player.table)
    assert loaded.deterministic
    assert loaded.provenance["seed"] == 1 and "exact" in loaded.provenance["metrics"]
    # every reachable unfinished board gets exactly one legal move
    rows = loaded.table[board.DECISION_CODES]
    assert np.all(rows.sum(1) == 1) and np.all(rows[~board.LEGAL[board.DECISION_CODES]] == 0)
    assert exact.outcome(loaded, RANDOM) == exact.outcome(trained.player, RANDOM)


def _doc(small, tmp_path, kind="value-net"):
    path, _ = write(small[kind], tmp_path / "p.json", {}, trainer(kind).plot)
    return path, json.loads(path.read_text())


def test_tampered_file_rejected(small, tmp_path):
    path, doc = _doc(small, tmp_path)
    doc["weights"]["W0"][0][0] += 0.5
    path.write_text(json.dumps(doc))
    with pytest.raises(PlayerFileError, match="sha256"):
        load_player(path)


def test_truncated_file_rejected(small, tmp_path):
    path, _ = _doc(small, tmp_path)
    path.write_text(path.read_text()[:200])
    with pytest.raises(PlayerFileError, match="not valid JSON"):
        make_player(str(path))


@pytest.mark.parametrize(
    "kind,edit,message",
    [
        ("value-net", lambda a, w: w.pop("W2"), "'W2' missing"),
        ("value-net", lambda a, w: w.__setitem__("W0", [[1.0] * 18] * 8), "shape"),
        ("value-net", lambda a, w: w["b1"].__setitem__(0, float("nan")), "holds NaN"),  # JSON has no NaN: refused as read
        ("value-net", lambda a, w: w.__setitem__("W9", [1.0]), "unexpected weights"),
        ("value-net", lambda a, w: a.__setitem__("sizes", [9, 18, 2]), "end with 1"),
        ("value-net", lambda a, w: a.__setitem__("sizes", "9-18-1"), "sizes"),
        ("outcome-net", lambda a, w: a.__setitem__("hidden", "tanh"), "'hidden'"),
        ("outcome-net", lambda a, w: w.__setitem__("b4", "abc"), "numbers"),
        ("ga-value-net", lambda a, w: a.__setitem__("hidden", 0), "'hidden'"),
        ("ga-value-net", lambda a, w: a.__setitem__("hidden", 4), "shape"),
    ],
)
def test_corrupt_file_rejected(small, tmp_path, kind, edit, message):
    """Well-formed, correctly signed files whose contents are wrong are still rejected."""
    trained = small[kind]
    arch = json.loads(json.dumps(trained.architecture))
    weights = {k: np.asarray(v).tolist() for k, v in trained.weights.items()}
    edit(arch, weights)
    path = tmp_path / "bad.json"
    doc = {"kind": kind, "architecture": arch, "weights": weights}
    from evoplay.files import playerfile as player_files

    doc = {"format": player_files.FORMAT, "version": player_files.VERSION, **doc, "provenance": {},
           "sha256": player_files._digest(kind, arch, weights)}
    path.write_text(json.dumps(doc))
    with pytest.raises(PlayerFileError, match=message):
        load_player(path)


def test_a_non_finite_weight_is_refused_by_the_builder_too(small):
    """A document that never was JSON text (a player shipped to a worker) still has its weights checked."""
    from evoplay.files.playerfile import build_player

    weights = {k: np.asarray(v).tolist() for k, v in small["value-net"].weights.items()}
    weights["b1"][0] = float("nan")
    with pytest.raises(PlayerFileError, match="non-finite"):
        build_player({"kind": "value-net", "architecture": small["value-net"].architecture, "weights": weights}, "shipped.json")


# ---------------------------------------------------------------- move choice

#: A preference per square: 7 best, then 0, then 4, ...
PREFERENCE = np.array([0.8, 0.1, 0.2, 0.3, 0.7, 0.4, 0.5, 0.9, 0.6])


def _first_preferred(code):
    legal = np.flatnonzero(board.LEGAL[code])
    return int(legal[np.argmax(PREFERENCE[legal])])


BOARDS = ["... / ... / ...", "... / ... / .X.", "X.. / .O. / .X.", "XO. / .O. / XX."]


def _check_prefers(player):
    for text in BOARDS:
        code = board.parse(text)
        assert np.argmax(player.probs([code])[0]) == _first_preferred(code), text


def test_value_net_takes_best_valued_move(tmp_path):
    """A hand-made 9-18-9-3-1 net whose value grows with PREFERENCE at the mover's square."""
    w = {f"W{k}": np.zeros(s) for k, s in enumerate([(9, 18), (18, 9), (9, 3), (3, 1)])}
    w |= {f"b{k}": np.zeros(n) for k, n in enumerate([18, 9, 3, 1])}
    w["W0"][:, 0] = PREFERENCE
    w["W1"][0, 0] = w["W2"][0, 0] = w["W3"][0, 0] = 1.0
    path = save_player(tmp_path / "v.json", "value-net", value_net.architecture(), w, {})
    _check_prefers(make_player(str(path)))


def test_outcome_net_takes_move_most_likely_to_win_for_either_side(tmp_path):
    """Hidden unit 0 sees X's marks, unit 1 O's; logits: X win from unit 0, O win from unit 1."""
    w = {
        "W0": np.stack([PREFERENCE, -PREFERENCE], 1), "b0": np.zeros(2),
        "W1": np.array([[5.0, 0.0, 0.0], [0.0, 0.0, 5.0]]), "b1": np.zeros(3),
    }
    arch = dict(outcome_net.architecture(), sizes=[9, 2, 3])
    player = make_player(str(save_player(tmp_path / "o.json", "outcome-net", arch, w, {})))
    assert board.TO_MOVE[board.parse(BOARDS[1])] == board.O  # the cases cover both seats
    _check_prefers(player)


def test_ga_net_takes_best_valued_move_and_lazy_player_agrees():
    genome = np.zeros(ga_value_net.n_genes(1))
    genome[:9] = PREFERENCE  # W0 column of the single hidden unit
    genome[10] = 1.0  # W1
    net = ga_value_net.net_from_genome(genome, 1)
    _check_prefers(ga_value_net.player_from_net(net))
    lazy = GreedyPlayer("lazy", ga_value_net.score_fn(net))
    codes = board.DECISION_CODES
    assert np.array_equal(lazy.sample(codes, np.zeros(len(codes))), ga_value_net.player_from_net(net).table[codes].argmax(1))


def test_value_net_inputs_seen_by_player_who_just_moved():
    code = board.parse("X.. / .O. / ..X")  # X just moved
    assert value_net.INPUTS[code].tolist() == [1, 0.01, 0.01, 0.01, -1, 0.01, 0.01, 0.01, 1]
    code = board.parse("X.. / .O. / ...")  # O just moved
    assert value_net.INPUTS[code].tolist() == [-1, 0.01, 0.01, 0.01, 1, 0.01, 0.01, 0.01, 0.01]


def test_value_net_targets():
    path = np.array([board.parse("X.. / ... / ..."), board.parse("X.. / .O. / ...")])
    assert value_net.targets(path, board.X_WIN).tolist() == [1, -1]
    assert value_net.targets(path, board.O_WIN).tolist() == [-1, 1]
    assert value_net.targets(path, board.DRAW).tolist() == [0, 0]


def test_random_positions_are_labelled_with_their_game_result():
    codes, labels = outcome_net.random_positions(500, np.random.default_rng(0))
    assert len(codes) == len(labels) and 500 * 5 <= len(codes) <= 500 * 9
    finals = board.OUTCOME[codes] != board.ONGOING
    assert finals.sum() == 500  # one finished board per game
    assert np.array_equal(np.array(outcome_net.CLASSES)[labels[finals]], board.OUTCOME[codes[finals]])


def test_random_positions_come_from_uniform_random_games():
    codes, _ = outcome_net.random_positions(40_000, np.random.default_rng(1))
    ends = board.OUTCOME[codes[board.OUTCOME[codes] != board.ONGOING]]
    shares = [(ends == r).mean() for r in (board.X_WIN, board.O_WIN, board.DRAW)]
    np.testing.assert_allclose(shares, [0.58492, 0.28810, 0.12698], atol=0.01)  # exact values


# ---------------------------------------------------------------- training


def test_value_net_training_improves_over_untrained():
    untrained = value_net.player_from_net(value_net.build_net(np.random.default_rng(np.random.SeedSequence(0).spawn(2)[0])))
    trained = value_net.train(games=3000, seed=0)
    assert score_vs_random(trained.player) > score_vs_random(untrained) + 0.2
    assert len(trained.history["good_per_100"]) == 30


def test_outcome_net_training_improves_over_untrained():
    untrained = outcome_net.player_from_net(outcome_net.build_net(np.random.default_rng(np.random.SeedSequence(0).spawn(4)[2])))
    trained = outcome_net.train(games=300, seed=0, epochs=3)
    assert score_vs_random(trained.player) > score_vs_random(untrained) + 0.2
    assert len(trained.history["val_accuracy"]) == 3
    assert trained.metrics["val_accuracy"] > 0.5  # the majority class (X wins) is ~0.57


def test_ga_fitness_rises():
    trained = ga_value_net.train(seed=0, generations=15, population=20, games=50)
    assert max(trained.history["max"][-5:]) > trained.history["max"][0]
    assert np.mean(trained.history["mean"][-5:]) > trained.history["mean"][0]


@pytest.mark.parametrize(
    "train",
    [
        lambda seed: value_net.train(games=150, seed=seed),
        lambda seed: outcome_net.train(games=100, seed=seed, epochs=1),
        lambda seed: ga_value_net.train(seed=seed, generations=2, population=6, games=10),
    ],
    ids=["value-net", "outcome-net", "ga-value-net"],
)
def test_same_seed_same_result(train):
    a, b, c = train(3), train(3), train(4)
    assert all(np.array_equal(a.weights[k], b.weights[k]) for k in a.weights)
    assert a.history == b.history
    assert not all(np.array_equal(a.weights[k], c.weights[k]) for k in a.weights)


# ---------------------------------------------------------------- GA operators and the map seam


def test_individual_pickles_with_its_fitness():
    ind = ga_value_net.Individual([0.5, -1.0])
    ind.fitness.values = (3.0,)
    back = pickle.loads(pickle.dumps(ind))
    assert back == ind and back.fitness.values == (3.0,) and isinstance(back, ga_value_net.Individual)


def test_operators():
    rng = np.random.default_rng(0)
    a, b = ga_value_net.Individual(range(10)), ga_value_net.Individual(range(10, 20))
    ga_value_net.cx_two_point(a, b, rng)
    assert sorted(a + b) == list(range(20)) and all(x % 10 == i for i, x in enumerate(a))
    assert a != list(range(10))
    c = ga_value_net.Individual([0.0] * 1000)
    ga_value_net.mut_gaussian(c, rng, sigma=0.1, indpb=0.3)
    moved = np.flatnonzero(c)
    assert 200 < len(moved) < 400 and np.max(np.abs(c)) < 0.6
    pop = [ga_value_net.Individual([i]) for i in range(5)]
    for i, ind in enumerate(pop):
        ind.fitness.values = (float(i),)
    assert ga_value_net.sel_tournament(pop, 3, rng, tournsize=50) == [pop[4]] * 3


def test_ga_results_do_not_depend_on_the_map():
    def pooled_map(fn, tasks):
        with ThreadPoolExecutor(3) as pool:
            return list(pool.map(fn, tasks))

    def reversed_chunks(fn, tasks):
        tasks = list(tasks)
        out = {}
        for start in reversed(range(0, len(tasks), 4)):
            for i, t in enumerate(tasks[start : start + 4]):
                out[start + i] = fn(t)
        return [out[i] for i in range(len(tasks))]

    runs = [ga_value_net.train(seed=5, generations=3, population=12, games=30, map_fn=m) for m in (map, pooled_map, reversed_chunks)]
    for other in runs[1:]:
        assert other.history == runs[0].history
        assert all(np.array_equal(other.weights[k], runs[0].weights[k]) for k in other.weights)

    tb = ga_value_net.GAValueNetRecipe(config.resolve({"recipe": "ga-value-net", "ga": {"games": 30}})).toolbox
    pop = [tb.individual(np.random.default_rng(0)) for _ in range(6)]
    tasks = [(list(ind), (5, 0, 2), i) for i, ind in enumerate(pop)]
    assert list(pooled_map(tb.evaluate, tasks)) == list(map(tb.evaluate, tasks))


def test_exact_analysis_of_trained_players(small):
    for trained in small.values():
        p = trained.player
        assert 0 <= exact.minimax_agreement(p) <= 1
        exact.unbeatable(p, as_x=True)
        o = exact.outcome(p, make_player("minimax"))
        assert o.x_win == 0 and o.draw + o.o_win == pytest.approx(1)


# ---------------------------------------------------------------- command line


def run_cli(args) -> int:
    """Exit code of ``evoplay ARGS`` (0 when main returns without exiting)."""
    try:
        main(args)
    except SystemExit as e:
        return e.code
    return 0


def test_cli_train_writes_player_and_plot(tmp_path, capsys):
    out = tmp_path / "ga.json"
    assert run_cli(["train", "ga-value-net", "--generations", "2", "--population", "6", "--games", "10",
                    "--seed", "7", "--out", str(out), "--no-progress"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert out.with_suffix(".png").stat().st_size > 0
    prov = make_player(str(out)).provenance
    assert prov["seed"] == 7 and prov["games"] == 10
    assert prov["command"].startswith("evoplay train ga-value-net --seed 7")
    assert prov["settings"]["population"] == 6 and "exact" in prov["metrics"]


@pytest.mark.parametrize(
    "args",
    [
        ["train", "policy-net"],
        ["train", "value-net", "--games", "0"],
        ["train", "value-net", "--games", "-5"],
        ["train", "value-net", "--seed", "-1"],
        ["train", "value-net", "--epochs", "3"],
        ["train", "ga-value-net", "--opponent", "nobody", "--generations", "1"],
    ],
)
def test_cli_bad_arguments_exit_2(args, capsys, tmp_path):
    assert run_cli(args + ["--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evoplay: error:") and err.count("\n") == 1


@pytest.mark.slow
def test_ga_on_ray_matches_builtin_map():
    """The same run through RayMap on embedded Ray gives bitwise the same result."""
    distributed = pytest.importorskip("evoplay.framework.distributed")
    distributed.init_ray(workers=2)
    try:
        on_ray = ga_value_net.train(seed=5, generations=2, population=8, games=20, map_fn=distributed.RayMap())
    finally:
        distributed.shutdown_ray()
    local = ga_value_net.train(seed=5, generations=2, population=8, games=20)
    assert on_ray.history == local.history
    assert all(np.array_equal(on_ray.weights[k], local.weights[k]) for k in local.weights)
