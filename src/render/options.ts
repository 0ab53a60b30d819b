/**
 * The options of the render functions, checked before anything is drawn: a bad option is a
 * `render/bad-options` error, never a broken picture. Colours are checked too, because they are
 * written into the SVG's attributes.
 */
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { Cell } from '../core/types.js';
import { DEFAULT_PALETTE, type Palette, type PlayerMark, type PlayerStyle } from './palette.js';

/** Options of {@link renderTile}. */
export interface TileRenderOptions {
  /** Pixels per tile (the SVG's width and height). Default 64. */
  readonly tileSize?: number;
  /** Colours: any subset of {@link Palette}; the rest come from {@link DEFAULT_PALETTE}. */
  readonly palette?: Partial<Palette>;
  /** Write each feature's local id (`c1`, `r1`...) where a follower on it would stand. Default false. */
  readonly labels?: boolean;
}

/** A feature to highlight: a tile's cell and one of its local feature ids, as moves name them. */
export interface FeatureHighlight {
  /** Column of the tile. */
  readonly x: number;
  /** Row of the tile. */
  readonly y: number;
  /** Local feature id on that tile (`c1`); the whole connected feature is highlighted. */
  readonly feature: string;
}

/** Options of {@link renderBoard}. */
export interface BoardRenderOptions {
  /** Pixels per tile. Default 64. */
  readonly tileSize?: number;
  /** Colours: any subset of {@link Palette}; the rest come from {@link DEFAULT_PALETTE}. */
  readonly palette?: Partial<Palette>;
  /** Label rows and columns with their coordinates. Default false. */
  readonly coordinates?: boolean;
  /** Outline the last tile placed. Default true. */
  readonly lastTile?: boolean;
  /** Cells to highlight (e.g. where the drawn tile can go: `legalMoves` of a place step). At most 10,000. */
  readonly highlightCells?: readonly Cell[];
  /** A feature to highlight, whole (the feature `featureAt` answers for this query). */
  readonly highlightFeature?: FeatureHighlight;
  /** A strip above the board with each player's score, supply and pieces, and the step. Default true. */
  readonly legend?: boolean;
  /**
   * `'inline'` (default): the SVG holds the tile pictures it uses. `'external'`: it refers to
   * them only, for pages that show many boards and include {@link renderSymbols} once.
   */
  readonly symbols?: 'inline' | 'external';
  /** A title for the picture (its `<title>`, read by screen readers). Default: a description of the position. */
  readonly title?: string;
}

/** Options once checked, with defaults filled in. */
export interface CheckedOptions {
  readonly tileSize: number;
  readonly palette: Palette;
  readonly labels: boolean;
  readonly coordinates: boolean;
  readonly lastTile: boolean;
  readonly highlightCells: readonly Cell[];
  readonly highlightFeature: FeatureHighlight | null;
  readonly legend: boolean;
  readonly symbols: 'inline' | 'external';
  readonly title: string | null;
}

const KNOWN = new Set(['tileSize', 'palette', 'labels', 'coordinates', 'lastTile', 'highlightCells', 'highlightFeature', 'legend', 'symbols', 'title']);
/** Colour text that is safe in an attribute: a hex colour, a colour name or a CSS function of numbers. */
const COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgb|rgba|hsl|hsla)\([0-9., %]{1,60}\))$/;
const MARKS: readonly PlayerMark[] = ['none', 'bar', 'dot', 'ring', 'cross', 'triangle'];

