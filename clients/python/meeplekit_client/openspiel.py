"""meeplekit as a game of OpenSpiel's own registry, for users who have ``open_spiel`` (the extra
``[openspiel]``)::

    import pyspiel
    from meeplekit_client import openspiel

    openspiel.register()                       # once; needs pyspiel
    game = pyspiel.load_game("python_meeplekit", {"players": 2, "expansions": "river,tower"})

The game is a Python game of OpenSpiel's (a ``pyspiel.Game`` and ``pyspiel.State`` subclass, as
OpenSpiel's ``python/games`` are) whose states are :class:`meeplekit_client.State` handles on a
``meeplekit serve``: OpenSpiel's algorithms (MCTS, ISMCTS through ``resample_from_infostate``,
the observers of ``make_py_observer``) run on it. Parameters (pyspiel's are scalars): ``game``
(``"classic"``), ``players`` (2), ``expansions`` (comma-separated ids, ``""``), ``returns``
(``"score"``, ``"win-loss"`` or ``"rank"``: what ``returns()`` gives). The registered type is
sequential, explicit stochastic, imperfect information (The Castle hides tokens; classic is
perfect information, see :meth:`meeplekit_client.Game.get_type`), general-sum, terminal rewards
(``returns()`` before the end is the running value of ``returns``), 2 to 5 players.

Importing this module never needs pyspiel: :func:`available` says whether it can be imported and
:func:`register` raises an ``ImportError`` naming the extra when it cannot.
"""

from __future__ import annotations

import importlib.util
from typing import Any, Dict, Optional

from . import _extras
from .server import Server
from .spiel import CHANCE_PLAYER, TERMINAL_PLAYER, load_game

SHORT_NAME = "python_meeplekit"

__all__ = ["SHORT_NAME", "available", "register"]

_registered: Dict[str, Any] = {}


def available() -> bool:
    """Whether ``pyspiel`` (``open_spiel``) can be imported here."""
    try:
        return importlib.util.find_spec("pyspiel") is not None
    except (ImportError, ValueError):
        return False


def register(short_name: str = SHORT_NAME, server: Optional[Server] = None) -> Any:
    """Registers meeplekit with ``pyspiel.register_game`` under ``short_name`` (once per name:
    later calls return the first's game class) and returns the ``pyspiel.Game`` subclass. Its games
    are made on ``server`` (default: the client's shared server, :func:`meeplekit_client.default_server`).
    Without pyspiel, an ``ImportError`` that names the extra ``[openspiel]``."""
    if short_name in _registered:
        return _registered[short_name]
    pyspiel, np = _extras.require("openspiel", "pyspiel", "numpy")
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name="meeplekit (Carcassonne family)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"game": "classic", "players": 2, "expansions": "", "returns": "score"},
    )

    def player_id(p: int) -> int:
        if p == CHANCE_PLAYER:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL_PLAYER:
            return int(pyspiel.PlayerId.TERMINAL)
        return p

    class MeeplekitGame(pyspiel.Game):  # type: ignore[misc, valid-type]
        """A meeplekit ruleset as a pyspiel game (the facade's :class:`meeplekit_client.Game`
        is ``self.facade``)."""

        def __init__(self, params: Optional[Dict[str, Any]] = None):
            params = {**game_type.parameter_specification, **(params or {})}
            expansions = [e for e in str(params["expansions"]).split(",") if e.strip()]
            self.facade = load_game(str(params["game"]), [e.strip() for e in expansions], int(params["players"]), server=server)
            self.returns_kind = str(params["returns"])
            low, high = self.facade.utility_bounds(self.returns_kind)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.facade.num_distinct_actions(),
                max_chance_outcomes=self.facade.max_chance_outcomes(),
                num_players=self.facade.num_players(),
                min_utility=float(low),
                max_utility=float(high),
                utility_sum=self.facade.utility_sum(self.returns_kind),
                max_game_length=self.facade.max_game_length(),
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> "MeeplekitState":
            return MeeplekitState(self, self.facade.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "MeeplekitObserver":
            perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
            return MeeplekitObserver(self.facade.observation_tensor_size(), perfect_recall)

    class MeeplekitState(pyspiel.State):  # type: ignore[misc, valid-type]
        """A pyspiel state over a :class:`meeplekit_client.State` (``self.inner``). pyspiel clones
        a Python state with ``copy.deepcopy``, which clones ``inner`` on the server."""

        def __init__(self, game: MeeplekitGame, inner: Any):
            super().__init__(game)
            self.inner = inner
            self._kind = game.returns_kind

        def current_player(self) -> int:
            return player_id(self.inner.current_player())

        def _legal_actions(self, player: int) -> Any:
            return self.inner.legal_actions()

        def chance_outcomes(self) -> Any:
            return self.inner.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.inner.apply_action(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            return self.inner.action_to_string(int(action))

        def is_terminal(self) -> bool:
            return self.inner.is_terminal()

        def returns(self) -> Any:
            return self.inner.returns(self._kind)

        def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "MeeplekitState":
            return MeeplekitState(self.get_game(), self.inner.resample_from_infostate(player_id, probability_sampler))

        def __str__(self) -> str:
            return str(self.inner)

    class MeeplekitObserver:
        """OpenSpiel's PyObserver: ``tensor`` and ``dict`` (one piece, ``"observation"``) of the
        observation tensor; ``string_from`` is the information state string with perfect recall,
        else the observation string."""

        def __init__(self, size: int, perfect_recall: bool):
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}
            self.perfect_recall = perfect_recall

        def set_from(self, state: MeeplekitState, player: int) -> None:
            self.tensor[:] = np.asarray(state.inner.observation_tensor(player), dtype=np.float32)

        def string_from(self, state: MeeplekitState, player: int) -> str:
            inner = state.inner
            return inner.information_state_string(player) if self.perfect_recall else inner.observation_string(player)

    pyspiel.register_game(game_type, MeeplekitGame)
    _registered[short_name] = MeeplekitGame
    return MeeplekitGame
