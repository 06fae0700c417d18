"""What is the same for every game: the game protocol and its declared features (``game``),
players over it, alpha-beta search, MCTS, single games, matches, player specs, playout
throughput.

Nothing here imports Ray, the framework or any game: a game package supplies its own
features (evaluators, players, openings) on its game object.
"""
