"""A run stopped once its first segment has landed, as a killed driver leaves it: for resume tests.

``python -c STOPPER CONFIG OUT WORKERS`` runs ``evoplay.run`` with a progress bar that
raises at its second update and prints ``stopped``.
"""

STOPPER = """
import sys
import evoplay

class Stop(Exception):
    pass

class StopAtFirstLanding:  # a progress bar that stops the run once a segment has landed
    def reset(self, total):
        self.calls = 0
    def update(self, n):
        self.calls += 1
        if self.calls > 1:
            raise Stop
    def set_postfix_str(self, text):
        pass

try:
    evoplay.run(sys.argv[1], sys.argv[2], workers=int(sys.argv[3]), progress=StopAtFirstLanding())
except Stop:
    print("stopped")
"""
