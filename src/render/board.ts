/**
 * A whole board as SVG: the placed tiles (shared pictures turned into place), the followers on
 * their features, each module's pieces (towers, the dragon and the fairy, the Count...), and
 * optionally highlights, coordinates and a legend with the scores. The Castle's walled board is
 * drawn around its play area by castle.ts.
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameView } from '../core/state.js';
import type { Cell, Immutable } from '../core/types.js';
import { artOf, symbolId } from './catalogue.js';
import { castleFrame, castleLegendLines, type Frame } from './castle.js';
import { rotatePoint, rotation } from './geometry.js';
import { meeple } from './glyphs.js';
import type { CheckedOptions } from './options.js';
import { moduleLegendLines, moduleOverlays } from './overlays.js';
import { playerStyle } from './palette.js';
import { esc, num, type Point } from './svg.js';
import { tileGlyphs, tileShapes } from './tile.js';

/** Height of the legend's line, in tile units. */
const LINE = 22;

/** The board-space point (tile units, 100 per cell) of a point `p` of the tile at `x, y` turned `r`. */
export function onBoard(x: number, y: number, r: number, p: Point): Point {
  const q = rotatePoint(p, r);
  return { x: x * 100 + q.x, y: y * 100 + q.y };
}

/** Segments (tile index, local index) of the feature holding segment `seg`. */
function featureSegments(state: Immutable<GameView>, seg: number): { tile: number; local: number }[] {
  const g = state.features;
  const root = findRoot(g.parent, seg);
  const out: { tile: number; local: number }[] = [];
  for (let i = 0; i < g.parent.length; i++) if (findRoot(g.parent, i) === root) out.push({ tile: g.tile[i]!, local: i - state.tiles[g.tile[i]!]!.node });
  return out;
}

/** The SVG of a board. The state has been checked against the ruleset. */
export function boardSvg(rules: Ruleset, state: Immutable<GameView>, o: CheckedOptions, defs: string): string {
  const p = o.palette;
  const tiles = state.tiles;
  // Highlighted features: tile index -> local indices.
  const lit = new Map<number, Set<number>>();
  if (o.highlightFeature !== null) {
    const h = o.highlightFeature;
    const t = tiles.findIndex((tile) => tile.x === h.x && tile.y === h.y);
    const local = t < 0 ? undefined : rules.tileById.get(tiles[t]!.id)!.localIndex[h.feature];
    if (t >= 0 && local !== undefined && Object.hasOwn(rules.tileById.get(tiles[t]!.id)!.localIndex, h.feature)) {
      for (const s of featureSegments(state, tiles[t]!.node + local)) {
        if (!lit.has(s.tile)) lit.set(s.tile, new Set());
        lit.get(s.tile)!.add(s.local);
      }
    }
  }

  const frame: Frame | null = castleFrame(rules, state, p);
  // The extent in cells: tiles, highlighted cells, and The Castle's whole walled board.
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const grow = (c: Cell): void => {
    minX = Math.min(minX, c.x);
    minY = Math.min(minY, c.y);
    maxX = Math.max(maxX, c.x);
    maxY = Math.max(maxY, c.y);
  };
  for (const t of tiles) if (frame === null || frame.inside(t.x, t.y)) grow(t);
  for (const c of o.highlightCells) grow(c);
  if (frame !== null) {
    grow({ x: 0, y: 0 });
    grow({ x: frame.width - 1, y: frame.height - 1 });
  }
  if (minX === Infinity) {
    minX = 0;
    minY = 0;
    maxX = 0;
    maxY = 0;
  }
  const pad = frame !== null ? frame.margin : o.coordinates ? 40 : 12;
  const legendLines = o.legend ? legendText(rules, state).concat(frame !== null ? castleLegendLines(rules, state) : moduleLegendLines(rules, state)) : [];
  const legendHeight = o.legend ? (legendLines.length + 1) * LINE + 8 : 0;
  // Wide enough for the legend's longest line (about 8.6 units per character at its size).
  const legendWidth = o.legend ? Math.max(...legendLines.map((l) => l.length)) * 8.6 + 50 : 0;
  const x0 = minX * 100 - pad;
  const y0 = minY * 100 - pad - legendHeight;
  const w = Math.max((maxX - minX + 1) * 100 + 2 * pad, legendWidth);
  const h = (maxY - minY + 1) * 100 + 2 * pad + legendHeight;
  const scale = o.tileSize / 100;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="${num(w * scale)}" height="${num(h * scale)}" viewBox="${num(x0)} ${num(y0)} ${num(w)} ${num(h)}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`,
  );
  out.push(`<title>${esc(o.title ?? describe(rules, state))}</title>`);
  if (defs !== '') out.push(`<defs>${defs}</defs>`);
  out.push(`<rect x="${num(x0)}" y="${num(y0)}" width="${num(w)}" height="${num(h)}" fill="${p.background}"/>`);
  if (frame !== null) out.push(frame.under);

  // Tiles: shared pictures, turned into place; highlighted ones drawn in full.
  out.push('<g class="tiles">');
  tiles.forEach((t, i) => {
    if (frame !== null && !frame.inside(t.x, t.y)) return;
    const transform = `translate(${t.x * 100} ${t.y * 100})${rotation(t.rotation)}`;
    const highlight = lit.get(i);
    const art = artOf(rules, t.id);
    if (highlight === undefined) out.push(`<use xlink:href="#${symbolId(t.id)}" transform="${transform}"/>`);
    else out.push(`<g transform="${transform}">${tileShapes(art, p, highlight)}</g>`);
    // Symbols stay upright however the tile is turned.
    const glyphs = tileGlyphs(art, p, t.rotation);
    if (glyphs !== '') out.push(`<g transform="translate(${t.x * 100} ${t.y * 100})">${glyphs}</g>`);
  });
  out.push('</g>');
  if (frame !== null) out.push(frame.over);
  // Tile edges, faint, so that the grid reads.
  out.push(
    `<path d="${tiles
      .filter((t) => frame === null || frame.inside(t.x, t.y))
      .map((t) => `M${t.x * 100},${t.y * 100}h100v100h-100z`)
      .join('')}" fill="none" stroke="${p.line}" stroke-opacity="0.35" stroke-width="1"/>`,
  );
  for (const c of o.highlightCells) {
    out.push(`<rect x="${c.x * 100 + 4}" y="${c.y * 100 + 4}" width="92" height="92" rx="6" fill="${p.highlight}" fill-opacity="0.25" stroke="${p.highlight}" stroke-width="4" stroke-dasharray="10 6"/>`);
  }
  if (o.lastTile) {
    const last = [...tiles].reverse().find((t) => t.player >= 0);
    if (last !== undefined) {
      out.push(`<rect x="${last.x * 100 + 2}" y="${last.y * 100 + 2}" width="96" height="96" fill="none" stroke="#ffffff" stroke-width="6"/>`);
      out.push(`<rect x="${last.x * 100 + 2}" y="${last.y * 100 + 2}" width="96" height="96" fill="none" stroke="${p.lastTile}" stroke-width="3" stroke-dasharray="8 5"/>`);
    }
  }
  // Followers on tiles.
  out.push('<g class="followers">');
  for (const f of state.followers) {
    const t = tiles[f.tile]!;
    const art = artOf(rules, t.id).features[f.local]!;
    out.push(meeple(onBoard(t.x, t.y, t.rotation, art.anchor), playerStyle(p, f.player), art.role === 'ground'));
  }
  out.push('</g>');
  out.push(moduleOverlays(rules, state, p));
  if (frame !== null) out.push(frame.pieces);
  if (o.coordinates) out.push(coordinates(minX, minY, maxX, maxY, p.text, frame === null ? 0 : frame.margin - 20));
  if (o.legend) out.push(legend(legendLines, x0 + 12, y0 + 8, rules, state, p));
  out.push('</svg>');
  return out.join('');
}

