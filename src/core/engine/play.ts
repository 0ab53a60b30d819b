/**
 * The rules as one mutating recipe: `playMove(rules, s, move, emit)` changes `s` in place.
 * `applyMove` runs it on a plain copy and shares the result's unchanged parts with its input; the
 * Simulator runs it on its own copy. The move is assumed legal: callers validate first (see
 * legal.ts). This file plays the move itself (placement, deployment, pass, a module's move); the
 * turn goes on in turn.ts, tiles are drawn in draw.ts, games are set up in setup.ts.
 */
import { layTile } from '../board.js';
import type { Emit } from '../events.js';
import type { ActionClaim, Expansion } from '../expansion.js';
import { findRoot } from '../features.js';
import type { ScoringContext } from '../game.js';
import type { Ruleset } from '../ruleset.js';
import type { ExpansionMove, GameState, GameView, Move } from '../state.js';
import type { Immutable } from '../types.js';
import { cloneJson } from './clone.js';
import { firstDifference } from './json-diff.js';
import { deepFreeze as deepFreezeJson } from './sharing.js';
import { endSetupPlacement, finishTurn, resumeTurn } from './turn.js';

/**
 * Applies a legal move to `s` in place. `owned`: the move is a fresh object of the core's own
 * shape, or one an expansion's move list just made, that nobody else holds (a playout's), so the
 * history may keep it instead of a copy. @internal
 */
export function playMove(rules: Ruleset, s: GameState, move: Move, emit: Emit, owned = false): void {
  const step = s.step;
  if (step.kind === 'place-tile' && move.type === 'place') {
    s.moves.push(owned ? move : { type: 'place', player: move.player, x: move.x, y: move.y, rotation: move.rotation });
    const tile = rules.tileById.get(step.tile)!;
    const index = layTile(rules, s, tile, move.x, move.y, move.rotation, move.player);
    if (emit !== null) {
      emit({ type: 'tile-placed', player: move.player, tile: step.tile, x: move.x, y: move.y, rotation: move.rotation });
    }
    const afterPlace = rules.hooks.afterPlace;
    if (afterPlace.length > 0) {
      const ctx: ScoringContext = { rules, state: s, emit };
      for (let i = 0; i < afterPlace.length; i++) afterPlace[i]!(ctx, index);
    }
    if (tile.index === rules.setupTile && s.turn === 0) {
      // A start tile that gave way (the River's spring beside the Count's City): set-up, not a turn's action.
      endSetupPlacement(rules, s, emit);
      return;
    }
    const claim = claimNow(rules, s);
    if (deployTargets(rules, s, claim) > 0 || hasDeployMoves(rules, s, claim)) s.step = { kind: 'deploy', player: move.player };
    else finishTurn(rules, s, emit);
    return;
  }
  if (move.type.includes('/')) {
    playExpansionMove(rules, s, move as ExpansionMove, emit, owned);
    return;
  }
  if (step.kind === 'deploy' && move.type === 'deploy') {
    s.moves.push(owned ? move : { type: 'deploy', player: move.player, feature: move.feature });
    const index = s.tiles.length - 1;
    const placed = s.tiles[index]!;
    const local = rules.tiles[placed.kind]!.localIndex[move.feature]!;
    s.features.followers[findRoot(s.features.parent, placed.node + local)]!++;
    s.followers.push({ player: move.player, tile: index, local });
    s.supply[move.player]!--;
    if (emit !== null) {
      emit({
        type: 'follower-deployed',
        player: move.player,
        at: { kind: rules.kindNames[s.features.kind[placed.node + local]!]!, x: placed.x, y: placed.y, feature: move.feature },
      });
    }
    finishTurn(rules, s, emit);
    return;
  }
  if (step.kind === 'deploy' && move.type === 'pass') {
    s.moves.push(owned ? move : { type: 'pass', player: move.player });
    finishTurn(rules, s, emit);
    return;
  }
  throw new Error(`playMove: ${move.type} is not playable at step ${step.kind} (validate moves first)`);
}

/**
 * Bit set of the placed tile's local features a follower may go on (bit i = local feature i),
 * or 0 when the player has no follower left, an expansion claims the action (`claim`: the
 * {@link claimNow} of this state, for callers that ask it once for several questions) or every
 * feature is taken. @internal
 */
export function deployTargets(rules: Ruleset, s: Immutable<GameView>, claim: ClaimNow = claimNow(rules, s)): number {
  const index = s.tiles.length - 1;
  const placed = s.tiles[index]!;
  if (placed.player < 0 || s.supply[placed.player]! <= 0) return 0;
  if (claim !== null) return 0;
  const allowed = rules.hooks.deployAllowed;
  for (let i = 0; i < allowed.length; i++) if (!allowed[i]!(rules, s)) return 0;
  const tile = rules.tiles[placed.kind]!;
  let bits = 0;
  for (let f = 0; f < tile.kinds.length; f++) {
    if (!rules.deployable[tile.kinds[f]!]) continue;
    if (s.features.followers[findRoot(s.features.parent, placed.node + f)] === 0) bits |= 1 << f;
  }
  return bits;
}

/** Whether any expansion offers a move at the deploy step now (only the claiming one, when one claims the action). */
function hasDeployMoves(rules: Ruleset, s: Immutable<GameView>, claim: ClaimNow): boolean {
  return rules.hooks.deployers.length > 0 && countExtras(rules, s, claim) > 0;
}

