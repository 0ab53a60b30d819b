"""An OpenSpiel-like facade: :class:`Game` and :class:`State` over server handles."""

from __future__ import annotations

import math
import secrets
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _arrays, _checks
from .bots import Analysis, BotMove
from .errors import MeepleError
from .server import Server, default_server

CHANCE_PLAYER = -1
"""``current_player()`` at a chance node (as in OpenSpiel)."""
TERMINAL_PLAYER = -4
"""``current_player()`` when the game is over (as in OpenSpiel)."""


def _seed(seed: Any) -> Any:
    """A seed as the server takes it: a string, or an integer (a numpy integer becomes an ``int``);
    ``None`` becomes a fresh random string. Anything else (a float, a bool) raises ``TypeError``."""
    if seed is None:
        return secrets.token_hex(16)
    return _checks.seed(seed)


def _number(x: Any, infinite: float = math.inf) -> float:
    """A utility bound from JSON (the server writes an infinite bound as null); anything but a
    number, null or ``"Infinity"``/``"-Infinity"`` is ``client/bad-response``."""
    if x is None:
        return infinite
    if isinstance(x, str):
        try:
            return float(x.replace("Infinity", "inf"))
        except ValueError:
            raise _checks.bad("a utility bound is not a number", x) from None
    return _checks.as_float(x, "a utility bound")


def _observation(r: Mapping[str, Any]) -> Any:
    """The ``observation`` of a response: a float32 binary array of one dimension."""
    return _arrays.decode_binary(_checks.field(r, "observation"), "'observation'", ("float32",), (None,))


class Game:
    """A ruleset and a number of players on a server (``make_game``). Made by :func:`load_game`."""

    def __init__(
        self,
        game: str = "classic",
        expansions: Sequence[str] = (),
        players: int = 2,
        options: Optional[Mapping[str, Any]] = None,
        server: Optional[Server] = None,
    ):
        players = _checks.index(players, "players")
        self.server = server if server is not None else default_server()
        args: Dict[str, Any] = {"game": game, "expansions": list(expansions), "players": players}
        if options:
            args["options"] = dict(options)
        r = self.server.request("make_game", **args)
        self.id: str = _checks.str_field(r, "game_id")
        self._finalizer = weakref.finalize(self, self.server._discard, self.id)
        self._finalizer.atexit = False
        self.info: Dict[str, Any] = _checks.as_dict(_checks.field(r, "info"), "'info'")
        """``gameInfo(rules, players)`` as the server sent it (utility bounds, versions, ...)."""
        self.parameters = {"game": game, "expansions": tuple(expansions), "players": players, "options": dict(options or {})}
        spec = r.get("observation_spec")
        self.observation_spec: Dict[str, Any] = dict(_checks.as_dict(spec, "'observation_spec'")) if spec is not None else {}
        """The tensor's layout as the server describes it: ``planes`` ``[channels, height, width]``
        first, then ``vector`` entries, with a name for each (``observationSpec``)."""
        self._shape: Tuple[int, ...] = tuple(_arrays.int_list(_checks.field(r, "observation_shape"), "'observation_shape'"))
        self._num_actions = _checks.int_field(r, "num_distinct_actions")
        self._max_chance = _checks.int_field(r, "max_chance_outcomes")
        self._players = players

    # -- OpenSpiel's Game -----------------------------------------------------------------------

    def num_distinct_actions(self) -> int:
        """Action ids are ``0 .. num_distinct_actions() - 1`` (the split form)."""
        return self._num_actions

    def num_players(self) -> int:
        return self._players

    def max_chance_outcomes(self) -> int:
        return self._max_chance

    def observation_tensor_shape(self) -> List[int]:
        return list(self._shape)

    def observation_tensor_size(self) -> int:
        return int(math.prod(self._shape))

    def max_game_length(self) -> int:
        """The most moves a game can take (``gameInfo``'s ``maxGameLength``; 0 when not given)."""
        length = self.info.get("maxGameLength", 0)
        return _checks.as_int(length, "'info.maxGameLength'")

    def utility_bounds(self, kind: str = "score") -> Tuple[float, float]:
        """``(min, max)`` of the returns of ``kind`` (``score``, ``win-loss`` or ``rank``; another
        kind raises ``ValueError``)."""
        utility = _checks.as_dict(self.info.get("utility"), "'info.utility'")
        if kind not in utility:
            raise ValueError(f"kind must be one of {', '.join(map(repr, utility))}, got {kind!r}")
        bounds = utility[kind]
        if isinstance(bounds, dict):
            return _number(bounds.get("min"), -math.inf), _number(bounds.get("max"))
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise _checks.bad(f"'info.utility.{kind}' is not a pair of bounds", bounds)
        low, high = bounds
        return _number(low, -math.inf), _number(high)

    def min_utility(self) -> float:
        return self.utility_bounds("score")[0]

    def max_utility(self) -> float:
        return self.utility_bounds("score")[1]

    def get_parameters(self) -> Dict[str, Any]:
        return dict(self.parameters)

    def new_initial_state(self, seed: Any = None, initial: str = "chance") -> "State":
        """A new game. ``initial="chance"`` (default) starts at the first draw's chance node;
        ``"drawn"`` is the app's start, the first tile drawn by ``seed``. ``seed`` (a string or an
        integer; anything else raises ``TypeError``) fixes the game's own generator (it only matters for ``"drawn"`` and
        The Castle's wall tokens); without one the server takes a fresh seed."""
        args: Dict[str, Any] = {"game_id": self.id, "initial": initial}
        if seed is not None:
            args["seed"] = _seed(seed)
        r = self.server.request("new_state", **args)
        return State(self, _checks.str_field(r, "state_id"))

    def deserialize_state(self, text: str) -> "State":
        """The state :meth:`State.serialize` wrote (checked by the server)."""
        r = self.server.request("deserialize", game_id=self.id, text=text)
        return State(self, _checks.str_field(r, "state_id"))

    def __repr__(self) -> str:
        p = self.parameters
        exp = "+" + "+".join(p["expansions"]) if p["expansions"] else ""
        return f"<meeplekit Game {self.id} {p['game']}{exp} players={p['players']}>"

    def __str__(self) -> str:
        return self.__repr__()


