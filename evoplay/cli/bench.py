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
def bench(as_json, quick, quiet):
    """Measure the batched engine, one Fogel generation, and Ray scaling on this machine.

    Takes about a minute (a few seconds with --quick); each stage is announced on stderr.
    """
    from evoplay import bench as B

    started = time.perf_counter()

    def progress(stage: str):
        if not quiet:
            click.echo(f"bench [{time.perf_counter() - started:5.1f} s]: {stage} ...", err=True)

    result = B.engine_figures(quick=quick, progress=progress)
    if not quick:
        result["ray_scaling_s"] = B.ray_scaling(progress=progress)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    g, ref, est = result["generation"], result["reference"], result["full_run_estimate_s"]
    click.echo(f"engine: {result['games_per_second_per_core']:,.0f} games/s per core against logic in a run "
               f"({result['games_per_second_per_core_engine_alone']:,.0f} for the engine alone)")
    click.echo(f"generation: {g['total_ms']:.2f} ms ({result['generations_per_second_per_core']:.0f}/s per core): "
               f"evaluation {g['evaluation_ms']:.2f} ms, mutation {g['mutation_ms']:.2f} ms, selection {g['selection_ms']:.2f} ms")
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
