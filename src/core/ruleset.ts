/**
 * A Ruleset is compiled once from a base game (and, later, expansions): tile catalogue with
 * lookup tables, kind traits, player limits. It holds functions and typed arrays and is never
 * serialized; states refer to it by `id`.
 */
import type { GameModule } from './game.js';
import { Immer } from 'immer';
import { compileTile, type CompiledTile } from './tiles.js';

/** Options accepted by `createRuleset`. */
export interface RulesetOptions {
  /** Which base game. */
  readonly game: 'classic';
  /** Expansion modules to switch on (none are available yet; any given is rejected). */
  readonly expansions?: readonly string[];
}

/** Compiled rules for one game and combination of expansions. Create with `createRuleset`. */
export interface Ruleset {
  /** Stable id naming game and options (`classic`); stored in every state. */
  readonly id: string;
  /** The options the ruleset was created from (for replays). */
  readonly options: RulesetOptions;
  /** The base game module. @internal */
  readonly game: GameModule;
  /** Compiled tile kinds, in catalogue order (the order of `GameState.bag`). @internal */
  readonly tiles: readonly CompiledTile[];
  /** Tile kind index by id. @internal */
  readonly tileIndex: Readonly<Record<string, number>>;
  /** Per feature kind: whether features of it track their tiles. @internal */
  readonly tracksTiles: readonly boolean[];
  /** Per feature kind: whether followers may be deployed on it. @internal */
  readonly deployable: readonly boolean[];
  /** Feature kind names, by kind index. */
  readonly kindNames: readonly string[];
  /** Fewest players allowed. */
  readonly minPlayers: number;
  /** Most players allowed. */
  readonly maxPlayers: number;
  /** Followers each player starts with. */
  readonly followers: number;
  /** Number of tiles in the game, start tile included. */
  readonly tileCount: number;
  /** This ruleset's own immer instance (auto-freezing): no module-level state. @internal */
  readonly immer: Immer;
}

/** Compiles a game module into a Ruleset. @internal */
export function compileRuleset(game: GameModule, options: RulesetOptions, id: string): Ruleset {
  const tiles = game.tiles.map((t, i) => compileTile(t, i, game.kinds));
  const tileIndex: Record<string, number> = {};
  tiles.forEach((t) => (tileIndex[t.def.id] = t.index));
  return Object.freeze({
    id,
    options,
    game,
    tiles,
    tileIndex,
    tracksTiles: game.kinds.map((k) => k.tracksTiles),
    deployable: game.kinds.map((k) => game.deployable.includes(k.name)),
    kindNames: game.kinds.map((k) => k.name),
    minPlayers: game.minPlayers,
    maxPlayers: game.maxPlayers,
    followers: game.followers,
    tileCount: game.tiles.reduce((n, t) => n + t.count, 0),
    immer: new Immer({ autoFreeze: true }),
  });
}
