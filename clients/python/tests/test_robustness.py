"""Robustness: requests over the server's line limit, answers the server could not give an id,
malformed responses (from a scripted peer), and integer arguments that are not integers.

A request over the limit fails alone with ``protocol/too-large`` and the session goes on; a
response that breaks the framing ends the session with ``client/bad-response``; a well-framed
response with a malformed field is ``client/bad-response`` for that call only; and nothing the
server sends makes the client raise anything but a ``MeepleError``.
"""

from __future__ import annotations

import base64
import os
import signal
import struct
import sys
import threading
import unittest
from unittest import mock

from _support import HELLO_LINE, ListeningServer, ScriptedPeer, ServerTestCase, relay

from meeplekit_client import AECEnv, MeepleError, Server, ServerError, VectorEnv, fetch, load_game
from meeplekit_client import _arrays
from meeplekit_client import server as server_module

try:
    import numpy
except ImportError:  # pragma: no cover - depends on the environment
    numpy = None


class TooLargeTest(ServerTestCase):
    def test_refused_before_sending_and_the_session_goes_on(self):
        with self.assertRaises(MeepleError) as caught:
            self.game.deserialize_state("x" * 20_000_000)
        self.assertEqual(caught.exception.code, "protocol/too-large")
        self.assertIn("16,777,216", caught.exception.message)
        self.assertTrue(self.server.alive)
        state = self.game.new_initial_state(seed="after")
        self.assertTrue(state.is_chance_node())
        # in a batch, only that request fails
        results = self.server.request_many([("info", {}), ("deserialize", {"game_id": self.game.id, "text": "y" * 17_000_000}), ("info", {})], raise_errors=False)
        self.assertEqual(results[0]["protocol"], 1)
        self.assertEqual(results[1].code, "protocol/too-large")
        self.assertEqual(results[2]["protocol"], 1)

    def test_the_servers_answer_with_id_null_is_its_requests(self):
        # Sent anyway (the client's check lifted): the server skips the line and answers with the
        # id null, in its place among pipelined requests.
        with mock.patch.object(server_module, "MAX_LINE_BYTES", 1 << 40, create=True):
            before = self.server.submit("info")
            big = self.server.submit("deserialize", game_id=self.game.id, text="x" * 17_000_000)
            after = self.server.submit("new_state", game_id=self.game.id, seed="after-big")
            with self.assertRaises(MeepleError) as caught:
                big.result()
            self.assertEqual(caught.exception.code, "protocol/too-large")
            self.assertEqual(before.result()["protocol"], 1)
            self.assertTrue(after.result()["state_id"])
        self.assertTrue(self.server.alive)
        self.assertEqual(self.server.info()["protocol"], 1)
        self.assertTrue(self.game.new_initial_state(seed=3).is_chance_node())


