"""evoplay games and evoplay players: every game one can name, with how to name it and its
defaults, and every player one can name for a game, with its parameters and their defaults."""

from __future__ import annotations

import importlib
import inspect
import json

import click

from evoplay.cli.group import cli


#: What a game declares for matches and play (``evoplay.arena.game.FEATURES``): the default of
#: ``match``/``tournament --games``, of ``game --vs``, and whether ``--exact`` is possible.
MATCH_FEATURES = ("match_games", "default_opponent", "exact")


def _match_defaults(game) -> dict:
    """What ``game`` declares for matches and play (``MATCH_FEATURES``), or the defaults."""
    from evoplay.arena.game import capability

    return {key: capability(game, key) for key in MATCH_FEATURES}


def _defaults_text(found: dict) -> str:
    """A game's match defaults in words: games per pairing, exact or not, its computer player."""
    exact = ", exact with --exact" if found["exact"] else ""
    return f"{found['match_games']} games per pairing{exact}; computer player {found['default_opponent']}"


def catalog() -> dict:
    """The games one can name: built-ins (with their titles and what they declare for matches:
    games per pairing, the computer player, an exact analysis), OpenSpiel's eligible games with
    their parameters and defaults (when open_spiel is installed), installed packages' entry
    points, how to name a file of one's own, and what a game that declares nothing gets."""
    from evoplay.arena.game import FEATURES, capability
    from evoplay.games import BUILTIN_GAMES, ENTRY_POINT_GROUP, OPENSPIEL_PREFIX, resolve_game
    from evoplay.files import usercode

    builtin = []
    for name in BUILTIN_GAMES:
        game = resolve_game(name)
        builtin.append({"ref": name, "title": capability(game, "title") or name, **_match_defaults(game)})
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
            "own": ["path/to/file.py:OBJ", "package.module:OBJ"],
            "any_game": {key: FEATURES[key].default for key in MATCH_FEATURES}}


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
    click.echo("Built-in games (the defaults of match and tournament --games, of game --vs):")
    for g in found["builtin"]:
        click.echo(f"  {g['ref']:<12} {g['title']:<13} {_defaults_text(g)}")
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
    click.echo(f"Any other game: {_defaults_text(found['any_game'])}, unless the game declares its own "
               "(match_games, default_opponent, exact).")
    click.echo("Your own game: path/to/file.py:OBJ or package.module:OBJ (a class made with no arguments, "
               "or an instance); see the tutorial 'Your own game'.")


def _words(factory) -> str:
    """The first paragraph of a player factory's docstring (a partial's function's, a class's), as plain text."""
    doc = inspect.getdoc(getattr(factory, "func", factory)) or ""
    return " ".join(doc.split("\n\n")[0].split()).replace("``", "")


def player_entry(name: str, factory, schema: dict) -> dict:
    """One player spec of a listing: its name, its spec with every parameter at its default,
    what it does, and each parameter's default and allowed values."""
    from evoplay.arena.players import format_spec

    signature = inspect.signature(factory).parameters
    defaults = {key: signature[key].default for key in schema if key in signature}
    parameters = {key: {"default": defaults.get(key), "allowed": getattr(check, "allowed", kind.__name__)}
                  for key, (kind, check) in schema.items()}
    return {"name": name, "spec": format_spec(name, defaults), "about": _words(factory), "parameters": parameters}


def player_catalog(game=None) -> dict:
    """The players one can name: every game's (``random``, ``mcts``, ``alpha-beta``) and, for
    ``game``, its own (its declared ``players``), each as ``player_entry`` says."""
    from evoplay.arena.game import capability, game_ref
    from evoplay.arena.specs import common

    every = [player_entry(name, factory, schema) for name, (factory, schema) in common(game).items()]
    own = [] if game is None else [player_entry(name, factory, schema)
                                   for name, (factory, schema) in dict(capability(game, "players")).items()]
    return {"game": None if game is None else game_ref(game), "every_game": every, "own": own}


def _player_lines(entries: list[dict]) -> list[str]:
    lines = []
    for entry in entries:
        lines.append(f"  {entry['spec']}")
        lines.append(f"      {entry['about']}" if entry["about"] else "")
        if entry["parameters"]:
            lines.append("      " + "; ".join(f"{key} {p['allowed']}" for key, p in entry["parameters"].items()))
    return [line for line in lines if line]


@cli.command()
@click.option("--game", "game_name", default=None, metavar="REF",
              help="Also list this game's own players (any game reference; evoplay games lists them).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def players(game_name, as_json):
    """List the player specs match, tournament, game and configs take: every game's, and with --game a game's own.

    A spec is NAME or NAME:key=value,... (a parameter left out takes its default, as shown);
    a player file or a run directory (its champion) is a player too.
    """
    from evoplay.games import resolve_game

    found = player_catalog(None if game_name is None else resolve_game(game_name))
    if as_json:
        click.echo(json.dumps(found, indent=1))
        return
    click.echo("Every game's players (NAME or NAME:key=value,...; shown with every parameter at its default):")
    click.echo("\n".join(_player_lines(found["every_game"])))
    if found["game"] is not None:
        own = found["own"]
        click.echo(f"Players of {found['game']} only:" if own else f"{found['game']} has no players of its own.")
        if own:
            click.echo("\n".join(_player_lines(own)))
    else:
        click.echo("A game's own players: evoplay players --game REF.")
    click.echo("Player files: PATH.json (a player file names its game), or RUN_DIR for a run's champion; "
               "human: you, at the terminal (evoplay game).")
