/**
 * Drawing a board from a public view (`publicView`): the view names tiles by cell and kind id and
 * followers by cell and feature id, with no feature graph. The renderer rebuilds what it reads
 * (the placed tiles with their segments, and the feature graph) by laying the view's tiles in
 * order with the core's own `layTile`, so a connected feature is the same feature the rules
 * know, and a view gives the same picture as the state it was made from. The boards built are
 * remembered (view-boards.ts): the next view of a game lays only its new tiles. Nothing hidden is needed:
 * the view's fields are all a picture reads.
 */
import { findRoot } from '../core/features.js';
import { meepleError, type MeepleError } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';
import { cellKey, type GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { PUBLIC_VIEW_VERSION } from '../core/engine/view.js';
import { laidBoard, type ViewTileRef } from './view-boards.js';

function malformed(message: string, path: string): Result<never, MeepleError> {
  return err(meepleError('render/malformed-state', message, { path }));
}

const isInt = (v: unknown, lo: number, hi: number): boolean => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `input` is shaped as a public view (`modules`, no `ext`) rather than a state or observation. */
export function looksLikePublicView(input: unknown): boolean {
  return isRecord(input) && Object.hasOwn(input, 'modules') && !Object.hasOwn(input, 'ext');
}

/**
 * The state-shaped picture of a public view: what board.ts, overlays.ts and castle.ts read (tiles
 * with their segments, followers by tile and local index, the feature graph, scores, supplies,
 * the step and each module's slice), or why the view cannot be drawn.
 */
export function sceneOfView(rules: Ruleset, input: unknown): Result<Immutable<GameView>, MeepleError> {
  if (!isRecord(input)) return malformed('a view must be an object', '$');
  const v = input;
  if (v['version'] !== PUBLIC_VIEW_VERSION) return malformed(`a public view of version ${PUBLIC_VIEW_VERSION} is drawn, got ${JSON.stringify(String(v['version'])).slice(0, 40)}`, '$.version');
  if (v['ruleset'] !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `view belongs to ruleset ${JSON.stringify(String(v['ruleset']).slice(0, 80))}, not '${rules.id}'`));
  }
  const players = v['players'];
  if (!isInt(players, 1, 64)) return malformed('players must be an integer', '$.players');
  const n = players as number;
  for (const key of ['scores', 'supply'] as const) {
    const a = v[key];
    if (!Array.isArray(a) || a.length !== n || !a.every((x) => Number.isSafeInteger(x))) return malformed(`${key} must hold one integer per player`, `$.${key}`);
  }
  if (!isInt(v['turn'], 0, 1e7)) return malformed('turn must be an integer', '$.turn');
  const step = v['step'];
  if (!isRecord(step) || typeof step['kind'] !== 'string') return malformed('step must be an object with a kind', '$.step');
  const modules = v['modules'];
  if (!isRecord(modules)) return malformed('modules must be an object', '$.modules');
  const tiles = v['tiles'];
  if (!Array.isArray(tiles) || tiles.length > 10_000) return malformed('tiles must be a list', '$.tiles');

  // The tiles checked, then the board rebuilt tile by tile as the rules laid it: the same
  // segments, the same graph (view-boards.ts lays only the tiles a kept board lacks).
  const at = new Map<number, number>();
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i] as unknown;
    if (!isRecord(t) || typeof t['tile'] !== 'string' || !rules.tileById.has(t['tile'])) return malformed('a placed tile names a tile kind of this ruleset', `$.tiles[${i}].tile`);
    if (!isInt(t['x'], -511, 511) || !isInt(t['y'], -511, 511) || !isInt(t['rotation'], 0, 3)) return malformed('a placed tile has integer x, y and rotation 0..3', `$.tiles[${i}]`);
    const key = cellKey(t['x'] as number, t['y'] as number);
    if (at.has(key)) return malformed('two tiles lie on one cell', `$.tiles[${i}]`);
    at.set(key, i);
  }
  // Start tiles were laid by nobody (-1); the view does not say who laid the others, and the
  // picture only asks whether someone did (the last tile placed).
  const s = laidBoard(rules, tiles as ViewTileRef[]);
  const placed = s.tiles;

  // Followers by cell and feature id, as moves name them.
  const followersIn = v['followers'];
  if (!Array.isArray(followersIn)) return malformed('followers must be a list', '$.followers');
  const followers: { player: number; tile: number; local: number }[] = [];
  for (let i = 0; i < followersIn.length; i++) {
    const f = followersIn[i] as unknown;
    const index = isRecord(f) && isInt(f['x'], -511, 511) && isInt(f['y'], -511, 511) ? at.get(cellKey(f['x'] as number, f['y'] as number)) : undefined;
    if (!isRecord(f) || index === undefined || !isInt(f['player'], 0, n - 1)) return malformed('a follower stands on a placed tile and belongs to a player', `$.followers[${i}]`);
    const local = localOf(rules, placed[index]!.id, f['feature']);
    if (local < 0) return malformed('a follower stands on a feature of its tile', `$.followers[${i}].feature`);
    followers.push({ player: f['player'] as number, tile: index, local });
  }

  // Each module's part, as its slice: The Castle names keeps by cell and feature id in a view.
  const ext: Record<string, unknown> = {};
  for (const [id, part] of Object.entries(modules)) {
    if (id !== 'castle' || rules.game.game !== 'castle') {
      Object.defineProperty(ext, id, { value: part, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const castle = castleSlice(rules, part, at, placed, s.features.parent);
    if (!castle.ok) return castle;
    ext['castle'] = castle.value;
  }

  return ok({
    ruleset: rules.id,
    players: n,
    turn: v['turn'] as number,
    active: isInt(v['active'], 0, n - 1) ? (v['active'] as number) : 0,
    step: step as unknown as GameView['step'],
    scores: v['scores'] as number[],
    supply: v['supply'] as number[],
    tiles: placed,
    cells: s.cells,
    frontier: s.frontier,
    demand: s.demand,
    features: s.features,
    areas: s.areas,
    followers,
    moves: [],
    flow: null,
    bag: [],
    bagSize: 0,
    discarded: [],
    ext,
  } as unknown as Immutable<GameView>);
}

/** The local index of feature id `feature` on a tile of kind `id`, or -1. */
function localOf(rules: Ruleset, id: string, feature: unknown): number {
  const index = rules.tileById.get(id)!.localIndex;
  return typeof feature === 'string' && Object.hasOwn(index, feature) ? index[feature]! : -1;
}

/**
 * The Castle's slice as the picture reads it (`wall`, `held`, `keep` by root segment) from its
 * part of a view, where keeps are named by cell and feature id.
 */
function castleSlice(
  rules: Ruleset,
  part: unknown,
  at: ReadonlyMap<number, number>,
  placed: readonly { readonly id: string; readonly node: number }[],
  parent: readonly number[],
): Result<unknown, MeepleError> {
  if (!isRecord(part)) return malformed("The Castle's part must be an object", '$.modules.castle');
  const wall = part['wall'];
  if (!Array.isArray(wall) || !wall.every((t) => isInt(t, -1, 9))) return malformed("The Castle's wall must list its tokens", '$.modules.castle.wall');
  const held = part['held'];
  if (!Array.isArray(held) || !held.every((h) => Array.isArray(h) && h.every((t) => isRecord(t) && isInt(t['token'], -1, 9)))) {
    return malformed("The Castle's held tokens must be lists per player", '$.modules.castle.held');
  }
  const keepIn = part['keep'];
  if (!Array.isArray(keepIn)) return malformed("The Castle's keeps must be a list per player", '$.modules.castle.keep');
  const keep: ({ root: number; tiles: unknown } | null)[] = [];
  for (let i = 0; i < keepIn.length; i++) {
    const k = keepIn[i] as unknown;
    if (k === null) {
      keep.push(null);
      continue;
    }
    const index = isRecord(k) && isInt(k['x'], -511, 511) && isInt(k['y'], -511, 511) ? at.get(cellKey(k['x'] as number, k['y'] as number)) : undefined;
    const local = index === undefined || !isRecord(k) ? -1 : localOf(rules, placed[index]!.id, k['feature']);
    if (index === undefined || local < 0) return malformed('a keep stands on a feature of a placed tile', `$.modules.castle.keep[${i}]`);
    keep.push({ root: findRoot(parent, placed[index]!.node + local), tiles: (k as Record<string, unknown>)['tiles'] });
  }
  return ok({ ...part, keep });
}