class FramingTest(unittest.TestCase):
    """Lines from a scripted peer: which belong to the request in flight, and which end the session."""

    def connect(self, answer):
        peer = ScriptedPeer(answer)
        self.addCleanup(peer.close)
        server = Server.connect(peer.port, timeout=60)
        self.addCleanup(server.close)
        return server

    def test_a_session_refused_instead_of_a_hello(self):
        line = b'{"id":null,"ok":false,"error":{"code":"protocol/too-many-connections","message":"this server serves 64 connections"}}\n'
        peer = ScriptedPeer(lambda request: None, hello=line)
        self.addCleanup(peer.close)
        with self.assertRaises(ServerError) as caught:
            Server.connect(peer.port, timeout=60)
        self.assertEqual(caught.exception.code, "protocol/too-many-connections")
        self.assertIn("64 connections", caught.exception.message)

    def test_an_error_with_id_null_answers_the_request_in_flight(self):
        def answer(request):
            if request.get("op") == "bad":
                return {"id": None, "ok": False, "error": {"code": "protocol/json", "message": "not JSON"}}
            return {"ok": True, "protocol": 1}

        server = self.connect(answer)
        with self.assertRaises(MeepleError) as caught:
            server.request("bad")
        self.assertEqual(caught.exception.code, "protocol/json")
        self.assertEqual(server.info()["protocol"], 1)
        self.assertTrue(server.alive)

    def assertSessionOver(self, server, caught):
        self.assertIsInstance(caught.exception, ServerError)
        self.assertEqual(caught.exception.code, "client/bad-response")
        self.assertFalse(server.alive)
        with self.assertRaises(ServerError) as later:
            server.info()
        self.assertEqual(later.exception.code, "client/bad-response")
        self.assertIn("session is over", later.exception.message)

    def test_lines_that_answer_no_request_end_the_session(self):
        for line in (
            b"not json\n",
            b"[1, 2]\n",
            b'{"id": 12345, "ok": true}\n',
            b'{"id": null, "ok": true}\n',
            b'{"id": "1", "ok": true}\n',
            b"[" * 100_000 + b"]" * 100_000 + b"\n",
            b'{"id": 1, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
        ):
            with self.subTest(line=line[:30]):
                server = self.connect(lambda request, line=line: line)
                with self.assertRaises(ServerError) as caught:
                    server.info()
                self.assertSessionOver(server, caught)

    def test_malformed_success_and_error_objects(self):
        for response in (
            {"ok": "yes"},
            {"protocol": 1},
            {"ok": False},
            {"ok": False, "error": "boom"},
            {"ok": False, "error": {"message": "no code"}},
            {"ok": False, "error": {"code": 7, "message": "a number"}},
        ):
            with self.subTest(response=response):
                server = self.connect(lambda request, response=response: response)
                with self.assertRaises(MeepleError) as caught:
                    server.info()
                self.assertEqual(caught.exception.code, "client/bad-response")
                self.assertTrue(server.alive)  # the response was in its place: the session goes on


