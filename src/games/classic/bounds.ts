/**
 * Classic's share of the score bounds (`gameInfo(...).utility.score` of `meeplekit/ai`): what its
 * scoring (completed features, the final scoring, fields) can give one player in one game.
 */
import { sumOverSegments, type ScoreBounds } from '../../ai/bounds.js';
import type { Ruleset } from '../../core/ruleset.js';

/**
 * The most points classic's scoring can give one player: each road, city, cloister and field is
 * scored at most once (a completed feature when it is completed, its followers then going home;
 * an unfinished one, or a field, at the end), and a player scores a feature at most once however
 * many followers they have on it (the classic digest, "Score completed features", "Game end and
 * final scoring"). So the player's points are at most the values of all features summed, and
 * those sums are bounded per segment of every tile copy that can lie on the board (the
 * expansions' tiles too, by the kind's scoring tag: a shrine scores as a cloister, the Count's
 * City of Carcassonne as a city):
 *
 * - a road scores 1 per distinct tile (complete or not), and a tile counts for a road only
 *   through one of its road segments: at most 1 per road segment;
 * - a city scores 2 per tile and 2 per pennant when complete (1 and 1 at the end): at most 2 per
 *   city segment (of a kind that tracks its tiles; the others score 0 per tile) and 2 per pennant;
 * - a cloister scores 9 when complete, 1 plus its neighbours (at most 8) at the end: at most 9
 *   per cloister segment;
 * - a field scores 3 per distinct completed city it touches, and it touches a city only through
 *   an adjacency of one of its segments on some tile (`CompiledTile.adjacent`): at most 3 per
 *   adjacency entry of a field segment.
 *
 * Scores never fall through classic's scoring: `min` is 0. Classic alone: 62 road segments, 49
 * city segments with 10 pennants, 6 cloisters, 54 field-city adjacencies, so
 * 62 + 2 * (49 + 10) + 9 * 6 + 3 * 54 = 396 (test/utility-bounds.test.ts works it by hand). It is
 * loose: not every road, city and cloister can be complete, nor every city touch every field it
 * could, nor one player hold them all: the best of 300 random 2-player games scored 47.
 */
export function classicScoreBounds(rules: Ruleset): ScoreBounds {
  const scoring = rules.kindScoring;
  const tracks = rules.tracksTiles;
  const max = sumOverSegments(rules, (tile, f) => {
    const k = tile.kinds[f]!;
    switch (scoring[k]) {
      case 'road':
        return tracks[k] ? 1 : 0;
      case 'city':
        return 2 * ((tracks[k] ? 1 : 0) + tile.pennants[f]!);
      case 'cloister':
        return 9;
      case 'field':
        return 3 * tile.adjacent[f]!.length;
      default:
        return 0;
    }
  });
  return { min: 0, max };
}
