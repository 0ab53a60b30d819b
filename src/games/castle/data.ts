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
import { meepleError, showValue, type ErrorCode, type MeepleError } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import { oppositePort, parseTileSpec, type FeatureKindDef, type TileDef } from '../../core/tiles.js';
import { PORTS } from '../../core/types.js';
import { CASTLE_KINDS } from './kinds.js';

/** A side of a cell, by name: `N`, `E`, `S` or `W` (side index 0..3 in that order). */
export type SideName = 'N' | 'E' | 'S' | 'W';

/** A boundary edge of the play area: inside cell `x`,`y` and the side of it that faces the wall. */
export interface CastleEdge {
  /** Column of the inside cell (grows east). */
  readonly x: number;
  /** Row of the inside cell (grows south). */
  readonly y: number;
  /** The side of that cell that faces the wall. */
  readonly side: SideName;
}

/** A start field: a boundary edge and the half-feature printed on the wall there. */
export interface CastleStartField extends CastleEdge {
  /**
   * The half-feature as the inside cell sees it on that side, in tile-spec notation using only
   * that side's ports, e.g. for side N: `'c:N1 p:N2 c+:N3'`. Ports of the side not named are
   * plain wall.
   */
  readonly spec: string;
}

/**
 * A wall layout as plain JSON: the play area, the start fields, the score track and the wall
 * towers. Load it with {@link loadCastleLayout}.
 */
export interface CastleLayoutData {
  /** Where the data comes from: `'reconstructed'` for the shipped default, `'official'` for real data. */
  readonly provenance: string;
  /** Free text: sources, caveats. */
  readonly notes?: string;
  /** Rows north to south, `'#'` a play-area cell, `'.'` outside. All rows have the same length. */
  readonly area: readonly string[];
  /** The 7 start fields, each on its own boundary edge. */
  readonly startFields: readonly CastleStartField[];
  /** Exactly 100 entries: track space `i` lies beside boundary edge `track[i]`, in order round the wall. */
  readonly track: readonly CastleEdge[];
  /** The 14 wall towers, each two consecutive spaces `[a, (a + 1) % 100]`; one is `[0, 1]`. */
  readonly towers: readonly (readonly [number, number])[];
  /** The first track space of each of the 10 wall pieces, ascending (absent: not recorded). */
  readonly pieces?: readonly number[];
}

/** One tile kind of a tile set: id, copies and spec in the 12-port notation with The Castle's codes. */
export interface CastleTileData {
  /** The tile kind's id, unique in the set, not starting with `@` (reserved for start fields). */
  readonly id: string;
  /** Copies in the set: a positive integer. */
  readonly count: number;
  /** Features `code[+...]:ports` separated by spaces; codes `p` path, `t` tower, `h` house, `c` court. */
  readonly spec: string;
}

/** A tile set as plain JSON: 60 tiles in all. Load it with {@link loadCastleTiles}. */
export interface CastleTileSetData {
  /** Where the data comes from: `'reconstructed'` for the shipped default, `'official'` for real data. */
  readonly provenance: string;
  /** Free text: sources, caveats. */
  readonly notes?: string;
  /** The tile kinds with their counts. */
  readonly tiles: readonly CastleTileData[];
}

/**
 * A start field compiled into a virtual tile lying on the outside cell (`x`, `y`) next to the
 * play area, at rotation 0 (its ports already in board orientation).
 */
export interface CastleStartTile {
  /** Column of the outside cell (may be -1 or the grid width). */
  readonly x: number;
  /** Row of the outside cell (may be -1 or the grid height). */
  readonly y: number;
  /** The virtual tile: id `@start-1`, `@start-2`, ...; count 0; every port not on a start field is wall (`w`). */
  readonly def: TileDef;
}

