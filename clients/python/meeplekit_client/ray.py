"""Games and vector-environment rollouts sharded over a Ray cluster: one ``meeplekit serve`` per
Ray actor.

:class:`ServerPool` starts ``actors`` Ray actors, each owning one :class:`~meeplekit_client.Server`
(a ``meeplekit serve`` process on the actor's node), and spreads work over them:

- :meth:`ServerPool.play_games`: whole games, by index, in ``mode="random"`` (every decision a
  uniformly random legal action) or ``mode="bot"`` (the seats of ``bot_seats`` played by
  meeplekit's search bot at ``level`` 1 to 5, or within ``iterations`` searches; the other seats
  random). Each game is a :class:`GameRecord`: its seed, its actions and who took them, its final
  scores.
- :meth:`ServerPool.rollouts`: :class:`~meeplekit_client.VectorEnv` rollouts, by index: ``steps``
  steps of ``num_envs`` environments under a policy (uniformly random by default), as arrays
  ``[steps, num_envs, ...]`` (a :class:`Rollout`).

**Deterministic whatever the number of actors.** Game ``i`` of a run is seeded by
:func:`game_seed` ``(seed, i)`` only: its tile draws by the server from that seed (an environment
of its own seed in its task's vector environment, ``vec_make``'s ``seeds``: the same as a vector
environment of that game alone), its random decisions by a ``random.Random`` of that seed, the bot's
searches by that seed too. Work is cut into tasks of consecutive indices, any actor may run any
task, and the results are merged in index order: the same ``seed`` gives the same records, byte for
byte, on 1, 2 or 40 actors and whatever order the tasks finish in. (A bot move that the server cut
short at its ``--max-bot-ms`` is not reproducible; :attr:`GameRecord.cut_short` counts them.)

**Fault tolerance.** A task's results are taken whole or not at all. When the actor running a task
dies (``ray.kill``, its node lost, its worker crashed) or its ``meeplekit serve`` ends
(``client/server-exited``, ``client/request-timeout``), the actor is replaced by a fresh one and
the task runs again from its seeds: every game is in the result exactly once, the same as in an
undisturbed run. A task lost more than ``max_retries`` times raises :class:`RayError`
``ray/actor-died``, naming its games; nothing partial is returned. Any other error (an unknown
game: ``options/unknown-game``; a bot level that does not exist: ``bots/unknown-level``) is the
same on every actor, so it is raised at once, as :class:`MeepleError` with the server's code.

Needs the extra ``[ray]`` (ray); ``import meeplekit_client`` works without it. Every node that
runs an actor needs the client (installed, or shipped with ``runtime_env={"py_modules": [...]}``)
and a server: Node 20 or later and meeplekit, named by ``serve=`` or ``MEEPLEKIT_SERVE`` there.
"""

from __future__ import annotations

import base64
import math
import os
import random
import secrets
import socket
import struct
import sys
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _arrays, _checks, _extras
from . import bots as _bots
from .errors import MeepleError, RayArgumentError, RayError, ServerError
from .server import Command, Server
from .spiel import load_game
from .vector import VecBatch, VectorEnv

ray, _ray_exceptions = _extras.require("ray", "ray", "ray.exceptions")

__all__ = [
    "LOST_CODES",
    "MODES",
    "GameRecord",
    "RayArgumentError",
    "RayError",
    "Rollout",
    "ServerPool",
    "game_seed",
    "play_games",
    "random_policy",
    "rollouts",
]

MODES = ("random", "bot")
"""The modes of :meth:`ServerPool.play_games`."""

LOST_CODES = ("client/server-exited", "client/request-timeout", "client/closed")
"""The codes of a :class:`ServerError` that mean an actor's server is gone (not that its games are
wrong): its task runs again on a fresh actor, as when the actor itself dies."""

_LOST_RAY_ERRORS: Tuple[type, ...] = tuple(
    getattr(_ray_exceptions, name)
    for name in ("RayActorError", "WorkerCrashedError", "ObjectLostError", "OwnerDiedError", "NodeDiedError")
    if isinstance(getattr(_ray_exceptions, name, None), type)
)
"""Ray's errors for work lost with its actor, worker, node or result."""

_OBSERVATIONS = ("none", "float32", "compact", "entity")
_MASKS = ("list", "packed", "dense")


def game_seed(seed: Any, index: int) -> str:
    """The seed of game (or rollout) ``index`` of a run seeded by ``seed``: ``"<seed>/<index>"``.
    Game ``index`` is ``VectorEnv(1, game, seed=game_seed(seed, index), auto_reset=False)``
    stepped with its record's actions, so a record can be replayed in process."""
    return f"{_checks.seed(seed)}/{_checks.index(index, 'index')}"


