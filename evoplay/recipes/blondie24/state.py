"""A Blondie24 trial between generations (``B24State``) as checkpoint data: written as plain
data, and read back with every field, length and value checked (a damaged checkpoint is refused
with the field it names).

Parts of the state exist only under the config keys that make them (``hall`` with
``evaluation.hall_of_fame``, ``league`` with ``champion.rule = "league"``, ``archive`` with
``evaluation.hall_of_fame_games``), so checkpoints without them keep their bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from evoplay.errors import EvoplayError
from evoplay.networks.evalnet import check_genome
from evoplay.recipes.blondie24.operators import Net


def json_copy(obj):
    """A deep copy of plain data (tables, lists, numbers)."""
    return json.loads(json.dumps(obj))


def _numbers(row) -> bool:
    """A table of names to plain numbers (a row of checkpoint data)."""
    return isinstance(row, dict) and all(isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
                                         for k, v in row.items())


def net_from_dict(d: dict, n: int, king_range) -> Net:
    """A network from checkpoint data, every field, length and value checked."""
    try:
        if not isinstance(d, dict) or set(d) != {"id", "parent", "king", "points", "record", "genome", "sigma"}:
            raise ValueError("a network is a table of id, parent, king, points, record, genome and sigma")
        for key in ("id", "parent"):
            if not isinstance(d[key], int) or isinstance(d[key], bool):
                raise ValueError(f"{key!r} is not an integer")
        genome, sigma = np.array(d["genome"], dtype=np.float64), np.array(d["sigma"], dtype=np.float64)
        king, points = float(d["king"]), float(d["points"])
        record = tuple(int(x) for x in d["record"])
    except (TypeError, ValueError) as e:
        raise EvoplayError(f"a network in the checkpoint is malformed ({str(e)[:120]})") from None
    if genome.shape != (n,) or sigma.shape != (n,) or len(record) != 3:
        raise EvoplayError(f"a network in the checkpoint has {genome.shape} weights and {sigma.shape} step sizes, not {n}")
    if not (np.isfinite(genome).all() and np.isfinite(sigma).all() and (sigma > 0).all() and np.isfinite(points)):
        raise EvoplayError("a network in the checkpoint has a non-finite weight or a step size that is not positive")
    problem = check_genome(genome, "a network in the checkpoint: weight")
    if problem:
        raise EvoplayError(problem)
    if not king_range[0] <= king <= king_range[1]:
        raise EvoplayError(f"a network in the checkpoint has king value {king} outside {list(king_range)}")
    return Net(genome, sigma, king, d["id"], d["parent"], points, record)


@dataclass
class B24State:
    """A trial between generations: the parents, the next id, the last generation's best network, the last
    yardstick; on checkers the best network of every measuring generation so far (``earlier``: gen, genome,
    king) and, after the last generation, the final champion's games against them (``versus``); with
    ``champion.rule = "league"``, after the last generation the last parents' league (``league``: its
    table, winner and the winner's yardstick); with ``evaluation.hall_of_fame_games`` the archive of
    earlier champions (``archive``: gen, genome, king, oldest first)."""

    parents: list
    next_id: int
    best: Net | None = None
    yard: dict = field(default_factory=dict)
    earlier: list = field(default_factory=list)
    versus: list = field(default_factory=list)
    hall: list = field(default_factory=list)
    league: dict = field(default_factory=dict)
    archive: list = field(default_factory=list)


def state_to_data(st: B24State, cfg: dict) -> dict:
    """A trial's state as plain data (the checkpoint's)."""
    data = {"next_id": st.next_id, "parents": [n.to_dict() for n in st.parents],
            "best": st.best.to_dict() if st.best is not None else None, "yard": dict(st.yard),
            "earlier": [dict(e) for e in st.earlier], "versus": [dict(v) for v in st.versus]}
    if cfg["evaluation"]["hall_of_fame"]:  # only then: checkpoints without a hall keep their bytes
        data["hall"] = [{"genome": h["genome"].tolist(), "king": h["king"]} for h in st.hall]
    if cfg["champion"]["rule"] == "league":  # likewise
        data["league"] = json_copy(st.league)
    if cfg["evaluation"]["hall_of_fame_games"]:  # likewise
        data["archive"] = [{"gen": a["gen"], "genome": a["genome"].tolist(), "king": a["king"]} for a in st.archive]
    return data


def state_from_data(d: dict, cfg: dict, n_weights: int, king_range) -> B24State:
    """A trial's state from checkpoint data, every part checked against the config's."""
    keys = ({"next_id", "parents", "best", "yard", "earlier", "versus"} | ({"hall"} if cfg["evaluation"]["hall_of_fame"] else set())
            | ({"league"} if cfg["champion"]["rule"] == "league" else set())
            | ({"archive"} if cfg["evaluation"]["hall_of_fame_games"] else set()))
    if not isinstance(d, dict) or set(d) != keys:
        raise EvoplayError(f"the checkpoint's state does not hold exactly {', '.join(sorted(keys))}")
    n = cfg["population"]["parents"]
    if not isinstance(d["parents"], list) or len(d["parents"]) != n:
        raise EvoplayError(f"the checkpoint's parents are not a list of {n} networks (the config's population)")
    if not isinstance(d["next_id"], int) or not isinstance(d["yard"], dict) or not isinstance(d["best"], dict):
        raise EvoplayError("the checkpoint's next_id, best network or yardstick is malformed")
    parents = [net_from_dict(x, n_weights, king_range) for x in d["parents"]]
    yard = {k: v for k, v in d["yard"].items() if isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)}
    if len(yard) != len(d["yard"]):
        raise EvoplayError("the checkpoint's yardstick holds something other than numbers")
    earlier = [earlier_from_dict(e, n_weights, king_range) for e in d["earlier"]] if isinstance(d["earlier"], list) else None
    if earlier is None or not isinstance(d["versus"], list) or not all(_numbers(v) for v in d["versus"]):
        raise EvoplayError("the checkpoint's earlier champions or their games are malformed")
    hall = d.get("hall", [])
    if not isinstance(hall, list) or len(hall) > cfg["evaluation"]["hall_of_fame"]:
        raise EvoplayError("the checkpoint's hall of fame is not a list of at most evaluation.hall_of_fame networks")
    hall = [hall_from_dict(h, n_weights, king_range) for h in hall]
    return B24State(parents, d["next_id"], net_from_dict(d["best"], n_weights, king_range), yard,
                    earlier, [dict(v) for v in d["versus"]], hall, league_from_dict(d.get("league", {}), parents),
                    archive_from_list(d.get("archive", []), n_weights, king_range))


def archive_from_list(archive, n_weights: int, king_range) -> list:
    """The archive of earlier champions from checkpoint data: networks checked like the earlier champions',
    their generations increasing."""
    if not isinstance(archive, list):
        raise EvoplayError("the checkpoint's archive of earlier champions is not a list")
    kept = [earlier_from_dict(a, n_weights, king_range) for a in archive]
    if any(a["gen"] >= b["gen"] for a, b in zip(kept, kept[1:])):
        raise EvoplayError("the checkpoint's archive of earlier champions is not in order of generation")
    return [{**a, "genome": np.array(a["genome"], dtype=np.float64)} for a in kept]


def league_from_dict(d, parents: list) -> dict:
    """The last parents' league from checkpoint data ({} before the last generation), checked."""
    if d == {}:
        return {}
    keys = {"ballots", "games_per_pair", "table", "champion", "champion_id", "yard"}
    ok = (isinstance(d, dict) and set(d) == keys and isinstance(d["table"], list) and len(d["table"]) == len(parents)
          and all(isinstance(r, dict) and _numbers(r) for r in d["table"]) and _numbers(d["yard"])
          and isinstance(d["champion"], int) and not isinstance(d["champion"], bool) and 0 <= d["champion"] < len(parents)
          and d["champion_id"] == parents[d["champion"]].ident)
    if not ok:
        raise EvoplayError("the checkpoint's league of the last parents is malformed")
    return json_copy(d)


def hall_from_dict(h, n_weights: int, king_range) -> dict:
    """A hall of fame network (genome, king) from checkpoint data, checked like a network."""
    if not isinstance(h, dict) or set(h) != {"genome", "king"}:
        raise EvoplayError("a hall of fame network in the checkpoint is not a table of genome and king")
    e = earlier_from_dict({"gen": 0, **h}, n_weights, king_range)
    return {"genome": np.array(e["genome"], dtype=np.float64), "king": e["king"]}


def earlier_from_dict(e, n_weights: int, king_range) -> dict:
    """An earlier champion (gen, genome, king) from checkpoint data, checked like a network."""
    if not isinstance(e, dict) or set(e) != {"gen", "genome", "king"} or not isinstance(e["gen"], int):
        raise EvoplayError("an earlier champion in the checkpoint is not a table of gen, genome and king")
    net = net_from_dict({"id": 0, "parent": 0, "points": 0.0, "record": [0, 0, 0], "sigma": [1.0] * n_weights,
                         "genome": e["genome"], "king": e["king"]}, n_weights, king_range)
    return {"gen": e["gen"], "genome": net.genome.tolist(), "king": net.king}
