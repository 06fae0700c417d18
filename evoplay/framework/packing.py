"""Float arrays of checkpoint data stored exactly and compactly: the packing of checkpoint format 2.

A recipe's ``to_data`` gives its state as plain JSON data; writing each weight as decimal
text (``repr``) is most of what a checkpoint costs the driver (a Fogel trial's 10,000
floats, about 5 ms at every segment's end). ``pack`` stores every list of at least
``MIN_FLOATS`` floats (a nested, rectangular list of floats too: a weight matrix) and
every float64 numpy array as a tagged object holding the little-endian float64 bytes in
base64::

    {"$array": "f8", "shape": [10, 10], "b64": "..."}

and ``unpack`` gives the very lists back (a numpy array comes back as its ``tolist()``), so
recipes read the state of a version-2 checkpoint as they read one of version 1. Floats
keep their bits (-0.0 too); ints, bools, short lists and lists that mix types stay JSON.
Like the JSON of a version-1 checkpoint, a packed array holds no NaN or infinity.
"""

from __future__ import annotations

import binascii
import math
import sys
from itertools import chain

import numpy as np

#: The tag that marks a packed array; a recipe's own dicts may not use it as a key.
TAG = "$array"
#: The one element type packed arrays hold: little-endian IEEE 754 binary64.
DTYPE = "f8"
#: Shorter float lists stay JSON (a tagged object costs about 40 characters).
MIN_FLOATS = 16
#: Dimensions a packed array may have.
MAX_NDIM = 32

_FLOAT = {float}
_LIST = {list}
_NATIVE = sys.byteorder == "little"
_KEYS = {TAG, "shape", "b64"}
_LE = np.dtype("<f8")


def _leaves(v: list):
    """(shape, leaves in row-major order) when ``v`` is a rectangular nesting of lists whose leaves
    are all floats, else None. One pass of C loops per level: this is most of what packing costs."""
    shape, level = [len(v)], v
    while True:
        types = set(map(type, level))
        if types == _FLOAT:
            return shape, level
        if types != _LIST or len(shape) == MAX_NDIM:
            return None
        sizes = set(map(len, level))
        if len(sizes) != 1 or 0 in sizes:
            return None
        shape.append(sizes.pop())
        level = list(chain.from_iterable(level))


def _packed(a: np.ndarray, shape) -> dict:
    if not np.isfinite(a).all():
        raise ValueError("Out of range float values are not JSON compliant")  # as json.dumps(allow_nan=False) says
    if not _NATIVE:
        a = a.astype(_LE)
    return {TAG: DTYPE, "shape": list(shape), "b64": binascii.b2a_base64(a.tobytes(), newline=False).decode("ascii")}


def pack(obj):
    """``obj`` (plain JSON data, numpy float64 arrays allowed) with its float arrays packed: JSON-ready."""
    t = type(obj)
    if t is dict:
        if TAG in obj:
            raise ValueError(f"a dict of checkpoint data has the key {TAG!r}, which marks packed arrays")
        return {k: pack(v) for k, v in obj.items()}
    if t is list:
        if obj:
            found = _leaves(obj)
            if found is not None and len(found[1]) >= MIN_FLOATS:
                return _packed(np.array(found[1], dtype=np.float64), found[0])
        return [pack(v) for v in obj]
    if t is tuple:  # JSON writes a tuple as a list
        return pack(list(obj))
    if isinstance(obj, np.ndarray):
        if obj.dtype == np.float64 and obj.ndim >= 1:
            return _packed(obj, obj.shape)
        return pack(obj.tolist())
    return obj


def _unpacked(d: dict) -> list:
    """The nested lists of a packed array, every part checked (ValueError saying what is wrong)."""
    if set(d) != _KEYS:
        raise ValueError(f"a packed array is a table of exactly {TAG!r}, 'shape' and 'b64'")
    if d[TAG] != DTYPE:
        raise ValueError(f"a packed array has element type {str(d[TAG])[:20]!r}, not {DTYPE!r}")
    shape = d["shape"]
    if (type(shape) is not list or not 1 <= len(shape) <= MAX_NDIM
            or not all(type(n) is int and 0 <= n < 1 << 40 for n in shape)):
        raise ValueError(f"a packed array's shape is not a list of 1 to {MAX_NDIM} sizes")
    text = d["b64"]
    if type(text) is not str:
        raise ValueError("a packed array's 'b64' is not a string")
    size = math.prod(shape)
    if len(text) != 4 * -(-8 * size // 3):
        raise ValueError(f"a packed array's base64 is {len(text)} characters, not the {4 * -(-8 * size // 3)} of shape {shape}")
    try:
        raw = binascii.a2b_base64(text, strict_mode=True)
    except (binascii.Error, ValueError) as e:
        raise ValueError(f"a packed array's base64 is malformed ({e})") from None
    if len(raw) != 8 * size:
        raise ValueError(f"a packed array holds {len(raw)} bytes, not the {8 * size} of shape {shape}")
    a = np.frombuffer(raw, dtype=_LE)
    if not np.isfinite(a).all():
        raise ValueError("a packed array holds a non-finite number (NaN or infinity)")
    return a.reshape(shape).tolist()


class Malformed(ValueError):
    """A malformed packed array; its message ends with where it is (``at state.parents[3].w1``)."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what, self.where = what, []

    def __str__(self):
        return f"{self.what} (at {''.join(reversed(self.where)).lstrip('.') or 'the top'})"


def unpack(obj, name: str = ""):
    """The plain data of packed ``obj``: each packed array as the nested lists of floats it was.

    A malformed packed array raises ``Malformed`` (a ValueError) saying what is wrong and
    where, under ``name`` (say ``"state"``).
    """
    try:
        return _unpack(obj)
    except Malformed as e:
        e.where.append(name)
        raise


def _unpack(obj):
    t = type(obj)
    if t is dict:
        if TAG in obj:
            try:
                return _unpacked(obj)
            except ValueError as e:
                raise Malformed(str(e)) from None
        out = {}
        for k, v in obj.items():
            try:
                out[k] = _unpack(v)
            except Malformed as e:
                e.where.append(f".{k}")
                raise
        return out
    if t is list:
        out = []
        for i, v in enumerate(obj):
            try:
                out.append(_unpack(v))
            except Malformed as e:
                e.where.append(f"[{i}]")
                raise
        return out
    return obj
