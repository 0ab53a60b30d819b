/**
 * The default data of Carcassonne: The Castle: a RECONSTRUCTED wall layout and tile set. The
 * real ones exist only as pictures on the physical game; no public text gives them (see
 * the known facts of The Castle components). Both objects say so in `provenance` and `notes`,
 * and any other data in the same format can replace them (`createRuleset({ game: castle({
 * layout, tiles }) })`). test/castle-data.test.ts checks every known fact below.
 *
 * @example
 * ```ts
 * import { loadCastleLayout, loadCastleTiles } from './data.js';
 * import { RECONSTRUCTED_LAYOUT, RECONSTRUCTED_TILES } from './reconstruction.js';
 *
 * console.log(RECONSTRUCTED_LAYOUT.provenance, RECONSTRUCTED_TILES.provenance); // reconstructed reconstructed
 * console.log(loadCastleLayout(RECONSTRUCTED_LAYOUT).ok, loadCastleTiles(RECONSTRUCTED_TILES).ok); // true true
 * ```
 */
import type { CastleLayoutData, CastleTileSetData } from './data.js';

/**
 * The reconstructed wall: a 9x10 grid with four notches, 76 cells (`#`), 40 boundary edges and
 * 14 bends, one wall tower at each bend. Drawn with a ring of outside cells, x from -1 to 9 and
 * y from -1 to 10; a letter marks the outside cell where a start field's virtual tile lies:
 *
 * ```text
 * .....P.....   P road gate (north side of 4,0)
 * ...######..
 * ...######C.   C court (east side of 7,1)
 * .########..
 * .#########.
 * ..########.
 * .R########T   R road between two courts (west side of 1,5); T tower part (east side of 8,5)
 * ..########.
 * .#########.
 * H#######.B.   H house part (west side of 0,8); B house and tower parts (south side of 8,7)
 * .#######...
 * ....M......   M court with a market (south side of 3,9)
 * ```
 *
 * The track runs clockwise, space 0 beside the west side of 2,0 and space 1 on its north side
 * (tower 0/1 at that corner); tower 12/13 stands at the north-east corner (7,0), 33/34 at the
 * south-east corner of cell 8,7, and 11 more at the other bends. Wall pieces start at spaces 0, 10,
 * 19, 28, 38, 48, 59, 70, 81 and 92 (so they meet between 27/28, 47/48, 69/70 and 91/92), and
 * no joint splits a tower.
 */
