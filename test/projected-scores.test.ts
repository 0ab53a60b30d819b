/**
 * `projectedScores` without a copy of the state: when the game and every expansion say that their
 * final scoring only adds points (`finalScoringAddsOnly`), the final scorings run on the state
 * itself with a scores array of their own. These tests hold that path to the copying one (the
 * oracle below: a whole copy, then the same final scorings), check that it writes nothing into
 * the state it reads, and that the flag is taken only when every module gives it.
 */
import { describe, expect, test } from 'vitest';
import { createRuleset, observe, projectedScores, type Expansion, type Ruleset } from '../src/index.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { castle } from '../src/games/castle/entry.js';
import { byDepth } from './depth.js';
import { canon, must, playGame } from './helpers.js';
// The projected scores as they were always computed: the final scorings on a whole copy.
import { projectedScores as onACopy } from './fixtures/observation-oracle.js';

const configs: [name: string, rules: Ruleset, addsOnly: boolean][] = [
  ['classic', must(createRuleset({ game: 'classic' })), true],
  // The King's and the Robber Baron's points and the fairy's are final scorings that only add.
  ['classic with the King and Robber Baron and the Princess and the Dragon', must(createRuleset({ game: 'classic', expansions: [kingRobber(), princessDragon()] })), true],
  ['classic with the six expansions that combine', must(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] })), true],
  // The Castle's final scoring clears the wall and spends tokens: it keeps the copy.
  ['The Castle', must(createRuleset({ game: castle() })), false],
];

describe('projected scores on the state itself equal those on a copy, and change nothing', () => {
  test.each(configs)('%s', (_name, rules, addsOnly) => {
    expect(rules.finalScoringAddsOnly).toBe(addsOnly);
    let checked = 0;
    for (const seed of byDepth(['p1', 'p2', 'p3', 'p4'], ['p1', 'p2'])) {
      const { states } = playGame(rules, 2, `projected-${seed}`);
      for (let i = 0; i < states.length; i += byDepth(2, 5)) {
        const state = states[i]!;
        const before = canon(state);
        const projected = projectedScores(rules, state);
        expect(projected).toEqual(onACopy(rules, state));
        // A fresh array: the state's own scores are neither returned nor written.
        expect(projected).not.toBe(state.scores);
        expect(canon(state)).toBe(before);
        // Views too (each player's, and the public one).
        for (const viewer of [0, 1, null]) expect(projectedScores(rules, observe(rules, state, viewer))).toEqual(projected);
        checked++;
      }
      // The last state of a game scored somewhere: the comparison above covered real points.
      const last = states[states.length - 1]!;
      expect(last.scores.some((s) => s > 0)).toBe(true);
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('the flag is taken only when every module gives it', () => {
  /** A test expansion with a final scoring (one point to player 0), with or without the flag. */
  const bonus = (addsOnly: boolean | undefined): Expansion => ({
    id: 'bonus',
    order: 80,
    options: {},
    finalScoring: (ctx) => {
      ctx.state.scores[0]! += 1;
    },
    ...(addsOnly === undefined ? {} : { finalScoringAddsOnly: addsOnly }),
  });

  test('an expansion with a final scoring that does not say so keeps the copy', () => {
    expect(must(createRuleset({ game: 'classic', expansions: [bonus(undefined)] })).finalScoringAddsOnly).toBe(false);
    expect(must(createRuleset({ game: 'classic', expansions: [bonus(false)] })).finalScoringAddsOnly).toBe(false);
    expect(must(createRuleset({ game: 'classic', expansions: [bonus(true)] })).finalScoringAddsOnly).toBe(true);
    // An expansion without a final scoring has nothing to declare.
    expect(must(createRuleset({ game: 'classic', expansions: [shrines()] })).finalScoringAddsOnly).toBe(true);
  });

  test('either way, the projected scores are the same', () => {
    const copying = must(createRuleset({ game: 'classic', expansions: [bonus(undefined)] }));
    const direct = must(createRuleset({ game: 'classic', expansions: [bonus(true)] }));
    const { states } = playGame(copying, 2, 'projected-bonus', 40);
    for (const state of states) {
      const before = canon(state);
      const a = projectedScores(copying, state);
      const b = projectedScores(direct, { ...state, ruleset: direct.id });
      expect(b).toEqual(a);
      expect(a[0]).toBeGreaterThanOrEqual(state.scores[0]! + 1);
      expect(canon(state)).toBe(before);
    }
  });

  test('the flag is not part of the ruleset id: it changes no rule, and saved games keep loading', () => {
    const without = must(createRuleset({ game: 'classic', expansions: [bonus(undefined)] }));
    const withIt = must(createRuleset({ game: 'classic', expansions: [bonus(true)] }));
    expect(withIt.id).toBe(without.id);
    // The built-in modules that gained it kept their ids (the digest before the flag).
    expect(must(createRuleset({ game: 'classic', expansions: [kingRobber(), princessDragon()] })).id).toBe('classic+king-robber+princess-dragon#c154e5eb');
  });

  test('a flag that is not a boolean is refused by the module check', () => {
    const r = createRuleset({ game: 'classic', expansions: [{ ...bonus(undefined), finalScoringAddsOnly: 'yes' } as unknown as Expansion] });
    expect(r.ok).toBe(false);
  });
});
