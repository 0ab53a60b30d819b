import type { Ruleset } from '../ruleset.js';
import type { TileDef } from '../tiles.js';

/**
 * The tile kinds of a ruleset, in catalogue order (the order of `GameState.bag`), with their
 * features as printed (north up). For rendering tiles and naming deploy targets: a deploy move's
 * `feature` is one of these local ids (`c1`, `r1`, `f1`, `m1`). On the board a tile turned
 * `rotation` quarter turns has its printed port `PORTS[i]` at `PORTS[(i + 3 * rotation) % 12]`.
 *
 * @example
 * ```ts
 * import { createRuleset, tileDefs } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const d = tileDefs(rules.value).find((t) => t.id === 'D')!;
 * console.log(d.features.map((f) => `${f.id}=${f.kind}`).join(' ')); // r1=road c1=city f1=field f2=field
 * ```
 */
export function tileDefs(rules: Ruleset): readonly TileDef[] {
  return rules.tiles.map((t) => t.def);
}
