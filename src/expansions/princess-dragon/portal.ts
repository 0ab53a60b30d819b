/**
 * The magic portal: "V tomto ťahu smie umiestniť svoju figúrku na túto alebo akúkoľvek inú skôr
 * umiestnenú kartu krajiny. Pri tom musí dodržať bežné pravidlá pre umiestňovanie figúrok. Nesmie
 * teda figúrku umiestniť na už ohodnotené územie alebo na také územie, kde už stojí iná figúrka."
 * The portal tile's own features are the ordinary deployment; the portal adds every other tile's.
 */
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { placeFollower } from '../../core/engine/scoring.js';
import { findRoot } from '../../core/features.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { cellKey } from '../../core/state.js';

/** A feature the portal may take a follower to: local feature `feature` of the tile at `x, y`. */
export interface PortalTarget {
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Local feature id. */
  readonly feature: string;
}

/**
 * Why the follower may not go onto local feature `local` of tile `tile` through the portal, or
 * null: a kind followers stand on, not completed ("už ohodnotené územie": a completed feature
 * was scored, with or without followers), nobody on it.
 */
export function portalProblem(rules: Ruleset, state: Immutable<GameView>, tile: number, local: number): 'kind' | 'completed' | 'occupied' | null {
  const placed = state.tiles[tile]!;
  return segmentProblem(rules, state, placed.node + local);
}

/**
 * {@link portalProblem} for segment `seg` of the feature graph (a tile's local feature: the
 * segment's kind is the tile kind's, see `layTile`): the rule, in one place.
 */
function segmentProblem(rules: Ruleset, state: Immutable<GameView>, seg: number): 'kind' | 'completed' | 'occupied' | null {
  const g = state.features;
  if (!rules.deployable[g.kind[seg]!]) return 'kind';
  const root = findRoot(g.parent, seg);
  if (g.open[root] === 0 && rules.kinds[g.kind[root]!]!.completion !== 'never') return 'completed';
  if (g.followers[root]! > 0) return 'occupied';
  return null;
}

/**
 * Every portal target, by cell (north to south, west to east) then local feature: each
 * feature of every tile but the portal tile itself (deployed on as usual) that takes a follower.
 * A feature spread over several tiles is offered on each of them (where the follower stands
 * matters to the dragon, the fairy and the Tower).
 */
export function portalTargets(rules: Ruleset, state: Immutable<GameView>): PortalTarget[] {
  const out: PortalTarget[] = [];
  forEachTarget(rules, state, (x, y, feature) => out.push({ x, y, feature }));
  return out;
}

/**
 * Tile indexes below 2^12 (a ruleset has a few hundred tiles at most): a cell key (below 2^20)
 * and an index share one unsigned 32-bit number, `cellKey * INDEX_SPAN + index`.
 */
const INDEX_SPAN = 4096;

/**
 * Scratch buffer of {@link forEachTarget}: the tiles by cell, rewritten in full (its first
 * `tiles - 1` entries) before each use; grown when a board outgrows it. Holds nothing between calls.
 */
let scratch = new Uint32Array(256);

/** Calls `visit` for each portal target, in the order of {@link portalTargets}. */
function forEachTarget(rules: Ruleset, state: Immutable<GameView>, visit: (x: number, y: number, feature: string) => void): void {
  const last = state.tiles.length - 1;
  // The tiles by cell: each as `cellKey * INDEX_SPAN + index` (cell keys are distinct), sorted as numbers.
  if (scratch.length < last) scratch = new Uint32Array(2 * last);
  const order = scratch.subarray(0, last);
  for (let t = 0; t < last; t++) order[t] = cellKey(state.tiles[t]!.x, state.tiles[t]!.y) * INDEX_SPAN + t;
  order.sort();
  for (let i = 0; i < last; i++) {
    // The index is the number's low 12 bits (a bit mask: the number may exceed 2^31).
    const placed = state.tiles[order[i]! & (INDEX_SPAN - 1)]!;
    const def = rules.tiles[placed.kind]!;
    const feats = def.def.features;
    for (let f = 0; f < feats.length; f++) if (segmentProblem(rules, state, placed.node + f) === null) visit(placed.x, placed.y, feats[f]!.id);
  }
}

/** The portal's moves for the active player (who has a follower in supply). */
export function portalMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  const player = state.active;
  const out: Move[] = [];
  forEachTarget(rules, state, (x, y, feature) => out.push({ type: 'princess-dragon/portal', player, x, y, feature }));
  return out;
}

/**
 * How many portal targets there are ({@link portalTargets}' length), without sorting the tiles or
 * building a move: the features of every tile but the placed one are the feature graph's
 * segments below the placed tile's first (each tile's local features are consecutive segments,
 * laid in tile order), so one pass over them counts the targets.
 */
export function portalCount(rules: Ruleset, state: Immutable<GameView>): number {
  const end = state.tiles[state.tiles.length - 1]!.node;
  let n = 0;
  for (let seg = 0; seg < end; seg++) if (segmentProblem(rules, state, seg) === null) n++;
  return n;
}

/**
 * The portal move to the `i`-th target in segment order (tile order, then local feature; not the
 * listed order, by cell), built alone: random playouts draw `i` uniformly (see `drawDeployMove`).
 * When there are no more than `i` targets: how many there are (the module's numbering goes on
 * with the fairy's moves), so that one walk serves either way.
 */
export function portalMoveAt(rules: Ruleset, state: Immutable<GameView>, i: number): Move | number {
  const end = state.tiles[state.tiles.length - 1]!.node;
  const g = state.features;
  let n = 0;
  for (let seg = 0; seg < end; seg++) {
    if (segmentProblem(rules, state, seg) !== null || n++ !== i) continue;
    const placed = state.tiles[g.tile[seg]!]!;
    const feature = rules.tiles[placed.kind]!.def.features[seg - placed.node]!.id;
    return { type: 'princess-dragon/portal', player: state.active, x: placed.x, y: placed.y, feature };
  }
  return n;
}

/** Deploys a follower from supply through the portal (a listed target): a `follower-deployed` event like any deployment. */
export function playPortal(ctx: HookContext, player: number, tile: number, local: number): 'done' {
  const { rules, state, emit } = ctx;
  state.supply[player]!--;
  placeFollower(state, player, tile, local);
  const placed = state.tiles[tile]!;
  const feature = rules.tiles[placed.kind]!.def.features[local]!.id;
  if (emit !== null) {
    emit({ type: 'follower-deployed', player, at: { kind: rules.kindNames[state.features.kind[placed.node + local]!]!, x: placed.x, y: placed.y, feature } });
  }
  emitExpansionEvent(emit, 'princess-dragon/portal-used', { player, x: placed.x, y: placed.y, feature });
  return 'done';
}
