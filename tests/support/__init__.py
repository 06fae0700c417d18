"""Helpers that several test files share, imported by module like tests/raycluster.py
(pytest puts tests/ on ``sys.path``, as it does for any ``conftest.py`` folder without an
``__init__.py``): ``from support.cli import refused``.

- ``support.cli``: ``evoplay`` run in this process (``run_in_process``), what a refusal must
  look like (``problem``, ``refused``) and the scratch material the command-line tests
  damage (``FuzzEnv``, its ``env`` fixture).
- ``support.nowork``: checks without a clock that a command refused before its work: a
  call it must not make, Ray never started, a file never opened, input not read through.
- ``support.runs``: ``evoplay`` in a process of its own, a run directory's files, and a
  committed ``td-leaf`` run's first steps made again.
- ``support.games``: positions from random games, hand-made tic-tac-toe networks.
- ``support.web``: a real server of the web app and requests to it (``serving``, ``ok``,
  ``refused``), the player files and run directory it is given.
"""
