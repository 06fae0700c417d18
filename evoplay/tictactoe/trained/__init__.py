"""Gradient-trained tic-tac-toe players: ``value_net`` (self-play value learning) and
``outcome_net`` (supervised on random games), on what they share (``common``)."""
