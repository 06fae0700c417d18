"""Blondie24's config schema: its sections and keys, the checks of its game reference, and the
checks across keys done when a config is resolved.

A config's game is resolved when the config is read (a bad reference is refused before any
work) and written as the reference that rebuilds it anywhere; its networks' layer sizes
follow from the game's views and ``network.hidden`` (and ``network.spatial`` on checkers).
"""

from __future__ import annotations

import numpy as np

from evoplay import context
from evoplay.errors import ConfigError
from evoplay.framework import config as configs
from evoplay.arena.game import capability, game_ref
from evoplay.games import check_text, resolve_game
from evoplay.networks.evalnet import SPATIAL_UNITS

_POINTS = configs.in_range(-1e6, 1e6)
#: ``champion.rule``: the last generation's best network, or the winner of the last parents' league.
CHAMPION_RULES = ("best", "league")


def _hidden(v):
    return isinstance(v, list) and 1 <= len(v) <= 4 and all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= 256 for h in v)


#: The anchor that is no file: piece difference, as the network of the piece-difference weight alone.
PIECE_DIFFERENCE = "piece-difference"
#: Most anchors a config may name.
MAX_ANCHORS = 16


def _anchors(v):
    """``evaluation.anchors`` as stored: piece difference, a network player file's path made
    absolute against the config's folder, or any other player spec of the run's game (each
    checked in ``check_config``, once the game and sizes are known)."""
    from evoplay.framework.config import base_dir

    if not (isinstance(v, list) and 1 <= len(v) <= MAX_ANCHORS and all(isinstance(a, str) and a for a in v)):
        return False
    from evoplay.arena.specs import is_path

    out = []
    for a in v:
        check_text(a)
        out.append(str((base_dir() / a).resolve()) if a != PIECE_DIFFERENCE and is_path(a) else a)
    return out


SCHEMA = {
    "game": {
        "name": (str, "checkers", (lambda v: checked_game(v), "a game reference")),
        "depth": (int, 4, configs.in_range(1, 12)),
        "max_plies": (int, 200, configs.in_range(1, 100_000)),
        "quiescence": (object, False, configs.BOOLEAN),
    },
    "network": {
        "hidden": (object, [40, 10], (_hidden, "a list of 1-4 hidden layer sizes in 1..256")),
        "spatial": (object, False, configs.BOOLEAN),
        "init_scale": (float, 0.2, configs.in_range(0.0, 1e3)),
        "king_init": (float, 2.0, configs.in_range(0.0, 1e3)),
        "king_min": (float, 1.0, configs.in_range(0.0, 1e3)),
        "king_max": (float, 3.0, configs.in_range(0.0, 1e3)),
    },
    "population": {
        "parents": (int, 15, configs.in_range(2, 10_000)),
    },
    "mutation": {
        "sigma_init": (float, 0.05, configs.in_range(1e-9, 1e3)),
        "tau": (float, 0.0, configs.in_range(0.0, 10.0)),
        "king_step": (float, 0.0, configs.in_range(0.0, 10.0)),
    },
    "evaluation": {
        "games": (int, 5, configs.in_range(1, 10_000)),
        "points_win": (float, 1.0, _POINTS),
        "points_draw": (float, 0.0, _POINTS),
        "points_loss": (float, -2.0, _POINTS),
        "opponent_scores": (object, False, configs.BOOLEAN),
        "random_plies": (int, 0, configs.in_range(0, 50)),
        "both_seats": (object, False, configs.BOOLEAN),
        "round_robin": (object, False, configs.BOOLEAN),
        "hall_of_fame": (int, 0, configs.in_range(0, 1000)),
        "hall_of_fame_games": (int, 0, configs.in_range(0, 10_000)),
        "hall_of_fame_every": (int, 1, configs.in_range(1, 1_000_000)),
        "anchor_games": (int, 0, configs.in_range(0, 10_000)),
        "anchors": (object, [PIECE_DIFFERENCE], (_anchors, f"a list of 1-{MAX_ANCHORS} opponents, each "
                    f"{PIECE_DIFFERENCE!r}, the path of a network player file or a player spec")),
    },
    "champion": {
        "rule": (str, "best", (lambda v: v in CHAMPION_RULES, "best or league")),
        "ballots": (int, 8, configs.in_range(1, 157)),
    },
    "yardstick": {
        "every": (int, 10, configs.in_range(1, 1_000_000)),
        "openings": (int, 0, configs.in_range(0, 100_000)),
        "pd_king": (float, 1.5, configs.in_range(0.0, 100.0)),
        "mcts_sims": (int, 100, configs.in_range(1, 1_000_000)),
        "random_plies": (int, 2, configs.in_range(0, 50)),
    },
}


def checked_game(ref: str) -> str:
    """A config's game reference, resolved now (a bad one is refused before any work) and
    written as the reference that rebuilds the game anywhere (a user file's absolute path)."""
    from evoplay.framework.config import base_dir
    from evoplay.files import usercode

    check_text(ref)  # taken as written: whitespace around it is refused, not cut off
    if usercode.is_ref(ref) and ref.partition(":")[0].endswith(".py"):
        ref = usercode.absolute_ref(ref, base_dir())
    return game_ref(resolve_game(ref))


def input_size(ref: str) -> int:
    """The inputs of a network for the game ``ref`` names: the width of its views, checked."""
    game = resolve_game(ref)
    views = np.asarray(game.views([game.initial()]))
    if views.ndim != 2 or views.shape[1] < 1:
        raise ConfigError(f"game {ref}: views must be (positions, inputs) arrays, got shape {views.shape}")
    return int(views.shape[1])

