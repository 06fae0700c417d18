"""Blondie24 networks as player files: the evaluation network, its king value and its search depth.

One kind, ``blondie24-network``, for a network of any game: its architecture names the
game by reference (``"game": "openspiel:connect_four"``), and it loads as that game's
player (``blondie24.play.net_player``: the fastest exact form the game offers). The two
built-in games keep the kinds their files had (``blondie24-tictactoe`` loads as a
tic-tac-toe table player for the exact analysis, ``blondie24-checkers`` as a checkers
player with the compiled search), so committed files keep their bytes.
Architecture ``{"game", "layers": [inputs, hidden..., 1], "hidden": [hidden...], "depth"}`` (checkers'
2001 network: ``layers`` ``[32, -91, hidden..., 1]``, the spatial layer first), and for a
game file of the user's own ``"game_sha256"``, the sha256 of the file's bytes when the run
wrote it (files written before it was recorded have none, and load as before); weights
``{"genome": [...], "king": [K]}``. Every field is checked on load (and by ``evoplay
resign``): every weight within +-``network.MAX_WEIGHT`` (1e100), so that every
evaluation is a finite number, and K in [0, 100].
"""

from __future__ import annotations

import math

from evoplay.errors import PlayerFileError
from evoplay.networks.evalnet import SPATIAL_UNITS, check_genome, n_weights
from evoplay.arena.game import capability, game_ref
from evoplay.games import GameError, game_digest, is_code_ref, resolve_data_game
from evoplay.recipes.blondie24.play import net_player
from evoplay.files.playerfile import arch_int, player_document, weight_array

KIND = "blondie24-network"
#: The kinds the built-in games' files have always had (still written for them, and read).
BUILTIN_KINDS = {"tictactoe": "blondie24-tictactoe", "checkers": "blondie24-checkers"}
MAX_DEPTH = 12
HEX = "0123456789abcdef"


def network_document(game: str, sizes, depth: int, genome, king: float, provenance: dict) -> dict:
    """The player document of a network; a game file of the user's own is recorded by its
    sha256 too (``game_sha256``), so that a later load can tell whether the file changed."""
    architecture = {"game": game, "layers": [int(s) for s in sizes], "hidden": [int(s) for s in sizes[1:-1]], "depth": int(depth)}
    digest = game_digest(game)
    if digest is not None:
        architecture["game_sha256"] = digest
    return player_document(BUILTIN_KINDS.get(game, KIND), architecture, {"genome": genome, "king": [float(king)]}, provenance)


def network_parts(architecture: dict, weights: dict):
    """(game, layer sizes, depth, genome, king) of a file's architecture and weights, all checked."""
    game = architecture.get("game")
    if not isinstance(game, str) or not game.strip() or len(game) > 1000:
        raise PlayerFileError(f"architecture 'game' must be a game reference, got {str(game)[:40]!r}")
    digest = architecture.get("game_sha256")  # optional: files written before it, and of games not the user's, lack it
    if digest is not None and not (isinstance(digest, str) and len(digest) == 64 and set(digest) <= set(HEX)):
        raise PlayerFileError(f"architecture 'game_sha256' must be 64 lowercase hexadecimal digits, got {str(digest)[:40]!r}")
    try:
        inputs = input_size(game, digest)
    except GameError as e:
        raise PlayerFileError(f"architecture 'game': {e}") from None
    layers = architecture.get("layers")
    # the 2001 network: the spatial layer (-91) before 1-4 hidden sizes, on an 8x8 board's 32 playable squares
    board = inputs == 32 and capability(resolve_data_game(game, digest), "board_shape") == (8, 8)
    spatial = int(board and isinstance(layers, list) and len(layers) > 3 and layers[1] == -SPATIAL_UNITS)
    if (not isinstance(layers, list) or not 3 + spatial <= len(layers) <= 6 + spatial
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in layers)
            or layers[0] != inputs or layers[-1] != 1 or not all(1 <= x <= 256 for x in layers[1 + spatial:-1])):
        spatial_words = f" (or [{inputs}, -{SPATIAL_UNITS}, 1-4 hidden sizes, 1] for the 2001 network)" if board else ""
        raise PlayerFileError(f"architecture 'layers' must be [{inputs}, 1-4 hidden sizes in 1..256, 1]{spatial_words}, got {str(layers)[:60]}")
    if architecture.get("hidden", layers[1:-1]) != layers[1:-1]:
        raise PlayerFileError("architecture 'hidden' must be the hidden sizes of 'layers'")
    depth = arch_int(architecture, "depth", 1, MAX_DEPTH)
    genome = weight_array(weights, "genome", (n_weights(layers),))
    problem = check_genome(genome, "weights 'genome': weight")
    if problem:
        raise PlayerFileError(problem + " (so that every evaluation is a finite number)")
    king = float(weight_array(weights, "king", (1,))[0])
    if not (math.isfinite(king) and 0.0 <= king <= 100.0):
        raise PlayerFileError(f"weights 'king' must be in [0, 100], got {king}")
    return game, tuple(layers), depth, genome, king


def input_size(ref: str, sha256: str | None = None) -> int:
    """The inputs of a network for the game ``ref`` names (its file's digest ``sha256`` where
    recorded): the width of its views (a file never loads user code by itself: ``resolve_data_game``)."""
    game = resolve_data_game(ref, sha256)
    return int(game.views([game.initial()]).shape[1])


def tictactoe_player_from_file(architecture: dict, weights: dict):
    """A ``blondie24-tictactoe`` file as a tic-tac-toe table player."""
    from evoplay.recipes.blondie24.yardstick import ttt_player

    game, sizes, depth, genome, king = network_parts(architecture, weights)
    if game != "tictactoe":
        raise PlayerFileError("not a tic-tac-toe network")
    return ttt_player(genome, sizes, king, depth)


def checkers_player_from_file(architecture: dict, weights: dict):
    """A ``blondie24-checkers`` file as a checkers player (alpha-beta with the network): a
    ``blondie24-network`` file whose game must be checkers."""
    player = player_from_file(architecture, weights)
    if game_ref(player.game) != "checkers":
        raise PlayerFileError("not a checkers network")
    return player


def player_from_file(architecture: dict, weights: dict):
    """A ``blondie24-network`` file as a player of the game it names."""
    ref, sizes, depth, genome, king = network_parts(architecture, weights)
    # a user's game: the one named first, maybe from its file's new place; a changed file is said on stderr
    game = resolve_data_game(ref, architecture.get("game_sha256"))
    player = net_player(game, genome, sizes, king, depth)
    player.game = game
    if game_ref(game) != ref and not is_code_ref(ref):
        raise PlayerFileError(f"architecture 'game' {ref!r} resolves to {game_ref(game)!r}")
    return player
