"""What is the same for every game of the interface: players over it, single games, matches.

Nothing here imports Ray; a game package supplies its evaluators, spec names and openings.
"""
