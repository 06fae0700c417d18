"""Numbers a person writes on the command line and in player specs: plain ASCII decimals only.

Python's ``int`` and ``float`` read more than a decimal: surrounding blanks (``' 4'``),
a sign (``'+4'``), digit-group underscores (``'1_2'`` is 12) and any script's digits
(``'１２'``). A number read that way is not the one its reader saw, so evoplay reads
numbers here: an optional ``-`` (where the caller allows one), then ASCII digits, and for
a float a fraction and an exponent. Each caller names the option or parameter when it
refuses one.
"""

from __future__ import annotations

import re

#: An integer: ASCII digits, with a leading ``-`` where negatives are allowed.
_INT = re.compile(r"-?[0-9]+")
#: A float: ``12``, ``1.5``, ``.5``, ``5.``, each with an optional exponent (``1e-3``).
_FLOAT = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: The words ``float`` reads as NaN or an infinity: read so that callers refuse them by name
#: ("must be finite") rather than as "not a number".
_NON_FINITE = ("nan", "-nan", "inf", "-inf", "infinity", "-infinity")
#: Longest integer read, in characters: every count, seed and depth evoplay takes has at
#: most 20 digits, and ``int`` takes time quadratic in the length of its text.
MAX_INT_CHARS = 100


def parse_int(text: str, negative: bool = False) -> int:
    """``text`` as an int when it is a plain ASCII decimal of at most ``MAX_INT_CHARS``
    characters (a leading ``-`` only with ``negative``, and never before a zero); ValueError
    otherwise."""
    if not isinstance(text, str) or not _INT.fullmatch(text) or (text[0] == "-" and not negative):
        raise ValueError(f"not a plain decimal integer: {text!r:.40}")
    if len(text) > MAX_INT_CHARS:
        raise ValueError(f"an integer of {len(text)} characters, more than {MAX_INT_CHARS}")
    number = int(text)
    if number == 0 and text[0] == "-":
        raise ValueError("-0 is not a plain way to write 0")
    return number


def parse_float(text: str) -> float:
    """``text`` as a float when it is a plain ASCII decimal (``-``, digits, a fraction, an
    exponent) or a word for NaN or an infinity (which the caller refuses by name); ValueError
    otherwise. A decimal beyond the float range reads as an infinity."""
    if not isinstance(text, str) or not (_FLOAT.fullmatch(text) or text.lower() in _NON_FINITE):
        raise ValueError(f"not a plain decimal number: {text!r:.40}")
    return float(text)
