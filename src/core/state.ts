/**
 * The game state: a plain JSON tree (no classes, Map, Set or undefined), so it survives
 * `JSON.stringify`, immer, `structuredClone` and the network unchanged. Cells are keyed by a
 * packed integer ({@link cellKey}); features live in a union-find forest (`features`). Placed
 * tiles, followers and moves are never changed once created, so copies of a state share them.
 */
import type { Rotation } from './types.js';

/** A tile on the board. */
export interface PlacedTile {
  /** Tile kind id (`D`). */
  readonly id: string;
  /** The same kind as an index into the ruleset's catalogue (`rules.tiles`): what the rules read. */
  readonly kind: number;
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Quarter turns clockwise. */
  readonly rotation: Rotation;
  /** Who placed it (-1 for a start tile). */
  readonly player: number;
  /** Segment index of the tile's first local feature in `features`; feature i is segment `node + i`. */
  readonly node: number;
}

/**
 * The feature graph: a union-find forest over feature segments stored as parallel arrays of
 * numbers (one entry per segment: a placed tile's local feature), so that copying it is a few
 * array slices. Only roots carry meaningful totals: a root's `open`, `pennants` and `followers`
 * describe the whole connected feature.
 */
export interface FeatureGraph {
  /** Parent segment (itself for a root). The older root always wins a merge. */
  parent: number[];
  /** Feature kind index into the ruleset's kinds. */
  kind: number[];
  /** Tile index the segment lies on. */
  tile: number[];
  /** Open ports (port features) or empty surrounding cells (cloisters); 0 = complete. */
  open: number[];
  /** Pennants. */
  pennants: number[];
  /** Followers standing on the feature. */
  followers: number[];
  /**
   * Distinct tiles of each root, for kinds that track tiles (a tile crossed twice by one feature
   * counts once); 0 for other kinds. Meaningful at roots only.
   */
  size: number[];
  /**
   * The twin tiles of each root: tiles holding two or more segments of the root's kind (a road
   * crossing, a tile with two city caps), the only tiles one feature can reach twice, kept to
   * count them once in `size` when two parts of a feature meet on one. Empty (the same shared
   * list) for most roots and for every other segment. Lists are replaced, never changed in place,
   * so copies can share them.
   */
  twins: number[][];
}

/** A follower on the board. */
export interface Follower {
  /** Owner. */
  readonly player: number;
  /** Index of the tile it stands on. */
  readonly tile: number;
  /** Local feature index on that tile. */
  readonly local: number;
}

/** The decision the game is waiting for. `player` is who decides (not always the active player). */
export type Step =
  | {
      /** Place the drawn tile. */
      readonly kind: 'place-tile';
      /** Who decides. */
      readonly player: number;
      /** The drawn tile's kind id. */
      readonly tile: string;
    }
  | {
      /** Deploy a follower on the tile just placed, or pass. */
      readonly kind: 'deploy';
      /** Who decides. */
      readonly player: number;
    }
  | ExpansionStep
  | {
      /** The game is over; final scores are in `scores`. */
      readonly kind: 'game-over';
      /** Players with the highest score (ties share the victory). */
      readonly winners: readonly number[];
    };

/** Place the drawn tile at `x, y` turned `rotation` quarter turns clockwise. */
export interface PlaceMove {
  /** Discriminant. */
  readonly type: 'place';
  /** Who plays it: must be the step's decider. */
  readonly player: number;
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Quarter turns clockwise. */
  readonly rotation: Rotation;
}

/** Put a follower from supply on feature `feature` (local id, such as `c1`) of the tile just placed. */
export interface DeployMove {
  /** Discriminant. */
  readonly type: 'deploy';
  /** Who plays it. */
  readonly player: number;
  /** Local feature id on the placed tile. */
  readonly feature: string;
}

/** Decline an optional action (deploying a follower). */
export interface PassMove {
  /** Discriminant. */
  readonly type: 'pass';
  /** Who plays it. */
  readonly player: number;
}

