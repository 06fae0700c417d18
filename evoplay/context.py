"""The context: what one command, server or Ray task has resolved and read, in one object.

A game reference resolves to one game object, a user's module is executed once and its
source kept (to ship to Ray workers and to tell a changed file), a tic-tac-toe player is
built once from its spec, a player file the driver read is handed to workers as data: all
of that lives in a ``Context``, never in a module's globals, so two servers in one process
share nothing, a test sees nothing an earlier one resolved unless it asks, and what travels
between calls is visible where it is made.

Who makes one: the command line makes a context per command (``evoplay.cli.main``), the web
app one per server (every request thread works in its server's), and the runner's Ray tasks
one per task (``evoplay.framework.runner``). Code running outside any of them (a user's
script calling the API, a test) works in its thread's own context, made on first use.
``use(ctx)`` makes ``ctx`` the current one for the block; ``current()`` gives it.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Context:
    """What this command, server or task has resolved and read."""

    #: game reference -> game object (a game resolved once is the same object after).
    games: dict = field(default_factory=dict)
    #: (game reference, recorded sha256) pairs already warned about as changed: one line each.
    warned: set = field(default_factory=set)
    #: While True, a game of user code must already be in ``games`` (a run's config is data).
    reading_data: bool = False
    #: While True, checking a config opens none of the player files it names (Blondie24's
    #: anchors, read when first played against): a run's config read as data, a finished run.
    files_unread: bool = False
    #: user module name -> (source text, file name) of every user module loaded here or shipped.
    sources: dict = field(default_factory=dict)
    #: tic-tac-toe player key (spec, or name and full parameters) -> the player built from it.
    players: dict = field(default_factory=dict)
    #: player file path -> its checked document, read by the driver and shipped to workers.
    player_files: dict = field(default_factory=dict)
    #: the folders of the configs being resolved (relative paths in a config are read from the last).
    config_bases: list[Path] = field(default_factory=list)
    #: what is built from player specs and files and kept for the next call: (kind, key...) -> value.
    built: dict = field(default_factory=dict)

    def cached(self, key: tuple, make):
        """``built[key]``, made by ``make()`` the first time this context asks for it."""
        if key not in self.built:
            self.built[key] = make()
        return self.built[key]


_CURRENT: contextvars.ContextVar[Context] = contextvars.ContextVar("evoplay_context")


def current() -> Context:
    """The context of this command, server or task; outside them, this thread's own, made on first use."""
    try:
        return _CURRENT.get()
    except LookupError:
        ctx = Context()
        _CURRENT.set(ctx)
        return ctx


@contextlib.contextmanager
def use(ctx: Context | None = None):
    """Within the block ``ctx`` (default: a new one) is the current context; it yields it."""
    ctx = Context() if ctx is None else ctx
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def reading_data():
    """Within it, what is read is data (a run's stored config): a game reference of user code
    that was not named (``--game``) is refused, as ``evoplay.games.resolve_data_game`` refuses
    it, and the player files a config names (Blondie24's anchors) are not opened."""
    ctx = current()
    before = ctx.reading_data, ctx.files_unread
    ctx.reading_data = ctx.files_unread = True
    try:
        yield
    finally:
        ctx.reading_data, ctx.files_unread = before


@contextlib.contextmanager
def finished_run():
    """Within it, a config is read for a run that has finished (a study variant that takes a
    run's trials): the player files it names (Blondie24's anchors) are not opened; its game
    is resolved as the config's game always is."""
    ctx = current()
    before, ctx.files_unread = ctx.files_unread, True
    try:
        yield
    finally:
        ctx.files_unread = before
