"""Checks at the client's two edges: the integers and seeds that callers pass in, and the fields of
the server's responses.

Arguments: an integer argument (an action, a player, a count, ``num_envs``, a port) is taken with
``operator.index`` semantics: an ``int`` or a numpy integer is accepted (and sent as a plain
``int``), a ``bool`` and everything else (a float, a string) raises ``TypeError`` naming the
argument, before anything is sent. A seed is a ``str`` or such an integer. Whether a value is in
range is the server's to say (a :class:`MeepleError` with its code), unless the client uses it
itself.

Responses: every field the client reads is checked for its kind; a missing or malformed one is a
:class:`ServerError` with code ``client/bad-response``, never a ``KeyError`` or a ``TypeError``.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Dict, List, Mapping, Optional

from .errors import ServerError


def index(value: Any, name: str) -> int:
    """``value`` as a plain ``int`` if it is an integer (``int``, a numpy integer: anything with
    ``__index__``) and not a ``bool``; raises ``TypeError`` naming the argument ``name`` otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got a bool ({value!r})")
    try:
        return int(operator.index(value))
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {_short(value)}") from None


def optional_index(value: Any, name: str) -> Optional[int]:
    """``None``, or :func:`index` of ``value``."""
    return None if value is None else index(value, name)


def seed(value: Any, name: str = "seed") -> Any:
    """A seed as the server takes it: a ``str`` as it is, an integer (see :func:`index`) as a plain
    ``int``; raises ``TypeError`` for anything else (a float, a bool, None)."""
    if isinstance(value, str):
        return value
    try:
        return index(value, name)
    except TypeError:
        raise TypeError(f"{name} must be a string or an integer, got {type(value).__name__} {_short(value)}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- responses ------------------------------------------------------------------------------------


def bad(what: str, value: Any = None, *, show: bool = True) -> ServerError:
    """The ``client/bad-response`` error saying that ``what`` of a response is malformed."""
    shown = f": {_short(value)}" if show else ""
    return ServerError("client/bad-response", f"the server's response is malformed: {what}{shown}")


def field(r: Mapping[str, Any], name: str) -> Any:
    """The field ``name`` of the response ``r``; ``client/bad-response`` when it is missing."""
    if not isinstance(r, Mapping):
        raise bad("it is not an object", r)
    try:
        return r[name]
    except KeyError:
        raise bad(f"it has no {name!r}", show=False) from None


def as_int(value: Any, what: str) -> int:
    """``value`` if it is a JSON integer (not a bool, not a float); else ``client/bad-response``."""
    if type(value) is int:
        return value
    raise bad(f"{what} is not an integer", value)


def as_float(value: Any, what: str) -> float:
    """``value`` if it is a JSON number (not a bool); else ``client/bad-response``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise bad(f"{what} is not a number", value)


def as_bool(value: Any, what: str) -> bool:
    """``value`` if it is true or false; else ``client/bad-response``."""
    if isinstance(value, bool):
        return value
    raise bad(f"{what} is not true or false", value)


def as_str(value: Any, what: str) -> str:
    """``value`` if it is a string; else ``client/bad-response``."""
    if isinstance(value, str):
        return value
    raise bad(f"{what} is not a string", value)


def as_dict(value: Any, what: str) -> Dict[str, Any]:
    """``value`` if it is an object; else ``client/bad-response``."""
    if isinstance(value, dict):
        return value
    raise bad(f"{what} is not an object", value)


def as_list(value: Any, what: str) -> List[Any]:
    """``value`` if it is an array; else ``client/bad-response``."""
    if isinstance(value, list):
        return value
    raise bad(f"{what} is not an array", value)


def int_field(r: Mapping[str, Any], name: str) -> int:
    """The integer field ``name`` of ``r``."""
    return as_int(field(r, name), repr(name))


def bool_field(r: Mapping[str, Any], name: str) -> bool:
    """The boolean field ``name`` of ``r``."""
    return as_bool(field(r, name), repr(name))


def str_field(r: Mapping[str, Any], name: str) -> str:
    """The string field ``name`` of ``r``."""
    return as_str(field(r, name), repr(name))


def outcomes(value: Any) -> List[Any]:
    """``chance_outcomes``'s ``outcomes``: ``[[outcome, probability], ...]`` as tuples."""
    out = []
    for pair in as_list(value, "'outcomes'"):
        if not isinstance(pair, list) or len(pair) != 2:
            raise bad("an entry of 'outcomes' is not an [outcome, probability] pair", pair)
        p = as_float(pair[1], "a probability of 'outcomes'")
        if not 0.0 <= p <= 1.0 or math.isnan(p):
            raise bad("a probability of 'outcomes' is not from 0 to 1", pair[1])
        out.append((as_int(pair[0], "an outcome of 'outcomes'"), p))
    return out
