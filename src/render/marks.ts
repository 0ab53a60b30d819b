/**
 * What the printed tiles show beyond their features: each module's symbols, keyed by tile id.
 * The rules know these tiles by id too (the same constants), so a picture and the rules cannot
 * disagree about which tile carries which symbol.
 */
import { DRAGON_TILES, PORTAL_TILES, PRINCESS_TILES, VOLCANO_TILES } from '../expansions/princess-dragon/tiles.js';
import { TOWER_TILES } from '../expansions/tower/tiles.js';

/** A symbol drawn in the middle of a tile: roads end there. */
export type CentreMark = 'volcano' | 'foundation';
/** A symbol drawn in free room on a tile. */
export type SpotMark = 'dragon' | 'portal';

/** The symbols of one tile kind. */
export interface TileMarks {
  /** A symbol in the middle (roads ending on the tile end at it). */
  readonly centre: CentreMark | null;
  /** Symbols in free room. */
  readonly spots: readonly SpotMark[];
  /** The city (local id) holding a princess. */
  readonly princess: string | null;
  /**
   * How features cross: `'tunnel'` (the road runs under the city: drawn beneath, with its
   * mouths), `'bridge'` (the road or the second city runs over the first on a bridge).
   */
  readonly crossing: 'tunnel' | 'bridge' | null;
}

const NONE: TileMarks = { centre: null, spots: [], princess: null, crossing: null };

const volcano = new Set(VOLCANO_TILES);
const dragon = new Set(DRAGON_TILES);
const portal = new Set(PORTAL_TILES);
const foundation = new Set(TOWER_TILES.map(([id]) => id));

/**
 * Crossings, from the tile tables' own notes: the Tower's bridge TO-08 (a road over a city), the
 * King and Robber Baron's KR-05 (two cities crossing on a bridge) and the Princess and the
 * Dragon's tunnel PD-15 (the road under the city).
 */
const CROSSINGS: Readonly<Record<string, 'tunnel' | 'bridge'>> = { 'TO-08': 'bridge', 'KR-05': 'bridge', 'PD-15': 'tunnel' };

/** The symbols printed on tile kind `id`. */
export function marksOf(id: string): TileMarks {
  const centre: CentreMark | null = volcano.has(id) ? 'volcano' : foundation.has(id) ? 'foundation' : null;
  const spots: SpotMark[] = [];
  if (dragon.has(id)) spots.push('dragon');
  if (portal.has(id)) spots.push('portal');
  const princess = Object.hasOwn(PRINCESS_TILES, id) ? PRINCESS_TILES[id]! : null;
  const crossing = CROSSINGS[id] ?? null;
  return centre === null && spots.length === 0 && princess === null && crossing === null ? NONE : { centre, spots, princess, crossing };
}
