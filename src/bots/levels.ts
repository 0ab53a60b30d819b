/**
 * Strength levels and the search's options, checked once.
 */
import { err, ok, type Result } from '../core/result.js';
import { botError, type BotError } from './errors.js';
import type { RolloutPrior } from './rollout.js';
import { FOLLOW_WEIGHTS } from './follow.js';

/**
 * The strength levels, weakest first.
 *
 * @example
 * ```ts
 * import { LEVELS, LEVEL_SPECS } from 'meeplekit/bots';
 *
 * for (const level of LEVELS) console.log(level, LEVEL_SPECS[level].iterations); // 1 24 ... 5 12000
 * ```
 */
export const LEVELS = [1, 2, 3, 4, 5] as const;

/** One of {@link LEVELS}. */
export type Level = (typeof LEVELS)[number];

/**
 * What a level searches with: its iteration budget per decision, how many plies a rollout plays
 * at random before the position is scored by its projected scores, and what a follower still in
 * supply adds to that score.
 * Level 5 takes about 0.35 s a decision on average, up to about 1 to 2 s, on one core of the project's
 * benchmark machine in 2-player classic, where its rollouts follow the placement prior
 * (docs/benchmarks.md, "Bots"; about 1 s on average in The Castle and with all six expansions):
 * pass `timeMs` to bound a search by the clock.
 */
export interface LevelSpec {
  /** Searches per decision. */
  readonly iterations: number;
  /** Random plies a rollout plays before it is scored by projected scores. */
  readonly rollout: number;
  /**
   * Points each follower still in a player's supply adds to a rollout's score at the start of the
   * game, falling with the share of tiles left to nothing at the end (0: projected scores alone).
   */
  readonly followerValue: number;
  /**
   * Games (by their id, `rules.game.game`) in which the level's rollouts play on to the end of the
   * game instead of `rollout` plies, with `iterations` searches a decision instead of the level's.
   * Levels 3 to 5 in The Castle: there a position's projected scores misjudge what the end of the
   * game scores (the keep's empty area, the tokens kept for the end); rollouts to the end won 6
   * games of 7 against the same search with 12-ply rollouts at 2,000 searches, and with them each
   * of levels 3 to 5 beats the one below in at least 70% of games (docs/design.md, "Bots"). Level
   * 2 keeps its short rollouts: 60 rollouts to the end lost to level 1. Absent: `rollout` everywhere.
   */
  readonly toTheEnd?: {
    /** The games' ids (`rules.game.game`: `'castle'`). */
    readonly games: readonly string[];
    /** Searches a decision in those games, instead of `iterations`. */
    readonly iterations: number;
  };
  /**
   * UCB1's exploration constant (rewards from 0 to 1); absent, 0.5. Level 5 explores with 0.3: at
   * 2,000 searches a decision, against the same search with 0.5, it won 63.3% of 60 games in The
   * Castle and 60.8% of 120 in 2-player classic (docs/design.md, "Bots", eighth and ninth rounds).
   */
  readonly explore?: number;
  /**
   * Games (by their id, `rules.game.game`; classic with any expansions is `'classic'`) in which a
   * node's placements that would complete a feature (a road, a city) are tried before its other
   * placements, in random order among themselves. Below the root the search widens a node by one
   * untried move at a time, so an opponent's one reply that closes a city was seldom among the few
   * it searched, and level 5's losses to greedy were made of the cities greedy closed. Level 5 in
   * classic (measured there; docs/design.md, "Bots", twelfth round): over the same 200 deals and
   * seats it beat greedy in 96.0% of games against 92.5% without it, at no measurable cost in time.
   * Absent: nowhere.
   */
  readonly completeFirst?: readonly string[];
  /**
   * Where the level's rollouts choose each tile placement by the placement prior instead of
   * uniformly: among `candidates` legal placements drawn at random, one with probability
   * proportional to `exp(score / temperature)`, where the score is a linear function of what the
   * placement does to the features around it for the player who places it (completes, extends or
   * contests their cities and roads or the other side's, surrounds cloisters, joins fields),
   * fitted to level 5's own searches; follower decisions by the follower prior where
   * `followTemperature` says so, else uniformly. Level 5 in 2-player classic
   * without expansions, where it was measured (docs/design.md, "Bots", twenty-second round):
   * against the same search with uniform rollouts at 1,000 searches a decision it won 65.3% of
   * 160 games, and against examples/mcts.ts at 700 ms a decision each, 68.4% of 160 games (+13.2
   * points a game), where the same deals and seats gave level 5 with uniform rollouts 54.1%
   * (+4.4); as level 5 (twenty-third round), 96.3% of 200 games against the greedy bot, 85.5% of
   * 100 against level 4 and 68.7% of 241 against examples/mcts.ts at 700 ms; with the same searches
   * about a fifth faster (`f71e7aa`), 66.9% of 222 at 700 ms. A search costs about 1.7 to 2 times as
   * much as with uniform rollouts (docs/benchmarks.md, "Bots"). With the follower prior as well
   * (`followTemperature`, twenty-seventh round), level 5 beat the greedy bot in 99.0% of the same
   * 200 games, level 4 in 90.5% of the same 100, and examples/mcts.ts at 700 ms in 81.3% of 240 games [75.8, 85.7] (mean margin +16.8).
   * Absent: uniform rollouts everywhere.
   */
  readonly priorRollouts?: {
    /** The games' ids (`rules.game.game`), played without expansions. */
    readonly games: readonly string[];
    /** The numbers of players. */
    readonly players: readonly number[];
    /** The softmax's temperature over the prior's scores (lower follows the prior more closely). */
    readonly temperature: number;
    /** Legal placements drawn uniformly (repeats allowed) among which the prior chooses. */
    readonly candidates: number;
    /**
     * The softmax's temperature over the follower prior's scores at the rollouts' deploy
     * decisions (`follow.ts`: what each option is, weights fitted to level 5's own searches);
     * absent, those decisions are uniform. Level 5: 1, the prior as fitted. Against the same
     * search with uniform follower decisions, 1,000 searches a decision each, it won 60.6% of 564
     * games, mean margin +6.3 (docs/design.md, "Bots", twenty-sixth round), at 0.95 times the
     * searches a second; at 700 ms a decision against examples/mcts.ts, 81.3% of 104 games where
     * level 5 without it had won 69.2% of the same deals and seats (twenty-seventh round).
     */
    readonly followTemperature?: number;
  };
}

