/**
 * A module's explicit chance: the chance nodes a module adds besides the draw (The Castle's
 * face-down tokens), for the research interface (`meeplekit/ai`) and its determinization.
 */
import type { ScoringContext } from './game.js';
import type { Ruleset } from './ruleset.js';
import type { GameState, GameView } from './state.js';
import type { Immutable } from './types.js';

/**
 * A module's explicit chance (see {@link Expansion.chance}). Outcome ids are the module's own
 * small integers, at most `maxOutcomes - 1`.
 */
export interface ModuleChance {
  /** One more than the largest outcome id of the module's chance nodes. */
  readonly maxOutcomes: number;
  /**
   * Forgets, in place, what the seed fixed in advance and no player has seen, so that it is
   * decided at the module's chance nodes instead (The Castle: every face-down token becomes -1).
   */
  conceal(rules: Ruleset, state: GameState): void;
  /**
   * Fills in every unknown (concealed, or hidden by `observe`) in place, drawn with `random` from
   * what is still unseen, consistently with everything public: a full state for search.
   */
  redraw(rules: Ruleset, state: GameState, random: (n: number) => number): void;
  /**
   * At one of the module's chance nodes: its outcomes with their weights (copies left, say), as
   * `[outcome, weight]` pairs in ascending outcome order; probabilities are weight / total.
   */
  outcomes(rules: Ruleset, state: Immutable<GameView>): (readonly [number, number])[];
  /** A short name for an outcome (`token 7`). */
  label(outcome: number): string;
  /**
   * Applies an outcome (one of `outcomes`) at one of the module's chance nodes: `'done'` lets the
   * turn go on; `'wait'` after setting one of the module's own steps.
   */
  apply(ctx: ScoringContext, outcome: number): 'wait' | 'done';
  /**
   * Loading a research state (`deserializeResearchState` replays it from its own record, with
   * explicit chance): at one of the module's chance nodes of the replay, the outcome that `stored`
   * (the state being loaded: untrusted JSON, read with care) shows was decided there, or null when
   * `stored` has not decided it (it stands at this node, or does not hold a valid outcome). Needed
   * when the module's chance nodes occur during a game.
   */
  recorded?(rules: Ruleset, replay: Immutable<GameView>, stored: unknown): number | null;
  /**
   * Loading a research state: copies into `replay`, in place, what the replay leaves concealed and
   * `stored` (untrusted JSON) holds decided, as a determinized state or one played with seeded
   * chance does (The Castle's face-down tokens); returns why `stored` cannot hold it, or null.
   * Everything else is then compared with the replay.
   */
  restore?(rules: Ruleset, replay: GameState, stored: unknown): string | null;
}
