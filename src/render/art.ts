/**
 * The layout of one tile kind's picture, worked out from its definition (the same data the rules
 * read): which feature is the ground, the outline of every area feature, the centre line of every
 * band, where roads end, and where a follower or a symbol stands on each feature. Computed once
 * per tile kind and ruleset, at rotation 0; boards turn the finished picture.
 */
import type { FeatureKindDef, TileDef } from '../core/tiles.js';
import { PORTS } from '../core/types.js';
import { areaOutline, bandLine, CENTRE, cubicAt, distanceToBand, insidePolygon, lerp, portMid, portRuns, sidePoint, type BandLine, type Outline } from './geometry.js';
import { marksOf, type TileMarks } from './marks.js';
import { cellCentre, cellOf, cellsWhere, deepestCell, depths, GRID, growLabels } from './raster.js';
import { num, type Point } from './svg.js';

/** How a feature kind is drawn. */
export type Role =
  /** Open ground between the other features (fields, The Castle's courts). */
  | 'ground'
  /** An area bounded by a wall or outline (cities, towers, houses, the City of Carcassonne). */
  | 'area'
  /** A band between ports (roads, rivers, paths). */
  | 'band'
  /** A building in the middle of the tile (cloisters, shrines). */
  | 'centre';

/** How a kind is drawn, from its traits and name (unknown kinds of outside modules draw as areas). */
export function roleOf(kind: FeatureKindDef): Role {
  if (kind.completion === 'surroundings') return 'centre';
  if (kind.name === 'road' || kind.name === 'river' || kind.name === 'path') return 'band';
  if (kind.name === 'field' || kind.name === 'court') return 'ground';
  return 'area';
}

/** Half the width of a band kind, in tile units. */
export function bandHalfWidth(kind: string): number {
  return kind === 'river' ? 7 : kind === 'path' ? 6.5 : 5.5;
}

/** One feature of a tile picture. */
export interface FeatureArt {
  /** Local id (`c1`). */
  readonly id: string;
  /** Kind name. */
  readonly kind: string;
  /** How it is drawn. */
  readonly role: Role;
  /** Pennants (wells on paths, markets in courts). */
  readonly pennants: number;
  /** Outline (areas and ground with ports). */
  readonly outline: Outline | null;
  /** Centre line (bands). */
  readonly band: BandLine | null;
  /** Where a follower on it stands. */
  readonly anchor: Point;
  /** Where its pennant, well or market is drawn. */
  readonly emblem: Point;
  /** Raster cells of the room it has in the picture (ground and areas), for highlighting. */
  readonly region: Uint8Array | null;
}

/** A tile kind's picture layout. */
export interface TileArt {
  /** The tile kind's id. */
  readonly id: string;
  /** The features, in local order. */
  readonly features: readonly FeatureArt[];
  /** The feature drawn as the whole tile's ground (-1: none). */
  readonly ground: number;
  /** Path data of the hedges between open-ground features whose room touches ('' for none). */
  readonly hedge: string;
  /** Per feature: the centre of an enclosed meadow drawn inside its cities, or null. */
  readonly enclosed: readonly (Point | null)[];
  /** Where roads with one port end. */
  readonly hub: Point;
  /** What stands in the middle where roads end, when nothing else does. */
  readonly hubMark: 'junction' | 'lake' | null;
  /** The printed symbols. */
  readonly marks: TileMarks;
  /** Where each free-room symbol (`marks.spots`) is drawn. */
  readonly spots: readonly Point[];
  /** Where the princess is drawn (null: none). */
  readonly princess: Point | null;
}

/** Radius of a building or symbol in the middle of a tile. */
export const CENTRE_RADIUS = 16;
/** The half-axes of an enclosed meadow (a field with no port, inside its cities). */
export const MEADOW = { rx: 12, ry: 9 } as const;
/** Where a monk stands on a tile with a cloister or shrine: by the door, not on the roof. */
const MONK: Point = { x: 71, y: 69 };

