"""meeplekit_client.gymnasium: the single env against gymnasium's env checker, the vector env
against the Gymnasium 1.x vector API (spaces, same-step autoreset, info conventions) and
gymnasium's vector wrappers."""

from __future__ import annotations

import unittest
import warnings

from _extras_support import needs
from _support import ServerTestCase


@needs("gymnasium", "gymnasium", "numpy")
class GymnasiumTest(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import gymnasium
        import numpy

        from meeplekit_client import gymnasium as meeplekit_gym

        cls.gym, cls.np, cls.mod = gymnasium, numpy, meeplekit_gym

    def random_actions(self, obs, rng):
        return self.np.array([rng.choice(self.np.flatnonzero(m)) for m in obs["action_mask"]])

    def test_check_env(self):
        from gymnasium.utils.env_checker import check_env

        env = self.mod.MeeplekitEnv(server=self.server)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the unbounded Box, and no spec for render modes
            check_env(env)
        obs, info = env.reset(seed=3)
        self.assertIn(obs, env.observation_space)
        self.assertEqual(info["player"], 0)
        # an action the mask forbids ends the episode (the game is left as it was)
        illegal = int(self.np.flatnonzero(obs["action_mask"] == 0)[0])
        _, reward, terminated, truncated, info = env.step(illegal)
        self.assertEqual((reward, terminated, truncated, info["illegal_action"]), (-1.0, True, False, True))
        # a whole game: the rewards of each player sum to the final scores
        obs, _ = env.reset(seed=3)
        rng = self.np.random.default_rng(0)
        totals = self.np.zeros(2)
        terminated = False
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(self.random_actions({"action_mask": [obs["action_mask"]]}, rng)[0])
            totals += info["rewards"]
            self.assertEqual(reward, info["rewards"][info["acted"]])
        self.assertEqual(list(totals), list(info["returns"]))
        self.assertEqual(int(obs["action_mask"].sum()), 0)
        env.close()

    def test_vector_api(self):
        np = self.np
        from gymnasium.vector import AutoresetMode, VectorEnv

        env = self.mod.MeeplekitVectorEnv(3, server=self.server, seed="vec")
        self.assertIsInstance(env, VectorEnv)
        self.assertEqual(env.metadata["autoreset_mode"], AutoresetMode.SAME_STEP)
        self.assertEqual(env.action_space, self.gym.spaces.MultiDiscrete([env.single_action_space.n] * 3))
        self.assertEqual(env.observation_space["action_mask"].shape, (3, env.single_action_space.n))
        obs, info = env.reset(seed=11)
        self.assertIn(obs, env.observation_space)
        self.assertEqual(list(info["player"]), [0, 0, 0])
        rng = np.random.default_rng(1)
        totals = np.zeros((3, 2))
        finished = 0
        for _ in range(400):
            if finished >= 3:
                break
            before = info["player"]
            obs, rewards, terminations, truncations, info = env.step(self.random_actions(obs, rng))
            self.assertIn(obs, env.observation_space)
            self.assertEqual(rewards.shape, (3,))
            self.assertFalse(truncations.any())
            self.assertEqual(list(info["acted"]), list(before))
            self.assertTrue(info["_player"].all() and info["_rewards"].all())
            np.testing.assert_array_equal(rewards, info["rewards"][np.arange(3), info["acted"]])
            totals += info["rewards"]
            if terminations.any():
                self.assertEqual(list(info["_final_info"]), list(terminations))
                ended = np.flatnonzero(terminations)
                np.testing.assert_array_equal(info["final_info"]["returns"][ended], totals[ended])
                totals[ended] = 0
                finished += len(ended)
                # same-step autoreset: the observation is a new game's first decision
                self.assertTrue((info["player"][ended] == 0).all())
            else:
                self.assertNotIn("final_info", info)
        self.assertGreaterEqual(finished, 3)
        env.close()

    def test_vector_determinism_and_wrappers(self):
        np = self.np
        from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

        runs = []
        for _ in range(2):
            env = RecordEpisodeStatistics(self.mod.MeeplekitVectorEnv(2, server=self.server))
            obs, _ = env.reset(seed=5)
            rng = np.random.default_rng(2)
            trace, episodes = [], []
            for _ in range(130):
                obs, rewards, terminations, _, info = env.step(self.random_actions(obs, rng))
                trace.append((obs["observation"].sum(), rewards.tolist()))
                if "episode" in info:
                    episodes.append(info["episode"]["l"][info["_episode"]].tolist())
            runs.append((trace, episodes))
            env.close()
        self.assertEqual(runs[0], runs[1])
        self.assertTrue(runs[0][1], "RecordEpisodeStatistics saw no episode end")
        env = DictInfoToList(self.mod.MeeplekitVectorEnv(2, server=self.server, seed=1))
        obs, infos = env.reset()
        self.assertEqual(len(infos), 2)
        self.assertEqual(infos[1]["player"], 0)
        env.close()

    def test_compact_and_float32_transfer_give_the_same_arrays(self):
        np = self.np
        compact = self.mod.MeeplekitVectorEnv(2, server=self.server)
        plain = self.mod.MeeplekitVectorEnv(2, server=self.server, compact=False)
        obs_c, _ = compact.reset(seed=8)
        obs_p, _ = plain.reset(seed=8)
        rng = np.random.default_rng(3)
        for _ in range(6):
            for key in ("observation", "action_mask"):
                np.testing.assert_array_equal(obs_c[key], obs_p[key])
                self.assertEqual(obs_c[key].dtype, obs_p[key].dtype)
            actions = self.random_actions(obs_c, rng)
            obs_c = compact.step(actions)[0]
            obs_p = plain.step(actions)[0]
        compact.close()
        plain.close()

    def test_illegal_action_raises_in_the_vector_env(self):
        from meeplekit_client import MeepleError

        env = self.mod.MeeplekitVectorEnv(2, server=self.server, seed=1)
        obs, _ = env.reset()
        with self.assertRaises(MeepleError) as caught:
            env.step([0, 0])
        self.assertEqual(caught.exception.code, "protocol/illegal-action")
        env.close()


if __name__ == "__main__":
    unittest.main()
