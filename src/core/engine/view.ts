/**
 * The public view: what a UI shows of a game, for one viewer, in a documented and versioned
 * shape that needs no knowledge of the engine's internals (no packed cell keys, hash tables,
 * union-find arrays or edge bitmasks), and with nothing secret in it. It is built from
 * {@link observe}'s output, so it can never show more than an observation does.
 */
import { meepleError, type MeepleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset } from '../ruleset.js';
import type { ExpansionStep, GameState, GameView, Move } from '../state.js';
import type { Immutable, Rotation } from '../types.js';
import { observe, type Observation } from './observe.js';
import { offBoardFollowers } from './query.js';

/**
 * The version of the {@link PublicView} format, carried by every view and every
 * {@link ViewDelta}. It changes whenever a field changes meaning, is renamed or is removed (adding
 * a field is not a change a reader must know about), so a client can refuse a view it was not
 * written for.
 */
export const PUBLIC_VIEW_VERSION = 1;

/** A tile on the board, as a UI draws it. */
export interface ViewTile {
  /** Column (east is +x). */
  readonly x: number;
  /** Row (south is +y). */
  readonly y: number;
  /**
   * Tile kind id (`'D'`; `tileDefs(rules)` describes each kind). The Castle's start fields are
   * tiles too, outside the wall, with ids starting with `@`.
   */
  readonly tile: string;
  /** Quarter turns clockwise. */
  readonly rotation: Rotation;
}

/** A follower on the board, named as moves name features: its tile's cell and the feature's local id. */
export interface ViewFollower {
  /** Owner. */
  readonly player: number;
  /** Column of its tile. */
  readonly x: number;
  /** Row of its tile. */
  readonly y: number;
  /** Local feature id on that tile (`'c1'`, `'r2'`, `'m1'`), as in a `deploy` move. */
  readonly feature: string;
}

/** The tiles still to come, as every player may know them: copies left per kind, never an order. */
export interface ViewBag {
  /** Tiles left in the bag (the drawn tile of a place step is no longer in it). */
  readonly total: number;
  /** Copies left per tile kind id, in catalogue order; kinds with none left are left out. */
  readonly counts: Readonly<Record<string, number>>;
}

/** Place the drawn tile: the step names the tile, which is public as at the table. */
export interface ViewPlaceStep {
  /** Discriminant. */
  readonly kind: 'place-tile';
  /** Who decides. */
  readonly player: number;
  /** The drawn tile's kind id. */
  readonly tile: string;
}

/** Deploy a follower on the tile just placed (or another action a module offers), or pass. */
export interface ViewDeployStep {
  /** Discriminant. */
  readonly kind: 'deploy';
  /** Who decides. */
  readonly player: number;
  /** The kind id of the tile just placed. */
  readonly tile: string;
  /** Its column. */
  readonly x: number;
  /** Its row. */
  readonly y: number;
}

/** The game is over. */
export interface ViewGameOverStep {
  /** Discriminant. */
  readonly kind: 'game-over';
  /** Players with the highest score (ties share the victory). */
  readonly winners: readonly number[];
}

/**
 * The decision the game waits for. A module's own step (`'<module id>/<name>'`) is shown as the
 * module sets it (its fields are documented with the module).
 */
export type ViewStep = ViewPlaceStep | ViewDeployStep | ViewGameOverStep | ExpansionStep;

/**
 * What one viewer (a player, or a spectator) may see of a game, in a documented shape a UI can
 * read without knowing the engine: the board as `{ x, y, tile, rotation }`, followers by cell
 * and feature id, scores, supplies, the bag as counts, the step, the last move and each module's
 * public part. Plain JSON (it survives `JSON.stringify` unchanged), built fresh by
 * {@link publicView}; treat it as read-only. Send it, or {@link ViewDelta}s, to clients: it holds
 * no seed, no random generator state and nothing a module hides.
 *
 * Its key order is fixed, so two equal views are equal byte for byte as JSON.
 */
