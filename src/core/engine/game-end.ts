/**
 * The end of the game: the modules' questions before final scoring (`beforeFinalScoring`), then
 * final scoring, the winners and the game-over step.
 */
import type { Emit } from '../events.js';
import type { Ruleset } from '../ruleset.js';
import type { GameState } from '../state.js';

/** Final scoring, winners, game over. @internal */
export function endGame(rules: Ruleset, s: GameState, emit: Emit): void {
  if (rules.hooks.beforeFinalScoring.length > 0) {
    // Expansions may ask players first (the Count's market round): keep the place in the state.
    s.flow = { phase: 'final', roots: [], hook: 0, completed: [] };
    resumeFinal(rules, s, emit);
    return;
  }
  scoreGame(rules, s, emit);
}

/** Goes on with the `beforeFinalScoring` hooks from `state.flow`, then scores the game. */
export function resumeFinal(rules: Ruleset, s: GameState, emit: Emit): void {
  const flow = s.flow!;
  const before = rules.hooks.beforeFinalScoring;
  const ctx = { rules, state: s, emit };
  while (flow.hook < before.length) if (before[flow.hook++]!(ctx) === 'wait') return;
  s.flow = null;
  scoreGame(rules, s, emit);
}

/** Final scoring (the base game's, then the expansions'), winners, game over. */
function scoreGame(rules: Ruleset, s: GameState, emit: Emit): void {
  const ctx = { rules, state: s, emit };
  rules.game.finalScoring(ctx);
  const finals = rules.hooks.finalScoring;
  for (let i = 0; i < finals.length; i++) finals[i]!(ctx);
  const winners = winnersOf(s.scores);
  s.step = { kind: 'game-over', winners };
  if (emit !== null) emit({ type: 'game-ended', scores: s.scores.slice(), winners: winners.slice() });
}

/** Players with the highest score. @internal */
export function winnersOf(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const out: number[] = [];
  scores.forEach((v, p) => {
    if (v === best) out.push(p);
  });
  return out;
}
