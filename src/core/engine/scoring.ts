/**
 * Scoring primitives shared by the games: naming a feature, counting majorities, awarding
 * points (always through a `scored` event) and sending followers home.
 */
import type { FeatureRef, ScoreReason } from '../events.js';
import type { ScoringContext } from '../game.js';
import type { TileFollower } from '../expansion.js';
import { findRoot, segmentLocal } from '../features.js';
import { sortShort } from '../board.js';
import type { Follower, GameState, GameView } from '../state.js';
import type { Ruleset } from '../ruleset.js';
import type { Immutable } from '../types.js';

/** Names feature `root` by its root segment (the feature's oldest tile). */
export function featureRef(rules: Ruleset, s: Immutable<GameView>, root: number): FeatureRef {
  const g = s.features;
  const t = s.tiles[g.tile[root]!]!;
  return { kind: rules.kindNames[g.kind[root]!]!, x: t.x, y: t.y, feature: rules.tiles[t.kind]!.def.features[root - t.node]!.id };
}

/** Followers per player standing on feature `root` (a root segment: `findRoot` of any of its segments). */
export function followersOn(s: Immutable<GameView>, root: number): number[] {
  const counts = new Array<number>(s.players).fill(0);
  // The root counts its followers: most features completed in a game hold none.
  if (s.features.followers[root] === 0) return counts;
  const fs = s.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (findRoot(s.features.parent, s.tiles[f.tile]!.node + f.local) === root) counts[f.player]!++;
  }
  return counts;
}

/**
 * The features that hold followers (their root segments), ascending, each once: the order in
 * which final scorings visit them (deterministic event order).
 */
export function occupiedRoots(s: Immutable<GameView>): number[] {
  return distinctRoots(followerRoots(s));
}

/**
 * Each follower's feature (its root segment), in the order of `s.followers`: for a scoring that
 * asks {@link awardMajority} of many features while no follower moves.
 */
export function followerRoots(s: Immutable<GameView>): number[] {
  const fs = s.followers;
  const out: number[] = [];
  for (let i = 0; i < fs.length; i++) out.push(findRoot(s.features.parent, s.tiles[fs[i]!.tile]!.node + fs[i]!.local));
  return out;
}

/** Players with the most followers on feature `root`, a root segment (all tied players; none if nobody stands there). */
export function majority(s: Immutable<GameView>, root: number): number[] {
  if (s.features.followers[root] === 0) return [];
  const counts = followersOn(s, root);
  let best = 0;
  for (const c of counts) if (c > best) best = c;
  const out: number[] = [];
  if (best === 0) return out;
  counts.forEach((c, p) => {
    if (c === best) out.push(p);
  });
  return out;
}

/**
 * The distinct features of `roots` (each follower's feature, as {@link followerRoots} gives
 * them), ascending: {@link occupiedRoots} for a caller that has `roots` already.
 */
export function distinctRoots(roots: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < roots.length; i++) if (!out.includes(roots[i]!)) out.push(roots[i]!);
  sortShort(out);
  return out;
}

/**
 * Awards `points` to each player of {@link majority} on feature `root`, in ascending player order,
 * counting from `roots` (each follower's feature, in the order of `s.followers`): the same awards
 * and events as a loop over `majority`, without finding every follower's feature again for each
 * feature. For final scorings, which ask it of every occupied feature while no follower moves.
 */
export function awardMajority(ctx: ScoringContext, root: number, points: number, reason: ScoreReason, roots: readonly number[]): void {
  const s = ctx.state;
  if (s.features.followers[root] === 0) return;
  const counts = new Array<number>(s.players).fill(0);
  let best = 0;
  for (let i = 0; i < roots.length; i++) if (roots[i] === root) best = Math.max(best, ++counts[s.followers[i]!.player]!);
  if (best === 0) return;
  for (let p = 0; p < counts.length; p++) if (counts[p] === best) award(ctx, p, points, reason, root);
}

/** Adds points to a player's score and emits the matching `scored` event. */
export function award(
  ctx: ScoringContext,
  player: number,
  points: number,
  reason: ScoreReason,
  root: number | null,
): void {
  ctx.state.scores[player]! += points;
  if (ctx.emit !== null) {
    ctx.emit({ type: 'scored', player, points, reason, feature: root === null ? null : featureRef(ctx.rules, ctx.state, root) });
  }
}

/** Roots of every complete feature whose kind scores as `scoring` (`city`, `road`), ascending. */
export function completeRoots(rules: Ruleset, s: Immutable<GameView>, scoring: string): number[] {
  const g = s.features;
  const out: number[] = [];
  for (let i = 0; i < g.parent.length; i++) {
    if (g.parent[i] === i && g.open[i] === 0 && rules.kindScoring[g.kind[i]!] === scoring) out.push(i);
  }
  return out;
}

