"""The OpenSpiel facade against OpenSpiel's documented contract (open_spiel is not installable
here, so the contract is checked with the client's own tests): GameType, history, serialization,
information state strings that hide what a player cannot see, resample_from_infostate, and a
small information-set MCTS that runs on the facade alone. Then the pyspiel registration, driven
through a stand-in of pyspiel's Python-game interface."""

from __future__ import annotations

import copy
import math
import random
import sys
import types
import unittest

from _extras_support import needs
from _support import ServerTestCase

from meeplekit_client import CHANCE_PLAYER, TERMINAL_PLAYER, load_game
from meeplekit_client.spiel import GameType


def sample_chance(state, rng):
    """A chance outcome of ``state`` drawn by its probability."""
    outcomes, probs = zip(*state.chance_outcomes())
    return rng.choices(outcomes, probs)[0]


def play(state, n, rng):
    """Applies ``n`` actions, random legal ones and chance outcomes by their probabilities."""
    for _ in range(n):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


class GameContractTest(ServerTestCase):
    def test_get_type_and_game_info(self):
        t = self.game.get_type()
        self.assertEqual((t.short_name, t.long_name), ("meeplekit", "meeplekit classic"))
        self.assertIs(t.dynamics, GameType.Dynamics.SEQUENTIAL)
        self.assertIs(t.chance_mode, GameType.ChanceMode.EXPLICIT_STOCHASTIC)
        self.assertIs(t.information, GameType.Information.PERFECT_INFORMATION)
        self.assertIs(t.utility, GameType.Utility.GENERAL_SUM)
        self.assertIs(t.reward_model, GameType.RewardModel.REWARDS)
        self.assertEqual((t.min_num_players, t.max_num_players), (2, 5))
        self.assertTrue(t.provides_information_state_string and t.provides_information_state_tensor)
        self.assertTrue(t.provides_observation_string and t.provides_observation_tensor)
        rank = self.game.get_type("rank")
        self.assertIs(rank.utility, GameType.Utility.ZERO_SUM)
        self.assertIs(rank.reward_model, GameType.RewardModel.TERMINAL)
        self.assertEqual(self.game.utility_sum("rank"), 0.0)
        self.assertIsNone(self.game.utility_sum())
        with self.assertRaises(ValueError):
            self.game.get_type("money")
        castle = load_game("castle", server=self.server).get_type()
        self.assertIs(castle.information, GameType.Information.IMPERFECT_INFORMATION)
        self.assertEqual((castle.min_num_players, castle.max_num_players), (2, 2))
        g = self.game
        self.assertEqual(g.num_distinct_actions(), 81805)
        self.assertEqual(g.max_chance_outcomes(), 24)
        self.assertEqual(g.max_game_length(), 142)
        self.assertEqual(g.information_state_tensor_shape(), g.observation_tensor_shape())
        self.assertEqual(g.information_state_tensor_size(), g.observation_tensor_size())
        self.assertEqual(g.policy_tensor_shape(), [81805])

    def test_a_game_through_the_state_api(self):
        state = self.game.new_initial_state(seed="contract")
        self.assertTrue(state.is_initial_state())
        self.assertEqual((state.history(), state.move_number()), ([], 0))
        self.assertEqual(state.current_player(), CHANCE_PLAYER)
        self.assertTrue(state.is_chance_node())
        self.assertAlmostEqual(sum(p for _, p in state.chance_outcomes()), 1.0)
        self.assertEqual(state.legal_chance_outcomes(), state.legal_actions())
        self.assertEqual(state.num_distinct_actions(), 81805)
        self.assertFalse(state.is_simultaneous_node())
        rng = random.Random(4)
        applied, rewards = [], [0.0, 0.0]
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                player = state.current_player()
                self.assertEqual(state.legal_actions(1 - player), [])
                self.assertEqual(state.legal_actions(player), state.legal_actions())
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            applied.append(action)
            rewards = [a + b for a, b in zip(rewards, state.rewards())]
        self.assertEqual(state.current_player(), TERMINAL_PLAYER)
        self.assertEqual(state.history(), applied)
        self.assertEqual(state.history_str(), ", ".join(map(str, applied)))
        self.assertEqual(state.move_number(), len(applied))
        self.assertEqual(rewards, state.returns())
        # the history determines the state: replaying it from a new initial state with the same seed
        replay = self.game.new_initial_state(seed="contract")
        for a in state.history():
            replay.apply_action(a)
        self.assertEqual(replay.serialize(), state.serialize())

    def test_clone_child_serialize_keep_the_history(self):
        state = play(self.game.new_initial_state(seed=1), 9, random.Random(1))
        history = state.history()
        clone = state.clone()
        self.assertEqual(clone.history(), history)
        self.assertEqual(copy.deepcopy(state).history(), history)
        action = state.legal_actions()[0]
        self.assertEqual(state.child(action).history(), history + [action])
        self.assertEqual(state.history(), history)  # the child is a copy
        text = state.serialize()
        back = self.game.deserialize_state(text, history=history)
        self.assertEqual((back.serialize(), back.history()), (text, history))
        self.assertEqual(back.information_state_string(0), state.information_state_string(0))
        unknown = self.game.deserialize_state(text)
        with self.assertRaisesRegex(ValueError, "history"):
            unknown.history()
        self.assertEqual(unknown.information_state_string(1), state.information_state_string(1))


