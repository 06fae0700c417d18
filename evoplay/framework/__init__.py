"""The generic framework: recipe interface, runner, streams, run directories, Ray, configs, curves.

Nothing here knows tic-tac-toe or any particular recipe.
"""
