"""Shared by the tests: the client on sys.path, and the server to test against.

The server is ``MEEPLEKIT_SERVE`` when set, else ``node <repo>/dist/cli.js serve`` (run
``npm run build`` at the repository's root first). Nothing is skipped: without a server the tests
fail and say why. ``MEEPLEKIT_NO_NUMPY=1`` tests the pure-Python path where numpy is installed.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parents[1]
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))

from meeplekit_client import MeepleError, Server, load_game  # noqa: E402


def serve_command():
    """The command that starts the server under test."""
    if os.environ.get("MEEPLEKIT_SERVE"):
        return os.environ["MEEPLEKIT_SERVE"]
    cli = REPO / "dist" / "cli.js"
    if not cli.exists():
        raise RuntimeError(
            f"no server to test against: {cli} does not exist. Run `npm run build` in {REPO}, "
            "or set MEEPLEKIT_SERVE to a command that starts meeplekit serve."
        )
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("no server to test against: `node` is not on PATH (or set MEEPLEKIT_SERVE)")
    return [node, str(cli), "serve"]


def run_example(name: str, args) -> tuple:
    """Runs ``examples/<name>.py``'s ``main`` in this process against the server under test
    (``--serve``), its output captured: (exit code, output)."""
    import contextlib
    import importlib.util
    import io

    spec = importlib.util.spec_from_file_location(name, CLIENT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    command = serve_command()
    command = command if isinstance(command, str) else shlex.join(command)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = module.main([*args, "--serve", command])
    return code, out.getvalue()


def error_code_in_forked_child(state) -> str:
    """Serializes ``state`` in a forked child and returns the error code it got (``"none"`` if
    none): the parent's session is not the child's to use."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = "none"
        try:
            state.serialize()
        except MeepleError as e:
            code = e.code
        os.write(write, code.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    code = os.read(read, 100).decode()
    os.close(read)
    return code


def start_server() -> Server:
    return Server(serve_command())


class ListeningServer:
    """A ``meeplekit serve --port 0`` process started for a test (in its own process group), with
    the flags ``args``, and the port it took, read from its ``listening`` line. :meth:`stop` kills it."""

    def __init__(self, timeout: float = 60.0, args=()):
        command = serve_command()
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        argv += list(args)
        self.proc = subprocess.Popen(argv + ["--port", "0"], stdout=subprocess.PIPE, start_new_session=True)
        try:
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            line = self.proc.stdout.readline() if ready else b""
            listening = json.loads(line)["listening"]
        except (ValueError, KeyError, TypeError):
            self.stop()
            raise RuntimeError(f"{argv + ['--port', '0']} did not print its listening line: {line!r}") from None
        self.host = listening["host"]
        self.port = int(listening["port"])

    def running(self) -> bool:
        """Whether the server process is still running."""
        return self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Sends ``sig`` to the server's process group (a wrapper such as npx and its node child)."""
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        """Ends the server and waits for it."""
        if self.running():
            self.kill(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill(signal.SIGKILL)
            self.proc.wait()
        self.proc.stdout.close()


def free_port():
    """A port on 127.0.0.1 that nothing listens on (it was free a moment ago)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakePeer:
    """A TCP listener on 127.0.0.1 that is not meeplekit serve (or a meeplekit serve that stops
    answering): on its first connection it sends ``greeting`` (if any), then keeps the connection
    open for ``hold`` seconds, never answering, then closes it. What the client sends is kept in
    ``received``; ``client_closed`` is set when the client closes the connection first."""

    def __init__(self, greeting=b"", hold=5.0):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.greeting = greeting
        self.hold = hold
        self.received = bytearray()
        self.client_closed = threading.Event()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            if self.greeting:
                conn.sendall(self.greeting)
            deadline = time.monotonic() + self.hold
            while not self.stopped.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                ready, _, _ = select.select([conn], [], [], min(left, 0.02))
                if not ready:
                    continue
                try:
                    data = conn.recv(65536)
                except OSError:
                    break
                if not data:
                    self.client_closed.set()
                    break
                self.received += data

    def close(self):
        self.stopped.set()
        self.sock.close()
        self.thread.join(timeout=5)


class ServerTestCase(unittest.TestCase):
    """A test case with one server for the class and classic on it (``self.game``) for ``players``."""

    players = 2

    @classmethod
    def setUpClass(cls):
        cls.server = start_server()
        cls.game = load_game("classic", players=cls.players, server=cls.server)

    @classmethod
    def tearDownClass(cls):
        cls.server.close()


HELLO_LINE = b'{"hello":"meeplekit","protocol":1,"version":"0.0.0-scripted"}\n'


class ScriptedPeer:
    """A TCP peer on 127.0.0.1 that speaks the protocol's framing with answers of a test's making:
    on its first connection it sends a hello line, then answers each request line with
    ``answer(request)`` (the request parsed): ``bytes`` are sent as they are; a dict is sent as one
    JSON line, with the request's ``id`` put first unless the dict has an ``"id"`` of its own; None
    sends nothing. Connect with ``Server.connect(peer.port)``; :meth:`close` ends it."""

    def __init__(self, answer, hello=HELLO_LINE):
        self.answer = answer
        self.hello = hello
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.requests = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            conn.sendall(self.hello)
            pending = b""
            while not self.stopped.is_set():
                ready, _, _ = select.select([conn], [], [], 0.05)
                if not ready:
                    continue
                try:
                    data = conn.recv(1 << 20)
                except OSError:
                    break
                if not data:
                    break
                pending += data
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if not line.strip():
                        continue
                    request = json.loads(line)
                    self.requests.append(request)
                    out = self.answer(request)
                    if out is None:
                        continue
                    if isinstance(out, dict):
                        if "id" not in out:
                            out = {"id": request.get("id"), **out}
                        out = json.dumps(out).encode() + b"\n"
                    try:
                        conn.sendall(out)
                    except OSError:
                        return

    def close(self):
        self.stopped.set()
        self.sock.close()
        self.thread.join(timeout=5)


def as_json(value):
    """A response as its JSON line has it: arrays that came as binary frames (``data``) back in base64."""
    if isinstance(value, dict):
        if "data" in value and "dtype" in value:
            return {"dtype": value["dtype"], "shape": value["shape"], "b64": base64.b64encode(bytes(value["data"])).decode("ascii")}
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def relay(server, change=None):
    """An ``answer`` for :class:`ScriptedPeer` that asks the real ``server`` each request and
    answers with its response, passed through ``change(op, response)`` (which returns the response
    to send: a dict without the id, or bytes) when given."""

    def answer(request):
        fields = {k: v for k, v in request.items() if k not in ("id", "op")}
        try:
            response = as_json(dict(server.request(request["op"], **fields)))
            del response["id"]
        except MeepleError as e:
            response = {"ok": False, "error": dict(e.details)}
        return change(request["op"], response) if change is not None else response

    return answer
