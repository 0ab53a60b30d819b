/**
 * Capturing: whoever adds a piece to a tower may take one follower of another player within the
 * tower's reach prisoner, and prisoners held both ways are exchanged at once.
 *
 * The Tower rules, "Umístění dílku věže a uvěznění figurky": "Kdykoliv hráč umístí dílek věže,
 * okamžitě může uvěznit jednu figurku kteréhokoliv z ostatních hráčů (ještě dříve, než se na
 * konci kola počítají body)." The reach: the tower's own tile and, per floor, one more tile in
 * each of the four straight directions; "Tyto možnosti nemohou přesahovat mezery v krajině": never
 * across an empty cell. Followers on tower tops can be captured (Q&A "Mohou být uvězněny figurky
 * na věžích? Ano."). Followers in the Count's quarters are off the board: never in reach
 * ("Pomocí funkce věže nelze zajmout žádného družiníka ve městě Carcassonne").
 */
import { tileAt } from '../../core/board.js';
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { removeFollower } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, SIDE_DELTA, type GameView, type Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { towerSlice, type TowerState } from './state.js';

/** The `feature` a capture names for the follower on top of a tower. */
export const TOP = 'top';

/** A follower a capture may take: on local feature `feature` of the tile at `x, y`, or on top of the tower there (`'top'`). */
export interface CaptureTarget {
  /** Column of its tile. */
  readonly x: number;
  /** Row of its tile. */
  readonly y: number;
  /** Local feature id on that tile, or `'top'` for the follower on top of the tower standing there. */
  readonly feature: string;
  /** Its owner. */
  readonly owner: number;
}

/**
 * The cells a tower of height `height` at `x, y` reaches, as packed cell keys in ascending order
 * (north to south, west to east): its own and up to `height` cells in each straight direction,
 * stopping at the first empty cell. Height 0 (an empty foundation) reaches nothing.
 */
export function reachOf(state: Immutable<GameView>, x: number, y: number, height: number): number[] {
  if (height <= 0) return [];
  const home = cellKey(x, y);
  const north = sideReach(state, home, 0, height);
  const east = sideReach(state, home, 1, height);
  const south = sideReach(state, home, 2, height);
  const west = sideReach(state, home, 3, height);
  // Ascending keys without sorting: north (farthest first), west (farthest first), home, east, south.
  const out: number[] = [];
  for (let d = north; d >= 1; d--) out.push(home + d * SIDE_DELTA[0]!);
  for (let d = west; d >= 1; d--) out.push(home + d * SIDE_DELTA[3]!);
  out.push(home);
  for (let d = 1; d <= east; d++) out.push(home + d * SIDE_DELTA[1]!);
  for (let d = 1; d <= south; d++) out.push(home + d * SIDE_DELTA[2]!);
  return out;
}

/**
 * How far the reach of a tower of height `height` at cell `home` goes on side `side` (0 to 3:
 * N, E, S, W): up to `height` cells, stopping before the first empty cell.
 */
function sideReach(state: Immutable<GameView>, home: number, side: number, height: number): number {
  const delta = SIDE_DELTA[side]!;
  let far = 0;
  while (far < height && tileAt(state, home + (far + 1) * delta) >= 0) far++;
  return far;
}

/**
 * How far the reach of the tower {@link inReach} is asked about goes on each side (N, E, S, W),
 * -1 for a side not walked yet: each side is walked only when a follower stands in line with the
 * tower on it (most stand nowhere near). Scratch, reset by {@link newReach}: filled and read within
 * one call of {@link canCapture} or {@link collectTargets}, nothing kept between calls.
 */
const FAR = new Int32Array(4);

/** Starts a reach question (see {@link FAR}): no side walked yet. */
function newReach(): void {
  FAR.fill(-1);
}

/**
 * Whether cell `cx, cy` is in the reach of a tower of height `height` (1 or more) at `x, y`: the
 * tower's own cell, or one of its four lines as far as {@link sideReach} goes. Asked after
 * {@link newReach}, about one tower.
 */
