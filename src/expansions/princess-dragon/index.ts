/**
 * The Princess and the Dragon: 30 land tiles with volcanoes, dragon symbols, magic portals and
 * princesses, the cloister inside a city and the tunnel; the dragon and the fairy. Rules: the
 * Slovak rulebook "Carcassonne - Princezná a drak" (the authority); the expansions digest, "The
 * Princess and the Dragon" and "Order of steps in one turn"; tiles: the tile reference, "G. The
 * Princess & the Dragon". docs/expansions/princess-dragon.md maps each rule to its code and test,
 * with the readings chosen.
 *
 * - **Volcano** (6): the dragon lands on it, from wherever it is; the placing player deploys
 *   nothing, moves no fairy and takes no other action (a claim on the turn's action).
 * - **Dragon symbol** (12): after the turn's action (and a Tower capture), the dragon flies six
 *   steps, one tile north, east, south or west per step, moved first by the placing player and
 *   then by each next player in turn (`princess-dragon/dragon` steps); never onto a tile it has
 *   been on in this flight (its starting tile included), nor onto the fairy's; it stops early when
 *   it cannot move. Every follower on a tile it enters goes home, tower tops included. While no
 *   volcano lies, dragon tiles are held back from the draw (the rules set them aside as they are
 *   drawn, and shuffle them back when the first volcano is laid: the same chances).
 * - **Magic portal** (6): the follower may instead go onto any unoccupied, unfinished feature of
 *   any tile on the board (`princess-dragon/portal`).
 * - **Princess** (6): when her city part joins a city with knights, the player must send one of
 *   them home (`princess-dragon/princess`) and takes no other action; otherwise a normal turn.
 *   Option `princess: 'optional'` (later editions): the removal is one more possible action.
 * - **Fairy**: a player who could deploy a follower and does not may move her onto a tile with one
 *   of their followers (`princess-dragon/fairy`). The dragon cannot enter her tile; at the start
 *   of a player's turn a follower of theirs on her tile scores them 1; when a feature holding a
 *   follower on her tile is scored (the final scoring too), its owner scores 3 more.
 *
 * Steps: `princess-dragon/dragon` `{ player, steps }`. Moves: `princess-dragon/move-dragon`
 * `{ x, y }`, `princess-dragon/fairy` `{ x, y }`, `princess-dragon/portal` `{ x, y, feature }`,
 * `princess-dragon/princess` `{ x, y, feature, owner }`. Events: `princess-dragon/dragon-landed`
 * `{ from, to }`, `princess-dragon/dragon-moved` `{ player, from, to, step }`,
 * `princess-dragon/flight-ended` `{ steps, at }`, `princess-dragon/fairy-moved` `{ player, from,
 * to }`, `princess-dragon/portal-used` `{ player, x, y, feature }` (after the core's
 * `follower-deployed`), `princess-dragon/princess` `{ player, owner, x, y, feature }` (after a
 * `follower-returned`), and `scored` events with reason `princess-dragon/fairy`. Error codes: the
 * table in docs/expansions/princess-dragon.md.
 *
 * Hook order 80: after the Tower (50), whose capture is part of the action and so comes before the
 * flight (`afterAction`); after the Count (70), whose move-out round (its `beforeScoring`) puts
 * followers from the City onto a completed feature "ještě před přidělením bodů" (before the points
 * are given): the fairy's 3 points, given "Pri hodnotení oblastí" (when the feature is scored), go
 * to the followers standing on it after that round, just before the base game scores it. The
 * Count's "scored nothing" (its `afterScoring`) still sees them as points of the scoring.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { princessDragon } from 'meeplekit/expansions/princess-dragon';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [princessDragon()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 3, seed: 'dragon' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(rules.value.tileCount, game.value.ext['princess-dragon']);
 * // 102 { dragon: null, fairy: null, flight: null }
 * ```
 *
 * @module meeplekit/expansions/princess-dragon
 */
