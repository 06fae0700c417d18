"""Evaluation networks and their fixed-order arithmetic (the same bits on every CPU)."""
