"""Shared memory: the vector batches' arrays written by the server into a segment this client
created (``Server(shm=True)``, ``VectorEnv(shm=True)``), read as views of it. The same arrays as
binary frames at every step; a segment removed mid-game, shrunk, or overwritten before it was read
gives a coded error, never wrong arrays; a server that misplaces an array ends the session."""

from __future__ import annotations

import os
import random
import struct
import unittest

from _support import ScriptedPeer, serve_command

from meeplekit_client import HAVE_NUMPY, MeepleError, Server, VectorEnv, load_game
from meeplekit_client import _shm
from meeplekit_client.errors import ServerError

SHM_HELLO = b'{"hello":"meeplekit","protocol":1,"version":"0.0.0-scripted","capabilities":["shm"]}\n'


def plain_list(a):
    """Nested lists of the numbers of a decoded array (numpy, array.array, or a list of rows)."""
    if hasattr(a, "tolist"):
        return a.tolist()
    return [plain_list(r) if not isinstance(r, (int, float)) else r for r in a]


FIELDS = ("current_player", "legal_flat", "legal_offsets", "mask", "mask_bits", "rewards", "done", "returns",
          "observations", "obs_bits", "obs_counts", "obs_vector", "ent_rows", "ent_mask", "ent_vector")


@unittest.skipUnless(_shm.available(), "shared memory needs Linux's /dev/shm")
class ShmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.shm = Server(serve_command(), shm=True)
        cls.framed = Server(serve_command(), binary=True)

    @classmethod
    def tearDownClass(cls):
        cls.shm.close()
        cls.framed.close()

    def assertSameBatch(self, x, y, what):
        for field in FIELDS:
            a, b = getattr(x, field), getattr(y, field)
            if a is None or b is None:
                self.assertIs(a, b, f"{what}: {field}")
            else:
                self.assertEqual(plain_list(a), plain_list(b), f"{what}: {field}")

    def test_negotiated(self):
        self.assertIn("shm", self.shm.capabilities)
        self.assertTrue(self.shm.shm)
        self.assertTrue(self.shm.binary)
        self.assertFalse(self.framed.shm)
        self.assertTrue(os.path.exists(os.path.join("/dev/shm", self.shm._shm.name)))

    def test_the_same_arrays_as_frames_at_every_step_of_whole_games(self):
        configs = [
            dict(players=2, observations="compact", masks="packed"),
            dict(players=3, observations="float32", masks="dense"),
            dict(players=2, observations="entity", masks="list"),
        ]
        for config in configs:
            with self.subTest(**config):
                players = config.pop("players")
                a_game = load_game("classic", players=players, server=self.shm)
                b_game = load_game("classic", players=players, server=self.framed)
                rng_a, rng_b = random.Random(7), random.Random(7)
                with VectorEnv(3, a_game, seed="shm", auto_reset=False, **config) as a, VectorEnv(3, b_game, seed="shm", auto_reset=False, **config) as b:
                    x, y = a.reset(seed="shm"), b.reset(seed="shm")
                    steps = 0
                    while not all(x.done):
                        self.assertSameBatch(x, y, f"step {steps}")
                        if HAVE_NUMPY:
                            # A view of the segment: not the array's own data, read-only.
                            arr = x.obs_bits if x.obs_bits is not None else x.current_player
                            self.assertFalse(arr.flags.owndata)
                            self.assertFalse(arr.flags.writeable)
                            self.assertTrue(arr.flags.aligned)
                        previous = x
                        kept = plain_list(previous.current_player)
                        x, y = a.step(a.random_actions(x, rng_a)), b.step(b.random_actions(y, rng_b))
                        # The previous batch is still intact while the next is read (two slots).
                        self.assertEqual(plain_list(previous.current_player), kept)
                        steps += 1
                    self.assertSameBatch(x, y, "the end")
                    self.assertGreater(steps, 20)

    def test_vector_env_with_a_server_of_its_own(self):
        with VectorEnv(2, "classic", seed="own", shm=True, observations="compact", masks="packed") as env:
            self.assertTrue(env.server.shm)
            name = env.server._shm.name
            batch = env.step(env.random_actions(env.reset(), random.Random(1)))
            self.assertEqual(len(batch), 2)
            self.assertTrue(os.path.exists(os.path.join("/dev/shm", name)))
        # Closing the env closes its server, which removes the segment; the views stay readable.
        self.assertFalse(env.server.alive)
        self.assertFalse(os.path.exists(os.path.join("/dev/shm", name)))
        self.assertEqual(len(plain_list(batch.current_player)), 2)
        with self.assertRaises(ServerError) as caught:
            VectorEnv(2, load_game("classic", server=self.framed), shm=True)
        self.assertEqual(caught.exception.code, "client/config")

    def test_bad_arguments(self):
        for slots in (1, 17, 2.0, "2"):
            with self.assertRaises(ValueError):
                Server(serve_command(), shm=True, shm_slots=slots)
        with self.assertRaises(ValueError):
            Server(serve_command(), shm=True, shm_slot_bytes=100)
        with self.assertRaises(TypeError):
            Server(serve_command(), shm="yes")

    def test_too_many_vector_requests_in_flight_are_not_sent(self):
        with Server(serve_command(), shm=True, shm_slots=2) as server:
            game = load_game("classic", server=server)
            envs = [VectorEnv(2, game, seed=f"f{i}", masks="packed") for i in range(3)]
            batches = [env.reset() for env in envs]
            envs[0].step_async(envs[0].random_actions(batches[0], random.Random(0)))
            envs[1].step_async(envs[1].random_actions(batches[1], random.Random(1)))
            with self.assertRaises(ValueError):
                envs[2].step_async(envs[2].random_actions(batches[2], random.Random(2)))
            envs[2]._inflight = None
            for env in envs[:2]:
                env.step_wait()
            # Nothing of the refused step was sent: the session goes on in step.
            self.assertEqual(len(envs[2].step(envs[2].random_actions(batches[2], random.Random(2)))), 2)
            for env in envs:
                env.close()

    def test_a_segment_removed_mid_game(self):
        with Server(serve_command(), shm=True) as server, VectorEnv(2, load_game("classic", server=server), seed="gone", masks="packed") as env, VectorEnv(
            2, load_game("classic", server=self.framed), seed="gone", masks="packed"
        ) as ref:
            x, y = env.reset(), ref.reset()
            rng = random.Random(3)
            actions = env.random_actions(x, rng)
            x, y = env.step(actions), ref.step(actions)
            os.unlink(os.path.join("/dev/shm", server._shm.name))
            actions = env.random_actions(x, rng)
            with self.assertRaises(MeepleError) as caught:
                env.step(actions)
            self.assertEqual(caught.exception.code, "shm/gone")
            # The server did nothing and no longer uses the segment: the same step again, inline.
            self.assertFalse(server.shm)
            x, y = env.step(actions), ref.step(actions)
            self.assertSameBatch(x, y, "after the segment was removed")
            if HAVE_NUMPY:
                self.assertTrue(x.current_player.flags.writeable)  # a frame's own bytes now, not the segment

    def test_a_segment_that_shrank(self):
        with Server(serve_command(), shm=True) as server, VectorEnv(2, load_game("classic", server=server), seed="shrink") as env:
            env.reset()
            os.truncate(os.path.join("/dev/shm", server._shm.name), 4096)
            with self.assertRaises(MeepleError) as caught:
                env.step(env.random_actions(env.last, random.Random(0)))
            self.assertEqual(caught.exception.code, "shm/gone")
            self.assertFalse(server.shm)


