"""The session with one ``meeplekit serve``: JSON lines over the stdin and stdout of a process the
client starts, or over a TCP connection to a server already listening (:meth:`Server.connect`)."""

from __future__ import annotations

import collections
import json
import math
import os
import shlex
import socket
import threading
import time
import warnings
import weakref
from typing import Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _arrays, _checks, _shm
from . import bots as _bots
from .bots import Analysis, BotMove
from ._transport import PipeTransport, SendTimeout, SocketTransport, Transport, address_text
from .errors import MeepleError, ServerError

PROTOCOL = 1
"""The protocol version this client speaks."""

DEFAULT_COMMAND = ("npx", "--no-install", "meeplekit", "serve")
"""The command started when neither an argument nor ``MEEPLEKIT_SERVE`` names one."""

ENV_VAR = "MEEPLEKIT_SERVE"

CONNECT_ENV_VAR = "MEEPLEKIT_CONNECT"
"""When set (``PORT``, ``HOST:PORT`` or ``[IPV6]:PORT``), :func:`default_server` connects to that
running server instead of starting one."""

REQUEST_TIMEOUT_ENV_VAR = "MEEPLEKIT_REQUEST_TIMEOUT"
"""When set (a positive number of seconds), the ``request_timeout`` of :func:`default_server`'s
server, started or connected."""

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest request line the server reads, in bytes without the newline (docs/protocol.md,
"Limits"). The client does not send a longer request: it fails with ``protocol/too-large``, as the
server would answer, and the session goes on."""

Command = Union[str, Sequence[str]]

_FLUSH_GARBAGE_AT = 64


def resolve_command(command: Optional[Command] = None) -> List[str]:
    """The argv to start: ``command`` (a string is split like a shell would), else the
    ``MEEPLEKIT_SERVE`` environment variable, else ``npx --no-install meeplekit serve``."""
    if command is None:
        command = os.environ.get(ENV_VAR) or None
    if command is None:
        argv = list(DEFAULT_COMMAND)
    elif isinstance(command, str):
        argv = shlex.split(command, posix=os.name != "nt")
    else:
        argv = [str(part) for part in command]
    if not argv:
        raise ServerError("client/spawn", "the command to start meeplekit serve is empty")
    return argv


def _command_source(command: Optional[Command]) -> str:
    """Where :func:`resolve_command` takes the command from: ``"argument"``, ``"environment"``
    (``MEEPLEKIT_SERVE``) or ``"default"`` (``npx --no-install meeplekit serve``)."""
    if command is not None:
        return "argument"
    return "environment" if os.environ.get(ENV_VAR) else "default"


_HOW_TO_POINT = (
    f"To point the client at a server: set {ENV_VAR} to the command that starts one, such as "
    f'{ENV_VAR}="node /path/to/meeplekit/dist/cli.js serve" for a checkout of meeplekit (after npm run build '
    "there), or pass that command to Server(...); or start one with 'meeplekit serve --port 7000' and connect "
    f"to it with Server.connect(7000), or with {CONNECT_ENV_VAR}=7000 for load_game() without server=."
)
"""The hint that a failure to start the server carries, on how to name or reach a server."""


def _startup_hint(source: str, argv: List[str]) -> str:
    """What to add to the error of a server that could not be started with ``argv``, taken from
    ``source`` (see :func:`_command_source`)."""
    if source == "default":
        return (
            f"\nThe client ran its default command, {shlex.join(argv)}, which only works where the meeplekit "
            f"npm package is installed in the current project (npm install meeplekit), since {ENV_VAR} is not set. " + _HOW_TO_POINT
        )
    if source == "environment":
        return f"\nThe command came from {ENV_VAR}={os.environ.get(ENV_VAR, '')!r}: check it. " + _HOW_TO_POINT
    return ""


_live_servers: "weakref.WeakSet[Server]" = weakref.WeakSet()


def _after_fork_in_child() -> None:
    """A forked child must not talk on its parent's pipes (nor keep them open): detach them."""
    for server in list(_live_servers):
        server._detach_after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class Pending:
    """A request in flight (:meth:`Server.submit`)."""

    __slots__ = ("_server", "id", "op", "_response")

    def __init__(self, server: "Server", request_id: int, op: str):
        self._server = server
        self.id = request_id
        self.op = op
        self._response: Optional[Dict[str, Any]] = None

    def done(self) -> bool:
        """Whether the response has been read."""
        return self._response is not None

    def _outcome(self) -> Any:
        r = self._response
        assert r is not None
        ok = r.get("ok")
        if ok is True:
            return r
        if ok is False:
            return MeepleError.from_response(r.get("error"))
        return ServerError("client/bad-response", f"the response to request {self.id} ({self.op}) has no 'ok' of true or false: {str(r)[:200]}")

    def result(self) -> Dict[str, Any]:
        """Waits for the response; its fields, or raises :class:`MeepleError`."""
        server = self._server
        with server._lock:
            while self._response is None:
                if server._dead is not None or not server._inflight:
                    server._check_usable()
                    raise ServerError("client/bad-response", f"request {self.id} ({self.op}) has no response")
                server._read_one()
        out = self._outcome()
        if isinstance(out, MeepleError):
            raise out
        return out