export interface PublicView {
  /** {@link PUBLIC_VIEW_VERSION} when the view was made. */
  readonly version: number;
  /** The ruleset's id (`createRuleset(...).value.id`): a view belongs to one ruleset. */
  readonly ruleset: string;
  /** Who looks: a player index, or `null` for a spectator. */
  readonly viewer: number | null;
  /** How many moves have been played: each move makes the next view, and deltas go from one `seq` to another. */
  readonly seq: number;
  /** Number of players. */
  readonly players: number;
  /** Turns completed. */
  readonly turn: number;
  /** Whose turn it is (a module's step may be decided by another player: see `step.player`). */
  readonly active: number;
  /** The decision the game waits for, and who takes it. */
  readonly step: ViewStep;
  /** Scores per player. */
  readonly scores: readonly number[];
  /** Followers in supply per player. */
  readonly supply: readonly number[];
  /**
   * Followers per player held off the board by modules (in the Count's quarters, on tower tops,
   * as prisoners); with `supply` and `followers` they account for every follower.
   */
  readonly held: readonly number[];
  /** The placed tiles, in order of placement (the last one is the tile just placed). */
  readonly tiles: readonly ViewTile[];
  /** The followers on the board's features, in order of deployment. */
  readonly followers: readonly ViewFollower[];
  /** The tiles still in the bag. */
  readonly bag: ViewBag;
  /** Tiles removed from the game because they fitted nowhere: copies per kind id, in catalogue order; empty when none. */
  readonly discarded: Readonly<Record<string, number>>;
  /** The last move played (moves are public, and name their player), or null before the first. */
  readonly last: Move | null;
  /**
   * Each module's public part by module id (The Castle's own rules under `castle`, then the
   * expansions in hook order): its state slice as its `observe` hook shows it to this viewer
   * (The Castle's face-down wall tokens are -1). Fields are documented with each module.
   */
  readonly modules: Readonly<Record<string, unknown>>;
  /**
   * The viewer's {@link Observation}, only when asked for (`{ observation: true }`): what a client
   * needs to run `legalMoves`, `featureAt`, `whyIllegal` and `projectedScores` itself, without
   * asking the server. Much larger than the rest of the view, and engine-shaped.
   */
  readonly observation?: Observation;
}

/** Options of {@link publicView}. */
export interface PublicViewOptions {
  /**
   * Also carry the viewer's {@link Observation} (`view.observation`), so that a client can list
   * legal moves and query features from what it holds. Default false.
   */
  readonly observation?: boolean;
}

/** Copies per kind id, in catalogue order, of the kinds with at least one. */
function countsById(rules: Ruleset, counts: readonly number[]): { total: number; byId: Record<string, number> } {
  const byId: Record<string, number> = {};
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]!;
    if (n <= 0) continue;
    total += n;
    // defineProperty: a tile id is data, never a setter (`__proto__`).
    Object.defineProperty(byId, rules.tiles[i]!.def.id, { value: n, enumerable: true, writable: true, configurable: true });
  }
  return { total, byId };
}

/** The step as the view shows it (fresh objects). */
function viewStep(obs: Observation): ViewStep {
  const step = obs.step;
  switch (step.kind) {
    case 'place-tile':
      return { kind: 'place-tile', player: step.player, tile: (step as { tile: string }).tile };
    case 'deploy': {
      const placed = obs.tiles[obs.tiles.length - 1]!;
      return { kind: 'deploy', player: step.player, tile: placed.id, x: placed.x, y: placed.y };
    }
    case 'game-over':
      return { kind: 'game-over', winners: [...(step as { winners: readonly number[] }).winners] };
    default:
      // A module's step, as the module set it (a copy: the observation may ride along).
      return JSON.parse(JSON.stringify(step)) as ExpansionStep;
  }
}