/**
 * How many moves the expansions offer at the deploy step now (`deployMoves`; only the claiming
 * expansion's when one claims the action), counted without building them where a module can
 * count them (`countDeployMoves`). The moves of the whole turn not included. @internal
 */
export function countExtras(rules: Ruleset, s: Immutable<GameView>, claim: ClaimNow): number {
  if (claim !== null) return claim.owner.deployMoves === undefined ? 0 : deployCount(claim.owner, rules, s);
  const mods = rules.hooks.deployers;
  let n = 0;
  for (let i = 0; i < mods.length; i++) n += deployCount(mods[i]!, rules, s);
  return n;
}

/** How many moves expansion `m` (which has `deployMoves`) offers at the deploy step now: its `countDeployMoves`, or its list's length. */
function deployCount(m: Expansion, rules: Ruleset, s: Immutable<GameView>): number {
  return m.countDeployMoves !== undefined ? m.countDeployMoves(rules, s) : m.deployMoves!(rules, s).length;
}

/**
 * The expansion claiming this turn's action and its claim (see `Expansion.claimsAction`), or null:
 * the first claim in hook order. @internal
 */
export function actionClaim(rules: Ruleset, s: Immutable<GameView>): { readonly owner: Expansion; readonly claim: ActionClaim } | null {
  const list = rules.hooks.claimers;
  for (let i = 0; i < list.length; i++) {
    const claim = list[i]!.claimsAction!(rules, s);
    if (claim !== null) return { owner: list[i]!, claim };
  }
  return null;
}

/** An expansion's claim on this turn's action with its owner (see {@link actionClaim}), or null. @internal */
export type ClaimNow = { readonly owner: Expansion; readonly claim: ActionClaim } | null;

/**
 * {@link actionClaim}, asked only when some module can claim: the deploy step asks it for its
 * targets, its modules' moves and whether passing is offered, so callers ask once and hand it on. @internal
 */
export function claimNow(rules: Ruleset, s: Immutable<GameView>): ClaimNow {
  return rules.hooks.claimers.length > 0 ? actionClaim(rules, s) : null;
}

/** The expansion that owns a move type or step kind `'<id>/<name>'`. @internal */
export function ownerOf(rules: Ruleset, name: string): Expansion | undefined {
  // Asked for every expansion move and step (twice: to draw or check the move, then to play it):
  // a name's owner is looked up once and remembered, for a few hundred names at most.
  const owners = rules.hooks.owners;
  const known = owners.get(name);
  if (known !== undefined) return known;
  // Compared in place (no substring, no callback).
  const list = rules.expansions;
  for (let i = 0; i < list.length; i++) {
    const id = list[i]!.id;
    if (name.length > id.length && name.charCodeAt(id.length) === SLASH && name.startsWith(id)) {
      if (owners.size < MAX_REMEMBERED_OWNERS) owners.set(name, list[i]!);
      return list[i]!;
    }
  }
  return undefined;
}

/** How many names {@link ownerOf} remembers per ruleset: every real move type and step kind, not every name a caller can invent. */
const MAX_REMEMBERED_OWNERS = 256;

/** The character code of '/', which ends the expansion id in a move type or step kind. */
const SLASH = 47;

/** Plays an expansion's move (at the deploy step, or at one of its own steps); `owned` as for {@link playMove}. */
function playExpansionMove(rules: Ruleset, s: GameState, move: ExpansionMove, emit: Emit, owned: boolean): void {
  const owner = ownerOf(rules, move.type)!;
  // Stored in the shape its expansion offers it (key order included), whatever order the caller
  // wrote its keys in: same seed and moves, same bytes.
  s.moves.push(owned ? move : deepFreezeJson(cloneJson(canonicalMove(rules, s, owner, move))));
  if (owner.turnMoves !== undefined && isListed(owner.turnMoves(rules, s), move)) {
    // A move of the whole turn (ransom): played aside, the step stays what it was.
    owner.play!({ rules, state: s, emit }, move);
    return;
  }
  // A move at the deploy step is the turn's action: when the expansion is done, the turn goes on.
  if (s.step.kind === 'deploy') s.flow ??= { phase: 'action', roots: [], hook: 0, completed: [] };
  if (owner.play!({ rules, state: s, emit }, move) === 'done') resumeTurn(rules, s, emit);
}

/** The offered move equal to `move` (the expansion's own object, in its key order), or `move`. */
function canonicalMove(rules: Ruleset, s: GameState, owner: Expansion, move: ExpansionMove): ExpansionMove {
  const step = s.step;
  const lists = [
    step.kind === 'deploy' ? (owner.deployMoves?.(rules, s) ?? []) : step.kind.startsWith(`${owner.id}/`) ? (owner.stepMoves?.(rules, s) ?? []) : [],
    owner.turnMoves?.(rules, s) ?? [],
  ];
  for (const list of lists) for (const o of list) if (firstDifference(o, move, '$') === null) return o as ExpansionMove;
  return move;
}

/** Whether `move` is one of `offered` (same fields, same values). */
function isListed(offered: readonly Move[], move: ExpansionMove): boolean {
  for (const o of offered) if (firstDifference(o, move, '$') === null) return true;
  return false;
}
