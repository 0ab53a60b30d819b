"""Bounds on waiting, and the shared server as a running one.

``request_timeout``: a server that stops answering (a peer that sent its hello line and then
nothing, over TCP and over a pipe) is a ``client/request-timeout`` after about the bound, and the
session is over; real servers with a generous bound work as without one. The lookup of a host
name is bounded by ``Server.connect``'s ``timeout``. ``MEEPLEKIT_CONNECT`` makes
``default_server()`` (and so ``load_game()`` without ``server=``) a connection to a running server.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import socket
import sys
import threading
import time
import unittest
from unittest import mock

from _support import FakePeer, ListeningServer, free_port, serve_command

from meeplekit_client import Server, ServerError, VectorEnv, close_default_server, default_server, load_game
from meeplekit_client.server import _connect_target

HELLO = b'{"hello":"meeplekit","protocol":1,"version":"0.0.0-test"}\n'

# A "server" on a pipe that says hello, then neither answers nor reads nor exits at the end of its input.
SILENT_SERVER = (
    "import sys, time; sys.stdout.buffer.write(%r); sys.stdout.flush(); time.sleep(60)" % HELLO
)

# The same, writing a line to its stderr first (the error of a timed-out request carries it).
SILENT_SERVER_SAYING = (
    "import sys, time; sys.stderr.write('stuck in a long computation\\n'); sys.stderr.flush(); "
    "sys.stdout.buffer.write(%r); sys.stdout.flush(); time.sleep(60)" % HELLO
)

listener = None


def setUpModule():
    global listener
    listener = ListeningServer()


def tearDownModule():
    listener.stop()


def play(game, seed, steps=30):
    """Plays ``steps`` random moves (and draws) from ``seed``; returns the legal actions seen and the saved state."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    seen = []
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            seen.append(legal)
            state.apply_action(rng.choice(legal))
    return seen, state.serialize()


