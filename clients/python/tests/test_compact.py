"""Compact observations and packed masks: they decode to the float32 observations and the dense
masks of the same games."""

from __future__ import annotations

import random
import unittest

from _support import ServerTestCase

from meeplekit_client import HAVE_NUMPY, MeepleError, VectorEnv


def rows(x):
    return [[float(v) for v in r] for r in x]


class CompactTest(ServerTestCase):
    def test_compact_decodes_to_float32_and_packed_to_dense(self):
        n = 3
        with VectorEnv(n, self.game, seed="c", observations="compact", masks="packed") as compact, VectorEnv(
            n, self.game, seed="c", observations=True, masks="dense"
        ) as full:
            self.assertEqual(compact.observations, "compact")
            self.assertEqual(full.observations, "float32")
            a, b = compact.reset(), full.reset()
            self.assertIsNone(a.observations)
            self.assertIsNone(a.mask)
            rng = random.Random(3)
            for _ in range(12):
                decoded = compact.decode_observations(a)
                if HAVE_NUMPY:
                    self.assertEqual(decoded.dtype.name, "float32")
                    self.assertEqual(decoded.shape, b.observations.shape)
                    self.assertTrue((decoded == b.observations).all())
                    self.assertTrue((compact.unpack_masks(a) == b.mask).all())
                else:
                    self.assertEqual(rows(decoded), rows(b.observations))
                    self.assertEqual([list(r) for r in compact.unpack_masks(a)], [list(r) for r in b.mask])
                self.assertIs(full.decode_observations(b), b.observations)
                actions = compact.random_actions(a, rng)
                for i in range(n):
                    self.assertEqual(b.mask[i][int(actions[i])], 1)
                a, b = compact.step(actions), full.step(actions)

    def test_random_actions_from_packed_masks_are_those_of_the_legal_lists(self):
        # The packed path finds each row's set bits (with vectorised numpy, or bit by bit without
        # it); it must list them in the same order as the legal lists, so that the same generator
        # picks the same actions.
        if HAVE_NUMPY:
            import numpy as np

            generator = np.random.default_rng
        else:
            generator = random.Random

        n = 16
        with VectorEnv(n, self.game, seed="r", masks="packed") as packed, VectorEnv(n, self.game, seed="r", masks="list") as listed:
            a, b = packed.reset(), listed.reset()
            for step in range(40):
                x = packed.random_actions(a, generator(step))
                y = listed.random_actions(b, generator(step))
                self.assertEqual([int(v) for v in x], [int(v) for v in y])
                for i in range(n):
                    self.assertIn(int(x[i]), list(b.legal_actions[i]))
                a, b = packed.step(x), listed.step(y)

    def test_entity_observations(self):
        spec = self.game.observation_spec
        placed = spec["features"].index("tiles placed")
        rows = spec["entity"]["max_rows"]
        with VectorEnv(2, self.game, seed="e", observations="entity") as env:
            batch = env.reset()
            rng = random.Random(4)
            for _ in range(6):
                self.assertEqual(len(batch.ent_mask), 2)
                for i in range(2):
                    self.assertEqual(sum(batch.ent_mask[i]), int(batch.ent_vector[i][placed]))
                if HAVE_NUMPY:
                    self.assertEqual(batch.ent_rows.shape, (2, rows, len(spec["entity"]["columns"])))
                batch = env.step(env.random_actions(batch, rng))

    def test_choices_checked(self):
        with self.assertRaises(MeepleError) as unknown:
            VectorEnv(2, self.game, observations="planes")
        self.assertEqual(unknown.exception.code, "client/unknown-observations")
        self.assertIsInstance(unknown.exception, ValueError)
        with self.assertRaises(ValueError):
            VectorEnv(2, self.game, masks="bits")
        # The server refuses an unknown kind with its own code.
        with self.assertRaises(MeepleError) as e:
            self.server.request("vec_make", game_id=self.game.id, num_envs=2, seed=1, observations="planes")
        self.assertEqual(e.exception.code, "protocol/request")


if __name__ == "__main__":
    unittest.main()
