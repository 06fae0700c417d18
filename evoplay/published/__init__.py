"""Reproductions of published programs' figures around evoplay's players (``evoplay figures NAME``).

- ``gibson`` (``gibson``): Gibson's softmax-minimax page, win probabilities and first-move
  scores against O's temperature;
- ``value_net_tutorial`` (``value-net-tutorial``): a value-net tutorial's training settings,
  compared by their learning curves;
- ``keras_outcome_net`` (``keras-outcome-net``): a faithful model of a published Keras
  outcome-net program (full-board games, Keras label columns), kept apart from evoplay's
  correct ``outcome-net``; ``keras_outcome_net_report`` holds its comparison with the
  published figures;
- ``baselines``: the exact tournament of evoplay's trained players;
- ``common``: figures, JSON and Markdown written atomically.

Each computes its figures and writes them to ``results/NAME``.
"""
