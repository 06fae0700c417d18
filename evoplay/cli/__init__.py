"""The ``evoplay`` command line (click): ``main``, the entry point, and the commands.

The click group lives in ``evoplay.cli.group``; each command module registers its
commands there, and importing them below puts every command on ``cli``.
"""

from __future__ import annotations

import os
import sys

# One BLAS thread per process: evoplay parallelizes with Ray, and BLAS threads on top of
# Ray workers only oversubscribe the cores (set before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click  # noqa: E402

from evoplay import context  # noqa: E402
from evoplay.errors import EvoplayError  # noqa: E402
from evoplay.cli.group import cli  # noqa: E402


def fail(message: str, code: int = 2):
    """Print a one-line error and exit (2: bad usage or input, 1: other failures)."""
    click.echo(f"evoplay: error: {message}", err=True)
    sys.exit(code)


def main(argv=None):
    """Entry point: bad usage or input exits 2 with one line, no traceback."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        code = _invoke(argv)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        fail("aborted", 130)
    except click.exceptions.NoArgsIsHelpError as e:  # bare ``evoplay``: the help, as written
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.UsageError as e:
        fail(e.format_message().replace("\n", " "))
    except click.ClickException as e:
        fail(e.format_message().replace("\n", " "), e.exit_code)
    except EvoplayError as e:
        fail(str(e).replace("\n", " "))
    except KeyboardInterrupt:
        fail("interrupted", 130)
    # Without standalone mode click returns (rather than raises) a ctx.exit() code.
    sys.exit(code if isinstance(code, int) else 0)


def _invoke(argv):
    """Run the command ``argv`` names (default: ``sys.argv[1:]``) and return its result.

    A reader that closes our output early (``evoplay games | head -n 1``) ends the command
    quietly with exit 0: it took what it wanted, so that is no failure of evoplay (click's
    own ``main`` would exit 1 and say nothing).
    """
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        with context.use(), cli.make_context("evoplay", args) as ctx:  # one evoplay context a command
            code = cli.invoke(ctx)
        sys.stdout.flush()  # now, not at exit, where a closed pipe could no longer be told apart
        return code
    except EOFError as e:  # as click's main has it: end of input at a prompt aborts
        raise click.exceptions.Abort() from e
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush then writes nowhere
        sys.exit(0)


# Commands register themselves on ``cli`` when their modules are imported.
from evoplay.cli import play, run, train, bench, serve, report, figures, study, catalog  # noqa: E402,F401
