/**
 * Validating and compiling a wall layout ({@link CastleLayoutData}) into the {@link CastleLayout}
 * the engine uses: the play area, start fields as virtual tiles, the score track and its towers.
 */
import { showValue, type MeepleError } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { oppositePort, parseTileSpec, type TileDef } from '../../core/tiles.js';
import { PORTS } from '../../core/types.js';
import { CASTLE_KINDS } from './kinds.js';
import type { SideName, CastleEdge, CastleStartField, CastleLayoutData, CastleStartTile, CastleLayout } from './data-types.js';
import { CELLS, SPACES, TOWERS, START_FIELDS, PIECES, MAX_GRID, SIDE_NAMES, DX, DY, field, isRecord, at, isInt, freezeDeep, type Failure, fail, isFailure, guarded, readSpec, featureText } from './data-read.js';

/** A boundary edge as read from the data, with its side index. */
interface Edge {
  readonly x: number;
  readonly y: number;
  readonly s: number;
}

/** Reads `{ x, y, side }` at `path`: integers on the grid, a side name. */
function readEdge(v: unknown, path: string, width: number, height: number): Edge | Failure {
  if (!isRecord(v)) return fail(path, `${path} must be an object { x, y, side }, got ${showValue(v)}`);
  const x = field(v, 'x');
  const y = field(v, 'y');
  const side = field(v, 'side');
  if (!isInt(x, 0, width - 1) || !isInt(y, 0, height - 1)) {
    return fail(path, `${path}: x,y must be integers on the ${width}x${height} area grid, got ${showValue(x)},${showValue(y)}`);
  }
  const s = typeof side === 'string' ? SIDE_NAMES.indexOf(side as SideName) : -1;
  if (s < 0) return fail(path, `${path}: side must be 'N', 'E', 'S' or 'W', got ${showValue(side)}`);
  return { x, y, s };
}