/** Lays out the picture of tile kind `def` whose features have kinds `kinds` (in local order). */
export function tileArt(def: TileDef, kinds: readonly FeatureKindDef[]): TileArt {
  const marks = marksOf(def.id);
  const ports = def.features.map((f) => f.ports.map((p) => PORTS.indexOf(p)));
  const roles = kinds.map(roleOf);
  const hasCentre = roles.includes('centre') || marks.centre !== null;

  // Where one-port bands end: the building or symbol in the middle; a junction of three or more;
  // else the gate of a city (or other area) on the tile; else a small house in the middle.
  const deadEnds = def.features.filter((f, i) => roles[i] === 'band' && f.ports.length === 1 && kinds[i]!.name !== 'river').length;
  const riverEnds = def.features.some((f, i) => kinds[i]!.name === 'river' && f.ports.length === 1);
  const firstArea = roles.findIndex((r, i) => r === 'area' && ports[i]!.length > 0 && ports[i]!.length < 12);
  let hub = CENTRE;
  let hubMark: TileArt['hubMark'] = null;
  if (riverEnds && !hasCentre && deadEnds === 0) hubMark = 'lake';
  else if (!hasCentre && deadEnds >= 3) hubMark = 'junction';
  else if (!hasCentre && deadEnds > 0 && firstArea >= 0) hub = lerp(CENTRE, runMiddle(ports[firstArea]!), 0.62);
  else if (!hasCentre && deadEnds > 0) hubMark = 'junction';

  const outlines = def.features.map((_, i) => (roles[i] === 'area' || roles[i] === 'ground') && ports[i]!.length > 0 ? areaOutline(ports[i]!) : null);
  const bands = def.features.map((_, i) => (roles[i] === 'band' ? bandLine(ports[i]!, kinds[i]!.name === 'river' ? CENTRE : hub) : null));

  // Room in the picture: what each drawn shape covers.
  const centreCovered = hasCentre || hubMark !== null;
  const centreRadius = hasCentre ? CENTRE_RADIUS : hubMark === 'lake' ? 12 : 7;
  const inCentre = (p: Point): boolean => centreCovered && Math.hypot(p.x - CENTRE.x, p.y - CENTRE.y) < centreRadius + 1;
  const inBand = (p: Point, i: number): boolean => bands[i] !== null && distanceToBand(p, bands[i]!) < bandHalfWidth(kinds[i]!.name) + 1.5;
  const anyBand = (p: Point): boolean => bands.some((_, i) => inBand(p, i));
  // Ground: the largest open-ground feature with ports; without one, the largest area.
  const ground = pickGround(roles, ports);
  const areaMasks = def.features.map((_, i) => (roles[i] === 'area' && i !== ground && outlines[i] !== null ? cellsWhere((p) => insidePolygon(p, outlines[i]!.polygon)) : null));
  const blocked = cellsWhere((p) => inCentre(p) || anyBand(p) || areaMasks.some((m) => m !== null && m[cellOf(p)] === 1));

  // Ground features: grow each one's room from its ports over the free cells.
  const free = new Uint8Array(GRID * GRID);
  for (let c = 0; c < free.length; c++) free[c] = blocked[c] === 1 ? 0 : 1;
  const seeds: [number, number][] = [];
  def.features.forEach((_, i) => {
    if (roles[i] !== 'ground' && !(i === ground && roles[i] === 'area')) return;
    for (const p of ports[i]!) {
      const mid = portMid(p);
      for (let step = 0; step <= 12; step++) {
        const c = cellOf(lerp(mid, CENTRE, step / 25));
        if (free[c] === 1) {
          seeds.push([c, i]);
          break;
        }
      }
    }
  });
  const labels = growLabels(free, seeds);
  // Two open-ground features whose room touches in the picture (a city's bulge the drawing does
  // not show): a hedge along the border between their rooms keeps them apart.
  const hedge = hedgeBetween(labels);
  const regions: (Uint8Array | null)[] = def.features.map(() => null);
  def.features.forEach((_, i) => {
    if (roles[i] !== 'ground' && !(i === ground && roles[i] === 'area')) return;
    const r = new Uint8Array(GRID * GRID);
    for (let c = 0; c < r.length; c++) if (labels[c] === i) r[c] = 1;
    regions[i] = r;
  });
  // Ground features with no port (an inner meadow): the free pockets no port reached, largest first.
  const pockets = freePockets(free, labels);
  let pocket = 0;
  const enclosed: (Point | null)[] = def.features.map(() => null);
  def.features.forEach((f, i) => {
    if (roles[i] !== 'ground' || f.ports.length !== 0) return;
    if (pocket < pockets.length) {
      regions[i] = pockets[pocket++]!;
      return;
    }
    // No room left between the drawn areas: the meadow is drawn enclosed inside the areas it
    // touches (a garden within the walls), at the roomiest spot of their union.
    const inside = new Uint8Array(GRID * GRID);
    for (const a of f.adjacent) {
      const j = def.features.findIndex((g) => g.id === a);
      const mask = j >= 0 ? areaMasks[j] : null;
      if (mask !== null && mask !== undefined) for (let c = 0; c < inside.length; c++) if (mask[c] === 1 && blocked[c] === 1 && !inCentre(cellCentre(c)) && !anyBand(cellCentre(c))) inside[c] = 1;
    }
    const taken = [CENTRE, ...enclosed.filter((p): p is Point => p !== null)];
    const at = spotIn(inside, taken, 22) ?? spotIn(inside, taken.slice(1), 22) ?? CENTRE;
    enclosed[i] = at;
    regions[i] = cellsWhere((p) => Math.hypot((p.x - at.x) / MEADOW.rx, (p.y - at.y) / MEADOW.ry) <= 1);
  });
  // Areas: what is left of the outline where later areas, bands and the middle cover it.
  def.features.forEach((_, i) => {
    if (areaMasks[i] === null) return;
    const r = new Uint8Array(GRID * GRID);
    for (let c = 0; c < r.length; c++) {
      if (areaMasks[i]![c] !== 1) continue;
      const p = cellCentre(c);
      if (inCentre(p) || anyBand(p) || areaMasks.some((m, j) => j > i && m !== null && m[c] === 1)) continue;
      r[c] = 1;
    }
    regions[i] = r;
  });

  const anchors: Point[] = def.features.map((f, i) => {
    const role = roles[i]!;
    if (role === 'centre') return MONK;
    if (role === 'band') {
      const curve = bands[i]!.curves[0]!;
      // On the band, clear of what stands in the middle (a cloister on the river, a tunnel's city).
      if (marks.crossing === 'tunnel') return cubicAt(curve, 0.13);
      if (f.ports.length === 2) return cubicAt(curve, centreCovered && distanceToBand(CENTRE, bands[i]!) < centreRadius ? 0.22 : 0.5);
      return cubicAt(curve, 0.42);
    }
    const region = regions[i];
    const prefer = ports[i]!.length === 0 ? CENTRE : lerp(average(ports[i]!.map(portMid)), CENTRE, 0.35);
    const cell = region === null || region === undefined ? -1 : deepestCell(region, prefer);
    return cell < 0 ? prefer : cellCentre(cell);
  });
  // A follower is about 23 units tall: keep it on its tile.
  for (let i = 0; i < anchors.length; i++) {
    if (enclosed[i] !== null) anchors[i] = enclosed[i]!;
    anchors[i] = { x: Math.min(88, Math.max(12, anchors[i]!.x)), y: Math.min(88, Math.max(12, anchors[i]!.y)) };
  }
  const emblems = def.features.map((f, i) => {
    if (f.pennants === 0) return anchors[i]!;
    if (roles[i] === 'band') return cubicAt(bands[i]!.curves[0]!, f.ports.length === 2 ? 0.22 : 0.2);
    return spotIn(regions[i] ?? null, [anchors[i]!], 17) ?? lerp(anchors[i]!, CENTRE, -0.4);
  });
  const princessLocal = marks.princess === null ? -1 : def.features.findIndex((f) => f.id === marks.princess);
  const taken = [...anchors, ...emblems.filter((_, i) => def.features[i]!.pennants > 0)];
  const princess = princessLocal < 0 ? null : (spotIn(regions[princessLocal] ?? null, taken, 15) ?? anchors[princessLocal]!);
  if (princess !== null) taken.push(princess);
  const spots: Point[] = [];
  const open = new Uint8Array(GRID * GRID);
  for (let c = 0; c < open.length; c++) open[c] = free[c]!;
  for (const _ of marks.spots) {
    const at = spotIn(open, taken, 15) ?? spotIn(open, taken, 8) ?? { x: 80, y: 80 };
    spots.push(at);
    taken.push(at);
  }

  return {
    id: def.id,
    features: def.features.map((f, i) => ({
      id: f.id,
      kind: f.kind,
      role: roles[i]!,
      pennants: f.pennants,
      outline: outlines[i]!,
      band: bands[i]!,
      anchor: anchors[i]!,
      emblem: emblems[i]!,
      region: regions[i]!,
    })),
    ground,
    hedge,
    enclosed,
    hub,
    hubMark,
    marks,
    spots,
    princess,
  };
}