/** Sends every follower on feature `root` (a root segment) back to its owner's supply, in deployment order. */
export function returnFollowers(ctx: ScoringContext, root: number): void {
  const s = ctx.state;
  if (s.features.followers[root] === 0) return;
  const fs = s.followers;
  let kept = 0;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (findRoot(s.features.parent, s.tiles[f.tile]!.node + f.local) === root) {
      s.supply[f.player]!++;
      if (ctx.emit !== null) {
        const t = s.tiles[f.tile]!;
        ctx.emit({
          type: 'follower-returned',
          player: f.player,
          at: {
            kind: ctx.rules.kindNames[s.features.kind[t.node + f.local]!]!,
            x: t.x,
            y: t.y,
            feature: ctx.rules.tiles[t.kind]!.def.features[f.local]!.id,
          },
        });
      }
    } else {
      if (kept !== i) fs[kept] = f;
      kept++;
    }
  }
  if (kept !== fs.length) {
    fs.length = kept;
    s.features.followers[root] = 0;
  }
}

/**
 * Puts a follower of `player` onto feature `root` (on its root segment), outside the ordinary
 * deployment: an expansion moving one in from off the board (the Count's quarters, a portal).
 * The caller takes it from wherever it was (supply or its own slice). Emits nothing: the
 * expansion names the move in its own event.
 */
export function addFollower(s: GameState, player: number, root: number): void {
  const g = s.features;
  s.followers.push({ player, tile: g.tile[root]!, local: segmentLocal(g, s.tiles, root) });
  g.followers[root]!++;
}

/**
 * Takes follower `index` of `state.followers` off the board and returns it (the dragon, a
 * capture, the princess); the caller puts it somewhere (supply, a prisoner list).
 */
export function removeFollower(s: GameState, index: number): Follower {
  const f = s.followers[index]!;
  s.followers.splice(index, 1);
  s.features.followers[findRoot(s.features.parent, s.tiles[f.tile]!.node + f.local)]!--;
  return f;
}

/**
 * Puts a follower of `player` on local feature `local` of the tile with index `tile`, outside the
 * ordinary deployment (the magic portal: any unoccupied, unfinished feature of any tile). The
 * caller takes it from supply and names the move in its own event.
 */
export function placeFollower(s: GameState, player: number, tile: number, local: number): void {
  s.followers.push({ player, tile, local });
  s.features.followers[findRoot(s.features.parent, s.tiles[tile]!.node + local)]!++;
}

/**
 * The owners of every follower on the tile with index `tile`: those on its features (in
 * deployment order), then those the expansions hold there off the feature graph (a tower top), in
 * hook order. One entry per follower.
 */
export function followersOnTile(rules: Ruleset, s: Immutable<GameView>, tile: number): number[] {
  const out: number[] = [];
  const fs = s.followers;
  for (let i = 0; i < fs.length; i++) if (fs[i]!.tile === tile) out.push(fs[i]!.player);
  const held = rules.hooks.tileFollowers;
  if (held.length > 0) {
    const t = s.tiles[tile]!;
    for (let i = 0; i < held.length; i++) for (const f of held[i]!(s)) if (f.x === t.x && f.y === t.y) out.push(f.player);
  }
  return out;
}

/**
 * Every follower the expansions hold on tiles, off the feature graph (tower tops), in hook order:
 * with `state.followers`, every follower standing on a tile.
 */
export function heldOnTiles(rules: Ruleset, s: Immutable<GameView>): TileFollower[] {
  const held = rules.hooks.tileFollowers;
  const out: TileFollower[] = [];
  for (let i = 0; i < held.length; i++) out.push(...held[i]!(s));
  return out;
}

/**
 * Sends every follower on the tile with index `tile` back to its owner (the dragon): those on
 * its features (a `follower-returned` event each, in deployment order), then those the expansions
 * hold there (`Expansion.releaseAt`, in hook order).
 */
export function clearTile(ctx: ScoringContext, tile: number): void {
  const s = ctx.state;
  const fs = s.followers;
  for (let i = 0; i < fs.length; ) {
    const f = fs[i]!;
    if (f.tile !== tile) {
      i++;
      continue;
    }
    removeFollower(s, i);
    s.supply[f.player]!++;
    if (ctx.emit !== null) {
      const t = s.tiles[tile]!;
      ctx.emit({
        type: 'follower-returned',
        player: f.player,
        at: { kind: ctx.rules.kindNames[s.features.kind[t.node + f.local]!]!, x: t.x, y: t.y, feature: ctx.rules.tiles[t.kind]!.def.features[f.local]!.id },
      });
    }
  }
  const release = ctx.rules.hooks.releaseAt;
  if (release.length > 0) {
    const t = s.tiles[tile]!;
    for (let i = 0; i < release.length; i++) release[i]!(ctx, t.x, t.y);
  }
}
