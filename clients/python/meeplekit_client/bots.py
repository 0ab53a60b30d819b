"""The server's bots (``bot`` and ``analyse``): the move that meeplekit's search bot plays for the
player who decides, at a level from 1 to 5 or within a budget, to evaluate an agent against.

:meth:`Server.bot`, :meth:`State.bot` and :meth:`VectorEnv.bot` ask for it; ``analyse`` answers
every candidate the search looked at too (a hint for a UI, a review of a game).
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Dict, List, Mapping, NamedTuple, Optional

from . import _checks


class BotMove(NamedTuple):
    """The bot's move (``bot``)."""

    action: int
    """The move as a split action id: apply it (``State.apply_action``, an env's action of ``VectorEnv.step``)."""
    player: int
    """Who decides: the bot plays for them."""
    move: Dict[str, Any]
    """The same move as the library's ``Move`` object (``{"type": "place", "player": 0, "x": -1, ...}``)."""
    iterations: int
    """Searches run (0 when there was a single legal move)."""
    cut_short: bool
    """True when the server's ``--max-bot-ms`` stopped the search before its budget: the move is
    the best found so far and not reproducible."""


class Candidate(NamedTuple):
    """One candidate move of an :class:`Analysis`."""

    action: int
    """The move as a split action id."""
    move: Dict[str, Any]
    """The move as the library's ``Move`` object."""
    visits: int
    """Searches that began with it."""
    margin: float
    """The deciding player's expected score difference to their best opponent after it, in points:
    compare candidates by it (what a move cost: the first candidate's margin less its own)."""
    value: float
    """The mean reward from 0 to 1 that the search maximised."""


class Analysis(NamedTuple):
    """The bot's move and every candidate its search looked at (``analyse``)."""

    action: int
    """The move recommended (the first candidate's), as a split action id."""
    player: int
    """Who decides."""
    move: Dict[str, Any]
    """The move recommended as the library's ``Move`` object."""
    iterations: int
    """Searches run."""
    cut_short: bool
    """As :attr:`BotMove.cut_short`."""
    candidates: List[Candidate]
    """The candidates, most searched first."""

    def cost(self, action: int) -> Optional[float]:
        """What playing ``action`` costs by this analysis, in expected points: the first
        candidate's margin less the action's (0 for the best move); None when the search did not
        look at it."""
        action = _checks.index(action, "action")
        for c in self.candidates:
            if c.action == action:
                return self.candidates[0].margin - c.margin
        return None


def budget(level: Any, iterations: Any, time_ms: Any, seed: Any) -> Dict[str, Any]:
    """The budget fields of a ``bot`` or ``analyse`` request from the arguments given (None: not
    sent, the server's default): ``level`` and ``iterations`` integers, ``time_ms`` a finite number,
    ``seed`` a string or an integer. Raises ``TypeError`` (a bool, a float where an integer
    belongs, ...) or ``ValueError`` (a time that is not finite) before anything is sent; whether a
    value is in range is the server's to say."""
    out: Dict[str, Any] = {}
    if level is not None:
        out["level"] = _checks.index(level, "level")
    if iterations is not None:
        out["iterations"] = _checks.index(iterations, "iterations")
    if time_ms is not None:
        if isinstance(time_ms, bool) or not isinstance(time_ms, numbers.Real):
            raise TypeError(f"time_ms must be a number of milliseconds, got {type(time_ms).__name__} {_checks._short(time_ms)}")
        value = float(time_ms)
        if not math.isfinite(value):
            raise ValueError(f"time_ms must be finite, got {value!r}")
        out["time_ms"] = int(value) if value.is_integer() else value
    if seed is not None:
        out["seed"] = _checks.seed(seed)
    return out


def _move(value: Any, what: str) -> Dict[str, Any]:
    move = _checks.as_dict(value, what)
    if not isinstance(move.get("type"), str):
        raise _checks.bad(f"{what} is not a move (no 'type')", value)
    return move


def _action(value: Any, what: str, num_actions: Optional[int]) -> int:
    action = _checks.as_int(value, what)
    if action < 0 or (num_actions is not None and action >= num_actions):
        raise _checks.bad(f"{what} is no action id" + (f" from 0 to {num_actions - 1}" if num_actions else ""), value)
    return action


def bot_move(r: Mapping[str, Any], players: Optional[int] = None, num_actions: Optional[int] = None) -> BotMove:
    """The :class:`BotMove` of a ``bot`` response, its fields checked (against the game's
    ``players`` and ``num_actions`` when known): ``client/bad-response`` when one is malformed."""
    player = _checks.int_field(r, "player")
    if player < 0 or (players is not None and player >= players):
        raise _checks.bad("'player' is no player", player)
    iterations = _checks.int_field(r, "iterations")
    if iterations < 0:
        raise _checks.bad("'iterations' is negative", iterations)
    return BotMove(
        _action(_checks.field(r, "action"), "'action'", num_actions),
        player,
        _move(_checks.field(r, "move"), "'move'"),
        iterations,
        _checks.bool_field(r, "cut_short"),
    )


def analysis(r: Mapping[str, Any], players: Optional[int] = None, num_actions: Optional[int] = None) -> Analysis:
    """The :class:`Analysis` of an ``analyse`` response, checked as :func:`bot_move` checks."""
    head = bot_move(r, players, num_actions)
    candidates = []
    for c in _checks.as_list(_checks.field(r, "candidates"), "'candidates'"):
        c = _checks.as_dict(c, "a candidate")
        visits = _checks.int_field(c, "visits")
        value = _checks.as_float(_checks.field(c, "value"), "a candidate's 'value'")
        margin = _checks.as_float(_checks.field(c, "margin"), "a candidate's 'margin'")
        if visits < 0 or not 0.0 <= value <= 1.0 or not math.isfinite(margin):
            raise _checks.bad("a candidate's visits, value or margin is out of range", c)
        candidates.append(Candidate(_action(_checks.field(c, "action"), "a candidate's 'action'", num_actions), _move(_checks.field(c, "move"), "a candidate's 'move'"), visits, margin, value))
    return Analysis(head.action, head.player, head.move, head.iterations, head.cut_short, candidates)