@dataclass(frozen=True)
class GameRecord:
    """One game of :meth:`ServerPool.play_games`."""

    index: int
    """The game's index in the run (records come in index order)."""
    seed: str
    """Its seed, :func:`game_seed` of the run's seed and :attr:`index`."""
    actions: List[int]
    """Every decision's action id, in order (the tile draws are the server's, from the seed)."""
    players: List[int]
    """Who took each action."""
    returns: List[float]
    """The final scores, one per player."""
    bot_moves: int = 0
    """How many of the actions the bot chose."""
    cut_short: int = 0
    """How many bot moves the server cut short at its ``--max-bot-ms`` (not reproducible)."""

    def to_dict(self) -> Dict[str, Any]:
        """The record as plain JSON values."""
        return {
            "index": self.index,
            "seed": self.seed,
            "actions": list(self.actions),
            "players": list(self.players),
            "returns": list(self.returns),
            "bot_moves": self.bot_moves,
            "cut_short": self.cut_short,
        }


@dataclass(frozen=True)
class Rollout:
    """One rollout of :meth:`ServerPool.rollouts`: ``steps`` steps of ``num_envs`` environments
    seeded by :attr:`seed`, with auto-reset.

    :attr:`raw` maps each array's name to ``(dtype, shape, bytes)``, little-endian, the first axis
    the step; :attr:`arrays` has the same as numpy arrays when numpy is installed (else nested
    lists). Step ``t`` of every array describes the same moment: ``current_player[t]`` decided
    ``actions[t]`` seeing ``observations[t]`` (or ``obs_bits[t]``, ..., ``ent_rows[t]``, ...,
    ``mask_bits[t]`` or ``mask[t]``, as asked), then ``rewards[t]`` (``[num_envs, players]``),
    ``done[t]`` and ``returns[t]`` came of it (an environment that is done stands in a new game at
    ``t + 1``)."""

    index: int
    seed: str
    num_envs: int
    steps: int
    raw: Dict[str, Tuple[str, Tuple[int, ...], bytes]] = field(repr=False)
    arrays: Dict[str, Any] = field(repr=False)

    def to_dict(self) -> Dict[str, Any]:
        """The rollout as plain JSON values (each array as dtype, shape and base64 of its bytes)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "num_envs": self.num_envs,
            "steps": self.steps,
            "arrays": {
                name: {"dtype": dtype, "shape": list(shape), "b64": base64.b64encode(data).decode("ascii")}
                for name, (dtype, shape, data) in sorted(self.raw.items())
            },
        }


# -- what an actor runs -----------------------------------------------------------------------------


def random_policy(batch: VecBatch, rng: random.Random, env: VectorEnv) -> List[int]:
    """The default policy of :meth:`ServerPool.rollouts`: a uniformly random legal action per
    environment of ``batch`` (-1 for one without), drawn from ``rng`` in environment order, the
    same with or without numpy. A policy of your own has this signature and returns one action per
    environment; it runs on the actors (Ray pickles it), and the rollouts are as deterministic as
    it is given ``rng``."""
    n = len(batch)
    if batch.legal_offsets is not None:
        offsets, flat = batch.legal_offsets, batch.legal_flat
        out = []
        for i in range(n):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            out.append(int(flat[lo + rng.randrange(hi - lo)]) if hi > lo else -1)
        return out
    if batch.mask_bits is not None:
        rows = [_arrays.bit_positions(row, env.num_actions) for row in batch.mask_bits]
    elif batch.mask is not None:
        rows = [[a for a, m in enumerate(row) if m] for row in batch.mask]
    else:
        raise ValueError("random_policy needs masks='list', 'packed' or 'dense'")
    return [int(legal[rng.randrange(len(legal))]) if len(legal) else -1 for legal in rows]


def _game(server: Server, spec: Mapping[str, Any]) -> Any:
    return load_game(spec["game"], spec["expansions"], spec["players"], spec["options"], server)


_ENVS_PER_VECTOR = 1024
"""The most games of a task one vector environment plays side by side (a task of more plays them
in vector environments of this many, one after the other): within the server's ``num_envs`` limit
(4,096) and its memory estimate (a game and a template per game)."""


def _play(server: Server, spec: Mapping[str, Any], indices: Sequence[int]) -> List[Dict[str, Any]]:
    """Plays games ``indices`` of ``spec`` on ``server``, side by side in one vector environment
    (of at most :data:`_ENVS_PER_VECTOR` games) made with ``seeds``: game ``k`` of the task is
    environment ``k``, seeded by its own :func:`game_seed`, so it plays exactly what a vector
    environment of that game alone plays. Every step of all of them is one request (the bot's
    searches of a step, one write)."""
    game = _game(server, spec)
    out: List[Dict[str, Any]] = []
    for at in range(0, len(indices), _ENVS_PER_VECTOR):
        out.extend(_play_together(server, game, spec, indices[at : at + _ENVS_PER_VECTOR]))
    return out


def _play_together(server: Server, game: Any, spec: Mapping[str, Any], indices: Sequence[int]) -> List[Dict[str, Any]]:
    """Plays games ``indices`` of ``spec`` (``game`` on ``server``) in one vector environment,
    environment ``k`` seeded by the :func:`game_seed` of ``indices[k]``, without auto-reset: a
    finished game stays finished (its action -1) while the others play on."""
    players, num_actions = game.num_players(), game.num_distinct_actions()
    seeds = [game_seed(spec["seed"], i) for i in indices]
    n = len(indices)
    if n == 0:
        return []
    made = server.request(
        "vec_make", game_id=game.id, num_envs=n, seeds=seeds, auto_reset=False, observations="none", masks="list"
    )
    env_id = _checks.str_field(made, "env_id")
    try:
        batch = VecBatch(made, n, players)
        rngs = [random.Random(f"{s}/agent") for s in seeds]
        bot = spec["mode"] == "bot"
        seats = set(range(players) if spec["bot_seats"] is None else spec["bot_seats"])
        actions: List[List[int]] = [[] for _ in range(n)]
        who: List[List[int]] = [[] for _ in range(n)]
        returns: List[Optional[List[float]]] = [None] * n
        bot_moves, cut_short = [0] * n, [0] * n
        active = list(range(n))
        while active:
            deciding = {k: int(batch.current_player[k]) for k in active}
            for k in active:
                if not 0 <= deciding[k] < players:
                    raise _checks.bad(f"game {indices[k]} stands at no player's decision and is not done", deciding[k])
            chosen: Dict[int, int] = {}
            searched = [k for k in active if bot and deciding[k] in seats]
            if searched:
                answers = server.request_many(
                    [
                        ("bot", {"env_id": env_id, "env": k, **_bots.budget(spec["level"], spec["iterations"], None, f"{seeds[k]}/bot")})
                        for k in searched
                    ]
                )
                for k, r in zip(searched, answers):
                    move = _bots.bot_move(r, players, num_actions)
                    if move.player != deciding[k]:
                        raise _checks.bad(f"the bot moved for player {move.player} in game {indices[k]}, where player {deciding[k]} decides")
                    chosen[k] = move.action
                    bot_moves[k] += 1
                    cut_short[k] += int(move.cut_short)
            for k in active:
                if k not in chosen:
                    legal = batch.legal_actions[k]
                    if not len(legal):
                        raise _checks.bad(f"game {indices[k]} has no legal action at a player's decision")
                    chosen[k] = int(legal[rngs[k].randrange(len(legal))])
            step = [-1] * n  # a finished game ignores its action
            for k, a in chosen.items():
                step[k] = a
            batch = VecBatch(server.request("vec_step", env_id=env_id, actions=step), n, players)
            still = []
            for k in active:
                actions[k].append(chosen[k])
                who[k].append(deciding[k])
                if batch.done[k]:
                    returns[k] = [float(x) for x in batch.returns[k]]
                else:
                    still.append(k)
            active = still
        return [
            {
                "index": i,
                "seed": seeds[k],
                "actions": actions[k],
                "players": who[k],
                "returns": returns[k],
                "bot_moves": bot_moves[k],
                "cut_short": cut_short[k],
            }
            for k, i in enumerate(indices)
        ]
    finally:
        if server.alive:
            try:
                server.request("delete", ids=[env_id])
            except MeepleError:
                pass


def _raw(value: Mapping[str, Any]) -> Tuple[str, List[int], bytes]:
    """The dtype, shape and little-endian bytes of a batch's binary array as the server sent it
    (already checked by :class:`VecBatch`)."""
    data = bytes(value["data"]) if "data" in value else base64.b64decode(value["b64"])
    return value["dtype"], list(value["shape"]), data


_BATCH_ARRAYS = (
    ("observations", ("observations",)),
    ("obs_bits", ("compact_observations", "bits")),
    ("obs_counts", ("compact_observations", "counts")),
    ("obs_vector", ("compact_observations", "vector")),
    ("ent_rows", ("entity_observations", "rows")),
    ("ent_mask", ("entity_observations", "mask")),
    ("ent_vector", ("entity_observations", "vector")),
    ("mask_bits", ("mask_bits",)),
    ("mask", ("mask",)),
)
"""The arrays of a batch that a rollout records before each step (besides ``current_player``),
by their name in :class:`VecBatch` and their place in the response."""


def _rollouts(server: Server, spec: Mapping[str, Any], indices: Sequence[int]) -> List[Dict[str, Any]]:
    """Runs rollouts ``indices`` of ``spec`` one after the other on ``server``."""
    game = _game(server, spec)
    policy = spec["policy"] or random_policy
    num_envs, steps = spec["num_envs"], spec["steps"]
    out = []
    for i in indices:
        seed = game_seed(spec["seed"], i)
        rng = random.Random(f"{seed}/policy")
        columns: Dict[str, List[bytes]] = {}
        shapes: Dict[str, Tuple[str, List[int]]] = {}

        def keep(name: str, dtype: str, shape: List[int], data: bytes) -> None:
            known = shapes.setdefault(name, (dtype, shape))
            if known != (dtype, shape):
                raise _checks.bad(f"rollout {i}: {name!r} changed from {known} to {(dtype, shape)} between steps")
            columns.setdefault(name, []).append(data)

        with VectorEnv(num_envs, game, seed=seed, auto_reset=True, observations=spec["observations"], masks=spec["masks"]) as env:
            batch = env.reset()
            for _ in range(steps):
                keep("current_player", *_raw(batch.raw["current_player"]))
                for name, where in _BATCH_ARRAYS:
                    value: Any = batch.raw
                    for key in where:
                        value = value.get(key) if isinstance(value, dict) else None
                    if value is not None:
                        keep(name, *_raw(value))
                chosen = [_checks.index(a, "an action of the policy") for a in policy(batch, rng, env)]
                if len(chosen) != num_envs:
                    raise ValueError(f"the policy gave {len(chosen)} actions for {num_envs} environments")
                batch = env.step(chosen)
                keep("actions", "int32", [num_envs], struct.pack(f"<{num_envs}i", *chosen))
                for name in ("rewards", "done", "returns"):
                    keep(name, *_raw(batch.raw[name]))
        arrays = {name: (shapes[name][0], [steps] + shapes[name][1], b"".join(parts)) for name, parts in columns.items()}
        out.append({"index": i, "seed": seed, "num_envs": num_envs, "steps": steps, "arrays": arrays})
    return out


def _failure(error: MeepleError) -> Dict[str, Any]:
    """An error of an actor's work, as plain values for the driver (which raises it again)."""
    return {
        "ok": False,
        "code": error.code,
        "message": error.message,
        "path": error.path,
        "server": isinstance(error, ServerError),
        "returncode": getattr(error, "returncode", None),
        "stderr": getattr(error, "stderr", ""),
        "where": f"the Ray actor of pid {os.getpid()} on {socket.gethostname()}",
    }


