/**
 * The integer action space of a ruleset (encoding version 1), and `gameInfo`. The layout is a
 * pure function of the ruleset: blocks of consecutive ids for placements, follower targets, each
 * module's own moves and `pass`.
 */
import type { Expansion } from '../core/expansion.js';
import type { Ruleset } from '../core/ruleset.js';
import { scoreBounds } from './bounds.js';
import { maxChanceOutcomes } from './chance.js';

/**
 * Version of the core's part of the action encoding (placements, follower targets, pass, the
 * combined form, chance outcomes). Bumped on any change of an id.
 */
export const ACTION_ENCODING_VERSION = 1;

/** Which moves one action id stands for. */
export const ACTION_FORMS = ['split', 'combined'] as const;

/**
 * `split`: one action per move (a placement, then a follower or pass at the deploy step).
 * `combined`: one action per placement together with what follows it at the deploy step
 * (no follower, a follower target, or a module's move); other steps keep their own actions.
 */
export type ActionForm = (typeof ACTION_FORMS)[number];

/** A rectangle of board cells: x and y of its north-west cell, width and height. */
export type BoardWindow = Readonly<Record<'x' | 'y' | 'width' | 'height', number>>;

/** A module's codec as the layout holds it. @internal */
export type Codec = NonNullable<Expansion['actions']>;

/** The action space of a ruleset. @internal */
export interface ActionLayout {
  readonly window: BoardWindow;
  /** Placement ids: `[0, placements)`. */
  readonly placements: number;
  /** First follower-target id (= placements); `followerTargets` of them. */
  readonly deploy: number;
  readonly followerTargets: number;
  /** Per module in hook order: its codec (null without one) and the offset of its block. */
  readonly modules: readonly { readonly module: Expansion; readonly codec: Codec | null; readonly offset: number }[];
  /** Id of `pass` (the last split id). */
  readonly pass: number;
  /** Split actions: `[0, size)`. */
  readonly size: number;
  /** Combined form: ids per placement (`size - placements`). */
  readonly perPlacement: number;
  /** Combined actions: `[0, combinedSize)`; non-placement steps from `placements * perPlacement`. */
  readonly combinedSize: number;
  /** Tiles in the bag at the start (placed during the game at most). */
  readonly bagTiles: number;
}

/** Each ruleset's layout, computed once (a research simulator is made for every playout). */
const LAYOUTS = new WeakMap<Ruleset, ActionLayout>();

/**
 * The action layout of a ruleset. Throws when a module with moves of its own has no codec, or a
 * bounded board names no window (both are gaps in a module, not bad input). @internal
 */
export function actionLayout(rules: Ruleset): ActionLayout {
  let layout = LAYOUTS.get(rules);
  if (layout === undefined) {
    layout = computeLayout(rules);
    LAYOUTS.set(rules, layout);
  }
  return layout;
}

/** {@link actionLayout}, computed. */
function computeLayout(rules: Ruleset): ActionLayout {
  let bagTiles = 0;
  let followerTargets = 0;
  const tiles = rules.tiles;
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i]!;
    bagTiles += t.def.count;
    if (t.kinds.length > followerTargets) followerTargets = t.kinds.length;
  }
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const st of rules.start) {
    // A start tile of the set leaves the bag; a virtual one (The Castle's start fields) was never in it.
    if (tiles[rules.tileIndex[st.tile]!]!.def.count > 0) bagTiles--;
    if (st.x < minX) minX = st.x;
    if (st.x > maxX) maxX = st.x;
    if (st.y < minY) minY = st.y;
    if (st.y > maxY) maxY = st.y;
  }
  let window: BoardWindow | undefined;
  for (const m of rules.expansions) if (m.actions?.window !== undefined) window = m.actions.window;
  if (window === undefined) {
    if (rules.inside !== null) throw new Error(`meeplekit/ai: ruleset ${rules.id} has a bounded board but its game module names no actions.window`);
    // Every tile touches one laid before it, so no tile lies more than `bagTiles` cells from a start tile.
    window = { x: minX - bagTiles, y: minY - bagTiles, width: maxX - minX + 1 + 2 * bagTiles, height: maxY - minY + 1 + 2 * bagTiles };
  }
  const placements = window.width * window.height * 4;
  let next = placements + followerTargets;
  const modules: ActionLayout['modules'][number][] = [];
  for (const m of rules.expansions) {
    const codec = m.actions ?? null;
    if (codec === null && (m.stepMoves !== undefined || m.deployMoves !== undefined || m.turnMoves !== undefined)) {
      throw new Error(`meeplekit/ai: module '${m.id}' has moves of its own but no action encoding (Expansion.actions)`);
    }
    modules.push({ module: m, codec, offset: next });
    if (codec !== null) next += codec.size(window);
  }
  const size = next + 1;
  const perPlacement = size - placements;
  return {
    window,
    placements,
    deploy: placements,
    followerTargets,
    modules,
    pass: next,
    size,
    perPlacement,
    combinedSize: placements * perPlacement + perPlacement,
    bagTiles,
  };
}