def pid_running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class RequestTimeoutTest(unittest.TestCase):
    def assertTimedOut(self, caught, started, bound, op, peer):
        elapsed = time.monotonic() - started
        self.assertGreaterEqual(elapsed, bound * 0.9, "the bound was not waited for")
        self.assertLess(elapsed, bound + 2.0, f"took {elapsed:.2f} s")
        error = caught.exception
        self.assertEqual(error.code, "client/request-timeout")
        self.assertIn(peer, error.message)
        self.assertIn(f"did not answer {op!r} within {bound:g} s", error.message)
        self.assertIn("session is over", error.message)

    def assertStaysOver(self, server):
        self.assertFalse(server.alive)
        self.assertIn("dead", repr(server))
        for attempt in (server.info, lambda: server.submit("info")):
            with self.assertRaises(ServerError) as caught:
                attempt()
            self.assertEqual(caught.exception.code, "client/request-timeout")
            self.assertTrue(caught.exception.message.startswith("the session is over: "), caught.exception.message)

    def test_connected_peer_stops_answering(self):
        peer = FakePeer(greeting=HELLO, hold=10)
        self.addCleanup(peer.close)
        server = Server.connect(peer.port, timeout=5, request_timeout=0.3)
        self.addCleanup(server.close)
        self.assertEqual(server.request_timeout, 0.3)
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            server.info()
        self.assertTimedOut(caught, started, 0.3, "info", f"127.0.0.1:{peer.port}")
        self.assertIn("closed the connection", caught.exception.message)
        self.assertTrue(peer.client_closed.wait(2), "the client did not close the connection")
        self.assertIn(b'"op":"info"', bytes(peer.received))
        self.assertStaysOver(server)
        server.close()  # still fine to close

    def test_pending_result_times_out(self):
        peer = FakePeer(greeting=HELLO, hold=10)
        self.addCleanup(peer.close)
        server = Server.connect(peer.port, timeout=5, request_timeout=0.2)
        self.addCleanup(server.close)
        first, second = server.submit("info"), server.submit("info")
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            second.result()
        self.assertTimedOut(caught, started, 0.2, "info", f"127.0.0.1:{peer.port}")  # the first in line
        with self.assertRaises(ServerError) as caught:
            first.result()
        self.assertEqual(caught.exception.code, "client/request-timeout")
        self.assertStaysOver(server)

    def test_started_server_stops_answering(self):
        # POSIX: a pipe can be waited on with a timeout there only
        server = Server([sys.executable, "-c", SILENT_SERVER], request_timeout=0.3, startup_timeout=30)
        self.addCleanup(server.close)
        pid = server.pid
        self.assertTrue(pid_running(pid))
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            server.request("info")
        self.assertTimedOut(caught, started, 0.3, "info", f"pid {pid}")
        self.assertIn("ended the server", caught.exception.message)
        self.assertFalse(pid_running(pid), "the server's process was not ended")  # at once, not after close_timeout
        self.assertStaysOver(server)

    def test_a_timed_out_started_server_reports_its_status_and_stderr(self):
        # The error of the timeout, and of every later request, says how the ended server exited
        # and what it last wrote to stderr, as client/server-exited does.
        server = Server([sys.executable, "-c", SILENT_SERVER_SAYING], request_timeout=0.3, startup_timeout=30)
        self.addCleanup(server.close)
        with self.assertRaises(ServerError) as caught:
            server.request("info")
        error = caught.exception
        self.assertEqual(error.code, "client/request-timeout")
        self.assertIsNotNone(error.returncode)
        self.assertNotEqual(error.returncode, 0)  # ended by the client, not by itself
        self.assertIn("stuck in a long computation", error.stderr)
        self.assertIn("stuck in a long computation", error.message)
        with self.assertRaises(ServerError) as again:
            server.request("info")
        self.assertEqual((again.exception.returncode, again.exception.stderr), (error.returncode, error.stderr))

    def test_a_timed_out_connection_has_no_status_or_stderr(self):
        peer = FakePeer(greeting=HELLO, hold=10)
        self.addCleanup(peer.close)
        server = Server.connect(peer.port, timeout=5, request_timeout=0.3)
        self.addCleanup(server.close)
        with self.assertRaises(ServerError) as caught:
            server.request("info")
        self.assertEqual(caught.exception.code, "client/request-timeout")
        self.assertIsNone(caught.exception.returncode)
        self.assertEqual(caught.exception.stderr, "")

    def test_real_servers_with_a_bound(self):
        connected = Server.connect(listener.port, timeout=30, request_timeout=30)
        self.addCleanup(connected.close)
        started = Server(serve_command(), request_timeout=30)
        self.addCleanup(started.close)
        unbounded = Server.connect(listener.port, timeout=30)
        self.addCleanup(unbounded.close)
        expected = play(load_game("classic", players=2, server=unbounded), "bound")
        for server in (connected, started):
            with self.subTest(server=repr(server)):
                game = load_game("classic", players=2, server=server)
                self.assertEqual(play(game, "bound"), expected)
                # pipelined requests, their responses read from one buffer
                pending = [server.submit("info") for _ in range(20)]
                answers = server.request_many([("info", {})] * 20)
                self.assertEqual([p.result()["protocol"] for p in pending], [1] * 20)
                self.assertEqual([a["protocol"] for a in answers], [1] * 20)
                a = VectorEnv(8, game, seed="a", server=server, observations=True)
                b = VectorEnv(8, game, seed="b", server=server)
                with a, b:
                    a.step_async(a.random_actions(a.reset(), random.Random(1)))
                    b.step_async(b.random_actions(b.reset(), random.Random(2)))
                    self.assertEqual(len(a.step_wait().current_player), 8)
                    self.assertEqual(len(b.step_wait().current_player), 8)
                self.assertTrue(server.alive)

    def test_bad_arguments(self):
        for bad in (0, -1, 0.0, float("nan")):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    Server.connect(listener.port, request_timeout=bad)
                with self.assertRaises(ValueError):
                    Server([sys.executable, "-c", SILENT_SERVER], request_timeout=bad)

    def test_long_and_infinite_bounds(self):
        # longer than one poll can wait (24.8 days), and infinity (no bound, as None)
        with Server.connect(listener.port, timeout=float("inf"), request_timeout=1e8) as connected:
            self.assertEqual(connected.info()["protocol"], 1)
        with Server(serve_command(), request_timeout=float("inf")) as started:
            self.assertIsNone(started.request_timeout)
            self.assertEqual(started.info()["protocol"], 1)
        with Server(serve_command(), request_timeout=1e8, startup_timeout=1e8) as started:
            self.assertEqual(started.info()["protocol"], 1)


