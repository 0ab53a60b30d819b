/**
 * Pictures of tiles and boards as SVG text, drawn from the same tile data the rules read, so a
 * picture never disagrees with the rules. No DOM and no dependency: the functions return
 * strings, for a web page, a file or a server. An app that does not import this subpath pays
 * nothing for it.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { renderBoard, renderTile } from 'meeplekit/render';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const tile = renderTile(rules.value, 'D', 1);
 * if (!tile.ok) throw new Error(tile.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'picture' });
 * if (!game.ok) throw new Error(game.error.message);
 * const board = renderBoard(rules.value, game.value, { tileSize: 96, coordinates: true });
 * if (!board.ok) throw new Error(board.error.message);
 * console.log(tile.value.startsWith('<svg'), board.value.length > 0); // true true
 * ```
 *
 * @module meeplekit/render
 */
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';
import { collectPlacements } from '../core/board.js';
import { keyX, keyY, type GameState, type GameView } from '../core/state.js';
import type { PublicView } from '../core/engine/view.js';
import type { Immutable, Rotation } from '../core/types.js';
import { boardSvg } from './board.js';
import { allTileIds, artOf, symbolId, tileDefs } from './catalogue.js';
import { meeple } from './glyphs.js';
import { checkOptions, type BoardRenderOptions, type TileRenderOptions } from './options.js';
import { playerStyle } from './palette.js';
import { looksLikePublicView, sceneOfView } from './from-view.js';
import { checkState } from './state-check.js';
import { esc, num } from './svg.js';
import { tileBody } from './tile.js';

export { DEFAULT_PALETTE, COLOUR_BLIND_PALETTE, type Palette, type PlayerStyle, type PlayerMark } from './palette.js';
export type { BoardRenderOptions, TileRenderOptions, FeatureHighlight } from './options.js';

/**
 * One tile kind as an SVG picture, turned `rotation` quarter turns clockwise (default 0).
 *
 * Errors: `render/unknown-tile` (the ruleset has no such tile kind), `render/bad-rotation`,
 * `render/bad-options`.
 */
