"""python -m evoplay: the command line."""

from evoplay.cli import main

main()
