/**
 * The expansion module interface. An expansion is a plain object of data and hooks, made by its
 * factory (`river()`, `kingRobber()`, `shrines()` from their subpaths) and passed to
 * `createRuleset`. The core calls the hooks at fixed points of a turn, always in the order of the
 * expansions' `order` numbers (never in the order the user listed them), and never lets one
 * expansion see another: interactions go through the shared state the hooks are handed.
 *
 * Hook order (docs/expansions/writing-an-expansion.md has the full story). Set-up: every `setup`,
 * the start tile, `afterPlace` with tile 0, the first draw. Then in each turn:
 * 0. `turnStart`, before the draw of every turn after the first (not after the last tile);
 * 1. draw: a tile kind may be drawn only if every `drawFilter` allows it (a predicate or a mask);
 * 2. placement: a placement must match edges and pass every `placementError` hook;
 * 3. `afterPlace`, once the tile lies and its features are merged;
 * 4. the deploy step: a follower on the game's or the expansions' deployable kinds, any move
 *    from `deployMoves`, or pass (skipped when nothing but passing is possible); an expansion's
 *    move is applied by its `play`, which may pause the turn on its own steps;
 * 4b. every `afterAction` hook (which may pause the turn for decisions);
 * 5. for each feature the tile completed: every `beforeScoring` hook (which may pause the turn
 *    for decisions of any player: the expansion's own steps, moves from `stepMoves`, applied by
 *    `play`), then the base game's scoring; then `afterScoring` with the list of those features
 *    and how many followers each held before scoring (it may pause the turn too);
 * 6. the turn ends; the next player's turn starts at 0.
 * When the bag is empty: every `beforeFinalScoring` hook (which may pause the game for
 * decisions), the base game's final scoring, then every `finalScoring` hook.
 */
import type { ScoringContext } from './game.js';
import type { Ruleset } from './ruleset.js';
import type { ExpansionMove, GameView, Move } from './state.js';
import type { CompiledTile, FeatureKindDef, TileDef } from './tiles.js';
import type { Immutable, Rotation } from './types.js';
import type { ExpansionError } from './errors.js';
import type { StartTile } from './game.js';
import type { ModuleChance } from './module-chance.js';

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
  /**
   * Followers per player standing on it when the tile completed it, before any `beforeScoring`
   * hook moved more in (the Count's move-out): who had deployed on it.
   */
  readonly completedWith: readonly number[];
}

/**
 * The context the turn hooks get: `rules`, the mutable `state` (change it in place; it is a
 * private copy, inside `applyMove` or a Simulator) and `emit`, the event sink (null in fast
 * playouts: emit nothing then).
 */
export type HookContext = ScoringContext;

/**
 * An expansion module: data, and hooks the core calls at fixed points.
 *
 * `M` is the type of the module's own moves (`TowerMove` for `tower()`, `never` for a module
 * with none), carried into the ruleset `createRuleset` makes so that `applyMove` refuses, at
 * compile time, a move no module of the ruleset has (`'tower/plase'`). It defaults to any module
 * move (`ExpansionMove`), which is what an `Expansion` with no parameter stands for.
 */
