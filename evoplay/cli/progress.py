"""A sign of life for long work on the command line: a tqdm bar on stderr over the games a
command plays, shown only once the work has lasted a while.

Short commands print nothing. At a terminal the bar appears after ``TTY_DELAY`` seconds;
for a script or a log (stderr not a terminal), after ``LOG_DELAY`` seconds, redrawn at most
every ``LOG_INTERVAL`` seconds, so a log gains a line now and then rather than a stream. A
heartbeat redraws the bar every second while a single move thinks (a deep search, many
simulations), so its clock runs even between games; tqdm's rate gives the estimate of
the time left.
"""

from __future__ import annotations

import sys
import threading

#: Seconds of work before the bar shows: at a terminal, and in a log.
TTY_DELAY = 1.0
LOG_DELAY = 30.0
#: Least seconds between two redraws in a log.
LOG_INTERVAL = 30.0
#: Seconds between heartbeat redraws.
HEARTBEAT = 1.0


class Progress:
    """``with Progress(total) as progress:`` ``progress(n)`` after ``n`` more games; None
    (no bar) for no games. ``file`` is where the bar goes (stderr)."""

    def __init__(self, total: int | None, unit: str = "game", file=None):
        self.total, self.unit, self.file = total or 0, unit, file or sys.stderr
        self.bar = None
        self._stop = threading.Event()
        self._beat = None

    def __enter__(self):
        if self.total <= 0:
            return None
        from tqdm import tqdm

        tty = hasattr(self.file, "isatty") and self.file.isatty()
        self.bar = tqdm(total=self.total, unit=self.unit, unit_scale=self.total >= 1000, leave=False, file=self.file, dynamic_ncols=True,
                        delay=TTY_DELAY if tty else LOG_DELAY, mininterval=0.1 if tty else LOG_INTERVAL)
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()
        return self.update

    def update(self, n: int) -> None:
        self.bar.update(n)

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            self.bar.update(0)  # tqdm redraws (after its delay, within its mininterval): the clock runs

    def __exit__(self, *exc):
        if self.bar is not None:
            self._stop.set()
            self._beat.join()
            self.bar.close()