/** A validated wall layout, compiled for the engine. Read-only, typed arrays included. */
export interface CastleLayout {
  /** The data's provenance (`'reconstructed'`, `'official'`, ...). */
  readonly provenance: string;
  /** Grid width: the length of the area rows. */
  readonly width: number;
  /** Grid height: the number of area rows. */
  readonly height: number;
  /** `width * height` flags, 1 for a play-area cell, at index `y * width + x`. */
  readonly inside: Uint8Array;
  /** How many play-area cells there are (76). */
  readonly cellCount: number;
  /**
   * One virtual tile per outside cell that carries at least one start field, in order of first
   * appearance in the data; start fields touching the same outside cell share its tile.
   */
  readonly startTiles: readonly CastleStartTile[];
  /** The start fields, as given. */
  readonly startFields: readonly CastleStartField[];
  /** The 100 track spaces' boundary edges. */
  readonly track: readonly CastleEdge[];
  /** The 14 towers, as given. */
  readonly towers: readonly (readonly [number, number])[];
  /** Per track space (100): the index of the tower it belongs to, or -1. */
  readonly towerAt: Int8Array;
  /** First track space of each wall piece (empty when the data does not record them). */
  readonly pieces: readonly number[];
  /** The input data, normalized and deeply frozen. */
  readonly data: CastleLayoutData;
}

/** Play-area cells of The Castle. */
const CELLS = 76;
/** Track spaces round the wall. */
const SPACES = 100;
/** Wall towers. */
const TOWERS = 14;
/** Start fields on the wall. */
const START_FIELDS = 7;
/** Wall pieces. */
const PIECES = 10;
/** Tiles in the set. */
const TILES = 60;
/** A bound on the grid, far beyond any 76-cell area: keeps work small on absurd input. */
const MAX_GRID = 128;
/** A bound on spec length: a 12-port spec is far shorter. */
const MAX_SPEC = 400;

const SIDE_NAMES: readonly SideName[] = ['N', 'E', 'S', 'W'];
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;
const PORT_INDEX: ReadonlyMap<string, number> = new Map(PORTS.map((p, i) => [p, i]));

// ---------------------------------------------------------------------------------------------
// Reading untrusted JSON: own data properties only, so that prototypes and getters play no part.

/** An own data property of `obj`, or undefined. */
function field(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d !== undefined && 'value' in d ? d.value : undefined;
}

