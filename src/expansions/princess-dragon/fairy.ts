/**
 * The fairy. The rulebook, "Víla": "Vždy, keď niektorý z hráčov môže umiestniť, ale neumiestni, vo
 * svojom ťahu žiadnu figúrku, smie vílu premiestniť na ľubovoľnú kartu, na ktorej už niektorá jeho
 * figúrka stojí (nie je teda možné vílu presunúť, keď hráč umiestňuje kartu so sopkou alebo
 * odstraňuje rytiera kartou princezny)." Its three properties: the dragon may not enter its tile;
 * at the start of a player's turn, a follower of theirs on its tile earns them 1 point; when a
 * feature holding a follower on its tile is scored, that follower's owner gets 3 points, whatever
 * the majority; the follower comes back, the fairy stays.
 *
 * "hráč, ktorého figúrka stojí na poličku s vílou, dostane tri body": the player gets three
 * points, once per scored feature however many of their followers stand on it by her (two can,
 * when the Count's followers come out of the City onto it). Those 3 points are given when the
 * feature is scored ("Pri hodnotení oblastí"), after every module's `beforeScoring` that puts
 * followers on it: the module's hook order (80) comes after the Count's (70), whose move-out round
 * happens "ještě před přidělením bodů" (before the points are given).
 */
import { deployTargets } from '../../core/engine/play.js';
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { award } from '../../core/engine/scoring.js';
import { findRoot } from '../../core/features.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, keyX, keyY, type GameView, type Move } from '../../core/state.js';
import type { Cell, Immutable } from '../../core/types.js';
import { pdSlice, tileIndexAt } from './state.js';

/** Points at the start of one's turn with a follower on the fairy's tile. */
export const FAIRY_TURN_POINTS = 1;
/** Points for the follower on the fairy's tile when its feature is scored. */
export const FAIRY_SCORING_POINTS = 3;

/**
 * The tiles the fairy may move to for `player`, by cell: every tile holding one of their followers
 * (a tower top too: the Tower's Q&A, "Je možné přesunout vílu na pole, na kterém je pouze figurka
 * postavená na věži? Ano."), but the one it stands on.
 */
export function fairyTargets(rules: Ruleset, state: Immutable<GameView>, player: number): Cell[] {
  return fairyCells(rules, state, player).map((k) => ({ x: keyX(k), y: keyY(k) }));
}

/**
 * The fairy's moves at the deploy step, appended to `out`: only for a player who could deploy a
 * follower this turn (`couldPortal`: through the portal, when the tile is one) and has not: the
 * move is the turn's action instead.
 */
export function fairyMoves(rules: Ruleset, state: Immutable<GameView>, couldPortal: boolean, out: Move[]): void {
  const player = state.active;
  // fairyCount leaves her cells in the scratch, as found: listed by cell.
  const cells = FOUND.subarray(0, fairyCount(rules, state, couldPortal)).sort();
  for (let i = 0; i < cells.length; i++) out.push({ type: 'princess-dragon/fairy', player, x: keyX(cells[i]!), y: keyY(cells[i]!) });
}

/**
 * Scratch of {@link fairyCount} and {@link fairyMoveAt}: the cells of {@link fairyTargets} as they
 * are first found, filled and read within one call (grown when a player has more tiles with
 * followers than it holds).
 */
let FOUND = new Int32Array(32);

/** Adds cell `k` to the first `n` entries of {@link FOUND} unless it is there or is `skip`; returns the new count. */
function addCell(n: number, k: number, skip: number): number {
  if (k === skip) return n;
  for (let i = 0; i < n; i++) if (FOUND[i] === k) return n;
  if (n === FOUND.length) {
    const grown = new Int32Array(2 * n);
    grown.set(FOUND);
    FOUND = grown;
  }
  FOUND[n] = k;
  return n + 1;
}

/**
 * Writes the cells of {@link fairyTargets} into {@link FOUND} in the order they are first found
 * (the followers in deployment order, then those the other modules hold on tiles) and returns how
 * many. For random playouts: no sorting, no move built.
 */
function fairyCellsFound(rules: Ruleset, state: Immutable<GameView>, player: number): number {
  const fairy = pdSlice(state).fairy;
  const skip = fairy === null ? -1 : cellKey(fairy.x, fairy.y);
  let n = 0;
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    if (fs[i]!.player !== player) continue;
    const t = state.tiles[fs[i]!.tile]!;
    n = addCell(n, cellKey(t.x, t.y), skip);
  }
  const held = rules.hooks.tileFollowers;
  for (let h = 0; h < held.length; h++) {
    const list = held[h]!(state);
    for (let i = 0; i < list.length; i++) if (list[i]!.player === player) n = addCell(n, cellKey(list[i]!.x, list[i]!.y), skip);
  }
  return n;
}

/**
 * The keys of the cells of {@link fairyTargets}, ascending (the order of the listed moves): the
 * cells as {@link fairyCellsFound} finds them, sorted (a player has at most a few followers out).
 */
