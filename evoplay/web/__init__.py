"""``evoplay serve``: a local web app to play players against each other and see what
evoplay knows about them (move probabilities, exact outcomes, minimax values, runs).

One board page plays every game (``boards``, with each game's ``WebGame``); the server is
stateless: the page holds the game (its start and moves) and the server replays it.
It reads no file outside the paths it was started with (``roots``).
"""
