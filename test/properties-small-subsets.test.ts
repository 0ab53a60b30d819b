/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for every
 * subset of one or two expansions (the fast tier, test/depth.ts: each expansion alone). Split from
 * test/properties.test.ts so that the full tier's two test workers share the work evenly.
 */
import { expansionSubsets, propertySuite } from './property-suite.js';
import { byDepth } from './depth.js';

// Each expansion alone and every pair (where two modules meet), lighter per subset: the whole suite,
// complete games included; the fast tier each expansion alone, at the fewest runs. That no subset
// is refused is checked in test/properties-combos.test.ts.
for (const { chosen, created } of expansionSubsets()) {
  if (chosen.length > byDepth(2, 1) || !created.ok) continue;
  propertySuite(created.value, byDepth({ runs: 0.2, games: 16, players: [2, 4] }, { runs: 0.05, games: 1, players: [2, 4] }));
}
