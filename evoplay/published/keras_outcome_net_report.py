"""The Keras outcome-net program's published figures beside the faithful model's (``keras_outcome_net``).

The model is run with each hypothesis on and with each one taken away (``variants``),
against random from both seats and exactly; ``report`` gathers the variants, their gaps
to the published numbers and the spread over nets trained with other random seeds, and
``write_results`` writes ``results.json`` and ``table.md`` (``evoplay figures
keras-outcome-net``, to ``results/keras-outcome-net``).
"""

from __future__ import annotations

from pathlib import Path

from evoplay.errors import PlayerFileError
from evoplay.published.keras_outcome_net import (KIND, MIRRORED_COLUMNS, RANDOM_TABLE, ProgramPlayer, mirrored_encode,
                                                 outcome, sequence_counts)
from evoplay.tictactoe import board

PUBLISHED = {
    "random_split": {"x_win": 0.23, "o_win": 0.64, "draw": 0.11},
    "as_x": {"win": 0.57, "draw": 0.40, "loss": 0.01},
    # The O run's printed lines: "X Wins 3%, O Wins 89%, Draws 6%".
    "as_o_printed": {"X Wins": 0.03, "O Wins": 0.89, "Draws": 0.06},
}


def _runs(x_net_table, o_net_table, random_table, first, play) -> dict:
    """The net as X and as O against random; O run kept as both printings would show it."""
    as_x = play(x_net_table, random_table, first)
    as_o = play(random_table, o_net_table, first)
    return {
        "as_x": {"win": as_x["x_win"], "draw": as_x["draw"], "loss": as_x["o_win"]},
        "as_o": {"win": as_o["o_win"], "draw": as_o["draw"], "loss": as_o["x_win"]},
    }


def _standard(x_player, o_player, first=board.X) -> dict:
    from evoplay.tictactoe import exact

    o = exact.outcome(x_player, o_player)
    return {"x_win": o.x_win, "draw": o.draw, "o_win": o.o_win}


def _fullboard(x_table, o_table, first) -> dict:
    """Exact outcome of the program's full-board game between two move tables."""
    return outcome(x_table, o_table, first)


def evoplay_outcome_net(path):
    """evoplay's correct outcome-net read from its player file, with the program's move rule."""
    from evoplay.files.playerfile import read_document
    from evoplay.tictactoe.trained.common import arch_sizes, mlp_from_weights
    from evoplay.tictactoe.trained import outcome_net

    doc = read_document(path)
    if doc["kind"] != "outcome-net":
        raise PlayerFileError(f"{path} is a {doc['kind']} player file, not an outcome-net")
    net = mlp_from_weights(doc["weights"], arch_sizes(doc["architecture"], 9, 3), "relu", None)
    return net, outcome_net.encode, outcome_net.CLASS_NAMES


#: The program's net as the committed tables name it: the name of an earlier release, kept
#: so that a rerun writes results/keras-outcome-net's tables byte for byte.
NET = "seed003"