import { showValue } from '../../core/errors.js';
import type { ActionClaim, Expansion, HookContext } from '../../core/expansion.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ExpansionMove, GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { pdActions } from './actions.js';
import { dragonMoves, heldBack, heldBackFilter, playDragon, startFlight, volcanoLanding } from './dragon.js';
import { PRINCESS_TURN, VOLCANO_TURN, pdMoveError } from './errors.js';
import { fairyCount, fairyFinal, fairyMoveAt, fairyMoves, fairyScoring, fairyTurnPoint, playFairy } from './fairy.js';
import { pdObservation } from './observation.js';
import { princessDragonScoreBounds } from './bounds.js';
import { playPortal, portalCount, portalMoveAt, portalMoves } from './portal.js';
import { playPrincess, princessHasKnights, princessKnights, princessMoves } from './princess.js';
import { localOf, placedKind, PRINCESS_DRAGON, tileIndexAt, type PrincessDragonState } from './state.js';
import { DRAGON_TILES, PORTAL_TILES, PRINCESS_TILES, princessDragonTileDefs, TILE_SYMBOLS, VOLCANO_TILES, type TileSymbol } from './tiles.js';

export { PRINCESS_DRAGON, FLIGHT_STEPS, type Flight, type PrincessDragonState } from './state.js';
export { PRINCESS_DRAGON_TILES, VOLCANO_TILES, DRAGON_TILES, PORTAL_TILES, PRINCESS_TILES } from './tiles.js';
export { dragonTargets, type DragonStep } from './dragon.js';
export { fairyTargets, FAIRY_TURN_POINTS, FAIRY_SCORING_POINTS } from './fairy.js';
export { portalTargets, type PortalTarget } from './portal.js';
export { type Knight } from './princess.js';
export { PRINCESS_DRAGON_MOVES } from './errors.js';

/**
 * The dragon tiles held back from the draw now, per tile kind id (none once the dragon is on the
 * board): what the rules would have set aside, face up, as they were drawn.
 */
export function heldBackTiles(rules: Ruleset, state: Immutable<GameView>): Record<string, number> {
  return heldBack(rules, state, new Set(DRAGON_TILES));
}

/** Whether the princess's removal is forced (this rulebook) or one more possible action (later editions). */
export type PrincessRule = 'forced' | 'optional';

/** Options of {@link princessDragon}. */
export interface PrincessDragonOptions {
  /** `'forced'` (default: this rulebook) or `'optional'`: see {@link PrincessRule}. */
  readonly princess?: PrincessRule;
}

/** The module's moves. */
export type PrincessDragonMove =
  | {
      /** Move the dragon onto the tile at `x, y` (one step of a flight), or the fairy onto it. */
      readonly type: 'princess-dragon/move-dragon' | 'princess-dragon/fairy';
      /** Who plays it. */
      readonly player: number;
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
    }
  | {
      /** Deploy a follower from supply through the magic portal onto local feature `feature` of the tile at `x, y`. */
      readonly type: 'princess-dragon/portal';
      /** Who plays it. */
      readonly player: number;
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
      /** Local feature id. */
      readonly feature: string;
    }
  | {
      /** Send the knight of `owner` on local feature `feature` of the tile at `x, y` home (the princess). */
      readonly type: 'princess-dragon/princess';
      /** Who plays it. */
      readonly player: number;
      /** Column. */
      readonly x: number;
      /** Row. */
      readonly y: number;
      /** Local feature id. */
      readonly feature: string;
      /** The knight's owner. */
      readonly owner: number;
    };

/** The claims on the turn's action: the volcano's (no action at all), the princess's (her removal instead of any other action). */
const VOLCANO_CLAIM: ActionClaim = { forced: false, why: VOLCANO_TURN };
const PRINCESS_CLAIM: ActionClaim = { forced: true, why: PRINCESS_TURN };

const OPTION_KEYS = ['princess'] as const;

