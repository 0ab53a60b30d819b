/**
 * The geometry of a tile picture, in tile units (a tile is 100 x 100, north up, y grows south):
 * where each of the 12 ports lies on the edge, the outline of an area feature (a city, a tower,
 * a court...) drawn from the ports it owns, and the centre line of a band feature (a road, a
 * river, a path) drawn between its ports. Every shape is both an SVG path (to draw) and a
 * polygon (to find free room for followers and symbols).
 */
import { num, pt, type Point } from './svg.js';

/** The tile's side length in tile units. */
export const TILE = 100;
/** The centre of a tile. */
export const CENTRE: Point = { x: 50, y: 50 };
/** How far a closing curve's control points lean towards the centre (0: straight chord, 1: through the centre). */
const LEAN = 0.6;

/** The point at fraction `t` (0..1) along side `side` (0 N, 1 E, 2 S, 3 W), walking clockwise. */
export function sidePoint(side: number, t: number): Point {
  const d = t * TILE;
  switch (side & 3) {
    case 0:
      return { x: d, y: 0 };
    case 1:
      return { x: TILE, y: d };
    case 2:
      return { x: TILE - d, y: TILE };
    default:
      return { x: 0, y: TILE - d };
  }
}

/** The middle of port `p`'s third of its edge. */
export function portMid(p: number): Point {
  return sidePoint((p / 3) | 0, ((p % 3) + 0.5) / 3);
}

/** Where port `p`'s third of the edge starts, walking clockwise. */
function portStart(p: number): Point {
  return sidePoint((p / 3) | 0, (p % 3) / 3);
}

/** `a + (b - a) * t`. */
export function lerp(a: Point, b: Point, t: number): Point {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}

/** A cubic Bezier segment. */
export interface Cubic {
  /** Start. */
  readonly a: Point;
  /** First control point. */
  readonly c1: Point;
  /** Second control point. */
  readonly c2: Point;
  /** End. */
  readonly b: Point;
}

/** The point at `t` on a cubic. */
export function cubicAt(c: Cubic, t: number): Point {
  const u = 1 - t;
  const w0 = u * u * u;
  const w1 = 3 * u * u * t;
  const w2 = 3 * u * t * t;
  const w3 = t * t * t;
  return { x: w0 * c.a.x + w1 * c.c1.x + w2 * c.c2.x + w3 * c.b.x, y: w0 * c.a.y + w1 * c.c1.y + w2 * c.c2.y + w3 * c.b.y };
}

/** A curve from `a` to `b` through the inside of the tile, bowed towards the centre. */
export function inwardCurve(a: Point, b: Point, lean = LEAN): Cubic {
  return { a, c1: lerp(a, CENTRE, lean), c2: lerp(b, CENTRE, lean), b };
}

/** Runs of consecutive owned ports, clockwise, as `[first, length]` (cyclic: a run may wrap from W3 to N1). */
export function portRuns(ports: readonly number[]): [number, number][] {
  const owned = new Array<boolean>(12).fill(false);
  for (const p of ports) owned[p] = true;
  if (ports.length >= 12) return [[0, 12]];
  if (ports.length === 0) return [];
  // Start scanning just after an unowned port, so that no run is cut in two by the wrap.
  let start = 0;
  while (owned[start]) start++;
  const runs: [number, number][] = [];
  for (let i = 1; i <= 12; i++) {
    const p = (start + i) % 12;
    if (!owned[p]) continue;
    const last = runs[runs.length - 1];
    if (last !== undefined && (last[0] + last[1]) % 12 === p) last[1]++;
    else runs.push([p, 1]);
  }
  return runs;
}

/** An outline: SVG path data and a polygon approximating it. */
export interface Outline {
  /** SVG path data (closed). */
  readonly d: string;
  /** The outline as a polygon (curves sampled). */
  readonly polygon: readonly Point[];
}

const SAMPLES = 12;

/**
 * The outline of an area feature owning `ports`: each run of owned ports is a stretch of the
 * tile's edge, and consecutive runs are joined by curves bowed towards the centre (a city cap,
 * a city across the tile, a corner city...). All 12 ports: the whole tile.
 */
