/**
 * The Tower: 18 land tiles with tower foundations; tower pieces; capturing followers; prisoners,
 * their exchange and ransom. Rules: the Czech rulebook "Carcassonne Věž" (MINDOK, © 2006 Hans im
 * Glück), with its questions and answers (the authority); the expansions digest, "The Tower" and
 * "Order of steps in one turn"; tiles: the classic tile reference, "F. The Tower". docs/expansions/tower.md
 * maps each rule to its code and test, and gives the readings chosen where the rulebook is silent.
 *
 * - **Set-up**: the 18 tiles are shuffled in; each player gets tower pieces by player count
 *   (2: 10, 3: 9, 4: 7, 5: 6; six players need an expansion this library does not have).
 * - **The action** (the deploy step, "4 možnosti"): deploy a follower as usual, or add a piece to
 *   any foundation or tower on the board without a follower on top (`tower/build`), or put a
 *   follower from supply on top of any tower (`tower/cap`): it stays there, and the tower may not
 *   grow while it does. One of these per turn, alternatives to each other and to passing.
 * - **Capture**: after adding a piece the player may take one follower of another player prisoner
 *   (`tower/capture` step: `tower/capture` or `tower/decline`): on the tower's own tile, or up to
 *   `height` tiles away in a straight line, never across an empty cell; tower tops included; before
 *   the turn's scoring.
 * - **Prisoners**: two players who hold each other's followers exchange them at once, one for one.
 *   Once per turn, at any step of one's own turn (but during the scoring of the tile's completed
 *   features), a player may buy a follower back (`tower/ransom`): 3 points to the captor, the
 *   follower back to supply, deployable the same turn if the deploy step is still to come.
 *
 * Options: `ransomDebt` (default false): whether a player with fewer than 3 points may pay (their
 * score going below 0). The rulebook does not say; the default reads "se posune na počítadle bodů
 * o tři body zpět" (moves back three spaces on the track) as needing three spaces to move back.
 *
 * Steps: `tower/capture` `{ player, x, y, height }`. Moves: `tower/build` `{ x, y }`,
 * `tower/cap` `{ x, y }`, `tower/capture` `{ x, y, feature, owner }` (`feature` a local feature
 * id, or `'top'` for the follower on top of the tower at `x, y`), `tower/decline`,
 * `tower/ransom` `{ captor }`. Events: `tower/built` `{ player, x, y, height }`, `tower/capped`
 * `{ player, x, y }`, `tower/captured` `{ player, owner, x, y, feature }`, `tower/exchanged`
 * `{ players }`, `tower/ransomed` `{ player, captor }`, and `scored` events with reason
 * `tower/ransom` (-3 for the payer, +3 for the captor). Error codes: the table in
 * docs/expansions/tower.md (`tower/no-pieces`, `tower/capped`, `tower/out-of-range`,
 * `tower/own-follower`, `tower/action-taken`, `tower/ransom-paid`, `tower/not-held`, ...).
 * Queries: {@link towerAt} (a tower, its reach and what a piece added now would capture),
 * {@link captureTargets}, {@link reachOf}.
 *
 * Hook order 50: after Shrines (40), before the Count (70). The capture is part of the action,
 * so it comes before every `afterAction` hook (the dragon's flight, at 80) and before any
 * scoring.
 *
 * @example
 * ```ts
 * import { createRuleset, legalMoves, newGame } from 'meeplekit';
 * import { tower } from 'meeplekit/expansions/tower';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [tower()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'tower' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(rules.value.tileCount, game.value.ext['tower']);
 * // 90 { pieces: [10, 10], towers: [], prisoners: [[0, 0], [0, 0]], ransomTurn: -1 }
 * ```
 *
 * @module meeplekit/expansions/tower
 */
