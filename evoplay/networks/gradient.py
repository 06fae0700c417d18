"""The gradient of an evaluation network's output with respect to its genome: what a
gradient method (TDLeaf(lambda)) needs to train the very networks evolution evolves.

The network is ``evoplay.networks.evalnet``'s (1999 dense or 2001 spatial first layer,
tanh everywhere, a piece-difference input straight to the output, kings entering as
+-K); K is held fixed. The forward pass here sums in floating point in the kernels'
order (each unit's bias, then its inputs in order) with evoplay's own ``tanh``, and the
backward pass runs in a fixed order too, in one compiled loop nest with no BLAS and no
fast-math: a gradient is the same bits on every CPU, so updates summed in a fixed order
are the same on 1 or N workers. Its value equals the search's (``network_value``) to
within rounding: the search sums an exact network's first layer on integer grids.
"""

from __future__ import annotations

import numba
import numpy as np

from evoplay.networks.arithmetic import JIT, tanh
from evoplay.networks.evalnet import as_codes, n_weights, topology
from evoplay.networks.kernels import _input_value  # a board's value as the network reads it: men +-1, kings +-K


@numba.njit(**JIT)
def _value_gradient(codes, genome, king, first, first_bias, rest, pos, acts, deltas, grad):
    """The network's output for ``codes`` (side to move's view), and its gradient added to
    ``grad`` (zeroed by the caller). ``acts[l, :]``: layer l's outputs; ``deltas`` scratch."""
    units, inputs = first.shape
    pd = 0.0
    for i in range(inputs):
        pd += _input_value(codes[i], king)
    for j in range(units):
        s = genome[first_bias[j]]
        for i in range(inputs):
            g = first[j, i]
            if codes[i] != 0 and g >= 0:
                s += _input_value(codes[i], king) * genome[g]
        acts[0, j] = tanh(s)
    layers = len(rest) - 1
    starts = np.empty(layers, dtype=np.int64)  # genome index of each dense layer's first weight
    at = pos
    for layer in range(layers):
        starts[layer] = at
        fan_in, fan_out = rest[layer], rest[layer + 1]
        if layer < layers - 1:
            for o in range(fan_out):
                s = genome[at + fan_in * fan_out + o]
                for i in range(fan_in):
                    s += acts[layer, i] * genome[at + o * fan_in + i]
                acts[layer + 1, o] = tanh(s)
        at += fan_in * fan_out + fan_out
    pd_index = at
    last = layers - 1
    fan_in = rest[last]
    s = genome[starts[last] + fan_in]
    for i in range(fan_in):
        s += acts[last, i] * genome[starts[last] + i]
    s += pd * genome[pd_index]
    out = tanh(s)
    # backward: d out / d s, then layer by layer down to the first
    d = 1.0 - out * out
    grad[pd_index] += d * pd
    grad[starts[last] + fan_in] += d
    for i in range(fan_in):
        grad[starts[last] + i] += d * acts[last, i]
        deltas[last, i] = d * genome[starts[last] + i]
    for layer in range(last - 1, -1, -1):
        fan_in, fan_out = rest[layer], rest[layer + 1]
        at = starts[layer]
        for i in range(fan_in):
            deltas[layer, i] = 0.0
        for o in range(fan_out):
            a = acts[layer + 1, o]
            pre = deltas[layer + 1, o] * (1.0 - a * a)
            grad[at + fan_in * fan_out + o] += pre
            for i in range(fan_in):
                grad[at + o * fan_in + i] += pre * acts[layer, i]
                deltas[layer, i] += pre * genome[at + o * fan_in + i]
    for j in range(units):
        a = acts[0, j]
        pre = deltas[0, j] * (1.0 - a * a)
        grad[first_bias[j]] += pre
        for i in range(inputs):
            g = first[j, i]
            if codes[i] != 0 and g >= 0:
                grad[g] += pre * _input_value(codes[i], king)
    return out


def value_and_gradient(view, genome, sizes, king: float) -> tuple[float, np.ndarray]:
    """(output in [-1, 1], d output / d genome) of the network of ``sizes`` for one view (the
    side to move's, as ``Game.views`` gives it), K = ``king`` held fixed."""
    genome = np.ascontiguousarray(genome, dtype=np.float64)
    sizes = tuple(int(s) for s in sizes)
    if len(genome) != n_weights(sizes):
        raise ValueError(f"a network of sizes {sizes} has {n_weights(sizes)} weights, got {len(genome)}")
    first, first_bias, rest, pos = topology(sizes)
    codes = as_codes(np.asarray(view).reshape(1, -1))[0]
    width = int(max(rest))
    acts, deltas = np.zeros((len(rest), width)), np.zeros((len(rest), width))
    grad = np.zeros(len(genome))
    out = _value_gradient(codes, genome, float(king), first, first_bias, rest, pos, acts, deltas, grad)
    return float(out), grad