function bad(message: string, path: string): Result<never, MeepleError> {
  return err(meepleError('render/bad-options', message, { path }));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkPalette(given: unknown): Result<Palette, MeepleError> {
  if (given === undefined) return ok(DEFAULT_PALETTE);
  if (!isRecord(given)) return bad('palette must be an object of colours', '$.palette');
  const out: Record<string, unknown> = { ...DEFAULT_PALETTE };
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(DEFAULT_PALETTE, key)) return bad(`unknown palette entry '${key.slice(0, 40)}'`, `$.palette`);
    const v = given[key];
    if (key === 'players') {
      if (!Array.isArray(v) || v.length === 0 || v.length > 12) return bad('palette.players must be a list of 1 to 12 player styles', '$.palette.players');
      const players: PlayerStyle[] = [];
      for (let i = 0; i < v.length; i++) {
        const s: unknown = v[i];
        const path = `$.palette.players[${i}]`;
        if (!isRecord(s)) return bad('a player style is an object { fill, stroke, ink, mark }', path);
        for (const c of ['fill', 'stroke', 'ink'] as const) {
          if (typeof s[c] !== 'string' || !COLOUR.test(s[c])) return bad(`${c} must be a colour such as '#0072b2'`, `${path}.${c}`);
        }
        if (!MARKS.includes(s['mark'] as PlayerMark)) return bad(`mark must be one of ${MARKS.join(', ')}`, `${path}.mark`);
        players.push({ fill: s['fill'] as string, stroke: s['stroke'] as string, ink: s['ink'] as string, mark: s['mark'] as PlayerMark });
      }
      out[key] = players;
    } else {
      if (typeof v !== 'string' || !COLOUR.test(v)) return bad(`palette.${key} must be a colour such as '#a6c77a'`, `$.palette.${key}`);
      out[key] = v;
    }
  }
  return ok(out as unknown as Palette);
}

function flag(o: Record<string, unknown>, key: string, fallback: boolean): boolean | null {
  const v = o[key];
  return v === undefined ? fallback : typeof v === 'boolean' ? v : null;
}

/** Checks render options; `board` says which options apply. */
export function checkOptions(options: unknown, board: boolean): Result<CheckedOptions, MeepleError> {
  const o = options === undefined ? {} : options;
  if (!isRecord(o)) return bad('options must be an object', '$');
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) return bad(`unknown option '${key.slice(0, 40)}'`, '$');
  }
  const tileSize = o['tileSize'] ?? 64;
  if (typeof tileSize !== 'number' || !Number.isFinite(tileSize) || tileSize < 8 || tileSize > 1024) return bad('tileSize must be a number of pixels from 8 to 1024', '$.tileSize');
  const palette = checkPalette(o['palette']);
  if (!palette.ok) return palette;
  const flags: Record<string, boolean> = {};
  for (const [key, fallback] of [['labels', false], ['coordinates', false], ['lastTile', true], ['legend', true]] as const) {
    const v = flag(o, key, fallback);
    if (v === null) return bad(`${key} must be true or false`, `$.${key}`);
    flags[key] = v;
  }
  const cells = o['highlightCells'] ?? [];
  if (!Array.isArray(cells) || cells.length > 10_000) return bad('highlightCells must be a list of at most 10,000 cells { x, y }', '$.highlightCells');
  const highlightCells: Cell[] = [];
  for (let i = 0; i < cells.length; i++) {
    const c: unknown = cells[i];
    if (!isRecord(c) || !Number.isInteger(c['x']) || !Number.isInteger(c['y']) || Math.abs(c['x'] as number) > 500 || Math.abs(c['y'] as number) > 500) {
      return bad('a highlighted cell is { x, y } with integers from -500 to 500', `$.highlightCells[${i}]`);
    }
    highlightCells.push({ x: c['x'] as number, y: c['y'] as number });
  }
  const f = o['highlightFeature'];
  let highlightFeature: FeatureHighlight | null = null;
  if (f !== undefined) {
    if (!isRecord(f) || !Number.isInteger(f['x']) || !Number.isInteger(f['y']) || typeof f['feature'] !== 'string' || f['feature'].length > 40) {
      return bad('highlightFeature is { x, y, feature } with integer x, y and a local feature id', '$.highlightFeature');
    }
    highlightFeature = { x: f['x'] as number, y: f['y'] as number, feature: f['feature'] };
  }
  const symbols = o['symbols'] ?? 'inline';
  if (symbols !== 'inline' && symbols !== 'external') return bad("symbols must be 'inline' or 'external'", '$.symbols');
  const title = o['title'] ?? null;
  if (title !== null && (typeof title !== 'string' || title.length > 500)) return bad('title must be a string of at most 500 characters', '$.title');
  if (!board) {
    for (const key of ['coordinates', 'lastTile', 'highlightCells', 'highlightFeature', 'legend', 'symbols']) {
      if (o[key] !== undefined) return bad(`option '${key}' applies to boards, not to a single tile`, `$.${key}`);
    }
  }
  return ok({
    tileSize,
    palette: palette.value,
    labels: flags['labels']!,
    coordinates: flags['coordinates']!,
    lastTile: flags['lastTile']!,
    highlightCells,
    highlightFeature,
    legend: flags['legend']!,
    symbols,
    title,
  });
}
