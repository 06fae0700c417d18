"""evoplay play commands."""

from . import cli  # noqa: F401
