"""python -m evoplay: the command line."""

from .cli import main

main()