class IntegerArgumentTest(ServerTestCase):
    """Integers are taken as operator.index takes them (int and numpy integers), bools refused:
    anything else is a TypeError before anything is sent, as the server would refuse it."""

    def test_actions(self):
        state = self.game.new_initial_state(seed="ints")
        state.apply_action(state.legal_actions()[0])
        legal = state.legal_actions()
        before = state.serialize()
        for bad in (legal[0] + 0.7, float(legal[0]), str(legal[0]), True, None, [legal[0]]):
            with self.subTest(action=bad):
                with self.assertRaises(TypeError) as caught:
                    state.apply_action(bad)  # legal_actions cached: the path that defers the apply
                self.assertIn("action", str(caught.exception))
                fresh = self.game.deserialize_state(before)
                with self.assertRaises(TypeError):
                    fresh.apply_action(bad)  # nothing cached: the path that sends at once
                with self.assertRaises(TypeError):
                    fresh.child(bad)
                with self.assertRaises(TypeError):
                    fresh.action_to_string(bad)
        self.assertEqual(state.serialize(), before)
        if numpy is not None:
            state.apply_action(numpy.int64(legal[0]))
            self.assertNotEqual(state.serialize(), before)
            with self.assertRaises(TypeError):
                state.apply_action(numpy.float64(state.legal_actions()[0]))
            with self.assertRaises(TypeError):
                state.apply_action(numpy.bool_(True))

    def test_players_and_counts(self):
        for bad in (2.5, 2.0, "2", True):
            with self.subTest(players=bad):
                with self.assertRaises(TypeError):
                    load_game("classic", players=bad, server=self.server)
                with self.assertRaises(TypeError):
                    VectorEnv(2, "classic", players=bad, server=self.server)
                with self.assertRaises(TypeError):
                    AECEnv("classic", players=bad, server=self.server)
        if numpy is not None:
            self.assertEqual(load_game("classic", players=numpy.int32(3), server=self.server).num_players(), 3)
        state = self.game.new_initial_state(seed="counts")
        for call in (
            lambda: state.clones(2.0),
            lambda: state.observation_tensor(0.0),
            lambda: state.observation_tensor(False),
            lambda: state.legal_actions(0.0),
            lambda: state.legal_actions_mask(True),
            lambda: state.player_return(0.5),
            lambda: state.determinize(0.0, "seed"),
            lambda: state.action_to_string(0.0, 3),
        ):
            with self.assertRaises(TypeError):
                call()
        with self.assertRaises(ValueError):
            state.player_return(-1)
        with self.assertRaises(ValueError):
            state.player_return(2)
        self.assertEqual(state.player_return(1), 0.0)
        with self.assertRaises(TypeError):
            Server.connect(True)

    def test_seeds(self):
        for bad in (1.5, 7.0, True, b"bytes", (1, 2)):
            with self.subTest(seed=bad):
                with self.assertRaises(TypeError):
                    self.game.new_initial_state(seed=bad)
                with self.assertRaises(TypeError):
                    VectorEnv(2, self.game, seed=bad)
                with self.assertRaises(TypeError):
                    self.game.new_initial_state(seed=1).determinize(0, seed=bad)
                with self.assertRaises(TypeError):
                    AECEnv(self.game).reset(seed=bad)
        drawn = lambda seed: self.game.new_initial_state(seed=seed, initial="drawn").legal_actions()  # noqa: E731
        self.assertEqual(drawn(7), drawn("7"))
        if numpy is not None:
            self.assertEqual(drawn(numpy.int64(7)), drawn(7))

    def test_vector_env(self):
        for bad in (2.5, 2.0, "2", True):
            with self.subTest(num_envs=bad):
                with self.assertRaises(TypeError):
                    VectorEnv(bad, self.game, seed=1)
        with VectorEnv(2, self.game, seed="vec-ints") as env:
            batch = env.reset()
            actions = [int(a[0]) for a in batch.legal_actions]
            for bad in ([actions[0] + 0.5, actions[1]], [True, actions[1]], [str(actions[0]), actions[1]]):
                with self.subTest(actions=bad):
                    with self.assertRaises(TypeError):
                        env.step(bad)
            with self.assertRaises(ValueError):
                env.step(actions[:1])
            # a value past int32 is not wrapped around into a legal one: the server refuses it
            with self.assertRaises(MeepleError) as caught:
                env.step([actions[0] + 2**32, actions[1]])
            self.assertTrue(caught.exception.code.startswith("protocol/"))
            if numpy is not None:
                if _arrays.HAVE_NUMPY:
                    with self.assertRaises(TypeError):
                        env.step(numpy.array(actions, dtype=numpy.float64))
                    with self.assertRaises(TypeError):
                        env.step(numpy.array([True, False]))
                    with self.assertRaises(ValueError):
                        env.step(numpy.array([actions]))
                    with self.assertRaises(MeepleError):
                        env.step(numpy.array(actions, dtype=numpy.int64) + 2**32)
                batch = env.step([numpy.int64(actions[0]), numpy.int32(actions[1])])
            else:
                batch = env.step(actions)
            self.assertEqual(len(batch), 2)

    def test_aec(self):
        env = AECEnv(self.game)
        env.reset(seed=5)
        agent = env.agent_selection
        legal = env.infos[agent]["legal_actions"]
        for bad in (legal[0] + 0.7, str(legal[0]), True):
            with self.assertRaises(TypeError):
                env.step(bad)
        self.assertEqual(env.agent_selection, agent)
        space = env.action_space(agent)
        self.assertFalse(space.contains(True))
        self.assertFalse(space.contains(1.0))
        self.assertTrue(space.contains(1))
        with self.assertRaises(TypeError):
            list(env.agent_iter(2.5))
        env.step(legal[0])
        env.close()


# A server on pipes that stops reading while its output is not read (it writes each response
# whole before it reads the next request): "big" is answered with a megabyte.
BACK_PRESSURE_SERVER = """
import json, sys
out = sys.stdout.buffer
out.write(%r)
out.flush()
for line in sys.stdin.buffer:
    request = json.loads(line)
    pad = "y" * 1000000 if request["op"] == "big" else ""
    out.write(json.dumps({"id": request["id"], "ok": True, "pad": pad}).encode() + b"\\n")
    out.flush()
""" % HELLO_LINE