/**
 * The feature drawn as the whole tile's ground: the open-ground feature with the most ports; with
 * none, no ground when the tile has an inner meadow (open ground with no port, which shows in the
 * pockets between the areas), else the area with the most ports (The Castle's tiles without a
 * court, a whole-tile city).
 */
/**
 * The border between cells of different labels (both labelled) as smooth lines: the cell edges
 * on it are chained into runs and each run simplified (Douglas-Peucker), so that a diagonal
 * border is drawn as a straight hedge, not a staircase. SVG path data, '' for none.
 */
function hedgeBetween(labels: Int16Array): string {
  const size = 100 / GRID;
  // Unit edges on the border, as pairs of grid points (index y * (GRID + 1) + x).
  const W = GRID + 1;
  const links = new Map<number, number[]>();
  const link = (a: number, b: number): void => {
    if (!links.has(a)) links.set(a, []);
    if (!links.has(b)) links.set(b, []);
    links.get(a)!.push(b);
    links.get(b)!.push(a);
  };
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const l = labels[y * GRID + x]!;
      if (l < 0) continue;
      const right = x + 1 < GRID ? labels[y * GRID + x + 1]! : -1;
      const below = y + 1 < GRID ? labels[(y + 1) * GRID + x]! : -1;
      if (right >= 0 && right !== l) link(y * W + x + 1, (y + 1) * W + x + 1);
      if (below >= 0 && below !== l) link((y + 1) * W + x, (y + 1) * W + x + 1);
    }
  }
  const used = new Set<string>();
  const key = (a: number, b: number): string => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const point = (v: number): Point => ({ x: (v % W) * size, y: Math.floor(v / W) * size });
  const paths: string[] = [];
  // Start chains at ends (one link) first, then at whatever is left (loops).
  const starts = [...links.keys()].sort((a, b) => (links.get(a)!.length === 1 ? 0 : 1) - (links.get(b)!.length === 1 ? 0 : 1) || a - b);
  for (const start of starts) {
    for (const first of links.get(start)!) {
      if (used.has(key(start, first))) continue;
      const chain = [start];
      let prev = start;
      let at = first;
      used.add(key(start, first));
      for (;;) {
        chain.push(at);
        const next = links.get(at)!.find((n) => n !== prev && !used.has(key(at, n)));
        if (next === undefined) break;
        used.add(key(at, next));
        prev = at;
        at = next;
      }
      const line = simplify(chain.map(point), 12);
      paths.push(`M${line.map((q) => `${num(q.x)},${num(q.y)}`).join('L')}`);
    }
  }
  return paths.join('');
}

