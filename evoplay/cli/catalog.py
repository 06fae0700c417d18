"""evoplay games: every game one can name, with how to name it."""

from __future__ import annotations

import importlib
import json

import click

from evoplay.cli.group import cli


def catalog() -> dict:
    """The games one can name: built-ins (with their titles), OpenSpiel's eligible games with
    their parameters and defaults (when open_spiel is installed), installed packages' entry
    points, and how to name a file of one's own."""
    from evoplay.arena.game import capability
    from evoplay.games import BUILTIN_GAMES, ENTRY_POINT_GROUP, OPENSPIEL_PREFIX, resolve_game
    from evoplay.files import usercode

    builtin = [{"ref": name, "title": capability(resolve_game(name), "title") or name} for name in BUILTIN_GAMES]
    try:  # an optional extra, imported by name as the adapter does
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        openspiel = None
    else:
        from evoplay.openspiel import eligible_games

        specs = {t.short_name: t for t in pyspiel.registered_games()}
        openspiel = [{"ref": OPENSPIEL_PREFIX + name, "title": specs[name].long_name,
                      "parameters": {k: v for k, v in sorted(specs[name].parameter_specification.items())}}
                     for name in eligible_games()]
    installed = [{"ref": name, "code": value} for name, value in sorted(usercode.entry_point_refs(ENTRY_POINT_GROUP).items())]
    return {"builtin": builtin, "openspiel": openspiel, "installed": installed,
            "own": ["path/to/file.py:OBJ", "package.module:OBJ"]}


def _value(v) -> str:
    return json.dumps(v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def games(as_json):
    """List the games --game (and a config's game.name) can name, and how to name your own."""
    found = catalog()
    if as_json:
        click.echo(json.dumps(found, indent=1, default=str))
        return
    click.echo("Built-in games:")
    for g in found["builtin"]:
        click.echo(f"  {g['ref']:<12} {g['title']}")
    if found["openspiel"] is None:
        click.echo("OpenSpiel games: install open_spiel (pip install open_spiel, or evoplay[openspiel]) to name them")
    else:
        click.echo(f"OpenSpiel games ({len(found['openspiel'])}; name one as openspiel:NAME or "
                   "openspiel:NAME(param=value,...); defaults shown):")
        for g in found["openspiel"]:
            params = ", ".join(f"{k}={_value(v)}" for k, v in g["parameters"].items())
            click.echo(f"  {g['ref']:<34} {g['title']}" + (f"  ({params})" if params else ""))
    if found["installed"]:
        click.echo("Installed packages' games (entry-point group evoplay.games):")
        for g in found["installed"]:
            click.echo(f"  {g['ref']:<12} {g['code']}")
    click.echo("Your own game: path/to/file.py:OBJ or package.module:OBJ (a class made with no arguments, "
               "or an instance); see the tutorial 'Your own game'.")
