/**
 * The Castle's board and tile data: the plain JSON formats ({@link CastleLayoutData},
 * {@link CastleTileSetData}), their validation, and their compilation into what the engine uses
 * ({@link CastleLayout}, `TileDef`s). The real wall layout and tile list are not public (see
 * the known facts of The Castle's components), so the library ships a reconstruction and loads any
 * other data through these functions: exact data can replace it without a code change.
 *
 * Validation never throws, whatever the input: every failure is an `options/castle-layout` or
 * `options/castle-tiles` error naming the offending entry, with its JSON path.
 *
 * @example
 * ```ts
 * import { loadCastleLayout, loadCastleTiles } from './data.js';
 * import { RECONSTRUCTED_LAYOUT, RECONSTRUCTED_TILES } from './reconstruction.js';
 *
 * const layout = loadCastleLayout(RECONSTRUCTED_LAYOUT);
 * if (!layout.ok) throw new Error(layout.error.message);
 * console.log(layout.value.cellCount, layout.value.startTiles.length); // 76 7
 *
 * const bad = loadCastleTiles({ provenance: 'mine', tiles: [{ id: 'A', count: 60, spec: 'p:N1 h:N2,N3,E,S,W' }] });
 * if (!bad.ok) console.log(bad.error.message); // tile A: path p1 owns N1, off the edge's middle
 * ```
 */
export type { SideName, CastleEdge, CastleStartField, CastleLayoutData, CastleTileData, CastleTileSetData, CastleStartTile, CastleLayout } from './data-types.js';
export { loadCastleLayout, isInside } from './layout-data.js';
export { loadCastleTiles } from './tile-data.js';
