"""Self-adaptive mutation (evolution-strategy style, as in Chellapilla and Fogel's checkers work).

Every weight and bias carries its own step size. A child first updates the step sizes
log-normally, ``s' = s * exp(tau * N(0, 1))`` with one draw per weight, then moves every
weight by ``s' * N(0, 1)``; ``tau`` defaults to Chellapilla and Fogel's
``1 / sqrt(2 * sqrt(W))`` with ``W`` the network's number of weights and biases. Step
sizes are stored padded exactly like the weights (``s1`` like ``w1``, ``s2`` like ``w2``),
zero on padding, and travel with the architecture changes: a unit added starts with all
weights zero and step sizes ``sigma_new``; a unit deleted takes its step sizes with it
(the last unit moves into its slot, weights and step sizes alike).

``SelfAdaptiveRecipe`` (recipe ``fogel-selfadaptive``) is ``fogel-exact`` with this
mutation (``mutation.self_adaptive = false`` gives Fogel's fixed N(0, sigma^2) back) and
either evaluation (``evaluation.mode``: ``exact`` or Fogel's ``sampled`` games).
"""

from __future__ import annotations

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.framework import config
from evoplay.framework.recipe import Context
from evoplay.framework.streams import INIT
from evoplay.networks.arithmetic import exp_array
from evoplay.recipes.exact_fitness import EXACT_SCHEMA, ExactFogelRecipe
from evoplay.recipes.fogel.nets import FogelNet, Population, _mask_tables, init_population, stack
from evoplay.recipes.fogel.recipe import FogelState, net_from_dict, net_to_dict


class SANet(FogelNet):
    """A network with a step size per weight: ``s1`` and ``s2``, shaped (and padded) like ``w1`` and ``w2``."""

    __slots__ = ("s1", "s2")
    FIELDS = FogelNet.__slots__ + ("s1", "s2")

    def __init__(self, h, w1, w2, s1, s2, ident: int = -1, parent: int = -1):
        super().__init__(h, w1, w2, ident, parent)
        self.s1, self.s2 = s1, s2

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.FIELDS}

    def __deepcopy__(self, memo):
        twin = SANet(self.h, self.w1.copy(), self.w2.copy(), self.s1.copy(), self.s2.copy(), self.ident, self.parent)
        twin.fitness.values = self.fitness.values
        return twin

    def __eq__(self, other):
        return super().__eq__(other) and isinstance(other, SANet) and np.array_equal(self.s1, other.s1) and np.array_equal(self.s2, other.s2)

    __hash__ = None

    def __repr__(self):
        return f"<SANet id={self.ident} H={self.h} fitness={self.fitness.values}>"


def step_sizes(nets):
    """Stacked (s1, s2) of a list of SANets."""
    return np.stack([n.s1 for n in nets]), np.stack([n.s2 for n in nets])


def n_weights(h) -> np.ndarray:
    """Weights and biases of networks with ``h`` hidden units: 10 h + 9 (h + 1)."""
    return 10 * np.asarray(h) + 9 * (np.asarray(h) + 1)


def with_step_sizes(pop, sigma: float) -> Population:
    """SANets from FogelNets: every active weight gets step size ``sigma``, padding 0."""
    h, w1, w2 = stack(pop)
    m1, m2 = _mask_tables(w1.shape[2])
    s1, s2 = sigma * m1[h], sigma * m2[h]
    return Population([SANet(n.h, n.w1, n.w2, s1[i], s2[i], n.ident, n.parent) for i, n in enumerate(pop)], (h, w1, w2))


def init_sa_population(n: int, rng: np.random.Generator, h_range=(1, 10), init_scale=0.5, sigma_init=0.05, ident0=0):
    """Fogel's initial population (same draws), every step size ``sigma_init``."""
    return with_step_sizes(init_population(n, rng, h_range, init_scale, ident0), sigma_init)


def mut_selfadaptive(parents, rng: np.random.Generator, tau=0.0, sigma_new=0.05, sigma_min=1e-6, p_arch=0.5, h_range=(1, 10), ident0=0, step="gauss"):
    """One child per parent: step sizes log-normally, then every weight by its own step size, then maybe +/- one unit.

    ``tau = 0`` means ``1 / sqrt(2 sqrt(W))`` per network (W its weights and biases);
    step sizes never fall below ``sigma_min``. Architecture changes as in Fogel's
    mutation (probability ``p_arch``, add or delete with equal chance, skipped outside
    ``h_range``); a new unit's weights are zero and its step sizes ``sigma_new``.
    ``step = "cauchy"`` moves the weights by ``s' * Cauchy(0, 1)`` instead of
    ``s' * N(0, 1)`` (Yao, Liu and Lin's fast evolutionary programming: rare long jumps).
    Parent ``i`` uses row ``i`` of every draw.
    """
    n = len(parents)
    lo, hi = h_range
    h, w1, w2 = stack(parents)
    s1, s2 = step_sizes(parents)
    m1, m2 = _mask_tables(w1.shape[2])
    t = (1.0 / np.sqrt(2.0 * np.sqrt(n_weights(h)))) if tau == 0 else np.full(n, float(tau))
    s1 = np.maximum(s1 * exp_array(t[:, None, None] * rng.normal(size=s1.shape)), sigma_min) * m1[h]
    s2 = np.maximum(s2 * exp_array(t[:, None, None] * rng.normal(size=s2.shape)), sigma_min) * m2[h]
    draw = rng.normal if step == "gauss" else rng.standard_cauchy
    w1 = w1 + s1 * draw(size=w1.shape)
    w2 = w2 + s2 * draw(size=w2.shape)
    change = rng.random(n) < p_arch
    grow = rng.random(n) < 0.5
    victim = (rng.random(n) * h).astype(np.int64)
    add = np.flatnonzero(change & grow & (h < hi))
    delete = np.flatnonzero(change & ~grow & (h > lo))
    if add.size:  # the first padded slot: weights already zero, step sizes its own
        s1[add, :, h[add]] = sigma_new
        s2[add, h[add]] = sigma_new
    if delete.size:
        last, gone = h[delete] - 1, victim[delete]
        for a in (w1, s1):
            a[delete, :, gone] = a[delete, :, last]
            a[delete, :, last] = 0.0
        for a in (w2, s2):
            a[delete, gone] = a[delete, last]
            a[delete, last] = 0.0
    h = h.copy()
    h[add] += 1
    h[delete] -= 1
    nets = [SANet(h[i], w1[i], w2[i], s1[i], s2[i], ident0 + i, parents[i].ident) for i in range(n)]
    return Population(nets, (h, w1, w2))


