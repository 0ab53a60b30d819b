"""A PettingZoo-AEC-like environment (the same method names and semantics, no pettingzoo needed)."""

from __future__ import annotations

import random
import secrets
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import _arrays, _checks
from .server import Server
from .spiel import Game, State, load_game


class Discrete:
    """A stand-in for ``gymnasium.spaces.Discrete(n)``: ``n`` and ``sample(mask=None)``."""

    def __init__(self, n: int, seed: Any = None):
        self.n = _checks.index(n, "n")
        self.shape = ()
        self._rng = random.Random(seed)

    def seed(self, seed: Any = None) -> None:
        self._rng.seed(seed)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an integer (``int`` or numpy integer, not a bool) from 0 to ``n - 1``."""
        try:
            x = _checks.index(x, "x")
        except TypeError:
            return False
        return 0 <= x < self.n

    def sample(self, mask: Any = None) -> int:
        """A uniform action, or a uniform one among those where ``mask`` is 1."""
        if mask is None:
            return self._rng.randrange(self.n)
        if _arrays.HAVE_NUMPY:
            legal = _arrays.np.flatnonzero(_arrays.np.asarray(mask))
        else:
            legal = [i for i, m in enumerate(mask) if m]
        if len(legal) == 0:
            raise ValueError("sample: the mask allows no action")
        return int(legal[self._rng.randrange(len(legal))])

    def __repr__(self) -> str:
        return f"Discrete({self.n})"


class Box:
    """A stand-in for ``gymnasium.spaces.Box``: ``shape``, ``dtype``, ``low``, ``high``."""

    def __init__(self, shape: Sequence[int], low: float = 0.0, high: float = float("inf"), dtype: str = "float32"):
        self.shape = tuple(shape)
        self.low = low
        self.high = high
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"


class AECEnv:
    """Turn-based multi-agent environment in the PettingZoo AEC conventions.

    Agents are ``"player_0"``, ``"player_1"``, ... Chance nodes never show: the tile draws are
    sampled inside :meth:`step` and :meth:`reset` by a generator seeded from ``reset``'s seed.
    ``reward`` chooses the rewards: ``"score"`` (default, the points each player got in the step,
    so that a player's rewards sum to its final score), ``"win-loss"`` or ``"rank"`` (0 until the
    end, then the final returns of that kind). :meth:`observe` returns
    ``{"observation": float32 tensor, "action_mask": uint8 mask}``, computed on demand.

    The usual loop::

        env = AECEnv(players=2)
        env.reset(seed=42)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
        env.close()
    """

    metadata = {"name": "meeplekit_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: Union[str, Game] = "classic",
        *,
        expansions: Sequence[str] = (),
        players: int = 2,
        options: Optional[Mapping[str, Any]] = None,
        reward: str = "score",
        server: Optional[Server] = None,
        render_mode: Optional[str] = None,
    ):
        if reward not in ("score", "win-loss", "rank"):
            raise ValueError("reward must be 'score', 'win-loss' or 'rank'")
        self.game = game if isinstance(game, Game) else load_game(game, expansions, players, options, server)
        self.reward_kind = reward
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents: List[str] = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping: Dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: Discrete(self.game.num_distinct_actions()) for a in self.possible_agents}
        self.observation_spaces = {a: Box(self.game.observation_tensor_shape()) for a in self.possible_agents}
        self.game_state: Optional[State] = None
        """The underlying :class:`State` (at a player's decision or at the end)."""
        self.agents: List[str] = []
        self.agent_selection: str = self.possible_agents[0]
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self._skip_agent_selection: Optional[str] = None
        self._rng = random.Random()
        self._scores: List[float] = [0.0] * n

    # -- spaces ---------------------------------------------------------------------------------

    def action_space(self, agent: str) -> Discrete:
        return self.action_spaces[agent]

    def observation_space(self, agent: str) -> Box:
        return self.observation_spaces[agent]

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    # -- the game -------------------------------------------------------------------------------

    def reset(self, seed: Any = None, options: Optional[Mapping[str, Any]] = None) -> None:
        """Starts a new game; the same ``seed`` (a string or an integer; anything else raises
        ``TypeError``) gives the same game for the same actions."""
        seed = secrets.token_hex(16) if seed is None else str(_checks.seed(seed))
        if self.game_state is not None:
            self.game_state.free()
        self._rng = random.Random(f"meeplekit-aec/{seed}")
        self._seed_spaces(seed)
        self.game_state = self.game.new_initial_state(seed)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._scores = self.game_state.returns()
        self._select()

    def _seed_spaces(self, seed: str) -> None:
        """Seeds each agent's action space from ``seed`` (a subclass with other spaces overrides it)."""
        for i, a in enumerate(self.possible_agents):
            self.action_spaces[a].seed(f"{seed}/{i}")

    def _resolve_chance(self) -> None:
        state = self.game_state
        assert state is not None
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            choice = self._rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            state.apply_action(choice)

    def _select(self) -> None:
        state = self.game_state
        assert state is not None
        player = state.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
            self.infos[self.agent_selection]["legal_actions"] = state.legal_actions()

    def observe(self, agent: str) -> Dict[str, Any]:
        state = self.game_state
        if state is None:
            raise RuntimeError("call reset() first")
        return {"observation": state.observation_tensor(self.agent_name_mapping[agent]), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> Any:
        """A uint8 mask of ``num_distinct_actions`` entries: the agent's legal actions now (all 0
        when the agent is not the one to act)."""
        state = self.game_state
        if state is None:
            raise RuntimeError("call reset() first")
        return _arrays.mask_of(state.legal_actions(self.agent_name_mapping[agent]), self.game.num_distinct_actions())

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        """``(observation, cumulative reward, termination, truncation, info)`` of the agent to act."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """Yields the agent to act until every agent is done (and removed by ``step(None)``)."""
        for _ in range(_checks.index(max_iter, "max_iter")):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` for an agent that is done, which
        removes it from ``agents``). An illegal action raises ``MeepleError``; an action that is
        not an integer (a float, a bool) raises ``TypeError``."""
        if action is not None:
            action = _checks.index(action, "action")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is not done: step needs an action")
        state = self.game_state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(action)
        self._resolve_chance()
        scores = state.returns()
        over = state.is_terminal()
        if self.reward_kind == "score":
            step_rewards = [s - b for s, b in zip(scores, self._scores)]
        elif over:
            step_rewards = state.returns(self.reward_kind)
        else:
            step_rewards = [0.0] * len(self.possible_agents)
        self._scores = scores
        self.rewards = {a: float(step_rewards[i]) for i, a in enumerate(self.possible_agents) if a in self.rewards}
        for a in self.infos:
            self.infos[a].pop("legal_actions", None)
        if over:
            final = {"scores": list(scores), "win-loss": state.returns("win-loss"), "rank": state.returns("rank")}
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a]["final"] = final
            self.agent_selection = self.possible_agents[(self.agent_name_mapping[agent] + 1) % len(self.possible_agents)]
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self._select()
        self._accumulate_rewards()

    def _accumulate_rewards(self) -> None:
        for a, r in self.rewards.items():
            self._cumulative_rewards[a] = self._cumulative_rewards.get(a, 0.0) + r

    def _was_dead_step(self, action: Optional[int]) -> None:
        if action is not None:
            raise ValueError("when an agent is done, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            table.pop(agent, None)
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = self.agent_selection
            self.agent_selection = dead[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self.rewards = {a: 0.0 for a in self.rewards}

    def render(self) -> Optional[str]:
        """The state as text (``state_to_string``)."""
        return None if self.game_state is None else str(self.game_state)

    def state(self) -> Any:
        """PettingZoo's global state: the serialized game (full information, the seed included)."""
        return None if self.game_state is None else self.game_state.serialize()

    def close(self) -> None:
        if self.game_state is not None:
            self.game_state.free()
            self.game_state = None
