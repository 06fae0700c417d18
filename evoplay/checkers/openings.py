"""The committed opening positions checkers matches start from: the three-move ballots.

Each ballot is replayed with the rules when the file is read, so a bad or tampered file is
refused with a message naming the ballot.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from evoplay.files import jsondata
from evoplay.checkers import rules
from evoplay.errors import EvoplayError

PATH = Path(__file__).with_name("openings.json")
FORMAT, VERSION = "evoplay-checkers-openings", 1


def read_openings(path=PATH) -> list[tuple[str, rules.State]]:
    """``(ballot, state)`` for every opening of a file, in file order."""
    try:
        doc = jsondata.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise EvoplayError(f"openings file {path}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise EvoplayError(f"openings file {path}: not a {FORMAT} file of version {VERSION}")
    items = doc.get("openings")
    if not isinstance(items, list) or not items:
        raise EvoplayError(f"openings file {path}: 'openings' must be a non-empty list")
    out = []
    for item in items:
        if not isinstance(item, dict) or set(item) != {"ballot", "moves"} or not all(isinstance(v, str) for v in item.values()):
            raise EvoplayError(f"openings file {path}: each opening is {{'ballot': str, 'moves': str}}, got {item!r:.60}")
        state = rules.initial()
        for text in item["moves"].split():
            try:
                state = rules.apply(state, rules.parse_move(state, text))
            except ValueError as e:
                raise EvoplayError(f"openings file {path}: ballot {item['ballot']}: {e}") from None
        out.append((item["ballot"], state))
    return out


@lru_cache(maxsize=1)
def ballots() -> tuple:
    """The three-move ballots shipped with evoplay."""
    return tuple(read_openings())
