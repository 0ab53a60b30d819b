/**
 * The Princess and the Dragon's share of the score bounds (`gameInfo(...).utility.score` of
 * `meeplekit/ai`): the fairy, its only points (the volcano, the dragon, the portal and the
 * princess move followers but score nothing; the cloister inside a city and the other tiles are
 * the base game's share).
 */
import { turnsPerPlayer, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';
import { FAIRY_SCORING_POINTS, FAIRY_TURN_POINTS } from './fairy.js';
import { PRINCESS_DRAGON } from './state.js';

/**
 * What the fairy can give one player (the Slovak rulebook of The Princess and the Dragon, "Víla"; fairy.ts), with `t`
 * the most turns one player has (`turnsPerPlayer`) and `F` the followers per player:
 *
 * - 1 at the start of each of the player's turns (after the first) with a follower of theirs on
 *   her tile: at most `t`;
 * - 3 (once per player and feature) when a feature with a follower of the player on her tile is
 *   scored during the game: that follower then goes home, so each such 3 uses up one follower
 *   put on the board, and the player puts at most one there per own turn (the turn's action: a
 *   deployment, through a portal or not): at most `3 t`. With a module that puts followers onto
 *   a feature before it is scored (another `beforeScoring`: the Count's move-out, whose followers
 *   the fairy's hook sees, hook order 80 after 70), each of those entered the City in one of the
 *   player's turns, at most one a turn: at most `3 t` more;
 * - 3 for each follower of the player on her tile at the final scoring: at most `3 F`.
 *
 * So `4 t + 3 F` (classic with this module, 2 players: t = 51, F = 7, 225), `7 t + 3 F` with the
 * Count. Loose: it assumes the fairy by one of the player's followers at every turn and every
 * deployment scored beside her. Nothing takes points away.
 */
export function princessDragonScoreBounds(rules: Ruleset, players: number): ScoreBounds {
  const t = turnsPerPlayer(rules, players);
  const movedIn = rules.expansions.some((e) => e.id !== PRINCESS_DRAGON && e.beforeScoring !== undefined) ? t : 0;
  return { min: 0, max: FAIRY_TURN_POINTS * t + FAIRY_SCORING_POINTS * (t + movedIn + rules.followers) };
}
