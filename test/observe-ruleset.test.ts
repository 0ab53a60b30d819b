/**
 * observe() given a state of another ruleset (issue 13, section 5): it does not know that
 * ruleset's hiding hooks, so it copies none of its modules' slices instead of leaking them. The
 * observation still names its own ruleset, so the queries refuse it under the wrong rules, and
 * publicView refuses the state outright.
 */
import { describe, expect, test } from 'vitest';
import {
  createRandomSource,
  createRuleset,
  createSimulator,
  featureAt,
  legalMoves,
  newGame,
  observe,
  publicView,
  whyIllegal,
  type GameState,
  type Ruleset,
  type RulesetOptions,
} from '../src/index.js';
import type { CastleSlice } from '../src/games/castle/state.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { river } from '../src/expansions/river/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { castle } from '../src/games/castle/entry.js';

function rulesOf(spec: RulesetOptions): Ruleset {
  const r = createRuleset(spec);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function midGame(rules: Ruleset, seed: string, moves: number): GameState {
  const g = newGame(rules, { players: 2, seed });
  if (!g.ok) throw new Error(g.error.message);
  const sim = createSimulator(rules, g.value);
  if (!sim.ok) throw new Error(sim.error.message);
  const random = createRandomSource(seed);
  for (let i = 0; i < moves && !sim.value.isOver(); i++) sim.value.playRandom(random);
  return sim.value.snapshot();
}

const classicRules = rulesOf({ game: 'classic' });
const castleRules = rulesOf({ game: castle() });
const castleState = midGame(castleRules, 'observe-ruleset', 12);
const wall = (castleState.ext['castle'] as CastleSlice).wall;

describe("the issue's example: observe(classicRules, castleState, 0).ext.castle.wall", () => {
  test('shows no wall token: The Castle slice is not copied at all', () => {
    expect(wall.filter((t) => t > 0).length).toBeGreaterThan(1); // there are face-down tokens to leak
    const view = observe(classicRules, castleState, 0);
    expect(view.ext).toEqual({});
    expect(() => (view.ext as { castle: CastleSlice }).castle.wall).toThrow(TypeError);
    expect(JSON.stringify(view)).not.toContain('"wall"');
    expect(JSON.stringify(view)).not.toContain(castleState.seed);
  });

  test('for every viewer, the same observation whatever the face-down tokens are', () => {
    const swapped = JSON.parse(JSON.stringify(castleState)) as GameState;
    const w = (swapped.ext['castle'] as CastleSlice).wall;
    const i = w.findIndex((t) => t > 0);
    const j = w.findIndex((t) => t > 0 && t !== w[i]);
    [w[i], w[j]] = [w[j]!, w[i]!];
    for (const viewer of [0, 1, null]) {
      expect(JSON.stringify(observe(classicRules, swapped, viewer))).toBe(JSON.stringify(observe(classicRules, castleState, viewer)));
    }
  });

  test('the observation keeps its own ruleset, so the queries refuse it under the wrong rules', () => {
    const view = observe(classicRules, castleState, 0);
    expect(view.ruleset).toBe(castleRules.id);
    const f = featureAt(classicRules, view, { x: 0, y: 0, port: 'N2' });
    expect(f.ok ? 'answered' : f.error.code).toBe('state/ruleset-mismatch');
    expect(whyIllegal(classicRules, view, { type: 'pass', player: 0 })?.code).toBe('state/ruleset-mismatch');
    expect(() => legalMoves(classicRules, view)).toThrow(TypeError);
    const p = publicView(classicRules, castleState, 0);
    expect(p.ok ? 'made' : p.error.code).toBe('state/ruleset-mismatch');
  });

  test('with its own rules, the observation is as before: the slice, face-down tokens as -1', () => {
    for (const viewer of [0, 1, null]) {
      const view = observe(castleRules, castleState, viewer);
      expect((view.ext['castle'] as CastleSlice).wall).toEqual(wall.map((t) => (t === 0 ? 0 : -1)));
      expect(legalMoves(castleRules, view)).toEqual(legalMoves(castleRules, castleState));
    }
  });
});

describe('every other pairing of a state with rules it was not made with copies no module slice', () => {
  const withModules = rulesOf({ game: 'classic', expansions: [kingRobber(), tower()] });
  const riverI = rulesOf({ game: 'classic', expansions: [river({ set: 'I' })] });
  const riverII = rulesOf({ game: 'classic', expansions: [river({ set: 'II' })] });
  test.each([
    ['classic rules, a state with expansions', classicRules, midGame(withModules, 'pair-1', 20)],
    ['rules with the same modules in other options', riverI, midGame(riverII, 'pair-2', 20)],
    ['The Castle rules, a state with expansions', castleRules, midGame(withModules, 'pair-3', 20)],
  ] as const)('%s', (_name, rules, state) => {
    expect(Object.keys(state.ext).length).toBeGreaterThan(0);
    for (const viewer of [0, 1, null]) {
      const view = observe(rules, state, viewer);
      expect(view.ext).toEqual({});
      // Everything else is copied as it is: the public parts of every ruleset.
      const { seed: _seed, rng: _rng, ext: _ext, ...rest } = state;
      expect({ ...view, ext: undefined, viewer: undefined }).toEqual({ ...rest, ext: undefined, viewer: undefined });
      expect(view.ruleset).toBe(state.ruleset);
    }
  });
});
