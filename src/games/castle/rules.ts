/**
 * The Castle's scoring: what completed features are worth, majorities where a tie scores
 * nobody, the tokens used in scoring, the keep and the final scoring (the `CastleRules` object).
 */
import { findRoot, tileCount } from '../../core/features.js';
import type { ScoringContext } from '../../core/game.js';
import type { HookContext } from '../../core/expansion.js';
import { award, featureRef, occupiedRoots, returnFollowers } from '../../core/engine/scoring.js';
import type { GameState, GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import type { Ruleset } from '../../core/ruleset.js';
import { type CastleConfig } from './options.js';
import { largestEmptyRegion } from './empty-area.js';
import { type CastleSlice } from './state.js';

/** Kind indices (CASTLE_KINDS order). */
export const PATH = 0;
export const TOWER = 1;
export const HOUSE = 2;
export const COURT = 3;

export function slice(s: Immutable<GameView> | GameState): CastleSlice {
  return (s.ext as Record<string, unknown>)['castle'] as CastleSlice;
}

/** The player with strictly more followers on `root`, or -1 (a tie, or nobody there). */
export function scorerOf(s: Immutable<GameView>, root: number): number {
  // Two players: count in place rather than through followersOn (this runs in every scoring).
  // The root counts the followers on it: the walk stops once it has found them all, walking from
  // the newest (a feature completed now mostly holds recent ones; the sum is order-free).
  const g = s.features;
  let left = g.followers[root]!;
  if (left === 0) return -1;
  let balance = 0;
  const fs = s.followers;
  for (let i = fs.length - 1; i >= 0 && left > 0; i--) {
    const f = fs[i]!;
    if (findRoot(g.parent, s.tiles[f.tile]!.node + f.local) === root) {
      balance += f.player === 0 ? 1 : -1;
      left--;
    }
  }
  return balance > 0 ? 0 : balance < 0 ? 1 : -1;
}

/** Points of a completed feature (digest, scoring table), with token 2/3 doubling when used. */
export function completedValue(s: Immutable<GameView>, root: number, token: boolean): number {
  const g = s.features;
  const tiles = tileCount(g, root);
  switch (g.kind[root]) {
    case PATH:
      return g.pennants[root]! > 0 ? 2 * tiles : tiles; // a well doubles
    case TOWER:
      return (token ? 4 : 2) * tiles;
    case HOUSE:
      return (token ? 2 : 1) * tiles;
    default:
      return 0;
  }
}

/** How many tokens of kind `token` player `p` holds. */
export function heldCount(sl: Immutable<CastleSlice>, p: number, token: number): number {
  const held = sl.held[p]!;
  let n = 0;
  for (let i = 0; i < held.length; i++) if (held[i]!.token === token) n++;
  return n;
}

/** Index of a usable held token of kind `token` (taken in an earlier turn), or -1. */
export function usable(s: Immutable<GameView>, player: number, token: number): number {
  const held = slice(s).held[player]!;
  for (let i = 0; i < held.length; i++) if (held[i]!.token === token && held[i]!.turn < s.turn) return i;
  return -1;
}

/** Removes a held token and tells the world. */
export function useToken(ctx: HookContext, player: number, index: number, detail: Record<string, unknown> = {}): void {
  const held = slice(ctx.state).held[player]!;
  const [t] = held.splice(index, 1);
  if (ctx.emit !== null) ctx.emit({ type: 'castle/token-used', player, token: t!.token, ...detail } as never);
}

/** The Castle module, built from validated options. */
export class CastleRules {
  readonly config: CastleConfig;
  /** Tower index per track space (layout.towerAt). */
  readonly towerAt: Int8Array;
  /** Per tower: the token-bearing towers are all but the one holding space 0. */
  readonly hasToken: readonly boolean[];

  constructor(config: CastleConfig) {
    this.config = config;
    this.towerAt = config.layout.towerAt;
    this.hasToken = config.layout.towers.map(([a, b]) => a !== 0 && b !== 0);
  }

  /** Where a player's marker would take a token now: the tower index, or -1. */
  towerHit(wall: readonly number[], score: number): number {
    if (this.config.laps === 'first-lap' && score >= 100) return -1;
    const t = this.towerAt[score % 100]!;
    return t >= 0 && wall[t] !== 0 ? t : -1;
  }

  /** Takes the token the marker stops on, if any (digest, Wall tokens). */
  pickUp(ctx: ScoringContext, player: number): void {
    const s = ctx.state;
    const sl = slice(s);
    const t = this.towerHit(sl.wall, s.scores[player]!);
    if (t < 0) return;
    const token = sl.wall[t]!;
    sl.wall[t] = 0;
    sl.held[player]!.push({ token, turn: s.turn });
    // A concealed token (-1, research states only) is counted when a chance node reveals it.
    if (token > 0) {
      sl.taken[token - 1]!++;
      sl.takenOrder.push(token);
    }
    if (ctx.emit !== null) {
      const [a, b] = this.config.layout.towers[t]!;
      ctx.emit({ type: 'castle/token-taken', player, token, tower: [a, b], space: s.scores[player]! % 100 } as never);
    }
  }

  /** Scores one completed feature (digest, turn step 3), then the keep and the token pick-up. */
  scoreCompleted(ctx: ScoringContext, root: number): void {
    const s = ctx.state;
    const sl = slice(s);
    const scorer = scorerOf(s, root);
    const pending = sl.pending;
    sl.pending = null;
    if (scorer >= 0) {
      let doubled = false;
      if (pending !== null && pending.root === root) {
        const i = usable(s, scorer, pending.token);
        if (i >= 0) {
          useToken(ctx, scorer, i, { feature: featureRef(ctx.rules, s, root) });
          doubled = true;
        }
      }
      award(ctx, scorer, completedValue(s, root, doubled), 'completed', root);
      if (scorer === s.active) sl.majorityTurn = s.turn;
      if (s.features.kind[root] === HOUSE) this.keep(ctx, scorer, root);
      this.pickUp(ctx, scorer);
    }
    returnFollowers(ctx, root);
  }

  /** The keep (digest, turn step 4): first completed house with the majority, then strictly larger ones. */
  keep(ctx: ScoringContext, player: number, root: number): void {
    const s = ctx.state;
    if (this.config.keep === 'completing-tile' && player !== s.active) return;
    const sl = slice(s);
    const tiles = tileCount(s.features, root);
    const now = sl.keep[player]!;
    if (now !== null && tiles <= now.tiles) return;
    sl.keep[player] = { root, tiles };
    if (ctx.emit !== null) {
      ctx.emit({ type: now === null ? 'castle/keep-placed' : 'castle/keep-moved', player, feature: featureRef(ctx.rules, s, root), tiles } as never);
    }
  }

  /** Scores the end of the game (digest, End of game). */
  finalScoring(ctx: ScoringContext): void {
    const s = ctx.state;
    const sl = slice(s);
    const g = s.features;
    // Tokens left on the wall are removed.
    let left = 0;
    for (let t = 0; t < sl.wall.length; t++) {
      if (sl.wall[t] !== 0) left++;
      sl.wall[t] = 0;
    }
    if (left > 0 && ctx.emit !== null) ctx.emit({ type: 'castle/wall-cleared', tokens: left } as never);

    // 1. The keep: the larger keep (token 8: 2 tiles larger) scores the largest empty area; with
    // keeps of equal size (or none placed) nobody does. `winner` is the one player with the
    // largest keep so far, -1 while that size is tied.
    let winner = -1;
    let best = -1;
    for (let p = 0; p < sl.keep.length; p++) {
      const k = sl.keep[p]!;
      if (k === null) continue;
      const size = k.tiles + 2 * heldCount(sl, p, 8);
      if (size > best) {
        best = size;
        winner = p;
      } else if (size === best) winner = -1;
    }
    if (winner >= 0) {
      const p = winner;
      for (let i = sl.held[p]!.length - 1; i >= 0; i--) if (sl.held[p]![i]!.token === 8) useToken(ctx, p, i);
      const area = largestEmptyArea(ctx.rules, s);
      if (area > 0) award(ctx, p, area, 'castle/keep', sl.keep[p]!.root);
    }

    // 2. Courts: 3 per market for the merchant majority; token 7 makes it 4.
    const courts = rootsWithFollowers(s, COURT);
    const market7 = this.finalTargets(s, 7, courts.filter((r) => g.pennants[r]! > 0));
    for (const root of courts) {
      const p = scorerOf(s, root);
      const markets = g.pennants[root]!;
      if (p < 0 || markets === 0) continue;
      const boosted = market7.some((c) => c.player === p && c.root === root);
      award(ctx, p, (boosted ? 4 : 3) * markets, 'castle/court', root);
    }
    for (const c of market7) {
      const i = sl.held[c.player]!.findIndex((h) => h.token === 7);
      if (i >= 0) useToken(ctx, c.player, i, { feature: featureRef(ctx.rules, s, c.root) });
    }

    // 3. Tokens 4, 5, 6 (one unfinished feature with the majority each) and 9 (5 points).
    for (const token of [4, 5, 6]) {
      if (heldCount(sl, 0, token) + heldCount(sl, 1, token) === 0) continue;
      const kind = token === 4 ? PATH : token === 5 ? TOWER : HOUSE;
      for (const c of this.finalTargets(s, token, rootsWithFollowers(s, kind).filter((r) => g.open[r]! > 0))) {
        const i = sl.held[c.player]!.findIndex((h) => h.token === token);
        useToken(ctx, c.player, i, { feature: featureRef(ctx.rules, s, c.root) });
        award(ctx, c.player, (token === 5 ? 2 : 1) * tileCount(g, c.root), 'castle/token', c.root);
      }
    }
    for (let p = 0; p < 2; p++) {
      for (let i = sl.held[p]!.length - 1; i >= 0; i--) {
        if (sl.held[p]![i]!.token !== 9) continue;
        useToken(ctx, p, i);
        award(ctx, p, 5, 'castle/token', null);
      }
    }
  }

  /**
   * Which feature each held token of kind `token` (4..7) applies to: the owner's choices made at
   * the end (`finals`), else the most valuable eligible feature (for `projectedScores`, or when
   * there was nothing to choose). Token 7 with `every-court` applies to every court.
   */
  finalTargets(s: Immutable<GameView>, token: number, candidates: readonly number[]): { player: number; root: number }[] {
    const sl = slice(s);
    const out: { player: number; root: number }[] = [];
    for (let p = 0; p < 2; p++) {
      const copies = heldCount(sl, p, token);
      if (copies === 0) continue;
      const mine = candidates.filter((r) => scorerOf(s, r) === p);
      if (token === 7 && this.config.marketToken === 'every-court') {
        for (const r of mine) out.push({ player: p, root: r });
        continue;
      }
      const chosen = sl.finals.filter((f) => f.player === p && f.token === token);
      const taken = new Set<number>();
      for (let c = 0; c < copies; c++) {
        let root: number;
        if (c < chosen.length) root = chosen[c]!.root;
        else {
          root = -1;
          let value = -1;
          for (const r of mine) {
            if (taken.has(r)) continue;
            const v = finalValue(s, token, r);
            if (v > value) {
              value = v;
              root = r;
            }
          }
        }
        if (root < 0) continue;
        taken.add(root);
        out.push({ player: p, root });
      }
    }
    return out;
  }
}

/** What a final token is worth on a feature. */
function finalValue(s: Immutable<GameView>, token: number, root: number): number {
  if (token === 7) return s.features.pennants[root]!;
  return (token === 5 ? 2 : 1) * tileCount(s.features, root);
}

/** Roots of the given kind that hold followers, ascending. */
export function rootsWithFollowers(s: Immutable<GameView>, kind: number): number[] {
  const g = s.features;
  return occupiedRoots(s).filter((r) => g.kind[r] === kind);
}

/** The largest orthogonally connected group of empty play-area cells (digest, End of game 1). */
export function largestEmptyArea(rules: Ruleset, s: Immutable<GameView>): number {
  return rules.inside === null ? 0 : largestEmptyRegion(castleOf(rules).config.layout, s.tiles);
}

/** The Castle's rules object of a ruleset. @internal */
export function castleOf(rules: Ruleset): CastleRules {
  return (rules.game as unknown as { castle: CastleRules }).castle;
}
