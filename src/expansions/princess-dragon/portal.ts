/**
 * The magic portal: "V tomto ťahu smie umiestniť svoju figúrku na túto alebo akúkoľvek inú skôr
 * umiestnenú kartu krajiny. Pri tom musí dodržať bežné pravidlá pre umiestňovanie figúrok. Nesmie
 * teda figúrku umiestniť na už ohodnotené územie alebo na také územie, kde už stojí iná figúrka."
 * The portal tile's own features are the ordinary deployment; the portal adds every other tile's.
 */
import { emitExpansionEvent, type HookContext } from '../../core/expansion.js';
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
  const def = rules.tileById.get(placed.id)!;
  if (!rules.deployable[def.kinds[local]!]) return 'kind';
  const g = state.features;
  const root = findRoot(g.parent, placed.node + local);
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
  const last = state.tiles.length - 1;
  const order: number[] = [];
  for (let t = 0; t < last; t++) order.push(t);
  order.sort((a, b) => cellKey(state.tiles[a]!.x, state.tiles[a]!.y) - cellKey(state.tiles[b]!.x, state.tiles[b]!.y));
  const out: PortalTarget[] = [];
  for (const t of order) {
    const placed = state.tiles[t]!;
    const feats = rules.tileById.get(placed.id)!.def.features;
    for (let f = 0; f < feats.length; f++) if (portalProblem(rules, state, t, f) === null) out.push({ x: placed.x, y: placed.y, feature: feats[f]!.id });
  }
  return out;
}

/** The portal's moves for the active player (who has a follower in supply). */
export function portalMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  const player = state.active;
  return portalTargets(rules, state).map((t): Move => ({ type: 'princess-dragon/portal', player, x: t.x, y: t.y, feature: t.feature }));
}

/** Deploys a follower from supply through the portal (a listed target): a `follower-deployed` event like any deployment. */
export function playPortal(ctx: HookContext, player: number, tile: number, local: number): 'done' {
  const { rules, state, emit } = ctx;
  state.supply[player]!--;
  placeFollower(state, player, tile, local);
  const placed = state.tiles[tile]!;
  const feature = rules.tileById.get(placed.id)!.def.features[local]!.id;
  if (emit !== null) {
    emit({ type: 'follower-deployed', player, at: { kind: rules.kindNames[state.features.kind[placed.node + local]!]!, x: placed.x, y: placed.y, feature } });
  }
  emitExpansionEvent(emit, 'princess-dragon/portal-used', { player, x: placed.x, y: placed.y, feature });
  return 'done';
}
