/**
 * King and Robber Baron's share of the score bounds (`gameInfo(...).utility.score` of
 * `meeplekit/ai`).
 */
import { completeFeatures, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';

/**
 * The most points the King and the Robber Baron can give one player: they score only at the end,
 * the King's holder 1 per completed city on the board, the Robber Baron's 1 per completed road
 * (the Czech rulebook of The Castle, "Carcassonne Král & Zvěď"; the expansions digest), and one player may hold
 * both. The cities' and roads' own points are the base game's share. Completed cities and roads
 * are counted by `completeFeatures`: every city and road segment of the classic family owns the
 * middle of a side, so a completed one spans at least two tiles and at most half the segments can
 * be complete at once (the City of Carcassonne's inside, walled off, is counted once per square).
 * Classic with this module: 55 city segments and 67 road segments, so 27 + 33 = 60. Nothing
 * takes points away.
 */
export function kingRobberScoreBounds(rules: Ruleset): ScoreBounds {
  return { min: 0, max: completeFeatures(rules, 'city') + completeFeatures(rules, 'road') };
}
