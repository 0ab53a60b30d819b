"""Binary arrays of the protocol: ``{"dtype", "shape", "b64"}`` objects, little-endian.

With numpy installed (and ``MEEPLEKIT_NO_NUMPY`` unset or ``0``), arrays decode to numpy arrays of
their shape. Without it, a one-dimensional array decodes to an ``array.array`` and an array of more
dimensions to a list (its first axis) of flat ``array.array`` rows.
"""

from __future__ import annotations

import array
import base64
import math
import os
import sys
from typing import Any, List, Optional, Sequence

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


_ITEMSIZES = {"float32": 4, "uint8": 1, "int32": 4, "float64": 8}


def is_binary(value: Any) -> bool:
    """Whether ``value`` is a binary array object (has ``dtype`` and ``b64``, or ``dtype`` and
    ``data``: the bytes of a binary frame, or a read-only view of a shared-memory segment, put in
    place by the client)."""
    return isinstance(value, dict) and ("b64" in value or "data" in value) and "dtype" in value


def byte_size(dtype: Any, shape: Any) -> Optional[int]:
    """The bytes an array of ``dtype`` and ``shape`` needs; None when either is not one."""
    if not isinstance(dtype, str) or dtype not in _ITEMSIZES:
        return None
    if not isinstance(shape, list) or not shape or any(type(n) is not int or n < 0 for n in shape):
        return None
    return math.prod(shape) * _ITEMSIZES[dtype]


def decode(value: Any, what: str = "an array", dtypes: Optional[Sequence[str]] = None) -> Any:
    """Decodes a binary array object (anything else, a plain JSON list, is returned as it is);
    see :func:`decode_binary`."""
    if not is_binary(value):
        return value
    return decode_binary(value, what, dtypes)


def decode_binary(
    value: Any,
    what: str = "an array",
    dtypes: Optional[Sequence[str]] = None,
    shape: Optional[Sequence[Optional[int]]] = None,
) -> Any:
    """Decodes the binary array object ``value`` (``what`` names it in errors). It must be one:
    a known ``dtype`` (one of ``dtypes`` when given), a ``shape`` of non-negative integers (of
    ``shape``'s length, and equal to its entries that are not None, when given) and standard
    base64 of exactly as many bytes as the shape needs. Anything else raises :class:`ServerError`
    with code ``client/bad-response``."""
    if not is_binary(value):
        raise _checks.bad(f"{what} is not a binary array object", value)
    dtype = value["dtype"]
    if not isinstance(dtype, str) or dtype not in _TYPECODES or (dtypes is not None and dtype not in dtypes):
        expected = ", ".join(dtypes if dtypes is not None else _TYPECODES)
        raise _checks.bad(f"{what} has the dtype {dtype!r}, not one of {expected}", show=False)
    dims = value.get("shape")
    if not isinstance(dims, list) or not dims or any(type(n) is not int or n < 0 for n in dims):
        raise _checks.bad(f"{what} has no shape of non-negative integers", dims)
    if shape is not None and (len(dims) != len(shape) or any(e is not None and e != n for e, n in zip(shape, dims))):
        want = "[" + ", ".join("*" if e is None else str(e) for e in shape) + "]"
        raise _checks.bad(f"{what} has the shape {dims}, not {want}", show=False)
    framed = "data" in value
    if framed:
        raw = value["data"]
        if not isinstance(raw, (bytes, bytearray, memoryview)):
            raise _checks.bad(f"{what} has a 'data' that is not bytes", show=False)
    else:
        b64 = value["b64"]
        if not isinstance(b64, str):
            raise _checks.bad(f"{what} has a 'b64' that is not a string", b64)
        try:
            raw = base64.b64decode(b64, validate=True)
        except ValueError:  # binascii.Error, or characters that are not ASCII
            raise _checks.bad(f"{what} has a 'b64' that is not base64", b64) from None
    if len(raw) != math.prod(dims) * _ITEMSIZES[dtype]:
        raise _checks.bad(f"{what} has {len(raw)} bytes, not the {math.prod(dims) * _ITEMSIZES[dtype]} of {dtype} {dims}", show=False)
    if HAVE_NUMPY:
        out = np.frombuffer(raw, dtype=_NP_DTYPES[dtype])
        # A frame's bytearray is the array's own (viewed, not copied, and writable); a view of
        # shared memory is viewed too, read-only (the server writes its slot again later);
        # base64's bytes are read-only, so that array is copied, as it is where the machine is
        # big-endian.
        if not framed or _BIG_ENDIAN:
            out = out.astype(_NP_DTYPES[dtype].replace("<", "="), copy=True)
        return out.reshape(dims)
    flat = array.array(_TYPECODES[dtype])
    flat.frombytes(raw)
    if _BIG_ENDIAN and flat.itemsize > 1:  # pragma: no cover - no big-endian CI machine
        flat.byteswap()
    if len(dims) == 1:
        return flat
    rows = dims[0]
    width = len(flat) // rows if rows else 0
    return [flat[i * width:(i + 1) * width] for i in range(rows)]


