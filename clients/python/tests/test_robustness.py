"""Robustness: requests over the server's line limit, answers the server could not give an id,
malformed responses (from a scripted peer), and integer arguments that are not integers.

A request over the limit fails alone with ``protocol/too-large`` and the session goes on; a
response that breaks the framing ends the session with ``client/bad-response``; a well-framed
response with a malformed field is ``client/bad-response`` for that call only; and nothing the
server sends makes the client raise anything but a ``MeepleError``.
"""

from __future__ import annotations

import unittest
from unittest import mock

from _support import ScriptedPeer, ServerTestCase, relay

from meeplekit_client import MeepleError, Server, ServerError
from meeplekit_client import server as server_module


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


if __name__ == "__main__":
    unittest.main()
