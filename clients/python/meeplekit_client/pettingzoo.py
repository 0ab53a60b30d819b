"""PettingZoo's AEC environment for meeplekit, in PettingZoo's module convention.

``env(**kwargs)`` is the environment wrapped as PettingZoo's classic board games wrap theirs
(``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``);
``raw_env(**kwargs)`` is the unwrapped :class:`pettingzoo.AECEnv` (faster: no observation is asked
for unless :meth:`observe` is called). Both default to 2-player classic and take the arguments of
:class:`meeplekit_client.AECEnv` (``game``, ``expansions``, ``players``, ``options``, ``reward``,
``server``, ``render_mode``)::

    from meeplekit_client import pettingzoo as meeplekit_pz

    env = meeplekit_pz.env(players=2)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)
    env.close()

Observations are ``{"observation": float32 [size], "action_mask": int8 [num_distinct_actions]}``
(gymnasium ``Dict(Box, Box)``), as in PettingZoo's classic games; a turn is a placement, then the
deployment (and any module decision) as further steps of the same agent; chance (the tile draws)
is resolved inside :meth:`step` from ``reset``'s seed. Needs the extra ``[pettingzoo]``
(pettingzoo, gymnasium, numpy); ``import meeplekit_client`` works without it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _extras
from .aec import AECEnv as _AECEnv

np, _gymnasium, _pettingzoo, _wrappers = _extras.require("pettingzoo", "numpy", "gymnasium", "pettingzoo", "pettingzoo.utils.wrappers")

from .gymnasium import single_spaces  # noqa: E402  (the same spaces as the Gymnasium environments)

__all__ = ["env", "raw_env"]


class raw_env(_AECEnv, _pettingzoo.AECEnv):
    """A :class:`pettingzoo.AECEnv` playing meeplekit (see the module's documentation). The game
    logic is :class:`meeplekit_client.AECEnv`'s; this class gives it gymnasium spaces, numpy
    observations and PettingZoo's render conventions."""

    metadata = {"name": "meeplekit_v1", "render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: Any = "classic", *, render_mode: Optional[str] = None, **kwargs: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        _AECEnv.__init__(self, game, render_mode=render_mode, **kwargs)
        self.observation_spaces = {}
        self.action_spaces = {}
        for a in self.possible_agents:
            self.observation_spaces[a], self.action_spaces[a] = single_spaces(self.game)

    def _seed_spaces(self, seed: str) -> None:
        for i, a in enumerate(self.possible_agents):
            self.action_spaces[a].seed(_extras.int_seed(seed, f"action-space/{i}"))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, Any]:
        obs = _AECEnv.observe(self, agent)
        return {
            "observation": np.asarray(obs["observation"], dtype=np.float32),
            "action_mask": np.asarray(obs["action_mask"], dtype=np.int8),
        }

    def render(self) -> Optional[str]:
        """With ``render_mode="ansi"``, the state as text (the server's ``state_to_string``);
        without a render mode, a warning and ``None``, as PettingZoo's environments do."""
        if self.render_mode is None:
            _gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return _AECEnv.render(self)


def env(**kwargs: Any) -> Any:
    """:class:`raw_env` wrapped as PettingZoo's classic board games are: an illegal action ends the
    game with reward -1 for the agent who played it (``TerminateIllegalWrapper``), an action
    outside the action space is an assertion error, and the method order is enforced."""
    e: Any = raw_env(**kwargs)
    e = _wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = _wrappers.AssertOutOfBoundsWrapper(e)
    e = _wrappers.OrderEnforcingWrapper(e)
    return e