export const RECONSTRUCTED_LAYOUT: CastleLayoutData = {
  provenance: 'reconstructed',
  notes:
    'RECONSTRUCTION, not the printed wall: the real layout of Carcassonne: The Castle is not public. ' +
    'It satisfies every known fact about the components: 76 play-area cells in an ' +
    'irregular right-angled shape (not a rectangle) inside one closed wall; a track of 100 spaces 0..99 ' +
    'running once round the wall; 14 wall towers of two consecutive spaces standing at bends of the wall, ' +
    'among them 0/1, 12/13 and 33/34 (the one holding 33); 10 wall pieces meeting between 27/28, 47/48, ' +
    '69/70 and 91/92 (and elsewhere); 7 start fields, each one cell edge wide, showing a road (two), a ' +
    'tower part, a house part, a court and a court with a market. Everything else (the exact shape, which ' +
    'edges carry start fields, the other towers and piece joints) is invented.',
  area: [
    '..######.',
    '..######.',
    '########.',
    '#########',
    '.########',
    '.########',
    '.########',
    '#########',
    '#######..',
    '#######..',
  ],
  startFields: [
    { x: 4, y: 0, side: 'N', spec: 'p:N2' }, // a gate: a road leaving the wall
    { x: 7, y: 1, side: 'E', spec: 'c:E' }, // a court
    { x: 8, y: 5, side: 'E', spec: 't:E' }, // a tower part
    { x: 8, y: 7, side: 'S', spec: 'h:S1,S2 t:S3' }, // a house part and a tower part, border mid-edge
    { x: 3, y: 9, side: 'S', spec: 'c+:S' }, // a court with a market
    { x: 0, y: 8, side: 'W', spec: 'h:W' }, // a house part
    { x: 1, y: 5, side: 'W', spec: 'c:W1 p:W2 c:W3' }, // a road between two courts
  ],
  track: [
    { x: 2, y: 0, side: 'W' }, { x: 2, y: 0, side: 'N' }, { x: 2, y: 0, side: 'N' }, { x: 3, y: 0, side: 'N' }, // 0..3
    { x: 3, y: 0, side: 'N' }, { x: 4, y: 0, side: 'N' }, { x: 4, y: 0, side: 'N' }, { x: 5, y: 0, side: 'N' }, // 4..7
    { x: 5, y: 0, side: 'N' }, { x: 6, y: 0, side: 'N' }, { x: 6, y: 0, side: 'N' }, { x: 7, y: 0, side: 'N' }, // 8..11
    { x: 7, y: 0, side: 'N' }, { x: 7, y: 0, side: 'E' }, { x: 7, y: 0, side: 'E' }, { x: 7, y: 0, side: 'E' }, // 12..15
    { x: 7, y: 1, side: 'E' }, { x: 7, y: 1, side: 'E' }, { x: 7, y: 2, side: 'E' }, { x: 7, y: 2, side: 'E' }, // 16..19
    { x: 8, y: 3, side: 'N' }, { x: 8, y: 3, side: 'N' }, { x: 8, y: 3, side: 'E' }, { x: 8, y: 3, side: 'E' }, // 20..23
    { x: 8, y: 3, side: 'E' }, { x: 8, y: 4, side: 'E' }, { x: 8, y: 4, side: 'E' }, { x: 8, y: 5, side: 'E' }, // 24..27
    { x: 8, y: 5, side: 'E' }, { x: 8, y: 5, side: 'E' }, { x: 8, y: 6, side: 'E' }, { x: 8, y: 6, side: 'E' }, // 28..31
    { x: 8, y: 7, side: 'E' }, { x: 8, y: 7, side: 'E' }, { x: 8, y: 7, side: 'S' }, { x: 8, y: 7, side: 'S' }, // 32..35
    { x: 8, y: 7, side: 'S' }, { x: 7, y: 7, side: 'S' }, { x: 7, y: 7, side: 'S' }, { x: 7, y: 7, side: 'S' }, // 36..39
    { x: 6, y: 8, side: 'E' }, { x: 6, y: 8, side: 'E' }, { x: 6, y: 8, side: 'E' }, { x: 6, y: 9, side: 'E' }, // 40..43
    { x: 6, y: 9, side: 'E' }, { x: 6, y: 9, side: 'S' }, { x: 6, y: 9, side: 'S' }, { x: 6, y: 9, side: 'S' }, // 44..47
    { x: 5, y: 9, side: 'S' }, { x: 5, y: 9, side: 'S' }, { x: 5, y: 9, side: 'S' }, { x: 4, y: 9, side: 'S' }, // 48..51
    { x: 4, y: 9, side: 'S' }, { x: 3, y: 9, side: 'S' }, { x: 3, y: 9, side: 'S' }, { x: 3, y: 9, side: 'S' }, // 52..55
    { x: 2, y: 9, side: 'S' }, { x: 2, y: 9, side: 'S' }, { x: 1, y: 9, side: 'S' }, { x: 1, y: 9, side: 'S' }, // 56..59
    { x: 1, y: 9, side: 'S' }, { x: 0, y: 9, side: 'S' }, { x: 0, y: 9, side: 'S' }, { x: 0, y: 9, side: 'W' }, // 60..63
    { x: 0, y: 9, side: 'W' }, { x: 0, y: 9, side: 'W' }, { x: 0, y: 8, side: 'W' }, { x: 0, y: 8, side: 'W' }, // 64..67
    { x: 0, y: 8, side: 'W' }, { x: 0, y: 7, side: 'W' }, { x: 0, y: 7, side: 'W' }, { x: 0, y: 7, side: 'N' }, // 68..71
    { x: 0, y: 7, side: 'N' }, { x: 0, y: 7, side: 'N' }, { x: 1, y: 6, side: 'W' }, { x: 1, y: 6, side: 'W' }, // 72..75
    { x: 1, y: 6, side: 'W' }, { x: 1, y: 5, side: 'W' }, { x: 1, y: 5, side: 'W' }, { x: 1, y: 5, side: 'W' }, // 76..79
    { x: 1, y: 4, side: 'W' }, { x: 1, y: 4, side: 'W' }, { x: 0, y: 3, side: 'S' }, { x: 0, y: 3, side: 'S' }, // 80..83
    { x: 0, y: 3, side: 'S' }, { x: 0, y: 3, side: 'W' }, { x: 0, y: 3, side: 'W' }, { x: 0, y: 3, side: 'W' }, // 84..87
    { x: 0, y: 2, side: 'W' }, { x: 0, y: 2, side: 'W' }, { x: 0, y: 2, side: 'N' }, { x: 0, y: 2, side: 'N' }, // 88..91
    { x: 0, y: 2, side: 'N' }, { x: 1, y: 2, side: 'N' }, { x: 1, y: 2, side: 'N' }, { x: 2, y: 1, side: 'W' }, // 92..95
    { x: 2, y: 1, side: 'W' }, { x: 2, y: 1, side: 'W' }, { x: 2, y: 0, side: 'W' }, { x: 2, y: 0, side: 'W' }, // 96..99
  ],
  towers: [
    [0, 1],
    [12, 13],
    [19, 20],
    [21, 22],
    [33, 34],
    [39, 40],
    [44, 45],
    [62, 63],
    [70, 71],
    [73, 74],
    [81, 82],
    [84, 85],
    [89, 90],
    [94, 95],
  ],
  pieces: [0, 10, 19, 28, 38, 48, 59, 70, 81, 92],
};

