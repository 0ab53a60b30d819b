/**
 * Validating and compiling a tile set ({@link CastleTileSetData}) into tile definitions.
 */
import { showValue, type MeepleError } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { parseTileSpec, type TileDef } from '../../core/tiles.js';
import { PORTS } from '../../core/types.js';
import { CASTLE_KINDS } from './kinds.js';
import type { CastleTileSetData } from './data-types.js';
import { TILES, field, isRecord, at, isInt, freezeDeep, type Failure, fail, guarded, readSpec } from './data-read.js';

/** Validates and compiles a tile set; returns a Failure on the first problem. */
function compileTiles(data: unknown): readonly TileDef[] | Failure {
  const root = 'tileSet';
  if (!isRecord(data)) return fail(root, `the tile set must be an object { provenance, tiles }, got ${showValue(data)}`);
  const provenance = field(data, 'provenance');
  if (typeof provenance !== 'string' || provenance === '') {
    return fail(`${root}.provenance`, `tileSet.provenance must be a non-empty string ('reconstructed', 'official'), got ${showValue(provenance)}`);
  }
  const notes = field(data, 'notes');
  if (notes !== undefined && typeof notes !== 'string') return fail(`${root}.notes`, `tileSet.notes must be a string, got ${showValue(notes)}`);
  const tiles = field(data, 'tiles');
  if (!Array.isArray(tiles)) return fail(`${root}.tiles`, `tileSet.tiles must be an array of { id, count, spec }, got ${showValue(tiles)}`);
  // Every entry has at least one copy, so more than 60 entries is already too many tiles.
  if (tiles.length === 0 || tiles.length > TILES) {
    return fail(`${root}.tiles`, `tileSet.tiles has ${tiles.length} entries: The Castle has ${TILES} tiles, in 1 to ${TILES} kinds`);
  }
  const defs: TileDef[] = [];
  const ids = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < tiles.length; i++) {
    const path = `${root}.tiles[${i}]`;
    const t = at(tiles, i);
    if (!isRecord(t)) return fail(path, `${path} must be an object { id, count, spec }, got ${showValue(t)}`);
    const id = field(t, 'id');
    if (typeof id !== 'string' || id === '' || id.startsWith('@') || id.length > 40 || /\s/.test(id)) {
      return fail(`${path}.id`, `${path}.id must be a short non-empty string without spaces, not starting with '@' (kept for start fields), got ${showValue(id)}`);
    }
    const dup = ids.get(id);
    if (dup !== undefined) return fail(`${path}.id`, `duplicate tile id '${id}': tiles[${dup}] has it too`);
    ids.set(id, i);
    const count = field(t, 'count');
    if (!isInt(count, 1, TILES)) return fail(`${path}.count`, `tile ${id}: count must be a positive integer (at most ${TILES}), got ${showValue(count)}`);
    total += count;
    const spec = field(t, 'spec');
    const who = `tile ${id}`;
    const features = readSpec(spec, who, (fid, port) => `path ${fid} owns ${port}, off the edge's middle`);
    if (typeof features === 'string') return fail(`${path}.spec`, features);
    const owned = new Set(features.flatMap((f) => f.ports));
    if (owned.size !== 12) {
      const missing = PORTS.filter((_, p) => !owned.has(p));
      return fail(`${path}.spec`, `${who}: port(s) ${missing.join(', ')} owned by no feature (a tile's 12 ports are all owned)`);
    }
    let def: TileDef;
    try {
      def = parseTileSpec(id, count, spec as string, CASTLE_KINDS);
    } catch (e) {
      return fail(`${path}.spec`, e instanceof Error ? e.message : `${who}: bad spec`);
    }
    defs.push(def);
  }
  if (total !== TILES) return fail(`${root}.tiles`, `the tile set has ${total} tiles, The Castle has ${TILES} tiles`);
  return freezeDeep(defs);
}

/**
 * Validates a tile set ({@link CastleTileSetData}, as untrusted JSON) and compiles its tile
 * definitions. Checks: unique non-empty ids (not starting with `@`), positive integer counts
 * totalling exactly 60; each spec in The Castle's codes (`p t h c`), no wall (`w`), no `>`
 * adjacency lists, every feature owning a port, every port owned once, every path port an edge's
 * middle (N2, E2, S2, W2), `+` only on a path (a well) or a court (a market).
 *
 * @returns the tile definitions in data order, deeply frozen, or an `options/castle-tiles`
 * error naming the offending tile (with its JSON path, e.g. `tileSet.tiles[5].spec`). Never throws.
 */
export function loadCastleTiles(data: unknown): Result<readonly TileDef[], MeepleError> {
  return guarded('options/castle-tiles', 'tileSet', () => compileTiles(data));
}
