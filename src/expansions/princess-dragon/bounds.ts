/**
 * The Princess and the Dragon's share of the score bounds (`gameInfo(...).utility.score` of
 * `meeplekit/ai`): the fairy, its only points (the volcano, the dragon, the portal and the
 * princess move followers but score nothing; the cloister inside a city and the other tiles are
 * the base game's share).
 */
import { turnsPerPlayer, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';
import { FAIRY_SCORING_POINTS, FAIRY_TURN_POINTS } from './fairy.js';

/**
 * What the fairy can give one player (princess-and-dragon.sk.txt, "Víla"; fairy.ts), with `t`
 * the most turns one player has (`turnsPerPlayer`) and `F` the followers per player:
 *
 * - 1 at the start of each of the player's turns (after the first) with a follower of theirs on
 *   her tile: at most `t`;
 * - 3 for each follower of the player on her tile when its feature is scored during the game:
 *   that follower then goes home, so each such 3 uses up one follower put on the board, and the
 *   player puts at most one there per own turn (the turn's action: a deployment, through a
 *   portal or not); the Count's followers moved out of the City come onto a feature after the
 *   fairy's hook for it (hook order 60 before 70) and go home with it: at most `3 t`;
 * - 3 for each follower of the player on her tile at the final scoring: at most `3 F`.
 *
 * So `4 t + 3 F` (classic with this module, 2 players: t = 51, F = 7, 225). Loose: it assumes
 * the fairy by one of the player's followers at every turn and every deployment scored beside
 * her. Nothing takes points away.
 */
export function princessDragonScoreBounds(rules: Ruleset, players: number): ScoreBounds {
  const t = turnsPerPlayer(rules, players);
  return { min: 0, max: FAIRY_TURN_POINTS * t + FAIRY_SCORING_POINTS * (t + rules.followers) };
}
