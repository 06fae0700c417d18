"""TDLeaf(lambda)'s parts: the evaluation network's gradient (against finite differences and
the search's own value), the traces (by hand), the update (its formula), the signs of a
principal variation's leaf, updates that do not depend on how a batch is split, and
learning measured by tic-tac-toe's exact analysis, never by the training's own numbers."""

import numpy as np
import pytest

from evoplay.arena.game import play_out
from evoplay.games import resolve_game
from evoplay.networks.evalnet import SPATIAL_SIZES, forward, n_weights
from evoplay.networks.gradient import value_and_gradient
from evoplay.recipes.td_leaf.learning import Net, PlayedGame, leaf_value, traces, train, update


@pytest.mark.parametrize("sizes", [(32, 40, 10, 1), SPATIAL_SIZES, (32, 5, 1)])
def test_the_gradient_is_the_networks_own_by_finite_differences(sizes):
    game = resolve_game("checkers")
    rng = np.random.default_rng(1)
    views = game.views(play_out(game, game.initial(), rng)[::9])
    genome = rng.normal(0, 0.2, n_weights(sizes))
    values = [value_and_gradient(v, genome, sizes, 1.7)[0] for v in views]
    assert np.max(np.abs(np.array(values) - forward(views, genome, sizes, 1.7))) < 1e-12  # the search's value
    view = views[len(views) // 2]
    _, grad = value_and_gradient(view, genome, sizes, 1.7)
    for k in [*rng.choice(len(genome), 30, replace=False), len(genome) - 1]:  # the piece-difference weight last
        up, down = genome.copy(), genome.copy()
        up[k] += 1e-6
        down[k] -= 1e-6
        numeric = (value_and_gradient(view, up, sizes, 1.7)[0] - value_and_gradient(view, down, sizes, 1.7)[0]) / 2e-6
        assert abs(numeric - grad[k]) < 1e-8, k


def test_traces_sum_the_differences_ahead_by_hand():
    # d = (0.2 - 0.1, 0.4 - 0.2, 1 - 0.4); e2 = 0.6, e1 = 0.2 + 0.5 * 0.6, e0 = 0.1 + 0.5 * 0.5
    assert traces([0.1, 0.2, 0.4], 1.0, 0.5) == pytest.approx([0.35, 0.5, 0.6], abs=1e-15)
    assert traces([0.1, 0.2, 0.4], 1.0, 0.0) == pytest.approx([0.1, 0.2, 0.6], abs=1e-15)  # TD(0): one step ahead
    assert traces([0.1, 0.2, 0.4], 1.0, 1.0) == pytest.approx([0.9, 0.8, 0.6], abs=1e-15)  # TD(1): the result's error


def test_an_update_is_each_positions_gradient_times_its_trace():
    grads = [np.array([1.0, 0.0]), None, np.array([0.5, 2.0])]  # the middle leaf ended the game: no gradient
    game = PlayedGame([0.1, 0.2, 0.4], grads, -1.0, 3)
    e = traces(game.values, game.result, 0.7)
    assert np.array_equal(update(game, 0.7, 2), e[0] * grads[0] + e[2] * grads[2])


def test_a_leaf_is_valued_from_the_first_sides_view():
    game = resolve_game("tictactoe")
    sizes = (9, 4, 1)
    net = Net(np.random.default_rng(2).normal(0, 0.5, n_weights(sizes)), sizes, 1.0)
    s = game.initial()
    for move in (0, 3, 1, 4):  # X X . / O O . / . . . with X to move
        s = game.apply(s, move)
    won = game.apply(s, 2)
    assert leaf_value(game, net, won) == (1.0, None)  # X won: +1 for the side that moved first
    o_to_move = game.apply(s, 8)
    value, grad = leaf_value(game, net, o_to_move)
    own, own_grad = value_and_gradient(game.views([o_to_move])[0], net.genome, sizes, 1.0)
    assert value == -own and np.array_equal(grad, -own_grad)


def test_the_update_does_not_depend_on_how_a_batch_is_split_or_arrives():
    game = resolve_game("tictactoe")
    sizes = (9, 6, 1)
    net = Net(np.random.default_rng(3).normal(0, 0.3, n_weights(sizes)), sizes, 1.0)
    one = train(game, net, 12, 2, 0.05, 0.7, seed=5, batch=6, explore=0.1)
    backwards = lambda fn, items: list(reversed(list(map(fn, reversed(list(items))))))  # pieces played in another order
    three = train(game, net, 12, 2, 0.05, 0.7, seed=5, batch=6, explore=0.1, map=backwards, chunks=3)
    assert np.array_equal(one.genome, three.genome) and not np.array_equal(one.genome, net.genome)


def test_self_play_learns_to_beat_random_by_tic_tac_toes_exact_analysis():
    """200 games of TDLeaf(0.7) at depth 2 from a random network: its exact expected score against
    random, as first plus as second player (at most 2), rises from 0.68 to 1.44 (measured)."""
    from evoplay.recipes.blondie24.yardstick import ttt_player
    from evoplay.tictactoe import exact
    from evoplay.tictactoe.players import make_player

    game, sizes, rnd = resolve_game("tictactoe"), (9, 12, 1), make_player("random")
    net = Net(np.random.default_rng(0).normal(0, 0.2, n_weights(sizes)), sizes, 1.0)

    def both_seats(n: Net) -> float:
        player = ttt_player(n.genome, n.sizes, n.king, 1)
        first, second = exact.outcome(player, rnd), exact.outcome(rnd, player)
        return first.x_win - first.o_win + second.o_win - second.x_win

    before = both_seats(net)
    after = both_seats(train(game, net, 200, 2, 0.02, 0.7, seed=0, batch=10, random_plies=1, explore=0.1))
    assert round(before, 2) == 0.68 and after > 1.3


def test_games_fanned_out_on_ray_workers_give_the_same_bytes(ray_here):
    """Synchronous updates: a batch's games played as Ray tasks, in two chunks, move the weights
    exactly as when played here one after another."""
    from evoplay.framework.distributed import RayMap

    game = resolve_game("tictactoe")
    sizes = (9, 6, 1)
    net = Net(np.random.default_rng(4).normal(0, 0.3, n_weights(sizes)), sizes, 1.0)
    here = train(game, net, 16, 2, 0.05, 0.7, seed=9, batch=8, explore=0.1)
    on_ray = train(game, net, 16, 2, 0.05, 0.7, seed=9, batch=8, explore=0.1, map=RayMap(), chunks=2)
    assert np.array_equal(here.genome, on_ray.genome)


# ---------------------------------------------------------------- the recipe, through the runner

import json  # noqa: E402
import urllib.parse  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from stopping import STOPPER  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EVOPLAY = str(Path(sys.executable).with_name("evoplay"))
ENV = {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_USAGE_STATS_ENABLED": "0"}
TINY_TTT = ('recipe = "td-leaf"\nname = "td-tiny"\nseed = 7\ntrials = 2\ngenerations = 3\n\n[run]\ncheckpoint_every = 1\n'
            'eval_chunks = 2\n\n[game]\nname = "tictactoe"\ndepth = 2\n\n[network]\nhidden = [6]\nking = 1.0\n\n'
            '[training]\ngames = 6\nalpha = 0.05\nexplore = 0.1\n')


def evoplay(*argv, cwd=ROOT):
    done = subprocess.run([EVOPLAY, *map(str, argv)], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_a_td_leaf_run_is_the_same_bytes_on_one_worker_and_on_two_across_a_stop_and_resume(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text(TINY_TTT)
    evoplay("evolve", toml, "--out", tmp_path / "one", "--workers", "1", "--quiet")
    stopped = tmp_path / "stopped"
    run = subprocess.run([sys.executable, "-c", STOPPER, toml, stopped, "2"], capture_output=True, text=True, cwd=ROOT,
                         env=ENV, timeout=300)
    assert run.stdout.strip() == "stopped", run.stderr[-3000:]
    assert {json.loads(p.read_text())["generation"] for p in (stopped / "checkpoints").glob("*.json")} == {1}
    evoplay("evolve", toml, "--out", stopped, "--resume", "--workers", "2", "--quiet")
    for f in ("summary.json", "champion.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv",
              "checkpoints/trial_00.json", "checkpoints/trial_01.json"):
        assert (tmp_path / "one" / f).read_bytes() == (stopped / f).read_bytes(), f
    # the champion is a Blondie24 network file: match, analyze and report take it as they take an evolved one
    champion = json.loads((tmp_path / "one" / "champion.json").read_text())
    assert champion["kind"] == "blondie24-tictactoe" and champion["provenance"]["method"] == "td-leaf"
    assert json.loads(evoplay("analyze", tmp_path / "one", "--json").stdout)["player"] == str(tmp_path / "one")
    assert "expected payoff per 32 games vs logic" in evoplay("report", tmp_path / "one").stdout
    rows = (tmp_path / "one" / "trials" / "trial_00" / "logbook.csv").read_text().splitlines()
    assert rows[0].startswith("gen,max,mean,min,step_size,yard_logic32") and len(rows) == 4


def test_td_leaf_trains_networks_of_checkers_and_of_an_openspiel_game(tmp_path):
    """The trainer is general: checkers' 1999 network judged against piece difference over ballots,
    and an OpenSpiel game's judged against random and mcts."""
    pytest.importorskip("pyspiel")
    for game, network, judged in (("checkers", "hidden = [4]", "yard_score"),
                                  ("openspiel:tic_tac_toe", "hidden = [4]", "yard_random_score")):
        (tmp_path / "g.toml").write_text(
            f'recipe = "td-leaf"\nname = "g"\ntrials = 1\ngenerations = 2\n\n[game]\nname = "{game}"\ndepth = 1\n'
            f'max_plies = 40\n\n[network]\n{network}\n\n[training]\ngames = 2\n\n[yardstick]\nopenings = 2\nmcts_sims = 5\n')
        evoplay("evolve", tmp_path / "g.toml", "--out", tmp_path / game.replace(":", "-"), "--workers", "1", "--quiet")
        logbook = (tmp_path / game.replace(":", "-") / "trials" / "trial_00" / "logbook.csv").read_text().splitlines()
        assert judged in logbook[0].split(",") and len(logbook) == 3
    # judged as an evolved checkers network is: its champion against piece difference at a depth, over the ballots
    evoplay("report", tmp_path / "checkers", "--depths", "1", "--workers", "1")
    duels = json.loads((tmp_path / "checkers" / "duels.json").read_text())
    [trial] = duels["trials"]
    assert duels["games"] == 4 and sum(trial["duels"][0][k] for k in ("win", "draw", "loss")) == 4


@pytest.mark.parametrize("sizes", [(32, 40, 10, 1), SPATIAL_SIZES])
def test_checkers_principal_lines_come_from_the_compiled_search_and_equal_the_generic_ones(sizes):
    from evoplay.arena.search import principal_variation
    from evoplay.networks.evalnet import Evaluator
    from evoplay.recipes.td_leaf.learning import principal_line, searched

    game = resolve_game("checkers")
    net = Net(np.random.default_rng(0).normal(0, 0.2, n_weights(sizes)), sizes, 2.0)
    evaluate = Evaluator(net.genome, sizes, 2.0)
    for state in play_out(game, game.initial(), np.random.default_rng(3))[2:40:6]:
        assert principal_line(game, net, state, 3, searched(game, net))[0] == principal_variation(game, state, 3, evaluate)


def test_a_network_is_trained_with_the_king_value_it_plays_with():
    """K scales a view's +-2 only where the game's views hold kings (checkers); elsewhere a 2 enters as
    2, as the champion's player file plays (``net_player``): training with K there trained another network."""
    from evoplay.framework.config import load
    from evoplay.recipes.blondie24.play import NO_KINGS
    from evoplay.recipes.td_leaf.recipe import TDLeafRecipe

    cfg = load(ROOT / "configs" / "td-leaf-ttt.toml")
    assert cfg["network"]["king"] == 1.0 and TDLeafRecipe(cfg).king == NO_KINGS
    assert TDLeafRecipe(load(ROOT / "configs" / "td-leaf-checkers.toml")).king == 2.0


def test_the_sum_weight_starts_where_the_config_says_and_the_other_weights_are_drawn_as_without_it():
    """``network.sum_weight`` sets the starting weight of the views' sum (the last weight) and
    nothing else: the other weights are the same draws; the step size decays as
    ``training.alpha_halflife`` says (half after H generations)."""
    from evoplay.framework.config import load
    from evoplay.framework.recipe import Context
    from evoplay.framework.streams import Streams
    from evoplay.recipes.td_leaf.recipe import TDLeafRecipe

    cfg = load(ROOT / "configs" / "td-leaf-ttt.toml")
    plain = TDLeafRecipe(cfg).start(Context(Streams(5, 0, 0)))["genome"]
    cfg["network"]["sum_weight"] = 0.0
    wired = TDLeafRecipe(cfg).start(Context(Streams(5, 0, 0)))["genome"]
    assert wired[-1] == 0.0 != plain[-1] and wired[:-1].tolist() == plain[:-1].tolist()
    cfg["training"].update(alpha=0.3, alpha_halflife=4)
    recipe = TDLeafRecipe(cfg)
    assert [recipe.alpha(g) for g in (1, 5, 9)] == [0.3, 0.15, pytest.approx(0.1, rel=1e-15)]


@pytest.mark.parametrize("sizes", [(32, 40, 10, 1), SPATIAL_SIZES])
def test_checkers_self_play_with_the_one_call_line_is_the_game_of_the_searches_one_by_one(sizes, monkeypatch):
    """Checkers' principal line comes from one compiled call (``network_line``); self-play games
    are the same, value for value and gradient for gradient, as with the line of one search a depth
    from Python (the loop TDLeaf ran before)."""
    from evoplay.recipes.td_leaf import learning

    def one_by_one(game, net, state, depth, evaluate):
        line = []
        for d in range(depth, 0, -1):
            if game.result(state) is not None:
                break
            move = game.network_search(state, d, evaluate, net.sizes, net.king, False).move
            line.append(move)
            state = game.apply(state, move)
        return line, state

    game = resolve_game("checkers")
    assert game.network_line is not None
    net = Net(np.random.default_rng(6).normal(0, 0.2, n_weights(sizes)), sizes, 2.0)
    runs = [(s, depth, explore) for s, (depth, explore) in enumerate([(4, 0.0), (3, 0.1), (2, 0.3), (4, 0.1)])]
    played = [learning.self_play(game, net, depth, np.random.default_rng(s), 2, explore, 200) for s, depth, explore in runs]
    monkeypatch.setattr(learning, "principal_line", one_by_one)
    for (s, depth, explore), got in zip(runs, played):
        expected = learning.self_play(game, net, depth, np.random.default_rng(s), 2, explore, 200)
        assert (got.values, got.result, got.plies) == (expected.values, expected.result, expected.plies)
        assert len(got.grads) == len(expected.grads) and all(
            (a is None and b is None) or np.array_equal(a, b) for a, b in zip(got.grads, expected.grads))
        assert update(got, 0.7, len(net.genome)).tobytes() == update(expected, 0.7, len(net.genome)).tobytes()


def test_the_committed_ten_generations_of_td_leaf_checkers_reproduce_their_first_two_steps():
    """results/td-leaf-checkers-10 (`evoplay evolve configs/td-leaf-checkers.toml --generations 10`,
    the TD network evolution's third arm plays against): its config is the shipped one cut to 10
    generations, and the first two generations' steps, made again here with the yardstick cut to
    one ballot (training never sees it), are the logbook's to the last bit."""
    from evoplay.framework.config import load, override
    from support.runs import td_leaf_first_steps

    run = ROOT / "results" / "td-leaf-checkers-10"
    assert load(run / "config.toml") == override(load(ROOT / "configs" / "td-leaf-checkers.toml"), generations=10)
    made, committed = td_leaf_first_steps(run)
    assert made == committed and committed[0] > 0


def test_the_committed_connect_four_run_reproduces_its_first_steps():
    """results/td-leaf-connect-four (`evoplay evolve configs/td-leaf-connect-four.toml`): its config
    is the shipped one, and its first two steps, made again with the yardstick cut to one opening,
    are the logbook's to the last bit (the views' sum held at weight 0 from the start)."""
    pytest.importorskip("pyspiel")
    from evoplay.framework.config import load
    from support.runs import td_leaf_first_steps

    run = ROOT / "results" / "td-leaf-connect-four"
    assert load(run / "config.toml") == load(ROOT / "configs" / "td-leaf-connect-four.toml")
    made, committed = td_leaf_first_steps(run)
    assert made == committed and committed[0] > 0
    # held fixed (training.sum_weight_fixed): after 1,000 generations the views' sum still weighs 0
    assert json.loads((run / "champion.json").read_text())["weights"]["genome"][-1] == 0.0


def test_the_committed_td_leaf_runs_are_served_and_their_networks_move_on_their_games_boards():
    """A TDLeaf run is served as any run: the run page names its game and its final network
    (a player file of the evolved champions' kind) makes moves on that game's board."""
    pytest.importorskip("pyspiel")
    from support.web import ok, serving

    root = Path(__file__).resolve().parents[1] / "results"
    c4 = "openspiel:connect_four"
    with serving(["td-leaf-checkers-10", "td-leaf-connect-four"], base=root, games=["checkers", c4]) as url:
        assert [ok(url, f"/api/runs/{i}")["game"] for i in (0, 1)] == ["checkers", c4]
        for i, (game, moves) in enumerate([("checkers", ["11-15"]), (c4, ["x3", "o3"])]):
            spec = ok(url, f"/api/runs/{i}")["champions"][0]["spec"]
            got = ok(url, f"/api/games/{urllib.parse.quote(game, safe='')}/ai-move", {"player": spec, "moves": moves})
            assert got["move"] and got["moves"][:len(moves)] == moves, (game, got)


def test_td_leaf_trains_a_network_of_a_users_game_that_match_then_plays(tmp_path):
    """A user's game from a file (examples/games/hexapawn.py) is trained as OpenSpiel's are,
    judged against random and mcts, and its trained network is a player file `evoplay match`
    takes for that game, named by --game as every run of user code is."""
    ref = f"{ROOT / 'examples' / 'games' / 'hexapawn.py'}:Hexapawn"
    (tmp_path / "h.toml").write_text(
        f'recipe = "td-leaf"\nname = "h"\ntrials = 1\ngenerations = 2\n\n[game]\nname = "{ref}"\ndepth = 2\n'
        'max_plies = 20\n\n[network]\nhidden = [4]\n\n[training]\ngames = 4\n\n[yardstick]\nopenings = 2\nmcts_sims = 5\n')
    evoplay("evolve", tmp_path / "h.toml", "--out", tmp_path / "h", "--workers", "1", "--quiet")
    logbook = (tmp_path / "h" / "trials" / "trial_00" / "logbook.csv").read_text().splitlines()
    assert "yard_random_score" in logbook[0].split(",") and len(logbook) == 3
    champion = json.loads((tmp_path / "h" / "champion.json").read_text())
    assert champion["architecture"]["game"] == ref and champion["provenance"]["method"] == "td-leaf"
    out = evoplay("match", tmp_path / "h", "random", "--game", ref, "--games", "4", "--json")
    [row] = json.loads(out.stdout)["results"][:1]
    assert row["a_win"] + row["draw"] + row["b_win"] == pytest.approx(1.0)
