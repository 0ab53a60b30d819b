/**
 * Ransom: once per turn, at any point of one's own turn, a player may buy one of their followers
 * back from the player holding it for 3 points. The Tower rules, "Věžňové": "Navíc si ve svém tahu
 * hráč může vybrat, jestli si od některého z ostatních hráčů svoji uvězněnou figurku vykoupí. Cena
 * za jednu figurku jsou 3 vítězné body. ... Tato vykoupená figurka může být ihned v tomto kole
 * umístěna do krajiny." Q&A: "Provádí se jedenkrát za tah. Kdykoli v průběhu tahu hráče."
 */
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { award } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { towerSlice } from './state.js';

/** The price of one follower, in points. */
export const RANSOM = 3;

/**
 * Why the active player may pay no ransom now (whoever holds their followers), or null. Not twice
 * in one turn; not with fewer than 3 points unless `debt` (the rules do not say: docs/expansions/tower.md);
 * not while the features the tile completed are being scored (a Count decision of the active
 * player's then), where a payment would count as points of the turn's scoring, which it is not
 * ("Družiníka do města Carcassonne nelze umístit za body z úkonů které nesouvisejí s kartičkou
 * krajiny - např. ... zaplacení výkupného"); not after the last tile (the turns are over).
 */
export function ransomBlocked(state: Immutable<GameView>, debt: boolean): string | null {
  const player = state.active;
  switch (blocker(state, debt)) {
    case 'paid':
      return 'a ransom was already paid this turn (once per turn)';
    case 'points':
      return `a ransom costs ${RANSOM} points and player ${player} has ${state.scores[player]}`;
    case 'scoring':
      return 'not while the features the tile completed are being scored';
    case 'final':
      return 'the last turn is over';
    case null:
      return null;
  }
}

/**
 * What {@link ransomBlocked} refuses a ransom for, as a word: the moves ask it at every step of
 * the turn, and need no message.
 */
function blocker(state: Immutable<GameView>, debt: boolean): 'paid' | 'points' | 'scoring' | 'final' | null {
  if (towerSlice(state).ransomTurn === state.turn) return 'paid';
  if (!debt && state.scores[state.active]! < RANSOM) return 'points';
  const phase = state.flow?.phase;
  if (phase === 'score' || phase === 'after') return 'scoring';
  if (phase === 'final') return 'final';
  return null;
}

/** The ransoms the active player may pay now: one per player holding one of their followers, by seat. */
export function ransomMoves(debt: boolean, _rules: Ruleset, state: Immutable<GameView>): Move[] {
  const slice = towerSlice(state);
  const player = state.active;
  let held = false;
  for (let i = 0; i < slice.prisoners.length && !held; i++) held = slice.prisoners[i]![player]! > 0;
  if (!held || blocker(state, debt) !== null) return [];
  const out: Move[] = [];
  const rows = slice.prisoners;
  for (let captor = 0; captor < rows.length; captor++) if (rows[captor]![player]! > 0) out.push({ type: 'tower/ransom', player, captor });
  return out;
}

/**
 * Pays: the payer loses 3 points and the captor gains 3 (two `scored` events, reason
 * `tower/ransom`, so every score still equals the sum of its events); the follower goes back to
 * its owner's supply, deployable this very turn when the deploy step is still to come.
 */
export function playRansom(ctx: HookContext, player: number, captor: number): 'done' {
  const slice = towerSlice(ctx.state);
  award(ctx, player, -RANSOM, 'tower/ransom', null);
  award(ctx, captor, RANSOM, 'tower/ransom', null);
  slice.prisoners[captor]![player]!--;
  ctx.state.supply[player]!++;
  slice.ransomTurn = ctx.state.turn;
  emitExpansionEvent(ctx.emit, 'tower/ransomed', { player, captor });
  return 'done';
}
