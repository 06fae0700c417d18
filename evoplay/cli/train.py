"""evoplay train commands."""

from . import cli  # noqa: F401
