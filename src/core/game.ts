/**
 * The interface a base game implements to run on the core: its feature kinds, tiles, set-up
 * and scoring. The core drives turns, placement, deployment and completion; the game says
 * what things are worth.
 */
import type { Emit } from './events.js';
import type { FeatureKindDef, TileDef } from './tiles.js';
import type { GameState } from './state.js';
import type { Rotation } from './types.js';
import type { Ruleset } from './ruleset.js';

/**
 * What the scoring hooks of a base game and the hooks of an expansion are handed: the rules, the
 * mutable state and the event sink. Expansions know it as `HookContext`. The state is a private
 * copy being changed (inside `applyMove`, or a Simulator's own state): change it in place.
 */
export interface ScoringContext {
  /** The compiled rules. */
  readonly rules: Ruleset;
  /** The state being changed (a draft or a Simulator's own copy). */
  readonly state: GameState;
  /** Event sink, or null when nobody listens. */
  readonly emit: Emit;
}

/** A base game module. @internal */
export interface GameModule {
  /** Game id (`classic`). */
  readonly game: string;
  /** Feature kinds, in the order tile data and states refer to them. */
  readonly kinds: readonly FeatureKindDef[];
  /** Tile kinds with their counts. */
  readonly tiles: readonly TileDef[];
  /** Fewest players. */
  readonly minPlayers: number;
  /** Most players. */
  readonly maxPlayers: number;
  /** Followers per player. */
  readonly followers: number;
  /** The start tile (taken out of the bag) and how it lies at 0,0. */
  readonly start: { readonly tile: string; readonly rotation: Rotation };
  /** Feature kind names followers may be deployed on. */
  readonly deployable: readonly string[];
  /** Scores a completed feature (root node `root`) and returns its followers as the rules say. */
  scoreCompleted(ctx: ScoringContext, root: number): void;
  /** Scores everything the end of the game scores. */
  finalScoring(ctx: ScoringContext): void;
}
