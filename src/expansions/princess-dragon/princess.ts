/**
 * The princess. The rulebook, "Princezná": "Ak ju položí ku karte s mestom, kde stojí rytier alebo
 * viac rytierov, musí jedného rytiera (podľa svojho výberu) vrátiť do zásoby jeho majiteľa. On sám
 * nesmie v tomto prípade umiestniť žiadnu svoju figúrku. Ak hráč kartu so symbolom princezny
 * priloží k neobsadenému mestu alebo iným spôsobom ..., smie na túto kartu normálne umiestniť
 * vlastnú figúrku." The knights are the followers on the city the princess's city part joined;
 * a follower on a tower in that city is not one of them (the Tower's Q&A: "město a věž se
 * počítají jako různé regiony").
 */
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { removeFollower } from '../../core/engine/scoring.js';
import { findRoot } from '../../core/features.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type GameView, type Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { placedThisTurn } from './state.js';

/** A knight the princess may send home: on local feature `feature` of the tile at `x, y`, of `owner`. */
export interface Knight {
  /** Column of its tile. */
  readonly x: number;
  /** Row of its tile. */
  readonly y: number;
  /** Local feature id it stands on. */
  readonly feature: string;
  /** Its owner. */
  readonly owner: number;
}

/**
 * The knights in the city of the princess laid this turn, in canonical order (by cell, then local
 * feature, then owner; alike knights once); empty when no princess tile was laid this turn or her
 * city holds none.
 */
export function princessKnights(rules: Ruleset, state: Immutable<GameView>, princesses: Readonly<Record<string, string>>): Knight[] {
  const root = princessCity(rules, state, princesses);
  const g = state.features;
  if (root < 0 || g.followers[root] === 0) return [];
  const found: { key: number; local: number; knight: Knight }[] = [];
  for (const f of state.followers) {
    const t = state.tiles[f.tile]!;
    if (findRoot(g.parent, t.node + f.local) !== root) continue;
    const feature = rules.tiles[t.kind]!.def.features[f.local]!.id;
    if (found.some((k) => k.knight.x === t.x && k.knight.y === t.y && k.local === f.local && k.knight.owner === f.player)) continue;
    found.push({ key: cellKey(t.x, t.y), local: f.local, knight: { x: t.x, y: t.y, feature, owner: f.player } });
  }
  found.sort((a, b) => a.key - b.key || a.local - b.local || a.knight.owner - b.knight.owner);
  return found.map((k) => k.knight);
}

/**
 * Whether the city of the princess laid this turn holds a knight (`princessKnights(...).length > 0`
 * without listing them): asked by every claim on the turn's action, several times a turn, so it
 * reads the count of followers the feature graph keeps on the city (the count the core's own
 * occupancy test, `deployTargets`, reads) instead of looking for them.
 */
export function princessHasKnights(rules: Ruleset, state: Immutable<GameView>, princesses: Readonly<Record<string, string>>): boolean {
  const root = princessCity(rules, state, princesses);
  return root >= 0 && state.features.followers[root]! > 0;
}

/** The root segment of the princess's city on the tile laid this turn, or -1 when no princess tile was laid this turn. */
function princessCity(rules: Ruleset, state: Immutable<GameView>, princesses: Readonly<Record<string, string>>): number {
  const placed = placedThisTurn(state);
  if (placed === null || !Object.hasOwn(princesses, placed.id)) return -1;
  const tile = state.tiles[placed.index]!;
  const local = rules.tiles[tile.kind]!.localIndex[princesses[placed.id]!]!;
  return findRoot(state.features.parent, tile.node + local);
}

/** The princess's moves: one per knight. */
export function princessMoves(rules: Ruleset, state: Immutable<GameView>, princesses: Readonly<Record<string, string>>): Move[] {
  const player = state.active;
  return princessKnights(rules, state, princesses).map((k): Move => ({ type: 'princess-dragon/princess', player, x: k.x, y: k.y, feature: k.feature, owner: k.owner }));
}

/** Sends the knight home (a listed one). */
export function playPrincess(ctx: HookContext, player: number, knight: Knight, tile: number, local: number): 'done' {
  const { rules, state, emit } = ctx;
  const fs = state.followers;
  let i = 0;
  while (!(fs[i]!.tile === tile && fs[i]!.local === local && fs[i]!.player === knight.owner)) i++;
  removeFollower(state, i);
  state.supply[knight.owner]!++;
  if (emit !== null) {
    const t = state.tiles[tile]!;
    emit({ type: 'follower-returned', player: knight.owner, at: { kind: rules.kindNames[state.features.kind[t.node + local]!]!, x: knight.x, y: knight.y, feature: knight.feature } });
  }
  emitExpansionEvent(emit, 'princess-dragon/princess', { player, owner: knight.owner, x: knight.x, y: knight.y, feature: knight.feature });
  return 'done';
}
