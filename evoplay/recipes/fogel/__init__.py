"""Fogel's 1993 evolutionary programming of tic-tac-toe networks."""