def variants(player: ProgramPlayer, evoplay_net_path) -> list[dict]:
    """Exact results of the model with each hypothesis on, and with each one taken away."""
    from evoplay.tictactoe.players import make_player

    intended = ProgramPlayer(player.spec + " (intended reading)", player.net, "intended")
    net, enc, cols = evoplay_outcome_net(evoplay_net_path)
    evo_program = ProgramPlayer("outcome-net (program's reading)", net, "program", cols, enc)
    evo_intended = ProgramPlayer("outcome-net", net, "intended", cols, enc)
    rnd = make_player("random")
    out = []

    def add(name, game, first, reading, net_name, x_table, o_table, rnd_table, play, data_first=board.O,
            data_play=_fullboard):
        """``random_split``: the net's training data, random games (rule ``data_play``, with
        ``data_first`` moving first): what the program printed as its random games."""
        res = _runs(x_table, o_table, rnd_table, first, play)
        split = data_play(RANDOM_TABLE if data_play is _fullboard else rnd, RANDOM_TABLE if data_play is _fullboard
                          else rnd, data_first)
        out.append({"name": name, "game": game, "data_first": "O" if data_first == board.O else "X",
                    "first": "O" if first == board.O else "X", "reading": reading, "net": net_name, **res,
                    "random_split": split})

    fo, fx = player.fullboard_table(board.O), player.fullboard_table(board.X)
    full = "full board, first line in scan order"
    std = "evoplay's (ends at the first line)"
    add("faithful: all four hypotheses", full, board.O, "program", NET, fo, fo, RANDOM_TABLE, _fullboard)
    io = intended.fullboard_table(board.O)
    add("labels read as intended", full, board.O, "intended", NET, io, io, RANDOM_TABLE, _fullboard)
    add("X moves first in the net's games", full, board.X, "program", NET, fx, fx, RANDOM_TABLE, _fullboard)
    # Trained on X-first games instead: the full-board rule is symmetric in X and O, so the
    # committed net with marks and columns swapped is such a net (same training, mirrored).
    mirrored = ProgramPlayer(player.spec + " (mirrored)", player.net, "program", MIRRORED_COLUMNS, mirrored_encode)
    mx = mirrored.fullboard_table(board.X)
    add("X moves first everywhere (mirrored net)", full, board.X, "program", f"{NET} mirrored", mx, mx, RANDOM_TABLE,
        _fullboard, data_first=board.X)
    add(f"evoplay's game, {NET} net", std, board.X, "program", NET, player, player, rnd, _standard)
    add("evoplay's game and net, program's reading", std, board.X, "program", "outcome-net", evo_program, evo_program,
        rnd, _standard, data_first=board.X, data_play=_standard)
    add("evoplay's outcome-net (correct)", std, board.X, "intended", "outcome-net", evo_intended, evo_intended, rnd,
        _standard, data_first=board.X, data_play=_standard)
    return out


def printed_o_run(as_o: dict, hypothesis: bool = True) -> dict:
    """The O run's three lines as the program prints them: with the printout hypothesis,
    "X Wins" is the net's wins and "O Wins" random's; without it, the marks' wins."""
    if hypothesis:
        return {"X Wins": as_o["win"], "O Wins": as_o["loss"], "Draws": as_o["draw"]}
    return {"X Wins": as_o["loss"], "O Wins": as_o["win"], "Draws": as_o["draw"]}


def gap(ours: dict, published: dict) -> float:
    """Largest difference, in percentage points, between matching entries."""
    return max(abs(100 * (ours[k] - published[k])) for k in published)


def seed_spread(paths) -> list[dict]:
    """The two closest variants for nets trained with other seeds: how much training noise moves them."""
    from evoplay.files.playerfile import load_player

    rows = []
    for path in paths:
        player = load_player(path)
        row = {"player_file": str(path), "seed": player.provenance.get("seed")}
        for key, first in (("games_o_first", board.O), ("games_x_first", board.X)):
            t = player.fullboard_table(first)
            row[key] = _runs(t, t, RANDOM_TABLE, first, _fullboard)
        rows.append(row)
    return rows


def report(player_path, evoplay_net_path, other_seeds=()) -> dict:
    """Everything written to results/keras-outcome-net: random splits, the variants, the gaps, and
    the faithful model's results for nets trained with ``other_seeds`` (player files)."""
    from evoplay.files.playerfile import load_player

    player = load_player(player_path)
    rows = variants(player, evoplay_net_path)
    for r in rows:
        r["printed_o_run"] = printed_o_run(r["as_o"], True)
        r["printed_o_run_literal"] = printed_o_run(r["as_o"], False)
        r["gap_pp"] = {
            "random_split": gap(r["random_split"], PUBLISHED["random_split"]),
            "as_x": gap(r["as_x"], PUBLISHED["as_x"]),
            "as_o_printed": gap(r["printed_o_run"], PUBLISHED["as_o_printed"]),
            "as_o_printed_literal": gap(r["printed_o_run_literal"], PUBLISHED["as_o_printed"]),
        }
    return {
        "player_file": str(player_path),
        "evoplay_outcome_net": str(evoplay_net_path),
        "published": PUBLISHED,
        "sequence_counts": {"O first": sequence_counts(board.O), "X first": sequence_counts(board.X)},
        "training": player.provenance.get("metrics", {}),
        "variants": rows,
        "seeds": seed_spread([player_path, *other_seeds]),
    }


