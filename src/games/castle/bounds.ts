/**
 * The Castle's share of the score bounds (`gameInfo(...).utility.score` of `meeplekit/ai`): what
 * its scoring, its keep and its wall tokens can give one player in one game, from the board and
 * tile data of the ruleset (its options may replace both).
 */
import { sumOverSegments, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { CastleConfig } from './options.js';
import { WALL_TOKENS } from './state.js';

/**
 * The most points The Castle can give one player (the Czech rulebook of The Castle, "Bodování" and the token
 * table; the Castle digest). Every point comes from one of these, and each feature is scored at
 * most once, for one player (the one with more followers; a tie scores nobody): a completed path,
 * tower or house when it is completed, an unfinished one only through a final token, a court at
 * the end. Per segment of every tile that can lie on the board (the start fields too: a start
 * field a feature reaches counts as a tile, its markets count):
 *
 * - a path: 1 per tile, 2 with a well ("2 body za každou hradní kartu"); unfinished, token 4 gives
 *   1 per tile: at most 2 per path segment;
 * - a tower: 2 per tile, 4 with token 2; unfinished, token 5 gives 2 per tile: at most 4;
 * - a house: 1 per tile, 2 with token 3; unfinished, token 6 gives 1 per tile: at most 2 (a
 *   second copy of a final token on the same feature would not exceed these either);
 * - a court: 3 per market, 4 with token 7 (on every court with `marketToken: 'every-court'`):
 *   at most 4 per market;
 * - the keep: the largest empty area, at most the play area's cells less one (the keep stands
 *   on a completed house, so at least one tile lies in the play area);
 * - token 9: 5 points, and there are 2 of each token kind.
 *
 * Nothing takes points away: `min` is 0. Scores are not taken modulo 100: the track's laps
 * ("už získal 100 bodů") only decide where tokens are picked up. Loose: it assumes one player
 * completes and holds every feature with a well or a token on it, and an empty board around the
 * keep: the best of 300 random games scored 45.
 */
export function castleScoreBounds(rules: Ruleset, config: CastleConfig): ScoreBounds {
  const perTile: Readonly<Record<string, number>> = { path: 2, tower: 4, house: 2 };
  const names = rules.kindNames;
  const tracks = rules.tracksTiles;
  const features = sumOverSegments(rules, (tile, f) => {
    const k = tile.kinds[f]!;
    const name = names[k]!;
    if (name === 'court') return 4 * tile.pennants[f]!;
    return tracks[k] ? (perTile[name] ?? 0) : 0;
  });
  const nines = WALL_TOKENS.filter((t) => t === 9).length;
  return { min: 0, max: features + (config.layout.cellCount - 1) + 5 * nines };
}
