/**
 * Domain events: what happened in a transition, for UIs to animate and logs to keep. Every
 * point scored is a `scored` event, so a player's score always equals the sum of their
 * `scored` events' points.
 */
import type { Move } from './state.js';
import type { Rotation } from './types.js';

/** A feature named by one of its segments: the tile at `x, y` and the local feature id there. */
export interface FeatureRef {
  /** Feature kind (`city`, `road`, `cloister`, `field`). */
  readonly kind: string;
  /** Column of the tile holding the named segment (the feature's oldest tile). */
  readonly x: number;
  /** Row of that tile. */
  readonly y: number;
  /** Local feature id on that tile (`c1`). */
  readonly feature: string;
}

/** Why points were scored: a base reason, or an expansion's namespaced one. */
export type ScoreReason = 'completed' | 'final' | 'farm' | `${string}/${string}`;

/**
 * Something that happened. Discriminate on `type`; an expansion's events have a `/` in it
 * (`king-robber/king-taken`).
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, legalMoves, newGame, type GameEvent } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'events' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * function describe(e: GameEvent): string {
 *   switch (e.type) {
 *     case 'tile-placed':
 *       return `P${e.player} placed ${e.tile} at ${e.x},${e.y}`;
 *     case 'scored':
 *       return `P${e.player} scored ${e.points} for ${e.feature?.kind ?? e.reason}`;
 *     default:
 *       return e.type;
 *   }
 * }
 * const next = applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]);
 * if (next.ok) console.log(next.value.events.map(describe));
 * ```
 */
export type GameEvent =
  | ExpansionEvent
  | {
      /** A tile was drawn for a player. */
      readonly type: 'tile-drawn';
      /** Who drew it. */
      readonly player: number;
      /** Tile kind id. */
      readonly tile: string;
    }
  | {
      /** A drawn tile fitted nowhere and was removed from the game. */
      readonly type: 'tile-discarded';
      /** Who drew it. */
      readonly player: number;
      /** Tile kind id. */
      readonly tile: string;
    }
  | {
      /** A tile was placed. */
      readonly type: 'tile-placed';
      /** Who placed it. */
      readonly player: number;
      /** Tile kind id. */
      readonly tile: string;
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
      /** Quarter turns clockwise. */
      readonly rotation: Rotation;
    }
  | {
      /** A follower went from supply onto a feature. */
      readonly type: 'follower-deployed';
      /** Owner. */
      readonly player: number;
      /** Where: the tile and local feature the follower stands on. */
      readonly at: FeatureRef;
    }
  | {
      /** A feature was completed. */
      readonly type: 'feature-completed';
      /** The feature. */
      readonly feature: FeatureRef;
      /** Distinct tiles in it (cloisters: 9). */
      readonly tiles: number;
    }
  | {
      /** A player scored points. */
      readonly type: 'scored';
      /** Who scored. */
      readonly player: number;
      /** Points (may be 0 only if a rule says so; never omitted). */
      readonly points: number;
      /**
       * `completed` during play, `final` for incomplete features at the end, `farm` for fields;
       * an expansion's own reason is namespaced (`king-robber/king`).
       */
      readonly reason: ScoreReason;
      /** The feature scored, or null for points that belong to no feature (the King's). */
      readonly feature: FeatureRef | null;
    }
  | {
      /** A follower went back to its owner's supply. */
      readonly type: 'follower-returned';
      /** Owner. */
      readonly player: number;
      /** Where it stood. */
      readonly at: FeatureRef;
    }
  | {
      /** A player's turn ended. */
      readonly type: 'turn-ended';
      /** Whose turn it was. */
      readonly player: number;
    }
  | UndoneEvent
  | {
      /** The game ended after final scoring. */
      readonly type: 'game-ended';
      /** Final scores. */
      readonly scores: readonly number[];
      /** Players with the highest score. */
      readonly winners: readonly number[];
    };

/**
 * Moves were taken back (`undo(rules, state, count, { events: true })`): the state is the one
 * before them. The only event of an undo, delivered like a move's events (in the undo's
 * `Transition`, and in a view delta's `events` when the server passes them to `viewDelta`), so a
 * client can animate it: take the last `moves.length` moves' pieces off the board, in reverse.
 * Moves are public, so it shows nothing a view hides.
 */
export interface UndoneEvent {
  /** Discriminant. */
  readonly type: 'undone';
  /** The moves taken back, in the order they had been played (each names its player). */
  readonly moves: readonly Move[];
  /** Moves played before the undo: the `seq` of the view it was taken back from. */
  readonly from: number;
  /** Moves played after it: the `seq` of the view now (`from - moves.length`). */
  readonly to: number;
  /** Turns taken back (completed turns before, less after): 0 when only a move of the current turn was. */
  readonly turns: number;
  /** The player who decides now, after the undo (the step's decider), or -1 at the game's end. */
  readonly player: number;
}

/**
 * An expansion's own event: `type` is `'<expansion id>/<name>'` (`king-robber/king-taken`), the
 * other fields are the expansion's (documented with the expansion).
 */
export interface ExpansionEvent {
  /** `'<expansion id>/<name>'`. */
  readonly type: `${string}/${string}`;
  /** The event's data. */
  readonly [field: string]: unknown;
}

/**
 * Where events go: a function, or `null` when nobody listens (fast playouts). Code that emits
 * (an expansion hook) must check for `null` first and build no event then.
 *
 * An event must share no object with the state: whoever receives it (a UI, a log, a delta) may
 * keep or change it. The engine's own events are built fresh; `emitExpansionEvent` copies a
 * module's data deeply, so a module may pass its slice's records to it. A hook that calls `emit`
 * directly must build fresh objects itself.
 */
export type Emit = ((e: GameEvent) => void) | null;
