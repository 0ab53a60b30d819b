"""A vectorized environment: ``num_envs`` games stepped together in one request per step."""

from __future__ import annotations

import random as _random
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _arrays, _checks
from .bots import BotMove
from .errors import MeepleError, ServerError
from .server import Server
from .spiel import Game, _seed, load_game


class UnknownObservations(MeepleError, ValueError):
    """An observation kind the client does not know (code ``client/unknown-observations``): a
    :class:`MeepleError` with a code, and a ``ValueError`` as other bad arguments are."""


class VecBatch:
    """What the server says about every env after a reset or a step.

    Arrays are numpy arrays when numpy is available, else ``array.array`` (one dimension) or
    lists of ``array.array`` rows (two dimensions):

    - ``current_player`` (int32 ``[N]``): the player to decide in each env, -4 when an env is over
      (and not reset). Chance nodes never show: the server resolves them.
    - ``legal_actions`` (``masks="list"``): per env, the legal action ids ascending (``legal_flat``
      and ``legal_offsets`` are the same as one flat array and ``N + 1`` offsets).
    - ``mask`` (``masks="dense"``): uint8 ``[N, num_distinct_actions]``.
    - ``mask_bits`` (``masks="packed"``): uint8 ``[N, 8 * ceil(num_distinct_actions / 64)]``,
      the mask bit-packed, least significant bit first (action ``a`` is bit ``a & 7`` of byte
      ``a >> 3``), each row whole 64-bit words (``mask_bits.view('<u8')``), the bits past the last
      action 0: ``np.unpackbits(mask_bits, axis=1, count=num_actions, bitorder="little")`` (or
      :meth:`VectorEnv.unpack_masks`).
    - ``rewards`` (float32 ``[N, players]``): the score rewards of the step, for every player.
    - ``done`` (bool ``[N]``): whether the env's game is over after the step. With ``auto_reset``
      that is a game that ended in this step, and the env already stands in a new game, which
      everything else describes; without it, ``done`` stays true once the game is over.
    - ``returns`` (float32 ``[N, players]``): the final scores of the games that ended in this
      step, else 0.
    - ``observations`` (float32 ``[N, size]``, with ``observations=True`` or ``"float32"``):
      each env's current player's observation.
    - ``obs_bits``, ``obs_counts``, ``obs_vector`` (with ``observations="compact"``): the same
      observations in the compact encoding: uint8 ``[N, bit_bytes]`` (the binary channels,
      bit-packed), uint8 ``[N, count_bytes]`` (the counting channels, a byte per cell), float32
      ``[N, vector]``; :meth:`VectorEnv.decode_observations` makes the float32 ones of them.
    - ``ent_rows``, ``ent_mask``, ``ent_vector`` (with ``observations="entity"``): entity
      observations: float32 ``[N, max_rows, columns]`` (a row per placed tile, in the order laid,
      zeros past them), uint8 ``[N, max_rows]`` (1 for a tile's row), float32 ``[N, vector]``;
      the game's ``observation_spec["entity"]`` names the columns.
    """

    __slots__ = (
        "current_player", "legal_actions", "legal_flat", "legal_offsets", "mask", "mask_bits", "rewards", "done", "returns",
        "observations", "obs_bits", "obs_counts", "obs_vector", "ent_rows", "ent_mask", "ent_vector", "raw",
    )

    def __init__(self, r: Mapping[str, Any], num_envs: Optional[int] = None, players: Optional[int] = None):
        """Decodes the batch fields of the response ``r``, checking each array's dtype and shape
        (``num_envs`` and ``players`` when given, else as the arrays say): anything malformed
        raises :class:`ServerError` with code ``client/bad-response``."""
        self.raw = r
        binary = _arrays.decode_binary
        cp = _checks.field(r, "current_player")
        self.current_player = binary(cp, "'current_player'", ("int32",), (num_envs,))
        n = cp["shape"][0]
        legal = r.get("legal")
        if legal is not None:
            legal = _checks.as_dict(legal, "'legal'")
            self.legal_flat = binary(_checks.field(legal, "actions"), "'legal.actions'", ("int32",), (None,))
            self.legal_offsets = binary(_checks.field(legal, "offsets"), "'legal.offsets'", ("int32",), (n + 1,))
            _arrays.check_offsets(self.legal_offsets, len(self.legal_flat), "'legal.offsets'")
            self.legal_actions: Optional[List[Any]] = _arrays.split(self.legal_flat, self.legal_offsets)
        else:
            self.legal_flat = self.legal_offsets = self.legal_actions = None
        self.mask = binary(r["mask"], "'mask'", ("uint8",), (n, None)) if "mask" in r else None
        self.mask_bits = binary(r["mask_bits"], "'mask_bits'", ("uint8",), (n, None)) if "mask_bits" in r else None
        self.rewards = binary(_checks.field(r, "rewards"), "'rewards'", ("float32",), (n, players))
        done = binary(_checks.field(r, "done"), "'done'", ("uint8",), (n,))
        self.done = done.astype(bool) if _arrays.HAVE_NUMPY else [bool(d) for d in done]
        self.returns = binary(_checks.field(r, "returns"), "'returns'", ("float32",), (n, players))
        self.observations = binary(r["observations"], "'observations'", ("float32",), (n, None)) if "observations" in r else None
        compact = r.get("compact_observations")
        if compact is not None:
            compact = _checks.as_dict(compact, "'compact_observations'")
            self.obs_bits = binary(_checks.field(compact, "bits"), "'compact_observations.bits'", ("uint8",), (n, None))
            self.obs_counts = binary(_checks.field(compact, "counts"), "'compact_observations.counts'", ("uint8",), (n, None))
            self.obs_vector = binary(_checks.field(compact, "vector"), "'compact_observations.vector'", ("float32",), (n, None))
        else:
            self.obs_bits = self.obs_counts = self.obs_vector = None
        entity = r.get("entity_observations")
        if entity is not None:
            entity = _checks.as_dict(entity, "'entity_observations'")
            self.ent_rows = binary(_checks.field(entity, "rows"), "'entity_observations.rows'", ("float32",), (n, None, None))
            self.ent_mask = binary(_checks.field(entity, "mask"), "'entity_observations.mask'", ("uint8",), (n, None))
            self.ent_vector = binary(_checks.field(entity, "vector"), "'entity_observations.vector'", ("float32",), (n, None))
        else:
            self.ent_rows = self.ent_mask = self.ent_vector = None

    def __len__(self) -> int:
        return len(self.current_player)

    def __repr__(self) -> str:
        return f"<VecBatch of {len(self)} envs, {int(sum(1 for d in self.done if d))} done>"


