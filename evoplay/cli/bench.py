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
@click.option("--game", "game_name", default=None, metavar="REF",
              help="Measure a game instead (any game reference; evoplay games lists them): its own benchmark "
              "figures where the game declares them, else random-playout moves per second through the game "
              "interface (an OpenSpiel game: through pyspiel itself too, in the same run).")
def bench(as_json, quick, quiet, game_name):
    """Measure tic-tac-toe's batched engine, one generation of Fogel's experiment and Ray scaling
    on this machine (the reference experiment's benchmark), or with --game any game's throughput.

    Takes about a minute (a few seconds with --quick); each stage is announced on stderr.
    """
    from evoplay.recipes.fogel import bench as fogel_bench

    started = time.perf_counter()

    def progress(stage: str):
        if not quiet:
            click.echo(f"bench [{time.perf_counter() - started:5.1f} s]: {stage} ...", err=True)

    from evoplay.arena.game import capability
    from evoplay.games import resolve_game

    if game_name is not None:
        game = resolve_game(game_name)
        if capability(game, "bench_figures") is not None:
            return _own_figures(game, as_json, quick, progress)
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


def _own_figures(game, as_json: bool, quick: bool, progress):
    """A game's own benchmark (``bench_figures``), printed its own way (``bench_text``)."""
    from evoplay.arena.game import capability

    result = capability(game, "bench_figures")(quick=quick, progress=progress)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    text = capability(game, "bench_text")
    click.echo("\n".join(text(result)) if text is not None else json.dumps(result, indent=1))


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