class InformationStateTest(ServerTestCase):
    def test_states_that_differ_only_in_hidden_parts_give_the_same_strings(self):
        # the same actions from two seeds: the states differ in the game's generator (which would
        # decide the app's draws), which no player sees
        rng = random.Random(7)
        a = self.game.new_initial_state(seed="secret-seed-a")
        b = self.game.new_initial_state(seed="secret-seed-b")
        for _ in range(23):
            if a.is_chance_node():
                action = sample_chance(a, rng)
            else:
                action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        self.assertNotEqual(a.serialize(), b.serialize())
        for p in range(2):
            self.assertEqual(a.information_state_string(p), b.information_state_string(p))
            self.assertEqual(a.observation_string(p), b.observation_string(p))
            self.assertEqual(list(a.information_state_tensor(p)), list(b.information_state_tensor(p)))
            self.assertNotIn("secret-seed", a.information_state_string(p))
            self.assertNotIn("secret-seed", a.observation_string(p))
            # a determinization for p is in p's information state too
            self.assertEqual(a.resample_from_infostate(p, "x").information_state_string(p), a.information_state_string(p))
        # the default player is the one to decide
        self.assertEqual(a.information_state_string(), a.information_state_string(a.current_player()))
        # a state p can tell apart (another move) has another string
        other = a.clone()
        moves = other.legal_actions()
        a.apply_action(moves[0])
        other.apply_action(moves[-1])
        self.assertNotEqual(a.information_state_string(0), other.information_state_string(0))
        self.assertNotEqual(a.observation_string(1), other.observation_string(1))

    def test_the_castle_hidden_tokens(self):
        game = load_game("castle", server=self.server)
        state = play(game.new_initial_state(seed="castle-secret"), 40, random.Random(3))
        p = 0
        for seed in ("one", "two", 3):
            world = state.resample_from_infostate(p, seed)
            self.assertEqual(world.information_state_string(p), state.information_state_string(p))
            self.assertEqual(world.observation_string(p), state.observation_string(p))
            self.assertEqual(world.history(), state.history())
        self.assertNotIn("castle-secret", state.information_state_string(p))

    def test_strings_at_chance_nodes_need_a_player(self):
        state = self.game.new_initial_state(seed=2)
        with self.assertRaises(ValueError):
            state.information_state_string()
        self.assertIsInstance(state.information_state_string(1), str)
        with self.assertRaises(ValueError):
            state.observation_string(2)

    def test_resample_from_infostate_with_a_probability_sampler(self):
        state = play(self.game.new_initial_state(seed=5), 7, random.Random(5))
        a = state.resample_from_infostate(0, lambda: 0.25)
        b = state.resample_from_infostate(0, lambda: 0.25)
        c = state.resample_from_infostate(0, lambda: 0.75)
        self.assertEqual(a.serialize(), b.serialize())
        self.assertNotEqual(a.serialize(), c.serialize())  # another seed for the bag's order
        self.assertEqual(a.history(), state.history())
        with self.assertRaises(ValueError):
            state.resample_from_infostate(0, lambda: 1.0)


