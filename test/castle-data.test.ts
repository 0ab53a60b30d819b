/**
 * The Castle's data (src/games/castle/data.ts, reconstruction.ts): the shipped reconstruction
 * loads and satisfies every known fact about The Castle's components; each validation
 * error has a named row with its code and message; random garbage and random mutations of the
 * shipped data never throw. Counts checked here are those of the shipped data, never claims about
 * the real game's tiles.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MeepleError } from '../src/core/errors.js';
import type { Result } from '../src/core/result.js';
import { oppositePort, type TileDef } from '../src/core/tiles.js';
import { PORTS } from '../src/core/types.js';
import {
  isInside,
  loadCastleLayout,
  loadCastleTiles,
  type CastleEdge,
  type CastleLayout,
  type CastleLayoutData,
  type CastleTileSetData,
} from '../src/games/castle/data.js';
import { RECONSTRUCTED_LAYOUT, RECONSTRUCTED_TILES } from '../src/games/castle/reconstruction.js';

// ---------------------------------------------------------------------------------------------
// Helpers

function unwrap<T>(r: Result<T, MeepleError>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return true;
  if (!Object.isFrozen(v)) return false;
  return Object.values(v).every(isDeepFrozen);
}

/** A writable deep copy of JSON data. */
type Draft<T> = T extends readonly (infer U)[] ? Draft<U>[] : T extends object ? { -readonly [K in keyof T]: Draft<T[K]> } : T;

function layoutWith(change: (d: Draft<CastleLayoutData>) => void): unknown {
  const d = structuredClone(RECONSTRUCTED_LAYOUT) as unknown as Draft<CastleLayoutData>;
  change(d);
  return d;
}

function tilesWith(change: (d: Draft<CastleTileSetData>) => void): unknown {
  const d = structuredClone(RECONSTRUCTED_TILES) as unknown as Draft<CastleTileSetData>;
  change(d);
  return d;
}

const layout: CastleLayout = unwrap(loadCastleLayout(RECONSTRUCTED_LAYOUT));
const tiles: readonly TileDef[] = unwrap(loadCastleTiles(RECONSTRUCTED_TILES));

const SIDE = { N: 0, E: 1, S: 2, W: 3 } as const;

/** The two end points of a boundary edge, as 'x,y' corner keys. */
function ends(e: CastleEdge): [string, string] {
  const { x, y } = e;
  const pts: Record<CastleEdge['side'], [number, number, number, number]> = {
    N: [x, y, x + 1, y],
    E: [x + 1, y, x + 1, y + 1],
    S: [x + 1, y + 1, x, y + 1],
    W: [x, y + 1, x, y],
  };
  const [a, b, c, d] = pts[e.side];
  return [`${a},${b}`, `${c},${d}`];
}

const paths = (d: TileDef) => d.features.filter((f) => f.kind === 'path');
const has = (d: TileDef, kind: string) => d.features.some((f) => f.kind === kind);
const tileCount = (pred: (d: TileDef) => boolean) => tiles.filter(pred).reduce((n, d) => n + d.count, 0);

// ---------------------------------------------------------------------------------------------
// The shipped reconstruction

