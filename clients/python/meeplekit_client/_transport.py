"""How a session's lines travel: the pipes of a child process the client started, or a TCP
connection to a server that was already listening (``meeplekit serve --port P``).

:class:`Server` does the session (ids, pipelining, the protocol's errors) and reads and writes
only through a :class:`Transport`. A transport belongs to the process that made it: in a forked
child it is detached (:meth:`Transport.detach_after_fork`) and closing it does nothing there.
"""

from __future__ import annotations

import collections
import ipaddress
import math
import os
import select
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Deque, List, Mapping, Optional

from .errors import ServerError

_STDERR_LINES = 40
_RECV_BYTES = 1 << 18
_PIPE_BYTES = 1 << 16  # a pipe holds 64 KiB: a read returns no more
_BIG_PIPE_BYTES = 1 << 20  # what the server's output pipe is grown to where the system allows
_LONGEST_WAIT = 1_000_000.0  # seconds: a longer wait is made of waits this long (poll takes no more)


class Transport:
    """The byte streams of one session. ``peer`` names the other side in messages (a command, or
    ``host:port``); ``pid`` is the server's process id when this client started it, else None."""

    peer: str = ""
    pid: Optional[int] = None

    def send(self, data: bytes, timeout: Optional[float] = None) -> None:
        """Writes ``data`` whole; raises ``OSError`` (or ``ValueError``) when the other side is gone,
        :class:`SendTimeout` when it takes no byte for ``timeout`` seconds (where the transport can
        tell). Where it can, it reads the other side's output meanwhile (kept for
        :meth:`read_line`): a server that stops reading while its responses are not read (the
        protocol's back-pressure) then never waits on a client that is still writing."""
        raise NotImplementedError

    def read_line(self, timeout: Optional[float] = None) -> Optional[bytes]:
        """The next line with its ``\\n``; at the end of the output, what is left (``b""`` or a line
        cut short). None when ``timeout`` seconds pass first (where the transport can tell). May
        raise ``OSError`` when the other side is gone."""
        raise NotImplementedError

    def read_exact(self, n: int, timeout: Optional[float] = None) -> Optional[bytearray]:
        """The next ``n`` bytes of the output (a binary frame), in a new ``bytearray`` of their
        own (so that numpy can view them without a copy); fewer when the output ends first (a
        frame cut short), None when ``timeout`` seconds pass without a byte. May raise
        ``OSError`` when the other side is gone."""
        raise NotImplementedError

    def gone(self, when: str) -> ServerError:
        """The error saying that the other side went away ``when`` (``"while answering 'state'"``)."""
        raise NotImplementedError

    def stderr_note(self) -> str:
        """The end of the server's stderr, as a note for an error message ("" when none is known)."""
        return ""

    def stderr_tail(self) -> str:
        """The last lines of the server's stderr ("" when none is known), for ``ServerError.stderr``."""
        return ""

    def returncode(self) -> Optional[int]:
        """The server's exit status once this client's process has seen it exit, else None."""
        return None

    def is_open(self) -> bool:
        """Whether the other side may still answer, as far as is known without any I/O."""
        raise NotImplementedError

    def describe(self) -> str:
        """A few words for ``repr``: ``pid 1234`` or ``at 127.0.0.1:7000``."""
        raise NotImplementedError

    def detach_after_fork(self) -> None:
        """In a forked child: stop using the parent's streams, without disturbing the parent's use."""
        raise NotImplementedError

    def close(self) -> None:
        """Ends the session from this side (idempotent); does nothing in a forked child."""
        raise NotImplementedError

    def abort(self) -> None:
        """Ends the session from this side at once, the other side being known not to answer (a
        request timed out): as :meth:`close`, without waiting for a graceful end."""
        self.close()

    def reset(self) -> None:
        """Ends the session from this side while requests are still unanswered, whose answers
        nobody will read: as :meth:`close`, but where the transport can, the server learns at once
        that the session is over (over TCP a reset: a bot search running for it stops)."""
        self.close()


