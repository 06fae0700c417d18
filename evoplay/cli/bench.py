"""evoplay bench commands."""

from . import cli  # noqa: F401
