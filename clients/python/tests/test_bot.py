"""The server's bots through the client: ``Server.bot``, ``State.bot``, ``VectorEnv.bot`` and
``analyse``: legal, reproducible moves; the server's error codes; the client's argument checks
(nothing sent) and response checks (``client/bad-response``); a close that aborts a search on a
TCP server; and the example ``vs_bot.py`` with a tiny budget."""

from __future__ import annotations

import math
import time
import unittest

from _support import ListeningServer, ScriptedPeer, ServerTestCase, relay, run_example, serve_command

from meeplekit_client import HAVE_NUMPY, Analysis, BotMove, MeepleError, Server, ServerError, VectorEnv


def play_out(state) -> None:
    """Plays ``state`` to its end: each decision's first action, each chance node's first outcome."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


class BotTest(ServerTestCase):
    def setUp(self):
        self.state = self.game.new_initial_state(seed="bot", initial="drawn")

    def test_bot_answers_a_legal_move_that_applies(self):
        move = self.state.bot(1, seed="a")
        self.assertIsInstance(move, BotMove)
        self.assertEqual(move.player, self.state.current_player())
        self.assertIn(move.action, self.state.legal_actions())
        self.assertEqual(move.move["type"], "place")
        self.assertEqual(move.iterations, 24)
        self.assertFalse(move.cut_short)
        self.state.apply_action(move.action)
        self.assertFalse(self.state.is_chance_node())

    def test_same_seed_and_iterations_same_move_however_the_state_is_named(self):
        a = self.state.bot(iterations=60, seed="same")
        self.assertEqual(self.state.bot(iterations=60, seed="same"), a)
        self.assertEqual(self.server.bot(self.state.id, iterations=60, seed="same"), a)
        self.assertEqual(self.server.bot(game=self.game, text=self.state.serialize(), iterations=60, seed="same"), a)
        self.assertEqual(self.server.bot(game=self.game.id, text=self.state.serialize(), iterations=60, seed="same"), a)
        if HAVE_NUMPY:
            import numpy as np

            self.assertEqual(self.state.bot(iterations=np.int64(60), seed="same"), a)

    def test_actions_not_yet_sent_go_first(self):
        self.state.legal_actions()
        self.state.apply_action(self.state.legal_actions()[0])  # known legal: held for the next request
        move = self.state.bot(1)
        self.assertIn(move.action, self.state.legal_actions())
        self.assertNotEqual(move.move["type"], "place")  # the deploy step after the placement

    def test_a_vector_environment(self):
        env = VectorEnv(2, self.game, seed="bot")
        move = env.bot(1, 1, seed=3)
        self.assertIn(move.action, env.last.legal_actions[1])
        actions = env.random_actions()
        actions[1] = move.action
        env.step(actions)
        env.close()

    def test_analyse_lists_the_candidates(self):
        analysis = self.state.analyse(iterations=80, seed="hint")
        self.assertIsInstance(analysis, Analysis)
        legal = self.state.legal_actions()
        self.assertEqual(sorted(c.action for c in analysis.candidates), legal)
        self.assertEqual(analysis.candidates[0].action, analysis.action)
        self.assertEqual(sum(c.visits for c in analysis.candidates), 80)
        visits = [c.visits for c in analysis.candidates]
        self.assertEqual(visits, sorted(visits, reverse=True))
        self.assertEqual(analysis.cost(analysis.action), 0)
        for c in analysis.candidates:
            self.assertAlmostEqual(analysis.cost(c.action), analysis.candidates[0].margin - c.margin)
        self.assertIsNone(analysis.cost(0))
        self.assertEqual(self.state.bot(iterations=80, seed="hint").action, analysis.action)

    def test_the_servers_error_codes(self):
        cases = [
            ({"level": 9}, "bots/unknown-level"),
            ({"iterations": 0}, "bots/bad-budget"),
            ({"time_ms": -1}, "bots/bad-budget"),
            ({"iterations": 10**9}, "protocol/too-large"),
            ({"time_ms": 10**9}, "protocol/too-large"),
        ]
        for kwargs, code in cases:
            with self.subTest(code=code, **kwargs), self.assertRaises(MeepleError) as caught:
                self.state.bot(**kwargs)
            self.assertEqual(caught.exception.code, code)
        chance = self.game.new_initial_state(seed="chance")
        with self.assertRaises(MeepleError) as caught:
            chance.bot(1)
        self.assertEqual(caught.exception.code, "protocol/chance-node")
        over = self.game.new_initial_state(seed="over", initial="drawn")
        play_out(over)
        with self.assertRaises(MeepleError) as caught:
            over.analyse(1)
        self.assertEqual(caught.exception.code, "bots/game-over")
        with self.assertRaises(MeepleError) as caught:
            self.server.bot("s999")
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")
        self.assertIn(self.state.bot(1).action, self.state.legal_actions())  # the session goes on

    def test_arguments_are_checked_before_anything_is_sent(self):
        before = self.server._next_id
        for kwargs, error in [
            ({"level": True}, TypeError),
            ({"level": 2.0}, TypeError),
            ({"iterations": "10"}, TypeError),
            ({"time_ms": "5"}, TypeError),
            ({"time_ms": False}, TypeError),
            ({"time_ms": math.inf}, ValueError),
            ({"time_ms": math.nan}, ValueError),
            ({"seed": 1.5}, TypeError),
        ]:
            with self.subTest(**kwargs), self.assertRaises(error):
                self.state.bot(**kwargs)
        with self.assertRaises(ValueError):
            self.server.bot()
        with self.assertRaises(ValueError):
            self.server.bot(self.state, game=self.game, text="x")
        with self.assertRaises(ValueError):
            self.server.bot(env="v1")
        with self.assertRaises(ValueError):
            self.server.bot(self.state, env_index=0)
        with self.assertRaises(TypeError):
            self.server.bot(game=self.game, text=None)
        self.assertEqual(self.server._next_id, before)
        self.assertEqual(self.state.bot(time_ms=50.0, iterations=20).iterations, 20)


class BadResponseTest(unittest.TestCase):
    """Malformed bot answers (a real server's, changed on the way) are ``client/bad-response``."""

    @classmethod
    def setUpClass(cls):
        cls.real = Server(serve_command())
        cls.real.request("make_game")
        cls.real.request("new_state", game_id="g1", seed="bot", initial="drawn")

    @classmethod
    def tearDownClass(cls):
        cls.real.close()

    def check(self, op, change):
        def edit(name, response):
            if name == op:
                change(response)
            return response

        peer = ScriptedPeer(relay(self.real, edit))
        self.addCleanup(peer.close)
        server = Server.connect(peer.port, timeout=10)
        self.addCleanup(server.close)
        call = server.bot if op == "bot" else server.analyse
        with self.assertRaises(ServerError) as caught:
            call("s1", iterations=30)
        self.assertEqual(caught.exception.code, "client/bad-response")

    def test_malformed_fields(self):
        changes = {
            "no action": lambda r: r.pop("action"),
            "an action as text": lambda r: r.update(action="40000"),
            "a negative action": lambda r: r.update(action=-1),
            "a bool action": lambda r: r.update(action=True),
            "no move": lambda r: r.pop("move"),
            "a move without a type": lambda r: r.update(move={}),
            "no player": lambda r: r.pop("player"),
            "cut_short not a bool": lambda r: r.update(cut_short=0),
            "iterations as a float": lambda r: r.update(iterations=30.0),
        }
        for name, change in changes.items():
            with self.subTest(name):
                self.check("bot", change)

    def test_malformed_candidates(self):
        changes = {
            "no candidates": lambda r: r.pop("candidates"),
            "candidates not a list": lambda r: r.update(candidates={}),
            "a value over 1": lambda r: r["candidates"][0].update(value=2),
            "a margin as text": lambda r: r["candidates"][0].update(margin="1"),
            "negative visits": lambda r: r["candidates"][0].update(visits=-1),
        }
        for name, change in changes.items():
            with self.subTest(name):
                self.check("analyse", change)


class CloseAbortsTest(unittest.TestCase):
    def test_closing_a_connection_with_a_search_unanswered_aborts_it(self):
        # One connection at a time: the next one is served only once the first session is over,
        # which without the abort would take the search's 8 seconds.
        listening = ListeningServer(args=["--max-connections", "1"])
        self.addCleanup(listening.stop)
        server = Server.connect(listening.port, timeout=10)
        server.request("make_game")
        server.request("new_state", game_id="g1", seed="bot", initial="drawn")
        pending = server.submit("bot", state_id="s1", time_ms=8000)
        time.sleep(0.2)  # the search runs
        closed = time.monotonic()
        server.close()
        self.assertFalse(pending.done())
        while True:
            try:
                again = Server.connect(listening.port, timeout=10)
                break
            except ServerError as e:
                self.assertEqual(e.code, "protocol/too-many-connections")
                self.assertLess(time.monotonic() - closed, 4, "the search was not aborted")
                time.sleep(0.05)
        self.addCleanup(again.close)
        self.assertLess(time.monotonic() - closed, 4)
        self.assertEqual(again.info()["protocol"], 1)


class ExampleTest(unittest.TestCase):
    def test_vs_bot_runs_with_a_tiny_budget(self):
        code, out = run_example("vs_bot", ["--games", "2", "--iterations", "4", "--turns", "4"])
        self.assertEqual(code, 0)
        self.assertRegex(out, r"random against the bot at 4 iterations: \d+ won, \d+ drawn, \d+ lost of 2 games")

if __name__ == "__main__":
    unittest.main()
