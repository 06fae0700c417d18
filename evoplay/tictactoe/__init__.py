"""The tic-tac-toe domain: rules, batched engine, players, exact analysis, player files.

Nothing here imports Ray or the framework: algorithms receive a ``map`` callable.
"""
