"""Recipes: evolution algorithms built on the framework and the tic-tac-toe domain.

Built-in recipes are named in configs by these names; user recipes by a code reference
(``package.module:Name`` or ``path/to/file.py:Name``).
"""

from evoplay.framework.config import BUILTIN_RECIPES

BUILTIN_RECIPES.update({
    "fogel": "evoplay.recipes.fogel.recipe:FogelRecipe",
    "ga-value-net": "evoplay.recipes.ga_value_net:GAValueNetRecipe",
    "fogel-exact": "evoplay.recipes.exact_fitness:ExactFogelRecipe",
    "fogel-selfadaptive": "evoplay.recipes.selfadaptive:SelfAdaptiveRecipe",
    "coevolution": "evoplay.recipes.coevolution:CoevolutionRecipe",
    "blondie24": "evoplay.recipes.blondie24.recipe:Blondie24Recipe",
    "map-elites": "evoplay.recipes.map_elites.recipe:MapElitesRecipe",
})