def layer_sizes(cfg: dict) -> tuple:
    """(inputs, hidden..., 1) of a config's networks; with ``network.spatial`` (checkers) the 2001
    network's (32, -91, hidden..., 1): the 91 regions of the board before the hidden layers."""
    inputs = input_size(cfg["game"]["name"])
    if cfg["network"].get("spatial", False):
        if inputs != 32:
            raise ConfigError("config key 'network.spatial' needs a game of 32 board inputs (checkers)")
        return (inputs, -SPATIAL_UNITS, *cfg["network"]["hidden"], 1)
    return (inputs, *cfg["network"]["hidden"], 1)


def searched_network(cfg: dict) -> tuple[str, int, tuple, int]:
    """(game reference, search depth, layer sizes, weights) of a config's networks: what a recipe
    whose networks play at the leaves of the search (``blondie24``, ``td-leaf``) reads of its config."""
    from evoplay.networks.evalnet import n_weights

    sizes = layer_sizes(cfg)
    return cfg["game"]["name"], cfg["game"]["depth"], sizes, n_weights(sizes)


def check_config(cfg: dict):
    """The checks across keys of a resolved config (``Blondie24Recipe.check``)."""
    net = cfg["network"]
    if not net["king_min"] <= net["king_init"] <= net["king_max"]:
        raise ConfigError("config key 'network.king_init' must lie in [network.king_min, network.king_max]")
    ev = cfg["evaluation"]
    if ev["hall_of_fame_games"] > ev["games"]:
        raise ConfigError("config key 'evaluation.hall_of_fame_games' must be at most evaluation.games "
                          "(the archive's share of each network's games)")
    if ev["hall_of_fame_games"] + ev["anchor_games"] > ev["games"]:
        raise ConfigError("config key 'evaluation.anchor_games' must be at most evaluation.games less "
                          "evaluation.hall_of_fame_games (the anchor's share of each network's games)")
    if ev["anchor_games"] and ev["round_robin"]:
        raise ConfigError("config key 'evaluation.anchor_games' needs drawn games, not evaluation.round_robin")
    if ev["hall_of_fame_games"] and ev["round_robin"]:
        raise ConfigError("config key 'evaluation.hall_of_fame_games' needs drawn games, not evaluation.round_robin")
    if ev["hall_of_fame_games"] and ev["hall_of_fame"]:
        raise ConfigError("config keys 'evaluation.hall_of_fame' (the last generations' champions) and "
                          "'evaluation.hall_of_fame_games' (the archive of all) exclude each other: choose one")
    material = capability(resolve_game(cfg["game"]["name"]), "yardstick") == "piece-difference"
    if cfg["champion"]["rule"] == "league" and not material:
        raise ConfigError("config key 'champion.rule' = \"league\" is for checkers (the league plays the ballots)")
    if ev["anchor_games"] and PIECE_DIFFERENCE in ev["anchors"] and not material:
        raise ConfigError(f"config key 'evaluation.anchors': {PIECE_DIFFERENCE} is for checkers "
                          "(a game whose positions have a piece difference)")
    if not context.current().files_unread:  # a run's stored config is data: its anchors are read when it plays
        anchor_networks(cfg)


def anchor_networks(cfg: dict) -> list[dict]:
    """The opponents of ``evaluation.anchors``, in order: piece difference as the network of the
    piece-difference weight alone (its kings worth ``yardstick.pd_king``), a player file as its
    weights and king value, checked to be a network of the run's game and layer sizes (it then
    searches as the members do, to ``game.depth``), and any other player spec (``mcts``,
    ``piece-difference:depth=6``, ``openspiel-mcts``) as ``{"spec": ...}``, checked to build, its
    ``genome`` and ``king`` zeros that stand in its place among the networks of a generation
    (it plays as itself: ``evoplay.recipes.blondie24.play.play_chunk``)."""
    from evoplay.files.playerfile import player_path, read_document
    from evoplay.networks.evalnet import n_weights
    from evoplay.recipes.blondie24.operators import material_network
    from evoplay.recipes.blondie24.playerfile import network_parts
    from evoplay.arena.specs import is_path, make_player
    from evoplay.errors import EvoplayError, PlayerFileError

    sizes = layer_sizes(cfg)
    out = []
    for a in cfg["evaluation"]["anchors"]:
        if a == PIECE_DIFFERENCE:
            out.append({"genome": material_network(n_weights(sizes)), "king": cfg["yardstick"]["pd_king"]})
            continue
        if not is_path(a):  # a player spec of the game: played as it is, not by the network search
            try:
                make_player(resolve_game(cfg["game"]["name"]), a)
            except EvoplayError as e:
                raise ConfigError(f"config key 'evaluation.anchors': {e}") from None
            out.append({"spec": a, "genome": np.zeros(n_weights(sizes)), "king": 0.0})
            continue
        try:
            doc = read_document(player_path(a))
            if not doc["kind"].startswith("blondie24-"):
                raise PlayerFileError(f"player file {a} is a {doc['kind']} player, not a network")
            game, layers, _, genome, king = network_parts(doc["architecture"], doc["weights"])
        except PlayerFileError as e:
            raise ConfigError(f"config key 'evaluation.anchors': {e}") from None
        if game != cfg["game"]["name"] or tuple(layers) != tuple(sizes):
            raise ConfigError(f"config key 'evaluation.anchors': {a} is a network of {game} with layers "
                              f"{list(layers)}, not of this run's {cfg['game']['name']} with {list(sizes)}")
        out.append({"genome": genome, "king": king})
    return out