class SendTimeout(Exception):
    """The other side took no byte of a request for the time allowed."""


def _send_reading(
    data: bytes,
    out_fd: int,
    write: Callable[[memoryview], int],
    in_fd: Optional[int],
    read: Callable[[], bytes],
    buffer: bytearray,
    timeout: Optional[float],
) -> None:
    """Writes ``data`` to ``out_fd`` with ``write`` (which writes what it can without blocking and
    returns the count, or raises ``BlockingIOError``), and meanwhile reads what ``in_fd`` (which
    may be ``out_fd``: a socket) has with ``read`` (the same, never blocking) into ``buffer``,
    until its end (``b""``). So the other side is never left waiting for its output to be read
    while this side waits for its input to be taken. Raises :class:`SendTimeout` when no byte can
    be written for ``timeout`` seconds (None: no bound), ``OSError`` when the other side is gone."""
    view = memoryview(data)
    poll = select.poll()
    readable = select.POLLIN | select.POLLHUP | select.POLLERR
    if in_fd == out_fd:
        poll.register(out_fd, select.POLLOUT | select.POLLIN)
    else:
        poll.register(out_fd, select.POLLOUT)
        if in_fd is not None:
            poll.register(in_fd, select.POLLIN)
    deadline = None if timeout is None else time.monotonic() + timeout
    while view:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise SendTimeout()
        events = poll.poll(-1 if left is None else math.ceil(min(left, _LONGEST_WAIT) * 1000))
        for fd, event in events:
            if in_fd is not None and fd == in_fd and event & readable:
                try:
                    chunk = read()
                except BlockingIOError:
                    chunk = None
                if chunk:
                    buffer += chunk
                elif chunk is not None:  # the end of the output: from now on, only written
                    if in_fd == out_fd:
                        poll.modify(out_fd, select.POLLOUT)
                    else:
                        poll.unregister(in_fd)
                    in_fd = None
            if fd == out_fd and view and event & (select.POLLOUT | select.POLLERR | select.POLLHUP):
                try:
                    n = write(view[:_PIPE_BYTES])  # raises when the other side is gone
                except BlockingIOError:
                    n = 0
                if n:
                    view = view[n:]
                    if timeout is not None:
                        deadline = time.monotonic() + timeout


def _read_line(
    buffer: bytearray,
    receive: Callable[[Optional[float]], Optional[bytes]],
    timeout: Optional[float],
) -> Optional[bytes]:
    """The next line (with its ``\\n``) of a stream read in chunks: the first whole line in
    ``buffer`` (the bytes read after the last line taken), else the bytes received until a chunk
    holds a ``\\n``, the bytes after it kept in ``buffer``. ``receive(left)`` returns the next
    chunk, ``b""`` at the end of the stream, or None when ``left`` seconds pass first. Returns what
    is left (``b""`` or a line cut short) at the end of the stream, None when ``timeout`` seconds
    pass first (nothing is lost: the bytes received stay in ``buffer``).

    A long line (megabytes of observations) is gathered as a list of chunks joined once."""
    end = buffer.find(b"\n")
    if end >= 0:
        if end == len(buffer) - 1:
            line = bytes(buffer)
            buffer.clear()
        else:
            line = bytes(buffer[: end + 1])
            del buffer[: end + 1]
        return line
    deadline = None if timeout is None else time.monotonic() + timeout
    parts = [bytes(buffer)] if buffer else []
    buffer.clear()
    try:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            chunk = receive(None if left is None else min(left, _LONGEST_WAIT))
            if chunk is None:
                if left is not None and left > _LONGEST_WAIT:
                    continue
                buffer[:0] = b"".join(parts)
                return None
            if not chunk:
                return b"".join(parts)
            end = chunk.find(b"\n")
            if end < 0:
                parts.append(chunk)
                continue
            if end == len(chunk) - 1:
                parts.append(chunk)
            else:
                parts.append(chunk[: end + 1])
                buffer += memoryview(chunk)[end + 1 :]
            return b"".join(parts)
    except BaseException:
        buffer[:0] = b"".join(parts)
        raise


