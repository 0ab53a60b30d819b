/**
 * Draws one tile kind's picture (at rotation 0) from its layout: the ground, the areas with
 * their walls, the bands, the buildings and the printed symbols, in that order, so that roads
 * ending at a city run under its gate. Optionally highlights some of its features.
 */
import { bandHalfWidth, MEADOW, type FeatureArt, type TileArt } from './art.js';
import { CENTRE, cubicAt, insidePolygon, rotatePoint } from './geometry.js';
import { cloister, dragonSymbol, foundation, junction, lake, market, pennant, portal, princess, shrine, volcano, well } from './glyphs.js';
import type { Palette } from './palette.js';
import { cellCentre, GRID } from './raster.js';
import { num, pt, type Point } from './svg.js';

/** Fill and outline of an area or ground kind. */
function areaColours(kind: string, p: Palette): { fill: string; stroke: string } {
  switch (kind) {
    case 'field':
      return { fill: p.field, stroke: 'none' };
    case 'court':
      return { fill: p.court, stroke: p.line };
    case 'house':
      return { fill: p.house, stroke: p.line };
    case 'tower':
      return { fill: p.tower, stroke: p.line };
    case 'wall':
      return { fill: p.castleWall, stroke: p.line };
    case 'carcassonne':
      return { fill: p.carcassonne, stroke: p.wall };
    default:
      return { fill: p.city, stroke: p.wall };
  }
}

/** Colours of a band kind. */
function bandColours(kind: string, p: Palette): { fill: string; edge: string } {
  return kind === 'river' ? { fill: p.water, edge: p.waterEdge } : kind === 'path' ? { fill: p.path, edge: p.roadEdge } : { fill: p.road, edge: p.roadEdge };
}

function band(f: FeatureArt, p: Palette, highlighted: boolean): string {
  const w = bandHalfWidth(f.kind) * 2;
  const c = bandColours(f.kind, p);
  const under = highlighted ? `<path d="${f.band!.d}" fill="none" stroke="${p.highlight}" stroke-width="${num(w + 8)}" stroke-linecap="butt"/>` : '';
  return (
    under +
    `<path d="${f.band!.d}" fill="none" stroke="${c.edge}" stroke-width="${num(w + 2.4)}" stroke-linecap="butt"/>` +
    `<path d="${f.band!.d}" fill="none" stroke="${c.fill}" stroke-width="${num(w)}" stroke-linecap="butt"/>`
  );
}

function area(f: FeatureArt, p: Palette, highlighted: boolean): string {
  const c = areaColours(f.kind, p);
  const stroke = c.stroke === 'none' ? '' : ` stroke="${c.stroke}" stroke-width="2.2" stroke-linejoin="round"`;
  const lit = highlighted ? `<path d="${f.outline!.d}" fill="${p.highlight}" fill-opacity="0.55" stroke="${p.highlight}" stroke-width="3"/>` : '';
  return `<path d="${f.outline!.d}" fill="${c.fill}"${stroke}/>${lit}`;
}

/** Raster cells as rectangles (one per run of a row), for highlighting open ground. */
function regionRects(region: Uint8Array, colour: string): string {
  const size = 100 / GRID;
  const out: string[] = [];
  for (let y = 0; y < GRID; y++) {
    let x = 0;
    while (x < GRID) {
      if (region[y * GRID + x] !== 1) {
        x++;
        continue;
      }
      const start = x;
      while (x < GRID && region[y * GRID + x] === 1) x++;
      const c = cellCentre(y * GRID + start);
      // Rows overlap a little, so that no seam shows between them.
      out.push(`M${num(c.x - size / 2 - 0.3)},${num(c.y - size / 2 - 0.3)}h${num((x - start) * size + 0.6)}v${num(size + 0.6)}h${num(-((x - start) * size + 0.6))}z`);
    }
  }
  return out.length === 0 ? '' : `<path d="${out.join('')}" fill="${colour}" fill-opacity="0.6"/>`;
}

/**
 * The shapes of a tile picture at rotation 0 (0..100 tile units): ground, areas, bands, with the
 * features whose local indices are in `highlight` highlighted. Boards turn them into place.
 */