class Server:
    """A JSON-lines session with ``meeplekit serve``: a process this client starts (the
    constructor), or a server already listening on a TCP port (:meth:`connect`).

    ``command`` names the server (see :func:`resolve_command`); for a checkout of the repository
    use ``Server("node /path/to/meeplekit/dist/cli.js serve")`` after ``npm run build``, or set
    ``MEEPLEKIT_SERVE`` to that. ``startup_timeout`` bounds the wait for the hello line (POSIX).
    ``stderr="capture"`` (default) keeps the server's last stderr lines for error messages,
    ``"echo"`` also prints them, ``"inherit"`` leaves stderr to the terminal.

    A server is closed by :meth:`close`, by leaving a ``with`` block, when it is garbage
    collected, or when the interpreter exits. Requests are serialized by a lock, so a server may
    be shared by threads (one request at a time); each process needs its own server.

    ``Server.connect(port)`` is the same session over TCP, to a ``meeplekit serve --port P``
    started elsewhere: everything built on a server (games, states, environments) works the same,
    and closing it closes the connection only.

    ``request_timeout`` (seconds; default None, or infinity: no bound) bounds each wait for a
    response, and each wait for the server to take more of a request being written (the client
    reads the responses that come meanwhile, so a server that stops reading until its output is
    read never waits on it). A server that has not answered within it raises :class:`ServerError` with code
    ``client/request-timeout``, and the session is over, since its later responses would be out of
    step with the requests: a started server is ended (as by :meth:`close`, without waiting for
    it), a connection closed, and every later request fails saying so. Only POSIX can bound a wait
    on a started server's pipe; elsewhere ``request_timeout`` bounds a connected server's
    (:meth:`connect`) requests only, and a started server's are waited for as without it.
    """

    def __init__(
        self,
        command: Optional[Command] = None,
        *,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        startup_timeout: float = 120.0,
        close_timeout: float = 5.0,
        stderr: str = "capture",
        request_timeout: Optional[float] = None,
        binary: Optional[bool] = None,
        shm: bool = False,
        shm_slots: int = 2,
        shm_slot_bytes: Optional[int] = None,
    ):
        if stderr not in ("capture", "echo", "inherit"):
            raise ValueError("stderr must be 'capture', 'echo' or 'inherit'")
        _shm.check_options(shm, shm_slots, shm_slot_bytes)
        request_timeout = _check_timeout("request_timeout", request_timeout)
        source = _command_source(command)
        self.command: Optional[List[str]] = resolve_command(command)
        """The command that started the server (None for a connected server)."""
        self.address: Optional[Tuple[str, int]] = None
        """The host and port of a connected server (None for a server this client started)."""
        try:
            transport = PipeTransport(self.command, cwd=cwd, env=env, stderr=stderr, close_timeout=close_timeout)
        except OSError as e:
            raise ServerError(
                "client/spawn",
                f"could not start meeplekit serve with {shlex.join(self.command)}: {e}."
                + (_startup_hint(source, self.command) or "\nInstall Node 20 or later and meeplekit. " + _HOW_TO_POINT),
            ) from e
        try:
            self._start_session(transport, startup_timeout, time.monotonic(), request_timeout, binary, (shm, shm_slots, shm_slot_bytes))
        except ServerError as e:
            hint = _startup_hint(source, self.command)
            if not hint or e.code == "client/protocol-version":
                raise
            raise ServerError(e.code, e.message + hint, e.returncode, e.stderr) from None

    @classmethod
    def connect(
        cls,
        port: int,
        host: str = "127.0.0.1",
        *,
        timeout: Optional[float] = 10.0,
        request_timeout: Optional[float] = None,
        binary: Optional[bool] = None,
        shm: bool = False,
        shm_slots: int = 2,
        shm_slot_bytes: Optional[int] = None,
    ) -> "Server":
        """A session on a ``meeplekit serve --port P`` that is already running: one TCP connection
        to ``host:port``, which the server serves as a session of its own (its own games and
        handles). ``timeout`` bounds the connection (the lookup of a host name included) and the
        wait for the hello line together, in seconds (None: no bound); ``request_timeout`` bounds
        each wait for a response afterwards, as for a started server (None: no bound). The
        server is checked as a started one is (hello line, protocol version); :meth:`close`
        closes the connection and leaves the server running; :attr:`pid` is None,
        :attr:`address` is ``(host, port)``.

        Raises :class:`ServerError`: ``client/connect`` when no connection can be made (refused,
        an unknown host, no answer within ``timeout``), ``client/startup-timeout`` when the peer
        sends no hello line within ``timeout``, ``client/server-exited`` when it closes the
        connection first, the server's own code when it refuses the session with an error line
        instead of its hello (``protocol/too-many-connections``), ``client/hello`` or ``client/protocol-version`` when it is another
        program or speaks another protocol; later, ``client/request-timeout`` for a request not
        answered within ``request_timeout`` (the connection is then closed).
        """
        port = _checks.index(port, "port")
        if not 0 < port < 65536:
            raise ValueError(f"port must be from 1 to 65535, got {port}")
        timeout = _check_timeout("timeout", timeout)
        request_timeout = _check_timeout("request_timeout", request_timeout)
        _shm.check_options(shm, shm_slots, shm_slot_bytes)
        started = time.monotonic()
        try:
            transport = SocketTransport.connect(host, port, timeout)
        except OSError as e:
            raise ServerError("client/connect", _connect_failure(host, port, timeout, e)) from e
        server = cls.__new__(cls)
        server.command = None
        server.address = (host, port)
        server._start_session(transport, timeout, started, request_timeout, binary, (shm, shm_slots, shm_slot_bytes))
        return server

    # -- the session ----------------------------------------------------------------------------

    def _start_session(
        self,
        transport: Transport,
        timeout: Optional[float],
        started: float,
        request_timeout: Optional[float],
        binary: Optional[bool] = None,
        shm: Tuple[bool, int, Optional[int]] = (False, 2, None),
    ) -> None:
        """Takes ``transport`` for this session and reads the hello line (within ``timeout``
        seconds of ``started``); closes the transport if that fails. Then asks for binary frames
        (the ``hello`` op) when ``binary`` is True, or None and the server offers them, and for
        shared memory when ``shm[0]`` is True (a segment of ``shm[1]`` slots of ``shm[2]`` bytes)."""
        wants_shm, shm_slots, shm_slot_bytes = shm
        self._shm: Optional[_shm.Segment] = None
        self._transport = transport
        self.request_timeout = request_timeout
        """The bound on each wait for a response, in seconds (None: none)."""
        self._owner = os.getpid()
        self._lock = threading.RLock()
        self._next_id = 0
        self._garbage: List[str] = []
        self._inflight: Deque[Pending] = collections.deque()
        self._closed = False
        self._dead: Optional[ServerError] = None
        self._finalizer = weakref.finalize(self, transport.close)
        _live_servers.add(self)
        try:
            self.hello = self._read_hello(timeout, started)
        except BaseException:
            self.close()
            raise
        self.version: str = str(self.hello.get("version", ""))
        """The package version of the server (from its hello line)."""
        capabilities = self.hello.get("capabilities")
        self.capabilities: List[str] = [c for c in capabilities if isinstance(c, str)] if isinstance(capabilities, list) else []
        """What the server offers beyond protocol 1's first version (its hello line's ``capabilities``)."""
        self.binary = False
        """Whether the server sends arrays as binary frames on this connection (else base64 in JSON)."""
        if binary is None:
            binary = "binary-frames" in self.capabilities
        if binary:
            if "binary-frames" not in self.capabilities:
                self.close()
                raise ServerError("client/config", f"binary=True, but the server ({transport.peer}, meeplekit {self.version}) offers no binary frames")
            answer = self.request("hello", binary=True)
            if answer.get("binary") is not True:
                self.close()
                raise ServerError("client/bad-response", f"the server did not turn binary frames on: {str(answer)[:200]}")
            self.binary = True
        if wants_shm:
            self._attach_shm(shm_slots, shm_slot_bytes)

    @property
    def shm(self) -> bool:
        """Whether the server writes the vector batches' arrays into shared memory on this
        connection (``Server(shm=True)``; False again once the segment is gone)."""
        return self._shm is not None

    def _attach_shm(self, slots: int, slot_bytes: Optional[int]) -> None:
        """Creates a segment and names it in the ``hello`` op; closes the session and raises
        :class:`ServerError` when the server cannot take it (``client/config``: no capability
        ``shm``; ``client/shm-unavailable``: no /dev/shm here; the server's own code otherwise:
        ``shm/not-found`` when it is on another machine or in another container)."""
        if "shm" not in self.capabilities:
            self.close()
            raise ServerError("client/config", f"shm=True, but the server ({self._transport.peer}, meeplekit {self.version}) offers no shared memory")
        try:
            segment = _shm.Segment(slots, slot_bytes)
        except BaseException:
            self.close()
            raise
        self._shm_finalizer = weakref.finalize(self, segment.close)
        try:
            answer = self.request("hello", binary=self.binary, shm=segment.spec())
            wrong = segment.check_answer(answer.get("shm"))
            if wrong is not None:
                raise ServerError("client/bad-response", f"the server's description of the shared-memory segment does not agree with it: {wrong}")
        except BaseException:
            self._shm_finalizer()
            self.close()
            raise
        self._shm = segment

    def _drop_shm(self) -> None:
        """The server no longer uses the segment: it is removed, and responses come inline."""
        if self._shm is not None:
            self._shm = None
            self._shm_finalizer()

    def _read_hello(self, timeout: Optional[float], started: float) -> Dict[str, Any]:
        transport = self._transport
        left = None if timeout is None else timeout - (time.monotonic() - started)
        try:
            line = transport.read_line(left)
        except OSError:
            raise self._died("before its hello line") from None
        if line is None:
            raise ServerError(
                "client/startup-timeout",
                f"{transport.peer} wrote no hello line within {timeout:g} s" + transport.stderr_note(),
            )
        if not line:
            raise self._died("before its hello line")
        try:
            hello = json.loads(line)
        except ValueError:
            raise ServerError(
                "client/hello",
                f"{transport.peer} is not meeplekit serve: its first line is not JSON: {line[:200]!r}" + transport.stderr_note(),
            ) from None
        error = hello.get("error") if isinstance(hello, dict) and hello.get("ok") is False else None
        if isinstance(error, dict) and isinstance(error.get("code"), str) and error["code"]:
            # The server refuses the session (protocol/too-many-connections): its line instead of a hello.
            raise ServerError(
                error["code"],
                f"{transport.peer} refused the session: {error.get('message', '')}" + transport.stderr_note(),
            )
        if not isinstance(hello, dict) or hello.get("hello") != "meeplekit":
            raise ServerError("client/hello", f"{transport.peer} is not meeplekit serve: its first line is {line[:200]!r}")
        if hello.get("protocol") != PROTOCOL:
            raise ServerError(
                "client/protocol-version",
                f"the server speaks protocol {hello.get('protocol')!r} (meeplekit {hello.get('version')}), this client speaks "
                f"protocol {PROTOCOL}: use a client and a server of matching versions",
            )
        return hello

    def _died(self, when: str) -> ServerError:
        """Records that the server went away ``when`` and returns the error saying so."""
        error = self._transport.gone(when)
        self._dead = error
        return error

    def _timed_out(self, op: str, verb: str = "answer") -> ServerError:
        """Records that the response to ``op`` did not come within the request timeout, ends the
        session (the server, if this client started it) and returns the error saying so."""
        transport = self._transport
        if transport.pid is None:
            who, ended = f"meeplekit serve at {transport.peer}", "closed the connection"
        else:
            who, ended = f"meeplekit serve ({transport.peer}, pid {transport.pid})", "ended the server"
        transport.abort()
        error = ServerError(
            "client/request-timeout",
            f"{who} did not {verb} {op!r} within {self.request_timeout:g} s (request_timeout): the client "
            f"{ended} and this session is over, since any later response would be out of step with "
            "the requests" + transport.stderr_note(),
            # A started server has been ended: its exit status and its last stderr lines are known.
            returncode=transport.returncode(),
            stderr=transport.stderr_tail(),
        )
        self._dead = error
        return error

    def _check_usable(self) -> None:
        if self._dead is not None:
            dead = self._dead
            over = dead.code in ("client/request-timeout", "client/bad-response")
            gone = "the session is over: " if over else "the server is gone: "
            raise ServerError(dead.code, gone + dead.message, dead.returncode, dead.stderr)
        if os.getpid() != self._owner:
            raise ServerError(
                "client/forked",
                f"this Server belongs to process {self._owner}, not to this forked process {os.getpid()}: create a Server in each process",
            )
        if self._closed:
            raise ServerError("client/closed", "this Server was closed")

    def _detach_after_fork(self) -> None:
        """In a forked child: the streams are the parent's. The transport lets go of them without
        closing them for the parent, and this server refuses every request."""
        self._lock = threading.RLock()
        self._closed = True
        self._inflight = collections.deque()
        self._transport.detach_after_fork()

    def _write(self, requests: List[Dict[str, Any]]) -> List["Pending"]:
        """Writes requests in one write (the lock held); their responses are read later, in order.

        A request whose line would pass the server's limit (:data:`MAX_LINE_BYTES`) is not sent:
        its :class:`Pending` holds the ``protocol/too-large`` error the server would answer."""
        if self._shm is not None:
            ahead = sum(1 for p in self._inflight if p.op in _shm.SHM_OPS) + sum(1 for r in requests if r.get("op") in _shm.SHM_OPS)
            if ahead > self._shm.slots:
                raise ValueError(
                    f"{ahead} vector requests would be in flight, over the {self._shm.slots} slots of the shared-memory segment, whose "
                    "arrays they would overwrite before they were read: wait for some, or give Server a larger shm_slots"
                )
        lines = [json.dumps(r, separators=(",", ":"), allow_nan=False).encode("utf-8") for r in requests]
        pending = [Pending(self, r["id"], str(r.get("op"))) for r in requests]
        sent = []
        for line, p in zip(lines, pending):
            if len(line) > MAX_LINE_BYTES:
                p._response = _too_large(p, len(line))
            else:
                sent.append(line + b"\n")
        if sent:
            try:
                # The responses that come while this is written are kept: the server is never left
                # waiting for them to be read while the client waits for it to read.
                self._transport.send(b"".join(sent), self.request_timeout)
            except SendTimeout:
                raise self._timed_out(next(p.op for p in pending if p._response is None), "take") from None
            except (OSError, ValueError):
                raise self._died("while a request was sent") from None
        self._inflight.extend(p for p in pending if p._response is None)
        return pending

    def _read_one(self) -> None:
        """Reads the next response line and gives it to the oldest request in flight (the lock held).

        The server answers every request line with one response line, in order: a response with
        the request's id is its answer, and so is an error with the id null (the server could not
        read the id: a line over its limit, a line that is not JSON). Anything else (a line that is
        not a JSON object, an answer to another request) means that the responses can no longer
        be matched to the requests: the session is over, with ``client/bad-response``."""
        head = self._inflight[0]
        try:
            line = self._transport.read_line(self.request_timeout)
        except (OSError, ValueError):
            line = b""
        if line is None:
            raise self._timed_out(head.op)
        if not line or not line.endswith(b"\n"):  # the end of the output, maybe in a line
            raise self._died(f"while answering {head.op!r}")
        try:
            response = json.loads(line)
        except (ValueError, RecursionError):
            raise self._out_of_step(head, f"a line that is not JSON (or nested too deeply): {line[:200]!r}") from None
        if not isinstance(response, dict):
            raise self._out_of_step(head, f"a line that is not a JSON object: {line[:200]!r}")
        rid = response.get("id")
        if not (rid == head.id and type(rid) is type(head.id)) and not (rid is None and response.get("ok") is False):
            raise self._out_of_step(head, f"the answer to another request (id {rid!r}): {line[:200]!r}")
        if "frames" in response:
            self._read_frames(head, response)
        if "shm_seq" in response:
            response = self._read_shm(head, response)
        elif "shm_error" in response or (response.get("ok") is False and _shm_code(response.get("error"))):
            # The server no longer uses the segment (it is gone, or could not be written): the
            # arrays of this response and the next are inline.
            if self._shm is not None:
                self._drop_shm()
                if "shm_error" in response:
                    warnings.warn(f"meeplekit serve stopped writing into shared memory: {response['shm_error']}", RuntimeWarning, stacklevel=2)
        self._inflight.popleft()
        head._response = response

    def _read_frames(self, head: "Pending", response: Dict[str, Any]) -> None:
        """Reads the binary frames a response line announces (``"frames": [byte lengths]``) and
        puts each in place of the ``{"dtype", "shape", "frame": k}`` object that refers to it, as
        ``{"dtype", "shape", "data": <bytearray>}`` (which :mod:`._arrays` views without a copy).
        Frames on a connection that did not ask for them, a frame cut short, a frame that no
        array or two arrays refer to, or an array whose shape and dtype need another byte count
        than its frame has, end the session with ``client/bad-frame``: the arrays would be wrong."""
        lengths = response.pop("frames")
        if not self.binary:
            raise self._bad_frame(head, "announces binary frames, which this connection did not ask for")
        if not isinstance(lengths, list) or any(type(n) is not int or n < 0 for n in lengths):
            raise self._bad_frame(head, f"announces frames that are not a list of byte counts: {str(lengths)[:200]}")
        frames = []
        for k, n in enumerate(lengths):
            try:
                data = self._transport.read_exact(n, self.request_timeout)
            except (OSError, ValueError):
                data = bytearray()
            if data is None:
                raise self._timed_out(head.op)
            if len(data) < n:
                raise self._bad_frame(head, f"has its frame {k} cut short: {len(data)} of its {n} bytes came before the output ended")
            frames.append(data)
        used = [False] * len(frames)

        def place(value: Any) -> Any:
            if isinstance(value, dict):
                if "frame" in value:
                    k = value["frame"]
                    if type(k) is not int or not 0 <= k < len(frames) or used[k]:
                        raise self._bad_frame(head, f"refers to frame {k!r}, which is not one of its {len(frames)} frames or is used twice")
                    used[k] = True
                    dtype, shape = value.get("dtype"), value.get("shape")
                    size = _arrays.byte_size(dtype, shape)
                    if size is None or size != len(frames[k]):
                        raise self._bad_frame(
                            head, f"has an array of dtype {dtype!r} and shape {shape!r} in frame {k} of {len(frames[k])} bytes: they do not agree"
                        )
                    return {"dtype": dtype, "shape": shape, "data": frames[k]}
                return {key: place(v) for key, v in value.items()}
            if isinstance(value, list):
                return [place(v) for v in value]
            return value

        placed = place(response)
        if not all(used):
            raise self._bad_frame(head, f"announces frames that no array refers to: {[k for k, u in enumerate(used) if not u]}")
        response.clear()
        response.update(placed)

    def _read_shm(self, head: "Pending", response: Dict[str, Any]) -> Dict[str, Any]:
        """Puts views of the segment in place of the arrays a response has there. A response that
        refers to shared memory on a connection without it, or places an array outside its slot,
        ends the session with ``client/bad-shm`` (the server's fault: the arrays would be wrong); a
        segment that shrank (``client/shm-gone``) or a slot written again before its response was
        read (``client/shm-overwritten``) makes the response an error with that code: the session
        goes on, the arrays of that response are lost."""
        if self._shm is None:
            raise self._bad_frame(head, "refers to shared memory, which this connection does not use", "client/bad-shm")
        try:
            wrong = self._shm.place(response)
        except ServerError as e:
            if e.code == "client/shm-gone":
                self._drop_shm()
            return {"id": head.id, "ok": False, "error": {"code": e.code, "message": f"request {head.id} ({head.op!r}): {e.message}"}}
        if wrong is not None:
            raise self._bad_frame(head, wrong, "client/bad-shm")
        return response

    def _bad_frame(self, head: "Pending", what: str, code: str = "client/bad-frame") -> ServerError:
        """Ends the session over a response to ``head`` whose binary frames are wrong (``what``)."""
        transport = self._transport
        transport.abort()
        error = ServerError(
            code,
            f"meeplekit serve ({transport.peer})'s response to request {head.id} ({head.op!r}) {what}; the client ended the session"
            + transport.stderr_note(),
            returncode=transport.returncode(),
            stderr=transport.stderr_tail(),
        )
        self._dead = error
        return error

    def _out_of_step(self, head: "Pending", what: str) -> ServerError:
        """Records that the server answered ``head`` with ``what``, which is no response to it,
        ends the session (as a timeout does) and returns the error saying so."""
        transport = self._transport
        transport.abort()
        error = ServerError(
            "client/bad-response",
            f"meeplekit serve ({transport.peer}) answered request {head.id} ({head.op!r}) with {what}; the client "
            "ended the session, since the later responses could not be matched to their requests" + transport.stderr_note(),
            returncode=transport.returncode(),
            stderr=transport.stderr_tail(),
        )
        self._dead = error
        return error

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _lines(self, requests: Iterable[Tuple[str, Mapping[str, Any]]]) -> Tuple[List[Dict[str, Any]], int]:
        """The request lines, after a ``delete`` of collected handles when enough have piled up."""
        lines: List[Dict[str, Any]] = []
        garbage = self._garbage
        if len(garbage) >= _FLUSH_GARBAGE_AT:
            self._garbage = []
            lines.append({"id": self._new_id(), "op": "delete", "ids": garbage})
        skip = len(lines)
        for op, args in requests:
            req = {"id": self._new_id(), "op": op}
            req.update(args)
            lines.append(req)
        return lines, skip

    def request(self, op: str, **args: Any) -> Dict[str, Any]:
        """Sends one request and returns the response's fields; raises :class:`MeepleError` for an
        error response. Handles of garbage-collected objects are freed in the same round trip."""
        return self.request_many([(op, args)])[0]

    def request_many(self, requests: Iterable[Tuple[str, Mapping[str, Any]]], raise_errors: bool = True) -> List[Any]:
        """Sends several requests in one write and reads their responses (one round trip). Returns
        each response's fields; with ``raise_errors=False`` an error response is returned as a
        :class:`MeepleError` instead of raised (after all responses are read). A request whose
        line would pass :data:`MAX_LINE_BYTES` is not sent and fails alone with
        ``protocol/too-large``."""
        with self._lock:
            self._check_usable()
            lines, skip = self._lines(requests)
            pending = self._write(lines)
            for p in pending:  # the responses come in order
                while p._response is None:
                    self._read_one()
        results = [p._outcome() for p in pending[skip:]]
        errors = [r for r in results if isinstance(r, MeepleError)]
        if raise_errors and errors:
            raise errors[0]
        return results

    def submit(self, op: str, **args: Any) -> "Pending":
        """Sends a request without waiting for its response: :meth:`Pending.result` waits for it.
        Other requests may be made meanwhile (the server answers in order; the client keeps
        responses until they are asked for), so that the server works while Python does."""
        with self._lock:
            self._check_usable()
            lines, skip = self._lines([(op, args)])
            return self._write(lines)[-1]

    def info(self) -> Dict[str, Any]:
        """The server's ``info``: protocol, version, games and expansions."""
        return self.request("info")

    # -- bots -----------------------------------------------------------------------------------

    def bot(
        self,
        state: Any = None,
        *,
        env: Any = None,
        env_index: Any = None,
        game: Any = None,
        text: Optional[str] = None,
        level: Optional[int] = None,
        iterations: Optional[int] = None,
        time_ms: Optional[float] = None,
        seed: Any = None,
    ) -> "BotMove":
        """The move that meeplekit's search bot plays for the player who decides (``bot``), to
        evaluate an agent against: a :class:`BotMove` whose ``action`` is the move's action id.

        The state is one of: ``state``, a :class:`State` (its actions not yet sent go first) or a
        state handle; ``env`` (a :class:`VectorEnv` or its handle) with ``env_index``; ``game`` (a
        :class:`Game` or its handle) with ``text``, a state as :meth:`State.serialize` writes it.
        The state must stand at a player's decision (``protocol/chance-node`` at a chance node,
        ``bots/game-over`` at the end); it is not changed.

        The budget: ``level`` 1 to 5 (default 3; ``bots/unknown-level``), or ``iterations``
        (searches) and/or ``time_ms`` (wall-clock milliseconds; not reproducible), each positive
        (``bots/bad-budget``) and within the server's ``--max-bot-iterations`` and
        ``--max-bot-ms`` (``protocol/too-large``). ``seed`` (a string or an integer; default the
        library's): the same state, seed and iteration budget give the same move. Integers are
        taken as for every argument of the client (``operator.index``: a bool or a float raises
        ``TypeError``, and nothing is sent); naming no state or two raises ``ValueError``.

        The search runs on the server without holding up its other connections (docs/protocol.md,
        "Bots"); this connection waits for it. Closing the server while a search sent with
        :meth:`submit` is unanswered aborts it."""
        r, players, actions = self._bot("bot", state, env, env_index, game, text, level, iterations, time_ms, seed)
        return _bots.bot_move(r, players, actions)

    def analyse(
        self,
        state: Any = None,
        *,
        env: Any = None,
        env_index: Any = None,
        game: Any = None,
        text: Optional[str] = None,
        level: Optional[int] = None,
        iterations: Optional[int] = None,
        time_ms: Optional[float] = None,
        seed: Any = None,
    ) -> "Analysis":
        """As :meth:`bot`, with every candidate move the search looked at (``analyse``): an
        :class:`Analysis` whose ``candidates`` are most searched first, each with its ``visits``
        and its ``margin``, the deciding player's expected score difference to their best opponent
        after it (a hint for a UI: :meth:`Analysis.cost` is what a move costs)."""
        r, players, actions = self._bot("analyse", state, env, env_index, game, text, level, iterations, time_ms, seed)
        return _bots.analysis(r, players, actions)

    def _bot(
        self, op: str, state: Any, env: Any, env_index: Any, game: Any, text: Any, level: Any, iterations: Any, time_ms: Any, seed: Any
    ) -> Tuple[Dict[str, Any], Optional[int], Optional[int]]:
        """Sends a ``bot`` or ``analyse`` request; returns the response, and the game's player and
        action counts when the state is named by an object that knows them."""
        named = [name for name, v in (("state", state), ("env", env), ("game", game)) if v is not None]
        if len(named) != 1:
            raise ValueError(f"{op}: name the state with exactly one of state, env (with env_index) or game (with text), got {' and '.join(named) or 'none'}")
        if env_index is not None and env is None:
            raise ValueError(f"{op}: env_index goes with env")
        if text is not None and game is None:
            raise ValueError(f"{op}: text goes with game")
        args = _bots.budget(level, iterations, time_ms, seed)
        if state is not None:
            if not isinstance(state, str):  # a State: its pending actions go first, in the same write
                known = state.get_game()
                r = state._request(op, state_id=state.id, **args)
                return r, known.num_players(), known.num_distinct_actions()
            args["state_id"] = state
        elif env is not None:
            if env_index is None:
                raise ValueError(f"{op}: env needs env_index, the environment's index from 0")
            args["env_id"] = env if isinstance(env, str) else env.id
            args["env"] = _checks.index(env_index, "env_index")
        else:
            if not isinstance(text, str):
                raise TypeError(f"{op}: text must be a state's text (State.serialize()), got {type(text).__name__}")
            args["game_id"] = game if isinstance(game, str) else game.id
            args["text"] = text
        known = None if isinstance(env or game, str) else (env.game if env is not None else game)
        r = self.request(op, **args)
        return r, (known.num_players() if known is not None else None), (known.num_distinct_actions() if known is not None else None)

    # -- handles --------------------------------------------------------------------------------

    def _discard(self, handle: str) -> None:
        """Queues a handle to delete with a later request (safe from finalizers: no I/O here)."""
        if not self._closed and self._dead is None:
            self._garbage.append(handle)

    def delete(self, handles: Sequence[str]) -> int:
        """Deletes handles now (with any queued ones); returns how many the server deleted."""
        ids = list(handles)
        queued, self._garbage = self._garbage, []
        ids.extend(queued)
        if not ids:
            return 0
        return _checks.int_field(self.request("delete", ids=ids), "deleted")

    def flush(self) -> None:
        """Deletes the handles of garbage-collected objects now."""
        if self._garbage and not self._closed and self._dead is None:
            self.delete([])

    # -- life -----------------------------------------------------------------------------------

    @property
    def pid(self) -> Optional[int]:
        """The server's process id when this client started it; None for a connected server."""
        return self._transport.pid

    @property
    def alive(self) -> bool:
        """Whether requests may still be made: not closed, and the server not known to be gone."""
        return not self._closed and self._dead is None and self._transport.is_open()

    def close(self) -> None:
        """Ends the session. A server this client started is ended too (its input closed, then it
        is waited for, then terminated); a connected server only loses this connection (reset when
        requests sent with :meth:`submit` are still unanswered, so that the server stops working on
        them: a :meth:`bot` search is aborted). Idempotent."""
        if self._closed:
            return
        if self._inflight and self._dead is None:
            self._transport.reset()
        self._closed = True
        self._garbage = []
        self._finalizer()
        self._drop_shm()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("dead" if self._dead else "running")
        return f"<meeplekit Server {self._transport.describe()} {state} meeplekit {getattr(self, 'version', '?')}>"