def _read_exact(
    buffer: bytearray,
    n: int,
    receive_into: Callable[[memoryview, Optional[float]], Optional[int]],
    timeout: Optional[float],
) -> Optional[bytearray]:
    """``n`` bytes of a stream: first those in ``buffer`` (read ahead with the lines; taken out
    of it), then read straight into the result with ``receive_into`` (the count read, 0 at the
    end of the stream, None when the time given passes first). Shorter than ``n`` at the end of
    the stream, None when ``timeout`` seconds pass without a byte."""
    out = bytearray(n)
    got = min(len(buffer), n)
    if got:
        out[:got] = buffer[:got]
        del buffer[:got]
    view = memoryview(out)
    while got < n:
        k = receive_into(view[got:], timeout)
        if k is None:
            return None
        if k == 0:
            del view
            del out[got:]
            return out
        got += k
    return out


def _point_at_devnull(fds: List[int]) -> None:
    """Points each descriptor at /dev/null: the parent's copy stays open and untouched, this
    process's copy no longer keeps the stream open, and nothing written here can reach it. The
    descriptors are not closed through their file objects, whose locks a thread of the parent
    may have held at the fork."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:  # pragma: no cover
        return
    try:
        for fd in fds:
            try:
                os.dup2(null, fd)
            except OSError:
                pass
    finally:
        os.close(null)


# -- a child process's pipes ---------------------------------------------------------------------


def _drain(fd: int, tail: Deque[str], echo: bool) -> None:
    """Reads the server's stderr until it closes, keeping its last lines (and echoing them). It
    reads the descriptor itself, not the file object, so that it never holds the file object's
    lock (which a forked child would inherit held)."""
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # pragma: no cover - the pipe went away
            break
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            tail.append(line)
            if echo:
                print(line, file=sys.stderr)
    if pending:
        tail.append(pending.decode("utf-8", "replace"))


def _signal(proc: "subprocess.Popen[bytes]", name: str) -> None:
    """Sends a signal to the server's process group (POSIX), else terminates or kills it."""
    import signal

    try:
        if os.name == "posix":
            os.killpg(proc.pid, getattr(signal, name))
        elif name == "SIGKILL":
            proc.kill()
        else:
            proc.terminate()
    except (OSError, ProcessLookupError):
        pass