/**
 * The reconstructed 60 tiles (46 kinds). Codes: `p` path (`p+` with a well), `t` tower, `h`
 * house, `c` court (`c+` with a market); ports N1 N2 N3 E1 E2 E3 S1 S2 S3 W1 W2 W3 clockwise
 * from the north-west corner, a bare side letter meaning its three ports. Several single-port
 * paths on one tile meet at a square, which ends each of them; one path owning several middle
 * ports is a branch or crossing without a square; a lone single-port path ends in a building.
 */
export const RECONSTRUCTED_TILES: CastleTileSetData = {
  provenance: 'reconstructed',
  notes:
    'RECONSTRUCTION, not the printed tiles: the 60-tile composition of Carcassonne: The Castle is not public. ' +
    'It satisfies every known fact about the components: 60 tiles carrying paths, ' +
    'towers, houses and courts, every type common; paths only on the middle of an edge; squares ending the ' +
    'paths that touch them (with 2, 3 and 4 arms); wells on paths (8 tiles); markets in courts (10 tiles, ' +
    'at least the 5 a rulebook example shows); branches and a crossing without a square; paths ending in a ' +
    'building on the same tile; feature borders in the middle of an edge; tiles without any path. The ' +
    'kinds and counts are invented.',
  tiles: [
    // No path: buildings and courts only.
    { id: 'K01', count: 1, spec: 't:N,E,S,W' },
    { id: 'K02', count: 1, spec: 'h:N,E,S,W' },
    { id: 'K03', count: 1, spec: 'c+:N,E,S,W' },
    { id: 'K04', count: 2, spec: 't:N h:E,S,W' },
    { id: 'K05', count: 3, spec: 'h:N c:E,S,W' },
    { id: 'K06', count: 2, spec: 't:N,E c:S,W' },
    { id: 'K07', count: 1, spec: 't:N1,N2 h:N3,E c:S,W' },
    { id: 'K08', count: 2, spec: 'h:N,W t:E,S' },
    { id: 'K09', count: 1, spec: 't:N c+:E,S,W' },
    { id: 'K10', count: 1, spec: 'h:N c:E,W t:S' },
    { id: 'K11', count: 1, spec: 't:W,N1,N2 h:N3,E1,E2 c:E3,S' },
    { id: 'K12', count: 1, spec: 'h:N,E,S t:W' },
    { id: 'K13', count: 1, spec: 'h:N,E1,E2 c:E3,S,W' },
    { id: 'K14', count: 1, spec: 't:N,E1 h:E2,E3,S1,S2 c:S3,W' },
    { id: 'K15', count: 1, spec: 'h:N,E c:S,W' },
    { id: 'K16', count: 1, spec: 't:N,E,S1,S2 c:S3,W' },
    // Straight paths.
    { id: 'K17', count: 2, spec: 'p:N2,S2 t:N3,E,S1 h:S3,W,N1' },
    { id: 'K18', count: 2, spec: 'p:N2,S2 c:N3,E,S1 h:S3,W,N1' },
    { id: 'K19', count: 1, spec: 'p+:N2,S2 c+:N3,E,S1 c:S3,W,N1' },
    { id: 'K20', count: 1, spec: 'p:N2,S2 t:N3,E1,E2 c:E3,S1 h:S3,W,N1' },
    { id: 'K21', count: 1, spec: 'p:E2,W2 c:W3,N,E1 c:E3,S,W1' },
    { id: 'K22', count: 1, spec: 'p:E2,W2 c:W3,N,E1 t:E3,S,W1' },
    { id: 'K23', count: 1, spec: 'p+:N2,S2 h:N3,E,S1 t:S3,W,N1' },
    { id: 'K24', count: 2, spec: 'p:N2,S2 t:N3,E,S1 t:S3,W,N1' },
    // Curves.
    { id: 'K25', count: 2, spec: 'p:S2,W2 h:S3,W1 t:W3,N,E,S1' },
    { id: 'K26', count: 2, spec: 'p:S2,W2 c:S3,W1 h:W3,N,E,S1' },
    { id: 'K27', count: 1, spec: 'p+:S2,W2 c:S3,W1 t:W3,N,E1,E2 c+:E3,S1' },
    { id: 'K28', count: 1, spec: 'p:S2,W2 t:S3,W1 c:W3,N,E,S1' },
    { id: 'K29', count: 2, spec: 'p:N2,E2 t:N3,E1 h:E3,S,W,N1' },
    { id: 'K30', count: 1, spec: 'p:S2,W2 h:S3,W1 h:W3,N,E,S1' },
    { id: 'K31', count: 1, spec: 'p+:N2,E2 c:N3,E1 t:E3,S,W,N1' },
    { id: 'K32', count: 1, spec: 'p+:E2,S2 c+:E3,S1 h:S3,W,N,E1' },
    // Branches and a crossing without a square.
    { id: 'K33', count: 1, spec: 'p:E2,S2,W2 h:W3,N,E1 c:E3,S1 t:S3,W1' },
    { id: 'K34', count: 1, spec: 'p+:E2,S2,W2 t:W3,N,E1 c+:E3,S1 c:S3,W1' },
    { id: 'K35', count: 1, spec: 'p:N2,E2,S2,W2 t:N3,E1 h:E3,S1 t:S3,W1 c:W3,N1' },
    // Squares: each arm is a path of its own.
    { id: 'K36', count: 2, spec: 'p:E2 p:S2 p:W2 h:W3,N,E1 c:E3,S1 t:S3,W1' },
    { id: 'K37', count: 1, spec: 'p:E2 p:S2 p:W2 t:W3,N,E1 h:E3,S1 c+:S3,W1' },
    { id: 'K38', count: 1, spec: 'p:N2 p:E2 p:S2 p:W2 h:N3,E1 c+:E3,S1 t:S3,W1 c:W3,N1' },
    { id: 'K39', count: 1, spec: 'p+:N2 p:E2 p:S2 p:W2 c:N3,E1 h:E3,S1 c:S3,W1 t:W3,N1' },
    { id: 'K40', count: 1, spec: 'p:N2 p:S2 c+:N3,E,S1 h:S3,W,N1' },
    { id: 'K41', count: 1, spec: 'p:S2 p:W2 t:S3,W1 c:W3,N,E,S1' },
    // Paths ending in a building on the tile.
    { id: 'K42', count: 2, spec: 'p:S2 h:S3,W,N,E,S1' },
    { id: 'K43', count: 2, spec: 'p:S2 t:S3,W,N1,N2 h:N3,E,S1' },
    { id: 'K44', count: 1, spec: 'p+:S2 t:S3,W,N,E,S1' },
    { id: 'K45', count: 1, spec: 'p:S2 c:S3,W1 t:W2,W3,N,E1 c+:E2,E3,S1' },
    { id: 'K46', count: 1, spec: 'p:N2 p:S2 h:N3,E,S1,S3,W,N1' },
  ],
};
