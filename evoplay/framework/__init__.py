"""The generic framework: recipe interface, runner, streams, run directories, Ray, configs,
studies, curves.

It knows no game and no recipe by import: a recipe is named by reference (the built-ins by
the entry-point group ``evoplay.recipes``, resolved in ``config``), and a recipe's game is
only a reference string here. ``distributed`` is the one module that imports Ray.
"""