def sa_to_dict(net: SANet) -> dict:
    return {**net_to_dict(net), "s1": net.s1.tolist(), "s2": net.s2.tolist()}


def sa_from_dict(d: dict, hmax: int) -> SANet:
    """A self-adaptive network from checkpoint data, step sizes checked (shape, finite, >= 0)."""
    net = net_from_dict(d, hmax)
    try:
        s1, s2 = np.array(d["s1"], dtype=np.float64), np.array(d["s2"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as e:
        raise EvoplayError(f"a network in the checkpoint has malformed step sizes ({type(e).__name__}: {e})") from None
    if s1.shape != net.w1.shape or s2.shape != net.w2.shape or not (np.isfinite(s1).all() and np.isfinite(s2).all()) or (s1 < 0).any() or (s2 < 0).any():
        raise EvoplayError("a network in the checkpoint has step sizes of the wrong shape or sign")
    twin = SANet(net.h, net.w1, net.w2, s1, s2, net.ident, net.parent)
    twin.fitness.values = net.fitness.values
    return twin


MUTATION_SCHEMA = {
    **EXACT_SCHEMA["mutation"],
    "self_adaptive": (object, True, config.BOOLEAN),
    "tau": (float, 0.0, config.in_range(0.0, 10.0)),
    "sigma_init": (float, 0.05, config.in_range(1e-9, 1e3)),
    "sigma_new": (float, 0.05, config.in_range(1e-9, 1e3)),
    "sigma_min": (float, 1e-6, config.in_range(1e-12, 1e3)),
    "step": (str, "gauss", (lambda v: v in ("gauss", "cauchy"), "'gauss' or 'cauchy'")),
}


class SelfAdaptiveRecipe(ExactFogelRecipe):
    """Fogel's networks with self-adaptive step sizes, evaluated exactly or by sampled games."""

    name = "fogel-selfadaptive"
    default_name = "fogel-selfadaptive"
    schema = {**EXACT_SCHEMA, "mutation": MUTATION_SCHEMA}

    def __init__(self, cfg: dict):
        super().__init__(cfg)
        self.register_mutation()

    def register_mutation(self):
        """Self-adaptive initialisation and mutation in the toolbox when ``mutation.self_adaptive``."""
        cfg = self.cfg
        self.adaptive = cfg["mutation"]["self_adaptive"]
        if self.adaptive:
            pop, mut = cfg["population"], cfg["mutation"]
            h_range = (pop["hidden_min"], pop["hidden_max"])
            self.toolbox.register("population", init_sa_population, pop["parents"], h_range=h_range, init_scale=pop["init_scale"], sigma_init=mut["sigma_init"])
            self.toolbox.register("mutate", mut_selfadaptive, tau=mut["tau"], sigma_new=mut["sigma_new"], sigma_min=mut["sigma_min"], p_arch=mut["p_arch"], h_range=h_range, step=mut["step"])

    def start(self, ctx: Context) -> FogelState:
        return FogelState(self.toolbox.population(ctx.stream(INIT)), self.cfg["population"]["parents"])

    def step(self, st, ctx: Context) -> dict:
        record = super().step(st, ctx)
        if self.adaptive:
            h = np.array([n.h for n in st.parents])
            s1, s2 = step_sizes(st.parents)
            record["mean_sigma"] = float((s1.sum() + s2.sum()) / n_weights(h).sum())
        return record

    def to_data(self, st) -> dict:
        if not self.adaptive:
            return super().to_data(st)
        return {
            "next_id": st.next_id,
            "parents": [sa_to_dict(n) for n in st.parents],
            "hof": [sa_to_dict(n) for n in st.hof],
            "champion": sa_to_dict(st.champion) if st.champion is not None else None,
        }

    def from_data(self, d: dict):
        if not self.adaptive:
            return super().from_data(d)
        from deap import tools

        hof = tools.HallOfFame(1)
        for n in d["hof"]:
            hof.insert(sa_from_dict(n, self.hmax))
        champ = sa_from_dict(d["champion"], self.hmax) if d["champion"] else None
        parents = Population([sa_from_dict(n, self.hmax) for n in d["parents"]])
        if len(parents) != self.cfg["population"]["parents"]:
            raise EvoplayError(f"the checkpoint holds {len(parents)} parents, the config {self.cfg['population']['parents']}")
        return FogelState(parents, int(d["next_id"]), hof, champ)
