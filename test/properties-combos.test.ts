/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for every
 * subset of three or more expansions, lighter per subset than the smaller subsets in
 * test/properties.test.ts (there are 28 of them); and the check that the only subsets
 * `createRuleset` refuses are the declared conflicts.
 */
import { expect, test } from 'vitest';
import { expansionSubsets, propertySuite } from './property-suite.js';

const subsets = expansionSubsets();
for (const { chosen, created } of subsets) {
  if (chosen.length >= 3 && created.ok) propertySuite(created.value, { runs: 0.08, games: 4, players: [2, 4] });
}

test('the only subsets of expansions refused are those with a declared conflict (River with the Count)', () => {
  const refused = subsets.flatMap(({ chosen, created }) => (created.ok ? [] : [`${chosen.join('+')}: ${created.error.code}`]));
  const expected = subsets.flatMap(({ chosen }) => (chosen.includes('count') && chosen.includes('river') ? [`${chosen.join('+')}: options/conflicting-expansions`] : []));
  expect(refused).toEqual(expected);
  expect(refused.length).toBeGreaterThan(0);
});
