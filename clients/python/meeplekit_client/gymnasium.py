"""Gymnasium environments for meeplekit: a :class:`gymnasium.vector.VectorEnv` (the fast path,
one server request per step of every game) and a single :class:`gymnasium.Env` (for
``gymnasium.utils.env_checker.check_env`` and code that wants one game).

**Framing.** Carcassonne is a turn-based game of 2 to 5 players; these environments frame it as
*self-play*: each step is the decision of the player who acts in that game (a tile placement, then
the deployment and any module decision as further steps of the same player), and the observation
is that player's, so one policy plays every seat. The observation is a ``Dict``:
``{"observation": float32 [size], "action_mask": int8 [num_distinct_actions]}``, the mask of the
legal actions of the player to act (as PettingZoo's classic games and RLlib's action-masking
models expect: the mask must be read at every step, so it belongs to the observation and is
batched with it). ``info["player"]`` says whose decision the observation is, ``info["acted"]``
who made the step's decision.

**Rewards.** A step's reward is the score that the player who acted gained in the step (their
action and the tile draws after it). Points also reach players during the others' steps (a city
completed by an opponent scores every follower in it), so ``info["rewards"]`` has every player's
gains of the step (``[num_envs, players]``); a trainer that keeps one trajectory per player (the
usual self-play bookkeeping) credits each player with their column, whose sum over a game is the
player's final score.

**Episodes.** ``terminated`` is true at the end of a game; nothing truncates. Chance is resolved
in the server from the seed; the same seed and actions give the same games.

Needs the extra ``[gymnasium]`` (gymnasium and numpy); ``import meeplekit_client`` works without it.
"""

from __future__ import annotations

import array
from typing import Any, Dict, Optional, Tuple

from . import _arrays, _extras
from .server import Server
from .spiel import Game, load_game
from .vector import VecBatch
from .vector import VectorEnv as _VectorEnv

np, _gymnasium, _spaces, _seeding, _gvector, _vutils = _extras.require(
    "gymnasium", "numpy", "gymnasium", "gymnasium.spaces", "gymnasium.utils.seeding", "gymnasium.vector", "gymnasium.vector.utils"
)

__all__ = ["MeeplekitEnv", "MeeplekitVectorEnv", "single_spaces"]

_SAFE = 2**53 - 1


