"""The checkers (English draughts) domain: rules, notation, compiled engine, players.

Nothing here imports Ray or the framework.
"""