/**
 * The table a search is set for: how many players, and how many expansion modules the rules have
 * (`rules.expansions.length`). @internal
 */
export interface TableShape {
  readonly players: number;
  readonly expansions: number;
}

/**
 * The levels' budgets and evaluations (docs/bots.md has their measured strength): 1 is a tiny
 * search a beginner beats (plausible moves, many small mistakes: it always beat the random bot and
 * lost most games to the greedy one), 5 the largest budget and the only level that values the
 * followers a player keeps in hand (so that levels 2 to 4 each beat the one below clearly).
 * Levels 3 and 4 search 350 and 1,000 times: more searches stop paying above about 2,000, and
 * with level 4 at 2,000 level 5 won only 61.7% of 120 classic games against it; at 1,000, 73.3% of 180,
 * and every step of the classic ladder is at least 65% (docs/design.md, "Bots", tenth round).
 *
 * @example
 * ```ts
 * import { LEVEL_SPECS } from 'meeplekit/bots';
 *
 * console.log(LEVEL_SPECS[2]); // { iterations: 120, rollout: 4, followerValue: 0 }
 * ```
 */
export const LEVEL_SPECS: Readonly<Record<Level, LevelSpec>> = {
  1: { iterations: 24, rollout: 2, followerValue: 0 },
  2: { iterations: 120, rollout: 4, followerValue: 0 },
  3: { iterations: 350, rollout: 8, followerValue: 0, toTheEnd: { games: ['castle'], iterations: 250 } },
  4: { iterations: 1000, rollout: 12, followerValue: 0, toTheEnd: { games: ['castle'], iterations: 1000 } },
  5: {
    iterations: 12_000,
    rollout: 12,
    followerValue: 2,
    explore: 0.3,
    toTheEnd: { games: ['castle'], iterations: 10_000 },
    completeFirst: ['classic'],
    priorRollouts: { games: ['classic'], players: [2], temperature: 0.3, candidates: 6, followTemperature: 1 },
  },
};

/** Options of {@link searchBot}, {@link think} and {@link analyse}. */
export interface SearchOptions {
  /**
   * Strength level from 1 to 5 (default 3): sets the rollout and the evaluation, and the budget
   * unless `iterations` or `timeMs` does.
   */
  readonly level?: number;
  /** Searches per decision: deterministic for a given `seed`. Overrides the level's budget. */
  readonly iterations?: number;
  /**
   * Wall-clock milliseconds per decision (not deterministic: the number of searches depends on
   * the machine). With `iterations` too, the search stops at whichever comes first.
   */
  readonly timeMs?: number;
  /** Seed of the search's random choices (default `'meeplekit'`): same seed, budget and state, same move. */
  readonly seed?: string;
  /** Largest number of tree nodes kept (default 200,000, about 40 MB): beyond it the tree stops growing. */
  readonly maxNodes?: number;
}

