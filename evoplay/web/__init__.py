"""``evoplay serve``: a local web app to play players against each other and see what
evoplay knows about them (move probabilities, exact outcomes, minimax values, runs).

The server is stateless: the page holds the game and asks the JSON API about positions.
It reads no file outside the paths it was started with (``roots``).
"""