describe('the reconstructed layout', () => {
  test('loads, says it is a reconstruction, and comes back deeply frozen and equal to the input', () => {
    expect(layout.provenance).toBe('reconstructed');
    expect(RECONSTRUCTED_LAYOUT.provenance).toBe('reconstructed');
    expect(RECONSTRUCTED_LAYOUT.notes).toMatch(/RECONSTRUCTION/);
    expect(layout.data).toEqual(RECONSTRUCTED_LAYOUT);
    expect(isDeepFrozen(layout)).toBe(true);
  });

  test('76 play-area cells, 4-connected, in a shape that is not a rectangle', () => {
    expect(layout.cellCount).toBe(76);
    const cells: [number, number][] = [];
    for (let y = 0; y < layout.height; y++) for (let x = 0; x < layout.width; x++) if (isInside(layout, x, y)) cells.push([x, y]);
    expect(cells.length).toBe(76);
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const box = (Math.max(...xs) - Math.min(...xs) + 1) * (Math.max(...ys) - Math.min(...ys) + 1);
    expect(box).toBeGreaterThan(76);
  });

  test('isInside: the area cells, false off the grid and for non-integers', () => {
    expect(isInside(layout, 2, 0)).toBe(true);
    expect(isInside(layout, 0, 0)).toBe(false);
    expect(isInside(layout, -1, 3)).toBe(false);
    expect(isInside(layout, layout.width, 3)).toBe(false);
    expect(isInside(layout, 3, layout.height)).toBe(false);
    expect(isInside(layout, 2.5, 3)).toBe(false);
  });

  test('7 start fields, one edge each, showing a road, a tower part, a house part, a court and a court with a market', () => {
    expect(layout.startFields.length).toBe(7);
    expect(layout.startTiles.length).toBe(7); // no two share an outside cell
    const features = layout.startTiles.flatMap((t) => t.def.features).filter((f) => f.kind !== 'wall');
    expect(features.some((f) => f.kind === 'path')).toBe(true);
    expect(features.some((f) => f.kind === 'tower')).toBe(true);
    expect(features.some((f) => f.kind === 'house')).toBe(true);
    expect(features.some((f) => f.kind === 'court' && f.pennants === 0)).toBe(true);
    expect(features.some((f) => f.kind === 'court' && f.pennants > 0)).toBe(true);
    for (const t of layout.startTiles) {
      expect(isInside(layout, t.x, t.y)).toBe(false);
      expect(t.def.id).toMatch(/^@start-\d$/);
      expect(t.def.count).toBe(0);
    }
  });

  test('a start field becomes a virtual tile outside the wall, its half-feature seen across the edge', () => {
    // Start field 0: a road on the north side of 4,0; its virtual tile lies at 4,-1.
    const t = layout.startTiles[0]!;
    expect([t.x, t.y]).toEqual([4, -1]);
    expect(t.def.features).toEqual([
      { id: 'p1', kind: 'path', ports: ['S2'], pennants: 0, adjacent: [] },
      { id: 'w1', kind: 'wall', ports: PORTS.filter((p) => p !== 'S2'), pennants: 0, adjacent: [] },
    ]);
    // Start field 3: 'h:S1,S2 t:S3' on the south side of 8,7: corners swap across the edge.
    const s = layout.startTiles[3]!;
    expect([s.x, s.y]).toEqual([8, 8]);
    expect(s.def.features.slice(0, 2).map((f) => [f.kind, f.ports])).toEqual([
      ['house', ['N2', 'N3']],
      ['tower', ['N1']],
    ]);
    expect(PORTS[oppositePort(PORTS.indexOf('S1'))]).toBe('N3');
  });

  test('100 track spaces, once round the wall', () => {
    expect(layout.track.length).toBe(100);
    const keys = new Set(layout.track.map((e) => `${e.x},${e.y},${e.side}`));
    expect(keys.size).toBe(40); // every boundary edge of this shape has at least one space
  });

  test('14 towers, among them 0/1, 12/13 and one holding 33', () => {
    expect(layout.towers.length).toBe(14);
    const names = layout.towers.map(([a, b]) => `${a}/${b}`);
    expect(names).toContain('0/1');
    expect(names).toContain('12/13');
    expect(names.some((n) => n === '32/33' || n === '33/34')).toBe(true);
    expect(layout.towerAt[0]).toBe(layout.towerAt[1]);
    expect([...layout.towerAt].filter((t) => t >= 0).length).toBe(28);
  });

  test('every tower stands at a bend: its two spaces lie on two edges meeting at a corner where the wall turns', () => {
    for (const [a, b] of layout.towers) {
      const e1 = layout.track[a]!;
      const e2 = layout.track[b]!;
      expect((SIDE[e1.side] + SIDE[e2.side]) % 2, `tower ${a}/${b}`).toBe(1); // perpendicular sides
      const [, end1] = ends(e1);
      const [start2] = ends(e2);
      expect(end1, `tower ${a}/${b}`).toBe(start2);
    }
  });

  test('10 wall pieces, meeting between 27/28, 47/48, 69/70 and 91/92', () => {
    expect(layout.pieces.length).toBe(10);
    for (const p of [0, 28, 48, 70, 92]) expect(layout.pieces).toContain(p);
    // A piece joint never splits a tower.
    for (const [, b] of layout.towers) if (b !== 0) expect(layout.pieces).not.toContain(b);
  });
});

