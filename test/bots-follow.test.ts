/**
 * The follower prior (src/bots/follow.ts) and level 5's rollouts that follow it at deploy
 * decisions (src/bots/rollout.ts; docs/design.md, "Bots", twenty-sixth round): the features on a
 * hand-worked position, the fitted weights, and the rollouts' legality and bias.
 */
import { describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, newGame, type GameState } from '../src/index.js';
import { followFeatures, FOLLOW_FEATURES, FOLLOW_WEIGHTS, newFollowScratch } from '../src/bots/follow.js';
import { newRolloutScratch, priorRollout } from '../src/bots/rollout.js';
import { actionToMove } from '../src/ai/actions.js';
import { actionLayout } from '../src/ai/layout.js';
import { createResearchSimulator } from '../src/ai/index.js';
import { byDepth } from './depth.js';
import { must, rigDraw } from './helpers.js';

const CLASSIC = must(createRuleset({ game: 'classic' }));
const LAYOUT = actionLayout(CLASSIC);

/** Each deploy option of `s` (a deploy step): its move's feature ('pass' for none) and its non-zero features, by name. */
function options(s: GameState): Record<string, Record<string, number>> {
  const sim = createResearchSimulator(CLASSIC, s);
  const scratch = newFollowScratch(CLASSIC);
  const out: Record<string, Record<string, number>> = {};
  for (const a of sim.legalActions()) {
    const move = actionToMove(CLASSIC, s, a)!;
    const f = followFeatures(LAYOUT, s, a, scratch);
    const named: Record<string, number> = {};
    FOLLOW_FEATURES.forEach((n, i) => {
      if (f[i] !== 0) named[n] = f[i]!;
    });
    out[move.type === 'deploy' ? move.feature : move.type] = named;
  }
  return out;
}

const left = (s: GameState) => s.bagSize / (s.bagSize + s.tiles.length);

describe('the follower prior', () => {
  test('hand-worked: a road joined, then a city completed and the field beside it', () => {
    // The start tile D at 0, 0: a city north, a road west to east, a field between them (which
    // touches the city) and one south. Player 0 lays the straight road U east of it.
    let s = rigDraw(CLASSIC, must(newGame(CLASSIC, { players: 2, seed: 'follow' })), 'U');
    s = must(applyMove(CLASSIC, s, { type: 'place', player: 0, x: 1, y: 0, rotation: 0 })).state;
    const l1 = left(s);
    // The road now runs over 2 tiles with both ends open; the fields touch no completed city; all
    // 7 followers are in hand (classic rules, "Followers": 7 each).
    expect(options(s)).toEqual({
      pass: { pass: 1, 'pass.left': l1, 'pass.supply': 1 },
      r1: { road: 1, 'road.value': 2, 'road.open': 2, 'road.left': l1 },
      f1: { field: 1, 'field.left': l1, 'field.supply': 1 },
      f2: { field: 1, 'field.left': l1, 'field.supply': 1 },
    });
    s = must(applyMove(CLASSIC, s, { type: 'deploy', player: 0, feature: 'r1' })).state;
    // Player 1 lays the city cap E north of the start tile, turned to face south: it completes a
    // city of 2 tiles (classic rules, "Cities": a city is complete when walled all round), which a
    // follower put on it now scores at once (and comes back); E's field touches that city.
    s = rigDraw(CLASSIC, s, 'E');
    s = must(applyMove(CLASSIC, s, { type: 'place', player: 1, x: 0, y: -1, rotation: 2 })).state;
    const l2 = left(s);
    expect(options(s)).toEqual({
      pass: { pass: 1, 'pass.left': l2, 'pass.supply': 1 },
      c1: { city: 1, 'city.value': 2, 'city.done': 1, 'city.left': l2 },
      f1: { field: 1, 'field.left': l2, 'field.supply': 1, 'field.cities': 1 },
    });
    // The fitted weights prefer the completed city and then the farmer beside it to passing.
    const sim = createResearchSimulator(CLASSIC, s);
    const scratch = newFollowScratch(CLASSIC);
    const score = (a: number) => followFeatures(LAYOUT, s, a, scratch).reduce((v, x, i) => v + x * FOLLOW_WEIGHTS[i]!, 0);
    const by = new Map([...sim.legalActions()].map((a) => [(actionToMove(CLASSIC, s, a) as { feature?: string }).feature ?? 'pass', score(a)]));
    expect(by.get('c1')!).toBeGreaterThan(by.get('f1')!);
    expect(by.get('f1')!).toBeGreaterThan(by.get('pass')!);
  });

  test('has one weight a feature, as fitted (bench/experiments/follower-prior/fw.json)', async () => {
    const { readFileSync } = await import('node:fs');
    const fitted = JSON.parse(readFileSync(new URL('../bench/experiments/follower-prior/fw.json', import.meta.url), 'utf8')) as number[];
    expect(FOLLOW_WEIGHTS.length).toBe(FOLLOW_FEATURES.length);
    expect([...FOLLOW_WEIGHTS]).toEqual(fitted);
  });
});

describe('rollouts that follow the follower prior', () => {
  const settings = { temperature: 0.3, candidates: 6, follow: { weights: FOLLOW_WEIGHTS, temperature: 1 } };

  test('play legal moves only, to the end of the game', () => {
    const scratch = newRolloutScratch(CLASSIC, settings.candidates);
    for (let i = 0; i < byDepth(20, 4); i++) {
      const sim = createResearchSimulator(CLASSIC, must(newGame(CLASSIC, { players: 2, seed: `follow-legal-${i}` })));
      // Whole games: the simulator throws on an illegal action.
      priorRollout(CLASSIC, sim, createRandomSource(`follow-legal-${i}`), Infinity, settings, scratch);
      expect(sim.isTerminal()).toBe(true);
      const s = sim.state;
      for (let p = 0; p < 2; p++) expect(s.supply[p]).toBeLessThanOrEqual(7);
    }
  });

  test('put fewer farmers down early than uniform follower decisions do', () => {
    // Whole rollouts from the start, with and without the prior: the farmers on the board after
    // 20 tiles. The prior weighs a field by -0.79 times the share of tiles left.
    const farmers = (follow: boolean): number => {
      const scratch = newRolloutScratch(CLASSIC, settings.candidates);
      let total = 0;
      for (let i = 0; i < byDepth(40, 10); i++) {
        const sim = createResearchSimulator(CLASSIC, must(newGame(CLASSIC, { players: 2, seed: `follow-bias-${i}` })));
        const random = createRandomSource(`follow-bias-${i}`);
        while (sim.state.tiles.length < 20) priorRollout(CLASSIC, sim, random, 1, follow ? settings : { temperature: 0.3, candidates: 6 }, scratch);
        const s = sim.state as GameState;
        for (const f of s.followers) {
          const t = s.tiles[f.tile]!;
          if (CLASSIC.kinds[CLASSIC.tiles[t.kind]!.kinds[f.local]!]!.name === 'field') total++;
        }
      }
      return total;
    };
    expect(farmers(true)).toBeLessThan(farmers(false) * 0.8);
  });
});