export interface Expansion<M = ExpansionMove> {
  /**
   * Type-only: the module's moves (`M`). Never set at run time (`createRuleset` ignores it);
   * it lets TypeScript carry `M` from the factory to the ruleset.
   */
  readonly moveType?: M;
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
  /**
   * Why, by id of an expansion in `conflictsWith`: appended to the message of the
   * `options/conflicting-expansions` refusal (the Count: River and the Count both replace the start
   * tile, and the rules advise against combining them).
   */
  readonly conflictReasons?: Readonly<Record<string, string>>;
  /** Most players this expansion allows, when more than the base game's (The Tower: 6). */
  readonly maxPlayers?: number;
  /** Extra feature kinds. */
  readonly kinds?: readonly FeatureKindDef[];
  /** Kind names (its own or the game's) followers may be deployed on. */
  readonly deployable?: readonly string[];
  /** Extra tiles, with their counts. */
  readonly tiles?: readonly TileDef[];
  /**
   * Replaces the base game's start tile (the base start tile's copies then all go into the bag):
   * one tile laid at 0,0 (`{ tile, rotation }`), or several tiles with their cells (the City of
   * Carcassonne's 12). Two expansions that both set one cannot be combined, unless one of them
   * gives way ({@link Expansion.startYields}).
   */
  readonly start?:
    | {
        /** Id of the tile kind laid at 0,0 before the first turn (one copy leaves the bag). */
        readonly tile: string;
        /** How it lies: quarter turns clockwise. */
        readonly rotation: Rotation;
      }
    | readonly StartTile[];
  /**
   * With `start`: what becomes of the base game's start tile. `'bag'` (default): its copy is
   * shuffled into the bag with the others (River). `'box'`: it stays in the box, out of the game
   * (the Count of Carcassonne: "startovní kartička ... můžete ji nechat v krabici").
   */
  readonly baseStart?: 'bag' | 'box';
  /**
   * With a one-tile `start`: it gives way to another expansion's `start` (the River's spring to the
   * Count's City; the Count of Carcassonne rules, "Zvláštnosti při hraní hraběte v kombinaci s
   * ostatními rozšířeními", 4: "Po rozložení města se pramen umístí tak, že řeka pramení vedle
   * města Carcassonne"). Alone, it is laid at 0,0 as usual. With an expansion whose start stands,
   * that one's start (and its `baseStart`) is laid, and this tile's copy stays in the bag: when it
   * is the first tile placed (turn 0; the module's `drawFilter` draws it first), its placement is
   * a **set-up placement**: the starting player lays it where it fits (beside the other start),
   * deploys no follower, nothing is scored, and the same player then takes the first turn. The
   * set-up placement counts as a turn in `turn` (turn 0) and ends with `turn-ended`, as an extra
   * turn does. At most one expansion's start may give way to another's.
   */
  readonly startYields?: boolean;
  /** Why the options given to the factory are invalid, or null (checked by `createRuleset`). */
  validate?(): string | null;
  /**
   * The initial state slice `state.ext[id]` (plain JSON: no classes, Map, Set or undefined).
   * Called once by `newGame` (and by every replay), before the start tile is laid. `random(n)`
   * draws a uniform integer in `0..n-1` from the game's seeded generator (The Castle's wall
   * tokens): use it for anything random, so that the seed decides everything.
   */
  setup?(rules: Ruleset, players: number, random: (n: number) => number): unknown;
  /**
   * Which tile kinds may be drawn now: called once per draw, it returns a {@link DrawFilter} (a
   * predicate over tile kinds, or a mask by tile index), or null when it holds nothing back (then
   * the draw takes the fast path). A kind is drawable only if every expansion's filter allows it
   * (River: river tiles first, the lake last; null once the river is done). A mask is read as one
   * array entry per kind where a predicate is a call per kind: prefer it when the answer depends
   * on the kind alone (the River's phases, the held-back dragon tiles).
   */
  drawFilter?(rules: Ruleset, state: Immutable<GameView>): DrawFilter | null;
  /**
   * Which tile kinds `placementError` concerns (default: all). Placements of the others skip the
   * hook entirely, which keeps the fast path for them (River: only river tiles; Shrines: only
   * tiles with a cloister or a shrine).
   */
  placementTiles?(tile: TileDef): boolean;
  /**
   * Why the tile may not lie at `x, y` turned `rotation`, or null if it may. Asked only for
   * placements whose edges already match, when listing legal moves, checking a move and
   * deciding whether a drawn tile fits anywhere. The first non-null answer in hook order is the
   * message of the `place/forbidden` error; an {@link ExpansionError} gives the refusal the
   * expansion's own code instead (`'<id>/<name>'`, which must start with the expansion's id).
   */
  placementError?(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile, x: number, y: number, rotation: Rotation): string | ExpansionError | null;
  /**
   * With `placementError`: true when its answer depends on the cell only, never on the rotation
   * (Shrines: the cells around). Listing placements then asks it once per cell instead of once
   * per matching rotation.
   */
  readonly placementByCell?: boolean;
  /**
   * The only cells where the tile may go now, as packed cell keys (`cellKey`, any order), or null
   * when any open cell may take it. A module whose placement rule leaves a tile very few cells
   * (the River: a river tile continues an open end of the river) names them, and the core looks
   * at those instead of the whole frontier when it lists the tile's placements, checks that a
   * drawn tile fits somewhere and draws a playout's placement. Every cell where `placementError`
   * could allow the tile must be named (a named cell that is not open is skipped). Asked only for
   * the tiles `placementTiles` selects; with several modules naming cells, a cell must be named by
   * each.
   */
  placementCells?(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile): readonly number[] | null;
  /**
   * Why one of the expansion's moves is refused, when it is not among the legal moves: its own
   * code and message (`'<id>/<name>'`), or null for the generic error. Also asked for a move of a
   * player who is not deciding now (null there gives `move/not-your-turn`).
   */
  moveError?(rules: Ruleset, state: Immutable<GameView>, move: Readonly<Record<string, unknown>>): ExpansionError | null;
  /**
   * After a tile is laid and its features merged, before deployment; `tile` is its index in
   * `state.tiles`. Also called for the start tile (index 0) when a game is set up.
   */
  afterPlace?(ctx: HookContext, tile: number): void;
  /**
   * At the start of every turn after the first, before the draw (the fairy's point); not after
   * the last tile, when no turn follows.
   */
  turnStart?(ctx: HookContext): void;
  /**
   * Extra moves offered at the deploy step, next to deploying a follower and passing (a tower
   * piece, the fairy): the expansion's own move types, applied by `play`. The deploy step is
   * offered when a follower can be deployed or any of these exist. Also asked right after the
   * placement (the step is still `place-tile` then) to decide whether to offer the deploy step:
   * the moves belong to `state.active`. Return a new array on every call: the core may keep and
   * extend it.
   */
  deployMoves?(rules: Ruleset, state: Immutable<GameView>): Move[];
  /**
   * How many moves `deployMoves` lists now, without building them (optional, with
   * {@link Expansion.drawDeployMove}; both or neither, and only with `deployMoves`). Random
   * playouts (`Simulator.playout`, the research playouts) then count this module's moves and
   * build only the one they draw: for a module whose deploy step offers many moves (the magic
   * portal: every open feature on the board), most of the step's cost. Must equal
   * `deployMoves(rules, state).length`; also asked right after the placement (is the deploy step offered?).
   */
  countDeployMoves?(rules: Ruleset, state: Immutable<GameView>): number;
  /**
   * The move numbered `i` (`0 <= i < countDeployMoves`) in a numbering of this module's choice that
   * gives each move of `deployMoves` exactly one number, built alone. It need not be the listed
   * order (a random playout draws `i` uniformly, so any numbering is uniform over the moves): the
   * module may number its moves in whatever order it finds them fastest. `legalMoves`, `nthMove`
   * and `playRandom` keep the listed order.
   */
  drawDeployMove?(rules: Ruleset, state: Immutable<GameView>, i: number): Move;
  /**
   * Whether a follower may be deployed this turn at all (all must agree; default yes).
   * `deployMoves` are still offered. To withdraw the other expansions' actions too, see
   * {@link Expansion.claimsAction}.
   */
  deployAllowed?(rules: Ruleset, state: Immutable<GameView>): boolean;
  /**
   * Whether this turn's action belongs to this expansion alone, asked at the deploy step (and
   * right after the placement): the volcano (no action at all), the princess (the removal of a
   * knight, instead of any other action). A claim withdraws the ordinary deployment and every
   * other expansion's `deployMoves` (the moves of the whole turn, such as a ransom, stay);
   * `forced` withdraws passing too, so one of this expansion's `deployMoves` must be played. The
   * claim's `why` is the refusal of what it withdraws. The first claim in hook order wins.
   */
  claimsAction?(rules: Ruleset, state: Immutable<GameView>): ActionClaim | null;
  /**
   * The followers this expansion holds on tiles, off the feature graph (the Tower: the followers
   * on top of towers), one entry per follower. With the board's followers they are "the
   * followers on a tile" (the fairy's tile, the dragon's cell): see `followersOnTile`.
   */
  tileFollowers?(state: Immutable<GameView>): readonly TileFollower[];
  /**
   * Sends every follower this expansion holds on the tile at `x, y` back to its owner's supply,
   * with its own events (the dragon entering a tower's cell). Called by `clearTile`.
   */
  releaseAt?(ctx: HookContext, x: number, y: number): void;
  /**
   * After the turn's action (deploy, pass, an expansion's action, or right after placing when no
   * action was possible), before any scoring. Return `'wait'` after setting one of the
   * expansion's own steps to let players act first (the dragon's flight, players in turn).
   */
  afterAction?(ctx: HookContext): 'wait' | void;
  /**
   * Before the base game scores a completed feature (root segment `root`). Return `'wait'` after
   * setting `state.step` to one of the expansion's own steps to ask players first (the Count's
   * move-out); scoring resumes when the expansion's `play` returns `'done'`.
   */
  beforeScoring?(ctx: HookContext, root: number): 'wait' | void;
  /**
   * Before each completed feature of the turn is scored (before its `beforeScoring` hooks), with
   * `state.flow.roots` listing the features still to score: the hook may reorder that list in
   * place (the first entry is scored next), or set one of its own steps and return `'wait'` to let
   * a player choose (The Castle: the placing player orders the scorings); after its `play`
   * returns `'done'`, the first entry of `state.flow.roots` is scored.
   */
  scoringOrder?(ctx: HookContext): 'wait' | void;
  /**
   * At the end of a turn in which the tile completed features, after the base game scored them
   * all and returned their followers, before the next player draws. `ctx.state.active` is still
   * the player who placed the tile. Not called in a turn that completed nothing. May return
   * `'wait'` after setting one of the expansion's own steps.
   */
  afterScoring?(ctx: HookContext, completed: readonly CompletedFeature[]): 'wait' | void;
  /**
   * At the end of every turn, after all its scoring, before the turn passes (also after the last
   * tile). May return `'wait'` after setting one of its own steps (The Castle: the extra turn of
   * wall token 1); `state.flow` is null while it runs.
   */
  beforeTurnEnd?(ctx: HookContext): 'wait' | void;
  /**
   * Who plays next, when not the next player in seat order (an extra turn): asked once as each
   * turn passes; the first hook in hook order that returns a player wins, `null` keeps the seat
   * order.
   */
  nextPlayer?(rules: Ruleset, state: Immutable<GameView>): number | null;
  /**
   * The legal moves at one of the expansion's own steps (`state.step.kind` starts with
   * `'<id>/'`), in canonical order. A move of the expansion is legal exactly when it is listed.
   */
  stepMoves?(rules: Ruleset, state: Immutable<GameView>): Move[];
  /**
   * Plays one of the expansion's moves (already checked to be listed). Return `'wait'` after
   * setting the expansion's next step, or `'done'` to let the turn go on.
   */
  play?(ctx: HookContext, move: ExpansionMove): 'wait' | 'done';
  /**
   * Once the bag is empty, before any final scoring. Return `'wait'` after setting one of the
   * expansion's own steps to ask players first (the Count's market round: followers moved onto
   * fields before fields are scored); the end of the game resumes when its `play` returns `'done'`.
   * Not run by `projectedScores`.
   */
  beforeFinalScoring?(ctx: HookContext): 'wait' | void;
  /**
   * Once the bag is empty, after the base game's final scoring, before the winners are decided.
   * Also run by `projectedScores` on a copy (`emit` null), which may be an observation: the slice
   * is then what `observe` left of it.
   */
  finalScoring?(ctx: HookContext): void;
  /**
   * True when `finalScoring` changes nothing but `state.scores`, and only by adding to it (no
   * follower moved, no slice written): with a game module that says the same, `projectedScores`
   * runs the final scorings on the state itself with a fresh `scores` array instead of on a whole
   * copy. Unset means the copy, which is always right. Not part of the ruleset id (it changes no
   * rule).
   */
  readonly finalScoringAddsOnly?: boolean;
  /**
   * Followers this expansion holds off the board, per player (in the Count's quarters, on tower
   * tops, as prisoners): with `supply` and `state.followers` they account for every follower
   * (`offBoardFollowers` sums them over the expansions).
   */
  followersHeld?(state: Immutable<GameView>): readonly number[];
  /**
   * Moves offered at every step of the active player's own turn (the Tower's ransom), next to the
   * step's own moves (before `pass` at the deploy step, after the others elsewhere). They are
   * applied by `play`, which must leave `state.step` as it is and return `'done'`. Return a new
   * array on every call: the core may hand it on as a list of legal moves.
   */
  turnMoves?(rules: Ruleset, state: Immutable<GameView>): Move[];
  /**
   * What a viewer (a player, or null for a spectator) may see of the slice, called by `observe`
   * on a copy of it (default: all of it).
   */
  observe?(slice: unknown, viewer: number | null): unknown;
  /**
   * The module's part of `publicView`, from its observed slice (what `observe` left of it) and
   * the observation it belongs to: the slice with internal indexes (feature segments, tile
   * indexes) replaced by what a UI reads, cells and feature ids as moves name them. Default: the
   * observed slice as it is. Plain JSON, a new object (the slice is the observation's own).
   */
  viewPart?(rules: Ruleset, view: Immutable<GameView>, slice: unknown): unknown;
  /**
   * Explicit chance for a module that hides part of its own state behind an `observe` hook (The
   * Castle: the face-down wall tokens), for `meeplekit/ai`: what the seed fixed in advance and no
   * player has seen is forgotten (`conceal`) and decided only when it comes to light, at a chance
   * node of the module's own (a step `'<id>/<name>'` whose `player` is -1); `redraw` makes up
   * every unknown consistently with what is public (determinization, and playouts). The app API
   * never meets a concealed state: its states keep what the seed drew.
   */
  readonly chance?: ModuleChance;
  /**
   * Public features of the module's own state for the observation tensors of `meeplekit/ai`,
   * appended to the vector in hook order (The Castle: the tokens each player holds, the keeps,
   * the tokens taken so far). Only what every player sees may be written: `view` is the
   * observer's own `observe` view. Per-player entries go observer first, then in seat order.
   */
  readonly observation?: {
    /** The entries' names, for `players` players (their number fixes the module's share of the vector). */
    features(players: number): readonly string[];
    /** Writes the entries for `observer` into `out` from `offset` on (they are zero beforehand). */
    write(rules: Ruleset, view: Immutable<GameView>, observer: number, out: Float32Array, offset: number): void;
  };
  /**
   * Its part of the integer action encoding of `meeplekit/ai`: required of every module with
   * moves of its own (`stepMoves`, `deployMoves`, `turnMoves`), left out by the others. Each module with a
   * codec gets a block of `size(window)` consecutive action ids, after the core's placement and
   * follower blocks and before `pass`, in hook order; its local ids `0 .. size - 1` are what
   * `encode` returns and `decode` reads. `window` is the placement window (x and y of its
   * north-west cell, width, height): a move that names a board cell can use the cell's index
   * `(y - window.y) * window.width + (x - window.x)`. Any change to this module's ids must
   * bump `version` (it is part of the ruleset's encoding version). docs/ai.md has a worked example.
   */
  readonly actions?: {
    /** Version of this module's part of the encoding (a positive integer). */
    readonly version: number;
    /**
     * The placement window, for a game's own rules module on a bounded board (The Castle: the
     * bounding box of its play area). Without it, the window is derived from the tile count.
     */
    readonly window?: Readonly<Record<'x' | 'y' | 'width' | 'height', number>>;
    /** How many action ids the module needs (the same for every state of a game). */
    size(window: Readonly<Record<'x' | 'y' | 'width' | 'height', number>>): number;
    /** Most moves of this module in one game of `players` players (an upper bound, for `maxGameLength`). */
    maxMoves(players: number): number;
    /** The local id of one of the module's moves (a legal one: `0 <= id < size`), or -1 if it has none. */
    encode(rules: Ruleset, state: Immutable<GameView>, move: ExpansionMove, window: Readonly<Record<'x' | 'y' | 'width' | 'height', number>>): number;
    /**
     * The module's move with local id `id` at this state (its `player` is the step's decider), or
     * null when the id names no move of the module here. The caller checks legality.
     */
    decode(rules: Ruleset, state: Immutable<GameView>, id: number, window: Readonly<Record<'x' | 'y' | 'width' | 'height', number>>): ExpansionMove | null;
  };
  /**
   * The module's share of the score bounds of `meeplekit/ai`'s `gameInfo(rules, players).utility.score`:
   * `max`, the most points its own hooks and moves can ever give one player in one game of
   * `players` players (all its `scored` events with positive points, summed), and `min`, the most
   * they can ever take away from one (its negative points summed: 0 or less). Points the base
   * game awards for the module's tiles and kinds are the base game's share (its bound reads
   * `rules.tiles`), not the module's. Derive it from the rules and `rules` (tile counts, player
   * count), soundly: a loose bound is right, a tight one that a game can exceed is a bug. A module
   * that awards no points returns `{ min: 0, max: 0 }`; without this member the bounds of any
   * ruleset with the module are unknown (`-Infinity`, `Infinity`).
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

/** A follower an expansion holds on a tile, off the feature graph: see {@link Expansion.tileFollowers}. */
export interface TileFollower {
  /** Column of the tile. */
  readonly x: number;
  /** Row of the tile. */
  readonly y: number;
  /** Owner. */
  readonly player: number;
}

/** A claim on the turn's action: see {@link Expansion.claimsAction}. */
export interface ActionClaim {
  /** Whether passing is withdrawn too (one of the claiming expansion's `deployMoves` must be played). */
  readonly forced: boolean;
  /** The refusal of a follower deployment, of another expansion's action, and (when forced) of passing. */
  readonly why: ExpansionError;
}

/**
 * What a `drawFilter` answers when it holds tiles back: a predicate over tile kinds (true: may be
 * drawn), or a mask by tile index in the ruleset's catalogue (`mask[tile.index]`: 1 may be drawn,
 * 0 held back; one entry per tile kind), which the draw reads without a call per kind. A mask is
 * read, never written: a module may hand out the same one at every draw.
 */
export type DrawFilter = ((tile: CompiledTile) => boolean) | Readonly<Uint8Array>;