def load_game(
    game: str = "classic",
    expansions: Sequence[str] = (),
    players: int = 2,
    options: Optional[Mapping[str, Any]] = None,
    server: Optional[Server] = None,
) -> Game:
    """A :class:`Game` on ``server`` (default: the process's shared server, :func:`default_server`:
    started on first use, or a connection to the running server that the environment variable
    ``MEEPLEKIT_CONNECT`` names, ``PORT`` or ``HOST:PORT``).

    ``expansions`` are module ids (``"river"``, ``"king-robber"``, ``"shrines"``, ``"count"``,
    ``"tower"``, ``"princess-dragon"``), ``options`` the options per expansion id
    (``{"river": {"set": "both"}}``)."""
    return Game(game, expansions, players, options, server)


class State:
    """A game state on the server (a handle). Reads are cached until the next :meth:`apply_action`:
    the first read of a decision fetches everything about it in one ``state`` request.

    The handle is freed when the object is garbage collected (with a later request) or by
    :meth:`free` / leaving a ``with`` block."""

    def __init__(self, game: Game, state_id: str, _status: Optional[Tuple[int, bool, bool]] = None):
        self._game = game
        self._server = game.server
        self.id = state_id
        self._status = _status  # (current_player, is_chance, is_terminal)
        self._full: Optional[Dict[str, Any]] = None  # legal_actions, returns, rewards
        self._observations: Dict[int, Any] = {}
        self._outcomes: Optional[List[Tuple[int, float]]] = None
        self._legal_set: Optional[frozenset] = None
        self._pending: List[int] = []  # known-legal actions not sent yet: they go with the next request
        self._finalizer = weakref.finalize(self, self._server._discard, state_id)
        self._finalizer.atexit = False

    # -- requests and cache -----------------------------------------------------------------------

    def _request(self, op: str, **args: Any) -> Dict[str, Any]:
        """A request about this state (see :meth:`_requests`)."""
        if not self._pending:
            return self._server.request(op, **args)
        return self._requests([(op, args)])[0]

    def _requests(self, reqs: List[Tuple[str, Mapping[str, Any]]]) -> List[Dict[str, Any]]:
        """Requests about this state in one write; actions applied since the last request (known
        to be legal) go first, in the same write: one round trip."""
        pending, self._pending = self._pending, []
        applies: List[Tuple[str, Mapping[str, Any]]] = [("apply_action", {"state_id": self.id, "action": a}) for a in pending]
        results = self._server.request_many(applies + list(reqs), raise_errors=False)
        for r in results[: len(applies)]:
            if isinstance(r, MeepleError):
                self._forget()
                raise r
            try:
                self._set_status(r)
            except MeepleError:
                self._forget()
                raise
        out = results[len(applies):]
        for r in out:
            if isinstance(r, MeepleError):
                raise r
        return out

    def _set_status(self, r: Mapping[str, Any]) -> None:
        status = (_checks.int_field(r, "current_player"), _checks.bool_field(r, "is_chance"), _checks.bool_field(r, "is_terminal"))
        player = status[0]
        if not (0 <= player < self._game._players or player in (CHANCE_PLAYER, TERMINAL_PLAYER)):
            raise _checks.bad(f"'current_player' is no player of {self._game._players}, nor -1 nor -4", player)
        self._status = status

    def _per_player(self, values: List[float], what: str) -> List[float]:
        """``values`` if there is one per player; else ``client/bad-response``."""
        if len(values) != self._game._players:
            raise _checks.bad(f"{what} has {len(values)} entries for {self._game._players} players", show=False)
        return values

    def _forget(self) -> None:
        self._status = None
        self._full = None
        self._legal_set = None
        self._observations = {}
        self._outcomes = None

    def _fetch(self, observation: Optional[int] = None) -> Dict[str, Any]:
        args: Dict[str, Any] = {"state_id": self.id}
        if observation is not None:
            args["observation"] = observation
        return self._absorb(self._request("state", **args), observation)

    def _absorb(self, r: Mapping[str, Any], observation: Optional[int] = None) -> Dict[str, Any]:
        """Caches a ``state`` response."""
        full = {
            "legal_actions": _arrays.int_list(_checks.field(r, "legal_actions"), "'legal_actions'"),
            "returns": self._per_player(_arrays.float_list(_checks.field(r, "returns"), "'returns'"), "'returns'"),
            "rewards": self._per_player(_arrays.float_list(_checks.field(r, "rewards"), "'rewards'"), "'rewards'"),
        }
        legal = full["legal_actions"]
        bound = self._game._max_chance if _checks.bool_field(r, "is_chance") else self._game._num_actions
        if legal and (min(legal) < 0 or max(legal) >= bound):
            raise _checks.bad(f"'legal_actions' has an action outside 0 to {bound - 1}", show=False)
        tensor = _observation(r) if observation is not None and "observation" in r else None
        self._set_status(r)
        self._legal_set = None
        self._full = full
        if tensor is not None:
            self._observations[observation] = tensor
        return self._full

    def _full_info(self) -> Dict[str, Any]:
        return self._full if self._full is not None else self._fetch()

    def _status_info(self) -> Tuple[int, bool, bool]:
        if self._status is None:
            self._fetch()
        assert self._status is not None
        return self._status

    # -- OpenSpiel's State ----------------------------------------------------------------------

    def get_game(self) -> Game:
        return self._game

    def current_player(self) -> int:
        """The player to decide, :data:`CHANCE_PLAYER` (-1) or :data:`TERMINAL_PLAYER` (-4)."""
        return self._status_info()[0]

    def is_chance_node(self) -> bool:
        return self._status_info()[1]

    def is_terminal(self) -> bool:
        return self._status_info()[2]

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal action ids, ascending (the chance outcomes at a chance node); ``[]`` when
        ``player`` is given and is not the player to decide."""
        player = _checks.optional_index(player, "player")
        full = self._full_info()
        if player is not None and player != self.current_player():
            return []
        return list(full["legal_actions"])

    def legal_actions_mask(self, player: Optional[int] = None) -> Any:
        """A uint8 mask of ``num_distinct_actions()`` entries (``max_chance_outcomes()`` at a
        chance node), 1 for each legal action (numpy array, else ``array.array``)."""
        player = _checks.optional_index(player, "player")
        size = self._game.max_chance_outcomes() if self.is_chance_node() else self._game.num_distinct_actions()
        return _arrays.mask_of(self.legal_actions(player), size)

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``[(outcome, probability), ...]`` at a chance node."""
        if self._outcomes is None:
            r = self._request("chance_outcomes", state_id=self.id)
            self._outcomes = _checks.outcomes(_checks.field(r, "outcomes"))
        return list(self._outcomes)

    def apply_action(self, action: int, events: bool = False) -> Optional[List[Dict[str, Any]]]:
        """Applies a legal action (or chance outcome) in place. An illegal one raises
        :class:`MeepleError` (``protocol/illegal-action``) and changes nothing. With
        ``events=True`` returns the transition's events (the library's event objects).

        An action found in the cached :meth:`legal_actions` is legal, so it is not sent at once:
        it goes in the same write as the next request about this state (apply and read in one
        round trip). Anything else is sent now, so that an illegal action raises here.

        ``action`` is an integer (an ``int`` or a numpy integer); anything else, a float or a
        ``bool`` included, raises ``TypeError`` and nothing is sent."""
        action = _checks.index(action, "action")
        if not events and self._full is not None:
            if self._legal_set is None:
                self._legal_set = frozenset(self._full["legal_actions"])
            if action in self._legal_set:
                # Legal for sure: sent with the next request (one round trip for apply + read).
                self._pending.append(action)
                self._forget()
                return None
        args: Dict[str, Any] = {"state_id": self.id, "action": action}
        if events:
            args["events"] = True
        r = self._request("apply_action", **args)
        self._forget()
        self._set_status(r)
        return list(_checks.as_list(_checks.field(r, "events"), "'events'")) if events else None

    def returns(self, kind: str = "score") -> List[float]:
        """Per player: ``"score"`` (default, the scores so far), ``"win-loss"`` or ``"rank"``."""
        if kind == "score":
            return list(self._full_info()["returns"])
        r = self._request("returns", state_id=self.id, kind=kind)
        return self._per_player(_arrays.float_list(_checks.field(r, "returns"), "'returns'"), "'returns'")

    def rewards(self, kind: str = "score") -> List[float]:
        """Per player, the change of the returns by the last action applied."""
        if kind == "score":
            return list(self._full_info()["rewards"])
        r = self._request("rewards", state_id=self.id, kind=kind)
        return self._per_player(_arrays.float_list(_checks.field(r, "rewards"), "'rewards'"), "'rewards'")

    def player_return(self, player: int) -> float:
        """The score so far of ``player`` (an integer from 0; ``ValueError`` past the last player)."""
        player = _checks.index(player, "player")
        returns = self.returns()
        if not 0 <= player < len(returns):
            raise ValueError(f"player must be from 0 to {len(returns) - 1}, got {player}")
        return returns[player]

    def observation_tensor(self, player: Optional[int] = None) -> Any:
        """The observation of ``player`` (default: the player to decide, else 0), a flat float32
        array of ``observation_tensor_size()`` entries (numpy, else ``array.array``)."""
        if player is None:
            cp = self.current_player()
            player = cp if cp >= 0 else 0
        player = _checks.index(player, "player")
        if player not in self._observations:
            if self._full is None:
                self._fetch(observation=player)  # the decision's data and the observation at once
            if player not in self._observations:
                r = self._request("observation_tensor", state_id=self.id, player=player)
                self._observations[player] = _observation(r)
        obs = self._observations[player]
        return obs.copy() if _arrays.HAVE_NUMPY else obs[:]

    def action_to_string(self, player_or_action: int, action: Optional[int] = None) -> str:
        """``action_to_string(action)`` or OpenSpiel's ``action_to_string(player, action)`` (the
        player is not used); integers, as for :meth:`apply_action`."""
        if action is None:
            a = _checks.index(player_or_action, "action")
        else:
            _checks.index(player_or_action, "player")
            a = _checks.index(action, "action")
        return _checks.str_field(self._request("action_to_string", state_id=self.id, action=a), "text")

    def __str__(self) -> str:
        return _checks.str_field(self._request("state_to_string", state_id=self.id), "text")

    def __repr__(self) -> str:
        status = self._status
        where = "?" if status is None else ("terminal" if status[2] else "chance" if status[1] else f"player {status[0]}")
        return f"<meeplekit State {self.id} {where}>"

    def clone(self) -> "State":
        """An independent copy (a new handle on the server); the cached reads are copied too."""
        return self._copy(_checks.str_field(self._request("clone", state_id=self.id), "state_id"))

    def clones(self, n: int) -> List["State"]:
        """``n`` independent copies in one round trip (none when ``n`` is 0 or less)."""
        n = _checks.index(n, "n")
        if n <= 0:
            return []
        ids = [_checks.str_field(r, "state_id") for r in self._requests([("clone", {"state_id": self.id})] * n)]
        return [self._copy(state_id) for state_id in ids]

    def _copy(self, state_id: str) -> "State":
        copy = State(self._game, state_id, self._status)
        if self._full is not None:
            copy._full = {k: list(v) for k, v in self._full.items()}
            copy._legal_set = self._legal_set
        copy._outcomes = self._outcomes
        copy._observations = dict(self._observations)
        return copy

    def __copy__(self) -> "State":
        return self.clone()

    def __deepcopy__(self, memo: Any) -> "State":
        return self.clone()

    def child(self, action: int) -> "State":
        """A copy with ``action`` applied."""
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def serialize(self) -> str:
        """Text that :meth:`Game.deserialize_state` reads back (the library's saved state)."""
        return _checks.str_field(self._request("serialize", state_id=self.id), "text")

    def determinize(self, player: int, seed: Any = None) -> "State":
        """A full state consistent with what ``player`` knows, with the unseen parts (the order of
        the bag, The Castle's face-down tokens) drawn anew from ``seed``."""
        r = self._request("determinize", state_id=self.id, player=_checks.index(player, "player"), seed=_seed(seed))
        return State(self._game, _checks.str_field(r, "state_id"))

    def resample_from_infostate(self, player_id: int, seed: Any = None) -> "State":
        """OpenSpiel's name for :meth:`determinize`."""
        return self.determinize(player_id, seed)

    def bot(self, level: Optional[int] = None, *, iterations: Optional[int] = None, time_ms: Optional[float] = None, seed: Any = None) -> BotMove:
        """The move meeplekit's search bot plays here for the player who decides, at ``level``
        (1 to 5, default 3) or within ``iterations`` / ``time_ms``, with ``seed``: see
        :meth:`Server.bot`. Apply its ``action`` with :meth:`apply_action`; the state is not
        changed by the search."""
        return self._server.bot(self, level=level, iterations=iterations, time_ms=time_ms, seed=seed)

    def analyse(self, level: Optional[int] = None, *, iterations: Optional[int] = None, time_ms: Optional[float] = None, seed: Any = None) -> Analysis:
        """As :meth:`bot`, with every candidate the search looked at: see :meth:`Server.analyse`."""
        return self._server.analyse(self, level=level, iterations=iterations, time_ms=time_ms, seed=seed)

    def num_players(self) -> int:
        return self._game.num_players()

    # -- the handle -----------------------------------------------------------------------------

    def free(self) -> None:
        """Deletes the server's handle now; the object is unusable afterwards."""
        if self._finalizer.detach() is not None:
            try:
                self._server.delete([self.id])
            except MeepleError:
                pass

    def __enter__(self) -> "State":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.free()