import { showValue } from '../../core/errors.js';
import { type Expansion, type HookContext, type TileFollower } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type ExpansionMove, type GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { towerActions } from './actions.js';
import { actionMoves, playBuild, playCap } from './build.js';
import { captureMoves, playCapture, type CaptureTarget } from './capture.js';
import { towerMoveError } from './errors.js';
import { towerObservation } from './observation.js';
import { playRansom, ransomMoves } from './ransom.js';
import { prisonersOf, TOWER, TOWER_PIECES, towerIndexAt, towerSlice, type TowerState } from './state.js';
import { TOWER_TILES, towerTileDefs } from './tiles.js';
import { towerScoreBounds } from './bounds.js';

export { TOWER, TOWER_PIECES, type Tower, type TowerState } from './state.js';
export { TOWER_TILES } from './tiles.js';
export { captureTargets, reachOf, TOP, type CaptureTarget, type TowerCaptureStep } from './capture.js';
export { towerAt, type TowerInfo } from './query.js';
export { RANSOM } from './ransom.js';
export { TOWER_MOVES } from './errors.js';

/** Options of {@link tower}. */
export interface TowerOptions {
  /**
   * Whether a player with fewer than 3 points may pay a ransom, their score going below 0
   * (default false: the rulebook does not say; docs/expansions/tower.md gives both readings).
   */
  readonly ransomDebt?: boolean;
}

/** The Tower's moves. */
export type TowerMove =
  | {
      /** Add one of the player's pieces to the foundation or tower at `x, y`. */
      readonly type: 'tower/build' | 'tower/cap';
      /** Who plays it. */
      readonly player: number;
      /** Column of the tower. */
      readonly x: number;
      /** Row of the tower. */
      readonly y: number;
    }
  | {
      /** Take the follower of `owner` on local feature `feature` of the tile at `x, y` (or on top of the tower there: `'top'`) prisoner. */
      readonly type: 'tower/capture';
      /** Who plays it. */
      readonly player: number;
      /** Column of the follower's tile. */
      readonly x: number;
      /** Row of the follower's tile. */
      readonly y: number;
      /** Local feature id, or `'top'`. */
      readonly feature: string;
      /** The follower's owner. */
      readonly owner: number;
    }
  | {
      /** Capture nobody. */
      readonly type: 'tower/decline';
      /** Who plays it. */
      readonly player: number;
    }
  | {
      /** Buy one of one's followers back from `captor` for 3 points. */
      readonly type: 'tower/ransom';
      /** Who plays it. */
      readonly player: number;
      /** Who holds the follower. */
      readonly captor: number;
    };

const OPTION_KEYS = ['ransomDebt'] as const;

/** The followers held on tiles while no tower has one on top: one shared, frozen empty list (the hook's lists are read only). */
const NO_TOPS: readonly TileFollower[] = Object.freeze([]);

/** Why `options` are not valid Tower options, or null. */
function optionsProblem(options: unknown): string | null {
  if (options === undefined) return null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return `options must be an object such as { ransomDebt: true }, got ${showValue(options)}`;
  }
  for (const k of Object.keys(options)) {
    if (!(OPTION_KEYS as readonly string[]).includes(k)) return `unknown option '${k}' (options: ${OPTION_KEYS.join(', ')})`;
  }
  const debt = (options as Record<string, unknown>)['ransomDebt'];
  if (debt !== undefined && typeof debt !== 'boolean') return `ransomDebt must be true or false, got ${showValue(debt)}`;
  return null;
}

/**
 * The Tower expansion module. `tower()` plays the rulebook with a ransom only for players who
 * have 3 points; `tower({ ransomDebt: true })` lets any player pay. Invalid options make
 * `createRuleset` fail with `options/expansion-options`. Combines with every other module.
 */
