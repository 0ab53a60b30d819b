/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for every
 * subset of three or more expansions, lighter per subset than the smaller subsets in
 * test/properties.test.ts (there are 42 of them); and the check that `createRuleset` accepts every
 * subset.
 */
import { expect, test } from 'vitest';
import { byDepth, FULL } from './depth.js';
import { expansionSubsets, propertySuite } from './property-suite.js';

const subsets = expansionSubsets();
// The fast tier (test/depth.ts): only all six expansions together, where every module meets every other.
for (const { chosen, created } of subsets) {
  if (chosen.length < 3 || !created.ok || (!FULL && chosen.length < subsets.at(-1)!.chosen.length)) continue;
  propertySuite(created.value, byDepth({ runs: 0.08, games: 4, players: [2, 4] }, { runs: 0.05, games: 1, players: [2, 4] }));
}

test('every subset of the expansions makes a ruleset (the River with the Count too: its spring is laid beside the City)', () => {
  const refused = subsets.flatMap(({ chosen, created }) => (created.ok ? [] : [`${chosen.join('+')}: ${created.error.code}`]));
  expect(refused).toEqual([]);
  expect(subsets.length).toBe(63);
});
