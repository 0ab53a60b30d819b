/**
 * The City of Carcassonne as tile data: 12 squares CO1..CO12 laid at x 0..3, y 0..2, unturned.
 * Source: the tile reference section "E. The Count of Carcassonne" and
 * classic-tiles.json `count_board`; test/count.test.ts checks every rim port against it.
 */
import type { FeatureKindDef } from '../../core/tiles.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';

/**
 * The inside of the City of Carcassonne: one feature spanning all 12 squares, made of every port
 * on an edge between two squares (code `k`). Those edges face each other from the start, so the
 * feature is complete once the City lies and no tile ever touches it; no follower may stand on
 * it. It scores as a `city`: the fields along the rim list it as an adjacent city (a farm
 * touching the City counts it as one completed city) and the King counts it among the completed
 * cities. It demands nothing of a neighbour (edge class -1, a wall), though no square shows it
 * on the rim.
 */
export const CARCASSONNE_KIND: FeatureKindDef = {
  name: 'carcassonne',
  code: 'k',
  completion: 'ports',
  tracksTiles: false,
  edgeClass: -1,
  scoring: 'city',
};

/** The feature kinds the City's squares are written in: the classic ones and {@link CARCASSONNE_KIND}. */
export const COUNT_TILE_KINDS: readonly FeatureKindDef[] = [...CLASSIC_KINDS, CARCASSONNE_KIND];

/**
 * One square of the City: its reference id, its cell (x grows east, y grows south) and its
 * features in the project's compact tile spec (see `parseTileSpec`; `k` is the City's inside).
 */
export type CitySquare = readonly [id: string, x: number, y: number, spec: string];

/**
 * The 12 squares. On the rim they show exactly the reference's ports: the fields FN (north strip),
 * FE (east strip, round the city cap CE) and FW (west and south strip, round the city cap CS),
 * the road stubs RN, RW and RS (each ending at the wall on its own square) and the two small
 * city caps CS and CE. A rim field reaches the neighbouring square through the corner port at
 * the rim end of an inner edge (CO1 E1 meets CO2 W3, and so on), so each strip is one field, as
 * the reference says; every other port of an inner edge belongs to the City's inside (`k`),
 * which every rim field touches (`>k1`).
 */
export const CITY_SQUARES: readonly CitySquare[] = [
  // Row y = 0: the north strip FN along the top; RW leaves CO1 to the west, RN leaves CO4 to the north.
  ['CO1', 0, 0, 'f:N,W3,E1>k1 r:W2 f:W1,S3>k1 k:E2,E3,S1,S2'],
  ['CO2', 1, 0, 'f:N,W3,E1>k1 k:E2,E3,S,W1,W2'],
  ['CO3', 2, 0, 'f:N,W3,E1>k1 k:E2,E3,S,W1,W2'],
  ['CO4', 3, 0, 'f:N1,W3>k1 r:N2 f:N3,E,S1>k1 k:S2,S3,W1,W2'],
  // Row y = 1: FW along the west side, FE along the east side; CO6 and CO7 are all inside.
  ['CO5', 0, 1, 'f:N1,W,S3>k1 k:N2,N3,E,S1,S2'],
  ['CO6', 1, 1, 'k:N,E,S,W'],
  ['CO7', 2, 1, 'k:N,E,S,W'],
  ['CO8', 3, 1, 'f:N3,E,S1>k1 k:N1,N2,S2,S3,W'],
  // Row y = 2: the city cap CS facing south on CO9, RS leaving CO11 to the south, the city cap CE
  // facing east on CO12; FW and FE pass inside the caps.
  ['CO9', 0, 2, 'c:S f:N1,W,E3>c1,k1 k:N2,N3,E1,E2'],
  ['CO10', 1, 2, 'f:S,W1,E3>k1 k:N,E1,E2,W2,W3'],
  ['CO11', 2, 2, 'f:S3,W1>k1 r:S2 f:S1,E3>k1 k:N,E1,E2,W2,W3'],
  ['CO12', 3, 2, 'c:E f:N3,S,W1>c1,k1 k:N1,N2,W2,W3'],
];

/** One of the four quarters of the City of Carcassonne. */
export type Quarter = 'castle' | 'market' | 'blacksmith' | 'cathedral';

/**
 * The quarters in clockwise order round the City, as the 2nd-edition rules number them (1 castle,
 * 2 market, 3 blacksmith, 4 cathedral) and as the C2 boards show them (castle CO3, market CO8,
 * blacksmith CO10, cathedral CO2). The `'clockwise'` variant moves the Count along this order;
 * moves and action ids list quarters in it.
 */
export const QUARTERS: readonly Quarter[] = ['castle', 'market', 'blacksmith', 'cathedral'];
