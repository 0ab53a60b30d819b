/**
 * The Castle's state slice and move shapes (plain JSON): what `state.ext.castle` holds.
 */

/** Wall tokens: 2 of each kind 1..9 (digest, Material). */
export const WALL_TOKENS = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9] as const;

/** A face-up wall token a player holds. */
export interface HeldToken {
  /**
   * Token kind, 1..9; -1 for a token taken from a concealed tower of a research state
   * (`meeplekit/ai`, explicit chance) whose kind the next chance node decides.
   */
  readonly token: number;
  /** The turn (`GameState.turn`) it was taken in: it is usable from a later turn on. */
  readonly turn: number;
}

/** Where a player's keep stands. */
export interface KeepPlace {
  /** Root segment of the completed house. */
  readonly root: number;
  /** Its size in tiles (a start field counts as one). */
  readonly tiles: number;
}

/**
 * The Castle's state slice, `state.ext.castle` (plain JSON).
 */
export interface CastleSlice {
  /**
   * Per wall tower (in layout order): the face-down token lying there (1..9), 0 when there is
   * none (tower 0/1, taken, or removed at the end). In a player's observation a face-down token
   * shows as -1: its kind is hidden from both players until taken.
   */
  wall: number[];
  /** Per player: the face-up tokens held, in the order taken. */
  held: HeldToken[][];
  /**
   * How many tokens of each kind (index kind - 1) have been taken face up so far, by either
   * player, used or not: public, so what is still unseen (on the wall or in the box) is known.
   */
  taken: number[];
  /**
   * The kinds of the tokens taken face up, by either player, in the order taken (public, like
   * `taken`): what a replay of a research state needs to reveal each token as it was.
   */
  takenOrder: number[];
  /** Per player: where the keep stands, or null while it is in supply. */
  keep: (KeepPlace | null)[];
  /** The turn after which the active player plays again (wall token 1), or -1. */
  extraTurn: number;
  /** The last turn in which the active player scored a completed feature with the majority. */
  majorityTurn: number;
  /** A token (2 or 3) chosen for the feature scored next, or null. */
  pending: {
    /** Root segment of the feature. */
    root: number;
    /** The token, 2 or 3. */
    token: number;
  } | null;
  /** Final-scoring token choices made (tokens 4, 5, 6 and 7): which feature each applies to. */
  finals: {
    /** The token's owner. */
    player: number;
    /** The token, 4 to 7. */
    token: number;
    /** Root segment of the chosen feature. */
    root: number;
  }[];
}

/** A `castle/score` move: score this completed feature next, with wall token 2 or 3 or none (0). */
export type CastleScoreMove = {
  /** Discriminant. */
  readonly type: 'castle/score';
  /** Who plays it. */
  readonly player: number;
  /** Column of the feature's named tile. */
  readonly x: number;
  /** Row of that tile. */
  readonly y: number;
  /** Local feature id on that tile. */
  readonly feature: string;
  /** 2 (tower) or 3 (house) to double its value with that token, else 0. */
  readonly token: number;
};

/** A `castle/extra-turn` move: use wall token 1 to play another turn now, or keep it. */
export type CastleExtraTurnMove = {
  /** Discriminant. */
  readonly type: 'castle/extra-turn';
  /** Who plays it. */
  readonly player: number;
  /** Whether the token is used. */
  readonly use: boolean;
};

/** A `castle/final-token` move: the feature a final-scoring token (4 to 7) applies to. */
export type CastleFinalTokenMove = {
  /** Discriminant. */
  readonly type: 'castle/final-token';
  /** Who plays it. */
  readonly player: number;
  /** The token, 4 to 7, as the step names it. */
  readonly token: number;
  /** Column of the feature's named tile. */
  readonly x: number;
  /** Row of that tile. */
  readonly y: number;
  /** Local feature id on that tile. */
  readonly feature: string;
};

/** The Castle's own moves (`castle/...`): what `applyMove` accepts of a Castle ruleset besides the core's moves. */
export type CastleMove = CastleScoreMove | CastleExtraTurnMove | CastleFinalTokenMove;