class LookupTest(unittest.TestCase):
    """``Server.connect``'s ``timeout`` bounds the lookup of a host name (getaddrinfo)."""

    def setUp(self):
        real = socket.getaddrinfo
        self.release = threading.Event()
        self.addCleanup(self.release.set)
        self.lookups = []
        refused = free_port()

        def getaddrinfo(host, port, *args, **kwargs):
            self.lookups.append((host, threading.current_thread() is threading.main_thread()))
            if host == "slow.meeplekit.test":
                self.release.wait(10)
                raise socket.gaierror(socket.EAI_NONAME, "released by the test")
            if host == "two.meeplekit.test":  # an address that refuses, then the server
                return [
                    (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", refused)),
                    (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", port)),
                ]
            return real(host, port, *args, **kwargs)

        patcher = mock.patch.object(socket, "getaddrinfo", getaddrinfo)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_a_slow_lookup_is_bounded(self):
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            Server.connect(7000, host="slow.meeplekit.test", timeout=0.3)
        elapsed = time.monotonic() - started
        self.assertGreaterEqual(elapsed, 0.25)
        self.assertLess(elapsed, 2.0, f"took {elapsed:.2f} s")
        self.assertEqual(caught.exception.code, "client/connect")
        self.assertIn("slow.meeplekit.test:7000", caught.exception.message)
        self.assertIn("no answer within 0.3 s", caught.exception.message)
        self.assertIn("lookup", caught.exception.message)
        self.assertIsInstance(caught.exception.__cause__, socket.timeout)
        self.assertEqual(self.lookups, [("slow.meeplekit.test", False)])  # in a thread of its own

    def test_a_name_tries_each_address_in_order(self):
        with Server.connect(listener.port, host="two.meeplekit.test", timeout=10) as server:
            self.assertEqual(server.address, ("two.meeplekit.test", listener.port))
            self.assertEqual(server.info()["protocol"], 1)
        self.assertEqual(self.lookups, [("two.meeplekit.test", False)])

    def test_ip_literals_and_no_timeout_look_up_directly(self):
        for host, timeout in (("127.0.0.1", 10), ("localhost", None)):
            with self.subTest(host=host, timeout=timeout):
                del self.lookups[:]
                with Server.connect(listener.port, host=host, timeout=timeout) as server:
                    self.assertEqual(server.info()["protocol"], 1)
                self.assertTrue(self.lookups)
                self.assertTrue(all(main for _, main in self.lookups), self.lookups)


class ConnectEnvTest(unittest.TestCase):
    """``MEEPLEKIT_CONNECT`` makes the shared server a connection to a running server;
    ``MEEPLEKIT_REQUEST_TIMEOUT`` gives the shared server its ``request_timeout``."""

    def setUp(self):
        saved = {name: os.environ.get(name) for name in ("MEEPLEKIT_CONNECT", "MEEPLEKIT_SERVE", "MEEPLEKIT_REQUEST_TIMEOUT")}

        def restore():
            close_default_server()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

        self.addCleanup(restore)
        close_default_server()

    def test_the_shared_server_connects(self):
        expected = None
        for value in (str(listener.port), f"127.0.0.1:{listener.port}", f" {listener.port}\n"):
            with self.subTest(value=value):
                os.environ["MEEPLEKIT_CONNECT"] = value
                close_default_server()
                server = default_server()
                self.assertEqual(server.address, ("127.0.0.1", listener.port))
                self.assertIsNone(server.pid)
                self.assertIsNone(server.command)
                self.assertIs(default_server(), server)
                game = load_game("classic", players=2)
                self.assertIs(game.server, server)
                seen = play(game, "env")
                self.assertTrue(seen[0])
                if expected is not None:
                    self.assertEqual(seen, expected)
                expected = seen
                close_default_server()
                self.assertFalse(server.alive)
                self.assertTrue(listener.running())  # only the connection was closed

    def test_a_new_connection_after_a_fork(self):
        os.environ["MEEPLEKIT_CONNECT"] = str(listener.port)
        parent = default_server()
        expected = play(load_game("classic", players=2), "fork")
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                server = default_server()
                out = {"new": server is not parent, "address": list(server.address), "pid": server.pid,
                       "seen": play(load_game("classic", players=2), "fork")}
            except BaseException as e:
                out = {"error": repr(e)}
            os.write(write, json.dumps(out).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as f:
            out = json.loads(f.read())
        os.waitpid(pid, 0)
        self.assertNotIn("error", out)
        self.assertTrue(out["new"])
        self.assertEqual(out["address"], ["127.0.0.1", listener.port])
        self.assertIsNone(out["pid"])
        self.assertEqual([out["seen"][0], out["seen"][1]], [expected[0], expected[1]])
        self.assertIs(default_server(), parent)
        self.assertTrue(parent.alive)

    def test_request_timeout_from_the_environment(self):
        os.environ.pop("MEEPLEKIT_REQUEST_TIMEOUT", None)
        os.environ["MEEPLEKIT_CONNECT"] = str(listener.port)
        self.assertIsNone(default_server().request_timeout)  # unset: no bound
        for value, expected in (("30", 30.0), (" 2.5\n", 2.5), ("inf", None)):
            with self.subTest(value=value):
                os.environ["MEEPLEKIT_REQUEST_TIMEOUT"] = value
                close_default_server()
                server = default_server()
                self.assertEqual(server.request_timeout, expected)
                self.assertEqual(server.info()["protocol"], 1)
        # a started shared server takes it too
        os.environ.pop("MEEPLEKIT_CONNECT", None)
        command = serve_command()
        os.environ["MEEPLEKIT_SERVE"] = command if isinstance(command, str) else shlex.join(command)
        os.environ["MEEPLEKIT_REQUEST_TIMEOUT"] = "45"
        close_default_server()
        started = default_server()
        self.assertIsNotNone(started.pid)
        self.assertEqual(started.request_timeout, 45.0)
        # and a silent started server times out by it
        os.environ["MEEPLEKIT_SERVE"] = shlex.join([sys.executable, "-c", SILENT_SERVER])
        os.environ["MEEPLEKIT_REQUEST_TIMEOUT"] = "0.3"
        close_default_server()
        with self.assertRaises(ServerError) as caught:
            default_server().request("info")
        self.assertEqual(caught.exception.code, "client/request-timeout")

    def test_malformed_request_timeouts(self):
        os.environ["MEEPLEKIT_CONNECT"] = str(listener.port)
        for value in ("0", "-1", "nan", "soon", "30s", "1e-400"):
            with self.subTest(value=value):
                os.environ["MEEPLEKIT_REQUEST_TIMEOUT"] = value
                close_default_server()
                with self.assertRaises(ServerError) as caught:
                    default_server()
                self.assertEqual(caught.exception.code, "client/config")
                self.assertIn(f"MEEPLEKIT_REQUEST_TIMEOUT={value!r}", caught.exception.message)
                self.assertIn("positive number of seconds", caught.exception.message)
        os.environ["MEEPLEKIT_REQUEST_TIMEOUT"] = ""  # empty: as unset
        close_default_server()
        self.assertIsNone(default_server().request_timeout)

    def test_malformed_values(self):
        for value in ("localhost", "::1:7000", "[::1]", "[::1]7000", "[]:7000", "127.0.0.1:", ":7000", "seven",
                      "0", "70000", "127.0.0.1:port", "127.0.0.1:70000", " ", "+7000"):
            with self.subTest(value=value):
                os.environ["MEEPLEKIT_CONNECT"] = value
                with self.assertRaises(ServerError) as caught:
                    default_server()
                self.assertEqual(caught.exception.code, "client/connect")
                self.assertIn(f"MEEPLEKIT_CONNECT={value!r}", caught.exception.message)
                self.assertIn("HOST:PORT", caught.exception.message)
                self.assertIn("[IPV6]:PORT", caught.exception.message)
        self.assertEqual(_connect_target("7000"), ("127.0.0.1", 7000))
        self.assertEqual(_connect_target("localhost:7000"), ("localhost", 7000))
        self.assertEqual(_connect_target("[::1]:7000"), ("::1", 7000))
        self.assertEqual(_connect_target("[fe80::1%eth0]:65535"), ("fe80::1%eth0", 65535))

    def test_nothing_listening_is_not_a_started_server(self):
        port = free_port()
        os.environ["MEEPLEKIT_CONNECT"] = f"127.0.0.1:{port}"
        with self.assertRaises(ServerError) as caught:
            load_game("classic", players=2)
        self.assertEqual(caught.exception.code, "client/connect")
        self.assertIn(f"127.0.0.1:{port}", caught.exception.message)
        self.assertIn("refused", caught.exception.message)
        os.environ["MEEPLEKIT_CONNECT"] = f"[::1]:{port}"
        with self.assertRaises(ServerError) as caught:
            default_server()
        self.assertEqual(caught.exception.code, "client/connect")
        self.assertIn(f"[::1]:{port}", caught.exception.message)

    def test_empty_means_unset(self):
        command = serve_command()
        os.environ["MEEPLEKIT_SERVE"] = command if isinstance(command, str) else shlex.join(command)
        os.environ["MEEPLEKIT_CONNECT"] = ""
        server = default_server()
        self.assertIsNotNone(server.pid)
        self.assertIsNone(server.address)


if __name__ == "__main__":
    unittest.main()