class BackPressureTest(unittest.TestCase):
    """A batch whose responses fill the pipes while it is still being written: the server stops
    reading until they are read, and the client reads them while it writes, so neither waits on
    the other for ever."""

    def run_batch(self, server, requests):
        """``server.request_many(requests)`` in a thread, waited for generously (a deadlock would
        otherwise hang the test run); returns its results."""
        out = []

        def run():
            try:
                out.append(server.request_many(requests, raise_errors=False))
            except BaseException as e:  # raised in the test's thread
                out.append(e)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(300)
        if thread.is_alive():
            if server.pid is not None:
                os.killpg(server.pid, signal.SIGKILL)  # the blocked write fails, and the thread ends
            else:
                server.close()
            thread.join(60)
            self.fail("the batch did not finish: the client and the server wait on each other")
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def big_batch(self, count, text_bytes):
        return [("big", {})] * count + [("echo", {"text": "x" * text_bytes})] + [("big", {})]

    def test_over_pipes(self):
        with Server([sys.executable, "-c", BACK_PRESSURE_SERVER]) as server:
            results = self.run_batch(server, self.big_batch(8, 4_000_000))
            self.assertEqual([len(r["pad"]) for r in results], [1000000] * 8 + [0, 1000000])
            self.assertEqual(server.request("echo")["ok"], True)

    def test_over_tcp(self):
        peer = ScriptedPeer(lambda request: {"ok": True, "pad": "y" * 1000000 if request["op"] == "big" else ""})
        self.addCleanup(peer.close)
        with Server.connect(peer.port, timeout=60) as server:
            results = self.run_batch(server, self.big_batch(24, 12_000_000))
            self.assertEqual([len(r["pad"]) for r in results], [1000000] * 24 + [0, 1000000])
            self.assertEqual(server.request("echo")["ok"], True)

    def test_a_server_that_takes_nothing_is_a_request_timeout(self):
        # It says hello, then neither reads nor answers: the request cannot be written whole. The
        # bound may be short, since the peer never takes a byte however slow the machine is.
        silent = "import sys, time; sys.stdout.buffer.write(%r); sys.stdout.flush(); time.sleep(600)" % HELLO_LINE
        server = Server([sys.executable, "-c", silent], request_timeout=1.0)
        self.addCleanup(server.close)
        with self.assertRaises(ServerError) as caught:
            self.run_batch(server, [("echo", {"text": "x" * 4_000_000})])
        self.assertEqual(caught.exception.code, "client/request-timeout")
        self.assertIn("did not take 'echo'", caught.exception.message)
        self.assertFalse(server.alive)

    def test_a_real_server_over_tcp(self):
        listening = ListeningServer()
        self.addCleanup(listening.stop)
        with Server.connect(listening.port, timeout=60) as server:
            game = load_game("classic", server=server)
            state = game.new_initial_state(seed="back-pressure")
            state.legal_actions()
            requests = [("observation_tensor", {"state_id": state.id, "player": 0})] * 60
            requests.append(("deserialize", {"game_id": game.id, "text": "x" * 12_000_000}))
            results = self.run_batch(server, requests)
            self.assertTrue(all(r["observation"]["shape"] == [game.observation_tensor_size()] for r in results[:60]))
            self.assertFalse(results[60].code.startswith("client/"))
            self.assertTrue(state.clone().legal_actions())


def binary(dtype, fmt, values, shape):
    """A binary array object of ``values`` packed little-endian with the struct format ``fmt``."""
    return {"dtype": dtype, "shape": shape, "b64": base64.b64encode(struct.pack("<" + fmt * len(values), *values)).decode()}


def put(name, value):
    """A change that sets the field ``name`` (a path ``a.b`` reaches into an object)."""

    def change(response):
        *path, last = name.split(".")
        target = response
        for key in path:
            target[key] = dict(target[key])
            target = target[key]
        target[last] = value
        return response

    return change


def drop(name):
    """A change that removes the field ``name``."""

    def change(response):
        del response[name]
        return response

    return change