@unittest.skipUnless(_shm.available(), "shared memory needs Linux's /dev/shm")
class ScriptedShmTest(unittest.TestCase):
    """A scripted server: what the client does with responses a real server would not send."""

    def run_peer(self, answer_step):
        """A peer that takes the segment, then answers every other request with
        ``answer_step(request, path)`` (the segment's file path)."""
        state = {}

        def answer(request):
            if request["op"] == "hello":
                spec = request.get("shm")
                if spec is None:
                    return {"ok": True, "protocol": 1, "binary": False, "shm": None}
                path = os.path.join("/dev/shm", spec["name"])
                state["path"] = path
                size = os.stat(path).st_size
                slots = spec["slots"]
                return {"ok": True, "protocol": 1, "binary": False, "shm": {"name": spec["name"], "bytes": size, "slots": slots, "slot_bytes": (size - 64) // slots // 64 * 64, "slot_offset": 64}}
            return answer_step(request, state["path"])

        peer = ScriptedPeer(answer, hello=SHM_HELLO)
        self.addCleanup(peer.close)
        return Server.connect(peer.port, timeout=10, request_timeout=10, binary=False, shm=True, shm_slot_bytes=4096)

    @staticmethod
    def write(path, seq, payload, at=128, slot_bytes=4096):
        """Writes a response's slot as a server would: its header, and ``payload`` at ``at`` in it."""
        with open(path, "r+b") as f:
            base = 64 + (seq % 2) * slot_bytes
            f.seek(base)
            f.write(struct.pack("<Q", seq))
            f.seek(base + at)
            f.write(payload)
        return base + at

    def test_a_good_response(self):
        def step(request, path):
            at = self.write(path, 1, struct.pack("<3f", 1.0, 2.0, 3.0))
            return {"ok": True, "x": {"nested": {"dtype": "float32", "shape": [3], "shm": at}}, "shm_seq": 1}

        with self.run_peer(step) as client:
            r = client.request("vec_step")
            self.assertNotIn("shm_seq", r)
            from meeplekit_client import _arrays

            self.assertEqual(list(_arrays.decode_binary(r["x"]["nested"], "x", ("float32",), (3,))), [1.0, 2.0, 3.0])

    def test_a_slot_written_again_before_it_was_read(self):
        def step(request, path):
            at = self.write(path, 3, b"\x00" * 4)  # slot 1 now holds response 3
            return {"ok": True, "x": {"dtype": "int32", "shape": [1], "shm": at}, "shm_seq": 1}

        with self.run_peer(step) as client:
            with self.assertRaises(MeepleError) as caught:
                client.request("vec_step")
            self.assertEqual(caught.exception.code, "client/shm-overwritten")
            self.assertTrue(client.alive)

    def test_a_segment_that_shrank_under_the_client(self):
        def step(request, path):
            at = self.write(path, 1, b"\x00" * 4)
            os.truncate(path, 64)
            return {"ok": True, "x": {"dtype": "int32", "shape": [1], "shm": at}, "shm_seq": 1}

        with self.run_peer(step) as client:
            with self.assertRaises(MeepleError) as caught:
                client.request("vec_step")
            self.assertEqual(caught.exception.code, "client/shm-gone")
            self.assertFalse(client.shm)
            self.assertTrue(client.alive)

    def test_a_server_that_could_not_write_the_segment(self):
        def step(request, path):
            x = {"dtype": "uint8", "shape": [2], "b64": "AQI="}
            return {"ok": True, "x": x, "shm_error": {"code": "shm/write", "message": "no space left"}}

        with self.run_peer(step) as client:
            self.assertTrue(client.shm)
            with self.assertWarns(RuntimeWarning):
                r = client.request("vec_step")
            from meeplekit_client import _arrays

            self.assertEqual(list(_arrays.decode_binary(r["x"], "x")), [1, 2])
            self.assertFalse(client.shm)
            self.assertTrue(client.alive)

    def test_misplaced_arrays_end_the_session(self):
        cases = {
            "outside its slot": lambda at: at + 4096,
            "not aligned": lambda at: at + 4,
            "in the slot's header": lambda at: at - 128,
        }
        for what, move in cases.items():
            with self.subTest(what):
                def step(request, path, move=move):
                    at = self.write(path, 1, b"\x00" * 8)
                    return {"ok": True, "x": {"dtype": "int32", "shape": [2], "shm": move(at)}, "shm_seq": 1}

                with self.run_peer(step) as client:
                    with self.assertRaises(ServerError) as caught:
                        client.request("vec_step")
                    self.assertEqual(caught.exception.code, "client/bad-shm")
                    self.assertFalse(client.alive)

    def test_shared_memory_on_a_connection_without_it(self):
        def answer(request):
            return {"ok": True, "x": {"dtype": "int32", "shape": [1], "shm": 128}, "shm_seq": 1}

        peer = ScriptedPeer(answer, hello=SHM_HELLO)
        self.addCleanup(peer.close)
        with Server.connect(peer.port, timeout=10, request_timeout=10, binary=False) as client:
            with self.assertRaises(ServerError) as caught:
                client.request("vec_step")
            self.assertEqual(caught.exception.code, "client/bad-shm")

    def test_a_machine_without_dev_shm(self):
        # As on macOS or Windows: a clear code, nothing created, and frames still work.
        real = _shm.available
        _shm.available = lambda: False
        try:
            with self.assertRaises(ServerError) as caught:
                Server(serve_command(), shm=True)
            self.assertEqual(caught.exception.code, "client/shm-unavailable")
        finally:
            _shm.available = real
        with Server(serve_command()) as server:
            self.assertFalse(server.shm)
            self.assertEqual(len(VectorEnv(2, load_game("classic", server=server), seed="x").reset()), 2)

    def test_a_server_without_the_capability(self):
        peer = ScriptedPeer(lambda request: None)
        self.addCleanup(peer.close)
        with self.assertRaises(ServerError) as caught:
            Server.connect(peer.port, timeout=10, shm=True, binary=False)
        self.assertEqual(caught.exception.code, "client/config")

    def test_a_server_that_refuses_the_segment_leaves_none_behind(self):
        seen = []

        def answer(request):
            if request["op"] == "hello":
                seen.append(request["shm"]["name"])
                return {"ok": False, "error": {"code": "shm/not-found", "message": "another machine"}}
            return None

        peer = ScriptedPeer(answer, hello=SHM_HELLO)
        self.addCleanup(peer.close)
        with self.assertRaises(MeepleError) as caught:
            Server.connect(peer.port, timeout=10, request_timeout=10, shm=True, binary=False)
        self.assertEqual(caught.exception.code, "shm/not-found")
        self.assertEqual(len(seen), 1)
        self.assertFalse(os.path.exists(os.path.join("/dev/shm", seen[0])))


if __name__ == "__main__":
    unittest.main()
