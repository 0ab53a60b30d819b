/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for every
 * subset of three or more expansions, lighter per subset than the smaller subsets in
 * test/properties.test.ts (there are 42 of them); and the check that `createRuleset` accepts every
 * subset.
 */
import { expect, test } from 'vitest';
import { expansionSubsets, propertySuite } from './property-suite.js';

const subsets = expansionSubsets();
for (const { chosen, created } of subsets) {
  if (chosen.length >= 3 && created.ok) propertySuite(created.value, { runs: 0.08, games: 4, players: [2, 4] });
}

test('every subset of the expansions makes a ruleset (the River with the Count too: its spring is laid beside the City)', () => {
  const refused = subsets.flatMap(({ chosen, created }) => (created.ok ? [] : [`${chosen.join('+')}: ${created.error.code}`]));
  expect(refused).toEqual([]);
  expect(subsets.length).toBe(63);
});
