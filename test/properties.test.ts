/**
 * Random-simulation properties (style.md, point 12; the suite is test/property-suite.ts) for the
 * classic ruleset and The Castle in full. Every subset of one or two expansions runs in
 * test/properties-small-subsets.test.ts, the larger subsets in test/properties-combos.test.ts and
 * test/properties-combos-second-half.test.ts, lighter per subset: several files, so that the
 * full tier's two test workers share them evenly.
 */
import { createRuleset } from '../src/index.js';
import { classicRules } from './helpers.js';
import { propertySuite } from './property-suite.js';
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
