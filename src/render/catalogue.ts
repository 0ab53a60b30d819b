/**
 * Tile pictures per ruleset: the layout of each tile kind, worked out once and kept while the
 * ruleset lives, and the shared `<defs>` block that boards refer to.
 */
import type { Ruleset } from '../core/ruleset.js';
import { tileArt, type TileArt } from './art.js';
import type { Palette } from './palette.js';
import { safeId } from './svg.js';
import { tileShapes } from './tile.js';

const cache = new WeakMap<Ruleset, Map<string, TileArt>>();

/** The picture layout of tile kind `id` (which the ruleset must know). */
export function artOf(rules: Ruleset, id: string): TileArt {
  let byId = cache.get(rules);
  if (byId === undefined) {
    byId = new Map();
    cache.set(rules, byId);
  }
  let art = byId.get(id);
  if (art === undefined) {
    const tile = rules.tileById.get(id)!;
    art = tileArt(
      tile.def,
      tile.kinds.map((k) => rules.kinds[k]!),
    );
    byId.set(id, art);
  }
  return art;
}

/** The id of a tile kind's picture in a `<defs>` block. */
export function symbolId(tileId: string): string {
  return `mk-tile-${safeId(tileId)}`;
}

/** `<g id=...>` definitions of the given tile kinds' shapes (their symbols are drawn upright by each board), in the order given. */
export function tileDefs(rules: Ruleset, ids: readonly string[], palette: Palette): string {
  return ids.map((id) => `<g id="${symbolId(id)}">${tileShapes(artOf(rules, id), palette)}</g>`).join('');
}

/** Every tile kind a ruleset can show: its catalogue, then its start tiles not in it, in order. */
export function allTileIds(rules: Ruleset): string[] {
  const ids = rules.tiles.map((t) => t.def.id);
  for (const id of rules.tileById.keys()) if (!ids.includes(id)) ids.push(id);
  return ids;
}
