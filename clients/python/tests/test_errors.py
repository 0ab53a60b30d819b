"""Errors: the server's codes as MeepleError, a server that keeps working, dead and wrong servers."""

from __future__ import annotations

import os
import signal
import sys
import unittest

from _support import error_code_in_forked_child, ServerTestCase, serve_command, start_server

from meeplekit_client import MeepleError, Server, ServerError, load_game


class ErrorTest(ServerTestCase):
    def test_illegal_action(self):
        state = self.game.new_initial_state(seed="illegal")
        state.apply_action(state.legal_actions()[0])
        legal = state.legal_actions()
        before = state.serialize()
        legal_set = set(legal)
        bad = next(a for a in range(self.game.num_distinct_actions()) if a not in legal_set)
        with self.assertRaises(MeepleError) as caught:
            state.apply_action(bad)
        self.assertEqual(caught.exception.code, "protocol/illegal-action")
        self.assertTrue(caught.exception.message)
        self.assertIn("protocol/illegal-action", str(caught.exception))
        # nothing changed, and the server goes on
        self.assertEqual(state.serialize(), before)
        self.assertEqual(state.legal_actions(), legal)
        state.apply_action(legal[0])
        self.assertTrue(self.server.alive)

    def test_library_and_protocol_codes(self):
        with self.assertRaises(MeepleError) as caught:
            load_game("classic", players=9, server=self.server)
        self.assertEqual(caught.exception.code, "options/players")
        with self.assertRaises(MeepleError) as caught:
            self.server.request("no-such-op")
        self.assertEqual(caught.exception.code, "protocol/unknown-op")
        with self.assertRaises(MeepleError) as caught:
            self.server.request("state", state_id="nope")
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")
        with self.assertRaises(MeepleError) as caught:
            self.game.deserialize_state("not a saved state")
        self.assertFalse(caught.exception.code.startswith(("client/", "protocol/unknown")))
        info = self.server.info()
        self.assertEqual(info["protocol"], 1)
        self.assertIn("classic", info["games"])

    def test_dead_server(self):
        server = start_server()
        game = load_game(server=server)
        state = game.new_initial_state(seed=1)
        os.killpg(server.pid, signal.SIGKILL)  # the server runs in its own process group (with npx or tsx around it)
        with self.assertRaises(ServerError) as caught:
            state.serialize()
        self.assertEqual(caught.exception.code, "client/server-exited")
        self.assertIn("exit status", caught.exception.message)
        self.assertFalse(server.alive)
        with self.assertRaises(ServerError):  # and it stays dead, clearly
            game.new_initial_state()
        server.close()

    def test_closed_server(self):
        with start_server() as server:
            game = load_game(server=server)
        with self.assertRaises(ServerError) as caught:
            game.new_initial_state()
        self.assertEqual(caught.exception.code, "client/closed")

    def test_wrong_servers(self):
        with self.assertRaises(ServerError) as caught:
            Server(["meeplekit-no-such-command-xyz", "serve"])
        self.assertEqual(caught.exception.code, "client/spawn")
        self.assertIn("MEEPLEKIT_SERVE", caught.exception.message)
        with self.assertRaises(ServerError) as caught:
            Server([sys.executable, "-c", "print('hello there')"])
        self.assertEqual(caught.exception.code, "client/hello")
        with self.assertRaises(ServerError) as caught:
            Server([sys.executable, "-c", "import sys; print('{\"hello\":\"meeplekit\",\"protocol\":2,\"version\":\"9.0.0\"}')"])
        self.assertEqual(caught.exception.code, "client/protocol-version")
        with self.assertRaises(ServerError) as caught:
            Server([sys.executable, "-c", "import sys; sys.stderr.write('cannot start\\n'); sys.exit(3)"])
        self.assertEqual(caught.exception.code, "client/server-exited")
        self.assertEqual(caught.exception.returncode, 3)
        self.assertIn("cannot start", caught.exception.message)

    def test_forked_child(self):
        state = self.game.new_initial_state(seed="fork")
        self.assertEqual(error_code_in_forked_child(state), "client/forked")
        self.assertTrue(state.serialize())  # the parent's server goes on

    def test_command_from_environment(self):
        old = os.environ.get("MEEPLEKIT_SERVE")
        command = serve_command()
        os.environ["MEEPLEKIT_SERVE"] = command if isinstance(command, str) else " ".join(f'"{c}"' for c in command)
        try:
            with Server() as server:
                self.assertTrue(server.version)
        finally:
            if old is None:
                del os.environ["MEEPLEKIT_SERVE"]
            else:
                os.environ["MEEPLEKIT_SERVE"] = old


if __name__ == "__main__":
    unittest.main()
