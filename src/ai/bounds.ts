/**
 * Score bounds: the lowest and highest score any player can have at any point of any game of a
 * ruleset (`gameInfo(...).utility.score`), as the sum of the shares of the base game
 * (`GameModule.scoreBounds`) and of every module (`Expansion.scoreBounds`), each derived from
 * the rules and the ruleset's tiles; and the counting helpers those derivations share. Every
 * point a player ever gets or loses is a `scored` event of one module's hook (`award`), so a
 * score lies between the modules' negative points summed and their positive points summed.
 * @internal
 */
import type { Ruleset } from '../core/ruleset.js';
import type { CompiledTile } from '../core/tiles.js';
import { SIDE_DELTA, cellKey } from '../core/state.js';

/** A share of the score bounds (`min` 0 or less, `max` 0 or more), or the bounds themselves. */
export interface ScoreBounds {
  /** Lowest score (or a module's most points taken from one player, as a non-positive number). */
  readonly min: number;
  /** Highest score (or a module's most points given to one player). */
  readonly max: number;
}

/** The bounds when some module says nothing of its points. */
const UNKNOWN: ScoreBounds = Object.freeze({ min: -Infinity, max: Infinity });

/**
 * The score bounds of a ruleset for `players` players: the game's share plus each module's
 * (the game's own rules module is part of the game's share). Unknown (`-Infinity`, `Infinity`)
 * when the game or a module has no `scoreBounds`. Throws when a share is not a pair of finite
 * numbers with `min <= 0 <= max` (a bug in that module).
 */
export function scoreBounds(rules: Ruleset, players: number): ScoreBounds {
  const game = rules.game.scoreBounds;
  if (game === undefined) return UNKNOWN;
  let min = 0;
  let max = 0;
  const add = (who: string, share: ScoreBounds): void => {
    const ok = Number.isFinite(share.min) && Number.isFinite(share.max) && share.min <= 0 && share.max >= 0;
    if (!ok) throw new Error(`meeplekit/ai: ${who}'s scoreBounds gave { min: ${share.min}, max: ${share.max} } (finite, min <= 0 <= max expected)`);
    min += share.min;
    max += share.max;
  };
  add(`game '${rules.game.game}'`, game.call(rules.game, rules, players));
  for (const m of rules.expansions) {
    if (m === rules.game.rules) continue;
    if (m.scoreBounds === undefined) return UNKNOWN;
    add(`module '${m.id}'`, m.scoreBounds(rules, players));
  }
  return { min, max };
}

/**
 * The most copies of each tile kind (by catalogue index) that can lie on the board in one game:
 * its count in the set, less a replaced start tile left in the box (the Count), and at least the
 * number of times it is laid as a start tile (a virtual start tile, such as The Castle's start
 * fields, has count 0 and is laid once).
 */
export function tileCopies(rules: Ruleset): number[] {
  return rules.tiles.map((t) => {
    let starts = 0;
    for (const st of rules.start) if (st.tile === t.def.id) starts++;
    let boxed = 0;
    for (const id of rules.boxed) if (id === t.def.id) boxed++;
    return Math.max(t.def.count - boxed, starts);
  });
}

/** Tiles in the bag when a game starts (each turn places at most one of them). */
export function bagTiles(rules: Ruleset): number {
  let n = 0;
  for (const t of rules.tiles) n += t.def.count;
  n -= rules.boxed.length;
  for (const st of rules.start) if (rules.tiles[rules.tileIndex[st.tile]!]!.def.count > 0) n--;
  return n;
}

/**
 * The most turns one player can have in a game of `players` players. Every turn that starts with
 * tiles in the bag either places one (at most `bagTiles` such turns) or discards all that are
 * left and ends the game (at most one), so a game has at most `bagTiles + 1` turns; when no
 * module changes the turn order (no `nextPlayer` hook) they go round, and one player has at most
 * `ceil((bagTiles + 1) / players)` of them.
 */
export function turnsPerPlayer(rules: Ruleset, players: number): number {
  const turns = bagTiles(rules) + 1;
  return rules.hooks.nextPlayer.length === 0 ? Math.ceil(turns / Math.max(1, players)) : turns;
}

