import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, type Ruleset } from '../src/index.js';
import { createResearchSimulator, deserializeResearchState, newInitialState, type ActionForm } from '../src/ai/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { must } from './helpers.js';

// Research playouts draw their moves as the core Simulator's playout does (placements by
// rejection, modules' steps from their lists, the Tower's ransom among the place-tile step's
// moves), with scratch space shared by every research simulator.
describe('research playouts', () => {
  const configs: [string, Ruleset, number][] = [
    ['classic', must(createRuleset({ game: 'classic' })), 3],
    ['The Castle', must(createRuleset({ game: castle() })), 2],
    ['all six expansions that combine', must(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] })), 3],
  ];

  test.each(configs)('%s: every move of a playout is legal (the final state replays), in either form, from a mid-game clone too', (_name, rules, most) => {
    for (let g = 0; g < 3; g++) {
      for (const form of ['split', 'combined'] as ActionForm[]) {
        const players = Math.min(most, 2 + (g % 2));
        const sim = createResearchSimulator(rules, newInitialState(rules, { players, seed: `rp${g}` }), { form });
        const random = createRandomSource(`rp${g}-${form}`);
        for (let i = 0; i < 15; i++) sim.applyRandom(random);
        const branch = sim.clone();
        for (const s of [branch, sim]) {
          const scores = s.playout(random);
          expect(s.isTerminal()).toBe(true);
          expect(scores).toEqual(s.state.scores);
          const back = deserializeResearchState(rules, s.serialize());
          if (!back.ok) throw new Error(`${back.error.code} ${back.error.path}: ${back.error.message}`);
        }
      }
    }
  });

  test('a playout does not depend on what other simulators did in between (the shared scratch space)', () => {
    const [, rules] = configs[0]!;
    const start = newInitialState(rules, { players: 2, seed: 'shared' });
    const alone = createResearchSimulator(rules, start);
    alone.playout(createRandomSource('alone'));
    // The same playout again, after other simulators filled the shared buffers with their own placements.
    const other = createResearchSimulator(rules, newInitialState(rules, { players: 3, seed: 'other' }));
    const random = createRandomSource('other');
    for (let i = 0; i < 40; i++) other.applyRandom(random);
    other.clone().playout(random);
    const again = createResearchSimulator(rules, start);
    again.playout(createRandomSource('alone'));
    expect(again.serialize()).toBe(alone.serialize());
  });

  // A depth-limited rollout: `playout`'s moves, stopped after so many decisions (the bots' rollouts).
  test.each(configs)('%s: a rollout plays the decisions asked for, legally, and to the end is the playout itself', (_name, rules, most) => {
    for (let g = 0; g < 3; g++) {
      const players = Math.min(most, 2 + (g % 2));
      const sim = createResearchSimulator(rules, newInitialState(rules, { players, seed: `ro${g}` }));
      const random = createRandomSource(`ro${g}`);
      for (let i = 0; i < 10; i++) sim.applyRandom(random);
      for (const k of [0, 1, 12]) {
        const branch = sim.clone();
        const played = branch.rollout(createRandomSource(`ro${g}/${k}`), k);
        expect(played).toBe(k);
        expect(branch.isTerminal()).toBe(false);
        // Stopped at a decision, never at a chance node: the draws on the way are made.
        expect(branch.isChanceNode()).toBe(false);
        const back = deserializeResearchState(rules, branch.serialize());
        if (!back.ok) throw new Error(`${back.error.code} ${back.error.path}: ${back.error.message}`);
        // The same random stream, the same rollout.
        const again = sim.clone();
        again.rollout(createRandomSource(`ro${g}/${k}`), k);
        expect(again.serialize()).toBe(branch.serialize());
      }
      // With more decisions than the game has left it is the playout, draw for draw.
      const long = sim.clone();
      const played = long.rollout(createRandomSource(`ro${g}/end`), 100_000);
      const whole = sim.clone();
      const scores = whole.playout(createRandomSource(`ro${g}/end`));
      expect(long.isTerminal()).toBe(true);
      expect(long.serialize()).toBe(whole.serialize());
      expect(long.state.scores).toEqual(scores);
      expect(played).toBeGreaterThan(12);
      expect(long.rollout(random, 5)).toBe(0);
    }
  });

  test('a rollout counts decisions only (classic: one move each), and a bad count changes nothing', () => {
    const [, rules] = configs[0]!;
    const sim = createResearchSimulator(rules, newInitialState(rules, { players: 2, seed: 'count' }));
    const before = sim.state.moves.length;
    expect(sim.rollout(createRandomSource('count'), 7)).toBe(7);
    expect(sim.state.moves.length - before).toBe(7);
    const saved = sim.serialize();
    for (const bad of [-1, 1.5, Number.NaN, Infinity]) {
      expect(() => sim.rollout(createRandomSource('count'), bad)).toThrow(RangeError);
      expect(sim.serialize()).toBe(saved);
    }
  });
});