/**
 * A decision owned by an expansion (`kind` is `'<expansion id>/<name>'`): its legal moves come
 * from that expansion, and `player` (who decides) may be any player, not only the active one.
 */
export interface ExpansionStep {
  /** `'<expansion id>/<name>'`. */
  readonly kind: `${string}/${string}`;
  /** Who decides. */
  readonly player: number;
  /** The expansion's data for the step. */
  readonly [field: string]: unknown;
}

/** A move of an expansion (`type` is `'<expansion id>/<name>'`); legal exactly when its expansion lists it. */
export interface ExpansionMove {
  /** `'<expansion id>/<name>'`. */
  readonly type: `${string}/${string}`;
  /** Who plays it. */
  readonly player: number;
  /** The expansion's data for the move (plain JSON). */
  readonly [field: string]: unknown;
}

/** A move of the core's own steps: place a tile, deploy a follower, or pass. */
export type CoreMove = PlaceMove | DeployMove | PassMove;

/**
 * Any move: the core's, or any module's. Functions that return moves (`legalMoves`, a state's
 * `moves`) use this wide type; `applyMove` checks a move built in code against the core's moves
 * and the moves of the ruleset's own modules (see `Ruleset`'s type parameter).
 */
export type Move = CoreMove | ExpansionMove;

/**
 * Where a turn resumes after an expansion's decision steps: the scoring of the features the tile
 * completed (`score`: `roots[0]` is being scored, `hook` counts the `scoringOrder` hooks and then the
 * `beforeScoring` hooks already asked about it),
 * the `afterScoring` hooks (`after`), the `beforeTurnEnd` hooks (`end`), the end of the action
 * (`action`), the `afterAction` hooks (`react`: `hook` is the next one to call), or the end of the game
 * before final scoring (`final`: `hook` is the next `beforeFinalScoring` hook). Plain JSON.
 */
export interface Flow {
  /** What is under way. */
  phase: 'action' | 'react' | 'score' | 'after' | 'end' | 'final';
  /** Completed features still to score, in order. */
  roots: number[];
  /** Index of the next hook to call. */
  hook: number;
  /** Features already scored this turn, with the followers they held before scoring (kept only when an `afterScoring` hook will read them). */
  completed: {
    /** Root segment of the feature. */
    root: number;
    /** Its kind's name. */
    kind: string;
    /** Distinct tiles. */
    tiles: number;
    /** Followers per player on it just before it was scored. */
    followers: number[];
    /** Followers per player on it when the tile completed it, before any `beforeScoring` hook moved some in. */
    completedWith: number[];
  }[];
}

