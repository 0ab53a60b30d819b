/**
 * King and Robber Baron: 5 extra land tiles; the King goes to whoever completes the first city,
 * then to whoever completes a strictly larger one (by tiles), whether or not they score; the
 * Robber Baron likewise for roads. At the end the King's holder scores 1 point per completed city
 * on the board, the Robber Baron's 1 per completed road. Rules: the expansions digest, "King and
 * Robber Baron"; the Czech rulebook of The Castle, "Carcassonne Král & Zvěď".
 *
 * Events: `king-robber/king-taken` and `king-robber/robber-taken`, each
 * `{ player, from, tiles }`: `player` is the new holder, `from` the previous holder (-1 for
 * none; equal to `player` when the holder completes a larger city and keeps it), `tiles` the new
 * record. The holders' final points are `scored` events with reasons `king-robber/king` and
 * `king-robber/robber` and `feature: null`.
 *
 * No options. Hook order 30 (`afterScoring` for the hand-overs, `finalScoring` for the points):
 * after River (10), before Shrines (40). docs/expansions/king-robber.md maps each rule to its
 * code and test.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { kingRobber } from 'meeplekit/expansions/king-robber';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [kingRobber()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * ```
 *
 * @module meeplekit/expansions/king-robber
 */
import { type CompletedFeature, type Expansion, type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent, sliceOf } from '../../core/module-helpers.js';
import { award } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { parseTileSpec } from '../../core/tiles.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';
import { kingRobberScoreBounds } from './bounds.js';

/** The King and Robber Baron state slice (`state.ext['king-robber']`). */
export interface KingRobberState {
  /** Who holds the King (-1: nobody yet). */
  king: number;
  /** Tiles of the largest city completed so far. */
  kingTiles: number;
  /** Who holds the Robber Baron (-1: nobody yet). */
  robber: number;
  /** Tiles of the longest road completed so far. */
  robberTiles: number;
}

/** The expansion's id. */
export const KING_ROBBER = 'king-robber';

/** The 5 land tiles (ids as in the reference, KR-01 to KR-05), in the project's tile spec. */
export const KING_ROBBER_TILES: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['KR-01', 1, 'm c:N f:E,S,W>c1'],
  ['KR-02', 1, 'r:W2 c:N f:W3>c1 f:E,S,W1>c1'],
  ['KR-03', 1, 'r:W2 r:E2,S2 c:N f:W3>c1 f:E1,S3,W1>c1 f:E3,S1'],
  ['KR-04', 1, 'r:S2 r:E2 c:N,W f:S3>c1 f:S1>c1 f:E3>c1 f:E1>c1'],
  // Two cities crossing on a bridge (N-S over W-E); two tiny inner meadows touching both.
  ['KR-05', 1, 'c:E,W c:N,S f>c2,c1 f>c2,c1'],
];

function handOver(ctx: HookContext, completed: readonly CompletedFeature[]): void {
  const slice = sliceOf<KingRobberState>(ctx.state, KING_ROBBER);
  const player = ctx.state.active; // whoever placed the completing tile
  // The largest city and the longest road this tile completed: one tile may complete several,
  // and the King goes to the largest at once (one hand-over, not one per city).
  let city = 0;
  let road = 0;
  for (const f of completed) {
    const scoring = ctx.rules.kindScoring[ctx.state.features.kind[f.root]!];
    if (scoring === 'city' && f.tiles > city) city = f.tiles;
    else if (scoring === 'road' && f.tiles > road) road = f.tiles;
  }
  // Strictly larger than the largest completed so far; the first one is larger than nothing.
  if (city > slice.kingTiles) {
    const from = slice.king;
    slice.king = player;
    slice.kingTiles = city;
    emitExpansionEvent(ctx.emit, 'king-robber/king-taken', { player, from, tiles: city });
  }
  if (road > slice.robberTiles) {
    const from = slice.robber;
    slice.robber = player;
    slice.robberTiles = road;
    emitExpansionEvent(ctx.emit, 'king-robber/robber-taken', { player, from, tiles: road });
  }
}

function finalScoring(ctx: HookContext): void {
  const slice = sliceOf<KingRobberState>(ctx.state, KING_ROBBER);
  if (slice.king < 0 && slice.robber < 0) return;
  const { cities, roads } = completedCitiesAndRoads(ctx.rules, ctx.state);
  if (slice.king >= 0 && cities > 0) award(ctx, slice.king, cities, 'king-robber/king', null);
  if (slice.robber >= 0 && roads > 0) award(ctx, slice.robber, roads, 'king-robber/robber', null);
}

/**
 * How many complete features on the board score as cities and as roads: what
 * `completeRoots(rules, state, 'city').length` and `completeRoots(rules, state, 'road').length`
 * count, in one pass over the feature graph instead of two.
 */
function completedCitiesAndRoads(rules: Ruleset, s: Immutable<GameView>): { cities: number; roads: number } {
  const g = s.features;
  let cities = 0;
  let roads = 0;
  for (let i = 0; i < g.parent.length; i++) {
    if (g.parent[i] !== i || g.open[i] !== 0) continue;
    const scoring = rules.kindScoring[g.kind[i]!];
    if (scoring === 'city') cities++;
    else if (scoring === 'road') roads++;
  }
  return { cities, roads };
}

/** The King and Robber Baron's own moves: none (its tiles are played with the core's moves). */
export type KingRobberMove = never;

/**
 * The King and Robber Baron expansion module. No options.
 */
export function kingRobber(): Expansion<KingRobberMove> {
  return {
    id: KING_ROBBER,
    order: 30,
    options: {},
    tiles: KING_ROBBER_TILES.map(([id, count, spec]) => parseTileSpec(id, count, spec, CLASSIC_KINDS)),
    setup: (): KingRobberState => ({ king: -1, kingTiles: 0, robber: -1, robberTiles: 0 }),
    afterScoring: handOver,
    finalScoring,
    finalScoringAddsOnly: true,
    scoreBounds: kingRobberScoreBounds,
    observation: {
      features(players) {
        const out: string[] = [];
        for (const figure of ['King', 'Robber Baron']) {
          for (let j = 0; j < players; j++) out.push(`king-robber: ${figure} held by ${j === 0 ? 'observer' : `observer+${j}`}`);
          out.push(`king-robber: ${figure}'s feature size`);
        }
        return out;
      },
      write(_rules, view, observer, out, offset) {
        const slice = (view.ext as Record<string, unknown>)[KING_ROBBER] as KingRobberState;
        const P = view.players;
        if (slice.king >= 0) out[offset + ((slice.king - observer + P) % P)] = 1;
        out[offset + P] = slice.kingTiles;
        if (slice.robber >= 0) out[offset + P + 1 + ((slice.robber - observer + P) % P)] = 1;
        out[offset + 2 * P + 1] = slice.robberTiles;
      },
    },
  };
}
