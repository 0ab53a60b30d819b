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
});
