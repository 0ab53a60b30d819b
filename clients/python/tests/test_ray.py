"""meeplekit_client.ray on a local Ray (``ray.init(num_cpus=2)``): the same records whatever the
number of actors, a killed actor's (or killed server's) games replayed to the same bytes, bounded
retries, coded errors, bot play at level 1, rollouts. Needs ray (the extra ``[ray]``): skipped
without it, a failure with ``MEEPLEKIT_REQUIRE_EXTRAS=1``. The guard test (the module without ray
says which extra to install) needs nothing."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import unittest

from _extras_support import needs
from _support import CLIENT, serve_command, start_server

from meeplekit_client import MeepleError, ServerError, VectorEnv, load_game

SEED = "ray-test"
GAMES = 6
ACTOR = {"num_cpus": 0.25}  # the 2 CPUs of the test cluster hold the class's pool and the others at once

GUARD = """
import sys
sys.modules["ray"] = None  # import raises ImportError
import meeplekit_client
try:
    from meeplekit_client import ray
except ImportError as e:
    assert "pip install 'meeplekit-client[ray]'" in str(e), str(e)
else:
    raise AssertionError("meeplekit_client.ray imported without ray")
print("ok")
"""


class RayGuardTest(unittest.TestCase):
    def test_the_module_without_ray_names_the_extra(self):
        out = subprocess.run([sys.executable, "-c", GUARD], cwd=str(CLIENT), capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "ok")


def dumps(records):
    """Records (or rollouts) as the bytes compared between runs."""
    return json.dumps([r.to_dict() for r in records], sort_keys=True).encode()


def checksum(records):
    """The first 16 hex digits of the SHA-256 of :func:`dumps` (as examples/ray_selfplay.py prints)."""
    return hashlib.sha256(dumps(records)).hexdigest()[:16]


@needs("ray", "ray")
class RayPoolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import ray

        from meeplekit_client import ray as mkray

        cls.ray, cls.mkray = ray, mkray
        if not ray.is_initialized():
            path = os.pathsep.join(p for p in (str(CLIENT), os.environ.get("PYTHONPATH", "")) if p)
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": path}},  # the actors import the client from this checkout
            )
        cls.serve = serve_command()
        cls.pool = mkray.ServerPool(2, serve=cls.serve, actor_options=ACTOR)
        cls.reference = cls.pool.play_games(GAMES, SEED, games_per_task=2)

    @classmethod
    def tearDownClass(cls):
        cls.pool.close()
        cls.ray.shutdown()

    def kill_once(self, how):
        """A ``progress`` callback that, at the first task's end, kills a running actor (or its
        server): the one that was just given the next task, in the middle of it."""
        fired = []

        def progress(done, total):
            if fired:
                return
            running = self.pool.running()  # in the order given: the last one has just started
            if running:
                actor, games = running[-1]
                fired.append(games)
                how(actor)

        return progress, fired

    # -- determinism ----------------------------------------------------------------------------

    def test_the_same_records_whatever_the_number_of_actors(self):
        expected = dumps(self.reference)
        self.assertEqual([r.index for r in self.reference], list(range(GAMES)))
        one = self.mkray.play_games(GAMES, SEED, actors=1, serve=self.serve, actor_options=ACTOR, games_per_task=4)
        self.assertEqual(dumps(one), expected)
        with self.mkray.ServerPool(4, serve=self.serve, actor_options=ACTOR) as four:
            self.assertEqual(len({s["pid"] for s in four.servers}), 4)
            self.assertEqual(dumps(four.play_games(GAMES, SEED, games_per_task=1)), expected)
            self.assertEqual(dumps(four.play_games(GAMES, SEED, games_per_task=3)), expected)
        self.assertEqual(dumps(self.pool.play_games(GAMES, SEED, games_per_task=5)), expected)
        # A test that could fail: another seed gives other games.
        self.assertNotEqual(dumps(self.pool.play_games(GAMES, "another", games_per_task=2)), expected)
        for record in self.reference:
            self.assertEqual(record.seed, f"{SEED}/{record.index}")
            self.assertEqual(len(record.actions), len(record.players))
            self.assertEqual(len(record.returns), 2)
            self.assertEqual(record.bot_moves, 0)

    def test_the_same_records_as_before_vec_seeds(self):
        # Before vec_make took seeds, each game was a vector environment of its own; now a task's
        # games share one, each with its own seed. The checksums were taken of that implementation
        # (commit 3603376) on the same seeds.
        self.assertEqual(checksum(self.reference), "2f924bf009c5c3d3")
        three = self.pool.play_games(5, "three", players=3, expansions=["river"], games_per_task=5)
        self.assertEqual(checksum(three), "02684b945ecc7580")

    def test_a_task_of_more_games_than_one_vector_environment_holds(self):
        spec, _, _ = self.mkray._games_job(GAMES, SEED, "random", "classic", (), 2, None, None, None, None, GAMES, 0)
        limit = self.mkray._ENVS_PER_VECTOR
        with start_server() as server:
            try:
                self.mkray._ENVS_PER_VECTOR = 4  # in this process only: 6 games as 4, then 2
                records = self.mkray._play(server, spec, list(range(GAMES)))
            finally:
                self.mkray._ENVS_PER_VECTOR = limit
            self.assertEqual(server.request("stats")["handles"], 1)  # its game handle; the vector environments deleted
        self.assertEqual(json.dumps(records, sort_keys=True), json.dumps([r.to_dict() for r in self.reference], sort_keys=True))

    def test_a_record_replays_in_process(self):
        record = self.reference[3]
        with start_server() as server:
            game = load_game("classic", players=2, server=server)
            with VectorEnv(1, game, seed=self.mkray.game_seed(SEED, 3), auto_reset=False) as env:
                batch = env.reset()
                for action, player in zip(record.actions, record.players):
                    self.assertEqual(int(batch.current_player[0]), player)
                    self.assertIn(action, [int(a) for a in batch.legal_actions[0]])
                    self.assertFalse(batch.done[0])
                    batch = env.step([action])
                self.assertTrue(batch.done[0])
                self.assertEqual([float(x) for x in batch.returns[0]], record.returns)

    # -- faults ---------------------------------------------------------------------------------

    def test_a_killed_actor_s_games_are_replayed(self):
        replayed = self.pool.stats["replayed"]
        progress, fired = self.kill_once(lambda actor: self.ray.kill(actor))
        records = self.pool.play_games(GAMES, SEED, games_per_task=2, progress=progress)
        self.assertEqual(len(fired), 1)
        self.assertGreater(self.pool.stats["replayed"], replayed)
        self.assertEqual(dumps(records), dumps(self.reference))

    def test_a_killed_server_s_games_are_replayed(self):
        pids = {id(a): self.ray.get(a.hello.remote())["server_pid"] for a in self.pool.actors}
        replayed = self.pool.stats["replayed"]
        progress, fired = self.kill_once(lambda actor: os.kill(pids[id(actor)], signal.SIGKILL))
        records = self.pool.play_games(GAMES, SEED, games_per_task=2, progress=progress)
        self.assertEqual(len(fired), 1)
        self.assertGreater(self.pool.stats["replayed"], replayed)
        self.assertEqual(dumps(records), dumps(self.reference))

    def test_retries_are_bounded(self):
        progress, fired = self.kill_once(lambda actor: self.ray.kill(actor))
        with self.assertRaises(self.mkray.RayError) as caught:
            self.pool.play_games(GAMES, SEED, games_per_task=2, max_retries=0, progress=progress)
        self.assertEqual(caught.exception.code, "ray/actor-died")
        self.assertEqual(caught.exception.details["games"], fired[0])
        self.assertIn("max_retries=0", caught.exception.message)
        # The pool goes on, its dead and busy actors replaced.
        self.assertEqual(dumps(self.pool.play_games(GAMES, SEED, games_per_task=3)), dumps(self.reference))

    # -- errors ---------------------------------------------------------------------------------

    def test_bad_arguments_raise_coded_errors_before_any_work(self):
        mk = self.mkray
        cases = [
            (lambda: mk.ServerPool(0), "ray/bad-argument"),
            (lambda: mk.play_games(-1, SEED), "ray/bad-argument"),
            (lambda: mk.play_games(2, SEED, mode="greedy"), "ray/unknown-mode"),
            (lambda: mk.play_games(2, SEED, games_per_task=0), "ray/bad-argument"),
            (lambda: mk.play_games(2, SEED, max_retries=-1), "ray/bad-argument"),
            (lambda: mk.play_games(2, SEED, mode="bot", bot_seats=[2]), "ray/bad-argument"),
            (lambda: mk.play_games(2, SEED, level=1), "ray/bad-argument"),
            (lambda: mk.rollouts(-1, SEED), "ray/bad-argument"),
            (lambda: mk.rollouts(1, SEED, num_envs=0), "ray/bad-argument"),
            (lambda: mk.rollouts(1, SEED, steps=0), "ray/bad-argument"),
            (lambda: mk.rollouts(1, SEED, observations="rgb"), "ray/bad-argument"),
            (lambda: mk.rollouts(1, SEED, masks="none"), "ray/bad-argument"),
            (lambda: self.pool.play_games(-3, SEED), "ray/bad-argument"),
            (lambda: self.pool.rollouts(1, SEED, rollouts_per_task=0), "ray/bad-argument"),
        ]
        started = self.pool.stats["actors_started"]
        for call, code in cases:
            with self.assertRaises(mk.RayArgumentError) as caught:
                call()
            self.assertEqual(caught.exception.code, code)
            self.assertIsInstance(caught.exception, ValueError)
            self.assertIsInstance(caught.exception, MeepleError)
        for call in (lambda: mk.play_games(2.0, SEED), lambda: mk.ServerPool(True), lambda: mk.play_games(2, 1.5)):
            with self.assertRaises(TypeError):
                call()
        self.assertEqual(self.pool.stats["actors_started"], started)

    def test_the_server_s_errors_come_with_its_codes(self):
        with self.assertRaises(MeepleError) as caught:
            self.pool.play_games(2, SEED, game="chess")
        self.assertEqual(caught.exception.code, "options/unknown-game")
        self.assertIn("Ray actor", caught.exception.message)
        with self.assertRaises(MeepleError) as caught:
            self.pool.play_games(1, SEED, mode="bot", level=9)
        self.assertEqual(caught.exception.code, "bots/unknown-level")
        with self.assertRaises(ServerError) as caught:
            self.mkray.ServerPool(1, serve=["/nonexistent/meeplekit"], actor_options=ACTOR)
        self.assertEqual(caught.exception.code, "client/spawn")
        self.assertEqual(dumps(self.pool.play_games(2, SEED)), dumps(self.reference[:2]))

    # -- bots and rollouts ----------------------------------------------------------------------

    def test_bot_play_at_level_1(self):
        apart = self.pool.play_games(2, "bots", mode="bot", level=1, bot_seats=[0], games_per_task=1)
        together = self.pool.play_games(2, "bots", mode="bot", level=1, bot_seats=[0], games_per_task=2)
        self.assertEqual(dumps(apart), dumps(together))
        # Level 1's moves for a seed as since commit 30f8c77 (its rollouts became the simulator's
        # `rollout`: the same play, other draws); "4c881a6eed9c81b5" before it, when vec_make
        # took seeds (commit 3603376). Bisected: 30f8c77's parent gives the old value.
        self.assertEqual(checksum(apart), "64868a1277b5a94e")
        random_play = self.pool.play_games(2, "bots")
        for record, other in zip(apart, random_play):
            self.assertEqual(record.bot_moves, record.players.count(0))
            self.assertGreater(record.bot_moves, 10)
            self.assertEqual(record.cut_short, 0)
            self.assertNotEqual(record.actions, other.actions)

    def test_rollouts(self):
        kwargs = dict(num_envs=4, steps=12, observations="compact", masks="packed")
        two = self.pool.rollouts(3, SEED, **kwargs)
        one = self.mkray.rollouts(3, SEED, actors=1, serve=self.serve, actor_options=ACTOR, rollouts_per_task=2, **kwargs)
        self.assertEqual(dumps(two), dumps(one))
        self.assertEqual([r.index for r in two], [0, 1, 2])
        r = two[0]
        dtype, shape, data = r.raw["actions"]
        self.assertEqual((dtype, shape), ("int32", (12, 4)))
        self.assertEqual(r.raw["rewards"][:2], ("float32", (12, 4, 2)))
        self.assertEqual(r.raw["mask_bits"][1][:2], (12, 4))
        for name in ("current_player", "done", "returns", "obs_bits", "obs_counts", "obs_vector"):
            self.assertEqual(r.raw[name][1][:2], (12, 4), name)
        actions = r.arrays["actions"]
        bits = r.arrays["mask_bits"]
        for t in range(12):
            for e in range(4):
                a = int(actions[t][e])
                self.assertTrue(int(bits[t][e][a >> 3]) >> (a & 7) & 1, (t, e, a))
        # A policy of one's own runs on the actors: the first legal action.
        first = self.pool.rollouts(1, SEED, num_envs=2, steps=5, policy=lambda batch, rng, env: [int(l[0]) for l in batch.legal_actions])
        self.assertEqual(first[0].raw["actions"][1], (5, 2))


if __name__ == "__main__":
    unittest.main()