function inReach(state: Immutable<GameView>, x: number, y: number, height: number, cx: number, cy: number): boolean {
  const dx = cx - x;
  const dy = cy - y;
  let side: number;
  let distance: number;
  if (dx === 0) {
    if (dy === 0) return true;
    side = dy < 0 ? 0 : 2;
    distance = dy < 0 ? -dy : dy;
  } else if (dy === 0) {
    side = dx > 0 ? 1 : 3;
    distance = dx > 0 ? dx : -dx;
  } else {
    return false;
  }
  if (distance > height) return false;
  if (FAR[side]! < 0) FAR[side] = sideReach(state, cellKey(x, y), side, height);
  return distance <= FAR[side]!;
}

/**
 * The followers `captor` may capture from the tower at `x, y` (height `height`), in canonical
 * order: by cell (north to south, west to east), then by local feature, the tower top last, then
 * by owner. Followers of one player on one feature of one tile are alike: listed once.
 */
export function captureTargets(rules: Ruleset, state: Immutable<GameView>, x: number, y: number, height: number, captor: number): CaptureTarget[] {
  const n = collectTargets(state, x, y, height, captor);
  const out: CaptureTarget[] = [];
  for (let i = 0; i < n; i++) out.push(targetOf(rules, state, FOUND[i]!));
  return out;
}

/** More than any player index (a game has at most a handful of players). */
const OWNER_SPAN = 64;
/** More than any local feature index (a tile has at most 64 features), and the tower top's place after them. */
const LOCAL_SPAN = 128;
const TOP_LOCAL = LOCAL_SPAN - 1;

/**
 * The targets {@link collectTargets} found, packed (see there): scratch, filled and read within
 * one call of {@link captureTargets} or {@link captureMoves}, nothing kept between calls.
 */
const FOUND: number[] = [];

/**
 * Finds the followers `captor` may capture from the tower at `x, y` (height `height`): puts them
 * in {@link FOUND}, in canonical order and each alike follower once, and returns how many. Each
 * is one number, `(cellKey * LOCAL_SPAN + local) * OWNER_SPAN + owner` (the tower top as local
 * TOP_LOCAL, after every feature): ascending numbers are the canonical order, and alike followers
 * are equal numbers. One walk over the followers and the towers, where asking each cell in reach
 * for its followers walked them once a cell.
 */
function collectTargets(state: Immutable<GameView>, x: number, y: number, height: number, captor: number): number {
  if (height <= 0) return 0;
  newReach();
  let n = 0;
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (f.player === captor) continue;
    const t = state.tiles[f.tile]!;
    if (inReach(state, x, y, height, t.x, t.y)) FOUND[n++] = (cellKey(t.x, t.y) * LOCAL_SPAN + f.local) * OWNER_SPAN + f.player;
  }
  for (const tower of towerSlice(state).towers) {
    if (tower.top >= 0 && tower.top !== captor && inReach(state, x, y, height, tower.x, tower.y)) {
      FOUND[n++] = (cellKey(tower.x, tower.y) * LOCAL_SPAN + TOP_LOCAL) * OWNER_SPAN + tower.top;
    }
  }
  // Sorted by insertion (a handful of numbers), alike ones dropped.
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const v = FOUND[i]!;
    let j = kept;
    while (j > 0 && FOUND[j - 1]! > v) j--;
    if (j > 0 && FOUND[j - 1] === v) continue;
    for (let k = kept; k > j; k--) FOUND[k] = FOUND[k - 1]!;
    FOUND[j] = v;
    kept++;
  }
  return kept;
}