describe('the reconstructed tile set', () => {
  test('loads, says it is a reconstruction, 60 tiles, deeply frozen', () => {
    expect(RECONSTRUCTED_TILES.provenance).toBe('reconstructed');
    expect(RECONSTRUCTED_TILES.notes).toMatch(/RECONSTRUCTION/);
    expect(tileCount(() => true)).toBe(60);
    expect(isDeepFrozen(tiles)).toBe(true);
  });

  test('every feature type is common (on at least a quarter of the tiles)', () => {
    for (const kind of ['path', 'tower', 'house', 'court']) expect(tileCount((d) => has(d, kind)), kind).toBeGreaterThanOrEqual(15);
  });

  test('at least 5 tiles with a market; wells on some paths', () => {
    expect(tileCount((d) => d.features.some((f) => f.kind === 'court' && f.pennants > 0))).toBeGreaterThanOrEqual(5);
    const wells = tileCount((d) => paths(d).some((f) => f.pennants > 0));
    expect(wells).toBeGreaterThanOrEqual(5);
    expect(wells).toBeLessThanOrEqual(12);
  });

  test('squares: tiles with several single-port paths (each arm a path of its own), with 2, 3 and 4 arms', () => {
    const arms = new Set(tiles.map((d) => paths(d)).filter((ps) => ps.length >= 2 && ps.every((p) => p.ports.length === 1)).map((ps) => ps.length));
    expect([...arms].sort()).toEqual([2, 3, 4]);
  });

  test('branches and a crossing without a square: one path owning 3 or 4 middle ports', () => {
    expect(tiles.some((d) => paths(d).some((p) => p.ports.length === 3))).toBe(true);
    expect(tiles.some((d) => paths(d).some((p) => p.ports.length === 4))).toBe(true);
  });

  test('paths ending in a building on the same tile', () => {
    const deadEnd = (d: TileDef) => paths(d).length === 1 && paths(d)[0]!.ports.length === 1 && (has(d, 'house') || has(d, 'tower'));
    expect(tileCount(deadEnd)).toBeGreaterThanOrEqual(3);
  });

  test('feature borders in the middle of an edge', () => {
    const midBorder = (d: TileDef) =>
      ['N', 'E', 'S', 'W'].some((s) => {
        const owner = (n: number) => d.features.findIndex((f) => f.ports.includes(`${s}${n}` as never));
        const middleIsPath = d.features[owner(2)]!.kind === 'path';
        return !middleIsPath && (owner(1) !== owner(2) || owner(2) !== owner(3));
      });
    expect(tileCount(midBorder)).toBeGreaterThanOrEqual(5);
  });

  test('tiles without any path, and paths only on middle ports', () => {
    expect(tileCount((d) => !has(d, 'path'))).toBeGreaterThanOrEqual(10);
    for (const d of tiles) for (const p of paths(d)) for (const port of p.ports) expect(port, d.id).toMatch(/2$/);
  });

  test('features are plausible regions: no two features of a tile cross each other round the edge', () => {
    for (const d of tiles) {
      const owner = PORTS.map((p) => d.features.findIndex((f) => f.ports.includes(p)));
      for (let a = 0; a < d.features.length; a++) {
        for (let b = a + 1; b < d.features.length; b++) {
          const seq = owner.filter((o) => o === a || o === b);
          const changes = seq.filter((o, i) => o !== seq[(i + 1) % seq.length]).length;
          expect(changes, `${d.id}: ${d.features[a]!.id} and ${d.features[b]!.id} cross`).toBeLessThanOrEqual(2);
        }
      }
    }
  });

  test('both edge classes are plentiful, so that the set fills the walled board', () => {
    let pathEdges = 0;
    for (const d of tiles) for (const p of paths(d)) pathEdges += p.ports.length * d.count;
    expect(pathEdges / 240).toBeGreaterThan(0.25);
    expect(pathEdges / 240).toBeLessThan(0.5);
  });
});

