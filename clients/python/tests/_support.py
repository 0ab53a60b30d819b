"""Shared by the tests: the client on sys.path, and the server to test against.

The server is ``MEEPLEKIT_SERVE`` when set, else ``node <repo>/dist/cli.js serve`` (run
``npm run build`` at the repository's root first). Nothing is skipped: without a server the tests
fail and say why. ``MEEPLEKIT_NO_NUMPY=1`` tests the pure-Python path where numpy is installed.
"""

from __future__ import annotations

import os
import shutil
import sys
import unittest
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parents[1]
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))

from meeplekit_client import Server, load_game  # noqa: E402


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


def start_server() -> Server:
    return Server(serve_command())


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
