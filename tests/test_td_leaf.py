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
from evoplay.recipes.td_leaf.learning import Game, Net, leaf_value, traces, train, update


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
    game = Game([0.1, 0.2, 0.4], grads, -1.0, 3)
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