class _ServerActor:
    """A Ray actor owning one ``meeplekit serve`` (started in ``__init__``, kept for every task).
    Its methods answer ``{"ok": True, ...}`` or :func:`_failure`'s dict, never raise a
    :class:`MeepleError` (whose fields Ray's own exceptions would not carry)."""

    def __init__(self, serve: Optional[Command], request_timeout: Optional[float]):
        self._server: Optional[Server] = None
        self._start_failure: Optional[Dict[str, Any]] = None
        try:
            self._server = Server(serve, request_timeout=request_timeout)
        except MeepleError as e:
            self._start_failure = _failure(e)

    def hello(self) -> Dict[str, Any]:
        """The actor's server: its version, the node, the pids (or why it did not start)."""
        if self._start_failure is not None:
            return self._start_failure
        assert self._server is not None
        return {
            "ok": True,
            "version": self._server.version,
            "node": socket.gethostname(),
            "node_id": ray.get_runtime_context().get_node_id(),
            "pid": os.getpid(),
            "server_pid": self._server.pid,
        }

    def _run(self, work: Callable[..., List[Dict[str, Any]]], spec: Mapping[str, Any], indices: Sequence[int]) -> Dict[str, Any]:
        if self._start_failure is not None:
            return self._start_failure
        assert self._server is not None
        try:
            return {"ok": True, "results": work(self._server, spec, indices)}
        except MeepleError as e:
            return _failure(e)

    def play(self, spec: Mapping[str, Any], indices: Sequence[int]) -> Dict[str, Any]:
        """Plays games ``indices`` of ``spec``."""
        return self._run(_play, spec, indices)

    def rollouts(self, spec: Mapping[str, Any], indices: Sequence[int]) -> Dict[str, Any]:
        """Runs rollouts ``indices`` of ``spec``."""
        return self._run(_rollouts, spec, indices)

    def close(self) -> None:
        """Ends the actor's server."""
        if self._server is not None:
            self._server.close()


