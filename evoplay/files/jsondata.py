"""JSON data files read with bounds on their numbers, as on their sizes.

Python's ``json`` reads an integer of any length (and one of more than 4,300 digits ends
in a ``ValueError`` from ``int``), a float beyond the float range as an infinity, and the
non-standard words ``NaN``, ``Infinity`` and ``-Infinity``. No file evoplay writes holds
any of those, so each is refused here, in one line naming the file: every reader of player
files, run summaries, checkpoints and report files goes through ``loads`` or ``read_json``.
"""

from __future__ import annotations

import json
import math

from evoplay.errors import EvoplayError
from evoplay.files.paths import check_path, read_regular

#: Longest number read, in characters: evoplay writes none longer than about 25 (a float's
#: shortest repr, a 64-bit seed), and ``int`` takes time quadratic in the digits it reads.
MAX_NUMBER_CHARS = 100


class NumberError(ValueError):
    """A number in JSON data that evoplay does not read (its text says which, in a few words)."""


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS} are read)")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError(f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS} are read)")
    value = float(text)
    if math.isinf(value):
        raise NumberError(f"the number {text}, beyond the float range")
    return value


def _constant(word: str):
    raise NumberError(f"{word}, which is not a number JSON knows")


def loads(text: str):
    """The JSON value of ``text``; ``NumberError`` for a number longer than ``MAX_NUMBER_CHARS``,
    beyond the float range, or written ``NaN``/``Infinity``; ``json.JSONDecodeError`` and
    ``RecursionError`` as ``json.loads`` raises them."""
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)


def read_json(path, what: str, max_bytes: int, error=EvoplayError):
    """The JSON value in the file ``path``; a missing, special, oversized or malformed file,
    or one holding a number ``loads`` refuses, raises ``error`` with one line naming ``what``,
    the file and the problem."""
    path = check_path(path, what, error)
    data = read_regular(path, what, max_bytes, error)
    try:
        return loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise error(f"{what} {path} is not UTF-8 text: {e.reason} at byte {e.start}") from None
    except NumberError as e:
        raise error(f"{what} {path} holds {e}") from None
    except json.JSONDecodeError as e:
        raise error(f"{what} {path} is not valid JSON: {e}") from None
    except RecursionError:
        raise error(f"{what} {path} is not valid JSON: nested too deeply") from None
