import type { Ruleset } from '../ruleset.js';
import type { TileDef } from '../tiles.js';

/**
 * The tile kinds of a ruleset, in catalogue order (the order of `GameState.bag`), with their
 * features as printed (north up). For rendering tiles and naming deploy targets.
 */
export function tileDefs(rules: Ruleset): readonly TileDef[] {
  return rules.tiles.map((t) => t.def);
}
