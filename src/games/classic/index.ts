/**
 * Classic Carcassonne, base game (2nd edition): feature kinds, tiles, scoring.
 * Rules: the classic digest; see docs/rules/classic.md for each rule and its test.
 */
import { findRoot, tileCount } from '../../core/features.js';
import type { GameModule, ScoringContext } from '../../core/game.js';
import { award, awardMajority, distinctRoots, followerRoots, majority, returnFollowers } from '../../core/engine/scoring.js';
import { parseTileSpec, type FeatureKindDef } from '../../core/tiles.js';
import { CLASSIC_BASE_TILES } from './tiles.js';
import { classicScoreBounds } from './bounds.js';

/** Feature kinds of classic Carcassonne, with their edge classes for matching. */
export const CLASSIC_KINDS: readonly FeatureKindDef[] = [
  { name: 'city', code: 'c', completion: 'ports', tracksTiles: true, edgeClass: 1 },
  { name: 'road', code: 'r', completion: 'ports', tracksTiles: true, edgeClass: 2 },
  { name: 'field', code: 'f', completion: 'never', tracksTiles: false, edgeClass: 3 },
  { name: 'cloister', code: 'm', completion: 'surroundings', tracksTiles: false, edgeClass: 0 },
];


/** Value of a feature, complete or not (the classic digest, "Score completed features" and "final scoring"). */
function featureValue(ctx: ScoringContext, root: number, complete: boolean): number {
  const g = ctx.state.features;
  const tiles = tileCount(g, root);
  // By the kind's scoring tag, so an expansion's kind can score like a base one (shrine: cloister).
  switch (ctx.rules.kindScoring[g.kind[root]!]) {
    case 'road':
      return tiles; // 1 per tile, complete or not
    case 'city':
      return complete ? 2 * tiles + 2 * g.pennants[root]! : tiles + g.pennants[root]!;
    case 'cloister':
      return 9 - g.open[root]!; // 9 when complete; else 1 + filled neighbours
    default:
      return 0;
  }
}

function scoreCompleted(ctx: ScoringContext, root: number): void {
  const points = featureValue(ctx, root, true);
  for (const p of majority(ctx.state, root)) award(ctx, p, points, 'completed', root);
  returnFollowers(ctx, root);
}

function finalScoring(ctx: ScoringContext): void {
  const s = ctx.state;
  const g = s.features;
  const scoring = ctx.rules.kindScoring;
  // Each follower's feature, found once (awarding points moves no follower): projected scores
  // run this at every observation of a vector environment, and the bots at every search.
  const at = followerRoots(s);
  const roots = distinctRoots(at);
  // Incomplete roads, cities and cloisters; fields after them.
  let farms: number[] | null = null;
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    if (scoring[g.kind[root]!] === 'field') (farms ??= []).push(root);
    else awardMajority(ctx, root, featureValue(ctx, root, false), 'final', at);
  }
  // Fields: 3 per completed city touching the field, for the farmer majority.
  if (farms === null) return;
  const cities = completedCitiesOfFarms(ctx, farms);
  for (let i = 0; i < farms.length; i++) {
    // A field touching no completed city is worth nothing: no scored event for it.
    if (cities[i] !== 0) awardMajority(ctx, farms[i]!, 3 * cities[i]!, 'farm', at);
  }
}

/**
 * For each farm of `farms` (root segments), how many distinct completed cities touch it: a city
 * touches a field where some tile lists it among the field's adjacent features. Each city root
 * keeps one bit per farm (in words of 32), so a city is counted once per farm however many
 * tiles it touches the farm on.
 */
function completedCitiesOfFarms(ctx: ScoringContext, farms: readonly number[]): number[] {
  const s = ctx.state;
  const g = s.features;
  const segments = g.parent.length;
  // farmNumber[root] = 1 + the farm's index in `farms`, 0 for every other segment.
  const farmNumber = cleared(0, segments);
  for (let i = 0; i < farms.length; i++) farmNumber[farms[i]!] = i + 1;
  const words = (farms.length + 31) >>> 5;
  const counted = cleared(1, segments * words);
  const counts: number[] = farms.map(() => 0);
  for (let t = 0; t < s.tiles.length; t++) {
    const placed = s.tiles[t]!;
    const pairs = ctx.rules.tiles[placed.kind]!.adjacentPairs;
    for (let j = 0; j < pairs.length; j += 2) {
      const farm = farmNumber[findRoot(g.parent, placed.node + pairs[j]!)]! - 1;
      if (farm < 0) continue;
      const city = findRoot(g.parent, placed.node + pairs[j + 1]!);
      if (g.open[city] !== 0) continue;
      const w = city * words + (farm >>> 5);
      const bit = 1 << (farm & 31);
      if ((counted[w]! & bit) === 0) {
        counted[w] = counted[w]! | bit;
        counts[farm]!++;
      }
    }
  }
  return counts;
}

/**
 * Scratch arrays of {@link completedCitiesOfFarms}, by use (farm numbers, counted bits): cleared
 * and filled within one call, nothing kept between calls, grown when a board outgrows them.
 * Allocating a typed array's buffer costs about a microsecond, a few percent of a whole playout.
 */
const SCRATCH = [new Int32Array(512), new Int32Array(512)];

/** Scratch array `which` with its first `n` numbers set to 0. */
function cleared(which: 0 | 1, n: number): Int32Array {
  let a = SCRATCH[which]!;
  if (a.length < n) SCRATCH[which] = a = new Int32Array(2 * n);
  else a.fill(0, 0, n);
  return a;
}

/** The classic base game as a game module. @internal */
export function classicGame(): GameModule {
  return {
    game: 'classic',
    kinds: CLASSIC_KINDS,
    tiles: CLASSIC_BASE_TILES.map(([id, count, spec]) => parseTileSpec(id, count, spec, CLASSIC_KINDS)),
    minPlayers: 2,
    maxPlayers: 5,
    followers: 7,
    start: [{ tile: 'D', x: 0, y: 0, rotation: 0 }],
    options: {},
    deployable: ['city', 'road', 'field', 'cloister'],
    scoreCompleted,
    finalScoring,
    // Awards only: no follower returned, nothing else written.
    finalScoringAddsOnly: true,
    scoreBounds: classicScoreBounds,
  };
}