/**
 * Sums `weight(tile, local)` over every feature segment of every tile copy that can lie on the
 * board ({@link tileCopies}).
 */
export function sumOverSegments(rules: Ruleset, weight: (tile: CompiledTile, local: number) => number): number {
  const copies = tileCopies(rules);
  let total = 0;
  for (let i = 0; i < rules.tiles.length; i++) {
    const c = copies[i]!;
    if (c === 0) continue;
    const tile = rules.tiles[i]!;
    for (let f = 0; f < tile.kinds.length; f++) total += c * weight(tile, f);
  }
  return total;
}

/** Port index of the middle of each side (N, E, S, W). */
const MIDDLE_PORTS = [1, 4, 7, 10] as const;

/**
 * Whether every edge a tile can meet matches by its middle's class: no wall side (a side whose
 * middle belongs to a kind of edge class -1, which demands nothing of the tile facing it) can
 * ever face a laid tile, because every tile kind with one is laid only as a start tile and its
 * wall sides face other start tiles (the Count's City of Carcassonne, whose inside is walled off
 * from the rim); and start tiles side by side match as laid tiles do (the rules check laid tiles).
 */
function edgesMatch(rules: Ruleset, copies: readonly number[]): boolean {
  const at = new Map(rules.start.map((st) => [cellKey(st.x, st.y), st]));
  for (let i = 0; i < rules.tiles.length; i++) {
    const tile = rules.tiles[i]!;
    if (tile.wallSides === 0) continue;
    let starts = 0;
    for (const st of rules.start) {
      if (st.tile !== tile.def.id) continue;
      starts++;
      for (let side = 0; side < 4; side++) {
        if (((tile.wallSides >>> (st.rotation * 4 + side)) & 1) !== 0 && !at.has(cellKey(st.x, st.y) + SIDE_DELTA[side]!)) return false;
      }
    }
    if (copies[i]! > starts) return false;
  }
  for (const st of rules.start) {
    const tile = rules.tiles[rules.tileIndex[st.tile]!]!;
    for (let side = 0; side < 4; side++) {
      const other = at.get(cellKey(st.x, st.y) + SIDE_DELTA[side]!);
      if (other === undefined) continue;
      const facing = rules.tiles[rules.tileIndex[other.tile]!]!;
      const mine = (tile.signature[st.rotation]! >>> (3 * side)) & 7;
      const theirs = (facing.signature[other.rotation]! >>> (3 * ((side + 2) % 4))) & 7;
      if (mine !== theirs) return false;
    }
  }
  return true;
}

/**
 * The most features whose kind scores as `scoring` (`'city'`, `'road'`) that can be complete at
 * once. Each complete feature holds at least one segment. On an unbounded board where no wall
 * side can face a laid tile, a segment that owns the middle port of a side, of a kind that
 * completes by its ports and whose edge class (above 0) no other kind shares, is never complete
 * alone: its port facing an empty cell stays open, and edges match by the class of their middle,
 * so the tile laid against that side has a segment of the same kind there, which joins it. So
 * with `a` segments that may be complete alone and `n` that never are, at most `a + floor(n / 2)`
 * features are complete.
 */
export function completeFeatures(rules: Ruleset, scoring: string): number {
  const copies = tileCopies(rules);
  const pairing = rules.inside === null && edgesMatch(rules, copies);
  let alone = 0;
  let paired = 0;
  for (let i = 0; i < rules.tiles.length; i++) {
    const c = copies[i]!;
    const tile = rules.tiles[i]!;
    for (let f = 0; f < tile.kinds.length; f++) {
      const k = tile.kinds[f]!;
      if (rules.kindScoring[k] !== scoring) continue;
      const def = rules.kinds[k]!;
      const unique = def.edgeClass > 0 && rules.kinds.every((o, j) => j === k || o.edgeClass !== def.edgeClass);
      const middle = MIDDLE_PORTS.some((p) => tile.portFeature[p] === f);
      if (pairing && def.completion === 'ports' && unique && middle) paired += c;
      else alone += c;
    }
  }
  return alone + Math.floor(paired / 2);
}
