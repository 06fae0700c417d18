"""evoplay study: many variants of a recipe on one Ray task pool, compared with statistics."""

from __future__ import annotations

from pathlib import Path

import click

from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg


@cli.command()
@click.argument("study_file", metavar="STUDY", type=PathArg(dir_okay=False))
@click.option("--out", type=PathArg(), help="Study directory (default results/NAME).")
@click.option("--address", envvar="RAY_ADDRESS", help="Join this Ray cluster (default: embedded local Ray).")
@click.option("--workers", type=BoundedInt(1, 4096), help="CPUs of local Ray to use (default: all).")
@click.option("--resume", is_flag=True, help="Finish an interrupted study from its checkpoints.")
@click.option("--overwrite", is_flag=True, help="Replace an earlier study in the directory.")
@click.option("--trials", type=BoundedInt(1, 10_000), help="Override every variant's trials (a quick look).")
@click.option("--generations", type=BoundedInt(1, 1_000_000), help="Override every variant's generations.")
@click.option("-v", "--verbose", count=True, help="Log what the study does.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def study(study_file, out, address, workers, resume, overwrite, trials, generations, verbose, quiet):
    """Run every variant of STUDY (TOML) in one Ray task pool and compare them with the baseline."""
    from tqdm import tqdm

    from evoplay.cli.run import _leave, setup_logging
    from evoplay.framework import study as studies
    from evoplay.framework.study_report import study_words

    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    setup_logging(verbose, quiet)
    spec = studies.load_study(study_file, trials=trials, generations=generations)
    out = Path(out or Path("results") / studies.slug(spec["name"]))
    studies.check_study_dir(out, resume, overwrite)
    try:
        with tqdm(total=0, unit="gen", desc=spec["name"], disable=quiet or verbose > 0, leave=False) as bar:
            result = studies.run_study(spec, out, address=address, workers=workers, resume=resume, overwrite=overwrite, progress=bar)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo(f"evoplay: interrupted; the checkpoints in {out} continue with --resume", err=True)
        _leave(130)
    click.echo(f"study {out}: {len(result['variants'])} variants; baseline {result['baseline']}")
    words = study_words(spec)
    for v in result["variants"]:
        f = v["final_mean_max"]
        line = f"  {v['name']}: final mean max {words.with_unit} {f['mean']:.2f} [{f['ci95'][0]:.2f}, {f['ci95'][1]:.2f}]"
        tests = v.get("vs_baseline")
        if tests is None:
            click.echo(line + " (baseline)")
        else:  # its fitness's verdict, else (recipes that measure fitness differently) its measures'
            shown = [tests["final_mean_max"]] if "final_mean_max" in tests else list(tests.values())
            click.echo(line + "".join(f"; {t['verdict']}" for t in shown))
    click.echo(f"table: {out / 'study.md'}  curves: {out / 'study.png'}")
    _leave(0)
