/**
 * Rollouts whose tile placements follow the placement prior (`prior.ts`) instead of being uniform:
 * level 5's in 2-player classic (`LevelSpec.priorRollouts`).
 */
import type { RandomSource } from '../core/rng.js';
import type { Ruleset } from '../core/ruleset.js';
import { keyX, keyY } from '../core/state.js';
import { placementBuffer, samplePlaceStep } from '../core/engine/legal.js';
import { actionLayout } from '../ai/layout.js';
import type { ResearchSimulator } from '../ai/simulator.js';
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
}

/** Scratch of the prior's rollouts, one per search. @internal */
export interface RolloutScratch {
  readonly prior: PriorScratch;
  /** The candidates drawn: their actions, keys and weights. */
  readonly actions: Int32Array;
  readonly keys: Int32Array;
  readonly weights: Float64Array;
}

/** A scratch for rollouts with `candidates` candidates a placement. @internal */
export function newRolloutScratch(rules: Ruleset, candidates: number): RolloutScratch {
  const n = Math.max(1, candidates);
  return { prior: newPriorScratch(rules), actions: new Int32Array(n), keys: new Int32Array(n), weights: new Float64Array(n) };
}

/**
 * Plays on from `sim` for at most `decisions` decisions, as the simulator's `rollout` does, except
 * that each tile placement is chosen among `prior.candidates` placements drawn uniformly from the
 * legal ones, with probability proportional to `exp(score / temperature)` for the prior's score of
 * each (for the player who places). Chance nodes are drawn by their probabilities (`applyRandom`:
 * the same tile draws as the simulator's own rollout, from other random numbers), follower and
 * module decisions uniformly. So the rollout's players complete their own cities and roads more
 * often, and add to the other side's less, than random play does: its end is scored with less
 * bias (docs/design.md, "Bots", twenty-second round).
 *
 * Where the rules have moves of a whole turn (the Tower's ransom), placements stay uniform: the
 * prior knows only placements. Deterministic for a given `random`. @internal
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
    let total = 0;
    for (let i = 0; i < k; i++) total += weights[i] = Math.exp(weights[i]! - top);
    let r = (random(DRAW) / DRAW) * total;
    let i = 0;
    while (i < k - 1 && r >= weights[i]!) r -= weights[i++]!;
    sim.applyAction(actions[i]!);
  }
}