def int_list(value: Any, what: str) -> List[int]:
    """A list of ints of a response's JSON array of integers (or an int32 binary array)."""
    if is_binary(value):
        return [int(v) for v in to_list(decode_binary(value, what, ("int32",), (None,)))]
    items = _checks.as_list(value, what)
    if all(type(v) is int for v in items):
        return list(items)
    return [_checks.as_int(v, f"an entry of {what}") for v in items]


def float_list(value: Any, what: str) -> List[float]:
    """A list of floats of a response's JSON array of numbers (or a float32 binary array)."""
    if is_binary(value):
        return [float(v) for v in to_list(decode_binary(value, what, ("float32", "float64"), (None,)))]
    return [_checks.as_float(v, f"an entry of {what}") for v in _checks.as_list(value, what)]


def check_offsets(offsets: Any, total: int, what: str) -> None:
    """Checks that ``offsets`` (decoded) start at 0, never decrease and end at ``total``."""
    offs = to_list(offsets)
    if not offs or offs[0] != 0 or offs[-1] != total or any(offs[i] > offs[i + 1] for i in range(len(offs) - 1)):
        raise _checks.bad(f"{what} are not offsets from 0 to {total}, never decreasing", show=False)


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


def unpack_bits(packed: Any, count: int) -> Any:
    """The first ``count`` bits of the rows of a bit-packed uint8 array (``[N, bytes]`` or one
    row), least significant bit first (the protocol's order: bit ``k`` in byte ``k >> 3`` at bit
    ``k & 7``), as uint8 0/1: numpy ``[N, count]`` (or ``[count]``), else ``array.array('B')``
    rows. numpy: ``np.unpackbits(packed, axis=-1, count=count, bitorder='little')``."""
    if HAVE_NUMPY and isinstance(packed, np.ndarray):
        return np.unpackbits(packed, axis=-1, count=count, bitorder="little")
    if isinstance(packed, list):
        return [unpack_bits(row, count) for row in packed]
    out = array.array("B", bytes(count))
    for k in range(count):
        if packed[k >> 3] >> (k & 7) & 1:
            out[k] = 1
    return out


def bit_positions(packed: Any, count: int) -> List[int]:
    """The positions of the set bits among the first ``count`` bits of one bit-packed row (least
    significant bit first), ascending."""
    if HAVE_NUMPY and isinstance(packed, np.ndarray):
        return np.flatnonzero(np.unpackbits(packed, count=count, bitorder="little")).tolist()
    out = []
    for i, byte in enumerate(packed):
        while byte:
            low = byte & -byte
            k = (i << 3) + low.bit_length() - 1
            if k < count:
                out.append(k)
            byte ^= low
    return out


def decode_compact(bits: Any, counts: Any, vector: Any, spec: Any) -> Any:
    """The float32 observations ``[N, size]`` of a batch of compact ones (``bits``, ``counts``,
    ``vector``: the batch's arrays, decoded) for the game's ``observation_spec`` (a dict with
    ``planes``, ``size`` and ``compact``'s ``bit_channels`` and ``count_channels``): exactly the
    float32 tensor the server writes with ``observations="float32"``. numpy: a numpy array; else a
    list of ``array.array('f')`` rows."""
    channels, height, width = spec["planes"]
    hw = height * width
    compact = spec["compact"]
    bit_channels, count_channels = compact["bit_channels"], compact["count_channels"]
    size = spec["size"]
    if HAVE_NUMPY and isinstance(bits, np.ndarray):
        n = bits.shape[0]
        planes = np.empty((n, channels, hw), dtype=np.float32)
        planes[:, bit_channels, :] = np.unpackbits(bits, axis=1, count=len(bit_channels) * hw, bitorder="little").reshape(n, len(bit_channels), hw)
        planes[:, count_channels, :] = counts.reshape(n, len(count_channels), hw)
        out = np.empty((n, size), dtype=np.float32)
        out[:, : channels * hw] = planes.reshape(n, channels * hw)
        out[:, channels * hw:] = vector
        return out
    rows = []
    for b, c, v in zip(bits, counts, vector):
        row = array.array("f", bytes(4 * size))
        for k, channel in enumerate(bit_channels):
            base, start = channel * hw, k * hw
            for cell in range(hw):
                bit = start + cell
                if b[bit >> 3] >> (bit & 7) & 1:
                    row[base + cell] = 1.0
        for k, channel in enumerate(count_channels):
            row[channel * hw:(channel + 1) * hw] = array.array("f", c[k * hw:(k + 1) * hw])
        row[channels * hw:] = v
        rows.append(row)
    return rows