_RemoteActor = ray.remote(_ServerActor)


# -- the driver -----------------------------------------------------------------------------------


def _bad(message: str) -> RayArgumentError:
    return RayArgumentError("ray/bad-argument", message)


def _count(value: Any, name: str, least: int) -> int:
    value = _checks.index(value, name)
    if value < least:
        raise _bad(f"{name} must be at least {least}, got {value}")
    return value


def _timeout(value: Any, name: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds or None, got {type(value).__name__}")
    if not value > 0:
        raise _bad(f"{name} must be a positive number of seconds or None, got {value!r}")
    return None if math.isinf(value) else float(value)


def _ruleset(game: Any, expansions: Any, players: Any, options: Any) -> Dict[str, Any]:
    if not isinstance(game, str):
        raise TypeError(f"game must be a game's name, got {type(game).__name__}")
    if isinstance(expansions, str) or not all(isinstance(e, str) for e in expansions):
        raise TypeError("expansions must be a sequence of expansion ids (strings)")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of options per expansion id, got {type(options).__name__}")
    return {"game": game, "expansions": list(expansions), "players": _checks.index(players, "players"), "options": dict(options) if options else None}


def _run_seed(seed: Any) -> Any:
    return secrets.token_hex(8) if seed is None else _checks.seed(seed)


def _games_job(
    games: Any, seed: Any, mode: Any, game: Any, expansions: Any, players: Any, options: Any, level: Any, iterations: Any,
    bot_seats: Any, games_per_task: Any, max_retries: Any,
) -> Tuple[Dict[str, Any], List[List[int]], int]:
    """The checked arguments of :meth:`ServerPool.play_games`: the spec the actors play by, the
    tasks' game indices and the retries allowed."""
    games = _count(games, "games", 0)
    if not isinstance(mode, str) or mode not in MODES:
        raise RayArgumentError("ray/unknown-mode", f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    spec = _ruleset(game, expansions, players, options)
    _bots.budget(level, iterations, None, None)  # the client's checks of a budget (types)
    if mode == "random" and (level is not None or iterations is not None or bot_seats is not None):
        raise _bad("level, iterations and bot_seats are for mode='bot'")
    seats = None
    if bot_seats is not None:
        seats = sorted({_checks.index(s, "a seat of bot_seats") for s in bot_seats})
        wrong = [s for s in seats if not 0 <= s < spec["players"]]
        if wrong:
            raise _bad(f"bot_seats names seats {wrong}, which a game of {spec['players']} players does not have")
    spec.update(seed=_run_seed(seed), mode=mode, level=level, iterations=iterations, bot_seats=seats)
    return spec, _chunks(games, _count(games_per_task, "games_per_task", 1)), _count(max_retries, "max_retries", 0)


def _rollouts_job(
    count: Any, seed: Any, num_envs: Any, steps: Any, game: Any, expansions: Any, players: Any, options: Any,
    observations: Any, masks: Any, policy: Any, rollouts_per_task: Any, max_retries: Any,
) -> Tuple[Dict[str, Any], List[List[int]], int]:
    """The checked arguments of :meth:`ServerPool.rollouts`, as :func:`_games_job`'s."""
    count = _count(count, "count", 0)
    spec = _ruleset(game, expansions, players, options)
    if observations not in _OBSERVATIONS:
        raise _bad(f"observations must be one of {', '.join(_OBSERVATIONS)}, got {observations!r}")
    if masks not in _MASKS:
        raise _bad(f"masks must be one of {', '.join(_MASKS)}, got {masks!r}")
    if policy is not None and not callable(policy):
        raise TypeError(f"policy must be a function (batch, rng, env) -> actions, got {type(policy).__name__}")
    spec.update(
        seed=_run_seed(seed), num_envs=_count(num_envs, "num_envs", 1), steps=_count(steps, "steps", 1),
        observations=observations, masks=masks, policy=policy,
    )
    return spec, _chunks(count, _count(rollouts_per_task, "rollouts_per_task", 1)), _count(max_retries, "max_retries", 0)


def _chunks(count: int, size: int) -> List[List[int]]:
    return [list(range(lo, min(lo + size, count))) for lo in range(0, count, size)]


def _span(indices: Sequence[int]) -> str:
    return f"{indices[0]} to {indices[-1]}" if len(indices) > 1 else str(indices[0])


class ServerPool:
    """``actors`` Ray actors, each owning a ``meeplekit serve`` process, to play games
    (:meth:`play_games`) and run rollouts (:meth:`rollouts`) on; Ray must be initialized (or is
    initialized by Ray's defaults on first use).

    ``serve`` is the command that starts a server on an actor's node (a string split as a shell
    would, or a list; default: that node's ``MEEPLEKIT_SERVE``, else
    ``npx --no-install meeplekit serve``); ``request_timeout`` bounds each of its requests as for
    :class:`~meeplekit_client.Server`. ``actor_options`` go to Ray's ``.options()`` (default
    ``{"num_cpus": 1}``: an actor and its server use a core; ``{"num_cpus": 0.5}`` packs two on a
    core, ``{"resources": ...}`` or a scheduling strategy places them). The constructor waits for
    every actor to start its server, at most ``start_timeout`` seconds: :class:`RayError`
    ``ray/actor-start`` when an actor did not start (placed nowhere in time, or its worker could
    not import the client), or the :class:`ServerError` of a server that did not start
    (``client/spawn``, ``client/server-exited``, ...), naming the actor's node.

    ``close()`` (or leaving a ``with`` block) ends the actors and their servers.
    """

    def __init__(
        self,
        actors: int = 2,
        *,
        serve: Optional[Command] = None,
        request_timeout: Optional[float] = None,
        actor_options: Optional[Mapping[str, Any]] = None,
        start_timeout: Optional[float] = 300.0,
    ):
        count = _count(actors, "actors", 1)
        if serve is not None and not isinstance(serve, (str, list, tuple)):
            raise TypeError(f"serve must be a command (a string or a list), got {type(serve).__name__}")
        self._serve = serve
        self._request_timeout = _timeout(request_timeout, "request_timeout")
        start = _timeout(start_timeout, "start_timeout")
        if actor_options is not None and not isinstance(actor_options, Mapping):
            raise TypeError(f"actor_options must be a mapping of Ray actor options, got {type(actor_options).__name__}")
        self._options = {"num_cpus": 1, **(actor_options or {})}
        self.stats: Dict[str, int] = {"actors_started": 0, "tasks": 0, "replayed": 0}
        """Counters: ``actors_started`` (replacements included), ``tasks`` (run to their end) and
        ``replayed`` (tasks run again after their actor or its server died)."""
        self._closed = False
        self._running: Dict[Any, Tuple[int, List[int]]] = {}
        self.actors: List[Any] = [self._new_actor() for _ in range(count)]
        """The actors' handles (an actor that died is replaced in place)."""
        self.servers: List[Dict[str, Any]] = self._check_started(start)
        """What each actor said when it started: ``version`` (meeplekit's), ``node`` (host name),
        ``node_id`` (Ray's), ``pid`` (the actor's), ``server_pid``."""

    # -- actors -------------------------------------------------------------------------------------

    def _new_actor(self) -> Any:
        self.stats["actors_started"] += 1
        return _RemoteActor.options(**self._options).remote(self._serve, self._request_timeout)

    def _check_started(self, timeout: Optional[float]) -> List[Dict[str, Any]]:
        refs = [a.hello.remote() for a in self.actors]
        ready, waiting = ray.wait(refs, num_returns=len(refs), timeout=timeout)
        if waiting:
            self.close()
            raise RayError(
                "ray/actor-start",
                f"{len(waiting)} of {len(refs)} Ray actors had not started within {timeout:g} s: the cluster may lack the "
                f"resources they ask for ({self._options}; the cluster has {ray.cluster_resources()}). Pass fewer actors, "
                "actor_options={'num_cpus': 0.5}, or a longer start_timeout",
            )
        answers = []
        for ref in refs:
            try:
                answer = ray.get(ref)
            except _LOST_RAY_ERRORS as e:
                self.close()
                raise RayError(
                    "ray/actor-start",
                    f"a Ray actor did not start (can its node import meeplekit_client? install it there, or pass "
                    f"runtime_env={{'py_modules': [meeplekit_client]}} to ray.init): {str(e)[:2000]}",
                ) from None
            if not answer.get("ok"):
                self.close()
                raise _error(answer, "starting its server")
            answers.append(answer)
        return answers

    def running(self) -> List[Tuple[Any, List[int]]]:
        """The tasks in flight, as ``(actor handle, game or rollout indices)``, in the order they
        were given out: for monitoring (and for the tests, which kill such an actor)."""
        return [(self.actors[slot], list(indices)) for slot, indices in self._running.values()]

    def _replace(self, slot: int) -> None:
        try:
            ray.kill(self.actors[slot], no_restart=True)
        except Exception:  # already gone: nothing to end
            pass
        self.actors[slot] = self._new_actor()

    # -- work ---------------------------------------------------------------------------------------

    def play_games(
        self,
        games: int,
        seed: Any = None,
        *,
        mode: str = "random",
        game: str = "classic",
        expansions: Sequence[str] = (),
        players: int = 2,
        options: Optional[Mapping[str, Any]] = None,
        level: Optional[int] = None,
        iterations: Optional[int] = None,
        bot_seats: Optional[Sequence[int]] = None,
        games_per_task: int = 8,
        max_retries: int = 3,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> List[GameRecord]:
        """Plays games ``0`` to ``games - 1`` of the ruleset (``game``, ``expansions``,
        ``players``, ``options`` as for :func:`~meeplekit_client.load_game`) and returns their
        records in index order, the same for the same ``seed`` whatever the number of actors
        (``seed=None``: a fresh one, in the records' seeds).

        ``mode="random"``: every decision a uniformly random legal action. ``mode="bot"``: the
        seats ``bot_seats`` (default: all, self-play) are played by the search bot at ``level``
        (1 to 5; default the server's, 3) or within ``iterations`` searches, the others at random.
        A task is ``games_per_task`` consecutive games, played side by side on one actor's server;
        a task whose actor or server dies runs again on a fresh actor, at most ``max_retries``
        times (then :class:`RayError` ``ray/actor-died``). ``progress(done, total)`` is called
        (with games) after each task that ends.

        Raises :class:`RayArgumentError` for arguments out of range (``ray/bad-argument``:
        ``games`` < 0, ``games_per_task`` < 1, ``max_retries`` < 0, a seat no player has, a
        budget with ``mode="random"``; ``ray/unknown-mode``), ``TypeError`` for arguments of the
        wrong type, before anything is sent; :class:`MeepleError` with the server's code for what
        the server refuses (``options/unknown-game``, ``bots/unknown-level``, ...)."""
        spec, chunks, retries = _games_job(
            games, seed, mode, game, expansions, players, options, level, iterations, bot_seats, games_per_task, max_retries
        )
        results = self._run("play", spec, chunks, retries, progress)
        return [GameRecord(**r) for r in results]

    def rollouts(
        self,
        count: int,
        seed: Any = None,
        *,
        num_envs: int = 16,
        steps: int = 64,
        game: str = "classic",
        expansions: Sequence[str] = (),
        players: int = 2,
        options: Optional[Mapping[str, Any]] = None,
        observations: str = "none",
        masks: str = "list",
        policy: Optional[Callable[[VecBatch, random.Random, VectorEnv], Sequence[int]]] = None,
        rollouts_per_task: int = 1,
        max_retries: int = 3,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> List[Rollout]:
        """Runs rollouts ``0`` to ``count - 1`` and returns them in index order, the same for the
        same ``seed`` whatever the number of actors: rollout ``i`` is a
        :class:`~meeplekit_client.VectorEnv` of ``num_envs`` games seeded by :func:`game_seed`
        ``(seed, i)``, with auto-reset, stepped ``steps`` times by ``policy(batch, rng, env)``
        (default :func:`random_policy`; ``rng`` a ``random.Random`` of the rollout's seed).

        ``observations`` (``"none"``, ``"compact"``, ``"float32"``, ``"entity"``) and ``masks``
        (``"list"``: the legal lists, for the policy, not recorded; ``"packed"`` or ``"dense"``:
        recorded) say what else each step records. Tasks, retries, ``progress`` and errors as for
        :meth:`play_games` (``count`` < 0, ``num_envs`` or ``steps`` < 1, an unknown observation
        or mask kind: ``ray/bad-argument``)."""
        spec, chunks, retries = _rollouts_job(
            count, seed, num_envs, steps, game, expansions, players, options, observations, masks, policy, rollouts_per_task, max_retries
        )
        results = self._run("rollouts", spec, chunks, retries, progress)
        return [_rollout(r) for r in results]

    def _run(
        self, method: str, spec: Mapping[str, Any], chunks: List[List[int]], max_retries: int, progress: Optional[Callable[[int, int], None]]
    ) -> List[Dict[str, Any]]:
        """Runs every chunk on some actor, replaying those lost with their actor, and returns the
        results in index order."""
        if self._closed:
            raise RayError("ray/actor-start", "this ServerPool is closed: make a new one")
        total = sum(len(c) for c in chunks)
        results: List[Optional[List[Dict[str, Any]]]] = [None] * len(chunks)
        attempts = [0] * len(chunks)
        queue: Deque[int] = deque(range(len(chunks)))
        idle = list(range(len(self.actors)))
        inflight: Dict[Any, Tuple[int, int]] = {}
        done = 0
        spec_ref = ray.put(dict(spec))
        finished = False

        def dispatch() -> None:
            while queue and idle:
                slot, c = idle.pop(0), queue.popleft()
                ref = getattr(self.actors[slot], method).remote(spec_ref, chunks[c])
                inflight[ref] = (slot, c)
                self._running[ref] = (slot, chunks[c])

        try:
            while queue or inflight:
                dispatch()
                ready, _ = ray.wait(list(inflight), num_returns=1)
                ref = ready[0]
                slot, c = inflight.pop(ref)
                del self._running[ref]
                try:
                    answer = ray.get(ref)
                    cause = None
                except _LOST_RAY_ERRORS as e:
                    answer, cause = None, f"{type(e).__name__}: {str(e)[:1000]}"
                if answer is not None and not answer.get("ok"):
                    if not (answer.get("server") and answer.get("code") in LOST_CODES):
                        raise _error(answer, f"playing the games {_span(chunks[c])}")
                    cause = f"{answer['code']}: {answer['message'][:1000]} ({answer['where']})"
                if cause is not None:
                    attempts[c] += 1
                    self._replace(slot)
                    if attempts[c] > max_retries:
                        raise RayError(
                            "ray/actor-died",
                            f"the games {_span(chunks[c])} were lost with their Ray actor {attempts[c]} times, more than "
                            f"max_retries={max_retries} allows; nothing is returned. The last time: {cause}",
                            details={"code": "ray/actor-died", "games": list(chunks[c]), "attempts": attempts[c], "cause": cause},
                        )
                    self.stats["replayed"] += 1
                    queue.appendleft(c)
                    idle.append(slot)
                    continue
                got = answer["results"]
                if [r.get("index") for r in got] != chunks[c]:
                    raise RayError(
                        "ray/bad-result",
                        f"a Ray actor answered the games {[r.get('index') for r in got][:20]} for {chunks[c][:20]}: nothing is merged "
                        "(is the same meeplekit_client installed on every node?)",
                    )
                results[c] = got
                self.stats["tasks"] += 1
                done += len(got)
                idle.append(slot)
                dispatch()  # the next task first, then the caller's callback
                if progress is not None:
                    progress(done, total)
            finished = True
        finally:
            if not finished:  # an error: end the work still in flight (its actors are replaced)
                for ref, (slot, _) in inflight.items():
                    self._running.pop(ref, None)
                    if not self._closed:
                        self._replace(slot)
        return [r for chunk in results for r in (chunk or [])]

    # -- life ---------------------------------------------------------------------------------------

    def close(self) -> None:
        """Ends the actors (each closes its server first, within a few seconds). Idempotent."""
        if self._closed:
            return
        self._closed = True
        actors = getattr(self, "actors", [])
        try:
            ray.wait([a.close.remote() for a in actors], num_returns=len(actors), timeout=10)
        except Exception:  # an actor already dead: it is ended below all the same
            pass
        for actor in actors:
            try:
                ray.kill(actor, no_restart=True)
            except Exception:
                pass

    def __enter__(self) -> "ServerPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<meeplekit ServerPool of {len(self.actors)} Ray actors{' (closed)' if self._closed else ''}>"


def _error(failure: Mapping[str, Any], doing: str) -> MeepleError:
    """The exception of an actor's :func:`_failure`, its message naming the actor."""
    message = f"{failure['message']} (from {failure['where']}, {doing})"
    if failure["server"]:
        return ServerError(failure["code"], message, failure["returncode"], failure["stderr"])
    return MeepleError(failure["code"], message, failure["path"])


def _rollout(r: Mapping[str, Any]) -> Rollout:
    raw = {name: (dtype, tuple(shape), data) for name, (dtype, shape, data) in r["arrays"].items()}
    arrays = {}
    for name, (dtype, shape, data) in raw.items():
        if _arrays.HAVE_NUMPY:
            arrays[name] = _arrays.np.frombuffer(bytearray(data), dtype=_arrays._NP_DTYPES[dtype]).reshape(shape)
        else:
            flat = _arrays.array.array(_arrays._TYPECODES[dtype])
            flat.frombytes(data)
            if sys.byteorder == "big" and flat.itemsize > 1:  # pragma: no cover - no big-endian CI machine
                flat.byteswap()
            arrays[name] = _nest(flat.tolist(), list(shape))
    return Rollout(r["index"], r["seed"], r["num_envs"], r["steps"], raw, arrays)


def _nest(flat: List[Any], shape: List[int]) -> Any:
    if len(shape) <= 1:
        return flat
    width = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * width:(i + 1) * width], shape[1:]) for i in range(shape[0])]


# -- one-call forms -------------------------------------------------------------------------------


def play_games(
    games: int,
    seed: Any = None,
    *,
    actors: int = 2,
    serve: Optional[Command] = None,
    request_timeout: Optional[float] = None,
    actor_options: Optional[Mapping[str, Any]] = None,
    mode: str = "random",
    game: str = "classic",
    expansions: Sequence[str] = (),
    players: int = 2,
    options: Optional[Mapping[str, Any]] = None,
    level: Optional[int] = None,
    iterations: Optional[int] = None,
    bot_seats: Optional[Sequence[int]] = None,
    games_per_task: int = 8,
    max_retries: int = 3,
    progress: Optional[Callable[[int, int], None]] = None,
) -> List[GameRecord]:
    """:meth:`ServerPool.play_games` on a pool of ``actors`` made for the call and closed after it
    (``serve``, ``request_timeout``, ``actor_options`` as for :class:`ServerPool`); every argument
    is checked before an actor starts."""
    job = _games_job(games, seed, mode, game, expansions, players, options, level, iterations, bot_seats, games_per_task, max_retries)
    with ServerPool(actors, serve=serve, request_timeout=request_timeout, actor_options=actor_options) as pool:
        return [GameRecord(**r) for r in pool._run("play", *job, progress)]


def rollouts(
    count: int,
    seed: Any = None,
    *,
    actors: int = 2,
    serve: Optional[Command] = None,
    request_timeout: Optional[float] = None,
    actor_options: Optional[Mapping[str, Any]] = None,
    num_envs: int = 16,
    steps: int = 64,
    game: str = "classic",
    expansions: Sequence[str] = (),
    players: int = 2,
    options: Optional[Mapping[str, Any]] = None,
    observations: str = "none",
    masks: str = "list",
    policy: Optional[Callable[[VecBatch, random.Random, VectorEnv], Sequence[int]]] = None,
    rollouts_per_task: int = 1,
    max_retries: int = 3,
    progress: Optional[Callable[[int, int], None]] = None,
) -> List[Rollout]:
    """:meth:`ServerPool.rollouts` on a pool of ``actors`` made for the call and closed after it;
    every argument is checked before an actor starts."""
    job = _rollouts_job(
        count, seed, num_envs, steps, game, expansions, players, options, observations, masks, policy, rollouts_per_task, max_retries
    )
    with ServerPool(actors, serve=serve, request_timeout=request_timeout, actor_options=actor_options) as pool:
        return [_rollout(r) for r in pool._run("rollouts", *job, progress)]
