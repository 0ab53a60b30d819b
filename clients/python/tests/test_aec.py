"""The PettingZoo-AEC-like environment."""

from __future__ import annotations

import unittest

from _support import ServerTestCase

from meeplekit_client import AECEnv


class AECTest(ServerTestCase):
    players = 3

    def run_loop(self, env, seed):
        env.reset(seed=seed)
        self.assertEqual(env.agents, ["player_0", "player_1", "player_2"])
        totals = {a: 0.0 for a in env.possible_agents}
        actions = []
        steps = 0
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last(observe=steps % 40 == 0)
            totals[agent] += reward
            if termination or truncation:
                self.assertIn("final", info)
                action = None
            else:
                mask = env.action_mask(agent)
                if observation is not None:
                    self.assertEqual(len(observation["observation"]), self.game.observation_tensor_size())
                    self.assertEqual(list(observation["action_mask"]), list(mask))
                legal = info["legal_actions"]
                self.assertEqual([i for i, m in enumerate(mask) if m], legal)
                other = env.possible_agents[(env.agent_name_mapping[agent] + 1) % 3]
                self.assertEqual(sum(env.action_mask(other)), 0)
                action = env.action_space(agent).sample(mask)
                self.assertIn(action, legal)
                actions.append(action)
            env.step(action)
            steps += 1
        self.assertEqual(env.agents, [])
        return totals, actions

    def test_loop(self):
        env = AECEnv(self.game)
        totals, actions = self.run_loop(env, seed=3)
        scores = env.game_state.returns()
        self.assertEqual([totals[a] for a in env.possible_agents], scores)  # every reward reached its agent
        self.assertGreater(len(actions), 71)
        # the same seed plays the same game
        totals2, actions2 = self.run_loop(env, seed=3)
        self.assertEqual(actions2, actions)
        self.assertEqual(totals2, totals)
        env.close()

    def test_rank_rewards(self):
        env = AECEnv(self.game, reward="rank")
        totals, _ = self.run_loop(env, seed="rank")
        self.assertAlmostEqual(sum(totals.values()), 0.0, places=6)
        self.assertEqual([totals[a] for a in env.possible_agents], env.game_state.returns("rank"))
        self.assertIsInstance(env.render(), str)
        env.close()


if __name__ == "__main__":
    unittest.main()
