/**
 * Rollouts whose tile placements follow the placement prior (`prior.ts`) and whose follower
 * decisions follow the follower prior (`follow.ts`) instead of being uniform: level 5's in
 * 2-player classic (`LevelSpec.priorRollouts`).
 */
import type { RandomSource } from '../core/rng.js';
import type { Ruleset } from '../core/ruleset.js';
import { keyX, keyY } from '../core/state.js';
import { placementBuffer, samplePlaceStep } from '../core/engine/legal.js';
import { actionLayout, type ActionLayout } from '../ai/layout.js';
import type { ResearchSimulator } from '../ai/simulator.js';
import { followFeatures, FOLLOW_SIZE, newFollowScratch, type FollowScratch } from './follow.js';
import { newPriorScratch, prepareOwners, priorFeatures, priorScore, PRIOR_WEIGHTS, type PriorScratch } from './prior.js';

/** No moves of a whole turn: the rollouts run only where no module has any. */
const NO_TURN: never[] = [];
/** The resolution of the draw among the candidates: 2^30 steps. */
const DRAW = 0x40000000;

/** How a rollout chooses its placements (the settings of `LevelSpec.priorRollouts`). @internal */
export interface RolloutPrior {
  /** The softmax's temperature over the prior's scores: lower follows the prior more closely. */
  readonly temperature: number;
  /** Placements drawn uniformly (by rejection, repeats allowed) among which the prior chooses. */
  readonly candidates: number;
  /**
   * How the deploy decisions are chosen: among all their options, with probability proportional
   * to `exp(score / temperature)` for the score under `weights` (one per `FOLLOW_FEATURES`).
   * Absent: uniformly.
   */
  readonly follow?: { readonly weights: readonly number[]; readonly temperature: number };
}

/** Scratch of the prior's rollouts, one per search. @internal */
export interface RolloutScratch {
  readonly prior: PriorScratch;
  /** The candidates drawn: their actions, keys and weights. */
  readonly actions: Int32Array;
  readonly keys: Int32Array;
  readonly weights: Float64Array;
  /** The follower prior's scratch, and the weights of a deploy decision's options (grown as needed). */
  readonly follow: FollowScratch;
  optionWeights: Float64Array;
}

/** A scratch for rollouts with `candidates` candidates a placement. @internal */
export function newRolloutScratch(rules: Ruleset, candidates: number): RolloutScratch {
  const n = Math.max(1, candidates);
  return { prior: newPriorScratch(rules), actions: new Int32Array(n), keys: new Int32Array(n), weights: new Float64Array(n), follow: newFollowScratch(rules), optionWeights: new Float64Array(8) };
}

/**
 * Plays on from `sim` for at most `decisions` decisions, as the simulator's `rollout` does, except
 * that each tile placement is chosen among `prior.candidates` placements drawn uniformly from the
 * legal ones, with probability proportional to `exp(score / temperature)` for the prior's score of
 * each (for the player who places). Chance nodes are drawn by their probabilities (`applyRandom`:
 * the same tile draws as the simulator's own rollout, from other random numbers); deploy
 * decisions with more than one option by the follower prior when `prior.follow` is given
 * ({@link followStep}), else uniformly, as module decisions are. So the rollout's players complete
 * their own cities and roads more often, and add to the other side's less, than random play does,
 * and put their followers where level 5 would: its end is scored with less bias (docs/design.md,
 * "Bots", twenty-second and twenty-sixth rounds).
 *
 * Where the rules have moves of a whole turn (the Tower's ransom), placements and deploy
 * decisions stay uniform: the priors know only the core's moves. Deterministic for a given `random`. @internal
 */
export function priorRollout(rules: Ruleset, sim: ResearchSimulator, random: RandomSource, decisions: number, prior: RolloutPrior, scratch: RolloutScratch): void {
  const layout = actionLayout(rules);
  const w = layout.window;
  const k = prior.candidates;
  const { actions, keys, weights } = scratch;
  const uniformOnly = rules.hooks.turnMoves.length > 0;
  let played = 0;
  while (!sim.isTerminal()) {
    if (sim.isChanceNode()) {
      sim.applyRandom(random);
      continue;
    }
    if (played === decisions) break;
    played++;
    const s = sim.state;
    const step = s.step;
    if (step.kind === 'deploy' && prior.follow !== undefined && !uniformOnly) {
      followStep(layout, sim, random, prior.follow, scratch);
      continue;
    }
    if (step.kind !== 'place-tile' || uniformOnly) {
      sim.applyRandom(random);
      continue;
    }
    const tile = rules.tileById.get(step.tile)!;
    const buf = placementBuffer(s);
    for (let i = 0; i < k; i++) {
      // With no turn moves the draw is always a placement, `key * 4 + rotation`.
      const p = samplePlaceStep(rules, s, tile, NO_TURN, buf, random);
      const key = (p / 4) | 0;
      keys[i] = p;
      actions[i] = ((keyY(key) - w.y) * w.width + (keyX(key) - w.x)) * 4 + (p & 3);
    }
    prepareOwners(s, step.player, scratch.prior);
    let top = -Infinity;
    for (let i = 0; i < k; i++) {
      const p = keys[i]!;
      // A placement drawn twice is scored once.
      let j = 0;
      while (j < i && keys[j] !== p) j++;
      const v = j < i ? weights[j]! : priorScore(priorFeatures(rules, s, tile, (p / 4) | 0, p & 3, scratch.prior), PRIOR_WEIGHTS) / prior.temperature;
      weights[i] = v;
      if (v > top) top = v;
    }
    sim.applyAction(actions[softmaxDraw(weights, k, top, random)]!);
  }
}

/**
 * Draws an index below `n` with probability proportional to `exp(w[i] - top)` (`top` the largest
 * of the `n` scores, so that no term overflows); overwrites `w` with those terms.
 */
function softmaxDraw(w: Float64Array, n: number, top: number, random: RandomSource): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += w[i] = Math.exp(w[i]! - top);
  let r = (random(DRAW) / DRAW) * total;
  let i = 0;
  while (i < n - 1 && r >= w[i]!) r -= w[i++]!;
  return i;
}

/**
 * Plays a deploy decision by the follower prior: every option scored, one drawn with probability
 * proportional to `exp(score / temperature)`; a single option is played without a draw.
 */
function followStep(layout: ActionLayout, sim: ResearchSimulator, random: RandomSource, follow: { readonly weights: readonly number[]; readonly temperature: number }, scratch: RolloutScratch): void {
  const legal = sim.legalActions();
  const n = legal.length;
  if (n === 1) {
    sim.applyAction(legal[0]!);
    return;
  }
  const s = sim.state;
  if (scratch.optionWeights.length < n) scratch.optionWeights = new Float64Array(2 * n);
  const fw = scratch.optionWeights;
  let top = -Infinity;
  for (let i = 0; i < n; i++) {
    const f = followFeatures(layout, s, legal[i]!, scratch.follow);
    let v = 0;
    for (let k = 0; k < FOLLOW_SIZE; k++) v += f[k]! * follow.weights[k]!;
    v /= follow.temperature;
    fw[i] = v;
    if (v > top) top = v;
  }
  sim.applyAction(legal[softmaxDraw(fw, n, top, random)]!);
}
