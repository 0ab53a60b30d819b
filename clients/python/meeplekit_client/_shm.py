"""Shared memory of the protocol (docs/protocol.md, "Shared memory"): a segment this client creates
(``multiprocessing.shared_memory``, a file in /dev/shm on Linux) and names in the ``hello`` op;
the server writes the arrays of the vector batches (``vec_step``, ``vec_reset``) into it, a slot
per response in turn, and the response line says where each array is. The arrays are then views
of the segment (numpy) without a copy, read-only, valid until the server writes their slot again:
``slots`` vector responses later on the connection.

Layout: a header of :data:`HEADER_BYTES` (the client's random token in its first 16 bytes), then
the slots; each slot starts with the sequence number of the response written into it (uint64,
little-endian), which the client checks before it hands out views: a slot written again before
its response was read (more vector requests in flight than slots) is an error, never wrong arrays.
"""

from __future__ import annotations

import mmap
import os
import secrets
import struct
import sys
from typing import Any, Dict, Optional

from . import _arrays
from .errors import ServerError

HEADER_BYTES = 64
"""Bytes of the segment's header (the token first)."""

SLOT_HEADER_BYTES = 64
"""Bytes of each slot's header: the sequence number of the response in the slot."""

ALIGN = 64
"""Arrays start at multiples of this many bytes."""

DEFAULT_SLOT_BYTES = 64 * 1024 * 1024 + 64 * 1024
"""A slot holds one batch at the server's limit (64 MiB), its header and the arrays' alignment.
The segment is sparse: only the pages written take memory."""

MIN_SLOTS, MAX_SLOTS = 2, 16
"""How many slots a segment may have (the server's bounds)."""

SHM_OPS = frozenset(("vec_step", "vec_reset"))
"""The operations whose responses put their arrays in the segment."""


def available() -> bool:
    """Whether this machine can share memory with a local server: POSIX shared memory in
    /dev/shm (Linux), and ``multiprocessing.shared_memory`` (Python 3.8+)."""
    if not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"):
        return False
    try:
        from multiprocessing import shared_memory  # noqa: F401
    except ImportError:  # pragma: no cover - Python 3.8+ has it
        return False
    return True


def check_options(shm: Any, slots: Any, slot_bytes: Any) -> None:
    """Checks ``Server``'s ``shm``, ``shm_slots`` and ``shm_slot_bytes`` before anything is started:
    ``TypeError`` for an ``shm`` that is not a bool, ``ValueError`` for slots or bytes out of range."""
    if shm is not True and shm is not False:
        raise TypeError(f"shm must be True or False, got {shm!r}")
    if type(slots) is not int or not MIN_SLOTS <= slots <= MAX_SLOTS:
        raise ValueError(f"shm_slots must be an integer from {MIN_SLOTS} to {MAX_SLOTS}, got {slots!r}")
    if slot_bytes is not None and (type(slot_bytes) is not int or slot_bytes < 4096 or slot_bytes % ALIGN):
        raise ValueError(f"shm_slot_bytes must be a multiple of {ALIGN} of at least 4096, got {slot_bytes!r}")


