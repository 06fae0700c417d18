"""MAP-Elites over how Fogel's networks play: an archive with one elite per behaviour, judged exactly."""