export function tower(options?: TowerOptions): Expansion<TowerMove> {
  const problem = optionsProblem(options);
  const debt = problem === null && options?.ransomDebt === true;
  // Defaults are left out, so tower() and tower({ ransomDebt: false }) are the same ruleset.
  const chosen: Record<string, unknown> = problem !== null ? { ...(options as Record<string, unknown>) } : debt ? { ransomDebt: true } : {};
  const tiles = towerTileDefs();
  const foundations = new Set(TOWER_TILES.map(([id]) => id));
  const total = tiles.reduce((n, t) => n + t.count, 0);

  // Which tile kinds are foundations, by index in the catalogue of the ruleset asked last (a module
  // object may serve several rulesets): asked for every tile laid.
  let forRules: Ruleset | null = null;
  let foundationKinds = new Uint8Array(0);
  const isFoundation = (rules: Ruleset, kind: number): boolean => {
    if (rules !== forRules) {
      forRules = rules;
      foundationKinds = Uint8Array.from(rules.tiles, (t) => (foundations.has(t.def.id) ? 1 : 0));
    }
    return foundationKinds[kind] === 1;
  };

  function afterPlace(ctx: HookContext, index: number): void {
    const placed = ctx.state.tiles[index]!;
    if (!isFoundation(ctx.rules, placed.kind)) return;
    // Kept in canonical order (by cell), so that moves list them without sorting: inserted from
    // the end, moving the towers after it up one (no splice: it allocated its removed-items list).
    const towers = towerSlice(ctx.state).towers;
    const key = cellKey(placed.x, placed.y);
    let at = towers.length;
    for (; at > 0 && cellKey(towers[at - 1]!.x, towers[at - 1]!.y) > key; at--) towers[at] = towers[at - 1]!;
    towers[at] = { x: placed.x, y: placed.y, height: 0, top: -1 };
  }

  function play(ctx: HookContext, move: ExpansionMove): 'wait' | 'done' {
    const m = move as TowerMove;
    switch (m.type) {
      case 'tower/build':
        return playBuild(ctx, m.player, m.x, m.y);
      case 'tower/cap':
        return playCap(ctx, m.player, m.x, m.y);
      case 'tower/capture': {
        const target: CaptureTarget = { x: m.x, y: m.y, feature: m.feature, owner: m.owner };
        playCapture(ctx, m.player, target);
        return 'done';
      }
      case 'tower/decline':
        return 'done';
      case 'tower/ransom':
        return playRansom(ctx, m.player, m.captor);
    }
  }

  return {
    id: TOWER,
    order: 50,
    options: chosen,
    tiles,
    validate: () => problem,
    setup: (_rules, players): TowerState => ({
      pieces: new Array<number>(players).fill(TOWER_PIECES[players] ?? 0),
      towers: [],
      prisoners: Array.from({ length: players }, () => new Array<number>(players).fill(0)),
      ransomTurn: -1,
    }),
    afterPlace,
    deployMoves: actionMoves,
    stepMoves: captureMoves,
    turnMoves: (rules: Ruleset, state: Immutable<GameView>) => ransomMoves(debt, rules, state),
    play,
    moveError: (rules, state, move) => towerMoveError(debt, rules, state, move),
    followersHeld: (state) => {
      const slice = towerSlice(state);
      const held = new Array<number>(state.players).fill(0);
      for (const t of slice.towers) if (t.top >= 0) held[t.top]!++;
      for (let p = 0; p < state.players; p++) held[p]! += prisonersOf(slice, p);
      return held;
    },
    // A follower on top of a tower stands on the tile (the fairy may join it) and goes home when
    // the dragon enters the tile (the Q&A: "Může drak vrátit zpět do zásoby figurku na věži? Drak létá, takže ano.").
    // Asked at every turn's start and deploy step (the fairy): no tower top, no new list.
    tileFollowers: (state) => {
      let out: TileFollower[] | null = null;
      for (const t of towerSlice(state).towers) if (t.top >= 0) (out ??= []).push({ x: t.x, y: t.y, player: t.top });
      return out ?? NO_TOPS;
    },
    releaseAt: (ctx, x, y) => {
      const slice = towerSlice(ctx.state);
      const i = towerIndexAt(slice, x, y);
      if (i < 0 || slice.towers[i]!.top < 0) return;
      const owner = slice.towers[i]!.top;
      slice.towers[i]!.top = -1;
      ctx.state.supply[owner]!++;
      emitExpansionEvent(ctx.emit, 'tower/top-returned', { player: owner, x, y });
    },
    actions: towerActions(total),
    observation: towerObservation(total),
    scoreBounds: (rules, players) => towerScoreBounds(rules, players, debt),
  };
}
