"""meeplekit_client.pettingzoo against PettingZoo's own tests (api_test, seed_test)."""

from __future__ import annotations

import contextlib
import io
import unittest
import warnings

from _extras_support import needs
from _support import ServerTestCase


@needs("pettingzoo", "pettingzoo", "gymnasium", "numpy")
class PettingZooTest(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import pettingzoo

        from meeplekit_client import pettingzoo as meeplekit_pz

        cls.pettingzoo = pettingzoo
        cls.mod = meeplekit_pz

    def quietly(self, fn, *args, **kwargs):
        """Runs one of PettingZoo's tests, its printing and its advice about dict observations
        (which it gives PettingZoo's own classic games too) kept out of the test output."""
        with contextlib.redirect_stdout(io.StringIO()) as out, warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            fn(*args, **kwargs)
        return out.getvalue()

    def test_api_test(self):
        from pettingzoo.test import api_test

        for make in (self.mod.env, self.mod.raw_env):
            env = make(server=self.server, render_mode="ansi")
            self.assertIsInstance(env.unwrapped, self.pettingzoo.AECEnv)
            self.assertIn("Passed API test", self.quietly(api_test, env, num_cycles=1000))
            env.close()

    def test_seed_test(self):
        from pettingzoo.test import seed_test

        self.quietly(seed_test, lambda: self.mod.env(server=self.server), num_cycles=200)
        self.quietly(seed_test, lambda: self.mod.raw_env(server=self.server, players=3), num_cycles=200)

    def test_defaults_spaces_and_turns(self):
        import numpy as np
        from gymnasium import spaces

        env = self.mod.raw_env(server=self.server, render_mode="ansi")
        self.assertEqual(env.possible_agents, ["player_0", "player_1"])  # 2-player classic
        self.assertEqual(env.game.parameters["game"], "classic")
        space = env.observation_space("player_0")
        self.assertIsInstance(space, spaces.Dict)
        self.assertEqual(space["action_mask"].dtype, np.int8)
        self.assertEqual(space["observation"].shape, (env.game.observation_tensor_size(),))
        self.assertEqual(env.action_space("player_1").n, env.game.num_distinct_actions())
        env.reset(seed=7)
        kinds = []
        for agent in env.agent_iter(max_iter=12):
            obs, _, term, trunc, _ = env.last()
            self.assertIn(obs, space)
            action = env.action_space(agent).sample(obs["action_mask"])
            kinds.append((agent, env.game_state.action_to_string(action).split()[0]))
            env.step(action)
        # a turn: the placement, then the deploy decision of the same agent
        self.assertEqual(kinds[0], ("player_0", "place"))
        self.assertEqual(kinds[1][0], "player_0")
        self.assertIn(kinds[1][1], ("deploy", "pass"))
        self.assertEqual(kinds[2], ("player_1", "place"))
        text = env.render()
        self.assertIn("scores:", text)
        env.close()

    def test_illegal_action_terminates_in_the_wrapped_env(self):
        env = self.mod.env(server=self.server)
        env.reset(seed=1)
        obs, *_ = env.last()
        illegal = int(next(i for i, m in enumerate(obs["action_mask"]) if not m))
        from pettingzoo.utils.env_logger import EnvLogger

        EnvLogger.suppress_output()
        try:
            env.step(illegal)
        finally:
            EnvLogger.unsuppress_output()
        _, reward, termination, truncation, _ = env.last()
        self.assertTrue(termination or truncation)
        self.assertEqual(env.rewards["player_0"], -1)
        env.close()


if __name__ == "__main__":
    unittest.main()
