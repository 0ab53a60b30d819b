/**
 * The Castle's walled board around its play area: the wall with the start fields printed on it,
 * the score track of 100 spaces with its towers and their face-down tokens, the players' score
 * markers and keeps. Drawn from the layout data the rules use; a reconstructed layout says so
 * in the picture.
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import type { CastleEdge, CastleLayout } from '../games/castle/data.js';
import type { CastleSlice } from '../games/castle/state.js';
import { artOf } from './catalogue.js';
import { rotatePoint } from './geometry.js';
import { meeple } from './glyphs.js';
import type { Palette } from './palette.js';
import { playerStyle } from './palette.js';
import { esc, num, type Point } from './svg.js';
import { tileBody } from './tile.js';

/** What board.ts needs to draw The Castle's board. */
export interface Frame {
  /** Grid width in cells. */
  readonly width: number;
  /** Grid height in cells. */
  readonly height: number;
  /** Room round the grid, in tile units. */
  readonly margin: number;
  /** Whether a cell is in the play area (only those hold real tiles). */
  inside(x: number, y: number): boolean;
  /** Drawn under the tiles: the ground outside, the wall and the start fields. */
  readonly under: string;
  /** Drawn over the tiles. */
  readonly over: string;
  /** The track, its towers and tokens, score markers and keeps. */
  readonly pieces: string;
}

/** Depth of the wall strip, in tile units. */
const WALL = 34;
/** Depth of the track beyond the wall. */
const TRACK = 40;

/**
 * The layout of a Castle ruleset. Read from the game module directly rather than through The
 * Castle's own functions, so that drawing a classic board never pulls The Castle's rules in.
 */
function layoutOf(rules: Ruleset): CastleLayout | null {
  if (rules.game.game !== 'castle') return null;
  return (rules.game as unknown as { readonly castle: { readonly config: { readonly layout: CastleLayout } } }).castle.config.layout;
}

/** The rectangle (board units) of the strip `from..to` units outside edge `e`, and its direction along the edge. */
function strip(e: CastleEdge, from: number, to: number): { x: number; y: number; w: number; h: number } {
  const x = e.x * 100;
  const y = e.y * 100;
  switch (e.side) {
    case 'N':
      return { x, y: y - to, w: 100, h: to - from };
    case 'S':
      return { x, y: y + 100 + from, w: 100, h: to - from };
    case 'W':
      return { x: x - to, y, w: to - from, h: 100 };
    default:
      return { x: x + 100 + from, y, w: to - from, h: 100 };
  }
}

/** The point a fraction `t` along edge `e`, clockwise, `depth` units outside it. */
function alongEdge(e: CastleEdge, t: number, depth: number): Point {
  const x = e.x * 100;
  const y = e.y * 100;
  switch (e.side) {
    case 'N':
      return { x: x + t * 100, y: y - depth };
    case 'E':
      return { x: x + 100 + depth, y: y + t * 100 };
    case 'S':
      return { x: x + 100 - t * 100, y: y + 100 + depth };
    default:
      return { x: x - depth, y: y + 100 - t * 100 };
  }
}

function sameEdge(a: CastleEdge, b: CastleEdge): boolean {
  return a.x === b.x && a.y === b.y && a.side === b.side;
}

/** The centre of each of the 100 track spaces. */
function trackPoints(layout: CastleLayout): Point[] {
  const track = layout.track;
  // Which way the track runs: clockwise when, along a north edge, it goes east.
  let clockwise = true;
  for (let i = 0; i + 1 < track.length; i++) {
    const a = track[i]!;
    const b = track[i + 1]!;
    if (a.side === 'N' && b.side === 'N' && a.y === b.y && a.x !== b.x) {
      clockwise = b.x > a.x;
      break;
    }
  }
  return track.map((e, i) => {
    let first = i;
    while (first > 0 && sameEdge(track[first - 1]!, e)) first--;
    let last = i;
    while (last + 1 < track.length && sameEdge(track[last + 1]!, e)) last++;
    const n = last - first + 1;
    const k = clockwise ? i - first : last - i;
    return alongEdge(e, (k + 0.5) / n, WALL + TRACK / 2);
  });
}