class VectorEnv:
    """``num_envs`` games of one ruleset, stepped together: one request per :meth:`step`.

    ``game`` is a game name (with ``expansions``, ``players`` and ``options`` as for
    :func:`load_game`) or a :class:`Game`. Chance is resolved inside the server from ``seed``
    (reproducible), or from ``seeds``, one per env: env ``i`` then plays exactly what
    ``VectorEnv(1, game, seed=seeds[i])`` plays, byte for byte, its next games too with
    ``auto_reset`` (give ``seed`` or ``seeds``, not both; a server without the capability
    ``vec-seeds`` refuses ``seeds`` with ``protocol/request``). ``auto_reset`` starts a new game in
    an env as soon as one ends.
    ``observations`` sends each env's observation with every batch: ``True`` or ``"float32"``
    (the float32 tensor), ``"compact"`` (the same, binary channels as bits and counting channels
    as bytes: 10.6 KB instead of 142 KB for classic), ``"entity"`` (a row per placed tile, with
    a row mask, and the vector), ``False`` or ``"none"``. ``masks`` is
    ``"list"`` (legal action ids per env), ``"packed"`` (a bit per action), ``"dense"`` (a byte
    per action) or ``"none"``.

    ``shm=True`` has the server write the batches into shared memory (docs/python.md, "Shared
    memory"): the batch's arrays are then read-only numpy views of a segment, no bytes read from
    the server's output, valid until the server writes their slot again, ``shm_slots`` (default 2)
    vector responses later on the server's connection: with one VectorEnv, a batch stays valid
    while the next is asked for and read, and is overwritten by the one after (copy what you keep:
    ``np.array(batch.obs_bits)``). Without ``server`` (and ``game`` a name) the VectorEnv starts a
    server of its own with shared memory, closed with it; with one, that server must have been made
    with ``Server(shm=True)``. Linux only (/dev/shm): elsewhere ``client/shm-unavailable``."""

    _OBSERVATIONS = {True: "float32", False: "none", "float32": "float32", "compact": "compact", "entity": "entity", "none": "none"}

    def __init__(
        self,
        num_envs: int,
        game: Union[str, Game] = "classic",
        *,
        expansions: Sequence[str] = (),
        players: int = 2,
        options: Optional[Mapping[str, Any]] = None,
        seed: Any = None,
        seeds: Optional[Sequence[Any]] = None,
        auto_reset: bool = True,
        observations: bool = False,
        masks: str = "list",
        server: Optional[Server] = None,
        shm: bool = False,
        shm_slots: int = 2,
    ):
        if masks not in ("list", "dense", "packed", "none"):
            raise ValueError("masks must be 'list', 'packed', 'dense' or 'none'")
        if not isinstance(observations, (bool, str)) or observations not in self._OBSERVATIONS:
            raise UnknownObservations(
                "client/unknown-observations", f"observations must be True, False, 'float32', 'compact', 'entity' or 'none', got {observations!r}"
            )
        num_envs = _checks.index(num_envs, "num_envs")
        seeding: Dict[str, Any]
        if seeds is None:
            seeding = {"seed": _seed(seed)}
        else:
            if seed is not None:
                raise ValueError("give seed or seeds, not both")
            if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence):
                raise TypeError(f"seeds must be a sequence of seeds, one per env, got {type(seeds).__name__}")
            if len(seeds) != num_envs:
                raise ValueError(f"seeds must have one seed per env ({num_envs}), got {len(seeds)}")
            seeding = {"seeds": [_checks.seed(s, f"seeds[{i}]") for i, s in enumerate(seeds)]}
        self._own_server: Optional[Server] = None
        if shm is not False and shm is not True:
            raise TypeError(f"shm must be True or False, got {shm!r}")
        if shm and server is None and not isinstance(game, Game):
            server = self._own_server = Server(shm=True, shm_slots=shm_slots)
        try:
            self.game = game if isinstance(game, Game) else load_game(game, expansions, players, options, server)
            if shm and not self.game.server.shm:
                raise ServerError(
                    "client/config", "shm=True with a server without shared memory: make it with Server(shm=True), or give no server"
                )
        except BaseException:
            if self._own_server is not None:
                self._own_server.close()
            raise
        self.server = self.game.server
        self.num_envs = num_envs
        self.masks = masks
        self.auto_reset = auto_reset
        self.observations: str = self._OBSERVATIONS[observations]
        """Which observations batches carry: ``"float32"``, ``"compact"``, ``"entity"`` or ``"none"``."""
        r = self.server.request(
            "vec_make",
            game_id=self.game.id,
            num_envs=self.num_envs,
            **seeding,
            auto_reset=bool(auto_reset),
            observations=self.observations,
            masks=masks,
        )
        self.id: str = _checks.str_field(r, "env_id")
        self._finalizer = weakref.finalize(self, self.server._discard, self.id)
        self._finalizer.atexit = False
        self._fresh: Optional[VecBatch] = VecBatch(r, self.num_envs, self.game.num_players())
        self.last: VecBatch = self._fresh
        """The last batch returned (by the constructor, :meth:`reset` or :meth:`step`)."""
        self._closed = False
        self._np_rng: Any = None
        self._inflight: Any = None

    @property
    def num_players(self) -> int:
        return self.game.num_players()

    @property
    def num_actions(self) -> int:
        return self.game.num_distinct_actions()

    def decode_observations(self, batch: Optional[VecBatch] = None) -> Any:
        """The float32 observations ``[N, size]`` of ``batch`` (default: the last one): its
        ``observations`` as they are, or its compact ones decoded (exactly the float32 tensor).
        None when the batch carries none."""
        batch = batch if batch is not None else self.last
        if batch.observations is not None or batch.obs_bits is None:
            return batch.observations
        return _arrays.decode_compact(batch.obs_bits, batch.obs_counts, batch.obs_vector, self.game.observation_spec)

    def unpack_masks(self, batch: Optional[VecBatch] = None) -> Any:
        """The dense masks (uint8 ``[N, num_actions]``) of ``batch``'s packed ones (default: the
        last batch); its ``mask`` when it has dense ones."""
        batch = batch if batch is not None else self.last
        if batch.mask_bits is None:
            return batch.mask
        return _arrays.unpack_bits(batch.mask_bits, self.num_actions)

    def reset(self, seed: Any = None) -> VecBatch:
        """Starts every env anew (from ``seed`` when given) and returns the batch. The first call
        after construction without a seed returns the constructor's batch (no request)."""
        if self._fresh is not None and seed is None:
            batch, self._fresh = self._fresh, None
            return batch
        self._fresh = None
        args: Dict[str, Any] = {"env_id": self.id}
        if seed is not None:
            args["seed"] = _seed(seed)
        self.last = VecBatch(self.server.request("vec_reset", **args), self.num_envs, self.game.num_players())
        return self.last

    def step(self, actions: Any) -> VecBatch:
        """Applies one action per env (``-1`` for an env that is over and not reset) and returns the
        new batch. An illegal action raises :class:`MeepleError` (``protocol/illegal-action``) and
        no env moves. ``actions`` is a sequence of integers (``int`` or numpy integers) or a
        one-dimensional numpy array of an integer dtype; floats and bools raise ``TypeError``."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Sends the step without waiting: :meth:`step_wait` returns its batch. Meanwhile the
        program may work on something else, for instance choose the actions of another
        VectorEnv on the same server, whose step the server then runs while this one's is read:
        with two envs in flight neither the server nor Python waits for the other."""
        if self._inflight is not None:
            raise RuntimeError("step_async: the previous step_async has not been waited for")
        encoded = _arrays.encode_int32(actions, "actions")
        count = len(encoded) if isinstance(encoded, list) else encoded["shape"][0]
        if count != self.num_envs:
            raise ValueError(f"step needs {self.num_envs} actions, got {count}")
        self._fresh = None
        self._inflight = self.server.submit("vec_step", env_id=self.id, actions=encoded)

    def step_wait(self) -> VecBatch:
        """The batch of the step :meth:`step_async` sent."""
        pending, self._inflight = self._inflight, None
        if pending is None:
            raise RuntimeError("step_wait: no step_async to wait for")
        self.last = VecBatch(pending.result(), self.num_envs, self.game.num_players())
        return self.last

    def bot(self, index: int, level: Optional[int] = None, *, iterations: Optional[int] = None, time_ms: Optional[float] = None, seed: Any = None) -> BotMove:
        """The move meeplekit's search bot plays for the player who decides in env ``index`` (its
        ``action`` is that env's action for :meth:`step`), at ``level`` (1 to 5, default 3) or
        within ``iterations`` / ``time_ms``, with ``seed``: see :meth:`Server.bot`. An env whose
        game is over (without auto-reset) raises :class:`MeepleError` ``bots/game-over``."""
        return self.server.bot(env=self, env_index=index, level=level, iterations=iterations, time_ms=time_ms, seed=seed)

    def random_actions(self, batch: Optional[VecBatch] = None, rng: Any = None) -> Any:
        """A uniformly random legal action per env of ``batch`` (default: the last one), -1 for
        an env with none. ``rng``: a ``random.Random`` or a ``numpy.random.Generator``."""
        batch = batch if batch is not None else self.last
        n = len(batch)
        if _arrays.HAVE_NUMPY:
            np = _arrays.np
            if isinstance(rng, np.random.Generator):
                gen = rng
            elif rng is None:
                if self._np_rng is None:
                    self._np_rng = np.random.default_rng()
                gen = self._np_rng
            else:
                gen = np.random.default_rng(rng.getrandbits(64))
            out = np.full(n, -1, dtype=np.int32)
            if batch.legal_offsets is not None:
                offsets, flat = batch.legal_offsets.astype(np.int64), batch.legal_flat
                counts = offsets[1:] - offsets[:-1]
                has = counts > 0
                pick = offsets[:-1] + np.floor(gen.random(n) * counts).astype(np.int64)
                out[has] = flat[pick[has]]
                return out
            if batch.mask_bits is not None:
                # The set bits of every row at once: the non-zero 64-bit words (rows are whole
                # words), then their bits. Comparing to 0 first and taking the flat indices of the
                # booleans is ten times faster than np.nonzero on the words themselves.
                words = np.ascontiguousarray(batch.mask_bits).view("<u8")
                width = words.shape[1]
                flat = np.flatnonzero(words != 0)
                rows = flat // width
                cols = flat - rows * width
                bits = np.unpackbits(words.reshape(-1)[flat].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
                k, b = np.nonzero(bits)
                env, action = rows[k], cols[k] * 64 + b
                counts = np.bincount(env, minlength=n)
                offsets = np.concatenate(([0], np.cumsum(counts)))
                has = counts > 0
                pick = offsets[:-1] + np.floor(gen.random(n) * counts).astype(np.int64)
                out[has] = action[pick[has]]
                return out
            if batch.mask is not None:
                for i in range(n):
                    legal = np.flatnonzero(batch.mask[i])
                    if len(legal):
                        out[i] = legal[gen.integers(len(legal))]
                return out
        else:
            r = rng if rng is not None else _random
            if batch.legal_offsets is not None:
                offs, flat = batch.legal_offsets, batch.legal_flat
                return [flat[offs[i] + r.randrange(offs[i + 1] - offs[i])] if offs[i + 1] > offs[i] else -1 for i in range(n)]
            if batch.mask_bits is not None:
                out_list = []
                for row in batch.mask_bits:
                    legal = _arrays.bit_positions(row, self.num_actions)
                    out_list.append(legal[r.randrange(len(legal))] if legal else -1)
                return out_list
            if batch.mask is not None:
                out_list = []
                for row in batch.mask:
                    legal = [i for i, m in enumerate(row) if m]
                    out_list.append(legal[r.randrange(len(legal))] if legal else -1)
                return out_list
        raise ValueError("random_actions needs masks='list', 'packed' or 'dense'")

    def close(self) -> None:
        """Frees the envs on the server (the server stays up, unless it is the VectorEnv's own:
        ``shm=True`` without a server)."""
        if self._closed:
            return
        self._closed = True
        self._finalizer.detach()
        try:
            if self.server.alive:
                self.server.request("vec_close", env_id=self.id)
        except MeepleError:
            pass
        if self._own_server is not None:
            self._own_server.close()

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