# Binary arrays that are malformed, each in its own way.
BAD_ARRAYS = {
    "not base64": {"dtype": "float32", "shape": [2], "b64": "!!!!not base64"},
    "not ASCII": {"dtype": "float32", "shape": [2], "b64": "AAAA\u00e9AAA"},
    "b64 not a string": {"dtype": "float32", "shape": [1], "b64": 12345},
    "unknown dtype": {"dtype": "complex64", "shape": [1], "b64": "AAAAAAAAAAA="},
    "dtype not a string": {"dtype": ["float32"], "shape": [1], "b64": "AAAAAA=="},
    "shape not a list": {"dtype": "float32", "shape": "2", "b64": "AAAAAAAAAAA="},
    "negative shape": {"dtype": "float32", "shape": [-2], "b64": "AAAAAAAAAAA="},
    "shape of floats": {"dtype": "float32", "shape": [2.0], "b64": "AAAAAAAAAAA="},
    "no shape": {"dtype": "float32", "b64": "AAAAAAAAAAA="},
    "too few bytes": binary("float32", "f", [1.0, 2.0], [3]),
    "too many bytes": binary("float32", "f", [1.0, 2.0, 3.0], [2]),
    "bytes not of the dtype": {"dtype": "float32", "shape": [1], "b64": base64.b64encode(b"abcde").decode()},
}


