"""Recipes: evolution algorithms built on the framework and the tic-tac-toe domain."""
