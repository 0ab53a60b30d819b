"""An OpenSpiel-like facade: :class:`Game` and :class:`State` over server handles."""

from __future__ import annotations

import enum
import math
import secrets
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _arrays, _checks
from .bots import Analysis, BotMove
from .errors import MeepleError
from .server import Server, default_server

CHANCE_PLAYER = -1
"""``current_player()`` at a chance node (as in OpenSpiel)."""
TERMINAL_PLAYER = -4
"""``current_player()`` when the game is over (as in OpenSpiel)."""


INFORMATION_STATE_SEED = "meeplekit/information-state"
"""The seed of the determinization that :meth:`State.information_state_string` and
:meth:`State.observation_string` read: fixed, so that the unseen parts are made up the same way
for every state a player cannot tell apart."""

_PLAYER_RANGES = {"classic": (2, 5), "castle": (2, 2)}
"""``(min_num_players, max_num_players)`` per game name (the rulesets' ``minPlayers`` and
``maxPlayers``; expansions do not change them)."""


class _Enum(enum.Enum):
    def __repr__(self) -> str:
        return f"{type(self).__qualname__}.{self.name}"


@dataclass(frozen=True)
class GameType:
    """What :meth:`Game.get_type` returns: the fields of pyspiel's ``GameType``, with enums of the
    same names (``GameType.Dynamics.SEQUENTIAL``, ...) whose values are OpenSpiel's names."""

    class Dynamics(_Enum):
        SEQUENTIAL = "sequential"
        SIMULTANEOUS = "simultaneous"
        MEAN_FIELD = "mean_field"

    class ChanceMode(_Enum):
        DETERMINISTIC = "deterministic"
        EXPLICIT_STOCHASTIC = "explicit_stochastic"
        SAMPLED_STOCHASTIC = "sampled_stochastic"

    class Information(_Enum):
        ONE_SHOT = "one_shot"
        PERFECT_INFORMATION = "perfect_information"
        IMPERFECT_INFORMATION = "imperfect_information"

    class Utility(_Enum):
        ZERO_SUM = "zero_sum"
        CONSTANT_SUM = "constant_sum"
        GENERAL_SUM = "general_sum"
        IDENTICAL = "identical"

    class RewardModel(_Enum):
        REWARDS = "rewards"
        TERMINAL = "terminal"

    short_name: str
    long_name: str
    dynamics: "GameType.Dynamics"
    chance_mode: "GameType.ChanceMode"
    information: "GameType.Information"
    utility: "GameType.Utility"
    reward_model: "GameType.RewardModel"
    max_num_players: int
    min_num_players: int
    provides_information_state_string: bool
    provides_information_state_tensor: bool
    provides_observation_string: bool
    provides_observation_tensor: bool
    parameter_specification: Dict[str, Any] = field(default_factory=dict)
    default_loadable: bool = True
    provides_factored_observation_string: bool = False


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

    def get_type(self, kind: str = "score") -> GameType:
        """OpenSpiel's ``GameType`` of this game, its returns being of ``kind`` (``score``, the
        facade's default, ``win-loss`` or ``rank``): ``short_name`` ``"meeplekit"``, ``long_name``
        the ruleset; sequential; explicit stochastic (the tile draws, and The Castle's face-down
        tokens, are chance nodes); ``information`` from the server's ``gameInfo`` (classic with its
        expansions is perfect information: the bag is public as counts and a draw is seen by
        everyone; The Castle is imperfect); ``utility`` zero-sum for ``rank`` (``gameInfo``'s
        ``zeroSum``), general-sum otherwise; ``reward_model`` ``REWARDS`` for scores (points come
        during the game), ``TERMINAL`` for ``win-loss`` and ``rank``; the player range of the game;
        information state and observation, as strings and tensors, provided."""
        self.utility_bounds(kind)  # an unknown kind raises ValueError
        zero_sum = _checks.as_dict(self.info.get("zeroSum", {}), "'info.zeroSum'").get(kind) is True
        low, high = _PLAYER_RANGES.get(self.parameters["game"], (self._players, self._players))
        return GameType(
            short_name="meeplekit",
            long_name=f"meeplekit {self.info.get('ruleset', self.parameters['game'])}",
            dynamics=GameType.Dynamics.SEQUENTIAL,
            chance_mode=GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=GameType.Information.IMPERFECT_INFORMATION if self.info.get("information") == "imperfect" else GameType.Information.PERFECT_INFORMATION,
            utility=GameType.Utility.ZERO_SUM if zero_sum else GameType.Utility.GENERAL_SUM,
            reward_model=GameType.RewardModel.REWARDS if kind == "score" else GameType.RewardModel.TERMINAL,
            max_num_players=high,
            min_num_players=low,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"game": "classic", "expansions": [], "players": 2, "options": {}},
        )

    def utility_sum(self, kind: str = "score") -> Optional[float]:
        """The sum of the players' returns at the end when it is the same in every game (0.0 for
        ``rank``), else ``None`` (pyspiel raises instead for a general-sum game)."""
        return 0.0 if self.get_type(kind).utility is GameType.Utility.ZERO_SUM else None

    def information_state_tensor_shape(self) -> List[int]:
        """The shape of :meth:`State.information_state_tensor`: the observation's."""
        return self.observation_tensor_shape()

    def information_state_tensor_size(self) -> int:
        return self.observation_tensor_size()

    def policy_tensor_shape(self) -> List[int]:
        """``[num_distinct_actions()]``, as OpenSpiel's."""
        return [self._num_actions]

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
        state = State(self, _checks.str_field(r, "state_id"))
        state._history = []
        return state

    def deserialize_state(self, text: str, history: Optional[Sequence[int]] = None) -> "State":
        """The state :meth:`State.serialize` wrote (checked by the server). The text holds the
        game's whole record, but not as action ids: pass ``history`` (the state's
        :meth:`State.history`) for the new state's :meth:`State.history` to know it."""
        r = self.server.request("deserialize", game_id=self.id, text=text)
        state = State(self, _checks.str_field(r, "state_id"))
        if history is not None:
            state._history = [_checks.index(a, "history[]") for a in history]
        return state

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
        self._history: Optional[List[int]] = None  # the actions applied since the initial state, when known
        self._views: Dict[int, Tuple[str, str]] = {}  # player: (information state string, observation string)
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
        self._views = {}

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
                if self._history is not None:
                    self._history.append(action)
                return None
        args: Dict[str, Any] = {"state_id": self.id, "action": action}
        if events:
            args["events"] = True
        r = self._request("apply_action", **args)
        self._forget()
        if self._history is not None:
            self._history.append(action)
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
        copy._views = dict(self._views)
        copy._history = None if self._history is None else list(self._history)
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
        the bag, The Castle's face-down tokens) drawn anew from ``seed``. Its :meth:`history` is
        this state's: every past action and chance outcome is public in these games."""
        r = self._request("determinize", state_id=self.id, player=_checks.index(player, "player"), seed=_seed(seed))
        state = State(self._game, _checks.str_field(r, "state_id"))
        state._history = None if self._history is None else list(self._history)
        return state

    def resample_from_infostate(self, player_id: int, probability_sampler: Union[Callable[[], float], Any] = None) -> "State":
        """OpenSpiel's ISMCTS entry point: a state drawn from ``player_id``'s information state
        (:meth:`determinize`). ``probability_sampler`` is what OpenSpiel passes, a callable
        returning a number in [0, 1) (``pyspiel.UniformProbabilitySampler``): it is called once and
        its number seeds the determinization; or a seed (a string or an integer); or ``None`` for
        a fresh random seed. The same number or seed gives the same state."""
        if callable(probability_sampler):
            u = float(probability_sampler())
            if not 0.0 <= u < 1.0:
                raise ValueError(f"probability_sampler must return a number in [0, 1), got {u!r}")
            probability_sampler = f"sampler/{u.hex()}"
        return self.determinize(player_id, probability_sampler)

    def _player_or_current(self, player: Optional[int]) -> int:
        """``player`` (checked to be one of the game's), or by default the player to decide (as
        pyspiel's methods with an optional player); ``ValueError`` at a chance or terminal node
        without a player."""
        if player is None:
            player = self.current_player()
            if player < 0:
                raise ValueError("no player decides here (a chance node or the end): pass the player")
        player = _checks.index(player, "player")
        if not 0 <= player < self._game._players:
            raise ValueError(f"player must be from 0 to {self._game._players - 1}, got {player}")
        return player

    def _view(self, player: int) -> Tuple[str, str]:
        """The serialized text and the text for people of this state determinized for ``player``
        with the fixed :data:`INFORMATION_STATE_SEED`: what ``player`` knows, the unseen parts made
        up the same way for every state ``player`` cannot tell apart. Two round trips (determinize;
        then serialize, state_to_string and delete in one write), cached until the next action."""
        if player not in self._views:
            r = self._request("determinize", state_id=self.id, player=player, seed=INFORMATION_STATE_SEED)
            view = _checks.str_field(r, "state_id")
            reqs: List[Tuple[str, Mapping[str, Any]]] = [("serialize", {"state_id": view}), ("state_to_string", {"state_id": view}), ("delete", {"ids": [view]})]
            out = self._server.request_many(reqs, raise_errors=False)
            for x in out:
                if isinstance(x, MeepleError):
                    raise x
            self._views[player] = (_checks.str_field(out[0], "text"), _checks.str_field(out[1], "text"))
        return self._views[player]

    def information_state_string(self, player: Optional[int] = None) -> str:
        """OpenSpiel: a string that identifies ``player``'s information state (default: the player
        to decide), equal for two states exactly when ``player`` cannot tell them apart, with
        perfect recall. Here: the state as :meth:`serialize` writes it, determinized for
        ``player`` with a fixed seed (:data:`INFORMATION_STATE_SEED`), so the hidden parts (the
        game's generator, the order of the bag, The Castle's face-down tokens) are the same made-up
        ones for every such state, and the record of every move and draw is in it (perfect recall).
        JSON text, about 2 to 20 KB."""
        return self._view(self._player_or_current(player))[0]

    def observation_string(self, player: Optional[int] = None) -> str:
        """OpenSpiel: ``player``'s observation as a string (default: the player to decide); it need
        not have perfect recall. Here: the text for people (:meth:`__str__`: scores, supply, the
        bag as counts, the board, the tiles in the order laid, the followers) of the state as
        ``player`` knows it (the determinization of :meth:`information_state_string`), so it never
        shows what ``player`` cannot see."""
        return self._view(self._player_or_current(player))[1]

    def information_state_tensor(self, player: Optional[int] = None) -> Any:
        """OpenSpiel: ``player``'s information state as a flat float32 tensor of
        ``information_state_tensor_shape()``. Here the observation tensor
        (:meth:`observation_tensor`): public information only (the board, the followers, the bag's
        counts, the scores, the step, the modules' public features), which is all that matters
        for the rest of the game; it does not spell out the order of past moves (the information
        state string does)."""
        return self.observation_tensor(self._player_or_current(player))

    def history(self) -> List[int]:
        """OpenSpiel: the actions applied since the initial state, chance outcomes included, in
        order (a new list). Known for states made by :meth:`Game.new_initial_state` and everything
        derived from them (clones, children, determinizations); a state read by
        :meth:`Game.deserialize_state` without ``history=`` raises ``ValueError``."""
        if self._history is None:
            raise ValueError(f"the history of {self.id} is not known: it was read from text without history= (Game.deserialize_state)")
        return list(self._history)

    def history_str(self) -> str:
        """OpenSpiel's ``history_str``: the history's actions joined by ``", "``."""
        return ", ".join(map(str, self.history()))

    def move_number(self) -> int:
        """OpenSpiel: how many actions (chance outcomes included) were applied: ``len(history())``."""
        return len(self.history())

    def is_initial_state(self) -> bool:
        """Whether no action was applied since :meth:`Game.new_initial_state`."""
        return not self.history()

    def is_simultaneous_node(self) -> bool:
        """Always false: the game is sequential."""
        return False

    def legal_chance_outcomes(self) -> List[int]:
        """The outcomes of :meth:`chance_outcomes` (``[]`` away from a chance node)."""
        return [o for o, _ in self.chance_outcomes()]

    def num_distinct_actions(self) -> int:
        return self._game.num_distinct_actions()

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