def ismcts(root, iterations, rng, depth=6):
    """A single-observer information-set MCTS as OpenSpiel's ISMCTS runs it: each iteration
    resamples a world from the root player's information state, descends by UCB over nodes keyed
    by information_state_string, expands one node, rolls out at random and backs up the root
    player's score margin. Returns the most visited action and the tree."""
    player = root.current_player()
    tree = {}  # key: {"n": visits, "actions": {action: [visits, total]}}
    root_keys = set()
    for _ in range(iterations):
        state = root.resample_from_infostate(player, rng.random)
        root_keys.add(state.information_state_string(player))
        path = []
        for _ in range(depth):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            key = state.information_state_string()
            node = tree.get(key)
            legal = state.legal_actions()
            if node is None:
                tree[key] = {"n": 0, "actions": {a: [0, 0.0] for a in legal}}
                path.append((key, rng.choice(legal)))
                state.apply_action(path[-1][1])
                break
            def ucb(a):
                n, total = node["actions"][a]
                return math.inf if n == 0 else total / n + 2.0 * math.sqrt(math.log(node["n"] + 1) / n)
            action = max(legal, key=ucb)
            path.append((key, action))
            state.apply_action(action)
        play(state, 4, rng)
        scores = state.returns()
        value = scores[player] - max(s for i, s in enumerate(scores) if i != player)
        for key, action in path:
            tree[key]["n"] += 1
            tree[key]["actions"][action][0] += 1
            tree[key]["actions"][action][1] += value
    top = tree[root.information_state_string(player)]["actions"]
    return max(top, key=lambda a: (top[a][0], -a)), tree, root_keys


class ISMCTSTest(ServerTestCase):
    def test_ismcts_over_the_facade(self):
        root = play(self.game.new_initial_state(seed="ismcts"), 5, random.Random(9))
        self.assertFalse(root.is_chance_node())
        action, tree, root_keys = ismcts(root, 12, random.Random(1))
        # every resampled world is in the root player's information state: one root node
        self.assertEqual(root_keys, {root.information_state_string()})
        self.assertIn(action, root.legal_actions())
        self.assertGreater(len(tree), 1)
        again, _, _ = ismcts(root, 12, random.Random(1))
        self.assertEqual(again, action)  # the same random numbers give the same search