// ---------------------------------------------------------------------------------------------
// Validation errors: one row per kind of bad data

const layoutErrors: [name: string, data: unknown, message: RegExp, path?: string][] = [
  ['garbage: null', null, /layout must be an object/],
  ['garbage: 42', 42, /layout must be an object, got 42/],
  ['garbage: a string', 'x', /layout must be an object/],
  ['garbage: an empty object', {}, /provenance must be a non-empty string/, 'layout.provenance'],
  ['garbage: an array', [], /layout must be an object/],
  ['no area', layoutWith((d) => void ((d as { area?: unknown }).area = undefined)), /area must be a non-empty array/, 'layout.area'],
  ['a bad row character', layoutWith((d) => void (d.area[2] = '####x###.')), /area\[2\] must be a string of '#'/, 'layout.area[2]'],
  ['rows of unequal length', layoutWith((d) => void (d.area[3] = '##########')), /area\[3\] is 10 cells wide, row 0 is 9/, 'layout.area[3]'],
  ['wrong cell count', layoutWith((d) => void (d.area[0] = '..#####..')), /wrong cell count: 75, The Castle has 76/, 'layout.area'],
  [
    'disconnected area',
    layoutWith((d) => {
      d.area[0] = '..#####..';
      d.area[9] = '#######.#';
    }),
    /disconnected area: cell 8,9 cannot be reached from 2,0/,
  ],
  [
    'a hole in the area',
    layoutWith((d) => {
      d.area[4] = '.###.####';
      d.area[8] = '########.';
    }),
    /hole in the area: outside cell 4,4 is enclosed/,
  ],
  [
    'cells touching only at a corner (the cell between them is a hole)',
    layoutWith((d) => {
      d.area[0] = '..#####..';
      d.area[1] = '..#####..';
      d.area[8] = '#######.#';
      d.area[9] = '########.';
    }),
    /hole in the area: outside cell 7,8 is enclosed/,
  ],
  ['start field not on the boundary', layoutWith((d) => void (d.startFields[0] = { x: 4, y: 1, side: 'N', spec: 'p:N2' })), /startFields\[0\]: side N of 4,1 is not on the wall/, 'layout.startFields[0]'],
  ['start field outside the area', layoutWith((d) => void (d.startFields[2] = { x: 0, y: 0, side: 'N', spec: 't:N' })), /0,0 is not a play-area cell/, 'layout.startFields[2]'],
  ['6 start fields', layoutWith((d) => void d.startFields.pop()), /has 6 start fields, The Castle has 7/, 'layout.startFields'],
  ['two start fields on one edge', layoutWith((d) => void (d.startFields[6] = { ...d.startFields[0]!, spec: 'c:N' })), /startFields\[6\] lies on the same edge \(4,0 side N\) as startFields\[0\]/],
  ['path off the middle in a start field', layoutWith((d) => void (d.startFields[0]!.spec = 'p:N1')), /start field 0 .*a path segment off an edge's middle/, 'layout.startFields[0].spec'],
  ['a start field leaving the middle of its edge to the wall', layoutWith((d) => void (d.startFields[0]!.spec = 'c:N1')), /start field 0 .*must cover the edge's middle \(N2\)/, 'layout.startFields[0].spec'],
  ['start field port on another side', layoutWith((d) => void (d.startFields[0]!.spec = 'c:E')), /start field 0 .*owns E1, which is not on side N/, 'layout.startFields[0].spec'],
  ['unknown feature code in a start field', layoutWith((d) => void (d.startFields[1]!.spec = 'r:E2')), /start field 1 .*unknown feature code 'r'/, 'layout.startFields[1].spec'],
  ['wall in a start field', layoutWith((d) => void (d.startFields[1]!.spec = 'w:E')), /start field 1 .*wall feature 'w:E'/],
  ['market on a tower in a start field', layoutWith((d) => void (d.startFields[2]!.spec = 't+:E')), /'\+' on tower t1/],
  ['empty start field', layoutWith((d) => void (d.startFields[2]!.spec = '  ')), /start field 2 .*spec is empty/],
  ['start field spec not a string', layoutWith((d) => void ((d.startFields[2] as { spec: unknown }).spec = 7)), /spec must be a string, got 7/],
  ['bad side name', layoutWith((d) => void ((d.startFields[2] as { side: unknown }).side = 'X')), /side must be 'N', 'E', 'S' or 'W', got "X"/],
  ['track of 99 spaces', layoutWith((d) => void d.track.pop()), /track has 99 spaces, The Castle's track has 100/, 'layout.track'],
  [
    'track out of order',
    layoutWith((d) => {
      const t = d.track[40]!;
      d.track[40] = d.track[50]!;
      d.track[50] = t;
    }),
    /track out of order: space 40 \(5,9 side S\) does not follow space 39 \(7,7 side S\)/,
    'layout.track[40]',
  ],
  ['track beside an inner edge', layoutWith((d) => void (d.track[5] = { x: 4, y: 1, side: 'N' })), /track\[5\]: side N of 4,1 is not on the wall/],
  [
    'track going round twice',
    layoutWith((d) => {
      const edges = [...new Map(d.track.map((e) => [`${e.x},${e.y},${e.side}`, e])).values()];
      d.track = Array.from({ length: 100 }, (_, i) => edges[Math.floor((i * 2 * edges.length) / 100) % edges.length]!);
    }),
    /the track goes round the wall 2 times: it must go once round the wall, with a space beside each of its 40 edges/,
  ],
  ['track on one edge', layoutWith((d) => void d.track.fill(d.track[3]!)), /the track stays on one edge/],
  ['towers not consecutive', layoutWith((d) => void (d.towers[1] = [12, 14])), /towers\[1\]: \[12,14\] is not two consecutive track spaces/, 'layout.towers[1]'],
  ['13 towers', layoutWith((d) => void d.towers.pop()), /has 13 towers, The Castle's wall has 14/, 'layout.towers'],
  ['overlapping towers', layoutWith((d) => void (d.towers[2] = [13, 14])), /towers\[2\] shares space 13 with towers\[1\]/],
  ['no tower at 0/1', layoutWith((d) => void (d.towers[0] = [50, 51])), /no tower at spaces 0\/1/],
  ['pieces not ascending', layoutWith((d) => void (d.pieces![3] = 5)), /pieces\[3\]: 5 is not a track space/, 'layout.pieces[3]'],
  ['9 pieces', layoutWith((d) => void d.pieces!.pop()), /first space of each of the 10 wall pieces/],
];

const tileErrors: [name: string, data: unknown, message: RegExp, path?: string][] = [
  ['garbage: null', null, /tile set must be an object/],
  ['garbage: 42', 42, /tile set must be an object/],
  ['garbage: a string', 'x', /tile set must be an object/],
  ['garbage: an empty object', {}, /provenance must be a non-empty string/],
  ['garbage: tiles not an array', { provenance: 'x', tiles: 'K01' }, /tiles must be an array/],
  ['tile set of 59', tilesWith((d) => void (d.tiles[4]!.count = 2)), /the tile set has 59 tiles, The Castle has 60 tiles/, 'tileSet.tiles'],
  ['tile set of 61', tilesWith((d) => void (d.tiles[4]!.count = 4)), /61 tiles, The Castle has 60 tiles/],
  ['duplicate id', tilesWith((d) => void (d.tiles[1]!.id = 'K01')), /duplicate tile id 'K01': tiles\[0\] has it too/, 'tileSet.tiles[1].id'],
  ['id kept for start fields', tilesWith((d) => void (d.tiles[1]!.id = '@start-1')), /not starting with '@'/],
  ['empty id', tilesWith((d) => void (d.tiles[1]!.id = '')), /tiles\[1\]\.id must be a short non-empty string/],
  ['path off the middle in a tile', tilesWith((d) => void (d.tiles[0]!.spec = 'p:N1 h:N2,N3,E,S,W')), /tile K01: path p1 owns N1, off the edge's middle/, 'tileSet.tiles[0].spec'],
  ['wall feature on a tile', tilesWith((d) => void (d.tiles[0]!.spec = 'w:N h:E,S,W')), /tile K01: wall feature 'w:N'/],
  ["'+' on a tower", tilesWith((d) => void (d.tiles[0]!.spec = 't+:N h:E,S,W')), /tile K01: '\+' on tower t1/],
  ['unknown feature code', tilesWith((d) => void (d.tiles[0]!.spec = 'r:N2,S2 h:N1,N3,E,S1,S3,W')), /tile K01: unknown feature code 'r' in 'r:N2,S2'/],
  ['unknown port', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E,S,W4')), /tile K01: unknown port 'W4'/],
  ['port owned twice', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E,S,W h:N1')), /tile K01: port N1 owned twice/],
  ['port owned by no feature', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E,S')), /tile K01: port\(s\) W1, W2, W3 owned by no feature/],
  ['feature without a port', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E,S,W h')), /tile K01: house h1 \('h'\) owns no port/],
  ['adjacency list', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E c:S,W>t1')), /tile K01: feature 'c:S,W>t1' has an adjacency list/],
  ['unreadable feature', tilesWith((d) => void (d.tiles[0]!.spec = 't:N,E,S,W $')), /tile K01: cannot read feature '\$'/],
  ['count 0', tilesWith((d) => void (d.tiles[0]!.count = 0)), /tile K01: count must be a positive integer/, 'tileSet.tiles[0].count'],
  ['count 1.5', tilesWith((d) => void (d.tiles[0]!.count = 1.5)), /tile K01: count must be a positive integer/],
  ['count NaN', tilesWith((d) => void (d.tiles[0]!.count = Number.NaN)), /tile K01: count must be a positive integer.*got NaN/],
  ['a tile that is not an object', tilesWith((d) => void ((d.tiles as unknown[])[2] = 'K03')), /tiles\[2\] must be an object/],
  ['too many entries', tilesWith((d) => void d.tiles.push(...Array.from({ length: 20 }, (_, i) => ({ id: `X${i}`, count: 1, spec: 'h:N,E,S,W' })))), /66 entries/],
];

describe('layout validation errors', () => {
  test.each(layoutErrors)('%s', (_name, data, message, path) => {
    const r = loadCastleLayout(data);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('options/castle-layout');
    expect(r.error.message).toMatch(message);
    if (path !== undefined) expect(r.error.path).toBe(path);
  });

  test('a track running counter-clockwise is fine', () => {
    const l = unwrap(loadCastleLayout(layoutWith((d) => void d.track.reverse())));
    expect(l.track[0]).toEqual(RECONSTRUCTED_LAYOUT.track[99]);
  });

  test('two start fields touching the same outside cell share one virtual tile', () => {
    const data = layoutWith((d) => {
      d.startFields[1] = { x: 7, y: 2, side: 'E', spec: 'c+:E' };
      d.startFields[2] = { x: 8, y: 3, side: 'N', spec: 'h:N1 p:N2 t:N3' };
    });
    const l = unwrap(loadCastleLayout(data));
    expect(l.startTiles.length).toBe(6);
    const shared = l.startTiles.find((t) => t.x === 8 && t.y === 2)!;
    expect(shared.def.features.map((f) => [f.kind, f.pennants, f.ports.join(',')])).toEqual([
      ['court', 1, 'W1,W2,W3'],
      ['house', 0, 'S3'],
      ['path', 0, 'S2'],
      ['tower', 0, 'S1'],
      ['wall', 0, 'N1,N2,N3,E1,E2,E3'],
    ]);
  });

  test('the data is copied: prototype junk and extra fields are left out, pieces are optional', () => {
    const proto = { notes: 'inherited' };
    const data = Object.assign(Object.create(proto) as object, layoutWith((d) => delete (d as { pieces?: unknown }).pieces), { extra: 1 });
    const l = unwrap(loadCastleLayout(data));
    expect(l.pieces).toEqual([]);
    expect(Object.keys(l.data).sort()).toEqual(['area', 'notes', 'provenance', 'startFields', 'towers', 'track']);
    expect(l.data.notes).toBe(RECONSTRUCTED_LAYOUT.notes);
  });

  test('an input that throws when read is an error, not an exception', () => {
    const data = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    );
    const r = loadCastleLayout(data);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/cannot be read: trap/);
    expect(loadCastleTiles(data).ok).toBe(false);
  });
});

describe('tile set validation errors', () => {
  test.each(tileErrors)('%s', (_name, data, message, path) => {
    const r = loadCastleTiles(data);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('options/castle-tiles');
    expect(r.error.message).toMatch(message);
    if (path !== undefined) expect(r.error.path).toBe(path);
  });
});

// ---------------------------------------------------------------------------------------------
// Fuzz: never throws

const ANYTHING = {
  withBigInt: true,
  withBoxedValues: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
} as const;

/** Every [parent, key] slot of a JSON tree, in a fixed order. */
function slots(v: unknown, out: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) {
      out.push([v as Record<string, unknown>, k]);
      slots((v as Record<string, unknown>)[k], out);
    }
  }
  return out;
}

/** The data with one slot replaced by `value` (or deleted), or the whole data replaced. */
function mutate(base: unknown, pick: number, value: unknown, remove: boolean): unknown {
  const d = structuredClone(base) as unknown;
  const all = slots(d);
  if (all.length === 0) return value;
  const [parent, key] = all[pick % all.length]!;
  if (remove) delete parent[key];
  else parent[key] = value;
  return d;
}

function expectResult(r: Result<unknown, MeepleError>, code: string): void {
  expect(typeof r.ok).toBe('boolean');
  if (!r.ok) {
    expect(r.error.code).toBe(code);
    expect(r.error.message.length).toBeGreaterThan(10);
  }
}

describe('fuzz: loading never throws', () => {
  test('garbage of any shape', () => {
    fc.assert(
      fc.property(fc.anything(ANYTHING), (v) => {
        expectResult(loadCastleLayout(v), 'options/castle-layout');
        expectResult(loadCastleTiles(v), 'options/castle-tiles');
      }),
      { numRuns: 300 },
    );
  });

  test('one random change to the shipped layout', () => {
    const slot = fc.oneof(fc.anything(ANYTHING), fc.integer({ min: -2, max: 110 }), fc.constantFrom('N', 'E', 'S', 'W', '#', '.', 'p:N2', Number.NaN));
    fc.assert(
      fc.property(fc.nat(), slot, fc.boolean(), (pick, value, remove) => {
        expectResult(loadCastleLayout(mutate(RECONSTRUCTED_LAYOUT, pick, value, remove)), 'options/castle-layout');
      }),
      { numRuns: 400 },
    );
  });

  test('one random change to the shipped tile set, or a random spec', () => {
    const spec = fc.array(fc.constantFrom('p', 't', 'h', 'c', 'w', 'x', '+', ':', ',', ' ', '>', 'N', 'E2', 'S1', 'W3', 'N2', '1'), { maxLength: 30 }).map((a) => a.join(''));
    const slot = fc.oneof(fc.anything(ANYTHING), spec, fc.integer({ min: -2, max: 70 }));
    fc.assert(
      fc.property(fc.nat(), slot, fc.boolean(), (pick, value, remove) => {
        expectResult(loadCastleTiles(mutate(RECONSTRUCTED_TILES, pick, value, remove)), 'options/castle-tiles');
      }),
      { numRuns: 400 },
    );
  });
});