/** The Castle's frame for a board picture, or null for other games. */
export function castleFrame(rules: Ruleset, state: Immutable<GameView>, p: Palette): Frame | null {
  const layout = layoutOf(rules);
  if (layout === null) return null;
  const inside = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < layout.width && y < layout.height && layout.inside[y * layout.width + x] === 1;
  const under: string[] = [];
  // The play area's empty cells.
  for (let y = 0; y < layout.height; y++) {
    for (let x = 0; x < layout.width; x++) {
      if (inside(x, y)) under.push(`<rect x="${x * 100}" y="${y * 100}" width="100" height="100" fill="#b9b09f" stroke="${p.line}" stroke-opacity="0.3"/>`);
    }
  }
  // The wall and the track along every boundary edge, corners filled.
  const edges: CastleEdge[] = [];
  for (let y = 0; y < layout.height; y++) {
    for (let x = 0; x < layout.width; x++) {
      if (!inside(x, y)) continue;
      if (!inside(x, y - 1)) edges.push({ x, y, side: 'N' });
      if (!inside(x + 1, y)) edges.push({ x, y, side: 'E' });
      if (!inside(x, y + 1)) edges.push({ x, y, side: 'S' });
      if (!inside(x - 1, y)) edges.push({ x, y, side: 'W' });
    }
  }
  for (const e of edges) {
    const r = strip(e, 0, WALL + TRACK);
    under.push(`<rect x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" fill="${p.castleWall}"/>`);
  }
  // Outer corners of the area: the wall turns round them.
  const d = WALL + TRACK;
  for (let y = 0; y < layout.height; y++) {
    for (let x = 0; x < layout.width; x++) {
      if (!inside(x, y)) continue;
      for (const [dx, dy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
        if (inside(x + dx, y) || inside(x, y + dy) || inside(x + dx, y + dy)) continue;
        const cx = dx > 0 ? (x + 1) * 100 : x * 100 - d;
        const cy = dy > 0 ? (y + 1) * 100 : y * 100 - d;
        under.push(`<rect x="${num(cx)}" y="${num(cy)}" width="${d}" height="${d}" fill="${p.castleWall}"/>`);
      }
    }
  }
  // Stones on the wall.
  under.push(
    `<path d="${edges
      .map((e) => {
        const r = strip(e, 0, WALL);
        return `M${num(r.x)},${num(r.y)}h${num(r.w)}v${num(r.h)}h${num(-r.w)}z`;
      })
      .join('')}" fill="#b3aca1" stroke="${p.line}" stroke-width="1"/>`,
  );
  // Start fields: the half-feature printed on the wall, drawn from the virtual tile the rules use.
  layout.startTiles.forEach((st) => {
    const mine = layout.startFields.filter((f) => {
      const dx = f.side === 'E' ? 1 : f.side === 'W' ? -1 : 0;
      const dy = f.side === 'S' ? 1 : f.side === 'N' ? -1 : 0;
      return f.x + dx === st.x && f.y + dy === st.y;
    });
    for (const f of mine) {
      const r = strip(f, 0, WALL);
      under.push(
        `<svg x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" viewBox="${num(r.x - st.x * 100)} ${num(r.y - st.y * 100)} ${num(r.w)} ${num(r.h)}" overflow="hidden">${tileBody(artOf(rules, st.def.id), p)}</svg>`,
      );
      under.push(`<rect x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" fill="none" stroke="${p.line}" stroke-width="2"/>`);
    }
  });

  const points = trackPoints(layout);
  const pieces: string[] = ['<g class="track" font-size="11" text-anchor="middle">'];
  const castle = Object.hasOwn(state.ext, 'castle') ? (state.ext['castle'] as Immutable<CastleSlice>) : null;
  points.forEach((pt, i) => {
    const tower = layout.towerAt[i]!;
    const fill = tower >= 0 ? p.tower : '#e7e1d5';
    pieces.push(`<rect x="${num(pt.x - 12)}" y="${num(pt.y - 12)}" width="24" height="24" rx="3" fill="${fill}" stroke="${p.line}" stroke-width="1"/>`);
    if (i % 5 === 0) pieces.push(`<text x="${num(pt.x)}" y="${num(pt.y + 4)}" fill="${p.text}">${i}</text>`);
  });
  // Face-down tokens on the towers (their kind is never shown: hidden from both players).
  layout.towers.forEach(([a, b], t) => {
    const token = castle?.wall[t] ?? 0;
    if (token === 0) return;
    const pa = points[a]!;
    const pb = points[b]!;
    const c = { x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 };
    pieces.push(`<rect x="${num(c.x - 9)}" y="${num(c.y - 9)}" width="18" height="18" rx="2" fill="#4a4036" stroke="#ffffff" stroke-width="1.2"/>`);
    pieces.push(`<text x="${num(c.x)}" y="${num(c.y + 4)}" fill="#ffffff" font-weight="bold">?</text>`);
  });
  pieces.push('</g>');
  // Score markers: each player's follower on the space of their score (round the track again past 99).
  for (let player = 0; player < state.players; player++) {
    const at = points[((state.scores[player]! % 100) + 100) % 100]!;
    pieces.push(meeple({ x: at.x + (player === 0 ? -5 : 5), y: at.y - 4 + player * 4 }, playerStyle(p, player), false, 0.75));
  }
  // Keeps on completed houses.
  castle?.keep.forEach((k, player) => {
    if (k === null) return;
    const root = findRoot(state.features.parent, k.root);
    const t = state.tiles[state.features.tile[root]!];
    if (t === undefined) return;
    const anchor = artOf(rules, t.id).features[root - t.node]!.anchor;
    const q = rotatePoint(anchor, t.rotation);
    const at = { x: t.x * 100 + q.x + 14, y: t.y * 100 + q.y - 10 };
    const s = playerStyle(p, player);
    pieces.push(
      `<g class="keep" transform="translate(${num(at.x)},${num(at.y)})"><path d="M-7,9V-5h3v-3h3v3h2v-3h3v3h3V9Z" fill="${s.fill}" stroke="${s.stroke}" stroke-width="1.3"/></g>`,
    );
  });
  if (layout.provenance === 'reconstructed') {
    pieces.push(
      `<text x="${num((layout.width * 100) / 2)}" y="${num(layout.height * 100 + WALL + TRACK + 34)}" font-size="17" text-anchor="middle" fill="${p.text}" font-style="italic">${esc('Wall layout and tiles: a reconstruction, not the printed board (see The Castle rules page)')}</text>`,
    );
  }
  return { width: layout.width, height: layout.height, margin: WALL + TRACK + 50, inside, under: under.join(''), over: '', pieces: pieces.join('') };
}

/** The Castle's lines in the legend: the tokens each player holds, and the keeps. */
export function castleLegendLines(rules: Ruleset, state: Immutable<GameView>): string[] {
  if (!Object.hasOwn(state.ext, 'castle')) return [];
  const castle = state.ext['castle'] as Immutable<CastleSlice>;
  void rules;
  return castle.held.map((held, player) => {
    const tokens = held.length === 0 ? 'no tokens' : `tokens ${held.map((h) => (h.token < 0 ? '?' : String(h.token))).join(', ')}`;
    return `Player ${player + 1}: ${tokens}; keep ${castle.keep[player] === null ? 'in supply' : 'placed'}`;
  });
}