function optionsProblem(options: unknown): string | null {
  if (options === undefined) return null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return `options must be an object such as { princess: 'optional' }, got ${showValue(options)}`;
  for (const k of Object.keys(options)) if (!(OPTION_KEYS as readonly string[]).includes(k)) return `unknown option '${k}' (options: ${OPTION_KEYS.join(', ')})`;
  const p = (options as Record<string, unknown>)['princess'];
  if (p !== undefined && p !== 'forced' && p !== 'optional') return `princess must be 'forced' or 'optional', got ${showValue(p)}`;
  return null;
}

/**
 * The Princess and the Dragon expansion module. `princessDragon()` plays the rulebook;
 * `princessDragon({ princess: 'optional' })` makes the princess's removal optional. Invalid
 * options make `createRuleset` fail with `options/expansion-options`. Combines with every other
 * module.
 */
export function princessDragon(options?: PrincessDragonOptions): Expansion<PrincessDragonMove> {
  const problem = optionsProblem(options);
  const princessRule: PrincessRule = problem === null ? (options?.princess ?? 'forced') : 'forced';
  const chosen: Record<string, unknown> = problem !== null ? { ...(options as Record<string, unknown>) } : princessRule === 'optional' ? { princess: 'optional' } : {};
  const volcanoes = new Set(VOLCANO_TILES);
  const dragons = new Set(DRAGON_TILES);
  const portals = new Set(PORTAL_TILES);

  // The symbol of each tile kind, by index in the catalogue of the ruleset asked last (a module
  // object may serve several rulesets): asked several times a turn (every claim on the action,
  // the deploy step's moves, the dragon's landing and flight), one array entry answers it.
  let forRules: Ruleset | null = null;
  let byKind: readonly (TileSymbol | null)[] = [];
  const symbolOfKind = (rules: Ruleset, kind: number): TileSymbol | null => {
    if (rules !== forRules) {
      forRules = rules;
      byKind = rules.tiles.map((t) => TILE_SYMBOLS.get(t.def.id) ?? null);
    }
    return byKind[kind] ?? null;
  };
  /** The symbol on the tile placed this turn: null for a tile with none, `'none'` when no tile was placed this turn. */
  const placedSymbol = (rules: Ruleset, state: Immutable<GameView>): TileSymbol | null | 'none' => {
    const kind = placedKind(state);
    return kind < 0 ? 'none' : symbolOfKind(rules, kind);
  };

  const forcedPrincess = (rules: Ruleset, state: Immutable<GameView>): boolean =>
    princessRule === 'forced' && placedSymbol(rules, state) === 'princess' && princessHasKnights(rules, state, PRINCESS_TILES);

  /** The module's moves at the deploy step: the princess's alone when forced; else the portal's, the fairy's, then (optional rule) the princess's. */
  function deployMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
    const symbol = placedSymbol(rules, state);
    if (symbol === 'none' || symbol === 'volcano') return [];
    const knights = symbol === 'princess' ? princessMoves(rules, state, PRINCESS_TILES) : null;
    if (princessRule === 'forced' && knights !== null && knights.length > 0) return knights;
    const out = symbol === 'portal' && state.supply[state.active]! > 0 ? portalMoves(rules, state) : [];
    fairyMoves(rules, state, out.length > 0, out);
    if (knights !== null) for (const m of knights) out.push(m);
    return out;
  }

  /**
   * How many moves {@link deployMoves} lists, without building them: the portal's and the fairy's
   * counted; a princess tile's few moves listed (six tiles of the game).
   */
  function countDeployMoves(rules: Ruleset, state: Immutable<GameView>): number {
    const symbol = placedSymbol(rules, state);
    if (symbol === 'none' || symbol === 'volcano') return 0;
    if (symbol === 'princess') return deployMoves(rules, state).length;
    const portal = symbol === 'portal' && state.supply[state.active]! > 0 ? portalCount(rules, state) : 0;
    return portal + fairyCount(rules, state, portal > 0);
  }

  /** The move numbered `i` of {@link countDeployMoves}: the portal's targets in segment order, then the fairy's cells as found (a princess tile's: as listed). */
  function drawDeployMove(rules: Ruleset, state: Immutable<GameView>, i: number): Move {
    const symbol = placedSymbol(rules, state);
    if (symbol === 'princess') return deployMoves(rules, state)[i]!;
    if (symbol !== 'portal' || state.supply[state.active]! <= 0) return fairyMoveAt(rules, state, i);
    const portal = portalMoveAt(rules, state, i);
    return typeof portal === 'number' ? fairyMoveAt(rules, state, i - portal) : portal;
  }

  function play(ctx: HookContext, move: ExpansionMove): 'wait' | 'done' {
    const m = move as PrincessDragonMove;
    const { rules, state } = ctx;
    switch (m.type) {
      case 'princess-dragon/move-dragon':
        return playDragon(ctx, m.player, m.x, m.y);
      case 'princess-dragon/fairy':
        return playFairy(ctx, m.player, m.x, m.y);
      case 'princess-dragon/portal': {
        const t = tileIndexAt(state, m.x, m.y);
        return playPortal(ctx, m.player, t, localOf(rules, state, t, m.feature));
      }
      case 'princess-dragon/princess': {
        const t = tileIndexAt(state, m.x, m.y);
        return playPrincess(ctx, m.player, { x: m.x, y: m.y, feature: m.feature, owner: m.owner }, t, localOf(rules, state, t, m.feature));
      }
    }
  }

  const heldBackCount = (rules: Ruleset, view: Immutable<GameView>): number => {
    let n = 0;
    for (const c of Object.values(heldBack(rules, view, dragons))) n += c;
    return n;
  };

  const expansion: Expansion<PrincessDragonMove> = {
    id: PRINCESS_DRAGON,
    // After the Count (70): the fairy's 3 points are given once its move-out round is over.
    order: 80,
    options: chosen,
    tiles: princessDragonTileDefs(),
    validate: () => problem,
    setup: (): PrincessDragonState => ({ dragon: null, fairy: null, flight: null }),
    drawFilter: heldBackFilter(dragons),
    afterPlace: (ctx, index) => volcanoLanding(ctx, symbolOfKind(ctx.rules, ctx.state.tiles[index]!.kind) === 'volcano', index),
    turnStart: fairyTurnPoint,
    claimsAction(rules, state) {
      const symbol = placedSymbol(rules, state);
      if (symbol === 'volcano') return VOLCANO_CLAIM;
      return symbol === 'princess' && forcedPrincess(rules, state) ? PRINCESS_CLAIM : null;
    },
    deployMoves,
    countDeployMoves,
    drawDeployMove,
    afterAction: (ctx) => startFlight(ctx, placedSymbol(ctx.rules, ctx.state) === 'dragon'),
    beforeScoring: (ctx, root) => fairyScoring(ctx, root),
    finalScoring: fairyFinal,
    finalScoringAddsOnly: true,
    stepMoves: dragonMoves,
    play,
    moveError: (rules, state, move) =>
      pdMoveError(
        {
          volcanoes,
          portals,
          forcedPrincess: () => forcedPrincess(rules, state),
          isKnight: (x, y, feature, owner) => princessKnights(rules, state, PRINCESS_TILES).some((k) => k.x === x && k.y === y && k.feature === feature && k.owner === owner),
        },
        rules,
        state,
        move,
      ),
    actions: pdActions({
      fairy: (rules, state) => (state.step.kind === 'deploy' ? deployMoves(rules, state).filter((m) => m.type === 'princess-dragon/fairy') : []),
      portal: (rules, state) => (state.step.kind === 'deploy' ? deployMoves(rules, state).filter((m) => m.type === 'princess-dragon/portal') : []),
      princess: (rules, state) => (state.step.kind === 'deploy' ? princessMoves(rules, state, PRINCESS_TILES) : []),
    }),
    observation: pdObservation(heldBackCount),
    scoreBounds: princessDragonScoreBounds,
  };
  return expansion;
}
