"""TDLeaf(lambda): evaluation networks trained by temporal differences through the search."""