class PipeTransport(Transport):
    """A ``meeplekit serve`` child process, started here, and its stdin and stdout.

    ``stderr`` is ``"capture"`` (its last lines kept for error messages), ``"echo"`` (kept and
    printed) or ``"inherit"``. Raises ``OSError`` when the command cannot be started.
    """

    def __init__(
        self,
        command: List[str],
        *,
        cwd: Optional[str],
        env: Optional[Mapping[str, str]],
        stderr: str,
        close_timeout: float,
    ):
        argv = list(command)
        found = shutil.which(argv[0])
        if found is not None:
            argv[0] = found
        self.peer = shlex.join(command)
        self._close_timeout = close_timeout
        self._stderr_tail: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._proc = subprocess.Popen(
            argv,
            bufsize=1 << 20,  # large reads: a batch with observations is megabytes on one line
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None if stderr == "inherit" else subprocess.PIPE,
            cwd=cwd,
            env=None if env is None else dict(env),
            # Its own process group: Ctrl-C reaches the Python program, which then closes the
            # server cleanly, and close() can end a wrapper (npx) and its node child together.
            start_new_session=os.name == "posix",
        )
        self.pid = self._proc.pid
        self._owner = os.getpid()
        self._closed = False
        # On POSIX the output is read from its descriptor into a buffer of this transport's own, so
        # that a wait with a timeout (poll) sees every byte not yet taken: the file object's buffer
        # would hide the responses to pipelined requests that came in one read.
        assert self._proc.stdout is not None
        self._stdout_fd = self._proc.stdout.fileno()
        self._buffer = bytearray()
        # A larger pipe (Linux: 1 MiB where allowed, against 64 KiB): a batch of megabytes
        # crosses in a few reads and writes rather than dozens.
        try:
            import fcntl

            fcntl.fcntl(self._stdout_fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), _BIG_PIPE_BYTES)
        except (ImportError, OSError):
            pass
        self._poll = None
        if os.name == "posix" and hasattr(select, "poll"):
            self._poll = select.poll()
            self._poll.register(self._stdout_fd, select.POLLIN)
            assert self._proc.stdin is not None
            os.set_blocking(self._proc.stdin.fileno(), False)  # written by send() only, in pieces
        self._stderr_thread: Optional[threading.Thread] = None
        if self._proc.stderr is not None:
            self._stderr_thread = threading.Thread(
                target=_drain,
                args=(self._proc.stderr.fileno(), self._stderr_tail, stderr == "echo"),
                daemon=True,
                name="meeplekit-serve-stderr",
            )
            self._stderr_thread.start()

    def send(self, data: bytes, timeout: Optional[float] = None) -> None:
        """As :meth:`Transport.send`: on POSIX written by pieces as the server takes them, the
        server's output read meanwhile; elsewhere written whole, without a bound."""
        stdin = self._proc.stdin
        assert stdin is not None
        if self._closed:
            raise ValueError("the server's input is closed")
        if self._poll is None:
            stdin.write(data)
            stdin.flush()
            return
        fd = stdin.fileno()
        _send_reading(
            data,
            fd,
            lambda piece: os.write(fd, piece),
            self._stdout_fd,
            lambda: os.read(self._stdout_fd, _PIPE_BYTES),
            self._buffer,
            timeout,
        )

    def read_line(self, timeout: Optional[float] = None) -> Optional[bytes]:
        """As :meth:`Transport.read_line`; ``timeout`` is only heeded on POSIX (elsewhere a pipe
        cannot be waited on with a timeout, and this waits for the line)."""
        if os.name != "posix":
            stdout = self._proc.stdout
            assert stdout is not None
            return stdout.readline()
        return _read_line(self._buffer, self._receive, timeout)

    def _receive(self, left: Optional[float]) -> Optional[bytes]:
        """The next chunk of the output (``b""`` at its end), or None when ``left`` seconds pass first."""
        if not self._ready(left):
            return None
        return os.read(self._stdout_fd, _PIPE_BYTES)

    def _ready(self, left: Optional[float]) -> bool:
        """Whether the output can be read (or has ended) within ``left`` seconds (None: waits)."""
        if self._closed:
            raise ValueError("the server's output is closed")
        if left is None:
            return True
        if self._poll is not None:
            return bool(self._poll.poll(math.ceil(left * 1000)))
        return bool(select.select([self._stdout_fd], [], [], left)[0])  # pragma: no cover - POSIX without poll

    def read_exact(self, n: int, timeout: Optional[float] = None) -> Optional[bytearray]:
        """As :meth:`Transport.read_exact`; ``timeout`` is only heeded on POSIX."""
        if os.name != "posix":
            stdout = self._proc.stdout
            assert stdout is not None
            return _read_exact(bytearray(), n, lambda view, left: stdout.readinto(view), None)

        def receive_into(view: memoryview, left: Optional[float]) -> Optional[int]:
            if not self._ready(left):
                return None
            return os.readv(self._stdout_fd, [view])

        return _read_exact(self._buffer, n, receive_into, timeout)

    def gone(self, when: str) -> ServerError:
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        what = f"exited {when} (exit status {code})" if code is not None else f"closed its output {when} (still running)"
        return ServerError(
            "client/server-exited",
            f"meeplekit serve ({self.peer}, pid {self.pid}) {what}" + self.stderr_note(),
            returncode=code,
            stderr="\n".join(self._stderr_tail),
        )

    def stderr_note(self) -> str:
        tail = self.stderr_tail().strip()
        return f"\nits stderr ends with:\n{tail}" if tail else ""

    def stderr_tail(self) -> str:
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=0.2)
        return "\n".join(self._stderr_tail)

    def returncode(self) -> Optional[int]:
        return self._proc.returncode

    def is_open(self) -> bool:
        return not self._closed and self._proc.poll() is None

    def describe(self) -> str:
        return f"pid {self.pid}"

    def detach_after_fork(self) -> None:
        self._closed = True
        fds = []
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            try:
                if stream is not None:
                    fds.append(stream.fileno())
            except (OSError, ValueError):
                pass
        _point_at_devnull(fds)

    def close(self) -> None:
        """Ends the server: closes its stdin (it exits at the end of its input), waits, then
        terminates its process group, then kills it."""
        self._end(self._close_timeout)

    def abort(self) -> None:
        """Ends the server without waiting for it to finish what it was doing: closes its stdin,
        then terminates its process group at once, then kills it."""
        self._end(0.0)

    def _end(self, grace: float) -> None:
        if os.getpid() != self._owner or self._closed:
            return
        self._closed = True
        self._buffer = bytearray()
        proc = self._proc
        timeout = self._close_timeout
        try:
            if proc.stdin is not None and not proc.stdin.closed:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            _signal(proc, "SIGTERM")
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:  # pragma: no cover - a server that ignores SIGTERM
                _signal(proc, "SIGKILL")
                proc.wait()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1)  # the server has exited: its stderr is at its end
        for stream in (proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:  # pragma: no cover
                pass


# -- a TCP connection ----------------------------------------------------------------------------


def _is_ip_literal(host: str) -> bool:
    """Whether ``host`` is an IPv4 or IPv6 address (needing no lookup), not a host name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _lookup(host: str, port: int, timeout: float) -> list:
    """``socket.getaddrinfo`` for a TCP connection to ``host:port``, within ``timeout`` seconds:
    the lookup itself cannot be bounded, so it runs in a daemon thread that is waited for that
    long (and left to finish on its own after). Raises ``socket.timeout`` when the time is up, or
    what the lookup raised (``socket.gaierror`` for an unknown host)."""
    outcome: list = []

    def resolve() -> None:
        try:
            outcome.append(socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM))
        except BaseException as e:  # handed to the waiting thread
            outcome.append(e)

    thread = threading.Thread(target=resolve, daemon=True, name="meeplekit-connect-lookup")
    thread.start()
    thread.join(timeout)
    if not outcome:
        raise socket.timeout(f"the lookup of the host name {host!r} did not finish")
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result


def _connect_to_any(addresses: list, deadline: float) -> socket.socket:
    """A socket connected to the first of ``addresses`` (``getaddrinfo``'s answer) that accepts,
    tried in order before ``deadline`` (as ``socket.create_connection`` does); raises the last
    attempt's error, or ``socket.timeout`` when the time is up."""
    error: Optional[OSError] = None
    for family, kind, proto, _, address in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("timed out")
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(left)
            sock.connect(address)
            return sock
        except OSError as e:
            sock.close()
            error = e
    if error is not None:
        raise error
    raise OSError("getaddrinfo returned no address")


def address_text(host: str, port: int) -> str:
    """``host:port`` as people write it (an IPv6 host in brackets)."""
    return f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"


class SocketTransport(Transport):
    """One TCP connection to a ``meeplekit serve --port P`` that was already listening: a session
    of its own on that server. Closing it closes the connection only; the server goes on."""

    def __init__(self, sock: socket.socket, host: str, port: int):
        self.peer = address_text(host, port)
        self._sock = sock
        self._buffer = bytearray()
        self._owner = os.getpid()
        self._closed = False

    @classmethod
    def connect(cls, host: str, port: int, timeout: Optional[float]) -> "SocketTransport":
        """Connects to ``host:port`` within ``timeout`` seconds, the lookup of a host name
        included; raises ``OSError`` (refused, an unknown host, no route, ``socket.timeout``) when
        it cannot."""
        if timeout is None or _is_ip_literal(host):
            sock = socket.create_connection((host, port), timeout=timeout)
        else:
            deadline = time.monotonic() + timeout
            sock = _connect_to_any(_lookup(host, port, timeout), deadline)
        try:
            sock.settimeout(None)
            # A request is one write, and a pipelined one must not wait for the last one's ack.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            sock.close()
            raise
        return cls(sock, host, port)

    def send(self, data: bytes, timeout: Optional[float] = None) -> None:
        """As :meth:`Transport.send`: where ``poll`` and ``MSG_DONTWAIT`` exist (POSIX), written by
        pieces as the server takes them, the server's responses read meanwhile; elsewhere written
        whole, without a bound."""
        if self._closed:
            raise ValueError("the connection is closed")
        if not (hasattr(select, "poll") and hasattr(socket, "MSG_DONTWAIT")):
            self._sock.sendall(data)
            return
        sock = self._sock
        fd = sock.fileno()
        _send_reading(
            data,
            fd,
            lambda piece: sock.send(piece, socket.MSG_DONTWAIT),
            fd,
            lambda: sock.recv(_RECV_BYTES, socket.MSG_DONTWAIT),
            self._buffer,
            timeout,
        )

    def read_line(self, timeout: Optional[float] = None) -> Optional[bytes]:
        return _read_line(self._buffer, self._receive, timeout)

    def _receive(self, left: Optional[float]) -> Optional[bytes]:
        """The next chunk from the connection (``b""`` at its end), or None when ``left`` seconds pass first."""
        return self._within(left, lambda: self._sock.recv(_RECV_BYTES))

    def read_exact(self, n: int, timeout: Optional[float] = None) -> Optional[bytearray]:
        return _read_exact(self._buffer, n, self._receive_into, timeout)

    def _receive_into(self, view: memoryview, left: Optional[float]) -> Optional[int]:
        """Reads what comes next into ``view``: the count (0 at the end), or None when ``left`` seconds pass first."""
        return self._within(left, lambda: self._sock.recv_into(view))

    def _within(self, left: Optional[float], read: Callable[[], Any]) -> Any:
        """``read()`` on the socket, or None when ``left`` seconds pass first (None: waits)."""
        if self._closed:
            raise ValueError("the connection is closed")
        if left is None:
            return read()
        if left <= 0:
            return None
        self._sock.settimeout(left)
        try:
            return read()
        except socket.timeout:
            return None
        finally:
            self._sock.settimeout(None)

    def gone(self, when: str) -> ServerError:
        return ServerError(
            "client/server-exited",
            f"the connection to meeplekit serve at {self.peer} closed {when} (the server stopped, or ended this session)",
        )

    def is_open(self) -> bool:
        return not self._closed

    def describe(self) -> str:
        return f"at {self.peer}"

    def detach_after_fork(self) -> None:
        self._closed = True
        try:
            fd = self._sock.fileno()
        except OSError:  # pragma: no cover
            return
        if fd >= 0:
            _point_at_devnull([fd])

    def reset(self) -> None:
        """Closes the connection with a reset (RST) instead of an orderly end: a server sees an
        orderly end as a client that may still read the answers of what it sent (a half-close), and
        answers them; a reset ends the session at once, aborting what runs for it."""
        self._end(reset=True)

    def close(self) -> None:
        """Closes the connection (the server ends this session and goes on serving others)."""
        self._end(reset=False)

    def _end(self, reset: bool) -> None:
        if os.getpid() != self._owner or self._closed:
            return
        self._closed = True
        self._buffer = bytearray()
        try:
            if reset:  # closing then sends a reset, not the end of the stream
                self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            # Wakes a thread blocked reading. SHUT_RDWR: the server sees the end at once; SHUT_RD sends nothing.
            self._sock.shutdown(socket.SHUT_RD if reset else socket.SHUT_RDWR)
        except OSError:
            pass  # the server had already gone
        try:
            self._sock.close()
        except OSError:  # pragma: no cover
            pass
