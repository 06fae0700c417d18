"""What a worker of an embedded Ray cluster imports as it boots, before it takes work.

Ray's ``preload_python_modules`` names this module: the raylet starts its workers as it
starts, and they import it while the driver still waits for the node, so a run's first
tasks find the framework imported and numba's compiler context loaded (about 0.4 s of a
worker's first task otherwise).
"""

from __future__ import annotations

import evoplay.framework.runner  # noqa: F401  (what a task runs)
from evoplay.networks.arithmetic import lanes

lanes(1)  # numba loads its compiler context with a process's first compiled call
