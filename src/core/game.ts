/**
 * The interface a base game implements to run on the core: its feature kinds, tiles, set-up
 * and scoring. The core drives turns, placement, deployment and completion; the game says
 * what things are worth.
 */
import type { Emit } from './events.js';
import type { FeatureKindDef, TileDef } from './tiles.js';
import type { ExpansionMove, GameState } from './state.js';
import type { Rotation } from './types.js';
import type { Ruleset } from './ruleset.js';
import type { Expansion } from './expansion.js';
import type { MeepleError } from './errors.js';
import type { Result } from './result.js';

/**
 * A base game, made by its factory: `classic()` from `meeplekit/games/classic` or `castle(options)`
 * from `meeplekit/games/castle`, and passed to `createRuleset({ game })`. A game is a module of its
 * own, like the expansions, so that an app bundles only the games it imports.
 */
export interface BaseGame<M = ExpansionMove> {
  /**
   * Type-only: the moves of the game's own rules module (The Castle's `CastleMove`; `never` for
   * classic), as in `Expansion`. Never set at run time.
   */
  readonly moveType?: M;
  /** The game's name, as ruleset ids and replays record it (`'classic'`, `'castle'`). */
  readonly game: string;
  /** The options given to the factory, as plain JSON (checked by `createRuleset`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Compiles the game for the core, or says why its options are invalid. @internal */
  readonly build: () => Result<GameModule, MeepleError>;
}

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

/** A tile laid before the first turn: which kind, where, and how it is turned. */
export interface StartTile {
  /** Tile kind id. */
  readonly tile: string;
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Quarter turns clockwise. */
  readonly rotation: Rotation;
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
  /**
   * The tiles laid before the first turn: classic's start tile at 0,0; The Castle's start fields
   * (virtual tiles outside its wall). One copy of each leaves the bag when the set has one.
   */
  readonly start: readonly StartTile[];
  /**
   * The play area, for a bounded board (The Castle): whether a cell (packed key) belongs to it.
   * Cells outside are wall: a port facing one is closed, and no tile may go there. Absent: the
   * board is unbounded.
   */
  readonly inside?: (key: number) => boolean;
  /**
   * The game's own rules that need decisions or state beyond the core's (The Castle's wall
   * tokens, keep and scoring order), written as a module with the expansion hooks. It runs first
   * in hook order; its id is the game's id (its steps and moves are `'<game>/<name>'`).
   */
  readonly rules?: Expansion;
  /** The game's options as plain JSON (part of the ruleset id and of replays); empty for none. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The options as they appear in the ruleset id, when that differs (big data replaced by a digest). */
  readonly idOptions?: Readonly<Record<string, unknown>>;
  /** Feature kind names followers may be deployed on. */
  readonly deployable: readonly string[];
  /** Scores a completed feature (root node `root`) and returns its followers as the rules say. */
  scoreCompleted(ctx: ScoringContext, root: number): void;
  /** Scores everything the end of the game scores. */
  finalScoring(ctx: ScoringContext): void;
  /**
   * True when {@link GameModule.finalScoring} changes nothing but `state.scores`, and only by
   * adding to it (no follower returned, nothing else written): `projectedScores` may then run it
   * on the state itself with a fresh `scores` array instead of on a whole copy. Unset means the
   * copy, which is always right.
   */
  readonly finalScoringAddsOnly?: boolean;
  /**
   * The game's share of the score bounds (`gameInfo(rules, players).utility.score` of
   * `meeplekit/ai`): the most points its scoring (`scoreCompleted`, `finalScoring` and its own
   * rules module, `rules`) can give one player in one game of `players` players, for every tile
   * of `rules.tiles` (the expansions' tiles and kinds too), and the most it can take away (`min`,
   * 0 or less). See `Expansion.scoreBounds`. Absent: the bounds are unknown (infinite).
   */
  scoreBounds?(
    rules: Ruleset,
    players: number,
  ): {
    /** The most points taken from one player over a game, as a number 0 or less. */
    readonly min: number;
    /** The most points given to one player over a game. */
    readonly max: number;
  };
}