/** The target a number of {@link collectTargets} stands for. */
function targetOf(rules: Ruleset, state: Immutable<GameView>, packed: number): CaptureTarget {
  const owner = packed % OWNER_SPAN;
  const at = (packed - owner) / OWNER_SPAN;
  const local = at % LOCAL_SPAN;
  const key = (at - local) / LOCAL_SPAN;
  const placed = state.tiles[tileAt(state, key)]!;
  const feature = local === TOP_LOCAL ? TOP : rules.tiles[placed.kind]!.def.features[local]!.id;
  return { x: placed.x, y: placed.y, feature, owner };
}

/**
 * Whether `captor` has anything to capture from the tower at `x, y` of height `height` (the
 * question {@link captureTargets} answers in full, without building the list: asked after every
 * piece added).
 */
export function canCapture(state: Immutable<GameView>, x: number, y: number, height: number, captor: number): boolean {
  if (height <= 0) return false;
  newReach();
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    if (fs[i]!.player === captor) continue;
    const t = state.tiles[fs[i]!.tile]!;
    if (inReach(state, x, y, height, t.x, t.y)) return true;
  }
  for (const tower of towerSlice(state).towers) if (tower.top >= 0 && tower.top !== captor && inReach(state, x, y, height, tower.x, tower.y)) return true;
  return false;
}

/** The moves at a `tower/capture` step: each target, then declining. */
export function captureMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  const step = state.step as Immutable<TowerCaptureStep>;
  const player = step.player;
  const n = collectTargets(state, step.x, step.y, step.height, player);
  const out: Move[] = [];
  for (let i = 0; i < n; i++) {
    const t = targetOf(rules, state, FOUND[i]!);
    out.push({ type: 'tower/capture', player, x: t.x, y: t.y, feature: t.feature, owner: t.owner });
  }
  out.push({ type: 'tower/decline', player });
  return out;
}

/** The step after a piece was added, when someone is in reach: capture one follower, or decline. */
export interface TowerCaptureStep {
  /** Discriminant. */
  readonly kind: 'tower/capture';
  /** Who decides: the player who added the piece. */
  readonly player: number;
  /** Column of the tower. */
  readonly x: number;
  /** Row of the tower. */
  readonly y: number;
  /** Its new height (its reach). */
  readonly height: number;
}

/**
 * Takes the target prisoner (the move is a listed one), then exchanges prisoners if the two
 * players now hold each other's followers.
 */
export function playCapture(ctx: HookContext, captor: number, target: CaptureTarget): void {
  const { rules, state, emit } = ctx;
  const slice = towerSlice(state);
  if (target.feature === TOP) {
    for (const tower of slice.towers) if (tower.x === target.x && tower.y === target.y) tower.top = -1;
  } else {
    const t = tileAt(state, cellKey(target.x, target.y));
    const local = rules.tiles[state.tiles[t]!.kind]!.localIndex[target.feature]!;
    const fs = state.followers;
    let i = 0;
    while (!(fs[i]!.tile === t && fs[i]!.local === local && fs[i]!.player === target.owner)) i++;
    removeFollower(state, i);
  }
  slice.prisoners[captor]![target.owner]!++;
  emitExpansionEvent(emit, 'tower/captured', { player: captor, owner: target.owner, x: target.x, y: target.y, feature: target.feature });
  exchange(ctx, slice, captor, target.owner);
}

/**
 * "Kdykoli mají dva hráči navzájem uvězněny své figurky, okamžitě si je navzájem vymění. Figurky
 * se vrátí zpět do zásob hráčů." Checked after every capture, so at most one pair is ever held
 * both ways, and it is exchanged one for one. Followers of one player are all alike in the modules
 * this library has (no large follower, builder or pig), so which one comes back is no choice.
 */
function exchange(ctx: HookContext, slice: TowerState, a: number, b: number): void {
  const p = slice.prisoners;
  if (p[a]![b]! === 0 || p[b]![a]! === 0) return;
  p[a]![b]!--;
  p[b]![a]!--;
  ctx.state.supply[a]!++;
  ctx.state.supply[b]!++;
  emitExpansionEvent(ctx.emit, 'tower/exchanged', { players: a < b ? [a, b] : [b, a] });
}
