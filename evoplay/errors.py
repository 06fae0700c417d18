"""Errors that the command line turns into a one-line message and exit code 2."""


class EvoplayError(Exception):
    """Bad usage or bad input: a player spec, a config, a player file, an argument."""


class SpecError(EvoplayError):
    """A player spec string that names no player or carries bad parameters."""


class ConfigError(EvoplayError):
    """A config file with an unknown key, a wrong type or an out-of-range value."""


class GameError(EvoplayError):
    """A game reference that names no game, an object that is not one, or a game that breaks
    the game protocol."""


class PlayerFileError(EvoplayError):
    """A player file that is missing, malformed or tampered with."""
