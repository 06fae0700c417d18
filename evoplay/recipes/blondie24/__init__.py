"""Blondie24 (Chellapilla and Fogel 1999): evaluation networks at the leaves of alpha-beta, co-evolved."""