def _shm_code(error: Any) -> bool:
    """Whether an error response's error has a shared-memory code of the server (``shm/...``)."""
    return isinstance(error, dict) and isinstance(error.get("code"), str) and error["code"].startswith("shm/")


def _too_large(pending: "Pending", size: int) -> Dict[str, Any]:
    """The error response to a request of ``size`` bytes that was not sent, being over the limit."""
    return {
        "id": pending.id,
        "ok": False,
        "error": {
            "code": "protocol/too-large",
            "message": f"the request {pending.op!r} is {size:,} bytes as a line, over the server's limit of "
            f"{MAX_LINE_BYTES:,} bytes; it was not sent",
        },
    }


def _check_timeout(name: str, value: Optional[float]) -> Optional[float]:
    """``value``, a positive number of seconds or None (no bound; infinity means None too); raises
    ``ValueError`` when it is neither."""
    if value is not None and not value > 0:
        raise ValueError(f"{name} must be positive or None, got {value!r}")
    return None if value is None or math.isinf(value) else value


def _connect_failure(host: str, port: int, timeout: Optional[float], error: OSError) -> str:
    """The message for a connection to ``host:port`` that failed with ``error``."""
    where = f"meeplekit serve at {address_text(host, port)}"
    if isinstance(error, ConnectionRefusedError):
        return (
            f"could not connect to {where}: the connection was refused, nothing listens there. Start a server "
            f"with 'meeplekit serve --port {port}' (or --port 0: its first line of output names the port it took)"
        )
    if isinstance(error, socket.timeout):
        detail = str(error)
        note = f" ({detail})" if detail and detail != "timed out" else ""
        return f"could not connect to {where}: no answer within {timeout:g} s{note}"
    if isinstance(error, socket.gaierror):
        return f"could not connect to {where}: unknown host {host!r} ({error.strerror or error})"
    return f"could not connect to {where}: {error or type(error).__name__}"


