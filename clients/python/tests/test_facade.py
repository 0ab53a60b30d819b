"""The OpenSpiel-like facade: a random episode, clones, saved states, determinization."""

from __future__ import annotations

import json
import math
import random
import unittest

from _support import ServerTestCase

from meeplekit_client import CHANCE_PLAYER, HAVE_NUMPY, TERMINAL_PLAYER, MeepleError, fetch, free, load_game


def play_random(state, rng, max_steps=2000):
    """Plays ``state`` to the end at random (chance outcomes by their probabilities); returns the
    sum of each player's rewards and the number of decisions."""
    totals = [0.0] * state.num_players()
    decisions = 0
    for _ in range(max_steps):
        if state.is_terminal():
            return totals, decisions
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
            decisions += 1
        state.apply_action(action)
        totals = [t + r for t, r in zip(totals, state.rewards())]
    raise AssertionError("the game did not end")


class FacadeTest(ServerTestCase):
    def test_game_info(self):
        g = self.game
        self.assertEqual(g.num_players(), 2)
        self.assertEqual(g.num_distinct_actions(), 81805)
        self.assertEqual(g.max_chance_outcomes(), 24)
        self.assertEqual(g.observation_tensor_size(), 37 * 31 * 31 + 65)
        self.assertEqual(math.prod(g.observation_tensor_shape()), g.observation_tensor_size())
        spec = g.observation_spec
        self.assertEqual(math.prod(spec["planes"]) + spec["vector"], g.observation_tensor_size())
        self.assertEqual(g.max_game_length(), 142)
        self.assertEqual(g.utility_bounds("win-loss"), (-1.0, 1.0))
        self.assertEqual(g.min_utility(), 0.0)
        self.assertGreater(g.max_utility(), 100.0)  # finite, or inf from a server that knows no bound

    def test_random_episode(self):
        state = self.game.new_initial_state(seed="episode")
        self.assertTrue(state.is_chance_node())
        self.assertEqual(state.current_player(), CHANCE_PLAYER)
        outcomes = state.chance_outcomes()
        self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0, places=5)
        self.assertEqual(sorted(o for o, _ in outcomes), state.legal_actions())
        totals, decisions = play_random(state, random.Random(1))
        self.assertTrue(state.is_terminal())
        self.assertEqual(state.current_player(), TERMINAL_PLAYER)
        self.assertEqual(state.legal_actions(), [])
        self.assertGreater(decisions, 71)  # a placement per tile, at least
        returns = state.returns()
        saved = json.loads(state.serialize())  # the research state's saved form holds the scores
        scores = saved.get("state", saved)["scores"]
        self.assertEqual(returns, [float(s) for s in scores])  # the returns are the final scores
        self.assertEqual(totals, returns)  # and the rewards sum to them
        for kind in ("score", "win-loss", "rank"):
            low, high = self.game.utility_bounds(kind)
            for r in state.returns(kind):
                self.assertTrue(low <= r <= high, f"{kind} return {r} outside [{low}, {high}]")
        wl = state.returns("win-loss")
        best = max(returns)
        for p, r in enumerate(returns):
            if r < best:
                self.assertEqual(wl[p], -1.0)
        self.assertAlmostEqual(sum(state.returns("rank")), 0.0, places=6)

    def test_other_rulesets(self):
        for name, expansions, options, players in (
            ("castle", (), None, 2),
            ("classic", ("river", "king-robber"), {"river": {"set": "both"}}, 3),
        ):
            game = load_game(name, expansions, players=players, options=options, server=self.server)
            state = game.new_initial_state(seed=name)
            totals, _ = play_random(state, random.Random(9))
            self.assertEqual(totals, state.returns())
            low, high = game.utility_bounds("score")
            self.assertTrue(all(low <= r <= high for r in state.returns()))
            self.assertEqual(len(state.observation_tensor(players - 1)), game.observation_tensor_size())

    def test_decision_reads(self):
        state = self.game.new_initial_state(seed="reads")
        state.apply_action(state.chance_outcomes()[0][0])
        self.assertEqual(state.current_player(), 0)
        legal = state.legal_actions()
        self.assertEqual(legal, sorted(legal))
        self.assertEqual(state.legal_actions(1), [])
        mask = state.legal_actions_mask()
        self.assertEqual(len(mask), self.game.num_distinct_actions())
        self.assertEqual([i for i, m in enumerate(mask) if m], legal)
        obs = state.observation_tensor(0)
        self.assertEqual(len(obs), self.game.observation_tensor_size())
        if HAVE_NUMPY:
            self.assertEqual(str(obs.dtype), "float32")
        self.assertEqual(len(state.observation_tensor(1)), self.game.observation_tensor_size())
        self.assertRegex(state.action_to_string(legal[0]), r"^place ")
        self.assertEqual(state.action_to_string(0, legal[0]), state.action_to_string(legal[0]))
        self.assertIsInstance(str(state), str)
        self.assertGreater(len(str(state)), 0)
        events = state.apply_action(legal[0], events=True)
        self.assertIsInstance(events, list)
        self.assertTrue(any(e.get("type") == "tile-placed" for e in events))

    def test_clone_independence(self):
        state = self.game.new_initial_state(seed="clone")
        rng = random.Random(2)
        for _ in range(9):
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        before = state.serialize()
        legal = state.legal_actions()
        copy = state.clone()
        self.assertNotEqual(copy.id, state.id)
        self.assertEqual(copy.serialize(), before)
        play_random(copy, random.Random(3))
        self.assertTrue(copy.is_terminal())
        self.assertFalse(state.is_terminal())
        self.assertEqual(state.serialize(), before)
        self.assertEqual(state.legal_actions(), legal)
        child = state.child(legal[0])
        self.assertEqual(state.serialize(), before)
        self.assertNotEqual(child.serialize(), before)

    def test_serialize_round_trip(self):
        state = self.game.new_initial_state(seed="saved")
        rng = random.Random(4)
        for _ in range(15):
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        text = state.serialize()
        back = self.game.deserialize_state(text)
        self.assertEqual(back.serialize(), text)
        self.assertEqual(back.current_player(), state.current_player())
        self.assertEqual(back.is_chance_node(), state.is_chance_node())
        self.assertEqual(back.legal_actions(), state.legal_actions())
        self.assertEqual(back.returns(), state.returns())
        # Both go on the same way.
        a = back.legal_actions()[len(back.legal_actions()) // 2]
        back.apply_action(a)
        state.apply_action(a)
        self.assertEqual(back.serialize(), state.serialize())
        with self.assertRaises(MeepleError) as caught:
            self.game.deserialize_state(text.replace('"scores":[', '"scores":[1000,', 1) if '"scores":[' in text else "{}")
        self.assertFalse(caught.exception.code.startswith("client/"))

    def test_determinize(self):
        state = self.game.new_initial_state(seed="det")
        state.apply_action(state.chance_outcomes()[0][0])
        d1 = state.determinize(0, seed="a")
        d2 = state.determinize(0, seed="a")
        self.assertEqual(d1.current_player(), state.current_player())
        self.assertEqual(d1.legal_actions(), state.legal_actions())
        self.assertEqual(d1.serialize(), d2.serialize())

    def test_many_states_at_once(self):
        root = self.game.new_initial_state(seed="many")
        root.apply_action(root.chance_outcomes()[0][0])
        legal = root.legal_actions()
        copies = root.clones(len(legal))
        self.assertEqual(len({c.id for c in copies} | {root.id}), len(legal) + 1)
        for a, c in zip(legal, copies):
            c.apply_action(a)  # known legal: goes with the next request
        fetch(copies)  # one round trip for all of them
        for a, c in zip(legal, copies):
            self.assertEqual(c.serialize(), root.child(a).serialize())
            if c.is_chance_node():
                self.assertAlmostEqual(sum(p for _, p in c.chance_outcomes()), 1.0, places=5)
            else:
                self.assertEqual(c.chance_outcomes(), [])
        free(copies)
        with self.assertRaises(MeepleError) as caught:
            copies[0].serialize()
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")
        self.assertEqual(root.legal_actions(), legal)

    def test_handles_freed(self):
        server = self.server
        server.flush()
        counted = "stats" in server.info().get("ops", [])
        before = server.request("stats")["handles"] if counted else None
        for i in range(200):
            s = self.game.new_initial_state(seed=i)
            s.clone()  # dropped at once
            del s
        server.flush()
        self.assertEqual(server._garbage, [])
        if counted:
            self.assertEqual(server.request("stats")["handles"], before)
        with self.game.new_initial_state(seed="with") as s:
            self.assertTrue(s.is_chance_node())
        with self.assertRaises(MeepleError) as caught:
            s.serialize()
        self.assertEqual(caught.exception.code, "protocol/unknown-handle")


if __name__ == "__main__":
    unittest.main()
