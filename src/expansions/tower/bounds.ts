/**
 * The Tower's share of the score bounds (`gameInfo(...).utility.score` of `meeplekit/ai`): the
 * ransom, its only points.
 */
import { turnsPerPlayer, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';
import { RANSOM } from './ransom.js';
import { TOWER_PIECES } from './state.js';

/**
 * What ransoms can give and take (the Czech rulebook of The Tower, "Věžňové": "Cena za jednu figurku jsou 3
 * vítězné body. Hráč, který figurku vykupuje, se posune ... o tři body zpět. Hráč, od kterého je
 * figurka vykupována se naopak ... posune o tři body kupředu"; "Provádí se jedenkrát za tah").
 *
 * - `max`: a player is paid 3 for each prisoner they hold and release for a ransom; a prisoner
 *   is taken only by adding a tower piece (one capture per piece), and pieces never come back, so
 *   a player holds at most as many prisoners over a game as they have pieces (2 players: 10; 3: 9;
 *   4: 7; 5: 6): at most 3 per piece.
 * - `min`: by default a ransom needs 3 points in hand (`ransomDebt: false`: "se posune ... o tři
 *   body zpět", three spaces back on the track), so a score never falls below 0. With
 *   `ransomDebt: true` a player may pay on any score: once per own turn, and only for a follower
 *   another player captured, so at most min(its turns, the other players' pieces) ransoms, 3
 *   points each (2 players, classic with the Tower: min(45, 10) = 10 ransoms, -30).
 */
export function towerScoreBounds(rules: Ruleset, players: number, debt: boolean): ScoreBounds {
  const pieces = TOWER_PIECES[players] ?? 0;
  const paid = debt ? Math.min(turnsPerPlayer(rules, players), (players - 1) * pieces) : 0;
  return { min: -RANSOM * paid, max: RANSOM * pieces };
}