def single_spaces(game: Game) -> Tuple[Any, Any]:
    """The observation space (``Dict(observation=Box float32, action_mask=Box int8)``) and the
    action space (``Discrete(num_distinct_actions)``) of one game of ``game``."""
    size, n = game.observation_tensor_size(), game.num_distinct_actions()
    observation = _spaces.Dict(
        {
            "observation": _spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": _spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }
    )
    return observation, _spaces.Discrete(n)


def _server_seed(seed: Any) -> Any:
    """A seed the server takes: an integer beyond JSON's safe range is sent as its text."""
    return str(seed) if isinstance(seed, int) and not -_SAFE <= seed <= _SAFE else seed


def _np_seed(seed: Any) -> int:
    """The seed of Gymnasium's ``np_random``: ``seed`` itself if it is a non-negative integer, else
    one derived from its text (a string seed, which the server takes)."""
    return seed if isinstance(seed, int) and seed >= 0 else _extras.int_seed(seed, "np_random")


def _rows(values: Any, dtype: Any) -> Any:
    """A numpy ``[N, width]`` array of a batch's two-dimensional array (already numpy, or the rows
    of ``array.array`` that the client gives without numpy: ``MEEPLEKIT_NO_NUMPY``)."""
    if isinstance(values, np.ndarray):
        return values.astype(dtype, copy=False)
    rows = [np.frombuffer(row, dtype=row.typecode) if isinstance(row, array.array) else np.asarray(row) for row in values]
    return np.stack(rows).astype(dtype, copy=False)


def _flat(values: Any, dtype: Any) -> Any:
    return np.asarray(values).astype(dtype, copy=False)


class _Batches:
    """What both environments share: a :class:`meeplekit_client.VectorEnv` with observations and
    masks (``compact``: the compact observations and bit-packed masks, decoded here to exactly the
    float32 observations and the masks; else the float32 ones and dense masks, 10 times the bytes
    per step), and the conversion of its batches to Gymnasium's arrays."""

    def _make(self, num_envs: int, game: Any, auto_reset: bool, seed: Any, compact: Optional[bool], kwargs: Dict[str, Any]) -> None:
        if compact is None:
            compact = _arrays.HAVE_NUMPY  # the client's pure-Python decoding of compact observations is slow
        self.game: Game = game if isinstance(game, Game) else load_game(game, **kwargs)
        self._vec = _VectorEnv(
            num_envs,
            self.game,
            seed=_server_seed(seed),
            auto_reset=auto_reset,
            observations="compact" if compact else "float32",
            masks="packed" if compact else "dense",
        )
        self._players = self.game.num_players()

    def _observation(self, batch: VecBatch) -> Dict[str, Any]:
        return {
            "observation": _rows(self._vec.decode_observations(batch), np.float32),
            "action_mask": _rows(self._vec.unpack_masks(batch), np.int8),
        }

    def _reset_batch(self, seed: Any) -> VecBatch:
        return self._vec.reset(None if seed is None else _server_seed(seed))

    def _step_batch(self, actions: Any) -> Tuple[VecBatch, Any]:
        """The batch after ``actions`` and who acted in each game."""
        acted = _flat(self._vec.last.current_player, np.int32)
        return self._vec.step(np.asarray(actions, dtype=np.int64).reshape(-1)), acted


class MeeplekitVectorEnv(_gvector.VectorEnv, _Batches):
    """``num_envs`` games of meeplekit as a Gymnasium 1.x vector environment (see the module's
    documentation for the framing). ``game``, ``expansions``, ``players``, ``options`` and
    ``server`` are :func:`meeplekit_client.load_game`'s (default: 2-player classic on the shared
    server); ``seed`` seeds the first games (the first :meth:`reset` without a seed plays them).
    ``compact`` (the default when the client uses numpy) has the server send compact
    observations and bit-packed masks, which the client decodes to the same arrays (about 20 KB
    per classic game and step instead of 224 KB: 2.4 times the steps per second with 64 games);
    ``compact=False`` asks for the float32 observations and dense masks (also for a server from
    before the compact encodings).

    - ``single_observation_space``: ``Dict(observation=Box(-inf, inf, (size,), float32),
      action_mask=Box(0, 1, (num_distinct_actions,), int8))``; ``observation_space`` is it batched
      (arrays of ``[num_envs, ...]``). ``single_action_space``: ``Discrete(num_distinct_actions)``;
      ``action_space``: ``MultiDiscrete`` of ``num_envs`` of them.
    - ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``: a game that ends in a step
      reports ``terminations[i]`` true and its final scores in ``info["final_info"]["returns"]``
      (with the masks ``info["_final_info"]`` and ``info["final_info"]["_returns"]``), and in the
      same step its observation is already the first decision of a new game (the server starts it
      at once). ``info["final_obs"]`` is not given: the server does not keep a finished game's last
      observation, and a terminal transition needs none (nothing truncates, so no value is
      bootstrapped from it).
    - ``step(actions)`` returns ``(observations, rewards, terminations, truncations, infos)``,
      rewards float32 ``[num_envs]``; ``infos`` has, each with its ``_key`` mask (Gymnasium's
      convention), ``player`` (int32 ``[num_envs]``: who decides now), ``acted`` (who decided in
      this step) and ``rewards`` (float32 ``[num_envs, players]``: every player's gains).
    - An illegal action (one whose mask entry is 0) raises :class:`meeplekit_client.MeepleError`
      (``protocol/illegal-action``, naming the game) and no game moves: sample with the mask
      (``action_space.sample(mask=...)`` per game, or ``masked argmax``).
    """

    metadata = {"autoreset_mode": _gvector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        game: Any = "classic",
        *,
        expansions: Any = (),
        players: int = 2,
        options: Optional[Dict[str, Any]] = None,
        server: Optional[Server] = None,
        seed: Any = None,
        compact: Optional[bool] = None,
    ):
        self._make(num_envs, game, True, seed, compact, {"expansions": expansions, "players": players, "options": options, "server": server})
        self.num_envs = self._vec.num_envs
        self.single_observation_space, self.single_action_space = single_spaces(self.game)
        self.observation_space = _vutils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = _vutils.batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None

    def reset(self, *, seed: Any = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """New games in every env: from ``seed`` when given (an integer or a string), else the next
        games of each env's random source (the constructor's games at the first call). ``options``
        is accepted and unused."""
        if seed is not None:
            self._np_random, self._np_random_seed = _seeding.np_random(_np_seed(seed))
        batch = self._reset_batch(seed)
        player = _flat(batch.current_player, np.int32)
        return self._observation(batch), {"player": player, "_player": np.ones(self.num_envs, dtype=bool)}

    def step(self, actions: Any) -> Tuple[Dict[str, Any], Any, Any, Any, Dict[str, Any]]:
        batch, acted = self._step_batch(actions)
        everyone = _rows(batch.rewards, np.float32)
        rewards = everyone[np.arange(self.num_envs), np.maximum(acted, 0)] * (acted >= 0)
        terminations = _flat(batch.done, bool)
        ones = np.ones(self.num_envs, dtype=bool)
        infos: Dict[str, Any] = {
            "player": _flat(batch.current_player, np.int32),
            "_player": ones,
            "acted": acted,
            "_acted": ones,
            "rewards": everyone,
            "_rewards": ones,
        }
        if terminations.any():
            infos["final_info"] = {"returns": _rows(batch.returns, np.float32), "_returns": terminations.copy()}
            infos["_final_info"] = terminations.copy()
        return self._observation(batch), rewards.astype(np.float32), terminations, np.zeros(self.num_envs, dtype=bool), infos

    def close_extras(self, **kwargs: Any) -> None:
        self._vec.close()


class MeeplekitEnv(_gymnasium.Env, _Batches):
    """One game of meeplekit as a :class:`gymnasium.Env`, framed as :class:`MeeplekitVectorEnv`
    (its spaces are that env's single spaces; ``info`` has ``player``, ``acted`` and ``rewards``
    for the one game). At the end of a game ``terminated`` is true, the observation is player 0's
    view of the final position with an all-zero mask, and ``info["returns"]`` has the final
    scores; call :meth:`reset` for the next game.

    ``illegal`` says what an action whose mask entry is 0 does: ``"terminate"`` (default, as
    PettingZoo's classic games do) ends the episode with reward ``illegal_reward`` (-1) and
    ``info["illegal_action"]`` true, the game unchanged; ``"raise"`` raises
    :class:`meeplekit_client.MeepleError` (``protocol/illegal-action``)."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: Any = "classic",
        *,
        expansions: Any = (),
        players: int = 2,
        options: Optional[Dict[str, Any]] = None,
        server: Optional[Server] = None,
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        compact: Optional[bool] = None,
    ):
        if illegal not in ("terminate", "raise"):
            raise ValueError("illegal must be 'terminate' or 'raise'")
        self._make(1, game, False, None, compact, {"expansions": expansions, "players": players, "options": options, "server": server})
        self.observation_space, self.action_space = single_spaces(self.game)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self._obs: Optional[Dict[str, Any]] = None

    def _one(self, batch: VecBatch) -> Dict[str, Any]:
        obs = self._observation(batch)
        self._obs = {k: v[0] for k, v in obs.items()}
        return self._obs

    def reset(self, *, seed: Any = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """A new game: from ``seed`` when given, else the next game of the env's random source."""
        super().reset(seed=None if seed is None else _np_seed(seed))
        batch = self._reset_batch(seed)
        return self._one(batch), {"player": int(_flat(batch.current_player, np.int32)[0])}

    def step(self, action: Any) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        action = int(action)
        if self.illegal == "terminate" and not (0 <= action < self.action_space.n and self._obs["action_mask"][action]):
            player = int(_flat(self._vec.last.current_player, np.int32)[0])
            return self._obs, self.illegal_reward, True, False, {"player": player, "acted": player, "illegal_action": True}
        batch, acted = self._step_batch([action])
        everyone = _rows(batch.rewards, np.float32)[0]
        who = int(acted[0])
        info: Dict[str, Any] = {"player": int(_flat(batch.current_player, np.int32)[0]), "acted": who, "rewards": everyone}
        done = bool(_flat(batch.done, bool)[0])
        if done:
            info["returns"] = _rows(batch.returns, np.float32)[0]
        return self._one(batch), float(everyone[who]) if who >= 0 else 0.0, done, False, info

    def close(self) -> None:
        self._vec.close()