function coordinates(minX: number, minY: number, maxX: number, maxY: number, colour: string, away: number): string {
  const out: string[] = [`<g font-size="16" fill="${colour}" text-anchor="middle">`];
  for (let x = minX; x <= maxX; x++) out.push(`<text x="${x * 100 + 50}" y="${minY * 100 - 14 - away}">${x}</text>`);
  for (let y = minY; y <= maxY; y++) out.push(`<text x="${minX * 100 - 20 - away}" y="${y * 100 + 56}">${y}</text>`);
  out.push('</g>');
  return out.join('');
}

/** `1 point`, `2 points`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per player: their colour and mark, score, followers in supply. */
function legendText(rules: Ruleset, state: Immutable<GameView>): string[] {
  const lines: string[] = [];
  for (let i = 0; i < state.players; i++) lines.push(`Player ${i + 1}: ${plural(state.scores[i]!, 'point')}, ${plural(state.supply[i]!, 'follower')} in supply`);
  lines.push(stepText(rules, state));
  return lines;
}

function stepText(rules: Ruleset, state: Immutable<GameView>): string {
  const s = state.step;
  switch (s.kind) {
    case 'game-over':
      return `Game over: ${s.winners.map((w) => `player ${w + 1}`).join(' and ')} ${s.winners.length > 1 ? 'win' : 'wins'}`;
    case 'place-tile':
      return `Turn ${state.turn + 1}: player ${s.player + 1} places tile ${(s as { tile: string }).tile}`;
    case 'deploy':
      return `Turn ${state.turn + 1}: player ${s.player + 1} may deploy a follower`;
    default:
      return `Turn ${state.turn + 1}: player ${s.player + 1} decides (${s.kind})`;
  }
}

/** A plain description of the position, for the picture's title. */
export function describe(rules: Ruleset, state: Immutable<GameView>): string {
  const scores = state.scores.map((s, i) => `player ${i + 1} ${s}`).join(', ');
  return `${rules.game.game === 'castle' ? 'The Castle' : 'Carcassonne'} board, ${state.tiles.length} tiles; scores: ${scores}. ${stepText(rules, state)}.`;
}

function legend(lines: readonly string[], x: number, y: number, rules: Ruleset, state: Immutable<GameView>, p: CheckedOptions['palette']): string {
  const out: string[] = [`<g class="legend" font-size="15" fill="${p.text}">`];
  lines.forEach((line, i) => {
    const baseline = y + (i + 1) * LINE;
    if (i < state.players) out.push(meeple({ x: x + 10, y: baseline - 5 }, playerStyle(p, i), false, 0.75));
    out.push(`<text x="${num(x + (i < state.players ? 26 : 0))}" y="${num(baseline)}">${esc(line)}</text>`);
  });
  out.push('</g>');
  void rules;
  return out.join('');
}
