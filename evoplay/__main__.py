"""python -m evoplay: the command line."""

import importlib.util
import sys
from pathlib import Path

# Run from the folder that holds a checkout named ``evoplay``, ``python -m`` puts that
# folder first on the path and the checkout (no __init__.py at its top) shadows the
# package as an empty namespace package: load the real package in its place.
if getattr(sys.modules.get("evoplay"), "__file__", None) is None:
    _init = Path(__file__).resolve().with_name("__init__.py")
    _spec = importlib.util.spec_from_file_location("evoplay", _init, submodule_search_locations=[str(_init.parent)])
    _pkg = importlib.util.module_from_spec(_spec)
    sys.modules["evoplay"] = _pkg
    _spec.loader.exec_module(_pkg)

from evoplay.cli import main  # noqa: E402

main()
