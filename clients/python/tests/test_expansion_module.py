"""An expansion of one's own, loaded by the server the client starts: the command (a list, or a
string split as a shell would) with ``--expansion-module FILE`` (docs/python.md, "Expansions of
your own"); ``info`` lists it, ``load_game`` builds it with its options; a file that does not load
stops the server before its hello line, which the client reports with the server's message."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
import unittest

from _support import load_game, serve_command

from meeplekit_client import MeepleError, Server
from meeplekit_client.errors import ServerError

# A module with no imports: a factory taking the options record (docs/cli.md, "Expansions of your own").
MODULE = """export default (options) => ({
  id: 'quiet-bonus',
  order: 90,
  options: options.level === undefined ? {} : { level: options.level },
  validate: () => (options.level === undefined || options.level === 1 || options.level === 2 ? null : `level must be 1 or 2, got ${options.level}`),
});
"""


def with_module(path: str, as_string: bool):
    """The command under test with ``--expansion-module path``, as a list or as one string."""
    command = serve_command()
    if isinstance(command, str):
        return f"{command} --expansion-module {shlex.quote(path)}" if as_string else shlex.split(command) + ["--expansion-module", path]
    return shlex.join([*command, "--expansion-module", path]) if as_string else [*command, "--expansion-module", path]


class ExpansionModuleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="meeplekit-py-module-")
        # A space in the name: the string command must quote it.
        cls.path = os.path.join(cls.dir, "quiet bonus.mjs")
        with open(cls.path, "w", encoding="utf-8") as f:
            f.write(MODULE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_command_as_list_and_as_string(self):
        for as_string in (False, True):
            with self.subTest(as_string=as_string):
                with Server(with_module(self.path, as_string)) as server:
                    self.assertEqual(server.info()["expansions"][-1], "quiet-bonus")
                    game = load_game("classic", ["quiet-bonus", "river"], 3, {"quiet-bonus": {"level": 2}}, server=server)
                    self.assertRegex(game.info["ruleset"], r'^classic\+river\{"set":"I"\}\+quiet-bonus\{"level":2\}#')
                    state = game.new_initial_state(seed="module")
                    self.assertFalse(state.is_terminal())
                    with self.assertRaises(MeepleError) as bad:
                        load_game("classic", ["quiet-bonus"], 2, {"quiet-bonus": {"level": 5}}, server=server)
                    self.assertEqual(bad.exception.code, "options/expansion-options")
                    self.assertIn("quiet-bonus: level must be 1 or 2, got 5", str(bad.exception))

    def test_without_the_flag_the_id_is_unknown(self):
        with Server(serve_command()) as server:
            self.assertNotIn("quiet-bonus", server.info()["expansions"])
            with self.assertRaises(MeepleError) as unknown:
                load_game("classic", ["quiet-bonus"], server=server)
            self.assertEqual(unknown.exception.code, "options/unknown-expansion")

    def test_a_module_that_does_not_load(self):
        missing = os.path.join(self.dir, "missing.mjs")
        with self.assertRaises(ServerError) as failed:
            Server(with_module(missing, False), startup_timeout=60)
        self.assertEqual(failed.exception.code, "client/server-exited")
        self.assertEqual(failed.exception.returncode, 2)
        self.assertIn("expansion-module/not-found", failed.exception.stderr or "")


if __name__ == "__main__":
    unittest.main()
