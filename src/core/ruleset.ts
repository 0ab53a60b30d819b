/**
 * A Ruleset is compiled once from a base game and a list of expansions: tile catalogue with
 * lookup tables, kind traits, hooks in their fixed order, player limits. It holds functions and
 * typed arrays and is never serialized; states refer to it by `id`.
 */
import { Immer } from 'immer';
import type { CompiledHooks, Expansion } from './expansion.js';
import type { GameModule } from './game.js';
import { compileTile, type CompiledTile, type FeatureKindDef } from './tiles.js';
import type { Rotation } from './types.js';

/** An expansion as recorded in ruleset options and replays: its id and its options. */
export interface ExpansionRef {
  /** Expansion id. */
  readonly id: string;
  /** Its options (plain JSON). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** Options accepted by `createRuleset`. */
export interface RulesetOptions {
  /** Which base game. */
  readonly game: 'classic';
  /**
   * Expansion modules to switch on, made by their factories (`river()` from
   * `meeplekit/expansions/river`, ...), in any order.
   */
  readonly expansions?: readonly Expansion[];
}

/** Ruleset options as JSON (expansions by id and options): what replays record. */
export interface RulesetSpec {
  /** Which base game. */
  readonly game: string;
  /** Expansions by id and options, in hook order. */
  readonly expansions: readonly ExpansionRef[];
}

/** Compiled rules for one game and combination of expansions. Create with `createRuleset`. */
export interface Ruleset {
  /** Stable id naming game, expansions and their options (`classic`, `classic+river{"set":"I"}`); stored in every state. */
  readonly id: string;
  /** The game and expansions as JSON (for replays). */
  readonly options: RulesetSpec;
  /** The base game module. @internal */
  readonly game: GameModule;
  /** The expansions, in hook order. @internal */
  readonly expansions: readonly Expansion[];
  /** Hooks by kind, in hook order. @internal */
  readonly hooks: CompiledHooks;
  /** All feature kinds: the game's, then each expansion's. @internal */
  readonly kinds: readonly FeatureKindDef[];
  /** Compiled tile kinds, in catalogue order (the order of `GameState.bag`). @internal */
  readonly tiles: readonly CompiledTile[];
  /** Tile kind index by id. @internal */
  readonly tileIndex: Readonly<Record<string, number>>;
  /** The start tile and how it lies at 0,0. @internal */
  readonly start: { readonly tile: string; readonly rotation: Rotation };
  /** Per feature kind: whether features of it track their tiles. @internal */
  readonly tracksTiles: readonly boolean[];
  /** Per feature kind: whether followers may be deployed on it. @internal */
  readonly deployable: readonly boolean[];
  /** Per feature kind: how the base game values it (`scoring`, else the kind's name). @internal */
  readonly kindScoring: readonly string[];
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

function hookList<K extends Exclude<keyof CompiledHooks, 'placementByTile'>>(expansions: readonly Expansion[], key: K): CompiledHooks[K] {
  const out: unknown[] = [];
  for (const e of expansions) {
    const h = e[key];
    if (typeof h === 'function') out.push((h as (...a: never[]) => unknown).bind(e));
  }
  return out as unknown as CompiledHooks[K];
}

/** JSON with object keys sorted, so that equal options always give the same ruleset id. @internal */
export function canonicalJson(v: unknown): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const rec = v as Record<string, unknown>;
  return `{${Object.keys(rec)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(rec[k])}`)
    .join(',')}}`;
}

/** Compiles a game module and expansions (validated, in hook order) into a Ruleset. @internal */
export function compileRuleset(game: GameModule, expansions: readonly Expansion[]): Ruleset {
  const kinds = [...game.kinds, ...expansions.flatMap((e) => e.kinds ?? [])];
  const defs = [...game.tiles, ...expansions.flatMap((e) => e.tiles ?? [])];
  const tiles = defs.map((t, i) => compileTile(t, i, kinds));
  const tileIndex: Record<string, number> = {};
  tiles.forEach((t) => (tileIndex[t.def.id] = t.index));
  const deployable = new Set([...game.deployable, ...expansions.flatMap((e) => e.deployable ?? [])]);
  let start = game.start;
  for (const e of expansions) if (e.start !== undefined) start = e.start;
  const refs = expansions.map((e) => ({ id: e.id, options: e.options }));
  const id = [game.game, ...refs.map((r) => (Object.keys(r.options).length === 0 ? r.id : `${r.id}${canonicalJson(r.options)}`))].join('+');
  return Object.freeze({
    id,
    options: { game: game.game, expansions: refs },
    game,
    expansions,
    hooks: {
      turnStart: hookList(expansions, 'turnStart'),
      deployMoves: hookList(expansions, 'deployMoves'),
      beforeScoring: hookList(expansions, 'beforeScoring'),
      deployAllowed: hookList(expansions, 'deployAllowed'),
      afterAction: hookList(expansions, 'afterAction'),
      beforeFinalScoring: hookList(expansions, 'beforeFinalScoring'),
      drawFilter: hookList(expansions, 'drawFilter'),
      placementError: hookList(expansions, 'placementError'),
      placementByTile: tiles.map((t) =>
        expansions
          .filter((e) => e.placementError !== undefined && (e.placementTiles === undefined || e.placementTiles(t.def)))
          .map((e) => e.placementError!.bind(e)),
      ),
      afterPlace: hookList(expansions, 'afterPlace'),
      afterScoring: hookList(expansions, 'afterScoring'),
      finalScoring: hookList(expansions, 'finalScoring'),
    },
    kinds,
    tiles,
    tileIndex,
    start,
    tracksTiles: kinds.map((k) => k.tracksTiles),
    deployable: kinds.map((k) => deployable.has(k.name)),
    kindScoring: kinds.map((k) => k.scoring ?? k.name),
    kindNames: kinds.map((k) => k.name),
    minPlayers: game.minPlayers,
    // Classic: 2 to 5 players, 6 where an expansion allows it.
    maxPlayers: Math.max(game.maxPlayers, ...expansions.map((e) => e.maxPlayers ?? 0)),
    followers: game.followers,
    tileCount: defs.reduce((n, t) => n + t.count, 0),
    immer: new Immer({ autoFreeze: true }),
  });
}