/** Kinds of returns: see {@link returns}. */
export const RETURN_KINDS = ['score', 'win-loss', 'rank'] as const;

/**
 * `score`: points. `win-loss`: at the end 1 for a sole winner, 0 for a shared first place, -1 for
 * the others (0 before the end). `rank`: at the end from 1 (first) to -1 (last) linearly by place,
 * tied players sharing the mean of their places, so the players' values sum to 0.
 */
export type ReturnKind = (typeof RETURN_KINDS)[number];

/** Lowest and highest value of one kind of returns. */
export interface UtilityBounds {
  /** Lowest possible value (`-Infinity` when no finite bound is known). */
  readonly min: number;
  /** Highest possible value (`Infinity` when no finite bound is known). */
  readonly max: number;
}

/** What a search or learning algorithm needs to know about a game before playing it (OpenSpiel's `GameType` and `Game`). */
export interface GameInfo {
  /** The ruleset id. */
  readonly ruleset: string;
  /** Number of players. */
  readonly players: number;
  /** Always `'explicit'`: chance nodes (tile draws) are states of their own, with {@link chanceOutcomes}. */
  readonly chance: 'explicit';
  /**
   * `'perfect'` when no module hides anything (classic and its current expansions: the bag is
   * public as counts, and a draw is seen by everyone at once); `'imperfect'` when a module hides
   * part of its state from some player (The Castle's face-down wall tokens).
   */
  readonly information: 'perfect' | 'imperfect';
  /** Whether the sum of returns is constant: true for `rank` only. */
  readonly zeroSum: Readonly<Record<ReturnKind, boolean>>;
  /**
   * Bounds of each kind of returns. `score`: no player's score is ever below `min` or above `max`,
   * at any point of any game: the base game's and each module's share (`scoreBounds`) summed,
   * each derived from the rules and the ruleset's tiles (docs/ai.md, "gameInfo"); finite for
   * every ruleset of the library's games and modules, infinite when a module without
   * `scoreBounds` is in it. Sound but loose: random games score far below `max`.
   */
  readonly utility: Readonly<Record<ReturnKind, UtilityBounds>>;
  /** Number of distinct actions in each form: ids are `0 .. n - 1`. */
  readonly numDistinctActions: Readonly<Record<ActionForm, number>>;
  /**
   * Number of distinct chance outcome ids: one per tile kind at a draw (ids are catalogue
   * indices), or more when a module's own chance nodes need more (The Castle's token kinds 1..9
   * fit below its 53 tile kinds).
   */
  readonly maxChanceOutcomes: number;
  /** Most player decisions in one game (split form; the combined form needs at most as many). */
  readonly maxGameLength: number;
  /** The placement window (placement actions never leave it: its radius is the number of tiles in the bag). */
  readonly window: BoardWindow;
  /** Encoding versions: the core's actions, each module's own part, observations. */
  readonly versions: {
    /** {@link ACTION_ENCODING_VERSION}. */
    readonly actions: number;
    /** Each module's action codec version, by module id. */
    readonly modules: Readonly<Record<string, number>>;
    /** The observation tensor's version ({@link OBSERVATION_VERSION}). */
    readonly observation: number;
  };
}

/** Version of the observation tensor layout ({@link observationSpec}); bumped on any change. */
export const OBSERVATION_VERSION = 2;

/**
 * What an algorithm needs to know about a game: chance and information, utility bounds, the
 * number of distinct actions, chance outcomes and decisions, and the encoding versions.
 *
 * @throws Error when a module of the ruleset has moves but no action encoding (`Expansion.actions`).
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { gameInfo } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const info = gameInfo(rules.value, 2);
 * console.log(info.numDistinctActions.split, info.maxChanceOutcomes, info.window); // 81805 24 { x: -71, ... }
 * ```
 */
export function gameInfo(rules: Ruleset, players: number): GameInfo {
  const layout = actionLayout(rules);
  const modules: Record<string, number> = {};
  let moduleMoves = 0;
  for (const m of layout.modules) {
    if (m.codec === null) continue;
    modules[m.module.id] = m.codec.version;
    moduleMoves += m.codec.maxMoves(players);
  }
  const hidden = rules.expansions.some((e) => e.observe !== undefined);
  return {
    ruleset: rules.id,
    players,
    chance: 'explicit',
    information: hidden ? 'imperfect' : 'perfect',
    zeroSum: { score: false, 'win-loss': false, rank: true },
    utility: { score: scoreBounds(rules, players), 'win-loss': { min: -1, max: 1 }, rank: { min: -1, max: 1 } },
    numDistinctActions: { split: layout.size, combined: layout.combinedSize },
    maxChanceOutcomes: maxChanceOutcomes(rules),
    // A placement and a deploy decision per tile, plus the modules' own moves.
    maxGameLength: 2 * layout.bagTiles + moduleMoves,
    window: layout.window,
    versions: { actions: ACTION_ENCODING_VERSION, modules, observation: OBSERVATION_VERSION },
  };
}
