"""Small multilayer perceptrons in numpy: layers, losses, backpropagation, optimizers.

Enough for the gradient-trained players (no deep-learning framework): dense layers, tanh
and ReLU activations, mean squared error and softmax cross-entropy, plain SGD and RMSprop.
Layers hold no state: ``forward(params, x)`` returns the output and a cache that
``backward(params, cache, dy)`` turns into the input gradient and the parameter gradients,
so every piece can be checked against finite differences. Randomness comes from an
explicit ``numpy.random.Generator``. Products and activations go through
``evoplay.networks.arithmetic`` (fixed-order loops, a fixed ``exp``), never a BLAS kernel, so a
trained network's weights are the same bits on every CPU.
"""

from __future__ import annotations

import numpy as np

from evoplay.networks.arithmetic import exp_array, log_array, matmul, tanh_array


class Dense:
    """``y = x @ W + b``; ``W`` has shape ``(n_in, n_out)``."""

    def __init__(self, n_in: int, n_out: int):
        self.n_in, self.n_out = int(n_in), int(n_out)

    def init_params(self, rng: np.random.Generator) -> list[np.ndarray]:
        """Glorot-uniform weights, zero bias."""
        limit = np.sqrt(6.0 / (self.n_in + self.n_out))
        return [rng.uniform(-limit, limit, (self.n_in, self.n_out)), np.zeros(self.n_out)]

    def forward(self, params, x):
        W, b = params
        y = matmul(x, W)
        with np.errstate(over="ignore"):  # a sum beyond float range rounds to +-inf, its correct value
            y += b
        return y, x

    def backward(self, params, x, dy):
        W, _ = params
        if x.ndim == 1:
            return matmul(dy, W.T), [np.outer(x, dy), dy]
        return matmul(dy, W.T), [matmul(x.T, dy), dy.sum(0)]

    def __repr__(self):
        return f"Dense({self.n_in}, {self.n_out})"


class Tanh:
    """Bipolar sigmoid, ``y = tanh(x)``."""

    def init_params(self, rng):
        return []

    def forward(self, params, x):
        y = tanh_array(x)
        return y, y

    def backward(self, params, y, dy):
        return dy * (1.0 - y * y), []

    def __repr__(self):
        return "Tanh()"


class ReLU:
    """``y = max(x, 0)``."""

    def init_params(self, rng):
        return []

    def forward(self, params, x):
        positive = x > 0
        return np.where(positive, x, 0.0), positive

    def backward(self, params, positive, dy):
        return np.where(positive, dy, 0.0), []

    def __repr__(self):
        return "ReLU()"


ACTIVATIONS = {"tanh": Tanh, "relu": ReLU}


# ---------------------------------------------------------------- losses


def mse(y: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray]:
    """Half the squared error, summed over outputs and averaged over the batch.

    Returns the loss and its gradient with respect to ``y``; for one sample the gradient
    is ``y - target``, the classic delta rule.
    """
    diff = y - target
    n = len(y) if y.ndim > 1 else 1
    return 0.5 * float(np.sum(diff * diff)) / n, diff / n


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, numerically stable, also at infinite logits (their limit).

    A row whose largest logit is infinite shares its mass equally among the logits equal
    to it (all others get 0), as the softmax does in the limit; a gap between logits
    beyond float range is -inf, whose exponential is 0.
    """
    logits = np.asarray(logits, dtype=np.float64)
    top = logits.max(-1, keepdims=True)
    infinite = np.isinf(top)
    if infinite.any():
        logits = np.where(infinite, np.where(logits == top, 0.0, -np.inf), logits)
        top = np.where(infinite, 0.0, top)
    with np.errstate(over="ignore"):
        z = logits - top
    e = exp_array(z)
    return e / e.sum(-1, keepdims=True)


def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy of softmax(logits) against integer class labels, and its gradient."""
    logits = np.atleast_2d(logits)
    labels = np.atleast_1d(labels)
    n = len(logits)
    z = logits - logits.max(1, keepdims=True)
    log_p = z - log_array(exp_array(z).sum(1, keepdims=True))
    rows = np.arange(n)
    loss = -float(log_p[rows, labels].mean())
    grad = exp_array(log_p)
    grad[rows, labels] -= 1.0
    return loss, grad / n


# ---------------------------------------------------------------- network


class MLP:
    """A stack of layers with its parameters: one flat list ``params`` of arrays."""

    def __init__(self, layers: list, params: list[np.ndarray]):
        self.layers = list(layers)
        self.slices = []
        at = 0
        for layer in self.layers:
            n = 2 if isinstance(layer, Dense) else 0
            self.slices.append(slice(at, at + n))
            at += n
        if at != len(params):
            raise ValueError(f"{len(params)} parameter arrays for layers needing {at}")
        self.params = [np.array(p, dtype=np.float64) for p in params]

    @classmethod
    def build(cls, sizes, hidden: str, output: str | None, rng: np.random.Generator) -> "MLP":
        """Dense layers of the given sizes, ``hidden`` activation between them, then
        ``output`` (an activation name, or None for raw outputs such as logits)."""
        layers = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            layers.append(Dense(a, b))
            act = hidden if i < len(sizes) - 2 else output
            if act is not None:
                layers.append(ACTIVATIONS[act]())
        params = [p for layer in layers for p in layer.init_params(rng)]
        return cls(layers, params)

    def forward(self, x: np.ndarray) -> np.ndarray:
        for layer, s in zip(self.layers, self.slices):
            x, _ = layer.forward(self.params[s], x)
        return x

    def forward_train(self, x: np.ndarray):
        """Output and the caches that ``backward`` needs."""
        caches = []
        for layer, s in zip(self.layers, self.slices):
            x, cache = layer.forward(self.params[s], x)
            caches.append(cache)
        return x, caches

    def backward(self, caches, dy: np.ndarray) -> list[np.ndarray]:
        """Gradients of every parameter array, in the order of ``params``."""
        grads: list = [None] * len(self.params)
        for layer, s, cache in zip(reversed(self.layers), reversed(self.slices), reversed(caches)):
            dy, g = layer.backward(self.params[s], cache, dy)
            grads[s] = g
        return grads

    def loss_and_grads(self, x, target, loss=mse):
        """Loss of the batch and the gradients of every parameter."""
        y, caches = self.forward_train(x)
        value, dy = loss(y, target)
        return value, self.backward(caches, dy)

    def weights(self) -> dict[str, np.ndarray]:
        """Named parameters ``W0, b0, W1, b1, ...`` (for player files)."""
        out = {}
        for k in range(len(self.params) // 2):
            out[f"W{k}"], out[f"b{k}"] = self.params[2 * k], self.params[2 * k + 1]
        return out


# ---------------------------------------------------------------- optimizers


class SGD:
    """Plain stochastic gradient descent, no momentum."""

    def __init__(self, lr: float):
        self.lr = float(lr)

    def step(self, params, grads):
        for p, g in zip(params, grads):
            p -= self.lr * g


class RMSprop:
    """RMSprop: each step divided by a running root mean square of the gradient."""

    def __init__(self, lr: float = 1e-3, rho: float = 0.9, eps: float = 1e-7):
        self.lr, self.rho, self.eps = float(lr), float(rho), float(eps)
        self.mean_sq: list[np.ndarray] | None = None

    def step(self, params, grads):
        if self.mean_sq is None:
            self.mean_sq = [np.zeros_like(p) for p in params]
        for p, g, m in zip(params, grads, self.mean_sq):
            m *= self.rho
            m += (1.0 - self.rho) * g * g
            p -= self.lr * g / (np.sqrt(m) + self.eps)
