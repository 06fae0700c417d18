"""The ``evoplay`` click group: every command module registers its commands on ``cli``."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="evoplay")
def cli():
    """Evolve, train, analyse and play tic-tac-toe players on DEAP and Ray."""
