"""Exceptions of the meeplekit client."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class MeepleError(Exception):
    """An error reported by ``meeplekit serve`` (or by the client about the server).

    ``code`` is the server's stable error code (``protocol/illegal-action``, ``options/players``,
    ``state/tampered``, ...): branch on it. ``message`` is for people. ``path`` is set when the
    server names the part of the request that was wrong; ``details`` is the whole error object.
    Errors raised by the client itself have codes starting with ``client/``.
    """

    def __init__(self, code: str, message: str, path: Any = None, details: Optional[Mapping[str, Any]] = None):
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.path = path
        self.details = dict(details) if details is not None else {"code": code, "message": message}

    @classmethod
    def from_response(cls, error: Any) -> "MeepleError":
        """The error of a failure response's ``error`` object; a ``client/bad-response``
        :class:`ServerError` when that is not an object with a code (a non-empty string)."""
        if not isinstance(error, dict):
            return ServerError("client/bad-response", f"the server answered with an error that is not an object: {repr(error)[:200]}")
        code = error.get("code")
        if not isinstance(code, str) or not code:
            return ServerError("client/bad-response", f"the server answered with an error without a code: {repr(error)[:200]}")
        message = error.get("message", "")
        return cls(code, message if isinstance(message, str) else repr(message), error.get("path"), error)

    def __str__(self) -> str:
        where = f" (at {self.path})" if self.path not in (None, "", []) else ""
        return f"{self.code}: {self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ServerError(MeepleError):
    """The server could not be started or reached, spoke another protocol, stopped, or stopped
    answering, or was configured wrongly (``client/...`` codes: ``client/spawn``, ``client/connect``, ``client/config``,
    ``client/startup-timeout``, ``client/hello``, ``client/protocol-version``,
    ``client/server-exited``, ``client/request-timeout``, ``client/closed``, ``client/forked``,
    ``client/bad-response``, ``client/bad-frame``: a binary frame cut short or not matching its
    array's dtype and shape).

    ``returncode`` is the process's exit status when it is known, and ``stderr`` the last lines the
    server wrote to its standard error (both unknown for a server reached over TCP).
    """

    def __init__(self, code: str, message: str, returncode: Optional[int] = None, stderr: str = ""):
        super().__init__(code, message)
        self.returncode = returncode
        self.stderr = stderr


RAY_CODES = ("ray/bad-argument", "ray/unknown-mode", "ray/actor-start", "ray/actor-died", "ray/bad-result")
"""The codes of :class:`RayError`, raised by ``meeplekit_client.ray`` (the extra ``[ray]``)."""


class RayError(MeepleError):
    """A run of ``meeplekit_client.ray`` that could not give its result, with a code of
    :data:`RAY_CODES`:

    - ``ray/actor-start``: an actor did not start (its worker could not import the client, or the
      cluster could not place it within the pool's ``start_timeout``); a server that an actor
      could not start is a :class:`ServerError` with the server's own code (``client/spawn``, ...);
    - ``ray/actor-died``: the actors that ran some games kept dying (killed, their node lost, or
      their ``meeplekit serve`` ended) more times than ``max_retries`` allows; ``details["games"]``
      names those games' indices, and no partial result is returned;
    - ``ray/bad-result``: an actor answered games other than the ones it was given (a client of
      another version on the cluster): nothing is merged;
    - ``ray/bad-argument`` and ``ray/unknown-mode``: see :class:`RayArgumentError`.
    """


class RayArgumentError(RayError, ValueError):
    """An argument of ``meeplekit_client.ray`` out of its range (``ray/bad-argument``: fewer than
    one actor, a negative number of games, a seat that no player has, ...) or a mode it does not
    know (``ray/unknown-mode``); raised before anything is sent to an actor. A ``ValueError`` too,
    as the client's other bad arguments are; an argument of the wrong type is a ``TypeError``."""
