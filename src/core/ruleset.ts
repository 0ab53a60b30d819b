/**
 * A Ruleset is compiled once from a base game and a list of expansions: tile catalogue with
 * lookup tables, kind traits, hooks in their fixed order, player limits. It holds functions and
 * typed arrays and is never serialized; states refer to it by `id`.
 */
import { Immer } from 'immer';
import type { Expansion } from './expansion.js';
import type { CompiledHooks, ListedHook } from './compiled-hooks.js';
import type { BaseGame, GameModule, StartTile } from './game.js';
import type { ExpansionMove } from './state.js';
import { compileTile, type CompiledTile, type FeatureKindDef } from './tiles.js';

/** An expansion as recorded in ruleset options and replays: its id and its options. */
export interface ExpansionRef {
  /** Expansion id. */
  readonly id: string;
  /** Its options (plain JSON). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** Options accepted by `createRuleset`. */
export interface RulesetOptions {
  /**
   * Which base game: `'classic'`, or a game module made by its factory (`castle(options)` from
   * `meeplekit/games/castle`, `classic()` from `meeplekit/games/classic`).
   */
  readonly game: 'classic' | BaseGame;
  /** Classic has no options: leave this out (a game module carries its own options). */
  readonly options?: Readonly<Record<string, never>>;
  /**
   * Expansion modules to switch on, made by their factories (`river()` from
   * `meeplekit/expansions/river`, ...), in any order.
   */
  readonly expansions?: readonly Expansion[];
}

/**
 * The moves of the modules of a ruleset made from options `O` (`createRuleset`'s type
 * parameter): the game's own moves (The Castle's), and each expansion's. `never` when no module
 * has moves of its own; any module move (`ExpansionMove`) when a module's type does not say which.
 */
export type RulesetMoves<O> =
  | (O extends {
      /** The base game: `'classic'` (no moves of its own) or a game module. */
      readonly game: infer G;
    }
      ? G extends BaseGame<infer X>
        ? X
        : never
      : never)
  | (O extends {
      /** The expansion modules. */
      readonly expansions?: readonly (infer E)[] | undefined;
    }
      ? E extends Expansion<infer X>
        ? X
        : never
      : never);

/** Ruleset options as JSON (expansions by id and options): what replays record. */
export interface RulesetSpec {
  /** Which base game. */
  readonly game: string;
  /** The base game's options as JSON, when it has any. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Expansions by id and options, in hook order. */
  readonly expansions: readonly ExpansionRef[];
}

/**
 * Compiled rules for one game and combination of expansions. Create with `createRuleset`.
 *
 * `M` is the type of the moves of the ruleset's modules (The Castle's own rules and the
 * expansions), as `createRuleset` works it out from the modules it is given: `never` for classic
 * alone, `TowerMove | CountMove` for `[tower(), count()]`. `applyMove` then accepts, from code,
 * the core's moves and those, so that a misspelt module move (`'tower/plase'`) does not compile.
 * `Ruleset` with no parameter accepts any module move, as before; every function that takes a
 * `Ruleset` takes one with a parameter.
 */
export interface Ruleset<M = ExpansionMove> {
  /**
   * Type-only: the moves of the ruleset's modules (`M`). Never set at run time; it lets
   * TypeScript carry `M` from `createRuleset` to `applyMove`.
   */
  readonly moveType?: M;
  /** Stable id naming game, expansions and their options (`classic`, `classic+river{"set":"I"}`); stored in every state. */
  readonly id: string;
  /** The game and expansions as JSON (for replays). */
  readonly options: RulesetSpec;
  /** The base game module. @internal */
  readonly game: GameModule;
  /** The game's own rules module (when it has one), then the expansions, in hook order. @internal */
  readonly expansions: readonly Expansion[];
  /** Hooks by kind, in hook order. @internal */
  readonly hooks: CompiledHooks;
  /** All feature kinds: the game's, then each expansion's. */
  readonly kinds: readonly FeatureKindDef[];
  /** Compiled tile kinds, in catalogue order (the order of `GameState.bag`). */
  readonly tiles: readonly CompiledTile[];
  /** Tile kind index by id. */
  readonly tileIndex: Readonly<Record<string, number>>;
  /** Compiled tile kind by id (a Map: about twice as fast as `tiles[tileIndex[id]]` on hot paths). @internal */
  readonly tileById: ReadonlyMap<string, CompiledTile>;
  /** The tiles laid before the first turn. */
  readonly start: readonly StartTile[];
  /** Tile kinds of which one copy leaves the bag at set-up without being laid (a replaced start tile left in the box). @internal */
  readonly boxed: readonly string[];
  /**
   * The tile kind index of a start tile that gave way to another expansion's start (the River's
   * spring beside the Count's City), whose placement on turn 0 is a set-up placement (see
   * `Expansion.startYields`); -1 when there is none. @internal
   */
  readonly setupTile: number;
  /**
   * Whether the game's and every expansion's final scoring only add to `state.scores` (each says
   * so with `finalScoringAddsOnly`), so that `projectedScores` needs no copy of the state. @internal
   */
  readonly finalScoringAddsOnly: boolean;
  /** Per feature kind: whether it completes by its ports (roads, cities, paths, towers). @internal */
  readonly portCompleted: readonly boolean[];
  /** Whether a cell (packed key) is on the board; null for an unbounded board. */
  readonly inside: ((key: number) => boolean) | null;
  /** Per feature kind: whether features of it track their tiles. */
  readonly tracksTiles: readonly boolean[];
  /** Per feature kind: whether followers may be deployed on it. */
  readonly deployable: readonly boolean[];
  /** Per feature kind: how the base game values it (`scoring`, else the kind's name). */
  readonly kindScoring: readonly string[];
  /** Feature kind names, by kind index. */
  readonly kindNames: readonly string[];
  /** Fewest players allowed. */
  readonly minPlayers: number;
  /** Most players allowed. */
  readonly maxPlayers: number;
  /** Followers each player starts with. */
  readonly followers: number;
  /** Number of tiles in the game, start tiles included (a replaced start tile left in the box is not). */
  readonly tileCount: number;
  /** This ruleset's own immer instance (auto-freezing): no module-level state. @internal */
  readonly immer: Immer;
}

function hookList<K extends ListedHook>(expansions: readonly Expansion[], key: K): CompiledHooks[K] {
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
export function compileRuleset(game: GameModule, chosen: readonly Expansion[]): Ruleset {
  // The game's own rules module runs first in hook order.
  const expansions = game.rules === undefined ? chosen : [game.rules, ...chosen];
  const kinds = [...game.kinds, ...expansions.flatMap((e) => e.kinds ?? [])];
  const defs = [...game.tiles, ...expansions.flatMap((e) => e.tiles ?? [])];
  const tiles = defs.map((t, i) => compileTile(t, i, kinds));
  const tileIndex: Record<string, number> = {};
  tiles.forEach((t) => (tileIndex[t.def.id] = t.index));
  const deployable = new Set([...game.deployable, ...expansions.flatMap((e) => e.deployable ?? [])]);
  let start: readonly StartTile[] = game.start;
  let boxed: readonly string[] = [];
  let setupTile = -1;
  // createRuleset let through at most one start that stands and one that gives way to it.
  const starts = chosen.filter((e) => e.start !== undefined).length;
  for (const e of chosen) {
    if (e.start === undefined) continue;
    // One that gives way: its tile stays in the bag, and its first placement is a set-up placement.
    if (e.startYields === true && starts > 1 && 'tile' in e.start) setupTile = tileIndex[e.start.tile]!;
    else {
      start = 'tile' in e.start ? [{ tile: e.start.tile, x: 0, y: 0, rotation: e.start.rotation }] : e.start;
      boxed = e.baseStart === 'box' ? game.start.map((st) => st.tile) : [];
    }
  }
  const refs = chosen.map((e) => ({ id: e.id, options: e.options }));
  const named = (id: string, options: Readonly<Record<string, unknown>>): string =>
    Object.keys(options).length === 0 ? id : `${id}${canonicalJson(options)}`;
  // With modules, the id ends in a digest of what they are made of (see moduleDigest), so that a
  // look-alike of a module (its id and options, other tiles or hooks) gets another id and its
  // rules never accept the real module's states.
  const readable = [named(game.game, game.idOptions ?? game.options), ...refs.map((r) => named(r.id, r.options))].join('+');
  const id = chosen.length === 0 ? readable : `${readable}#${moduleDigest(chosen)}`;
  const options: RulesetSpec =
    Object.keys(game.options).length === 0 ? { game: game.game, expansions: refs } : { game: game.game, options: game.options, expansions: refs };
  // The modules with a placement hook that concern tile `t` (`placementTiles` selects it, or asks nothing).
  const concerning = (t: CompiledTile, hook: 'placementError' | 'placementCells'): Expansion[] =>
    expansions.filter((e) => e[hook] !== undefined && (e.placementTiles === undefined || e.placementTiles(t.def)));
  const refusers = tiles.map((t) => concerning(t, 'placementError'));
  return Object.freeze({
    id,
    options,
    game,
    expansions,
    hooks: {
      turnStart: hookList(expansions, 'turnStart'),
      deployMoves: hookList(expansions, 'deployMoves'),
      beforeScoring: hookList(expansions, 'beforeScoring'),
      scoringOrder: hookList(expansions, 'scoringOrder'),
      turnMoves: hookList(expansions, 'turnMoves'),
      beforeTurnEnd: hookList(expansions, 'beforeTurnEnd'),
      nextPlayer: hookList(expansions, 'nextPlayer'),
      deployAllowed: hookList(expansions, 'deployAllowed'),
      claimers: expansions.filter((e) => e.claimsAction !== undefined),
      deployers: expansions.filter((e) => e.deployMoves !== undefined),
      owners: new Map(),
      tileFollowers: hookList(expansions, 'tileFollowers'),
      releaseAt: hookList(expansions, 'releaseAt'),
      afterAction: hookList(expansions, 'afterAction'),
      beforeFinalScoring: hookList(expansions, 'beforeFinalScoring'),
      drawFilter: hookList(expansions, 'drawFilter'),
      placementError: hookList(expansions, 'placementError'),
      placementByTile: refusers.map((list) => list.map((e) => e.placementError!.bind(e))),
      placementCellsByTile: tiles.map((t) => concerning(t, 'placementCells').map((e) => e.placementCells!.bind(e))),
      placementCellOnly: refusers.map((list) => list.every((e) => e.placementByCell === true)),
      afterPlace: hookList(expansions, 'afterPlace'),
      afterScoring: hookList(expansions, 'afterScoring'),
      finalScoring: hookList(expansions, 'finalScoring'),
    },
    kinds,
    tiles,
    tileIndex,
    tileById: new Map(tiles.map((t) => [t.def.id, t])),
    start,
    boxed,
    inside: game.inside ?? null,
    portCompleted: kinds.map((k) => k.completion === 'ports'),
    tracksTiles: kinds.map((k) => k.tracksTiles),
    deployable: kinds.map((k) => deployable.has(k.name)),
    kindScoring: kinds.map((k) => k.scoring ?? k.name),
    kindNames: kinds.map((k) => k.name),
    minPlayers: game.minPlayers,
    // Classic: 2 to 5 players, 6 where an expansion allows it.
    maxPlayers: Math.max(game.maxPlayers, ...expansions.map((e) => e.maxPlayers ?? 0)),
    followers: game.followers,
    tileCount: defs.reduce((n, t) => n + t.count, 0) - boxed.length,
    immer: new Immer({ autoFreeze: true }),
    // Last: added after `boxed`, it cost classic playouts 2% (in-process pairs), the hot fields' layout shifted.
    setupTile,
    finalScoringAddsOnly: game.finalScoringAddsOnly === true && expansions.every((e) => e.finalScoring === undefined || e.finalScoringAddsOnly === true),
  });
}

/**
 * A digest (8 hex digits, FNV-1a over canonical JSON) of what modules are made of: their ids,
 * options and order, the names of their members (hooks included), and all their data (tiles,
 * kinds, start, followers' kinds, requirements, player limits, codec and chance sizes). The same
 * modules give the same digest in every process and module format (it reads data, not code); a
 * module that only borrows another's id and options does not. @internal
 */
export function moduleDigest(modules: readonly Expansion[]): string {
  const described = modules.map((e) => {
    const members: string[] = [];
    for (let o: object | null = e; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
      // `finalScoringAddsOnly` changes no rule, only how projected scores are computed: the ids of
      // modules that gained it stay as they were.
      for (const k of Object.getOwnPropertyNames(o)) if (k !== 'constructor' && k !== 'finalScoringAddsOnly' && !members.includes(k)) members.push(k);
    }
    return {
      id: e.id,
      order: e.order,
      options: e.options,
      members: members.sort(),
      requires: e.requires ?? [],
      conflictsWith: e.conflictsWith ?? [],
      maxPlayers: e.maxPlayers ?? null,
      kinds: e.kinds ?? [],
      deployable: e.deployable ?? [],
      tiles: e.tiles ?? [],
      start: e.start ?? null,
      baseStart: e.baseStart ?? null,
      // Only when set: the digests of modules without it stay as they were.
      ...(e.startYields === undefined ? {} : { startYields: e.startYields }),
      placementByCell: e.placementByCell ?? null,
      chance: e.chance?.maxOutcomes ?? null,
      actions: e.actions?.version ?? null,
    };
  });
  const text = canonicalJson(described as unknown as Readonly<Record<string, unknown>>);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
