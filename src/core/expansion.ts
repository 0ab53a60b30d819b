/**
 * The expansion module interface. An expansion is a plain object of data and hooks, made by its
 * factory (`river()`, `kingRobber()`, `shrines()` from their subpaths) and passed to
 * `createRuleset`. The core calls the hooks at fixed points of a turn, always in the order of the
 * expansions' `order` numbers (never in the order the user listed them), and never lets one
 * expansion see another: interactions go through the shared state the hooks are handed.
 *
 * Hook order in one turn (docs/expansions/writing-an-expansion.md has the full story):
 * 1. draw: a tile kind may be drawn only if every `canDraw` hook allows it;
 * 2. placement: a placement must match edges and pass every `placementError` hook;
 * 3. `afterPlace`, once the tile lies and its features are merged;
 * 4. deployment: followers may go on the game's deployable kinds and the expansions' ones;
 * 5. scoring of every feature the tile completed (by the base game), then `afterScoring` with
 *    the list of those features and how many followers each held before scoring;
 * 6. at the end, the base game's final scoring, then every `finalScoring` hook.
 */
import type { Emit } from './events.js';
import type { ScoringContext } from './game.js';
import type { Ruleset } from './ruleset.js';
import type { GameState, GameView } from './state.js';
import type { CompiledTile, FeatureKindDef, TileDef } from './tiles.js';
import type { Immutable, Rotation } from './types.js';

/** A feature completed by the tile just placed, as handed to `afterScoring`. */
export interface CompletedFeature {
  /** Root segment of the feature. */
  readonly root: number;
  /** Its kind's name. */
  readonly kind: string;
  /** Distinct tiles (0 for kinds that do not track tiles). */
  readonly tiles: number;
  /** Followers per player standing on it just before it was scored. */
  readonly followers: readonly number[];
}

/** The context the turn hooks get: rules, the mutable state, the event sink. */
export type HookContext = ScoringContext;

/** An expansion module: data, and hooks the core calls at fixed points. */
export interface Expansion {
  /** Stable id, also the namespace of its state slice, moves, events and error messages (`river`). */
  readonly id: string;
  /** Position in the hook order: lower runs first. Fixed per expansion, documented. */
  readonly order: number;
  /** The expansion's options as plain JSON (kept in replays and in the ruleset id). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Ids of expansions this one needs. */
  readonly requires?: readonly string[];
  /** Ids of expansions this one cannot be combined with. */
  readonly conflictsWith?: readonly string[];
  /** Extra feature kinds. */
  readonly kinds?: readonly FeatureKindDef[];
  /** Kind names (its own or the game's) followers may be deployed on. */
  readonly deployable?: readonly string[];
  /** Extra tiles, with their counts. */
  readonly tiles?: readonly TileDef[];
  /** Replaces the base game's start tile (its copies then all go into the bag). */
  readonly start?: { readonly tile: string; readonly rotation: Rotation };
  /** Why the options given to the factory are invalid, or null (checked by `createRuleset`). */
  validate?(): string | null;
  /** The initial state slice `state.ext[id]` (plain JSON). */
  setup?(rules: Ruleset, players: number): unknown;
  /** Whether a tile kind may be drawn now (every expansion's answer must be yes). */
  canDraw?(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile): boolean;
  /** Why the tile may not lie here (after edges matched), or null if it may. */
  placementError?(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile, x: number, y: number, rotation: Rotation): string | null;
  /** After a tile is laid and its features merged, before deployment. */
  afterPlace?(ctx: HookContext, tile: number): void;
  /** After the features the tile completed were scored by the base game. */
  afterScoring?(ctx: HookContext, completed: readonly CompletedFeature[]): void;
  /** After the base game's final scoring. */
  finalScoring?(ctx: HookContext): void;
  /** What a viewer may see of the slice (default: all of it). */
  observe?(slice: unknown, viewer: number | null): unknown;
}

/** The hooks of a ruleset, compiled once: arrays in hook order, empty when no expansion has one. @internal */
export interface CompiledHooks {
  readonly canDraw: readonly NonNullable<Expansion['canDraw']>[];
  readonly placementError: readonly NonNullable<Expansion['placementError']>[];
  readonly afterPlace: readonly NonNullable<Expansion['afterPlace']>[];
  readonly afterScoring: readonly NonNullable<Expansion['afterScoring']>[];
  readonly finalScoring: readonly NonNullable<Expansion['finalScoring']>[];
}

/** Emits an expansion's own event (`type` is `'<id>/<name>'`). @internal */
export function emitExpansionEvent(emit: Emit, type: `${string}/${string}`, data: Readonly<Record<string, unknown>>): void {
  if (emit !== null) emit({ type, ...data } as never);
}

/** The state slice of an expansion. @internal */
export function sliceOf<T>(state: Immutable<GameState> | GameState | Immutable<GameView>, id: string): T {
  return (state.ext as Record<string, unknown>)[id] as T;
}