export function renderTile(rules: Ruleset, tileId: string, rotation: Rotation = 0, options?: TileRenderOptions): Result<string, MeepleError> {
  if (typeof tileId !== 'string' || !rules.tileById.has(tileId)) {
    return err(meepleError('render/unknown-tile', `this ruleset has no tile kind ${JSON.stringify(String(tileId).slice(0, 40))}`));
  }
  if (rotation !== 0 && rotation !== 1 && rotation !== 2 && rotation !== 3) {
    return err(meepleError('render/bad-rotation', `rotation must be 0, 1, 2 or 3 quarter turns, got ${JSON.stringify(rotation)}`));
  }
  const o = checkOptions(options, false);
  if (!o.ok) return o;
  const { tileSize, palette, labels } = o.value;
  const art = artOf(rules, tileId);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(tileSize)}" height="${num(tileSize)}" viewBox="0 0 100 100" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`,
    `<title>${esc(`Tile ${tileId}${rotation === 0 ? '' : `, turned ${rotation * 90} degrees`}: ${art.features.map((f) => `${f.id} ${f.kind}`).join(', ')}`)}</title>`,
    tileBody(art, palette, new Set(), rotation),
    `<rect x="0.5" y="0.5" width="99" height="99" fill="none" stroke="${palette.line}" stroke-width="1"/>`,
  ];
  if (labels) {
    out.push('<g font-size="9" font-weight="bold" text-anchor="middle">');
    for (const f of art.features) {
      const r = rotation as number;
      const q = r === 0 ? f.anchor : r === 1 ? { x: 100 - f.anchor.y, y: f.anchor.x } : r === 2 ? { x: 100 - f.anchor.x, y: 100 - f.anchor.y } : { x: f.anchor.y, y: 100 - f.anchor.x };
      out.push(`<rect x="${num(q.x - 8)}" y="${num(q.y - 6)}" width="16" height="11" rx="2" fill="#ffffff" fill-opacity="0.85" stroke="${palette.line}" stroke-width="0.6"/>`);
      out.push(`<text x="${num(q.x)}" y="${num(q.y + 3)}" fill="${palette.text}">${esc(f.id)}</text>`);
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return ok(out.join(''));
}

/**
 * A board as an SVG picture: every tile in place, followers on their features in their
 * player's colour and mark, each module's pieces, and (by default) a legend with the scores and
 * the step. Takes what a client holds: a {@link PublicView} (`publicView`, for a player or a
 * spectator, kept up to date with `applyViewDelta`), a player's observation (`observe`) or a
 * whole state. The same board gives the same picture from any of them: a view carries all a
 * picture reads (the renderer rebuilds the feature graph from its tiles), and nothing hidden.
 *
 * Errors: `state/ruleset-mismatch`, `render/malformed-state` (a state, observation or view whose
 * tiles, followers, feature graph or module parts cannot be drawn, or a view of another
 * `PUBLIC_VIEW_VERSION`), `render/bad-options`.
 */
export function renderBoard(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView> | Immutable<PublicView>,
  options?: BoardRenderOptions,
): Result<string, MeepleError> {
  const made = sceneOf(rules, state);
  if (!made.ok) return made;
  const scene = made.value;
  const o = checkOptions(options, true);
  if (!o.ok) return o;
  const used: string[] = [];
  for (const t of scene.tiles) if (!used.includes(t.id)) used.push(t.id);
  const defs = o.value.symbols === 'inline' ? tileDefs(rules, used, o.value.palette) : '';
  return ok(boardSvg(rules, scene, o.value, defs));
}

/** What a picture reads of a state, an observation or a public view, checked. */
function sceneOf(rules: Ruleset, state: unknown): Result<Immutable<GameView>, MeepleError> {
  if (looksLikePublicView(state)) return sceneOfView(rules, state);
  const checked = checkState(rules, state);
  return checked.ok ? ok(state as Immutable<GameView>) : checked;
}

/** Where the tile to place may go: a cell, and the quarter turns that fit there, ascending. */
export interface CellPlacements {
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** The rotations the tile may be placed with on this cell (at least one). */
  readonly rotations: readonly Rotation[];
}

/**
 * The cells where the tile of a `place-tile` step may go, each with the rotations that fit, in
 * the canonical order of `legalMoves` (north to south, west to east): what a UI highlights
 * (`highlightCells`) and lets the player turn the tile through. Takes what {@link renderBoard}
 * takes, a public view included, so a client that holds only its view needs no observation and
 * no server call for it; the answer is the placements `legalMoves` lists on the state (edge
 * matching and every module's placement rule, such as the River's course). An empty list when
 * the step is not a placement.
 *
 * Errors: `state/ruleset-mismatch`, `render/malformed-state` (as {@link renderBoard}, or a
 * `place-tile` step naming no tile kind of the ruleset).
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, publicView } from 'meeplekit';
 * import { legalPlacements, renderBoard } from 'meeplekit/render';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'cells' });
 * if (!game.ok) throw new Error(game.error.message);
 * const view = publicView(rules.value, game.value, 0);
 * if (!view.ok) throw new Error(view.error.message);
 *
 * const cells = legalPlacements(rules.value, view.value);
 * if (!cells.ok) throw new Error(cells.error.message);
 * const board = renderBoard(rules.value, view.value, { highlightCells: cells.value });
 * console.log(cells.value.length > 0, board.ok); // true true
 * ```
 */
export function legalPlacements(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView> | Immutable<PublicView>,
): Result<readonly CellPlacements[], MeepleError> {
  const made = sceneOf(rules, state);
  if (!made.ok) return made;
  const scene = made.value;
  const step = scene.step;
  if (step.kind !== 'place-tile') return ok([]);
  const tile = typeof step.tile === 'string' ? rules.tileById.get(step.tile) : undefined;
  if (tile === undefined) return err(meepleError('render/malformed-state', 'the place-tile step names a tile kind of this ruleset', { path: '$.step.tile' }));
  if (!Array.isArray(scene.frontier) || !Array.isArray(scene.demand) || scene.demand.length !== scene.frontier.length) {
    return err(meepleError('render/malformed-state', 'the frontier must be a list of cells with their demands', { path: '$.frontier' }));
  }
  const buf = new Int32Array(4 * scene.frontier.length);
  const n = collectPlacements(rules, scene, tile, buf);
  const out: { x: number; y: number; rotations: Rotation[] }[] = [];
  for (let i = 0; i < n; i++) {
    const key = (buf[i]! / 4) | 0;
    const last = out[out.length - 1];
    const x = keyX(key);
    const y = keyY(key);
    if (last !== undefined && last.x === x && last.y === y) last.rotations.push((buf[i]! & 3) as Rotation);
    else out.push({ x, y, rotations: [(buf[i]! & 3) as Rotation] });
  }
  return ok(out);
}

/**
 * An SVG holding only the pictures of every tile kind of a ruleset, in `<defs>`: include it once
 * in a page that shows many boards drawn with `symbols: 'external'`. It takes no room on the page.
 */
export function renderSymbols(rules: Ruleset, options?: Pick<TileRenderOptions, 'palette'>): Result<string, MeepleError> {
  const o = checkOptions(options, false);
  if (!o.ok) return o;
  return ok(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="0" height="0" style="position:absolute"><defs>${tileDefs(rules, allTileIds(rules), o.value.palette)}</defs></svg>`,
  );
}

/** The id a tile kind's picture has in {@link renderSymbols}' output and in inline `<defs>`. */
export function tileSymbolId(tileId: string): string {
  return symbolId(tileId);
}

/**
 * A follower in a player's style, as a small standalone SVG (for legends and score boards in an
 * app's own UI). `size` in pixels, default 24.
 */
export function renderFollower(player: number, options?: { readonly size?: number; readonly palette?: TileRenderOptions['palette'] }): Result<string, MeepleError> {
  if (!Number.isInteger(player) || player < 0 || player > 63) return err(meepleError('render/bad-options', 'player must be a seat number from 0 to 63', { path: '$.player' }));
  const size = options?.size ?? 24;
  const o = checkOptions({ palette: options?.palette, tileSize: size }, false);
  if (!o.ok) return o;
  return ok(
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(size)}" height="${num(size)}" viewBox="-13 -13 26 26"><title>Player ${player + 1}</title>${meeple({ x: 0, y: 0 }, playerStyle(o.value.palette, player))}</svg>`,
  );
}
