"""Recipes: evolution algorithms built on the framework (``evoplay.framework``) and the games.

One recipe to a module or folder: Fogel's 1993 networks (``fogel/``), the GA value net, exact
fitness, self-adaptive mutation, co-evolution, Blondie24 (``blondie24/``) and MAP-Elites
(``map_elites/``). Configs name the built-ins by the names in evoplay's entry-point group
``evoplay.recipes`` (``fogel``, ``blondie24``, ...); a user's recipe by a code reference
(``package.module:Name`` or ``path/to/file.py:Name``).
"""
