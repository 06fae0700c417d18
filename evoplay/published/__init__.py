"""Reproductions of published figures around evoplay's players ("seed" sources).

- ``gibson``: softmax-minimax win probabilities and first-move scores against O's temperature;
- ``valuenet_settings``: the self-play value net's training settings, compared by curves;
- ``seed003``: a faithful model of a published outcome-net program (full-board games,
  Keras label columns), kept apart from evoplay's correct ``outcome-net``.

Each module computes its figures and writes them to a results folder; ``evoplay figures``
runs them.
"""