class Segment:
    """A segment of ``slots`` slots of ``slot_bytes`` bytes each, created here and removed by
    :meth:`close` (by the process that created it only: a forked child leaves it to its parent)."""

    def __init__(self, slots: int = 2, slot_bytes: Optional[int] = None):
        check_options(True, slots, slot_bytes)
        if slot_bytes is None:
            slot_bytes = DEFAULT_SLOT_BYTES
        if not available():
            raise ServerError("client/shm-unavailable", "shared memory needs Linux's /dev/shm; use binary frames (binary=True) instead")
        from multiprocessing import shared_memory

        self.size = HEADER_BYTES + slots * slot_bytes
        self.slots = slots
        self.slot_bytes = slot_bytes
        self._owner = os.getpid()
        # multiprocessing creates the segment (and removes it should this process die without
        # closing it); the mapping is this module's own, of a descriptor of its own, so that views
        # still held when the segment is closed keep their pages instead of making close() fail.
        self._shm: Any = shared_memory.SharedMemory(create=True, size=self.size)
        self.name: str = self._shm.name.lstrip("/")
        try:
            self._fd = os.open(os.path.join("/dev/shm", self.name), os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
            self._map: Any = mmap.mmap(self._fd, self.size)
        except BaseException:
            self._shm.close()
            self._shm.unlink()
            raise
        self._shm.close()
        self._buf = memoryview(self._map)
        token = secrets.token_bytes(16)
        self._buf[:16] = token
        self.token = token.hex()
        self._closed = False

    def spec(self) -> Dict[str, Any]:
        """The ``hello`` op's ``shm`` field."""
        return {"name": self.name, "token": self.token, "slots": self.slots}

    def check_answer(self, described: Any) -> Optional[str]:
        """What is wrong with the ``hello`` response's description of the segment (None: it
        agrees with what was created)."""
        if not isinstance(described, dict):
            return f"no description of the segment: {str(described)[:200]}"
        want = {"name": self.name, "bytes": self.size, "slots": self.slots, "slot_bytes": self.slot_bytes, "slot_offset": HEADER_BYTES}
        for k, v in want.items():
            if described.get(k) != v:
                return f"'{k}' is {described.get(k)!r}, not {v!r}"
        return None

    def slot_of(self, seq: int) -> int:
        """Where the slot of response ``seq`` starts."""
        return HEADER_BYTES + (seq % self.slots) * self.slot_bytes

    def size_now(self) -> int:
        """The segment's file size now (0 when it can no longer be read)."""
        try:
            return os.fstat(self._fd).st_size
        except OSError:
            return 0

    def seq_in_slot(self, seq: int) -> int:
        """The sequence number the slot of response ``seq`` holds."""
        at = self.slot_of(seq)
        return struct.unpack_from("<Q", self._buf, at)[0]

    def view(self, offset: int, nbytes: int) -> memoryview:
        """A read-only view of ``nbytes`` bytes at ``offset``."""
        return self._buf[offset:offset + nbytes].toreadonly()

    def place(self, response: Dict[str, Any]) -> Optional[str]:
        """Puts a view of the segment in place of each ``{"dtype", "shape", "shm": offset}`` of
        ``response`` (as ``{"dtype", "shape", "data": view}``, which :mod:`._arrays` decodes
        without a copy) and removes ``shm_seq``. Raises :class:`ServerError` ``client/shm-gone``
        when the segment shrank (its pages would no longer be there) and
        ``client/shm-overwritten`` when the slot holds a later response; returns what is wrong
        with an array's place (outside its slot, not aligned, a bad dtype or shape: the server's
        fault), else None."""
        seq = response.pop("shm_seq")
        if type(seq) is not int or seq < 1:
            return f"has a shm_seq that is not a positive integer: {seq!r}"
        size = self.size_now()
        if size < self.size:
            raise ServerError("client/shm-gone", f"the shared-memory segment {self.name!r} shrank from {self.size} to {size} bytes: its arrays are gone")
        held = self.seq_in_slot(seq)
        if held != seq:
            raise ServerError(
                "client/shm-overwritten",
                f"the slot of response {seq} in the shared-memory segment holds response {held}: more vector requests were in flight "
                f"than the segment has slots ({self.slots}); give Server shm_slots of at least the requests in flight",
            )
        lo = self.slot_of(seq) + SLOT_HEADER_BYTES
        hi = self.slot_of(seq) + self.slot_bytes
        problem: Optional[str] = None

        def visit(value: Any) -> Any:
            nonlocal problem
            if isinstance(value, dict):
                if "shm" in value and "dtype" in value:
                    at, dtype, shape = value["shm"], value.get("dtype"), value.get("shape")
                    n = _arrays.byte_size(dtype, shape)
                    if n is None:
                        problem = f"has an array in shared memory of dtype {dtype!r} and shape {shape!r}"
                        return value
                    if type(at) is not int or at % ALIGN or at < lo or at + n > hi:
                        problem = f"places an array of {n} bytes at {at!r}, not an aligned place in its slot [{lo}, {hi})"
                        return value
                    return {"dtype": dtype, "shape": shape, "data": self.view(at, n)}
                return {k: visit(v) for k, v in value.items()}
            if isinstance(value, list):
                return [visit(v) for v in value]
            return value

        placed = visit(response)
        if problem is None:
            response.clear()
            response.update(placed)
        return problem

    def close(self) -> None:
        """Removes the segment (in the process that created it) and lets go of the mapping. Views
        still held keep their pages until they are dropped. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if os.getpid() == self._owner:
            try:
                self._shm.unlink()
            except OSError:
                # Removed already (by hand): multiprocessing's tracker need not remove it at exit.
                try:
                    from multiprocessing import resource_tracker

                    resource_tracker.unregister(getattr(self._shm, "_name", "/" + self.name), "shared_memory")
                except Exception:  # pragma: no cover - the tracker's internals differ between versions
                    pass
        try:
            os.close(self._fd)
        except OSError:
            pass
        # Arrays may still view the mapping: it is unmapped when the last of them goes.
        self._buf = memoryview(b"")
        self._map = None