def fake_pyspiel():
    """A stand-in for pyspiel's Python-game interface (GameType, GameInfo, Game, State, PlayerId,
    IIGObservationType, register_game, load_game) as OpenSpiel's python/games use it."""
    m = types.ModuleType("pyspiel")

    class Enum:
        def __init__(self, *names):
            for n in names:
                setattr(self, n, n)

    class GameType:
        Dynamics = Enum("SEQUENTIAL", "SIMULTANEOUS")
        ChanceMode = Enum("DETERMINISTIC", "EXPLICIT_STOCHASTIC", "SAMPLED_STOCHASTIC")
        Information = Enum("PERFECT_INFORMATION", "IMPERFECT_INFORMATION")
        Utility = Enum("ZERO_SUM", "CONSTANT_SUM", "GENERAL_SUM")
        RewardModel = Enum("REWARDS", "TERMINAL")

        def __init__(self, **fields):
            self.__dict__.update(fields)

    class GameInfo:
        def __init__(self, **fields):
            self.__dict__.update(fields)

    class Game:
        def __init__(self, game_type, info, params):
            self._type, self._info, self._params = game_type, info, params

        def get_type(self):
            return self._type

        def num_distinct_actions(self):
            return self._info.num_distinct_actions

        def num_players(self):
            return self._info.num_players

    class State:
        def __init__(self, game):
            self._game = game
            self._history = []

        def get_game(self):
            return self._game

        def is_chance_node(self):
            return self.current_player() == -1

        def legal_actions(self, player=None):
            return self._legal_actions(self.current_player() if player is None else player)

        def apply_action(self, action):
            self._apply_action(action)
            self._history.append(action)

        def action_to_string(self, player, action):
            return self._action_to_string(player, action)

        def history(self):
            return list(self._history)

        def clone(self):
            return copy.deepcopy(self)

        def __deepcopy__(self, memo):  # the C++ part: the game is shared, the history copied
            new = object.__new__(type(self))
            new._game, new._history = self._game, list(self._history)
            for k, v in self.__dict__.items():
                if k not in ("_game", "_history"):
                    setattr(new, k, copy.deepcopy(v, memo))
            return new

    class IIGObservationType:
        def __init__(self, perfect_recall=False):
            self.perfect_recall = perfect_recall

    registry = {}
    m.GameType, m.GameInfo, m.Game, m.State, m.IIGObservationType = GameType, GameInfo, Game, State, IIGObservationType
    m.PlayerId = types.SimpleNamespace(CHANCE=-1, TERMINAL=-4)
    m.register_game = lambda game_type, cls: registry.__setitem__(game_type.short_name, cls)
    m.load_game = lambda name, params=None: registry[name](params or {})
    m.registry = registry
    return m


@needs("openspiel", "numpy")
class RegisterTest(ServerTestCase):
    def test_register_game_with_a_pyspiel_stand_in(self):
        from meeplekit_client import openspiel

        pyspiel = fake_pyspiel()
        saved = sys.modules.get("pyspiel")
        sys.modules["pyspiel"] = pyspiel
        try:
            cls = openspiel.register("python_meeplekit_test", server=self.server)
            self.assertIs(openspiel.register("python_meeplekit_test"), cls)
        finally:
            if saved is None:
                del sys.modules["pyspiel"]
            else:
                sys.modules["pyspiel"] = saved
        self.assertIn("python_meeplekit_test", pyspiel.registry)
        game = pyspiel.load_game("python_meeplekit_test", {"players": 3, "returns": "rank"})
        self.assertEqual((game.num_players(), game.num_distinct_actions()), (3, 81805))
        self.assertEqual(game._info.utility_sum, 0.0)
        self.assertEqual(game.get_type().information, "IMPERFECT_INFORMATION")
        state = game.new_initial_state()
        rng = random.Random(0)
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            p = state.current_player()
            if len(state.history()) == 30:
                observer.set_from(state, p)
                self.assertEqual(observer.tensor.shape, (game.facade.observation_tensor_size(),))
                self.assertEqual(observer.string_from(state, p), state.inner.information_state_string(p))
                clone = state.clone()
                self.assertEqual(clone.history(), state.history())
                self.assertNotEqual(clone.inner.id, state.inner.id)
                world = state.resample_from_infostate(p, rng.random)
                self.assertEqual(world.inner.information_state_string(p), state.inner.information_state_string(p))
                self.assertIn(" ", state.action_to_string(p, state.legal_actions()[0]))
            state.apply_action(rng.choice(state.legal_actions()))
        self.assertEqual(state.current_player(), -4)
        self.assertAlmostEqual(sum(state.returns()), 0.0)
        plain = game.make_py_observer()
        self.assertEqual(plain.string_from(state, 0), state.inner.observation_string(0))


if __name__ == "__main__":
    unittest.main()
