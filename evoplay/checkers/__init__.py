"""Checkers (English draughts): rules and notation, the compiled engine and search, players,
the three-move ballots, its benchmark; ``game.CHECKERS`` is the game object.

Nothing here imports Ray, the framework or a recipe; Blondie24's networks reach the compiled
search through ``evoplay.networks``.
"""
