/**
 * The placement prior: what a tile placement does to the features around it, for the player who
 * places it, read off the feature graph without laying the tile (as `featuresClosed` does), and a
 * linear score of that, with weights fitted to how level 5's own search shared its searches among
 * a decision's placements (docs/design.md, "Bots", twentieth round). Level 5's rollouts in
 * 2-player classic choose their placements by it (`rollout.ts`).
 */
import { findRoot } from '../core/features.js';
import { tileAt } from '../core/board.js';
import { mergeAround, newClosingScratch, type ClosingScratch } from '../core/closing.js';
import { AROUND_DELTA, cellKey, type GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import type { Ruleset } from '../core/ruleset.js';
import type { CompiledTile } from '../core/tiles.js';

/** The classes of feature kinds the priors tell apart, by the kind's scoring tag ({@link kindClasses}). @internal */
export const CITY = 0;
/** @internal */
export const ROAD = 1;
/** @internal */
export const FIELD = 2;
/** @internal */
export const CLOISTER = 3;
const OTHER = 4;

/** Each feature kind's class (`CITY`, `ROAD`, `FIELD`, `CLOISTER` or another), by the ruleset's kind index. @internal */
export function kindClasses(rules: Ruleset): Int8Array {
  const classes = new Int8Array(rules.kinds.length);
  rules.kinds.forEach((k, i) => {
    const tag = k.scoring ?? k.name;
    classes[i] = tag === 'city' ? CITY : tag === 'road' ? ROAD : tag === 'field' ? FIELD : tag === 'cloister' ? CLOISTER : OTHER;
  });
  return classes;
}

/**
 * The prior's features of a placement, in order. For cities and roads: a feature the placement
 * completes where the placer holds a majority (its tiles and pennants), where an opponent holds
 * one (the same), where nobody stands; an open feature it extends where the placer holds a
 * majority, where an opponent holds it; features it joins that hold followers of both; new open
 * features of the tile that join nothing. For fields the same without completion. Then the
 * placer's and the opponents' cloisters it surrounds further, a cloister of its own (and how many
 * of its 8 cells are filled), and how many of its 4 sides touch a tile. @internal
 */
export const PRIOR_FEATURES = [
  'city.closeMine', 'city.closeTheirs', 'city.closeFree', 'city.extendMine', 'city.extendTheirs', 'city.contest', 'city.new',
  'road.closeMine', 'road.closeTheirs', 'road.closeFree', 'road.extendMine', 'road.extendTheirs', 'road.contest', 'road.new',
  'field.extendMine', 'field.extendTheirs', 'field.contest', 'field.new',
  'cloister.aroundMine', 'cloister.aroundTheirs', 'cloister.own', 'cloister.ownFilled',
  'sides',
] as const;

/** Offsets into a feature vector: a class's block starts at its offset. */
const BLOCK = [0, 7, 14] as const;
const CLOISTER_AT = 18;
const SIDES_AT = 22;

/** The sums the prior keeps per local node of the merge (`ClosingScratch.sums`), by index. */
const MINE = 0;
const THEIRS = 1;
const VALUE = 2;
const ROOTS = 3;

/** Scratch of the prior, one per search. @internal */
export interface PriorScratch {
  /**
   * The merge of a placement with its neighbours (`mergeAround`), with four sums per local node:
   * the placer's followers and the most of any one opponent's (summed over merged roots), the
   * tiles and pennants of the neighbour roots merged into it, and how many neighbour roots.
   */
  readonly merge: ClosingScratch;
  /** Fills a neighbour root's sums (made once: a closure a call would allocate). */
  readonly seed: (local: number, root: number) => void;
  /** The state whose placements are being scored. */
  state: Immutable<GameState> | null;
  /** The features of the last placement scored. */
  readonly features: Float64Array;
  /**
   * The followers of the state last prepared, `followers` of them: each one's root and player
   * (grown when a state has more). Scanned per neighbour root: a game has few followers, and
   * arrays kept between placements cost no allocation, where a map of counts did (measured in
   * docs/benchmarks.md, twenty-seventh session).
   */
  roots: Int32Array;
  owners: Int8Array;
  followers: number;
  /** Per-player counts of one root's followers (grown with the players). */
  tally: Int32Array;
  /** The cells of the open cloisters that hold a follower, `cloisters` of them, and whether the placer's (1) or an opponent's (0). */
  cloisterCells: Int32Array;
  cloisterMine: Uint8Array;
  cloisters: number;
  /** Kind index -> class. */
  readonly classes: Int8Array;
  /** The player the owners were counted for. */
  player: number;
}

/** A scratch for the prior. @internal */
export function newPriorScratch(rules: Ruleset): PriorScratch {
  const classes = kindClasses(rules);
  const merge = newClosingScratch(4);
  const [mine, theirs, value, roots] = merge.sums as [Int32Array, Int32Array, Int32Array, Int32Array];
  const scratch: PriorScratch = {
    merge,
    seed: (local, r) => {
      const g = scratch.state!.features;
      theirs[local] = ownersOf(scratch, r);
      mine[local] = scratch.tally[scratch.player]!;
      value[local] = g.size[r]! + g.pennants[r]!;
      roots[local] = 1;
    },
    state: null,
    features: new Float64Array(PRIOR_FEATURES.length),
    roots: new Int32Array(16),
    owners: new Int8Array(16),
    followers: 0,
    tally: new Int32Array(8),
    cloisterCells: new Int32Array(16),
    cloisterMine: new Uint8Array(16),
    cloisters: 0,
    classes,
    player: -1,
  };
  return scratch;
}

/** Notes each follower's root and player in `s`, and the open cloisters with one, for placements by `player`. @internal */
export function prepareOwners(s: Immutable<GameState>, player: number, scratch: PriorScratch): void {
  const n = s.followers.length;
  if (scratch.roots.length < n) {
    scratch.roots = new Int32Array(n * 2);
    scratch.owners = new Int8Array(n * 2);
    scratch.cloisterCells = new Int32Array(n * 2);
    scratch.cloisterMine = new Uint8Array(n * 2);
  }
  if (scratch.tally.length < s.players) scratch.tally = new Int32Array(s.players);
  scratch.player = player;
  scratch.followers = n;
  scratch.cloisters = 0;
  const g = s.features;
  for (let i = 0; i < n; i++) {
    const f = s.followers[i]!;
    const seg = s.tiles[f.tile]!.node + f.local;
    const r = findRoot(g.parent, seg);
    scratch.roots[i] = r;
    scratch.owners[i] = f.player;
    if (scratch.classes[g.kind[seg]!] !== CLOISTER || g.open[r] === 0) continue;
    const t = s.tiles[f.tile]!;
    scratch.cloisterCells[scratch.cloisters] = cellKey(t.x, t.y);
    scratch.cloisterMine[scratch.cloisters++] = f.player === player ? 1 : 0;
  }
}

/** Counts root `r`'s followers by player into `scratch.tally` and returns the most of any one opponent. */
function ownersOf(scratch: PriorScratch, r: number): number {
  const { tally, roots, owners } = scratch;
  tally.fill(0);
  for (let i = 0; i < scratch.followers; i++) if (roots[i] === r) tally[owners[i]!]!++;
  let theirs = 0;
  for (let p = 0; p < tally.length; p++) if (p !== scratch.player && tally[p]! > theirs) theirs = tally[p]!;
  return theirs;
}

/**
 * Writes the features ({@link PRIOR_FEATURES}) of placing `tile` on the empty cell `key` turned
 * `rotation` into `scratch.features` and returns them. Assumes the placement is legal and
 * {@link prepareOwners} was called for `s`. Reads the state, writes only the scratch. @internal
 */
export function priorFeatures(rules: Ruleset, s: Immutable<GameState>, tile: CompiledTile, key: number, rotation: number, scratch: PriorScratch): Float64Array {
  const { features, classes, merge } = scratch;
  features.fill(0);
  scratch.state = s;
  const sides = mergeAround(rules, s, tile, key, rotation, merge, scratch.seed);
  if (sides < 0) return features;
  const { parent, open } = merge;
  const mine = merge.sums[MINE]!;
  const theirs = merge.sums[THEIRS]!;
  const value = merge.sums[VALUE]!;
  const roots = merge.sums[ROOTS]!;
  const nf = tile.kinds.length;
  for (let f = 0; f < nf; f++) {
    if (parent[f] !== f) continue;
    const c = classes[tile.kinds[f]!]!;
    if (c > FIELD) continue;
    const at = BLOCK[c]!;
    const closed = open[f] === 0 && rules.portCompleted[tile.kinds[f]!]!;
    const v = value[f]! + 1 + tile.pennants[f]!;
    if (roots[f] === 0) {
      if (closed && c !== FIELD) features[at + 2]!++;
      else features[at + (c === FIELD ? 3 : 6)]!++;
      continue;
    }
    const m = mine[f]!;
    const t = theirs[f]!;
    // A contest: the placement joins features, and followers of both sides end up in one.
    if (roots[f]! >= 2 && m > 0 && t > 0) features[at + (c === FIELD ? 2 : 5)]!++;
    if (c === FIELD) {
      if (m > 0 && m >= t) features[at]!++;
      if (t > 0 && t >= m) features[at + 1]!++;
      continue;
    }
    if (closed) {
      if (m > 0 && m >= t) features[at]! += v;
      if (t > 0 && t >= m) features[at + 1]! += v;
      if (m === 0 && t === 0) features[at + 2]!++;
    } else {
      if (m > 0 && m >= t) features[at + 3]!++;
      if (t > 0 && t > m) features[at + 4]!++;
    }
  }
  // Cloisters around the cell, and the tile's own (with how many of its 8 cells are filled).
  for (let i = 0; i < scratch.cloisters; i++) {
    const d = key - scratch.cloisterCells[i]!;
    for (let j = 0; j < 8; j++) if (AROUND_DELTA[j] === d) features[CLOISTER_AT + 1 - scratch.cloisterMine[i]!]!++;
  }
  for (let f = 0; f < nf; f++) {
    if (classes[tile.kinds[f]!] !== CLOISTER) continue;
    let filled = 0;
    for (let d = 0; d < 8; d++) if (tileAt(s, key + AROUND_DELTA[d]!) >= 0) filled++;
    features[CLOISTER_AT + 2]!++;
    features[CLOISTER_AT + 3]! += filled;
  }
  features[SIDES_AT] = sides;
  return features;
}

/**
 * The fitted weights, one per {@link PRIOR_FEATURES} in its order: a conditional logit (softmax
 * over a decision's placements) fitted to the share of 2,000 searches level 5 gave each
 * placement, in 60 self-play games of 2-player classic (48 to fit, 12 held out) (docs/design.md, "Bots", twentieth round;
 * the data, the fit and its replay are in bench/experiments/placement-prior/).
 * @internal
 */
export const PRIOR_WEIGHTS: readonly number[] = [
  0.634, -0.486, 0.644, 0.126, -0.822, 0.337, -0.244, // city
  0.171, -0.154, -0.001, 0.335, -0.584, 0.019, -0.116, // road
  0.079, -0.041, 0.519, 0.004, // field
  0.344, -0.379, 0, 0.123, // cloister
  0.138, // sides
];

/** The prior's score of a feature vector under `weights` (one per {@link PRIOR_FEATURES}). @internal */
export function priorScore(features: Float64Array, weights: readonly number[]): number {
  let v = 0;
  for (let i = 0; i < features.length; i++) v += features[i]! * weights[i]!;
  return v;
}