function fairyCells(rules: Ruleset, state: Immutable<GameView>, player: number): number[] {
  return Array.from(FOUND.subarray(0, fairyCellsFound(rules, state, player)).sort());
}

/**
 * How many fairy moves {@link fairyMoves} appends (`couldPortal` as there), without building them;
 * her cells are left in {@link FOUND}, as found.
 */
export function fairyCount(rules: Ruleset, state: Immutable<GameView>, couldPortal: boolean): number {
  const player = state.active;
  if (state.supply[player]! <= 0) return 0;
  const n = fairyCellsFound(rules, state, player);
  return n === 0 || (!couldPortal && deployTargets(rules, state) === 0) ? 0 : n;
}

/** The fairy move to the `i`-th of her cells in the order they are first found (0 <= i < {@link fairyCount}), built alone. */
export function fairyMoveAt(rules: Ruleset, state: Immutable<GameView>, i: number): Move {
  const player = state.active;
  fairyCellsFound(rules, state, player);
  const k = FOUND[i]!;
  return { type: 'princess-dragon/fairy', player, x: keyX(k), y: keyY(k) };
}

/** Moves the fairy (a listed target). */
export function playFairy(ctx: HookContext, player: number, x: number, y: number): 'done' {
  const slice = pdSlice(ctx.state);
  const from = slice.fairy;
  slice.fairy = { x, y };
  emitExpansionEvent(ctx.emit, 'princess-dragon/fairy-moved', { player, from, to: { x, y } });
  return 'done';
}

/** At the start of a turn: 1 point to the active player if one of their followers is on the fairy's tile. */
export function fairyTurnPoint(ctx: HookContext): void {
  const { rules, state } = ctx;
  const fairy = pdSlice(state).fairy;
  if (fairy === null) return;
  const t = tileIndexAt(state, fairy.x, fairy.y);
  if (t >= 0 && hasFollowerOnTile(rules, state, t, fairy.x, fairy.y, state.active)) award(ctx, state.active, FAIRY_TURN_POINTS, 'princess-dragon/fairy', null);
}

/**
 * Whether `player` has a follower on tile `t` at `x, y`: `followersOnTile(rules, state, t).includes(player)`
 * (its features, then what the other modules hold there), asked at every turn's start without
 * building the list (each module's list of held followers is read as it is).
 */
function hasFollowerOnTile(rules: Ruleset, state: Immutable<GameView>, t: number, x: number, y: number, player: number): boolean {
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) if (fs[i]!.tile === t && fs[i]!.player === player) return true;
  const held = rules.hooks.tileFollowers;
  for (let h = 0; h < held.length; h++) {
    const list = held[h]!(state);
    for (let i = 0; i < list.length; i++) if (list[i]!.x === x && list[i]!.y === y && list[i]!.player === player) return true;
  }
  return false;
}

/** The followers on the fairy's tile's features, as indices into `state.followers` (none while she is off the board). */
function onFairyTile(state: Immutable<GameView>): number[] {
  const fairy = pdSlice(state).fairy;
  const out: number[] = [];
  if (fairy === null) return out;
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    const placed = state.tiles[fs[i]!.tile]!;
    if (placed.x === fairy.x && placed.y === fairy.y) out.push(i);
  }
  return out;
}

/** The root of the feature follower `i` stands on. */
function rootOf(state: Immutable<GameView>, i: number): number {
  const f = state.followers[i]!;
  return findRoot(state.features.parent, state.tiles[f.tile]!.node + f.local);
}

/**
 * Just before feature `root` is scored (the module's `beforeScoring`, after the Count's move-out
 * round: hook order 80 after 70): 3 points to each player with a follower on it standing on the
 * fairy's tile, once per player, in the order of their first such follower. Most completed
 * features hold no follower: the count the feature graph keeps on each one says so without a
 * look at the followers.
 */
export function fairyScoring(ctx: HookContext, root: number): void {
  if (ctx.state.features.followers[root] === 0) return;
  let paid = 0;
  for (const i of onFairyTile(ctx.state)) {
    const player = ctx.state.followers[i]!.player;
    if ((paid & (1 << player)) !== 0 || rootOf(ctx.state, i) !== root) continue;
    paid |= 1 << player;
    award(ctx, player, FAIRY_SCORING_POINTS, 'princess-dragon/fairy', root);
  }
}

/**
 * The final scoring (after the base game's): every follower still on the fairy's tile stands on
 * a feature the final scoring evaluates (an unfinished road, city or cloister, or a field): 3
 * points to its owner, once per player and feature (as {@link fairyScoring}). (A follower on a
 * tower top is on no feature and earns nothing.)
 */
export function fairyFinal(ctx: HookContext): void {
  const paid: number[] = [];
  for (const i of onFairyTile(ctx.state)) {
    const player = ctx.state.followers[i]!.player;
    const root = rootOf(ctx.state, i);
    // One number per (feature, player): players are fewer than 8.
    const key = root * 8 + player;
    if (paid.includes(key)) continue;
    paid.push(key);
    award(ctx, player, FAIRY_SCORING_POINTS, 'princess-dragon/fairy', root);
  }
}
