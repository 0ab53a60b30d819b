/**
 * The 72 tiles of the classic base game (2nd edition), in the project's compact tile spec
 * (see `parseTileSpec`): features separated by spaces, `code[+pennant][:ports][>adjacent cities]`.
 * Codes: c city, r road, f field, m cloister. Ports clockwise from the north-west corner,
 * a bare side letter meaning its three ports. Source: test/fixtures/classic-tiles.json
 * (base set); test/classic-tiles.test.ts checks this table against it port by port.
 */
export const CLASSIC_BASE_TILES: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['A', 2, 'm r:S2 f:N,E,S1,S3,W'],
  ['B', 4, 'm f:N,E,S,W'],
  ['C', 1, 'c+:N,E,S,W'],
  ['D', 4, 'r:E2,W2 c:N f:E1,W3>c1 f:E3,S,W1'], // one of the four is the start tile
  ['E', 5, 'c:N f:E,S,W>c1'],
  ['F', 2, 'c+:E,W f:N>c1 f:S>c1'],
  ['G', 1, 'c:E,W f:N>c1 f:S>c1'],
  ['H', 3, 'c:N c:S f:E,W>c1,c2'],
  ['I', 2, 'c:N c:W f:E,S>c1,c2'],
  ['J', 3, 'r:E2,S2 c:N f:E1,S3,W>c1 f:E3,S1'],
  ['K', 3, 'r:S2,W2 c:N f:E,S1,W3>c1 f:S3,W1'],
  ['L', 3, 'r:E2 r:S2 r:W2 c:N f:E1,W3>c1 f:S3,W1 f:E3,S1'],
  ['M', 2, 'c+:N,W f:E,S>c1'],
  ['N', 3, 'c:N,W f:E,S>c1'],
  ['O', 2, 'r:E2,S2 c+:N,W f:E1,S3>c1 f:E3,S1'],
  ['P', 3, 'r:E2,S2 c:N,W f:E1,S3>c1 f:E3,S1'],
  ['Q', 1, 'c+:N,E,W f:S>c1'],
  ['R', 3, 'c:N,E,W f:S>c1'],
  ['S', 2, 'r:S2 c+:N,E,W f:S1>c1 f:S3>c1'],
  ['T', 1, 'r:S2 c:N,E,W f:S1>c1 f:S3>c1'],
  ['U', 8, 'r:E2,W2 f:N,E1,W3 f:E3,S,W1'],
  ['V', 9, 'r:S2,W2 f:N,E,S1,W3 f:S3,W1'],
  ['W', 4, 'r:E2 r:S2 r:W2 f:N,E1,W3 f:E3,S1 f:S3,W1'],
  ['X', 1, 'r:N2 r:E2 r:S2 r:W2 f:N1,W3 f:N3,E1 f:E3,S1 f:S3,W1'],
];