def _three(d: dict, keys) -> str:
    return " / ".join(f"{100 * d[k]:.1f}" for k in keys)


def table(rep: dict) -> str:
    """The program's published figures beside the faithful model's, then every variant."""
    pub = rep["published"]
    faithful = rep["variants"][0]
    seq = rep["sequence_counts"]["O first"]
    total = sum(v["sequences"] for v in seq.values())
    correct = rep["variants"][-1]
    lines = [
        "| figure | published | evoplay | how |",
        "|---|---|---|---|",
        f"| random games: X wins / O wins / draws % | {_three(pub['random_split'], ('x_win', 'o_win', 'draw'))} | "
        f"{_three(faithful['random_split'], ('x_win', 'o_win', 'draw'))} (full board, O first: "
        f"{seq['x_win']['sequences']:,} / {seq['o_win']['sequences']:,} / {seq['draw']['sequences']:,} of {total:,} "
        f"move orders) | exact, by enumeration |",
        f"| net as X vs random: win / draw / loss % | {_three(pub['as_x'], ('win', 'draw', 'loss'))} | "
        f"{_three(faithful['as_x'], ('win', 'draw', 'loss'))} (faithful model) | exact, committed player file |",
        f"| net as O vs random, printed \"X Wins / O Wins / Draws\" % | "
        f"{_three(pub['as_o_printed'], ('X Wins', 'O Wins', 'Draws'))} | "
        f"{_three(faithful['printed_o_run'], ('X Wins', 'O Wins', 'Draws'))} (faithful model: net's wins / "
        f"random's wins / draws) | exact, committed player file |",
        f"| evoplay's `outcome-net` as X vs random (correct program) | - | "
        f"{_three(correct['as_x'], ('win', 'draw', 'loss'))} | exact |",
        "",
        "Every variant, exact (net's win / draw / loss % against random; the O run also as printed):",
        "",
        "| variant | game | first to move: data / net's games | columns read | net | "
        "random games (data) X / O / draw | as X | as O | "
        "O run printed (net / random / draws) | gap to published, points: split, X run, O run printed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v in rep["variants"]:
        g = v["gap_pp"]
        lines.append(
            f"| {v['name']} | {v['game']} | {v['data_first']} / {v['first']} | {v['reading']} | {v['net']} | "
            f"{_three(v['random_split'], ('x_win', 'o_win', 'draw'))} | {_three(v['as_x'], ('win', 'draw', 'loss'))} | "
            f"{_three(v['as_o'], ('win', 'draw', 'loss'))} | {_three(v['printed_o_run'], ('X Wins', 'O Wins', 'Draws'))} | "
            f"{g['random_split']:.1f}, {g['as_x']:.1f}, {g['as_o_printed']:.1f} |"
        )
    lines += [
        "",
        "The model with the net trained from each seed (full board; data O first; program's columns; win / draw / loss %):",
        "",
        "| training seed | net's games O first: as X | as O | net's games X first: as X | as O |",
        "|---:|---|---|---|---|",
    ]
    for r in rep["seeds"]:
        o, x = r["games_o_first"], r["games_x_first"]
        keys = ("win", "draw", "loss")
        lines.append(f"| {r['seed']} | {_three(o['as_x'], keys)} | {_three(o['as_o'], keys)} | "
                     f"{_three(x['as_x'], keys)} | {_three(x['as_o'], keys)} |")
    return "\n".join(lines) + "\n"


def write_results(out, player_path, evoplay_net_path) -> dict:
    """results.json and table.md in ``out``; returns the report."""
    from evoplay.files.atomic import write_text
    from evoplay.published.common import write_json

    out = Path(out)
    others = sorted(Path(player_path).parent.glob(f"{KIND}-seed*.json"),
                    key=lambda p: int(p.stem.rsplit("seed", 1)[1]))
    rep = report(player_path, evoplay_net_path, others)
    write_json(out / "results.json", rep)
    write_text(out / "table.md", table(rep))
    return rep
