/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for every
 * subset of three or more expansions, lighter per subset than the smaller subsets in
 * test/properties.test.ts (there are 42 of them): the first half here, the second in
 * test/properties-combos-second-half.test.ts, so that two test workers share them (one file took
 * 11 minutes of the full tier's 12 alone); and the check that `createRuleset` accepts every subset.
 */
import { expect, test } from 'vitest';
import { expansionSubsets, largeSubsetSuites } from './property-suite.js';

largeSubsetSuites(0);

test('every subset of the expansions makes a ruleset (the River with the Count too: its spring is laid beside the City)', () => {
  const subsets = expansionSubsets();
  const refused = subsets.flatMap(({ chosen, created }) => (created.ok ? [] : [`${chosen.join('+')}: ${created.error.code}`]));
  expect(refused).toEqual([]);
  expect(subsets.length).toBe(63);
});
