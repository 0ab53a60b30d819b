/**
 * The Count's vocabulary: its id, options, state slice, steps and moves (types only, and the id).
 */
import type { FeatureRef } from '../../core/events.js';
import type { Quarter } from './tiles.js';

/** The expansion's id. */
export const COUNT = 'count';

/** Which rules sheet: 2 (the 2nd-edition rules, default) or 1 (the older sheet's end of the game). */
export type CountEdition = 1 | 2;

/**
 * How the Count moves after a follower enters the City: `'free'` (any other quarter, or it
 * stays), `'clockwise'` (on to the next quarter clockwise) or `'entered'` (to the quarter the
 * follower entered): the rules' two official variants ("Oficiální varianty").
 */
export type CountMoves = 'free' | 'clockwise' | 'entered';

/** Options of {@link count}. */
export interface CountOptions {
  /** 2 (default): the 2nd edition; 1: the older sheet's end of the game. */
  readonly edition?: CountEdition;
  /** `'free'` (default), `'clockwise'` or `'entered'`: see {@link CountMoves}. */
  readonly countMoves?: CountMoves;
}

/** The Count's state slice (`state.ext['count']`): plain JSON. */
export interface CountState {
  /** Followers in each quarter, per player. */
  quarters: Record<Quarter, number[]>;
  /** Where the Count stands (it starts in the castle). */
  count: Quarter;
  /**
   * The scores when the current turn's action was over, before its scoring: what the players
   * scored from the tile's completed features is measured against them ("scored nothing" for the
   * way into the City). Taken after the action, so that points that do not come from the scoring
   * (a Tower ransom paid before) do not count.
   */
  scoresBefore: number[];
  /**
   * Whether the active player moved a follower out of the City onto a feature scored this turn.
   * Such a player "profits from the scoring" and may not put a follower into the City afterwards,
   * even when the moved follower won nothing (the 2nd-edition rules, note 8: "Pokud hráč použije
   * družiníka, který se již nachází ve městě Carcassonne, pak profituje z hodnocení a nemůže do
   * města Carcassonne přesunout dalšího družiníka").
   */
  movedOut: boolean;
}

/** A step of the Count's (`state.step` while the game waits for one of its decisions). */
export type CountStep =
  | {
      /** The active player may put one follower from supply into a quarter, or decline. */
      readonly kind: 'count/enter';
      /** Who decides: the player who placed the tile. */
      readonly player: number;
    }
  | {
      /** Having just put a follower into the City, the player may move the Count (`'free'`), or leave it. */
      readonly kind: 'count/move-count';
      /** Who decides. */
      readonly player: number;
    }
  | {
      /** Before `feature` is scored: how many followers the decider moves onto it from `quarter` (0 declines). */
      readonly kind: 'count/move-out';
      /** Who decides (any player with followers in the quarter, in turn from the active player's left). */
      readonly player: number;
      /** The quarter matching the feature. */
      readonly quarter: Quarter;
      /** The completed feature, named by its root segment. */
      readonly feature: FeatureRef;
    }
  | {
      /** Edition 2, end of the game: one follower from the market onto a field. */
      readonly kind: 'count/to-field';
      /** Who decides. */
      readonly player: number;
    }
  | {
      /** Edition 1, end of the game: one follower from a quarter onto a matching unfinished feature or a field. */
      readonly kind: 'count/to-feature';
      /** Who decides. */
      readonly player: number;
    };

/** The Count's moves. */
export type CountMove =
  | {
      /** Put a follower from supply into `quarter`. */
      readonly type: 'count/enter';
      /** Who plays it. */
      readonly player: number;
      /** Where it goes. */
      readonly quarter: Quarter;
    }
  | {
      /** Move the Count to `quarter` (`'free'` only). */
      readonly type: 'count/move-count';
      /** Who plays it. */
      readonly player: number;
      /** Where the Count goes. */
      readonly quarter: Quarter;
    }
  | {
      /** Move `count` followers from the step's quarter onto the feature being scored (0: none). */
      readonly type: 'count/move-out';
      /** Who plays it. */
      readonly player: number;
      /** How many. */
      readonly count: number;
    }
  | {
      /** Move a follower from the market onto the field whose root segment is local feature `feature` of the tile at `x, y`. */
      readonly type: 'count/to-field' | 'count/to-feature';
      /** Who plays it. */
      readonly player: number;
      /** Column of the tile holding the feature's root segment. */
      readonly x: number;
      /** Row of that tile. */
      readonly y: number;
      /** Local feature id there. */
      readonly feature: string;
    }
  | {
      /** Decline: put no follower into the City, leave the Count, or move no more followers from the market. */
      readonly type: 'count/decline';
      /** Who plays it. */
      readonly player: number;
    };
