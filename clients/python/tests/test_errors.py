"""Errors: the server's codes as MeepleError, a server that keeps working, dead and wrong servers."""

from __future__ import annotations

import os
import signal
import stat
import sys
import tempfile
import unittest
from unittest import mock

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


# What npx --no-install prints when the meeplekit package is installed nowhere it looks.
FAILING_NPX = """#!/bin/sh
echo "npm error code E404" >&2
echo "npm error 404 Not Found - GET https://registry.npmjs.org/meeplekit" >&2
exit 1
"""


class DefaultCommandTest(unittest.TestCase):
    """Without a command or MEEPLEKIT_SERVE the client runs npx --no-install meeplekit serve; when
    that cannot start a server, the error says how to point the client at one."""

    def environment(self, npx=None, serve=None):
        """PATH of a fresh directory (holding ``npx`` when given) and MEEPLEKIT_SERVE as ``serve``."""
        temporary = tempfile.TemporaryDirectory()
        self.addCleanup(temporary.cleanup)
        directory = temporary.name
        if npx is not None:
            path = os.path.join(directory, "npx")
            with open(path, "w") as f:
                f.write(npx)
            os.chmod(path, stat.S_IRWXU)
        env = {"PATH": directory}
        patch = mock.patch.dict(os.environ, env)
        patch.start()
        self.addCleanup(patch.stop)
        if serve is None:
            os.environ.pop("MEEPLEKIT_SERVE", None)
        else:
            os.environ["MEEPLEKIT_SERVE"] = serve

    def assertHint(self, message):
        self.assertIn('MEEPLEKIT_SERVE="node /path/to/meeplekit/dist/cli.js serve"', message)
        self.assertIn("Server.connect(", message)
        self.assertIn("--port", message)
        self.assertIn("MEEPLEKIT_CONNECT", message)

    @unittest.skipIf(os.name != "posix", "a shell script as npx")
    def test_npx_that_finds_no_package(self):
        self.environment(npx=FAILING_NPX)
        with self.assertRaises(ServerError) as caught:
            Server()
        error = caught.exception
        self.assertEqual(error.code, "client/server-exited")
        self.assertEqual(error.returncode, 1)
        self.assertIn("E404", error.stderr)
        self.assertIn("npx --no-install meeplekit serve", error.message)
        self.assertHint(error.message)

    def test_no_npx(self):
        self.environment()
        with self.assertRaises(ServerError) as caught:
            Server()
        self.assertEqual(caught.exception.code, "client/spawn")
        self.assertHint(caught.exception.message)

    def test_a_failing_command_from_the_environment(self):
        self.environment(serve=f"{sys.executable} -c 'import sys; sys.exit(4)'")
        with self.assertRaises(ServerError) as caught:
            Server()
        self.assertEqual(caught.exception.code, "client/server-exited")
        self.assertIn("MEEPLEKIT_SERVE=", caught.exception.message)
        self.assertHint(caught.exception.message)


if __name__ == "__main__":
    unittest.main()
