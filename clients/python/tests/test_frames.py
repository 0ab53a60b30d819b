"""Binary frames: arrays as raw bytes after their response line, asked for per connection (the
``hello`` op); a client or server that does not ask keeps base64 in JSON. Frames that are wrong
end the session with ``client/bad-frame``, never with wrong arrays."""

from __future__ import annotations

import json
import random
import unittest

from _support import ScriptedPeer, ServerTestCase, serve_command

from meeplekit_client import HAVE_NUMPY, MeepleError, Server, VectorEnv, load_game
from meeplekit_client.errors import ServerError

CAPABLE_HELLO = b'{"hello":"meeplekit","protocol":1,"version":"0.0.0-scripted","capabilities":["binary-frames"]}\n'


def framed(request, fields, frames, *, cut=None):
    """A response line to ``request`` announcing ``frames`` (bytes each), then their bytes (only
    the first ``cut`` of them when given)."""
    line = json.dumps({"id": request["id"], "ok": True, **fields, "frames": [len(f) for f in frames]}).encode() + b"\n"
    data = b"".join(frames)
    return line + (data if cut is None else data[:cut])


def plain_list(a):
    """Nested lists of the numbers of a decoded array (numpy, array.array, or a list of rows)."""
    if hasattr(a, "tolist"):
        return a.tolist()
    return [plain_list(r) if not isinstance(r, (int, float)) else r for r in a]


class FramesTest(ServerTestCase):
    def test_negotiated_and_the_same_arrays_as_base64(self):
        self.assertIn("binary-frames", self.server.capabilities)
        self.assertTrue(self.server.binary)
        with Server(serve_command(), binary=False) as plain:
            self.assertFalse(plain.binary)
            game = load_game("classic", server=plain)
            rng_a, rng_b = random.Random(1), random.Random(1)
            with VectorEnv(3, self.game, seed="f", observations="compact", masks="packed") as a, VectorEnv(
                3, game, seed="f", observations="compact", masks="packed"
            ) as b:
                x, y = a.reset(), b.reset()
                for _ in range(5):
                    for field in ("current_player", "mask_bits", "obs_bits", "obs_counts", "obs_vector", "rewards", "returns"):
                        self.assertEqual(plain_list(getattr(x, field)), plain_list(getattr(y, field)), field)
                    if HAVE_NUMPY:
                        # Viewed in the frame's own bytearray, not copied: writable, and not the array's own data.
                        self.assertFalse(x.obs_bits.flags.owndata)
                        self.assertTrue(x.obs_bits.flags.writeable)
                        self.assertTrue(x.obs_vector.flags.aligned)
                    x, y = a.step(a.random_actions(x, rng_a)), b.step(b.random_actions(y, rng_b))

    def test_binary_true_with_a_server_without_frames(self):
        peer = ScriptedPeer(lambda request: None)
        try:
            with self.assertRaises(ServerError) as caught:
                Server.connect(peer.port, timeout=10, binary=True)
            self.assertEqual(caught.exception.code, "client/config")
        finally:
            peer.close()

    def assertBadFrame(self, answer_step, words, hello=CAPABLE_HELLO):
        holder = {}

        def answer(request):
            if request["op"] == "hello":
                return {"ok": True, "protocol": 1, "binary": True}
            out = answer_step(request)
            if isinstance(out, tuple):  # bytes, then the connection ends
                holder["peer"].stopped.set()
                return out[0]
            return out

        peer = holder["peer"] = ScriptedPeer(answer, hello=hello)
        try:
            client = Server.connect(peer.port, timeout=10, request_timeout=10)
            with self.assertRaises(ServerError) as caught:
                client.request("vec_step", env_id="v1", actions=[0])
            self.assertEqual(caught.exception.code, "client/bad-frame", str(caught.exception))
            self.assertIn(words, caught.exception.message)
            # The session is over: the next request says why.
            with self.assertRaises(ServerError) as again:
                client.request("info")
            self.assertEqual(again.exception.code, "client/bad-frame")
            client.close()
        finally:
            peer.close()

    def test_bad_frames(self):
        cp = {"dtype": "int32", "shape": [2], "frame": 0}
        eight = b"\x01\x00\x00\x00\x02\x00\x00\x00"
        with self.subTest("cut short"):
            self.assertBadFrame(lambda r: (framed(r, {"current_player": cp}, [eight], cut=5),), "cut short")
        with self.subTest("a shape that needs other bytes"):
            self.assertBadFrame(lambda r: framed(r, {"current_player": {**cp, "shape": [3]}}, [eight]), "do not agree")
        with self.subTest("an unknown dtype"):
            self.assertBadFrame(lambda r: framed(r, {"current_player": {**cp, "dtype": "int64"}}, [eight]), "do not agree")
        with self.subTest("a frame that is not there"):
            self.assertBadFrame(lambda r: framed(r, {"current_player": {**cp, "frame": 1}}, [eight]), "not one of its 1 frames")
        with self.subTest("a frame used twice"):
            self.assertBadFrame(lambda r: framed(r, {"a": cp, "b": cp}, [eight]), "used twice")
        with self.subTest("a frame nothing refers to"):
            self.assertBadFrame(lambda r: framed(r, {"current_player": cp}, [eight, eight]), "no array refers to")
        with self.subTest("frames that are not byte counts"):
            self.assertBadFrame(lambda r: json.dumps({"id": r["id"], "ok": True, "frames": [-1]}).encode() + b"\n", "not a list of byte counts")
        with self.subTest("frames on a connection that did not ask"):
            self.assertBadFrame(
                lambda r: framed(r, {"current_player": cp}, [eight]),
                "did not ask for",
                hello=b'{"hello":"meeplekit","protocol":1,"version":"0.0.0-scripted"}\n',
            )

    def test_a_good_frame_from_a_scripted_peer(self):
        def answer(request):
            if request["op"] == "hello":
                return {"ok": True, "protocol": 1, "binary": True}
            return framed(request, {"nested": {"x": {"dtype": "float32", "shape": [1, 2], "frame": 0}}}, [b"\x00\x00\x80?\x00\x00\x00@"])

        peer = ScriptedPeer(answer, hello=CAPABLE_HELLO)
        try:
            with Server.connect(peer.port, timeout=10, request_timeout=10) as client:
                self.assertTrue(client.binary)
                r = client.request("anything")
                self.assertNotIn("frames", r)
                from meeplekit_client import _arrays

                x = _arrays.decode_binary(r["nested"]["x"], "x", ("float32",), (1, 2))
                self.assertEqual([list(row) for row in x], [[1.0, 2.0]])
        finally:
            peer.close()


if __name__ == "__main__":
    unittest.main()