/** The whole state of one game: plain JSON. Never mutate a state you did not create yourself. */
export interface GameState {
  /** The ruleset's id; states only load into the ruleset they were made with. */
  readonly ruleset: string;
  /** Number of players. */
  readonly players: number;
  /** The seed the game started from (secret while the game runs: see `observe`). */
  readonly seed: string;
  /**
   * Random generator state (four uint32), followed, for a game with chosen draws (`newGame`'s
   * `draws` and `tokens`), by their record: which come next and what they are. Secret like the
   * seed (`observe` drops it), since it holds the future.
   */
  rng: number[];
  /** Remaining tiles as a multiset: copies left per tile kind, in catalogue order. No order is stored. */
  bag: number[];
  /**
   * Tiles in the bag: the sum of `bag`, kept so that a draw need not add the bag up. `parseState`
   * checks it like every other field; code that edits `bag` by hand must keep it equal.
   */
  bagSize: number;
  /** Tiles removed because they fitted nowhere, per kind. */
  discarded: number[];
  /** The current decision. */
  step: Step;
  /** Whose turn it is. */
  active: number;
  /** Turns completed. */
  turn: number;
  /** Scores per player. */
  scores: number[];
  /** Followers in supply per player. */
  supply: number[];
  /** Placed tiles in order of placement. */
  tiles: PlacedTile[];
  /**
   * The cell table: a hash table of the occupied cells and the frontier's cells, one number a
   * slot: -1 for an empty slot, else `key * 2048 + value + 1024` for the cell's packed key and its
   * value, the index of the tile on that cell or `-2 - j` for cell `frontier[j]`. A power-of-two
   * number of slots, kept at most half full. Read it with `tileAt`; `tiles` lists the occupied
   * cells in order of placement, `frontier` the open ones.
   */
  cells: number[];
  /**
   * The frontier: the empty cells next to a tile, in no particular order (each keeps its index in
   * `cells`, so that laying a tile adds and removes frontier cells in constant time; the canonical
   * order of `legalMoves` comes from sorting the placements that fit).
   */
  frontier: number[];
  /** What each frontier cell demands of a tile's edges (parallel to `frontier`). */
  demand: number[];
  /** The feature graph. */
  features: FeatureGraph;
  /**
   * Segments of the features completed by their surroundings (cloisters) that are not yet
   * scored complete, in placement order: placing a tile checks only these, not its 8 neighbours.
   * During a turn it may also hold the root of a neighbour's feature that the tile closed
   * without joining it (The Castle: a court against a tower), complete, to be scored this turn.
   * Complete entries leave the list when the turn ends.
   */
  areas: number[];
  /** Followers on the board. */
  followers: Follower[];
  /** Every move played, in order: with the seed, it determines the whole state. */
  moves: Move[];
  /** Where the turn resumes after an expansion's decision step; null when none is pending. */
  flow: Flow | null;
  /** Expansion state slices by expansion id (plain JSON); empty without expansions. */
  ext: Record<string, unknown>;
}

/**
 * What read-only queries need: a {@link GameState}, or a player's observation of one (which
 * has no seed and no random generator state). `legalMoves`, `whyIllegal`, `featureAt` and
 * `projectedScores` accept either, so a client can query its own view.
 */
export type GameView = Omit<GameState, 'seed' | 'rng'>;

/**
 * A new array of `n` copies of `v`, built element by element so that V8 keeps it packed:
 * `new Array(n).fill(v)` makes a holey array, which every later copy (`[...a]`, a clone) walks
 * about ten times slower. @internal
 */
export function filledArray(n: number, v: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(v);
  return out;
}

/** Offset and span of packed cell keys: `key = (y + 512) * 1024 + (x + 512)`. */
export const CELL_OFFSET = 512;
/** Width of a packed row. */
export const CELL_SPAN = 1024;

/**
 * Packs a cell into its integer key (row-major, so ascending keys read north to south, west to
 * east). {@link keyX} and {@link keyY} unpack it.
 *
 * @example
 * ```ts
 * import { cellKey, keyX, keyY } from 'meeplekit';
 *
 * const key = cellKey(-2, 3);
 * console.log(keyX(key), keyY(key), cellKey(5, 0) < cellKey(-5, 1)); // -2 3 true
 * ```
 */
export function cellKey(x: number, y: number): number {
  return (y + CELL_OFFSET) * CELL_SPAN + (x + CELL_OFFSET);
}

/** The column of a packed cell key. */
export function keyX(key: number): number {
  return (key % CELL_SPAN) - CELL_OFFSET;
}

/** The row of a packed cell key. */
export function keyY(key: number): number {
  return ((key / CELL_SPAN) | 0) - CELL_OFFSET;
}

/** Key delta to the neighbour on each side (N, E, S, W). */
export const SIDE_DELTA = [-CELL_SPAN, 1, CELL_SPAN, -1] as const;

/** Key deltas to the 8 surrounding cells. */
export const AROUND_DELTA = [
  -CELL_SPAN - 1, -CELL_SPAN, -CELL_SPAN + 1, -1, 1, CELL_SPAN - 1, CELL_SPAN, CELL_SPAN + 1,
] as const;
