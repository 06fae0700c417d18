"""``evoplay serve``: the local web app."""

from __future__ import annotations

import sys
import threading
import webbrowser

import click

from evoplay.cli.group import cli
from evoplay.cli.checks import BoundedInt, PathArg, game_option
from evoplay.errors import EvoplayError


@cli.command()
@click.argument("paths", nargs=-1, type=PathArg())
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (this machine only by default).")
@click.option("--port", type=BoundedInt(0, 65535), default=8000, show_default=True, help="Port (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option("--quiet", is_flag=True, help="Do not log requests.")
@game_option("tictactoe and checkers; repeatable, each game named is played too", multiple=True)
def serve(paths, host, port, open_browser, quiet, games):
    """Play and inspect players in the browser.

    PATHS are what the app may read, and all it reads: run directories (their curve,
    champions and analysis), directories of player files, or player files. Players from
    anywhere else are refused.
    """
    try:
        from evoplay.web.app import GAMES, make_app, make_server
    except ModuleNotFoundError as e:
        raise EvoplayError(f"evoplay serve needs the {e.name!r} package: pip install {e.name}") from None
    from evoplay.web.roots import Roots

    roots = Roots(paths)
    app = make_app(roots, games)  # a bad game reference is refused before the server listens
    server = make_server(app, host, port, quiet)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{server.server_port}/"
    click.echo(f"evoplay serve: {url}  (Ctrl-C stops)")
    for root in roots.roots:
        click.echo(f"  reads {root.kind}: {root.given}")
    played = app.config[GAMES]  # what this server plays (evoplay.web.boards.Games)
    for name, ref in played.served.items():
        click.echo(f"  plays {name}" + (f" ({ref})" if ref != name else ""))
    for run in roots.runs:  # a run whose game is not played here: its champions cannot be played
        _, note = played.run_game(*roots.run_game(run))
        if note is not None:
            click.echo(f"  note: run {run.given} {note}", err=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"  note: listening on {host}, not only on this machine", err=True)
    sys.stdout.flush()
    if open_browser:
        threading.Timer(0.3, webbrowser.open, [url]).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("\nevoplay serve: stopped.")
    finally:
        server.server_close()
