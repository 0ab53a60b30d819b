"""Binary arrays of the protocol: ``{"dtype", "shape", "b64"}`` objects, little-endian.

With numpy installed (and ``MEEPLEKIT_NO_NUMPY`` unset or ``0``), arrays decode to numpy arrays of
their shape. Without it, a one-dimensional array decodes to an ``array.array`` and an array of more
dimensions to a list (its first axis) of flat ``array.array`` rows.
"""

from __future__ import annotations

import array
import base64
import os
import sys
from typing import Any, List, Sequence

from . import _checks

np: Any = None
if os.environ.get("MEEPLEKIT_NO_NUMPY", "") in ("", "0"):
    try:
        import numpy as np  # type: ignore[no-redef]
    except ImportError:  # pragma: no cover - depends on the environment
        np = None

HAVE_NUMPY = np is not None
"""Whether the client returns numpy arrays (numpy importable and not disabled)."""


def _int32_code() -> str:
    for code in ("i", "l"):
        if array.array(code).itemsize == 4:
            return code
    raise RuntimeError("no 32-bit integer type in array")  # pragma: no cover


_TYPECODES = {"float32": "f", "uint8": "B", "int32": _int32_code(), "float64": "d"}
_NP_DTYPES = {"float32": "<f4", "uint8": "u1", "int32": "<i4", "float64": "<f8"}
_BIG_ENDIAN = sys.byteorder == "big"


def is_binary(value: Any) -> bool:
    return isinstance(value, dict) and "b64" in value and "dtype" in value


def decode(value: Any) -> Any:
    """Decodes a binary array object (anything else, a plain JSON list, is returned as it is)."""
    if not is_binary(value):
        return value
    dtype = value["dtype"]
    shape = [int(n) for n in value.get("shape", [])]
    raw = base64.b64decode(value["b64"])
    if dtype not in _TYPECODES:
        raise ValueError(f"unknown dtype {dtype!r} in a binary array")
    if HAVE_NUMPY:
        out = np.frombuffer(raw, dtype=_NP_DTYPES[dtype]).astype(_NP_DTYPES[dtype].replace("<", "="), copy=True)
        return out.reshape(shape) if shape else out
    flat = array.array(_TYPECODES[dtype])
    flat.frombytes(raw)
    if _BIG_ENDIAN and flat.itemsize > 1:  # pragma: no cover - no big-endian CI machine
        flat.byteswap()
    if len(shape) <= 1:
        return flat
    rows = shape[0]
    width = len(flat) // rows if rows else 0
    return [flat[i * width:(i + 1) * width] for i in range(rows)]


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def encode_int32(values: Any, name: str = "values") -> Any:
    """An int32 binary array object of a sequence of integers (``int`` or numpy integers, each
    taken as :func:`_checks.index` takes it) or of a one-dimensional numpy array of an integer
    dtype. A float or a bool raises ``TypeError``, an array of another dimension ``ValueError``.
    Values outside int32 are not wrapped around: the plain JSON list of the ints is returned
    instead, for the server to refuse with its own code."""
    if HAVE_NUMPY and isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
        if values.dtype.kind not in "iu":
            raise TypeError(f"{name} must be integers, got an array of dtype {values.dtype}")
        if values.size and (int(values.min()) < _INT32_MIN or int(values.max()) > _INT32_MAX):
            return [int(v) for v in values.tolist()]
        data = np.ascontiguousarray(values, dtype="<i4")
        return {"dtype": "int32", "shape": [int(data.size)], "b64": base64.b64encode(data.tobytes()).decode("ascii")}
    ints = [v if type(v) is int else _checks.index(v, f"{name}[{i}]") for i, v in enumerate(values)]
    if any(v < _INT32_MIN or v > _INT32_MAX for v in ints):
        return ints
    arr = array.array(_TYPECODES["int32"], ints)
    if _BIG_ENDIAN:  # pragma: no cover
        arr.byteswap()
    return {"dtype": "int32", "shape": [len(arr)], "b64": base64.b64encode(arr.tobytes()).decode("ascii")}


def to_list(values: Any) -> List[Any]:
    """A plain list of a decoded array, a JSON list or a numpy array (first axis)."""
    if HAVE_NUMPY and isinstance(values, np.ndarray):
        return values.tolist()
    return list(values)


def mask_of(actions: Sequence[int], size: int) -> Any:
    """A uint8 mask of ``size`` entries with 1 at each of ``actions``."""
    if HAVE_NUMPY:
        mask = np.zeros(size, dtype=np.uint8)
        if len(actions):
            mask[np.asarray(actions, dtype=np.int64)] = 1
        return mask
    mask = array.array("B", bytes(size))
    for a in actions:
        mask[a] = 1
    return mask


def split(flat: Any, offsets: Any) -> List[Any]:
    """Splits a flat array by ``offsets`` (``len(offsets) == n + 1``) into ``n`` slices."""
    offs = to_list(offsets)
    return [flat[offs[i]:offs[i + 1]] for i in range(len(offs) - 1)]
