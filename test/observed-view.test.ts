/**
 * `observedView`, the read-only view the vector observations compute their projected scores on:
 * the same view as `observe` (the hidden-information boundary), without copying what it shares
 * with the state, and without writing into the state.
 */
import { describe, expect, test } from 'vitest';
import { createRuleset, observe, projectedScores, type Ruleset } from '../src/index.js';
import { observedView } from '../src/core/engine/observe.js';
import { castle } from '../src/games/castle/entry.js';
import { canon, must, playGame } from './helpers.js';

const rulesets: [string, Ruleset][] = [
  ['The Castle (face-down wall tokens)', must(createRuleset({ game: castle() }))],
  ['classic (nothing hidden)', must(createRuleset({ game: 'classic' }))],
];

describe('observedView is what observe returns, without the copy', () => {
  test.each(rulesets)('%s', (_name, rules) => {
    const { states } = playGame(rules, 2, 'observed-view');
    let hidden = 0;
    for (let i = 0; i < states.length; i += 3) {
      const state = states[i]!;
      const before = canon(state);
      for (const viewer of [0, 1, null]) {
        const view = observedView(rules, state, viewer);
        expect(canon(view)).toBe(canon(observe(rules, state, viewer)));
        expect(projectedScores(rules, view)).toEqual(projectedScores(rules, observe(rules, state, viewer)));
        expect('seed' in view || 'rng' in view).toBe(false);
      }
      // Nothing written into the state (The Castle's hook turns the copy's tokens face down).
      expect(canon(state)).toBe(before);
      const wall = (state.ext['castle'] as { wall: number[] } | undefined)?.wall ?? [];
      if (wall.some((t) => t > 0)) hidden++;
    }
    // The Castle's games had face-down tokens to hide; the view above hid them (observe's view does).
    if (rules.id === 'castle') expect(hidden).toBeGreaterThan(0);
  });

  test("another ruleset's state: no slice is copied, as with observe", () => {
    const [, castleRules] = rulesets[0]!;
    const [, classicRules] = rulesets[1]!;
    const state = playGame(castleRules, 2, 'observed-foreign', 6).states[6]!;
    const view = observedView(classicRules, state, 0);
    expect(view.ext).toEqual({});
    expect(canon(view)).toBe(canon(observe(classicRules, state, 0)));
  });
});
