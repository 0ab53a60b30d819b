/**
 * The follower prior: what each option of a deploy decision (a follower on one of the laid tile's
 * features, or none) is, for the player who decides, read off the feature graph, and a linear
 * score of that, with weights fitted to how level 5's own search shared its searches among a
 * deploy decision's options (docs/design.md, "Bots", twenty-sixth round). Level 5's rollouts in
 * 2-player classic choose their follower decisions by it (`rollout.ts`).
 */
import { findRoot } from '../core/features.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import type { Ruleset } from '../core/ruleset.js';
import type { ActionLayout } from '../ai/layout.js';
import { CITY, CLOISTER, FIELD, kindClasses, ROAD } from './prior.js';

/**
 * The follower prior's features of a deploy option, in order. Passing: an indicator, and it
 * times the share of tiles left and times the decider's followers in supply (out of 7). A city or
 * road: an indicator, its tiles (and pennants), its open edges or ends, whether it is complete
 * (the follower scores at once and comes back), and the share left. A cloister: an indicator, its
 * filled neighbours, the share left. A field: an indicator, times the share left and the supply,
 * and the completed cities it touches (what a farmer would score now). @internal
 */
export const FOLLOW_FEATURES = [
  'pass', 'pass.left', 'pass.supply',
  'city', 'city.value', 'city.open', 'city.done', 'city.left',
  'road', 'road.value', 'road.open', 'road.done', 'road.left',
  'cloister', 'cloister.filled', 'cloister.left',
  'field', 'field.left', 'field.supply', 'field.cities',
] as const;

/** The number of features. @internal */
export const FOLLOW_SIZE = FOLLOW_FEATURES.length;

/** Scratch of the follower prior, one per search. @internal */
export interface FollowScratch {
  /** Kind index -> class. */
  readonly classes: Int8Array;
  /** The features of the last option scored. */
  readonly features: Float64Array;
  /** Per tile kind (the ruleset's index): its `adjacentPairs`, field and city local indices in turn. */
  readonly pairs: readonly (readonly number[])[];
  /** The completed cities counted for a field (grown as needed). */
  seen: Int32Array;
}

/** A scratch for the follower prior. @internal */
export function newFollowScratch(rules: Ruleset): FollowScratch {
  return { classes: kindClasses(rules), pairs: rules.tiles.map((t) => t.adjacentPairs), features: new Float64Array(FOLLOW_SIZE), seen: new Int32Array(16) };
}

/**
 * Writes the features ({@link FOLLOW_FEATURES}) of deploy action `action` in `s` (a deploy step
 * of the core, right after the tile was laid) into `scratch.features` and returns them: any
 * action outside the follower targets is read as passing. Reads the state, writes only the
 * scratch. @internal
 */
export function followFeatures(layout: ActionLayout, s: Immutable<GameState>, action: number, scratch: FollowScratch): Float64Array {
  const out = scratch.features;
  out.fill(0);
  const left = s.bagSize / Math.max(1, s.bagSize + s.tiles.length);
  const supply = s.supply[(s.step as { player: number }).player]! / 7;
  if (action < layout.deploy || action >= layout.deploy + layout.followerTargets) {
    out[0] = 1;
    out[1] = left;
    out[2] = supply;
    return out;
  }
  const t = s.tiles[s.tiles.length - 1]!;
  const g = s.features;
  const seg = t.node + (action - layout.deploy);
  const r = findRoot(g.parent, seg);
  const open = g.open[r]!;
  switch (scratch.classes[g.kind[seg]!]) {
    case CITY:
      out[3] = 1;
      out[4] = g.size[r]! + g.pennants[r]!;
      // A city's edge is three ports.
      out[5] = Math.ceil(open / 3);
      out[6] = open === 0 ? 1 : 0;
      out[7] = left;
      break;
    case ROAD:
      out[8] = 1;
      out[9] = g.size[r]!;
      out[10] = open;
      out[11] = open === 0 ? 1 : 0;
      out[12] = left;
      break;
    case CLOISTER:
      out[13] = 1;
      out[14] = 8 - open;
      out[15] = left;
      break;
    case FIELD:
      out[16] = 1;
      out[17] = left;
      out[18] = supply;
      out[19] = completedCities(s, r, scratch);
      break;
  }
  return out;
}

/** The completed cities that field root `r` touches, each counted once. */
function completedCities(s: Immutable<GameState>, r: number, scratch: FollowScratch): number {
  const g = s.features;
  let n = 0;
  for (let i = 0; i < s.tiles.length; i++) {
    const t = s.tiles[i]!;
    const pairs = scratch.pairs[t.kind]!;
    for (let k = 0; k < pairs.length; k += 2) {
      if (findRoot(g.parent, t.node + pairs[k]!) !== r) continue;
      const c = findRoot(g.parent, t.node + pairs[k + 1]!);
      if (g.open[c] !== 0) continue;
      let j = 0;
      while (j < n && scratch.seen[j] !== c) j++;
      if (j < n) continue;
      if (n === scratch.seen.length) {
        const grown = new Int32Array(2 * n);
        grown.set(scratch.seen);
        scratch.seen = grown;
      }
      scratch.seen[n++] = c;
    }
  }
  return n;
}

/**
 * The fitted weights, one per {@link FOLLOW_FEATURES} in its order: a conditional logit (softmax
 * over a deploy decision's options) fitted to the share of 1,000 searches level 5 gave each
 * option, in self-play games of 2-player classic (seed `fd29`: 185 whole games and the start of
 * one more, 5,689 decisions, the 1,171 of games whose number is a multiple of 5 held out):
 * held-out cross-entropy 0.945 nats against 1.221 for uniform, the most searched option ranked
 * first in 87.3% of decisions (docs/design.md, "Bots", twenty-sixth
 * round; the data, the fit and their replay are in bench/experiments/follower-prior/). @internal
 */
export const FOLLOW_WEIGHTS: readonly number[] = [
  0.299, -0.433, -0.28, // pass
  -0.215, 0.664, -0.103, 1.278, 0.287, // city
  -0.674, 0.743, -0.009, 0.442, 0.07, // road
  0.517, 0.432, 0.864, // cloister
  0.073, -0.789, -0.308, 1.953, // field
];
