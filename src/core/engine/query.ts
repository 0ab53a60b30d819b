/**
 * Questions a UI asks: which feature lies under a tile or port, who stands on it, what it is
 * worth; and what the scores would be if the game ended now.
 */
import { meepleError, type MeepleError } from '../errors.js';
import { featureTiles, findRoot } from '../features.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset } from '../ruleset.js';
import { cellKey, type GameState, type GameView } from '../state.js';
import { PORTS, type Cell, type Immutable, type Port } from '../types.js';
import { cloneState } from './clone.js';
import { tileAt } from '../board.js';
import { followersOn, majority } from './scoring.js';

/** Which feature to look up: a tile's local feature id, or one of its edge ports as it lies on the board. */
export type FeatureQuery =
  | {
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
      /** Local feature id on that tile (`c1`, `m1`). */
      readonly feature: string;
    }
  | {
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
      /** Board port (after rotation): `N2` is the middle of the tile's northern edge as seen on the board. */
      readonly port: Port;
    };

/** A follower, located. */
export interface FollowerInfo {
  /** Owner. */
  readonly player: number;
  /** Column of its tile. */
  readonly x: number;
  /** Row of its tile. */
  readonly y: number;
  /** Local feature id it stands on. */
  readonly feature: string;
}

/** A whole connected feature. */
export interface FeatureInfo {
  /** Feature kind (`city`, `road`, `field`, `cloister`). */
  readonly kind: string;
  /** Whether it is complete. */
  readonly complete: boolean;
  /** The distinct tiles it spans, in placement order (a cloister: its own tile). */
  readonly tiles: readonly Cell[];
  /** Unmatched ports (port features) or empty surrounding cells (cloisters); 0 when complete. */
  readonly open: number;
  /** Pennants in it. */
  readonly pennants: number;
  /** Followers on it, in deployment order. */
  readonly followers: readonly FollowerInfo[];
  /** Followers per player. */
  readonly counts: readonly number[];
  /** Players holding the majority (none if it has no follower). */
  readonly majority: readonly number[];
}

/**
 * The feature under a tile's local feature or board port, with its followers.
 *
 * Errors: `query/no-tile` (no tile at `x, y`), `query/no-feature` (no such local id or port).
 *
 * @example
 * ```ts
 * import { createRuleset, featureAt, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'query' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const f = featureAt(rules.value, game.value, { x: 0, y: 0, port: 'N2' }); // the start tile's city
 * if (f.ok) console.log(f.value.kind, f.value.complete, f.value.open); // city false 3
 * ```
 */
export function featureAt(rules: Ruleset, state: Immutable<GameView>, query: FeatureQuery): Result<FeatureInfo, MeepleError> {
  if (state.ruleset !== rules.id) {
    return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  }
  const q = query as unknown as Record<string, unknown>;
  if (typeof q !== 'object' || q === null || !Number.isInteger(q['x']) || !Number.isInteger(q['y'])) {
    return err(meepleError('query/no-tile', 'a feature query needs integer x and y'));
  }
  const x = q['x'] as number;
  const y = q['y'] as number;
  // `cells` is a hash table of occupied cell keys: look the key up (tileAt), never index by it.
  const index = Math.abs(x) < 500 && Math.abs(y) < 500 ? tileAt(state, cellKey(x, y)) : -1;
  if (index < 0) return err(meepleError('query/no-tile', `no tile at ${x},${y}`));
  const placed = state.tiles[index]!;
  const tile = rules.tiles[placed.kind]!;
  let local = -1;
  if (typeof q['feature'] === 'string') {
    local = Object.hasOwn(tile.localIndex, q['feature']) ? tile.localIndex[q['feature']]! : -1;
  } else if (typeof q['port'] === 'string' && (PORTS as readonly string[]).includes(q['port'])) {
    local = tile.portFeature[placed.rotation * 12 + PORTS.indexOf(q['port'] as Port)]!;
  }
  if (local < 0) return err(meepleError('query/no-feature', `tile ${placed.id} at ${x},${y} has no such feature or port`));
  const g = state.features;
  const root = findRoot(g.parent, placed.node + local);
  const kindDef = rules.kinds[g.kind[root]!]!;
  const tiles = kindDef.completion === 'surroundings' ? [g.tile[root]!] : featureTiles(g, root);
  const followers: FollowerInfo[] = [];
  for (const f of state.followers) {
    const t = state.tiles[f.tile]!;
    if (findRoot(g.parent, t.node + f.local) === root) {
      followers.push({ player: f.player, x: t.x, y: t.y, feature: rules.tiles[t.kind]!.def.features[f.local]!.id });
    }
  }
  return ok({
    kind: kindDef.name,
    complete: kindDef.completion !== 'never' && g.open[root] === 0,
    tiles: tiles.map((t) => ({ x: state.tiles[t]!.x, y: state.tiles[t]!.y })),
    open: g.open[root]!,
    pennants: g.pennants[root]!,
    followers,
    counts: followersOn(state, root),
    majority: majority(state, root),
  });
}

/** Throws if a state was made with other rules. @internal */
export function assertRuleset(rules: Ruleset, state: Immutable<GameView>): void {
  if (state.ruleset !== rules.id) {
    throw new TypeError(`meeplekit: this state belongs to ruleset '${state.ruleset}', not '${rules.id}'`);
  }
}

/**
 * The scores if the game ended now: current scores plus the final scoring of every incomplete
 * feature and every field. Equal to the final scores once the game is over. Accepts a state or
 * an observation.
 *
 * @throws TypeError if the state was made with other rules (a caller's bug, not bad input).
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, projectedScores } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 3, seed: 'preview' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(projectedScores(rules.value, game.value)); // [ 0, 0, 0 ]: nobody has a follower yet
 * ```
 */
export function projectedScores(rules: Ruleset, state: Immutable<GameView>): number[] {
  assertRuleset(rules, state);
  if (state.step.kind === 'game-over') return [...state.scores];
  // Final scoring draws nothing: an observation's missing seed and generator are not needed. When
  // every final scoring only adds points, it runs on the state itself with scores of its own.
  const s = rules.finalScoringAddsOnly ? ({ ...state, scores: [...state.scores] } as GameState) : cloneState({ ...state, seed: '', rng: [] });
  const ctx = { rules, state: s, emit: null };
  rules.game.finalScoring(ctx);
  // The expansions' final scoring too (the King's and the Robber Baron's points), on the copy.
  for (const h of rules.hooks.finalScoring) h(ctx);
  return s.scores;
}

/**
 * Followers held off the board by the expansions, per player (in the Count's quarters, on tower
 * tops, as prisoners). With `state.supply` and `state.followers` they account for every
 * follower of every player.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, offBoardFollowers } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'held' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(offBoardFollowers(rules.value, game.value)); // [ 0, 0 ]
 * ```
 */
export function offBoardFollowers(rules: Ruleset, state: Immutable<GameView>): number[] {
  const out = new Array<number>(state.players).fill(0);
  for (const e of rules.expansions) {
    if (e.followersHeld === undefined) continue;
    const held = e.followersHeld(state);
    for (let p = 0; p < out.length; p++) out[p]! += held[p] ?? 0;
  }
  return out;
}
