"""The optional dependencies of the modules for other libraries (``pettingzoo``, ``gymnasium``,
``openspiel``): imported on demand, with an error that names the extra to install."""

from __future__ import annotations

import hashlib
import importlib
from typing import Any, List


def require(extra: str, *modules: str) -> List[Any]:
    """The ``modules`` imported, in order; if one is missing, an ``ImportError`` that names it and
    the extra of the package that installs it (``pip install 'meeplekit-client[EXTRA]'``)."""
    out = []
    for name in modules:
        try:
            out.append(importlib.import_module(name))
        except ImportError as e:
            raise ImportError(
                f"meeplekit_client.{extra} needs {', '.join(m.split('.')[0] for m in modules)}; {name} is missing "
                f"({e}). Install the extra: pip install 'meeplekit-client[{extra}]'",
                name=name,
            ) from e
    return out


def int_seed(seed: Any, label: str = "") -> int:
    """A 63-bit integer derived from ``seed`` (any value, by its text) and ``label``: for libraries
    whose generators take integers only (numpy's, gymnasium's spaces)."""
    digest = hashlib.sha256(f"{seed}/{label}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1
