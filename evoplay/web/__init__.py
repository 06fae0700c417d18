"""``evoplay serve``: a local web app to play players against each other and see what
evoplay knows about them (move probabilities, exact outcomes, minimax values, runs).

One board page plays every game (``boards``, drawn from what each game declares: ``pages``); the server is
stateless: the page holds the game (its start and moves) and the server replays it.
It reads no file outside the paths it was started with (``roots``). Each request's work
is bounded, because a client that gives up does not stop the thread answering it: at most
``boards.MAX_SIMS`` simulations for an ``mcts`` move, ``boards.MAX_ANALYSIS_DEPTH`` plies of
search in Python (a move or an analysis), ``boards.MAX_MOVES`` moves replayed; a request
asking for more is refused (400) in one line naming the bound. The API is documented in
docs/tutorials/web-app.md.
"""