/** Options checked and filled in. @internal */
export interface Budget {
  readonly iterations: number;
  readonly timeMs: number;
  readonly rollout: number;
  readonly followerValue: number;
  /** UCB1's exploration constant (rewards from 0 to 1). */
  readonly explore: number;
  readonly seed: string;
  readonly maxNodes: number;
  /** Whether a node's placements that complete a feature are tried before its others ({@link LevelSpec.completeFirst}). */
  readonly completeFirst: boolean;
  /** How rollouts choose their placements by the prior ({@link LevelSpec.priorRollouts}), or null: uniformly. */
  readonly priorRollouts: RolloutPrior | null;
  /** Whether the iterations are the level's (then a decision with few candidates takes fewer). */
  readonly fromLevel: boolean;
}

/** UCB1's exploration constant, for rewards from 0 to 1, unless a level sets its own ({@link LevelSpec.explore}). */
const EXPLORE = 0.5;

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * Checks options and fills in the level's budget in the game `game` (`rules.game.game`; omitted,
 * the budget everywhere else): there, in the level's {@link LevelSpec.toTheEnd} games, rollouts
 * play to the end (`rollout` is Infinity) with that game's searches unless the caller set a budget.
 * Rollouts follow the prior ({@link LevelSpec.priorRollouts}) only when `table` says the table is
 * one of the level's.
 * @internal
 */
export function resolveOptions(options: unknown, game?: string, table?: TableShape): Result<Budget, BotError> {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return err(botError('bots/bad-options', 'options must be an object'));
  const o = options as Record<string, unknown>;
  const level = o['level'] ?? 3;
  if (!LEVELS.includes(level as Level)) return err(botError('bots/unknown-level', `level must be one of ${LEVELS.join(', ')}, got ${typeof level === 'number' ? String(level) : typeof level}`));
  const spec = LEVEL_SPECS[level as Level];
  for (const k of ['iterations', 'timeMs'] as const) {
    const v = o[k];
    if (v !== undefined && !positive(v)) return err(botError('bots/bad-budget', `${k} must be a positive finite number, got ${typeof v === 'number' ? String(v) : typeof v}`));
  }
  if (o['iterations'] !== undefined && !Number.isInteger(o['iterations'])) return err(botError('bots/bad-budget', `iterations must be a whole number, got ${String(o['iterations'])}`));
  const maxNodes = o['maxNodes'] ?? 200_000;
  if (!positive(maxNodes) || !Number.isInteger(maxNodes)) return err(botError('bots/bad-budget', `maxNodes must be a positive whole number, got ${String(maxNodes)}`));
  const seed = o['seed'] ?? 'meeplekit';
  if (typeof seed !== 'string') return err(botError('bots/bad-options', `seed must be a string, got ${typeof seed}`));
  const timeMs = (o['timeMs'] as number | undefined) ?? Infinity;
  // The level's iterations bound the search unless the caller set a budget of their own.
  const toTheEnd = game !== undefined && spec.toTheEnd !== undefined && spec.toTheEnd.games.includes(game) ? spec.toTheEnd : null;
  const levelIterations = toTheEnd === null ? spec.iterations : toTheEnd.iterations;
  const iterations = (o['iterations'] as number | undefined) ?? (o['timeMs'] === undefined ? levelIterations : Infinity);
  const rollout = toTheEnd === null ? spec.rollout : Infinity;
  const explore = spec.explore ?? EXPLORE;
  const completeFirst = game !== undefined && spec.completeFirst !== undefined && spec.completeFirst.includes(game);
  const p = spec.priorRollouts;
  const priorRollouts =
    p !== undefined && game !== undefined && table !== undefined && rollout !== Infinity && p.games.includes(game) && p.players.includes(table.players) && table.expansions === 0
      ? { temperature: p.temperature, candidates: p.candidates, ...(p.followTemperature === undefined ? {} : { follow: { weights: FOLLOW_WEIGHTS, temperature: p.followTemperature } }) }
      : null;
  return ok({ iterations, timeMs, rollout, followerValue: spec.followerValue, explore, completeFirst, priorRollouts, seed, maxNodes, fromLevel: o['iterations'] === undefined && o['timeMs'] === undefined });
}
