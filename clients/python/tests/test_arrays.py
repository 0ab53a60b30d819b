"""Binary arrays: decoding the protocol's base64 little-endian arrays, with or without numpy."""

from __future__ import annotations

import base64
import struct
import unittest

import _support  # noqa: F401  (puts the client on sys.path)

from meeplekit_client import _arrays


def binary(dtype, fmt, values, shape):
    return {"dtype": dtype, "shape": shape, "b64": base64.b64encode(struct.pack("<" + fmt * len(values), *values)).decode()}


class ArraysTest(unittest.TestCase):
    def test_one_dimension(self):
        a = _arrays.decode(binary("float32", "f", [1.5, -2.0, 0.25], [3]))
        self.assertEqual(list(a), [1.5, -2.0, 0.25])
        b = _arrays.decode(binary("int32", "i", [-4, 0, 2**31 - 1], [3]))
        self.assertEqual(list(b), [-4, 0, 2**31 - 1])
        c = _arrays.decode(binary("uint8", "B", [0, 1, 255], [3]))
        self.assertEqual(list(c), [0, 1, 255])
        if _arrays.HAVE_NUMPY:
            self.assertEqual(str(a.dtype), "float32")
            self.assertEqual(str(b.dtype), "int32")
            a[0] = 3  # writable
        else:
            self.assertEqual(a.typecode, "f")

    def test_two_dimensions(self):
        m = _arrays.decode(binary("uint8", "B", [1, 0, 0, 0, 1, 1], [2, 3]))
        self.assertEqual([list(r) for r in m], [[1, 0, 0], [0, 1, 1]])
        if _arrays.HAVE_NUMPY:
            self.assertEqual(m.shape, (2, 3))
        empty = _arrays.decode(binary("float32", "f", [], [0, 2]))
        self.assertEqual(len(empty), 0)

    def test_plain_json_passes(self):
        self.assertEqual(_arrays.decode([1, 2, 3]), [1, 2, 3])

    def test_encode_int32(self):
        enc = _arrays.encode_int32([5, -1, 70000])
        self.assertEqual(enc["dtype"], "int32")
        self.assertEqual(enc["shape"], [3])
        self.assertEqual(struct.unpack("<3i", base64.b64decode(enc["b64"])), (5, -1, 70000))
        self.assertEqual(list(_arrays.decode(enc)), [5, -1, 70000])

    def test_split_and_mask(self):
        flat = _arrays.decode(binary("int32", "i", [1, 2, 3, 9], [4]))
        offsets = _arrays.decode(binary("int32", "i", [0, 3, 3, 4], [4]))
        self.assertEqual([list(x) for x in _arrays.split(flat, offsets)], [[1, 2, 3], [], [9]])
        self.assertEqual(list(_arrays.mask_of([0, 3], 5)), [1, 0, 0, 1, 0])


if __name__ == "__main__":
    unittest.main()
