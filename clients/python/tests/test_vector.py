"""The vector environment: batches, steps, auto-reset, reproducibility; and the example
bench_vector.py, briefly, on one and on two servers."""

from __future__ import annotations

import random
import unittest

from _support import ServerTestCase, run_example

from meeplekit_client import HAVE_NUMPY, TERMINAL_PLAYER, MeepleError, VectorEnv


def rows(x):
    return [list(r) for r in x]


class VectorTest(ServerTestCase):
    def test_batch_and_auto_reset(self):
        n = 4
        with VectorEnv(n, self.game, seed="vec", observations=True) as env:
            batch = env.reset()
            self.assertEqual(len(batch), n)
            self.assertEqual(list(batch.current_player), [0] * n)
            self.assertEqual(len(batch.legal_actions), n)
            for legal in batch.legal_actions:
                self.assertGreater(len(legal), 0)
                self.assertEqual(list(legal), sorted(legal))
            self.assertEqual(len(batch.observations), n)
            self.assertEqual(len(batch.observations[0]), self.game.observation_tensor_size())
            if HAVE_NUMPY:
                self.assertEqual(batch.observations.shape, (n, self.game.observation_tensor_size()))
                self.assertEqual(batch.rewards.shape, (n, 2))
            totals = [[0.0, 0.0] for _ in range(n)]
            finished = []
            rng = random.Random(5)
            for _ in range(400):
                batch = env.step(env.random_actions(batch, rng))
                for i in range(n):
                    totals[i] = [t + float(r) for t, r in zip(totals[i], batch.rewards[i])]
                    if batch.done[i]:
                        final = [float(x) for x in batch.returns[i]]
                        self.assertEqual(totals[i], final)  # the rewards sum to the final scores
                        self.assertGreater(sum(final), 0)
                        finished.append(final)
                        totals[i] = [0.0, 0.0]
                        # auto-reset: the env already stands at the new game's first decision
                        self.assertEqual(int(batch.current_player[i]), 0)
                        self.assertGreater(len(batch.legal_actions[i]), 0)
                    else:
                        self.assertEqual([float(x) for x in batch.returns[i]], [0.0, 0.0])
                if len(finished) >= n:
                    break
            self.assertGreaterEqual(len(finished), n)

    def test_reproducible_and_dense(self):
        def run(masks):
            with VectorEnv(3, self.game, seed=11, masks=masks) as env:
                batch = env.reset()
                seen = []
                rng = random.Random(6)
                for _ in range(30):
                    if masks == "list":
                        legal = [list(x) for x in batch.legal_actions]
                    else:
                        legal = [[i for i, m in enumerate(row) if m] for row in batch.mask]
                    seen.append(legal)
                    batch = env.step([rng.choice(x) for x in legal])
                return seen

        a = run("list")
        self.assertEqual(a, run("list"))
        self.assertEqual(a, run("dense"))

    def test_no_auto_reset(self):
        with VectorEnv(2, self.game, seed="end", auto_reset=False, masks="list") as env:
            batch = env.reset()
            rng = random.Random(7)
            done_once = [False, False]
            for _ in range(500):
                batch = env.step(env.random_actions(batch, rng))
                for i in range(2):
                    done_once[i] = done_once[i] or bool(batch.done[i])
                if all(int(p) == TERMINAL_PLAYER for p in batch.current_player):
                    break
            self.assertEqual([int(p) for p in batch.current_player], [TERMINAL_PLAYER] * 2)
            self.assertEqual(done_once, [True, True])
            self.assertEqual([len(x) for x in batch.legal_actions], [0, 0])
            batch = env.step([-1, -1])  # ignored for envs that are over
            self.assertEqual([int(p) for p in batch.current_player], [TERMINAL_PLAYER] * 2)
            batch = env.reset(seed="again")
            self.assertEqual([int(p) for p in batch.current_player], [0, 0])

    def test_two_envs_in_flight(self):
        def actions(batch, rng):
            return [rng.choice(list(x)) for x in batch.legal_actions]

        def sync(seed):
            with VectorEnv(3, self.game, seed=seed) as env:
                batch, rng, out = env.reset(), random.Random(seed), []
                for _ in range(25):
                    batch = env.step(actions(batch, rng))
                    out.append(rows(batch.rewards) + [list(batch.current_player)])
                return out

        a, b = VectorEnv(3, self.game, seed="a"), VectorEnv(3, self.game, seed="b")
        ba, bb = a.reset(), b.reset()
        ra, rb = random.Random("a"), random.Random("b")
        got_a, got_b = [], []
        a.step_async(actions(ba, ra))
        for _ in range(25):
            b.step_async(actions(bb, rb))  # both in flight at once
            ba = a.step_wait()
            got_a.append(rows(ba.rewards) + [list(ba.current_player)])
            if len(got_a) < 25:
                a.step_async(actions(ba, ra))
            bb = b.step_wait()
            got_b.append(rows(bb.rewards) + [list(bb.current_player)])
        a.close()
        b.close()
        self.assertEqual(got_a, sync("a"))
        self.assertEqual(got_b, sync("b"))

    def test_illegal_vector_action(self):
        with VectorEnv(2, self.game, seed="bad") as env:
            batch = env.reset()
            good = env.random_actions(batch, random.Random(8))
            with self.assertRaises(MeepleError) as caught:
                env.step([int(good[0]), 0])  # 0: the north-west corner of the window, never legal at the start
            self.assertEqual(caught.exception.code, "protocol/illegal-action")
            # nothing moved: env 0's placement is still legal (after a move it would be at the deploy step)
            batch2 = env.step(good)
            self.assertEqual(len(batch2), 2)

    def test_seeds_one_per_env(self):
        """Env i of ``seeds`` plays exactly what a VectorEnv of ``seed=seeds[i]`` alone plays, to
        the end of its game without auto-reset and into its next games with it."""
        seeds = ["per/0", "per/1", 5, "per/1"]

        def view(batch, i):
            return (int(batch.current_player[i]), list(batch.legal_actions[i]), [float(x) for x in batch.rewards[i]],
                    bool(batch.done[i]), [float(x) for x in batch.returns[i]])

        for auto_reset, steps in ((False, 1000), (True, 180)):
            together = VectorEnv(len(seeds), self.game, seeds=seeds, auto_reset=auto_reset)
            alone = [VectorEnv(1, self.game, seed=s, auto_reset=auto_reset) for s in seeds]
            batch, singles = together.reset(), [e.reset() for e in alone]
            rng, ended = random.Random("per"), 0
            for _ in range(steps):
                for i in range(len(seeds)):
                    self.assertEqual(view(batch, i), view(singles[i], 0))
                if all(int(p) == TERMINAL_PLAYER for p in batch.current_player):
                    break
                actions = [int(a) for a in together.random_actions(batch, rng)]
                batch = together.step(actions)
                singles = [e.step([a]) for e, a in zip(alone, actions)]
                ended += sum(bool(d) for d in batch.done) if auto_reset else 0
            if auto_reset:
                self.assertGreaterEqual(ended, len(seeds))  # every env went on into another game
            else:
                self.assertEqual([int(p) for p in batch.current_player], [TERMINAL_PLAYER] * len(seeds))
            together.close()
            for e in alone:
                e.close()
        # Another seed, another game.
        with VectorEnv(2, self.game, seeds=["per/0", "other"]) as a, VectorEnv(2, self.game, seeds=["per/0", "per/1"]) as b:
            ba, bb = a.reset(), b.reset()
            self.assertEqual(view(ba, 0), view(bb, 0))
            rng_a, rng_b = random.Random(1), random.Random(1)
            seen_a, seen_b = [], []
            for _ in range(20):
                ba, bb = a.step(a.random_actions(ba, rng_a)), b.step(b.random_actions(bb, rng_b))
                seen_a.append(view(ba, 1))
                seen_b.append(view(bb, 1))
            self.assertNotEqual(seen_a, seen_b)

    def test_bad_seeds(self):
        handles = self.server.request("stats")["handles"]
        for kwargs, error in (
            (dict(seeds=["a", "b"]), ValueError),
            (dict(seeds=["a", "b", "c", "d"]), ValueError),
            (dict(seed="a", seeds=["a", "b", "c"]), ValueError),
            (dict(seeds="abc"), TypeError),
            (dict(seeds=["a", 1.5, "c"]), TypeError),
            (dict(seeds=["a", None, "c"]), TypeError),
        ):
            with self.assertRaises(error, msg=kwargs):
                VectorEnv(3, self.game, **kwargs)
        with self.assertRaises(MeepleError) as caught:
            VectorEnv(3, self.game, seeds=["a", "x" * 257, "c"])
        self.assertEqual(caught.exception.code, "options/seed")
        self.assertIn("seeds[1]", caught.exception.message)
        self.assertEqual(self.server.request("stats")["handles"], handles)


class BenchExampleTest(unittest.TestCase):
    def run_bench(self, *args):
        code, out = run_example("bench_vector", ["--envs", "8", "--seconds", "0.3", *args])
        self.assertEqual(code, 0)
        return out

    def test_one_server(self):
        self.assertRegex(self.run_bench(), r"8 random agents, 1 VectorEnv\(8, classic, masks='list'.*in flight: [\d,]+ actions/s")

    def test_two_servers_two_in_flight_each(self):
        out = self.run_bench("--servers", "2", "--inflight", "2", "--observations", "compact", "--masks", "packed")
        self.assertRegex(out, r"8 random agents, 4 VectorEnv\(2, classic, masks='packed', observations='compact'.*in flight on 2 servers: [\d,]+ actions/s")
        self.assertRegex(out, r"the servers were busy \d+, \d+ % of the time")


if __name__ == "__main__":
    unittest.main()
