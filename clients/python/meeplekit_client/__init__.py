"""Python client for ``meeplekit serve``: the meeplekit rules engine over JSON lines.

- :class:`Server`: one ``meeplekit serve`` process (``MEEPLEKIT_SERVE`` or an argument names it),
  or with :meth:`Server.connect` a session on one already listening on a TCP port.
- :func:`load_game`, :class:`Game`, :class:`State`: an OpenSpiel-like facade (without
  ``server=``, on the process's shared server: started, or connected to where
  ``MEEPLEKIT_CONNECT`` says).
- :class:`VectorEnv`: many games stepped together, one request per step.
- :class:`AECEnv`: the PettingZoo AEC conventions.
- :meth:`Server.bot`, :meth:`State.bot`, :meth:`VectorEnv.bot`: the move of meeplekit's search bot
  at a level from 1 to 5, to evaluate an agent against (:class:`BotMove`; ``analyse``:
  :class:`Analysis`).
- :class:`MeepleError`: every error, with the server's stable ``code``.

Modules for other libraries, each needing an extra of the package (``import meeplekit_client``
never does): ``meeplekit_client.pettingzoo`` (``[pettingzoo]``: ``env()``/``raw_env()``, a
``pettingzoo.AECEnv``), ``meeplekit_client.gymnasium`` (``[gymnasium]``: a Gymnasium vector
environment and a single one), ``meeplekit_client.openspiel`` (``[openspiel]``:
``register()`` with ``pyspiel.register_game``) and ``meeplekit_client.ray`` (``[ray]``: games and
rollouts sharded over a Ray cluster, one server per actor, the same for a seed whatever the number
of actors).
"""

from ._arrays import HAVE_NUMPY
from .aec import AECEnv
from .bots import Analysis, BotMove, Candidate
from .errors import MeepleError, ServerError
from .server import DEFAULT_COMMAND, PROTOCOL, Server, close_default_server, default_server, resolve_command
from .spiel import CHANCE_PLAYER, TERMINAL_PLAYER, Game, GameType, State, fetch, free, load_game
from .vector import VecBatch, VectorEnv

__version__ = "0.1.0"

__all__ = [
    "AECEnv",
    "Analysis",
    "BotMove",
    "CHANCE_PLAYER",
    "Candidate",
    "DEFAULT_COMMAND",
    "Game",
    "GameType",
    "HAVE_NUMPY",
    "MeepleError",
    "PROTOCOL",
    "Server",
    "ServerError",
    "State",
    "TERMINAL_PLAYER",
    "VecBatch",
    "VectorEnv",
    "close_default_server",
    "default_server",
    "fetch",
    "free",
    "load_game",
    "resolve_command",
]
