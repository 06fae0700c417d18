"""evoplay run commands."""

from . import cli  # noqa: F401