class MalformedResponseTest(ServerTestCase):
    """A scripted peer relays the real server, changing one operation's responses: every malformed
    field is ``client/bad-response`` (a MeepleError, never a KeyError, TypeError, ValueError...),
    and since the response was in its place the session goes on."""

    def assertBadResponse(self, op, change, call):
        def relayed(o, response):
            return change(response) if o == op and response.get("ok") is True else response

        peer = ScriptedPeer(relay(self.server, relayed))
        client = Server.connect(peer.port, timeout=60)
        try:
            with self.assertRaises(MeepleError) as caught:
                call(client)
            self.assertEqual(caught.exception.code, "client/bad-response", str(caught.exception))
            self.assertIn("malformed", caught.exception.message)
            self.assertTrue(client.alive)
            self.assertEqual(client.info()["protocol"], 1)
        finally:
            client.close()
            peer.close()

    def check(self, op, changes, call):
        for name, change in changes.items():
            with self.subTest(op=op, change=name):
                self.assertBadResponse(op, change, call)

    def test_make_game(self):
        call = lambda c: load_game("classic", server=c)  # noqa: E731
        self.check("make_game", {
            "no game_id": drop("game_id"),
            "game_id a number": put("game_id", 5),
            "info a string": put("info", "x"),
            "observation_shape a string": put("observation_shape", "abc"),
            "observation_shape of floats": put("observation_shape", [1.5]),
            "num_distinct_actions a string": put("num_distinct_actions", "81805"),
            "max_chance_outcomes true": put("max_chance_outcomes", True),
            "observation_spec a list": put("observation_spec", [1]),
        }, call)
        self.check("make_game", {
            "utility a string": put("info.utility", "x"),
            "a bound a string": put("info.utility", {"score": {"min": "low", "max": 1}}),
            "bounds of three": put("info.utility", {"score": [0, 1, 2]}),
        }, lambda c: load_game("classic", server=c).utility_bounds("score"))
        self.check("make_game", {"maxGameLength a float": put("info.maxGameLength", 1.5)}, lambda c: load_game("classic", server=c).max_game_length())

    def test_states(self):
        def fresh(c):
            return load_game("classic", server=c).new_initial_state(seed="malformed")

        self.check("new_state", {"no state_id": drop("state_id"), "state_id a number": put("state_id", 7)}, fresh)
        self.check("state", {
            "current_player a string": put("current_player", "0"),
            "current_player no player": put("current_player", 9),
            "is_chance a string": put("is_chance", "false"),
            "no is_terminal": drop("is_terminal"),
            "legal_actions a string": put("legal_actions", "abc"),
            "legal_actions of floats": put("legal_actions", [1.5]),
            "legal_actions negative": put("legal_actions", [-3]),
            "legal_actions past the outcomes": put("legal_actions", [10**6]),
            "legal_actions a bad array": put("legal_actions", BAD_ARRAYS["not base64"]),
            "returns of one player": put("returns", [0]),
            "returns of strings": put("returns", ["a", 0]),
            "no rewards": drop("rewards"),
        }, lambda c: fresh(c).legal_actions())
        self.check("chance_outcomes", {
            "a single": put("outcomes", [[1]]),
            "an outcome a string": put("outcomes", [["a", 0.5]]),
            "a probability past 1": put("outcomes", [[1, 2.0]]),
            "outcomes a string": put("outcomes", "x"),
            "an entry an object": put("outcomes", [{"outcome": 1}]),
        }, lambda c: fresh(c).chance_outcomes())
        self.check("chance_outcomes", {"a single": put("outcomes", [[1]])}, lambda c: fetch([fresh(c)]))
        self.check("apply_action", {
            "no events": drop("events"),
            "events an object": put("events", {"type": "x"}),
            "current_player a float": put("current_player", 0.5),
        }, lambda c: fresh(c).apply_action(0, events=True))
        self.check("serialize", {"text a number": put("text", 5)}, lambda c: fresh(c).serialize())
        self.check("state_to_string", {"no text": drop("text")}, lambda c: str(fresh(c)))
        self.check("clone", {"state_id null": put("state_id", None)}, lambda c: fresh(c).clone())
        self.check("returns", {"returns a string": put("returns", "x"), "returns of three": put("returns", [1, 2, 3])}, lambda c: fresh(c).returns("rank"))
        self.check("delete", {"deleted a string": put("deleted", "1")}, lambda c: c.delete([fresh(c).id]))

    def test_observations(self):
        def observe(c):
            state = load_game("classic", server=c).new_initial_state(seed="observe")
            state.legal_actions()  # the state is read: the observation is a request of its own
            return state.observation_tensor(0)

        changes = {name: put("observation", bad) for name, bad in BAD_ARRAYS.items()}
        changes["int32, not float32"] = put("observation", binary("int32", "i", [1, 2], [2]))
        changes["two dimensions"] = put("observation", binary("float32", "f", [1, 2], [1, 2]))
        changes["a plain list"] = put("observation", [0.0, 1.0])
        changes["no observation"] = drop("observation")
        self.check("observation_tensor", changes, observe)

    def test_vector_batches(self):
        def make(c):
            return VectorEnv(2, load_game("classic", server=c), seed="malformed")

        def step(c):
            env = make(c)
            return env.step(env.random_actions())

        changes = {f"current_player {name}": put("current_player", bad) for name, bad in BAD_ARRAYS.items()}
        changes.update({
            "no env_id": drop("env_id"),
            "current_player of 3 envs": put("current_player", binary("int32", "i", [0, 0, 0], [3])),
            "current_player float32": put("current_player", binary("float32", "f", [0, 0], [2])),
            "current_player a plain list": put("current_player", [0, 0]),
            "legal a list": put("legal", [1, 2]),
            "offsets decreasing": put("legal.offsets", binary("int32", "i", [0, 5, 3], [3])),
            "offsets past the actions": put("legal.offsets", binary("int32", "i", [0, 1, 99], [3])),
            "offsets of 2 envs too few": put("legal.offsets", binary("int32", "i", [0, 0], [2])),
            "offsets bad": put("legal.offsets", BAD_ARRAYS["too few bytes"]),
            "rewards of 3 players": put("rewards", binary("float32", "f", [0] * 6, [2, 3])),
            "rewards flat": put("rewards", binary("float32", "f", [0] * 4, [4])),
            "no done": drop("done"),
            "done int32": put("done", binary("int32", "i", [0, 0], [2])),
            "returns bad": put("returns", BAD_ARRAYS["not base64"]),
        })
        self.check("vec_make", changes, make)
        self.check("vec_step", {k: v for k, v in changes.items() if k != "no env_id"}, step)


if __name__ == "__main__":
    unittest.main()
