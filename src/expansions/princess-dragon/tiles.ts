/**
 * The Princess and the Dragon's 30 land tiles (29 kinds) and their symbols. Source: the project's
 * tile reference ("G. The Princess & the Dragon"; test/fixtures/classic-tiles.json, set
 * `princess_dragon`), checked port by port in test/princess-dragon.test.ts. The symbols are not
 * features: they are the sets below. The cloister inside a city (PD-10) is a cloister and a city
 * on one tile; the tunnel (PD-15) is one road running under one city, its two fields unbroken
 * ("Cesta nie je prerušená, horná a dolná lúka tiež nie").
 */
import { parseTileSpec, type TileDef } from '../../core/tiles.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';

/** The 30 tiles (ids as in the reference, PD-01 to PD-29; PD-11 twice), in the project's tile spec. */
export const PRINCESS_DRAGON_TILES: readonly (readonly [id: string, count: number, spec: string])[] = [
  // Volcanoes (6).
  ['PD-01', 1, 'f:N,E,S,W'],
  ['PD-02', 1, 'r:S2 f:N,E,S1,S3,W'],
  ['PD-03', 1, 'c:N f:E,S,W>c1'],
  ['PD-04', 1, 'r:S2,W2 f:N,E,S1,W3 f:S3,W1'],
  ['PD-05', 1, 'r:E2,W2 f:N,E1,W3 f:E3,S,W1'],
  ['PD-06', 1, 'c:E c:N f:S,W>c2,c1'],
  // Dragon symbols (12).
  ['PD-07', 1, 'c:N f:E,S,W>c1'],
  ['PD-08', 1, 'm r:E2 r:S2 r:W2 f:N,E1,W3 f:E3,S1 f:S3,W1'],
  ['PD-09', 1, 'r:E2 r:S2 r:W2 f:N,E1,W3 f:E3,S1 f:S3,W1'],
  // The cloister inside a city: a monk on m1 or a knight on c1, each scored on its own.
  ['PD-10', 1, 'm c:N,E,W f:S>c1'],
  ['PD-11', 2, 'r:S2,W2 f:N,E,S1,W3 f:S3,W1'],
  ['PD-12', 1, 'r:E2,W2 f:N,E1,W3 f:E3,S,W1'],
  ['PD-13', 1, 'c:N,W f:E,S>c1'],
  ['PD-14', 1, 'c+:E,W f:N>c1 f:S>c1'],
  // The tunnel: the road runs north-south under the city; each field keeps both its corners.
  ['PD-15', 1, 'c:E,W r:N2,S2 f:N1,N3>c1 f:S1,S3>c1'],
  ['PD-16', 1, 'r:S2,W2 c:N f:E,S1,W3>c1 f:S3,W1'],
  ['PD-17', 1, 'r:E2,S2 c:N f:E1,S3,W>c1 f:E3,S1'],
  // Magic portals (6).
  ['PD-18', 1, 'r:N2,W2 r:E2,S2 f:N1,W3 f:E3,S1 f:N3,E1,S3,W1'],
  ['PD-19', 1, 'r:E2 r:S2 r:W2 f:N,E1,W3 f:E3,S1 f:S3,W1'],
  ['PD-20', 1, 'c+:N,E,W f:S>c1'],
  ['PD-21', 1, 'r:E2,S2 c:N,W f:E1,S3>c1 f:E3,S1'],
  ['PD-22', 1, 'r:S2,W2 c:N f:E,S1,W3>c1 f:S3,W1'],
  ['PD-23', 1, 'r:E2,S2 c:N f:E1,S3,W>c1 f:E3,S1'],
  // Princesses (6): the princess is in city c1 on each.
  ['PD-24', 1, 'r:E2 r:S2 r:W2 c:N f:E1,W3>c1 f:S3,W1 f:E3,S1'],
  ['PD-25', 1, 'c:N c+:E,S f:W>c1 f>c1,c2'],
  ['PD-26', 1, 'c:N,E,W f:S>c1'],
  ['PD-27', 1, 'c:N,W f:E>c1 f:S>c1'],
  ['PD-28', 1, 'c:N,W f:E,S>c1'],
  ['PD-29', 1, 'r:E2,S2 c:N,W f:E1,S3>c1 f:E3,S1'],
];

/** The volcano tiles: the dragon lands there, and the placing player takes no action. */
export const VOLCANO_TILES: readonly string[] = ['PD-01', 'PD-02', 'PD-03', 'PD-04', 'PD-05', 'PD-06'];
/** The tiles with a dragon symbol: the dragon flies after the action. */
export const DRAGON_TILES: readonly string[] = ['PD-07', 'PD-08', 'PD-09', 'PD-10', 'PD-11', 'PD-12', 'PD-13', 'PD-14', 'PD-15', 'PD-16', 'PD-17'];
/** The magic portal tiles: the follower may go onto any tile's unoccupied, unfinished feature. */
export const PORTAL_TILES: readonly string[] = ['PD-18', 'PD-19', 'PD-20', 'PD-21', 'PD-22', 'PD-23'];
/** The princess tiles, each with the local id of the city the princess is in. */
export const PRINCESS_TILES: Readonly<Record<string, string>> = { 'PD-24': 'c1', 'PD-25': 'c1', 'PD-26': 'c1', 'PD-27': 'c1', 'PD-28': 'c1', 'PD-29': 'c1' };

/** The symbol a tile of the expansion shows (one at most). */
export type TileSymbol = 'volcano' | 'dragon' | 'portal' | 'princess';

/** The symbol of each tile kind id that shows one. */
export const TILE_SYMBOLS: ReadonlyMap<string, TileSymbol> = new Map<string, TileSymbol>([
  ...VOLCANO_TILES.map((id): [string, TileSymbol] => [id, 'volcano']),
  ...DRAGON_TILES.map((id): [string, TileSymbol] => [id, 'dragon']),
  ...PORTAL_TILES.map((id): [string, TileSymbol] => [id, 'portal']),
  ...Object.keys(PRINCESS_TILES).map((id): [string, TileSymbol] => [id, 'princess']),
]);

/** The tile definitions of {@link PRINCESS_DRAGON_TILES}. */
export function princessDragonTileDefs(): TileDef[] {
  return PRINCESS_DRAGON_TILES.map(([id, count, spec]) => parseTileSpec(id, count, spec, CLASSIC_KINDS));
}
