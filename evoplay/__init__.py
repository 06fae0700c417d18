"""evoplay: distributed evolutionary computation on DEAP and Ray.

Its reference application is Fogel's 1993 tic-tac-toe neuroevolution experiment.
"""

__version__ = "0.1.0"