/** Douglas-Peucker: the points of `line` that keep it within `tolerance`. */
function simplify(line: readonly Point[], tolerance: number): Point[] {
  if (line.length <= 2) return [...line];
  const a = line[0]!;
  const b = line[line.length - 1]!;
  let worst = -1;
  let far = 0;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  for (let i = 1; i < line.length - 1; i++) {
    const p = line[i]!;
    const d = len === 0 ? Math.hypot(p.x - a.x, p.y - a.y) : Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / len;
    if (d > far) {
      far = d;
      worst = i;
    }
  }
  if (far <= tolerance) return [a, b];
  return [...simplify(line.slice(0, worst + 1), tolerance).slice(0, -1), ...simplify(line.slice(worst), tolerance)];
}

function pickGround(roles: readonly Role[], ports: readonly (readonly number[])[]): number {
  let best = -1;
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] === 'ground' && ports[i]!.length > 0 && (best < 0 || ports[i]!.length > ports[best]!.length)) best = i;
  }
  if (best >= 0) return best;
  // An inner meadow (open ground with no port) shows in the pockets between the areas: no ground.
  if (roles.some((r, i) => r === 'ground' && ports[i]!.length === 0)) return -1;
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] === 'area' && ports[i]!.length > 0 && (best < 0 || ports[i]!.length > ports[best]!.length)) best = i;
  }
  return best;
}