_default: Optional[Server] = None
_default_lock = threading.Lock()


def _connect_target(value: str) -> Tuple[str, int]:
    """The host and port that a ``MEEPLEKIT_CONNECT`` value names: ``PORT`` (on 127.0.0.1),
    ``HOST:PORT``, or ``[IPV6]:PORT``. Raises :class:`ServerError` (``client/connect``) when it is
    none of these."""
    text = value.strip()
    host, port_text = "127.0.0.1", text
    if text.startswith("["):
        address, sep, port_text = text[1:].partition("]:")
        host = address if sep and address and "]" not in address else ""
    elif ":" in text:
        host, _, port_text = text.partition(":")
    port = int(port_text) if port_text.isascii() and port_text.isdigit() else 0
    if not host or ":" in port_text or not 0 < port < 65536:
        raise ServerError(
            "client/connect",
            f"{CONNECT_ENV_VAR}={value!r} names no server: use PORT (on 127.0.0.1), HOST:PORT, or [IPV6]:PORT "
            f"(such as {CONNECT_ENV_VAR}=7000, {CONNECT_ENV_VAR}=127.0.0.1:7000 or {CONNECT_ENV_VAR}=[::1]:7000), "
            "with a port from 1 to 65535",
        )
    return host, port


def _env_request_timeout() -> Optional[float]:
    """The ``request_timeout`` that ``MEEPLEKIT_REQUEST_TIMEOUT`` sets (None when unset or empty).
    Raises :class:`ServerError` (``client/config``) for a value that is no positive number of seconds."""
    text = os.environ.get(REQUEST_TIMEOUT_ENV_VAR, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise ServerError(
            "client/config",
            f"{REQUEST_TIMEOUT_ENV_VAR}={text[:40]!r} is no timeout: use a positive number of seconds "
            f"(such as {REQUEST_TIMEOUT_ENV_VAR}=30 or 2.5), or leave it unset for no bound",
        )
    return None if math.isinf(value) else value


def default_server() -> Server:
    """The process's shared server, made on first use (a new one after a fork). Games loaded
    without ``server=`` use it; it is closed at exit or by :func:`close_default_server`.

    It is started as ``Server()`` does (the command in ``MEEPLEKIT_SERVE``, else
    ``npx --no-install meeplekit serve``), unless the environment variable ``MEEPLEKIT_CONNECT``
    names a server already running: ``PORT`` (on 127.0.0.1), ``HOST:PORT`` or ``[IPV6]:PORT``.
    Then it is ``Server.connect(port, host)``, a session of its own on that server (a new
    connection after a fork), and a value of another form raises :class:`ServerError`
    (``client/connect``). ``MEEPLEKIT_REQUEST_TIMEOUT`` (a positive number of seconds) gives
    either its ``request_timeout``; a value of another form raises :class:`ServerError`
    (``client/config``)."""
    global _default
    with _default_lock:
        if _default is None or not _default.alive or _default._owner != os.getpid():
            request_timeout = _env_request_timeout()
            target = os.environ.get(CONNECT_ENV_VAR, "")
            if target:
                host, port = _connect_target(target)
                _default = Server.connect(port, host, request_timeout=request_timeout)
            else:
                _default = Server(request_timeout=request_timeout)
        return _default


def close_default_server() -> None:
    """Closes the shared server, if one was made (a connected one: its connection only)."""
    global _default
    with _default_lock:
        if _default is not None and _default._owner == os.getpid():
            _default.close()
        _default = None
