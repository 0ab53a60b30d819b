/**
 * meeplekit/bots: bots that play any game the library builds (classic with any expansions, 2 to 5
 * players, and The Castle), from a uniformly random one to an information-set Monte Carlo tree
 * search with five strength levels; an anytime asynchronous search for responsive UIs; and an
 * analysis of a decision's candidate moves for hints and reviews. Built on `meeplekit/ai`; an app
 * that does not import this subpath does not bundle it. docs/bots.md is the guide.
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, newGame } from 'meeplekit';
 * import { searchBot } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 3, seed: 'bots' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const bot = searchBot({ level: 1, seed: 'table' });
 * let state = game.value;
 * while (state.step.kind !== 'game-over') {
 *   const next = applyMove(rules.value, state, bot(rules.value, state));
 *   if (!next.ok) throw new Error(next.error.message);
 *   state = next.value.state;
 * }
 * console.log(state.scores, state.step.winners);
 * ```
 *
 * @module meeplekit/bots
 */
export { searchBot } from './search.js';
export { think, type ThinkOptions, type Thought } from './think.js';
export { analyse, moveCost, type Analysis, type Candidate } from './analyse.js';
export { LEVELS, LEVEL_SPECS, type Level, type LevelSpec, type SearchOptions } from './levels.js';
export { BOT_ERROR_CODES, type BotError, type BotErrorCode } from './errors.js';
export { randomBot, greedyBot, type Bot } from '../bots.js';
export {
  arenaSchedule,
  bradleyTerry,
  namedBot,
  pairRecords,
  playArenaGame,
  runArena,
  summarizeArena,
  wilsonInterval,
  type ArenaEntrant,
  type ArenaGame,
  type ArenaOptions,
  type ArenaPair,
  type ArenaRating,
  type ArenaResult,
  type ArenaSeating,
  type ArenaSummary,
  type ArenaSummaryOptions,
  type BradleyTerryOptions,
  type PairRecord,
  type Rating,
  type SeatTiming,
} from './arena.js';
