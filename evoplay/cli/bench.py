"""evoplay bench: engine throughput, generation split, speed-up and Ray scaling."""

from __future__ import annotations

import json
import time

import click

from evoplay.cli.group import cli


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quick", is_flag=True, help="Fewer repetitions, no scaling tables, no Ray.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@click.option("--game", "game_name", default="tictactoe", show_default=True, metavar="REF",
              help="checkers: perft, search leaves per second, seconds per game; any other game (openspiel:NAME, "
              "file.py:OBJ, ...): random-playout moves per second through the game interface (and, for an "
              "OpenSpiel game, through pyspiel itself in the same run).")
def bench(as_json, quick, quiet, game_name):
    """Measure the batched engine, one Fogel generation, and Ray scaling on this machine.

    Takes about a minute (a few seconds with --quick); each stage is announced on stderr.
    """
    from evoplay.recipes.fogel import bench as fogel_bench

    started = time.perf_counter()

    def progress(stage: str):
        if not quiet:
            click.echo(f"bench [{time.perf_counter() - started:5.1f} s]: {stage} ...", err=True)

    from evoplay.arena.game import capability
    from evoplay.games import resolve_game

    game = resolve_game(game_name)
    if capability(game, "bench_figures") is not None:
        return _checkers(as_json, quick, progress)
    if not capability(game, "exact", False):
        return _any_game(game, as_json, quick, progress)

    result = fogel_bench.engine_figures(quick=quick, progress=progress)
    if not quick:
        result["ray_scaling_s"] = fogel_bench.ray_scaling(progress=progress)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    g, ref, est = result["generation"], result["reference"], result["full_run_estimate_s"]
    click.echo(f"engine: {result['games_per_second_per_core']:,.0f} games/s per core against logic in a run "
               f"({result['games_per_second_per_core_engine_alone']:,.0f} for the engine alone)")
    click.echo(f"generation: {g['total_ms']:.2f} ms ({result['generations_per_second_per_core']:.0f}/s per core): {fogel_bench.parts_text(g)}")
    click.echo(f"general path (an operator swapped): {result['generation_general_path']['total_ms']:.2f} ms: "
               f"{fogel_bench.parts_text(result['generation_general_path'])}")
    click.echo(f"per-game Python reference: {ref['reference_ms']:.0f} ms per generation's evaluation; "
               f"engine {ref['engine_ms']:.2f} ms; speed-up x{ref['speedup']:.0f}")
    click.echo(f"full Fogel experiment (20 x 800 generations), estimated: {est['1_core']:.1f} s on 1 core, "
               f"{est['2_cores']:.1f} s on 2 (plus Ray start-up)")
    if "scaling_evaluation_ms" in result:
        sc = result["scaling_evaluation_ms"]
        click.echo("evaluation ms by parents: " + ", ".join(f"{k}: {v:.2f}" for k, v in sc["parents"].items()))
        click.echo("evaluation ms by games per network: " + ", ".join(f"{k}: {v:.2f}" for k, v in sc["games"].items()))
    if "ray_scaling_s" in result:
        rs = result["ray_scaling_s"]
        for level in ("trial_level", "evaluation_level"):
            r = rs[level]
            click.echo(f"Ray {level.replace('_', ' ')} ({rs['setup'][level]}): 1 worker {r[1]:.2f} s, "
                       f"2 workers {r[2]:.2f} s, x{r['speedup']:.2f}")


def _checkers(as_json: bool, quick: bool, progress):
    from evoplay.checkers.bench import figures

    result = figures(quick=quick, progress=progress)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    for key in ("perft_8", "perft_10"):
        if key in result:
            p = result[key]
            click.echo(f"checkers perft({p['depth']}): {p['leaves']:,} leaves in {p['seconds']:.3f} s, "
                       f"{p['leaves_per_second']:,.0f} leaves/s on one core")
    for s in result["compiled_search"]:
        click.echo(f"alpha-beta, piece difference, depth {s['depth']} (compiled): {s['leaves_per_second']:,.0f} leaves/s "
                   f"({s['leaves']:,} leaves over {s['positions']} opening positions)")
    for s in result["generic_search"]:
        click.echo(f"alpha-beta, piece difference, depth {s['depth']} (generic search, batched evaluator): "
                   f"{s['leaves_per_second']:,.0f} leaves/s ({s['leaves']:,} leaves over {s['positions']} positions)")
    g = result["game"]
    click.echo(f"a game between two depth-{g['depth']} piece-difference players: {g['seconds_per_game']:.3f} s "
               f"({g['plies'] / g['games']:.0f} plies on average over {g['games']} openings)")
    m = result["move_generation"]
    click.echo(f"legal-move lists: {m['evoplay_per_second']:,.0f}/s through the Python layer "
               f"({m['positions']} random-play positions)")


def _any_game(game, as_json: bool, quick: bool, progress):
    """Random playouts through the game interface; an OpenSpiel game's own pyspiel figures beside them."""
    from evoplay.arena.game import capability, game_ref
    from evoplay.arena.bench import playout_moves

    seconds = 1.0 if quick else 4.0
    progress(f"random playouts of {game_ref(game)} for {seconds:g} s")
    native = capability(game, "bench_moves")
    result = native(seconds) if native is not None else playout_moves(game, seconds)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    click.echo(f"{result['game']}: {result['adapter_moves_per_s']:,.0f} random-playout moves/s through the game interface"
               + (f", {result['raw_moves_per_s']:,.0f}/s through pyspiel itself (x{result['adapter_over_raw']:.2f})"
                  if "raw_moves_per_s" in result else ""))
