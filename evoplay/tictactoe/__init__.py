"""Tic-tac-toe: rules as tables over base-3 codes, a batched engine, every player as a move
distribution, exact analysis over the game tree, gradient-trained players (``trained/``).

Nothing here imports Ray, the framework or a recipe: algorithms receive a ``map`` callable,
and player files are read through ``evoplay.files.playerfile``.
"""
