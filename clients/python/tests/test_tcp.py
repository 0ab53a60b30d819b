"""Server.connect: a session over TCP with a ``meeplekit serve --port 0`` started by the test.

The same requests give the same results as over stdio; sessions on two connections are
independent; closing a connection leaves the server running; refused, silent and wrong peers and
a server killed mid-session are ServerErrors, promptly.
"""

from __future__ import annotations

import gc
import random
import threading
import time
import unittest

from _support import error_code_in_forked_child, FakePeer, free_port, ListeningServer, start_server

from meeplekit_client import AECEnv, MeepleError, Server, ServerError, VectorEnv, load_game


def as_list(values):
    """A numpy array, an array.array or a list of rows as plain nested lists."""
    if hasattr(values, "tolist"):
        return values.tolist()
    return [as_list(v) if hasattr(v, "__len__") and not isinstance(v, (str, bytes)) else v for v in values]


def play_seeded(game, seed, rng_seed, max_steps=2000):
    """Plays a game from ``seed`` at random with ``random.Random(rng_seed)``; returns what it saw
    (each decision's legal actions and the chance outcomes), the returns and the saved state."""
    rng = random.Random(rng_seed)
    state = game.new_initial_state(seed=seed)
    seen = []
    for _ in range(max_steps):
        if state.is_terminal():
            return seen, state.returns(), state.serialize()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            seen.append(("chance", outcomes))
            action = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            seen.append((state.current_player(), legal))
            action = rng.choice(legal)
        state.apply_action(action)
    raise AssertionError("the game did not end")


def run_vector(server, steps=25):
    """Steps a seeded VectorEnv with seeded random actions; returns every batch's fields as lists."""
    rng = random.Random(3)
    out = []
    with VectorEnv(16, "classic", players=3, seed="tcp", server=server) as env:
        batch = env.reset()
        for _ in range(steps):
            batch = env.step(env.random_actions(batch, rng))
            out.append((as_list(batch.current_player), as_list(batch.rewards), as_list(batch.done), [as_list(a) for a in batch.legal_actions]))
    return out


def run_aec(server, seed=11, steps=120):
    """Plays ``steps`` agent turns of a seeded AECEnv; returns the rewards and infos' legal actions seen."""
    env = AECEnv("classic", players=2, server=server)
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = []
    for agent in env.agent_iter(steps):
        _, reward, termination, truncation, info = env.last(observe=False)
        legal = info.get("legal_actions", [])
        out.append((agent, reward, list(legal)))
        env.step(None if termination or truncation else rng.choice(list(legal)))
    env.close()
    return out


class TcpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.listener = ListeningServer()
        cls.server = Server.connect(cls.listener.port, timeout=30)
        cls.game = load_game("classic", players=2, server=cls.server)

    @classmethod
    def tearDownClass(cls):
        cls.server.close()
        cls.listener.stop()

    def connect(self):
        """Another session on the class's listening server, closed after the test."""
        server = Server.connect(self.listener.port, self.listener.host, timeout=30)
        self.addCleanup(server.close)
        return server

    def test_hello_and_info(self):
        self.assertEqual(self.listener.host, "127.0.0.1")
        server = self.server
        self.assertEqual(server.hello["hello"], "meeplekit")
        self.assertEqual(server.hello["protocol"], 1)
        self.assertTrue(server.version)
        info = server.info()
        self.assertEqual(info["protocol"], 1)
        self.assertEqual(info["version"], server.version)
        self.assertIn("classic", info["games"])
        self.assertIsNone(server.pid)
        self.assertIsNone(server.command)
        self.assertEqual(server.address, ("127.0.0.1", self.listener.port))
        self.assertTrue(server.alive)
        self.assertIn(f"127.0.0.1:{self.listener.port}", repr(server))
        with start_server() as stdio:
            self.assertEqual(stdio.version, server.version)
            self.assertIsNone(stdio.address)

    def test_same_results_as_stdio(self):
        tcp_game = self.game
        with start_server() as stdio:
            stdio_game = load_game("classic", players=2, server=stdio)
            self.assertEqual(tcp_game.info, stdio_game.info)
            over_tcp = play_seeded(tcp_game, "same", 5)
            over_stdio = play_seeded(stdio_game, "same", 5)
            self.assertEqual(over_tcp, over_stdio)
            self.assertGreater(len(over_tcp[0]), 71)
            self.assertEqual(run_vector(self.server), run_vector(stdio))
            self.assertEqual(run_aec(self.server), run_aec(stdio))
            tensor = tcp_game.new_initial_state(seed="obs")
            tensor.apply_action(tensor.legal_actions()[0])
            other = stdio_game.new_initial_state(seed="obs")
            other.apply_action(other.legal_actions()[0])
            self.assertEqual(as_list(tensor.observation_tensor()), as_list(other.observation_tensor()))

    def test_errors_and_pipelining(self):
        state = self.game.new_initial_state(seed="pipe")
        state.apply_action(state.legal_actions()[0])
        legal = set(state.legal_actions())
        bad = next(a for a in range(self.game.num_distinct_actions()) if a not in legal)
        with self.assertRaises(MeepleError) as caught:
            state.apply_action(bad)
        self.assertEqual(caught.exception.code, "protocol/illegal-action")
        player = state.current_player()
        first = self.server.submit("info")
        second = self.server.submit("state", state_id=state.id)
        third = self.server.submit("no-such-op")
        self.assertFalse(third.done())
        self.assertEqual(second.result()["current_player"], player)  # read in order: first's response too
        self.assertTrue(first.done())
        self.assertEqual(first.result()["protocol"], 1)
        with self.assertRaises(MeepleError) as caught:
            third.result()
        self.assertEqual(caught.exception.code, "protocol/unknown-op")
        with VectorEnv(8, self.game, seed="a", server=self.server) as a, VectorEnv(8, self.game, seed="b", server=self.server) as b:
            a.step_async(a.random_actions(a.reset(), random.Random(1)))
            b.step_async(b.random_actions(b.reset(), random.Random(2)))
            self.assertEqual(len(as_list(a.step_wait().current_player)), 8)
            self.assertEqual(len(as_list(b.step_wait().current_player)), 8)
        self.assertTrue(self.server.alive)

    def test_threads_share_a_connection(self):
        expected = play_seeded(self.game, "threads", 1)
        results = [None] * 4
        errors = []

        def play(i):
            try:
                results[i] = play_seeded(self.game, "threads", 1)
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        self.assertEqual(errors, [])
        self.assertEqual(results, [expected] * 4)

    def test_two_sessions_are_independent(self):
        a, b = self.connect(), self.connect()
        game_a = load_game("classic", players=2, server=a)
        state_a = game_a.new_initial_state(seed="mine")
        with self.assertRaises(MeepleError) as caught:
            b.request("state", state_id=state_a.id)
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")
        with self.assertRaises(MeepleError) as caught:
            b.request("new_state", game_id=game_a.id)
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")
        # both at once, in two threads: the same game on each, neither disturbing the other
        game_b = load_game("classic", players=2, server=b)
        results = {}

        def play(name, game):
            results[name] = play_seeded(game, "both", 9)

        threads = [threading.Thread(target=play, args=("a", game_a)), threading.Thread(target=play, args=("b", game_b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        self.assertEqual(set(results), {"a", "b"})
        self.assertEqual(results["a"], results["b"])
        # closing one session leaves the other (and its handles) working
        a.close()
        self.assertTrue(game_b.new_initial_state(seed=1).legal_actions())
        with self.assertRaises(ServerError) as caught:
            state_a.legal_actions()
        self.assertEqual(caught.exception.code, "client/closed")

    def test_close_leaves_the_server_running(self):
        with Server.connect(self.listener.port) as server:
            game = load_game("classic", players=2, server=server)
            state = game.new_initial_state(seed=2)
            self.assertTrue(state.legal_actions())
        self.assertFalse(server.alive)
        server.close()  # idempotent
        with self.assertRaises(ServerError) as caught:
            server.info()
        self.assertEqual(caught.exception.code, "client/closed")
        self.assertTrue(self.listener.running())
        self.assertTrue(self.server.info()["games"])  # the other sessions go on
        again = self.connect()
        self.assertEqual(again.info()["protocol"], 1)
        # a connected server that is garbage collected closes its connection only, too
        collected = Server.connect(self.listener.port)
        load_game(server=collected).new_initial_state(seed=3)
        del collected
        gc.collect()
        self.assertTrue(self.listener.running())
        self.assertEqual(self.connect().info()["protocol"], 1)

    def test_forked_child(self):
        state = self.game.new_initial_state(seed="fork")
        self.assertEqual(error_code_in_forked_child(state), "client/forked")
        self.assertTrue(state.serialize())  # the parent's session goes on


class TcpFailureTest(unittest.TestCase):
    def assertPrompt(self, started, limit=5.0):
        elapsed = time.monotonic() - started
        self.assertLess(elapsed, limit, f"took {elapsed:.1f} s")

    def test_refused(self):
        port = free_port()
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            Server.connect(port, timeout=10)
        self.assertPrompt(started)
        self.assertEqual(caught.exception.code, "client/connect")
        self.assertIn(f"127.0.0.1:{port}", caught.exception.message)
        self.assertIn("refused", caught.exception.message)
        self.assertIsInstance(caught.exception.__cause__, ConnectionRefusedError)

    def test_unknown_host(self):
        with self.assertRaises(ServerError) as caught:
            Server.connect(7000, host="meeplekit-no-such-host.invalid", timeout=5)
        self.assertEqual(caught.exception.code, "client/connect")
        self.assertIn("meeplekit-no-such-host.invalid", caught.exception.message)

    def test_bad_arguments(self):
        for port in (0, 70000, -1):
            with self.assertRaises(ValueError):
                Server.connect(port)
        with self.assertRaises(TypeError):
            Server.connect("7000")
        with self.assertRaises(ValueError):
            Server.connect(7000, timeout=0)

    def test_silent_and_stalling_peers(self):
        # nothing at all, or part of a hello line and then nothing: both time out promptly
        for greeting in (b"", b'{"hello":"meep'):
            with self.subTest(greeting=greeting):
                peer = FakePeer(greeting=greeting, hold=10)
                try:
                    started = time.monotonic()
                    with self.assertRaises(ServerError) as caught:
                        Server.connect(peer.port, timeout=0.5)
                    self.assertPrompt(started, 3.0)
                    self.assertEqual(caught.exception.code, "client/startup-timeout")
                    self.assertIn("no hello line within 0.5 s", caught.exception.message)
                finally:
                    peer.close()

    def test_wrong_peers(self):
        for greeting, code in (
            (b"SSH-2.0-OpenSSH_9.2\r\n", "client/hello"),
            (b'{"hello":"meeplekit","protocol":2,"version":"9.0.0"}\n', "client/protocol-version"),
        ):
            peer = FakePeer(greeting=greeting, hold=2)
            try:
                with self.assertRaises(ServerError) as caught:
                    Server.connect(peer.port, timeout=5)
                self.assertEqual(caught.exception.code, code)
            finally:
                peer.close()
        peer = FakePeer(greeting=b"", hold=0)  # accepts, then closes at once
        try:
            with self.assertRaises(ServerError) as caught:
                Server.connect(peer.port, timeout=5)
            self.assertEqual(caught.exception.code, "client/server-exited")
            self.assertIn("before its hello line", caught.exception.message)
        finally:
            peer.close()

    def test_server_killed_mid_session(self):
        listener = ListeningServer()
        self.addCleanup(listener.stop)
        server = Server.connect(listener.port, timeout=30)
        self.addCleanup(server.close)
        game = load_game(server=server)
        state = game.new_initial_state(seed=1)
        pending = server.submit("info")
        listener.kill()
        listener.proc.wait(timeout=10)
        started = time.monotonic()
        with self.assertRaises(ServerError) as caught:
            state.serialize()  # the response to info came, or did not: either way this fails
            pending.result()
        self.assertPrompt(started)
        self.assertEqual(caught.exception.code, "client/server-exited")
        self.assertIn(f"127.0.0.1:{listener.port}", caught.exception.message)
        self.assertFalse(server.alive)
        with self.assertRaises(ServerError) as caught:  # and it stays gone, clearly
            game.new_initial_state()
        self.assertEqual(caught.exception.code, "client/server-exited")
        self.assertIn("the server is gone", caught.exception.message)
        server.close()
        # a new connection to the dead server's port is refused
        with self.assertRaises(ServerError) as caught:
            Server.connect(listener.port, timeout=5)
        self.assertEqual(caught.exception.code, "client/connect")


if __name__ == "__main__":
    unittest.main()