/** Validates and compiles a layout; returns a Failure on the first problem. */
function compileLayout(data: unknown): CastleLayout | Failure {
  const root = 'layout';
  if (!isRecord(data)) return fail(root, `the layout must be an object, got ${showValue(data)}`);
  const provenance = field(data, 'provenance');
  if (typeof provenance !== 'string' || provenance === '') {
    return fail(`${root}.provenance`, `layout.provenance must be a non-empty string ('reconstructed', 'official'), got ${showValue(provenance)}`);
  }
  const notes = field(data, 'notes');
  if (notes !== undefined && typeof notes !== 'string') return fail(`${root}.notes`, `layout.notes must be a string, got ${showValue(notes)}`);

  // The area: a grid of '#' and '.'.
  const area = field(data, 'area');
  if (!Array.isArray(area) || area.length === 0) return fail(`${root}.area`, `layout.area must be a non-empty array of rows, got ${showValue(area)}`);
  if (area.length > MAX_GRID) return fail(`${root}.area`, `layout.area has ${area.length} rows, more than ${MAX_GRID}`);
  const rows: string[] = [];
  for (let y = 0; y < area.length; y++) {
    const row = at(area, y);
    const path = `${root}.area[${y}]`;
    if (typeof row === 'string' && row.length > MAX_GRID) return fail(path, `${path} is ${row.length} cells wide, more than ${MAX_GRID}`);
    if (typeof row !== 'string' || !/^[#.]+$/.test(row)) return fail(path, `${path} must be a string of '#' (play area) and '.' (outside), got ${showValue(row)}`);
    if (row.length !== (rows[0] ?? row).length) return fail(path, `${path} is ${row.length} cells wide, row 0 is ${rows[0]!.length}: rows must have equal length`);
    rows.push(row);
  }
  const width = rows[0]!.length;
  const height = rows.length;
  const inside = new Uint8Array(width * height);
  let cellCount = 0;
  let first = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (rows[y]![x] !== '#') continue;
      inside[y * width + x] = 1;
      cellCount++;
      if (first < 0) first = y * width + x;
    }
  }
  if (cellCount !== CELLS) return fail(`${root}.area`, `wrong cell count: ${cellCount}, The Castle has ${CELLS}`);
  const isIn = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && inside[y * width + x] === 1;

  // Connected (4-neighbourhood).
  const seen = new Uint8Array(width * height);
  const queue = [first];
  seen[first] = 1;
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q]!;
    const cx = c % width;
    const cy = (c / width) | 0;
    for (let s = 0; s < 4; s++) {
      const nx = cx + DX[s]!;
      const ny = cy + DY[s]!;
      if (isIn(nx, ny) && seen[ny * width + nx] === 0) {
        seen[ny * width + nx] = 1;
        queue.push(ny * width + nx);
      }
    }
  }
  if (queue.length !== cellCount) {
    const lost = inside.findIndex((v, i) => v === 1 && seen[i] === 0);
    return fail(`${root}.area`, `disconnected area: cell ${lost % width},${(lost / width) | 0} cannot be reached from ${first % width},${(first / width) | 0}`);
  }

  // No holes: every outside cell of the grid, padded by one ring, is reachable from the ring.
  const pw = width + 2;
  const ph = height + 2;
  const out = new Uint8Array(pw * ph);
  const padIn = (px: number, py: number): boolean => isIn(px - 1, py - 1);
  const oq = [0];
  out[0] = 1;
  for (let q = 0; q < oq.length; q++) {
    const c = oq[q]!;
    const cx = c % pw;
    const cy = (c / pw) | 0;
    for (let s = 0; s < 4; s++) {
      const nx = cx + DX[s]!;
      const ny = cy + DY[s]!;
      if (nx < 0 || ny < 0 || nx >= pw || ny >= ph || padIn(nx, ny) || out[ny * pw + nx] === 1) continue;
      out[ny * pw + nx] = 1;
      oq.push(ny * pw + nx);
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!isIn(x, y) && out[(y + 1) * pw + x + 1] === 0) {
        // Also catches cells of the area touching only at a corner: with the area connected,
        // one of the two outside cells there is enclosed.
        return fail(`${root}.area`, `hole in the area: outside cell ${x},${y} is enclosed by the play area (the wall must be a single loop)`);
      }
    }
  }
  // The boundary loop, clockwise (the area on the right): each edge leads to the one starting
  // where it ends; with the area connected and without holes that is one simple loop.
  const edgeKey = (x: number, y: number, s: number): number => (y * width + x) * 4 + s;
  const vertex = (x: number, y: number): number => y * (width + 1) + x;
  const startOf = new Map<number, number>(); // vertex -> edge key
  const endOf = new Map<number, number>(); // edge key -> vertex
  let edgeCount = 0;
  let firstEdge = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!isIn(x, y)) continue;
      for (let s = 0; s < 4; s++) {
        if (isIn(x + DX[s]!, y + DY[s]!)) continue;
        const k = edgeKey(x, y, s);
        // N: (x,y)->(x+1,y); E: (x+1,y)->(x+1,y+1); S: (x+1,y+1)->(x,y+1); W: (x,y+1)->(x,y).
        const a = [vertex(x, y), vertex(x + 1, y), vertex(x + 1, y + 1), vertex(x, y + 1)][s]!;
        const b = [vertex(x + 1, y), vertex(x + 1, y + 1), vertex(x, y + 1), vertex(x, y)][s]!;
        startOf.set(a, k);
        endOf.set(k, b);
        edgeCount++;
        if (firstEdge < 0) firstEdge = k;
      }
    }
  }
  const loopIndex = new Map<number, number>();
  for (let k: number | undefined = firstEdge; k !== undefined && !loopIndex.has(k); k = startOf.get(endOf.get(k)!)) {
    loopIndex.set(k, loopIndex.size);
  }
  if (loopIndex.size !== edgeCount) return fail(`${root}.area`, `the wall is not a single loop round the area`);
  if (edgeCount > SPACES) return fail(`${root}.area`, `the wall has ${edgeCount} cell edges, more than the ${SPACES} track spaces beside them`);
  const showEdge = (e: Edge): string => `${e.x},${e.y} side ${SIDE_NAMES[e.s]}`;
  /** The edge's loop index, or a message saying why it is not a boundary edge. */
  const onWall = (e: Edge, path: string): number | Failure => {
    if (!isIn(e.x, e.y)) return fail(path, `${path}: ${e.x},${e.y} is not a play-area cell`);
    const i = loopIndex.get(edgeKey(e.x, e.y, e.s));
    if (i === undefined) return fail(path, `${path}: side ${SIDE_NAMES[e.s]} of ${e.x},${e.y} is not on the wall (its neighbour ${e.x + DX[e.s]!},${e.y + DY[e.s]!} is in the play area)`);
    return i;
  };

  // Start fields.
  const sf = field(data, 'startFields');
  if (!Array.isArray(sf)) return fail(`${root}.startFields`, `layout.startFields must be an array, got ${showValue(sf)}`);
  if (sf.length !== START_FIELDS) return fail(`${root}.startFields`, `layout.startFields has ${sf.length} start fields, The Castle has ${START_FIELDS}`);
  const startFields: CastleStartField[] = [];
  const usedEdge = new Map<number, number>();
  // Virtual tiles by outside cell (padded key), in order of first appearance.
  const virtual = new Map<number, { x: number; y: number; parts: string[]; owned: Set<number> }>();
  for (let i = 0; i < sf.length; i++) {
    const path = `${root}.startFields[${i}]`;
    const v = at(sf, i);
    const e = readEdge(v, path, width, height);
    if (isFailure(e)) return e;
    const li = onWall(e, path);
    if (typeof li !== 'number') return li;
    const dup = usedEdge.get(li);
    if (dup !== undefined) return fail(path, `${path} lies on the same edge (${showEdge(e)}) as startFields[${dup}]`);
    usedEdge.set(li, i);
    const who = `start field ${i} (${showEdge(e)})`;
    const spec = field(v, 'spec');
    const features = readSpec(spec, who, (id, port) => `a path segment off an edge's middle (path ${id} owns ${port})`);
    if (typeof features === 'string') return fail(`${path}.spec`, features);
    for (const f of features) {
      const wrong = f.ports.find((p) => ((p / 3) | 0) !== e.s);
      if (wrong !== undefined) return fail(`${path}.spec`, `${who}: ${f.kind.name} ${f.id} owns ${PORTS[wrong]}, which is not on side ${SIDE_NAMES[e.s]}`);
    }
    // The edge's middle decides what a tile laid against it must match (and that it may be laid there).
    if (!features.some((f) => f.ports.includes(e.s * 3 + 1))) {
      return fail(`${path}.spec`, `${who}: the half-feature must cover the edge's middle (${PORTS[e.s * 3 + 1]})`);
    }
    const ox = e.x + DX[e.s]!;
    const oy = e.y + DY[e.s]!;
    const key = (oy + 1) * pw + ox + 1;
    let vt = virtual.get(key);
    if (vt === undefined) virtual.set(key, (vt = { x: ox, y: oy, parts: [], owned: new Set() }));
    for (const f of features) {
      // The virtual tile sees the half-feature across the edge: corners swap.
      const ports = f.ports.map(oppositePort).sort((a, b) => a - b);
      ports.forEach((p) => vt.owned.add(p));
      vt.parts.push(featureText(f, ports));
    }
    startFields.push({ x: e.x, y: e.y, side: SIDE_NAMES[e.s]!, spec: spec as string });
  }
  const startTiles: CastleStartTile[] = [];
  for (const vt of virtual.values()) {
    const rest: number[] = [];
    for (let p = 0; p < 12; p++) if (!vt.owned.has(p)) rest.push(p);
    const spec = [...vt.parts, ...(rest.length > 0 ? [`w:${rest.map((p) => PORTS[p]).join(',')}`] : [])].join(' ');
    const id = `@start-${startTiles.length + 1}`;
    let def: TileDef;
    try {
      def = parseTileSpec(id, 0, spec, CASTLE_KINDS);
    } catch (e) {
      return fail(`${root}.startFields`, `start fields at outside cell ${vt.x},${vt.y} do not make a tile: ${e instanceof Error ? e.message : String(e)}`);
    }
    startTiles.push({ x: vt.x, y: vt.y, def });
  }

  // The track: once round the wall, in one direction, every edge with a space.
  const tr = field(data, 'track');
  if (!Array.isArray(tr)) return fail(`${root}.track`, `layout.track must be an array, got ${showValue(tr)}`);
  if (tr.length !== SPACES) return fail(`${root}.track`, `layout.track has ${tr.length} spaces, The Castle's track has ${SPACES}`);
  const track: CastleEdge[] = [];
  const idx: number[] = [];
  const edges: Edge[] = [];
  for (let i = 0; i < SPACES; i++) {
    const path = `${root}.track[${i}]`;
    const e = readEdge(at(tr, i), path, width, height);
    if (isFailure(e)) return e;
    const li = onWall(e, path);
    if (typeof li !== 'number') return li;
    idx.push(li);
    edges.push(e);
    track.push({ x: e.x, y: e.y, side: SIDE_NAMES[e.s]! });
  }
  let dir = 0;
  let moves = 0;
  for (let i = 0; i < SPACES; i++) {
    const j = (i + 1) % SPACES;
    const step = (idx[j]! - idx[i]! + edgeCount) % edgeCount;
    if (step === 0) continue;
    const d = step === 1 ? 1 : step === edgeCount - 1 ? -1 : 0;
    if (d === 0 || (dir !== 0 && d !== dir)) {
      return fail(
        `${root}.track[${j}]`,
        `track out of order: space ${j} (${showEdge(edges[j]!)}) does not follow space ${i} (${showEdge(edges[i]!)}) along the wall`,
      );
    }
    dir = d;
    moves++;
  }
  if (moves !== edgeCount) {
    const why = moves === 0 ? 'stays on one edge' : `goes round the wall ${moves / edgeCount} times`;
    return fail(`${root}.track`, `the track ${why}: it must go once round the wall, with a space beside each of its ${edgeCount} edges`);
  }

  // Towers.
  const tw = field(data, 'towers');
  if (!Array.isArray(tw)) return fail(`${root}.towers`, `layout.towers must be an array, got ${showValue(tw)}`);
  if (tw.length !== TOWERS) return fail(`${root}.towers`, `layout.towers has ${tw.length} towers, The Castle's wall has ${TOWERS}`);
  const towers: (readonly [number, number])[] = [];
  const towerAt = new Int8Array(SPACES).fill(-1);
  for (let i = 0; i < TOWERS; i++) {
    const path = `${root}.towers[${i}]`;
    const t = at(tw, i);
    const a = Array.isArray(t) && t.length === 2 ? at(t, 0) : undefined;
    const b = Array.isArray(t) && t.length === 2 ? at(t, 1) : undefined;
    if (!isInt(a, 0, SPACES - 1) || b !== (a + 1) % SPACES) {
      return fail(path, `${path}: ${showValue(t)} is not two consecutive track spaces [a, (a + 1) % ${SPACES}]`);
    }
    for (const space of [a, b]) {
      const other = towerAt[space]!;
      if (other >= 0) return fail(path, `${path} shares space ${space} with towers[${other}]`);
      towerAt[space] = i;
    }
    towers.push([a, b]);
  }
  if (towerAt[0] !== towerAt[1] || towerAt[0] === -1) return fail(`${root}.towers`, `no tower at spaces 0/1: The Castle's wall has one there`);

  // Wall pieces.
  const pc = field(data, 'pieces');
  const pieces: number[] = [];
  if (pc !== undefined) {
    const path = `${root}.pieces`;
    if (!Array.isArray(pc) || pc.length !== PIECES) return fail(path, `${path} must list the first space of each of the ${PIECES} wall pieces, got ${showValue(pc)}`);
    for (let i = 0; i < PIECES; i++) {
      const p = at(pc, i);
      if (!isInt(p, 0, SPACES - 1) || (i > 0 && p <= pieces[i - 1]!)) {
        return fail(`${path}[${i}]`, `${path}[${i}]: ${showValue(p)} is not a track space 0..${SPACES - 1} above the one before`);
      }
      pieces.push(p);
    }
  }

  const copy: CastleLayoutData = {
    provenance,
    ...(notes === undefined ? {} : { notes }),
    area: rows,
    startFields,
    track,
    towers,
    ...(pc === undefined ? {} : { pieces: [...pieces] }),
  };
  freezeDeep(copy);
  return freezeDeep({
    provenance,
    width,
    height,
    inside,
    cellCount,
    startTiles,
    startFields: copy.startFields,
    track: copy.track,
    towers: copy.towers,
    towerAt,
    pieces: copy.pieces ?? [],
    data: copy,
  });
}

/**
 * Validates a wall layout ({@link CastleLayoutData}, as untrusted JSON) and compiles it. Checks:
 * rows of `#`/`.` of equal length; exactly 76 play-area cells, 4-connected, with no hole and no
 * cells touching only diagonally (the wall is one loop); exactly 7 start fields, each on its own
 * boundary edge, its spec using only that side's ports, no wall, a path only on the middle port,
 * `+` only on a path or court; a track of exactly 100 spaces, each beside a boundary edge, going
 * once round the wall in one direction with a space beside every edge; exactly 14 towers of two
 * consecutive spaces, disjoint, one of them 0/1; and, when given, 10 ascending wall pieces.
 *
 * @returns the compiled layout, or an `options/castle-layout` error naming the offending entry
 * (with its JSON path, e.g. `layout.startFields[3].spec`). Never throws.
 */
export function loadCastleLayout(data: unknown): Result<CastleLayout, MeepleError> {
  return guarded('options/castle-layout', 'layout', () => compileLayout(data));
}


/** Whether cell `x`,`y` belongs to the layout's play area (false off the grid). */
export function isInside(layout: CastleLayout, x: number, y: number): boolean {
  return (
    Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < layout.width && y < layout.height && layout.inside[y * layout.width + x] === 1
  );
}