/**
 * What `viewer` (a player index, or `null` for a spectator) may see of a game, as a
 * {@link PublicView}: the documented shape for UIs and for sending to clients. It is made from
 * {@link observe}'s output, so it holds nothing an observation hides (no seed, no random
 * generator, no face-down token), and it is the same for two states that differ only in what
 * the viewer may not see. Every call builds fresh plain objects; the state is not changed.
 *
 * With `{ observation: true }` the view also carries the viewer's observation, which is what
 * `legalMoves`, `featureAt`, `whyIllegal` and `projectedScores` read on a client.
 *
 * After each move, send each client a {@link ViewDelta} (`viewDelta`) instead of a whole view.
 *
 * Errors: `state/ruleset-mismatch` (the state was made with other rules), `view/bad-viewer`
 * (`viewer` is neither `null` nor a player of the game), `state/malformed` (not a state).
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, publicView } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'table-9' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const view = publicView(rules.value, game.value, 0);
 * if (!view.ok) throw new Error(view.error.message);
 * console.log(view.value.step.kind, view.value.tiles[0], view.value.bag.total);
 * // place-tile { x: 0, y: 0, tile: 'D', rotation: 0 } 70
 * ```
 */
export function publicView(
  rules: Ruleset,
  state: Immutable<GameView>,
  viewer: number | null,
  options: PublicViewOptions = {},
): Result<PublicView, MeepleError> {
  if (typeof state !== 'object' || state === null || typeof state.ruleset !== 'string' || !Array.isArray(state.tiles)) {
    return err(meepleError('state/malformed', 'publicView needs a game state (or an observation of one)'));
  }
  if (state.ruleset !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  }
  if (viewer !== null && !(Number.isInteger(viewer) && viewer >= 0 && viewer < state.players)) {
    return err(meepleError('view/bad-viewer', `a viewer is a player from 0 to ${state.players - 1}, or null for a spectator; got ${String(viewer)}`));
  }
  // observe drops the seed and the generator and applies every module's observe hook: all the
  // view shows is read from this copy, so it cannot show more than an observation. (An
  // observation given as input has no seed either; the hooks only ever hide more.)
  const obs = observe(rules, state as unknown as Immutable<GameState>, viewer);
  const tiles: ViewTile[] = obs.tiles.map((t) => ({ x: t.x, y: t.y, tile: t.id, rotation: t.rotation }));
  const followers: ViewFollower[] = obs.followers.map((f) => {
    const t = obs.tiles[f.tile]!;
    return { player: f.player, x: t.x, y: t.y, feature: rules.tiles[t.kind]!.def.features[f.local]!.id };
  });
  const bag = countsById(rules, obs.bag);
  const view: PublicView = {
    version: PUBLIC_VIEW_VERSION,
    ruleset: obs.ruleset,
    viewer,
    seq: obs.moves.length,
    players: obs.players,
    turn: obs.turn,
    active: obs.active,
    step: viewStep(obs),
    scores: [...obs.scores],
    supply: [...obs.supply],
    held: offBoardFollowers(rules, obs),
    tiles,
    followers,
    bag: { total: bag.total, counts: bag.byId },
    discarded: countsById(rules, obs.discarded).byId,
    last: obs.moves.length === 0 ? null : (JSON.parse(JSON.stringify(obs.moves[obs.moves.length - 1])) as Move),
    // A copy of its own when the observation rides along: no object is reachable twice.
    modules: moduleParts(rules, obs, options.observation === true),
  };
  return ok(options.observation === true ? { ...view, observation: obs } : view);
}

/**
 * Each module's part of the view: its observed slice, shaped for UIs by its `viewPart` hook when
 * it has one (The Castle names keeps and chosen features by cell and feature id). A copy of its
 * own when the observation rides along, so that no object is reachable twice.
 */
function moduleParts(rules: Ruleset, obs: Observation, copy: boolean): Record<string, unknown> {
  const hooks = rules.expansions.filter((e) => e.viewPart !== undefined && Object.hasOwn(obs.ext, e.id));
  if (hooks.length === 0) return copy ? (JSON.parse(JSON.stringify(obs.ext)) as Record<string, unknown>) : obs.ext;
  const out: Record<string, unknown> = copy ? (JSON.parse(JSON.stringify(obs.ext)) as Record<string, unknown>) : { ...obs.ext };
  for (const e of hooks) out[e.id] = e.viewPart!(rules, obs as unknown as Immutable<GameView>, JSON.parse(JSON.stringify(obs.ext[e.id])) as unknown);
  return out;
}