export function areaOutline(ports: readonly number[]): Outline {
  const runs = portRuns(ports);
  if (runs.length === 1 && runs[0]![1] === 12) {
    const square = [sidePoint(0, 0), sidePoint(1, 0), sidePoint(2, 0), sidePoint(3, 0)];
    return { d: `M${square.map(pt).join('L')}Z`, polygon: square };
  }
  const parts: string[] = [];
  const polygon: Point[] = [];
  runs.forEach(([first, length], i) => {
    const start = portStart(first);
    if (i === 0) parts.push(`M${pt(start)}`);
    polygon.push(start);
    // Walk the edge, turning at each corner passed.
    for (let k = 1; k <= length; k++) {
      const p = first + k;
      const end = p % 3 === 0 || k === length ? portStart(p % 12) : null;
      if (end !== null) {
        parts.push(`L${pt(end)}`);
        polygon.push(end);
      }
    }
    const [nextFirst] = runs[(i + 1) % runs.length]!;
    const from = portStart((first + length) % 12);
    const to = portStart(nextFirst);
    // Two whole sides round a corner: bow the wall towards that corner (a concave corner city),
    // as a chord through the centre would look like a ruler's line.
    const target = runs.length === 1 && length === 6 ? lerp(CENTRE, sidePoint(Math.floor(((first + 3) % 12) / 3), 0), 0.55) : CENTRE;
    const curve = { a: from, c1: lerp(from, target, LEAN), c2: lerp(to, target, LEAN), b: to };
    if (runs.length === 1 && length <= 2) Object.assign(curve, inwardCurve(from, to, 0.45));
    parts.push(`C${pt(curve.c1)} ${pt(curve.c2)} ${pt(curve.b)}`);
    for (let s = 1; s < SAMPLES; s++) polygon.push(cubicAt(curve, s / SAMPLES));
  });
  parts.push('Z');
  return { d: parts.join(''), polygon };
}

/** A band's centre line: curves from each owned port towards where it ends. */
export interface BandLine {
  /** SVG path data (open). */
  readonly d: string;
  /** The curves, for sampling. */
  readonly curves: readonly Cubic[];
}

/**
 * The centre line of a band feature (road, river, path) owning `ports`: with two ports, one
 * curve from one to the other through the tile; otherwise a curve from each port to `hub` (the
 * end of a road at a junction, a cloister or a city gate; the middle of a river fork).
 */
export function bandLine(ports: readonly number[], hub: Point): BandLine {
  const curves: Cubic[] = [];
  if (ports.length === 2) {
    const a = portMid(ports[0]!);
    const b = portMid(ports[1]!);
    // Facing ports (a straight road): a straight line; otherwise a curve bowed towards the centre.
    curves.push(inwardCurve(a, b, 0.55));
  } else {
    for (const p of ports) {
      const a = portMid(p);
      curves.push({ a, c1: lerp(a, hub, 0.4), c2: lerp(a, hub, 0.7), b: hub });
    }
  }
  return { d: curves.map((c) => `M${pt(c.a)}C${pt(c.c1)} ${pt(c.c2)} ${pt(c.b)}`).join(''), curves };
}

/** Whether `p` lies inside `polygon` (even-odd rule). */
export function insidePolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Distance from `p` to the nearest point of a band's centre line (sampled). */
export function distanceToBand(p: Point, line: BandLine): number {
  let best = Infinity;
  for (const c of line.curves) {
    let prev = c.a;
    for (let s = 1; s <= SAMPLES; s++) {
      const q = cubicAt(c, s / SAMPLES);
      best = Math.min(best, distanceToSegment(p, prev, q));
      prev = q;
    }
  }
  return best;
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** A point of a tile turned `r` quarter turns clockwise about the centre. */
export function rotatePoint(p: Point, r: number): Point {
  switch (r & 3) {
    case 1:
      return { x: TILE - p.y, y: p.x };
    case 2:
      return { x: TILE - p.x, y: TILE - p.y };
    case 3:
      return { x: p.y, y: TILE - p.x };
    default:
      return p;
  }
}

/** `rotate(...)` transform text for a tile turned `r` quarter turns, or '' for none. */
export function rotation(r: number): string {
  return (r & 3) === 0 ? '' : ` rotate(${num(90 * (r & 3))} 50 50)`;
}