/** The point halfway along a feature's first run of ports, on the tile's edge. */
function runMiddle(ports: readonly number[]): Point {
  const [first, length] = portRuns(ports)[0]!;
  const pos = (first + length / 2) % 12;
  return sidePoint(Math.floor(pos / 3), (pos % 3) / 3);
}

function average(points: readonly Point[]): Point {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

/**
 * A spot for a symbol in `region`: a cell with room round it (at least 4 cells from the
 * region's edge when possible) and at least `gap` tile units from every point of `avoid`; the
 * roomiest such cell, nearest the tile's centre. Null when there is none.
 */
function spotIn(region: Uint8Array | null, avoid: readonly Point[], gap: number): Point | null {
  if (region === null) return null;
  const depth = depths(region);
  for (const room of [4, 3, 2]) {
    const r = new Uint8Array(region.length);
    let any = false;
    for (let c = 0; c < r.length; c++) {
      if (region[c] !== 1 || depth[c]! < room) continue;
      const p = cellCentre(c);
      if (avoid.every((a) => Math.hypot(a.x - p.x, a.y - p.y) >= gap)) {
        r[c] = 1;
        any = true;
      }
    }
    if (!any) continue;
    const cell = deepestCell(r, CENTRE);
    if (cell >= 0) return cellCentre(cell);
  }
  return null;
}

/** Free cells no label reached, grouped into connected pockets, largest first (ties: first cell). */
function freePockets(free: Uint8Array, labels: Int16Array): Uint8Array[] {
  const left = new Uint8Array(free.length);
  for (let c = 0; c < left.length; c++) left[c] = free[c] === 1 && labels[c] === -1 ? 1 : 0;
  const pockets: { cells: Uint8Array; size: number; first: number }[] = [];
  const seen = new Uint8Array(free.length);
  for (let c = 0; c < left.length; c++) {
    if (left[c] !== 1 || seen[c] === 1) continue;
    const grown = growLabels(left, [[c, 0]]);
    const cells = new Uint8Array(free.length);
    let size = 0;
    for (let d = 0; d < cells.length; d++) {
      if (grown[d] === 0) {
        cells[d] = 1;
        seen[d] = 1;
        size++;
      }
    }
    pockets.push({ cells, size, first: c });
  }
  pockets.sort((a, b) => b.size - a.size || a.first - b.first);
  return pockets.filter((p) => p.size >= 6).map((p) => p.cells);
}