export function tileShapes(art: TileArt, p: Palette, highlight: ReadonlySet<number> = new Set()): string {
  const out: string[] = [];
  const fs = art.features;
  const g = art.ground;
  const groundKind = g >= 0 ? fs[g]!.kind : 'field';
  out.push(`<rect width="100" height="100" fill="${areaColours(groundKind, p).fill}"/>`);
  // Other open ground of another colour (The Castle's courts on a tile whose ground is a tower).
  fs.forEach((f, i) => {
    if (f.role === 'ground' && i !== g && f.outline !== null && areaColours(f.kind, p).fill !== areaColours(groundKind, p).fill) out.push(area(f, p, false));
  });
  fs.forEach((f, i) => {
    if (highlight.has(i) && (f.role === 'ground' || i === g) && f.region !== null && art.enclosed[i] === null) out.push(regionRects(f.region, p.highlight));
  });
  if (art.hedge !== '') out.push(`<path d="${art.hedge}" fill="none" stroke="${p.wall}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>`);
  const rivers = fs.map((f, i) => [f, i] as const).filter(([f]) => f.role === 'band' && f.kind === 'river');
  const roads = fs.map((f, i) => [f, i] as const).filter(([f]) => f.role === 'band' && f.kind !== 'river');
  for (const [f, i] of rivers) out.push(band(f, p, highlight.has(i)));
  const bridge = art.marks.crossing === 'bridge';
  if (!bridge) for (const [f, i] of roads) out.push(band(f, p, highlight.has(i)));
  const areas = fs.map((f, i) => [f, i] as const).filter(([f, i]) => f.role === 'area' && i !== g && f.outline !== null);
  areas.forEach(([f, i], n) => {
    out.push(area(f, p, highlight.has(i)));
    // A city crossing another on a bridge: railings along the upper one.
    if (bridge && roads.length === 0 && n === areas.length - 1) out.push(bridgeRails(f, p));
  });
  if (bridge) {
    for (const [f, i] of roads) {
      out.push(band(f, p, highlight.has(i)));
      out.push(bridgeRails(f, p));
    }
  }
  // Meadows enclosed by cities (a field with no port, where the drawing left no pocket).
  art.enclosed.forEach((at, i) => {
    if (at === null) return;
    const lit = highlight.has(i) ? ` stroke="${p.highlight}" stroke-width="4"` : ` stroke="${p.wall}" stroke-width="2.2"`;
    out.push(`<ellipse cx="${num(at.x)}" cy="${num(at.y)}" rx="${MEADOW.rx}" ry="${MEADOW.ry}" fill="${p.field}"${lit}/>`);
  });
  if (art.marks.crossing === 'tunnel') {
    for (const [f] of roads) out.push(tunnelMouths(f, areas.map(([a]) => a), p));
  }
  const centreFeature = fs.findIndex((f) => f.role === 'centre');
  if (centreFeature >= 0 && highlight.has(centreFeature)) out.push(`<circle cx="50" cy="50" r="20" fill="${p.highlight}" fill-opacity="0.8"/>`);
  return out.join('');
}

/**
 * The printed symbols of a tile (buildings, volcano, pennants, princess, dragon, portal...) for
 * the tile turned `r` quarter turns: at the turned positions, but upright, as people draw them.
 */
export function tileGlyphs(art: TileArt, p: Palette, r: number): string {
  const out: string[] = [];
  const fs = art.features;
  const at = (q: Point): Point => rotatePoint(q, r);
  // The middle: a building, a symbol, or where roads meet.
  const centreFeature = fs.findIndex((f) => f.role === 'centre');
  if (centreFeature >= 0) out.push(fs[centreFeature]!.kind === 'shrine' ? shrine(CENTRE, p) : cloister(CENTRE, p));
  else if (art.marks.centre === 'volcano') out.push(volcano(CENTRE, p));
  else if (art.marks.centre === 'foundation') out.push(foundation(CENTRE, p));
  else if (art.hubMark === 'junction') out.push(junction(at(art.hub), p));
  else if (art.hubMark === 'lake') out.push(lake(CENTRE, p));
  fs.forEach((f) => {
    for (let k = 0; k < f.pennants; k++) {
      const e = at(f.emblem);
      const pos = { x: e.x + k * 9, y: e.y };
      out.push(f.kind === 'path' ? well(pos, p) : f.kind === 'court' ? market(pos, p) : pennant(pos, p));
    }
  });
  if (art.princess !== null) out.push(princess(at(art.princess), p));
  art.marks.spots.forEach((s, i) => out.push(s === 'dragon' ? dragonSymbol(at(art.spots[i]!), p) : portal(at(art.spots[i]!), p)));
  return out.join('');
}

/** A whole tile picture turned `r` quarter turns: its shapes turned, its symbols upright. */
export function tileBody(art: TileArt, p: Palette, highlight: ReadonlySet<number> = new Set(), r = 0): string {
  const shapes = tileShapes(art, p, highlight);
  return `${r === 0 ? shapes : `<g transform="rotate(${90 * r} 50 50)">${shapes}</g>`}${tileGlyphs(art, p, r)}`;
}

/** Railings along both sides of a band or area crossing over another feature. */
function bridgeRails(f: FeatureArt, p: Palette): string {
  if (f.band !== null) {
    const w = bandHalfWidth(f.kind) * 2 + 5;
    return `<path d="${f.band.d}" fill="none" stroke="${p.line}" stroke-width="${num(w)}" stroke-dasharray="2 3" stroke-opacity="0.9"/><path d="${f.band.d}" fill="none" stroke="${bandColours(f.kind, p).fill}" stroke-width="${num(w - 3.4)}"/>`;
  }
  return `<path d="${f.outline!.d}" fill="none" stroke="${p.line}" stroke-width="1.2" stroke-dasharray="3 2"/>`;
}

/** The dark arches where a road dives under an area (a tunnel), found where its centre line crosses an area's outline. */
function tunnelMouths(f: FeatureArt, areas: readonly FeatureArt[], p: Palette): string {
  const out: string[] = [];
  const inArea = (q: Point): boolean => areas.some((a) => insidePolygon(q, a.outline!.polygon));
  for (const c of f.band!.curves) {
    let prev = cubicAt(c, 0);
    let wasIn = inArea(prev);
    for (let s = 1; s <= 40; s++) {
      const q = cubicAt(c, s / 40);
      const isIn = inArea(q);
      if (isIn !== wasIn) {
        // Face the arch the way the road comes from, outside the area.
        const from = isIn ? prev : q;
        const into = isIn ? q : prev;
        const angle = (Math.atan2(into.y - from.y, into.x - from.x) * 180) / Math.PI;
        const w = bandHalfWidth(f.kind) + 1.5;
        out.push(`<path d="M0,${num(-w)}A${num(w)},${num(w)} 0 0 0 0,${num(w)}Z" fill="${p.line}" transform="translate(${pt(into)}) rotate(${num(angle)})"/>`);
      }
      prev = q;
      wasIn = isIn;
    }
  }
  return out.join('');
}