def fetch(states: Sequence[State], chance: bool = True) -> None:
    """Reads what every state in ``states`` needs for its next decision (its ``state`` data, and
    with ``chance`` its chance outcomes) in one round trip per server, sending the actions applied
    to them since their last request first. Afterwards ``legal_actions``, ``current_player``,
    ``returns``, ``rewards`` and (at chance nodes) ``chance_outcomes`` of each are cached: a search
    that advances many states in lockstep pays one round trip per step, not one per state."""
    by_server: Dict[int, List[State]] = {}
    for st in states:
        if st._full is None or (chance and st._outcomes is None and (st._status is None or st._status[1])):
            by_server.setdefault(id(st._server), []).append(st)
    for group in by_server.values():
        reqs: List[Tuple[str, Mapping[str, Any]]] = []
        plan: List[Tuple[State, int, int]] = []  # state, its pending applies, whether chance_outcomes was asked
        for st in group:
            pending, st._pending = st._pending, []
            reqs.extend(("apply_action", {"state_id": st.id, "action": a}) for a in pending)
            reqs.append(("state", {"state_id": st.id}))
            ask = 1 if chance else 0
            if ask:
                reqs.append(("chance_outcomes", {"state_id": st.id}))
            plan.append((st, len(pending), ask))
        results = group[0]._server.request_many(reqs, raise_errors=False)
        at = 0
        first_error: Optional[MeepleError] = None
        for st, applies, ask in plan:
            mine = results[at:at + applies + 1 + ask]
            at += applies + 1 + ask
            error = next((r for r in mine if isinstance(r, MeepleError)), None)
            if error is not None:
                st._forget()
                first_error = first_error or error
                continue
            try:
                st._absorb(mine[applies])
                if ask:
                    st._outcomes = _checks.outcomes(_checks.field(mine[applies + 1], "outcomes"))
            except MeepleError as e:
                st._forget()
                first_error = first_error or e
        if first_error is not None:
            raise first_error


def free(states: Sequence[State]) -> None:
    """Deletes the handles of ``states`` now, in one request per server."""
    by_server: Dict[int, Tuple[Server, List[str]]] = {}
    for st in states:
        if st._finalizer.detach() is not None:
            st._pending = []
            by_server.setdefault(id(st._server), (st._server, []))[1].append(st.id)
    for server, ids in by_server.values():
        try:
            server.delete(ids)
        except MeepleError:
            pass
