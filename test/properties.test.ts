/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for the
 * classic ruleset and The Castle in full, and for every subset of one or two expansions. The larger
 * subsets run in test/properties-combos.test.ts, lighter per subset.
 */
import { createRuleset } from '../src/index.js';
import { classicRules } from './helpers.js';
import { expansionSubsets, propertySuite } from './property-suite.js';
import { castle as castleModule } from '../src/games/castle/entry.js';
import { byDepth } from './depth.js';

// Classic alone, in full: 200 complete games for each player count (issue: foundation); the fast
// tier (test/depth.ts) a twentieth of the runs and 2 games.
propertySuite(classicRules(), byDepth({ runs: 1, games: 200, players: [2, 3, 4, 5] }, { runs: 0.05, games: 2, players: [2, 3, 4, 5] }));

// The Castle (two players only), in full: 200 complete games (issue: The Castle).
{
  const castle = createRuleset({ game: castleModule() });
  if (!castle.ok) throw new Error(castle.error.message);
  propertySuite(castle.value, byDepth({ runs: 1, games: 200, players: [2] }, { runs: 0.05, games: 2, players: [2] }));
}

// Each expansion alone and every pair (where two modules meet), lighter per subset: the whole suite,
// complete games included; the fast tier each expansion alone, at the fewest runs. That no subset
// is refused is checked in test/properties-combos.test.ts.
for (const { chosen, created } of expansionSubsets()) {
  if (chosen.length > byDepth(2, 1) || !created.ok) continue;
  propertySuite(created.value, byDepth({ runs: 0.2, games: 16, players: [2, 4] }, { runs: 0.05, games: 1, players: [2, 4] }));
}
