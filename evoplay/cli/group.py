"""The ``evoplay`` click group: every command module registers its commands on ``cli``."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="evoplay")
def cli():
    """Evolve, train, analyse and play players of any two-player game on DEAP and Ray:
    tic-tac-toe and checkers built in, OpenSpiel's games, or your own (evoplay games lists them)."""
