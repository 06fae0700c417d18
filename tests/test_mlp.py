"""The numpy MLP: every layer and loss against central finite differences; the optimizers."""

import numpy as np
import pytest

from evoplay.tictactoe.mlp import MLP, RMSprop, SGD, Dense, ReLU, Tanh, mse, softmax, softmax_cross_entropy

EPS = 1e-6


def numeric_grad(f, x):
    """Central differences of the scalar ``f()`` with respect to every entry of ``x`` (in place)."""
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"])
    for _ in it:
        i = it.multi_index
        old = x[i]
        x[i] = old + EPS
        up = f()
        x[i] = old - EPS
        down = f()
        x[i] = old
        grad[i] = (up - down) / (2 * EPS)
    return grad


def check_layer(layer, x, rng):
    """Check dx and every parameter gradient of ``sum(w * layer(x))`` for a random ``w``."""
    params = layer.init_params(rng)
    params = [p + rng.normal(0, 0.1, p.shape) for p in params]  # non-zero biases too
    y, cache = layer.forward(params, x)
    w = rng.normal(size=y.shape)

    def f():
        return float(np.sum(w * layer.forward(params, x)[0]))

    dx, grads = layer.backward(params, cache, w)
    np.testing.assert_allclose(dx, numeric_grad(f, x), rtol=1e-5, atol=1e-8)
    assert len(grads) == len(params)
    for p, g in zip(params, grads):
        np.testing.assert_allclose(g, numeric_grad(f, p), rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("batch", [None, 5])
def test_dense_gradients(batch):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4,) if batch is None else (batch, 4))
    check_layer(Dense(4, 3), x, rng)


@pytest.mark.parametrize("batch", [None, 5])
def test_tanh_gradients(batch):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(6,) if batch is None else (batch, 6))
    check_layer(Tanh(), x, rng)


def test_relu_gradients_away_from_the_kink():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 6))
    x[np.abs(x) < 0.01] = 0.5  # the derivative is undefined at 0; stay clear of it
    check_layer(ReLU(), x, rng)


def test_relu_passes_gradient_only_where_positive():
    y, cache = ReLU().forward([], np.array([-1.0, 0.0, 2.0]))
    assert y.tolist() == [0.0, 0.0, 2.0]
    dx, _ = ReLU().backward([], cache, np.ones(3))
    assert dx.tolist() == [0.0, 0.0, 1.0]


def test_mse_gradient():
    rng = np.random.default_rng(4)
    y, t = rng.normal(size=(7, 2)), rng.normal(size=(7, 2))
    _, grad = mse(y, t)
    np.testing.assert_allclose(grad, numeric_grad(lambda: mse(y, t)[0], y), rtol=1e-5, atol=1e-9)


def test_mse_of_one_sample_is_the_delta_rule():
    loss, grad = mse(np.array([0.5]), np.array([1.0]))
    assert loss == pytest.approx(0.125)
    assert grad.tolist() == [-0.5]


def test_softmax_cross_entropy_gradient():
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(6, 3)) * 3
    labels = rng.integers(0, 3, 6)
    _, grad = softmax_cross_entropy(logits, labels)
    numeric = numeric_grad(lambda: softmax_cross_entropy(logits, labels)[0], logits)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-9)


def test_softmax_cross_entropy_values():
    loss, _ = softmax_cross_entropy(np.zeros((2, 3)), np.array([0, 2]))
    assert loss == pytest.approx(np.log(3))
    p = softmax(np.array([[1000.0, 1000.0, -1000.0]]))  # no overflow
    np.testing.assert_allclose(p, [[0.5, 0.5, 0.0]])


@pytest.mark.parametrize(
    "hidden,output,loss,target",
    [
        ("tanh", "tanh", mse, lambda rng: rng.uniform(-1, 1, (4, 2))),
        ("relu", None, softmax_cross_entropy, lambda rng: rng.integers(0, 2, 4)),
    ],
)
def test_whole_network_gradients(hidden, output, loss, target):
    rng = np.random.default_rng(6)
    net = MLP.build([3, 5, 4, 2], hidden, output, rng)
    for p in net.params:
        p += rng.normal(0, 0.1, p.shape)
    x = rng.normal(size=(4, 3))
    t = target(rng)
    _, grads = net.loss_and_grads(x, t, loss)
    for p, g in zip(net.params, grads):
        np.testing.assert_allclose(g, numeric_grad(lambda: loss(net.forward(x), t)[0], p), rtol=1e-4, atol=1e-8)


def test_build_and_weights_layout():
    net = MLP.build([9, 18, 9, 3, 1], "tanh", "tanh", np.random.default_rng(0))
    assert [type(layer).__name__ for layer in net.layers] == ["Dense", "Tanh"] * 4
    shapes = {k: v.shape for k, v in net.weights().items()}
    assert shapes == {"W0": (9, 18), "b0": (18,), "W1": (18, 9), "b1": (9,), "W2": (9, 3), "b2": (3,), "W3": (3, 1), "b3": (1,)}
    assert np.all(np.abs(net.forward(np.ones(9))) < 1)


def test_same_generator_seed_same_network():
    a = MLP.build([9, 4, 1], "tanh", "tanh", np.random.default_rng(7))
    b = MLP.build([9, 4, 1], "tanh", "tanh", np.random.default_rng(7))
    assert all(np.array_equal(p, q) for p, q in zip(a.params, b.params))


def test_sgd_step_is_minus_lr_times_gradient():
    p = [np.array([1.0, 2.0])]
    SGD(0.1).step(p, [np.array([1.0, -1.0])])
    np.testing.assert_allclose(p[0], [0.9, 2.1])


def test_rmsprop_first_step_and_convergence():
    p = [np.array([1.0])]
    opt = RMSprop(lr=0.01, rho=0.9, eps=0.0)
    opt.step(p, [np.array([4.0])])  # mean square 0.1 * 16: step lr / sqrt(0.1)
    np.testing.assert_allclose(p[0], [1.0 - 0.01 / np.sqrt(0.1)])
    for _ in range(2000):  # minimise x**2
        opt.step(p, [2 * p[0]])
    assert abs(p[0][0]) < 0.05


@pytest.mark.parametrize("opt", [SGD(0.5), RMSprop(0.01)])
def test_training_fits_xor(opt):
    rng = np.random.default_rng(8)
    net = MLP.build([2, 8, 1], "tanh", "tanh", rng)
    x = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    t = np.array([[-1], [1], [1], [-1]], dtype=float)
    for _ in range(1500):
        _, grads = net.loss_and_grads(x, t)
        opt.step(net.params, grads)
    assert np.all(np.sign(net.forward(x)) == t)
