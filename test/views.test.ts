/**
 * Read-only queries on a player's view, and on states of another ruleset.
 * Architecture point 7: observe() is the hidden-information boundary; a client holding only its
 * observation must still be able to list its moves and inspect the board.
 */
import { describe, expect, test } from 'vitest';
import {
  createRandomSource,
  createSimulator,
  featureAt,
  legalMoves,
  newGame,
  observe,
  projectedScores,
  whyIllegal,
  type GameState,
} from '../src/index.js';
import { classicRules } from './helpers.js';

const rules = classicRules();

function midGame(seed: string, moves: number): GameState {
  const g = newGame(rules, { players: 3, seed });
  if (!g.ok) throw new Error(g.error.message);
  const sim = createSimulator(rules, g.value);
  if (!sim.ok) throw new Error(sim.error.message);
  const random = createRandomSource(seed);
  for (let i = 0; i < moves && !sim.value.isOver(); i++) sim.value.playRandom(random);
  return sim.value.snapshot();
}

describe('queries on an observation give the same answers as on the state', () => {
  test.each([
    ['early', 'view-a', 5],
    ['mid-game', 'view-b', 40],
    ['late', 'view-c', 90],
  ])('%s (seed %s, %d moves)', (_name, seed, moves) => {
    const state = midGame(seed, moves);
    for (const viewer of [0, 1, 2, null]) {
      const view = observe(rules, state, viewer);
      expect(legalMoves(rules, view)).toEqual(legalMoves(rules, state));
      expect(projectedScores(rules, view)).toEqual(projectedScores(rules, state));
      for (const m of legalMoves(rules, state).slice(0, 5)) expect(whyIllegal(rules, view, m)).toBeNull();
      for (const t of state.tiles) {
        expect(featureAt(rules, view, { x: t.x, y: t.y, port: 'N2' })).toEqual(featureAt(rules, state, { x: t.x, y: t.y, port: 'N2' }));
      }
    }
  });
});

describe('a state of another ruleset is refused, never misread', () => {
  const foreign = { ...midGame('foreign', 10), ruleset: 'castle' } as GameState;
  test('legalMoves and projectedScores throw a TypeError naming both rulesets (a caller bug)', () => {
    expect(() => legalMoves(rules, foreign)).toThrow(/ruleset 'castle', not 'classic'/);
    expect(() => projectedScores(rules, foreign)).toThrow(TypeError);
  });
  test('featureAt and whyIllegal return state/ruleset-mismatch', () => {
    const f = featureAt(rules, foreign, { x: 0, y: 0, port: 'N2' });
    expect(f.ok ? null : f.error.code).toBe('state/ruleset-mismatch');
    expect(whyIllegal(rules, foreign, { type: 'pass', player: 0 })?.code).toBe('state/ruleset-mismatch');
  });
});