/** Whether `v` is a plain record (an object, not an array). */
function isRecord(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Element `i` of an array, own data properties only. */
function at(arr: readonly unknown[], i: number): unknown {
  return field(arr, String(i));
}

/** Whether `v` is an integer in `lo..hi`. */
function isInt(v: unknown, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/** Deeply freezes plain objects and arrays (typed arrays cannot be frozen and are left alone). */
function freezeDeep<T>(v: T): T {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || Object.isFrozen(v)) return v;
  for (const k of Object.keys(v)) freezeDeep((v as Record<string, unknown>)[k]);
  return Object.freeze(v);
}

/** A failure at a JSON path (tagged, so that it cannot be mistaken for a result). */
interface Failure {
  readonly failed: true;
  readonly message: string;
  readonly path: string;
}

/** Shorthand for a {@link Failure}. */
function fail(path: string, message: string): Failure {
  return { failed: true, message, path };
}

/** Whether a validator's outcome is a {@link Failure}. */
function isFailure<T>(v: T | Failure): v is Failure {
  return typeof v === 'object' && v !== null && Object.hasOwn(v, 'failed');
}

/** Runs a validator, turning a failure (or an exotic input that throws when read) into an error. */
function guarded<T>(code: ErrorCode, root: string, run: () => T | Failure): Result<T, MeepleError> {
  let out: T | Failure;
  try {
    out = run();
  } catch (e) {
    // Only exotic input gets here (a Proxy or accessor that throws when read): JSON cannot.
    const why = e instanceof Error ? e.message : 'unreadable value';
    return err(meepleError(code, `${root} cannot be read: ${why}`, { path: root }));
  }
  return isFailure(out) ? err(meepleError(code, out.message, { path: out.path })) : ok(out);
}

// ---------------------------------------------------------------------------------------------
// Tile specs

/** One feature of a spec, read and checked. */
interface SpecFeature {
  readonly kind: FeatureKindDef;
  /** Local id: code + running number per kind (`p1`, `c2`). */
  readonly id: string;
  readonly plus: number;
  readonly ports: readonly number[];
}

/**
 * Reads a spec in The Castle's notation and checks what both tiles and start fields require:
 * known codes, no wall, no adjacency lists, known ports owned once, every feature owning a port,
 * paths only on middle ports, `+` only on paths (wells) and courts (markets). Returns a message
 * (starting with `who`) on failure.
 */
function readSpec(spec: unknown, who: string, pathOff: (id: string, port: string) => string): readonly SpecFeature[] | string {
  if (typeof spec !== 'string') return `${who}: spec must be a string, got ${showValue(spec)}`;
  if (spec.length > MAX_SPEC) return `${who}: spec is ${spec.length} characters long, more than ${MAX_SPEC}`;
  const text = spec.trim();
  if (text === '') return `${who}: spec is empty`;
  const byCode = new Map(CASTLE_KINDS.map((k) => [k.code, k]));
  const perKind = new Map<string, number>();
  const owned = new Set<number>();
  const features: SpecFeature[] = [];
  for (const part of text.split(/\s+/)) {
    if (part.includes('>')) return `${who}: feature '${part}' has an adjacency list ('>'), which The Castle does not use`;
    const m = /^([A-Za-z])(\+*)(?::(.*))?$/.exec(part);
    if (m === null) return `${who}: cannot read feature '${part}' (expected code[+][:ports], e.g. 'p:N2,S2')`;
    const code = m[1]!;
    const kind = byCode.get(code);
    if (kind === undefined) {
      const codes = CASTLE_KINDS.filter((k) => k.code !== 'w').map((k) => `${k.code} ${k.name}`).join(', ');
      return `${who}: unknown feature code '${code}' in '${part}' (codes: ${codes})`;
    }
    if (kind.code === 'w') return `${who}: wall feature '${part}': the wall lies only round the play area, never on a tile or start field`;
    const n = (perKind.get(code) ?? 0) + 1;
    perKind.set(code, n);
    const id = `${code}${n}`;
    const ports: number[] = [];
    for (const tok of m[3] === undefined || m[3] === '' ? [] : m[3].split(',')) {
      const list = tok.length === 1 ? [`${tok}1`, `${tok}2`, `${tok}3`] : [tok];
      for (const p of list) {
        const i = PORT_INDEX.get(p);
        if (i === undefined) return `${who}: unknown port '${tok}' in '${part}' (ports N1..W3, or a side letter N, E, S, W)`;
        if (owned.has(i)) return `${who}: port ${p} owned twice (again by ${kind.name} ${id})`;
        owned.add(i);
        ports.push(i);
      }
    }
    if (ports.length === 0) return `${who}: ${kind.name} ${id} ('${part}') owns no port`;
    if (kind.name === 'path') {
      const off = ports.find((p) => p % 3 !== 1);
      if (off !== undefined) return `${who}: ${pathOff(id, PORTS[off]!)}`;
    }
    const plus = m[2]!.length;
    if (plus > 0 && kind.name !== 'path' && kind.name !== 'court') {
      return `${who}: '+' on ${kind.name} ${id} ('${part}'): only a path (well) or a court (market) can carry one`;
    }
    features.push({ kind, id, plus, ports });
  }
  return features;
}

/** The spec text of a feature with the given ports. */
function featureText(f: SpecFeature, ports: readonly number[]): string {
  return `${f.kind.code}${'+'.repeat(f.plus)}:${ports.map((p) => PORTS[p]).join(',')}`;
}

// ---------------------------------------------------------------------------------------------
// Layout

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

// ---------------------------------------------------------------------------------------------
// Tiles

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

/** Whether cell `x`,`y` belongs to the layout's play area (false off the grid). */
export function isInside(layout: CastleLayout, x: number, y: number): boolean {
  return (
    Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < layout.width && y < layout.height && layout.inside[y * layout.width + x] === 1
  );
}
