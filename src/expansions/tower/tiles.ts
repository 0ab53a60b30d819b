/**
 * The Tower's 18 land tiles (17 kinds), each with one tower foundation. Source: the project's tile
 * reference ("F. The Tower" of the classic tile reference; test/fixtures/classic-tiles.json, set `tower`),
 * checked port by port in test/tower.test.ts. The foundation itself is not a feature: where it
 * splits roads and fields, the split is in the features (the roads of TO-04, TO-05, TO-07 and
 * TO-09 end at it; TO-08's road runs on over the city on a bridge: "Na kartě s mostem cesta
 * nekončí, pokračuje přes město dále").
 */
import { parseTileSpec, type TileDef } from '../../core/tiles.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';

/** The 18 tiles (ids as in the reference, TO-01 to TO-17), in the project's tile spec (`parseTileSpec`). */
export const TOWER_TILES: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['TO-01', 2, 'c:N f:E,S,W>c1'],
  ['TO-02', 1, 'f:N,E,S,W'],
  ['TO-03', 1, 'm f:N,E,S,W'],
  // Roads from the west and the south both end at the foundation.
  ['TO-04', 1, 'r:W2 r:S2 f:N,E,S1,W3 f:S3,W1'],
  ['TO-05', 1, 'r:W2 r:N2 r:E2 f:N1,W3 f:N3,E1 f:E3,S,W1'],
  ['TO-06', 1, 'r:N2,W2 r:E2,S2 f:N1,W3 f:E3,S1 f:N3,E1,S3,W1'],
  ['TO-07', 1, 'r:N2 r:E2 r:S2 r:W2 f:N1,W3 f:N3,E1 f:E3,S1 f:S3,W1'],
  // The bridge: one road north-south over one city west-east; four small fields.
  ['TO-08', 1, 'r:N2,S2 c:E,W f:N1>c1 f:N3>c1 f:S1>c1 f:S3>c1'],
  ['TO-09', 1, 'c:N r:S2 f:S3,W>c1 f:E,S1>c1'],
  ['TO-10', 1, 'r:S2,W2 c:N f:E,S1,W3>c1 f:S3,W1'],
  // The city's wall bulges down to the road: the strip north of it is two fields.
  ['TO-11', 1, 'c:N r:E2,W2 f:W3>c1 f:E1>c1 f:E3,S,W1'],
  ['TO-12', 1, 'c:N,W f:E,S>c1'],
  ['TO-13', 1, 'r:E2 c:N,W f:E1>c1 f:E3>c1 f:S>c1'],
  ['TO-14', 1, 'c:N c:W f:E,S>c1,c2'],
  ['TO-15', 1, 'r:E2,W2 c:N c:S f:E1,W3>c1 f:E3,W1>c2'],
  ['TO-16', 1, 'r:S2 c:N,E,W f:S1>c1 f:S3>c1'],
  // A small inner meadow between the two cities touches no edge.
  ['TO-17', 1, 'c+:N,E,W c:S f>c1,c2'],
];

/** The tile definitions of {@link TOWER_TILES}. */
export function towerTileDefs(): TileDef[] {
  return TOWER_TILES.map(([id, count, spec]) => parseTileSpec(id, count, spec, CLASSIC_KINDS));
}
