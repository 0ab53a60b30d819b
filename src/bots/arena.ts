/**
 * Arenas: bots play each other over seeded deals with the seats rotated, and the games are summed
 * up as pairwise results with Wilson intervals and Bradley-Terry ratings on the Elo scale with
 * 95% intervals. `meeplekit arena` and `npm run arena` (bench/arena.ts) are built on it.
 */
import { applyMove, newGame } from '../core/engine/apply.js';
import { createRandomSource } from '../core/rng.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import { err, ok, type Result } from '../core/result.js';
import { greedyBot, randomBot, type Bot } from '../bots.js';
import { botError, type BotError } from './errors.js';
import { resolveOptions } from './levels.js';
import { searchBot } from './search.js';

/**
 * A bot of an arena: its name (unique in the arena) and how to make one for a game from a seed.
 * A fresh bot is made for every game, so that each game depends only on its own seeds.
 *
 * @example
 * ```ts
 * import { randomBot, createRandomSource } from 'meeplekit';
 * import { searchBot, type ArenaEntrant } from 'meeplekit/bots';
 *
 * const entrants: ArenaEntrant[] = [
 *   { name: 'level 1', make: (seed) => searchBot({ level: 1, seed }) },
 *   { name: 'random', make: (seed) => randomBot(createRandomSource(seed)) },
 * ];
 * console.log(entrants.map((e) => e.name)); // [ 'level 1', 'random' ]
 * ```
 */
export interface ArenaEntrant {
  /** The bot's name in the results. */
  readonly name: string;
  /** A new bot for one seat of one game; `seed` is that seat's own seed. */
  readonly make: (seed: string) => Bot;
}

/**
 * One game of an arena's schedule: which deal (the game's seed), which rotation of the seats, and
 * the entrant (an index into the entrants) in each seat.
 *
 * @example
 * ```ts
 * import { arenaSchedule, type ArenaSeating } from 'meeplekit/bots';
 *
 * const first: ArenaSeating = arenaSchedule(2, 2, 1)[0]!;
 * console.log(first); // { deal: 0, rotation: 0, seats: [ 0, 1 ] }
 * ```
 */
export interface ArenaSeating {
  /** The deal: games of the same deal start from the same seed. */
  readonly deal: number;
  /** The rotation of the table's lineup: seat `i` holds the lineup's bot `(i + rotation) % players`. */
  readonly rotation: number;
  /** The entrant in each seat. */
  readonly seats: readonly number[];
}

/** Every choice of `k` of `n` indices, each in increasing order. */
function combinations(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let i = k - 1; i < n; i++) for (const c of combinations(i, k - 1)) out.push([...c, i]);
  return out;
}

/**
 * The games an arena plays: for every deal, every table (every choice of `players` of the
 * `entrants`; with fewer entrants than seats, one table of the entrants repeated in turn), each
 * played once per rotation of its seats. With two players every deal is played with the seats
 * swapped, so that each bot gets the same tile draws (as long as the same tiles fit) in every seat.
 * The deals are `firstDeal` to `firstDeal + deals - 1` (default from 0): an arena cut short, or
 * shared between machines, is played on in pieces that together are the whole schedule.
 *
 * @example
 * ```ts
 * import { arenaSchedule } from 'meeplekit/bots';
 *
 * // Three bots, two seats: three tables, each played twice per deal.
 * console.log(arenaSchedule(3, 2, 1).map((s) => s.seats.join('-'))); // [ '0-1', '1-0', '0-2', '2-0', '1-2', '2-1' ]
 * // Deals 5 and 6 only.
 * console.log(arenaSchedule(2, 2, 2, 5).map((s) => s.deal)); // [ 5, 5, 6, 6 ]
 * ```
 */
export function arenaSchedule(entrants: number, players: number, deals: number, firstDeal = 0): ArenaSeating[] {
  const tables = entrants >= players ? combinations(entrants, players) : [Array.from({ length: players }, (_, i) => i % entrants)];
  const out: ArenaSeating[] = [];
  for (let deal = firstDeal; deal < firstDeal + deals; deal++) {
    for (const table of tables) {
      for (let rotation = 0; rotation < players; rotation++) out.push({ deal, rotation, seats: table.map((_, i) => table[(i + rotation) % players]!) });
    }
  }
  return out;
}

/**
 * The time a seat's bot took over one game, in milliseconds of the clock (the one part of an
 * arena's results that is not deterministic).
 *
 * @example
 * ```ts
 * import type { SeatTiming } from 'meeplekit/bots';
 *
 * const t: SeatTiming = { ms: 12, decisions: 40, slowestMs: 2 };
 * console.log(t.ms / t.decisions); // 0.3 ms a decision
 * ```
 */
export interface SeatTiming {
  /** Milliseconds spent choosing moves. */
  readonly ms: number;
  /** Moves chosen. */
  readonly decisions: number;
  /** The longest single decision, in milliseconds. */
  readonly slowestMs: number;
}

/**
 * A game played by {@link playArenaGame}: its seating, the final scores by seat and each seat's
 * timing.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { arenaSchedule, namedBot, playArenaGame, type ArenaGame } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const make = (name: string) => (seed: string) => {
 *   const bot = namedBot(name, seed);
 *   if (!bot.ok) throw new Error(bot.error.message);
 *   return bot.value;
 * };
 * const entrants = [{ name: 'greedy', make: make('greedy') }, { name: 'random', make: make('random') }];
 * const game: ArenaGame = playArenaGame(rules.value, entrants, arenaSchedule(2, 2, 1)[0]!, 'doc');
 * console.log(game.seats, game.scores);
 * ```
 */
export interface ArenaGame extends ArenaSeating {
  /** Final scores, by seat. */
  readonly scores: readonly number[];
  /** Each seat's time, by seat. */
  readonly timing: readonly SeatTiming[];
}

/**
 * Plays one game of an arena: a new game of `rules` from the seed `<seed>/<deal>`, with the bot
 * of seat `i` made by its entrant from the seed `<seed>/<deal>/<rotation>/<i>`. Deterministic but
 * for the timing (for bots that are: time-bounded searches are not). Throws if a bot plays an
 * illegal move or the game cannot be set up (players out of the ruleset's range).
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, greedyBot, randomBot } from 'meeplekit';
 * import { playArenaGame } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const entrants = [
 *   { name: 'greedy', make: (seed: string) => greedyBot(createRandomSource(seed)) },
 *   { name: 'random', make: (seed: string) => randomBot(createRandomSource(seed)) },
 * ];
 * const game = playArenaGame(rules.value, entrants, { deal: 0, rotation: 1, seats: [1, 0] }, 'doc');
 * console.log(`random ${game.scores[0]}, greedy ${game.scores[1]}`);
 * ```
 */
export function playArenaGame(rules: Ruleset, entrants: readonly ArenaEntrant[], seating: ArenaSeating, seed: string): ArenaGame {
  const { deal, rotation, seats } = seating;
  const players = seats.length;
  const bots = seats.map((b, i) => entrants[b]!.make(`${seed}/${deal}/${rotation}/${i}`));
  const game = newGame(rules, { players, seed: `${seed}/${deal}` });
  if (!game.ok) throw new Error(game.error.message);
  let state: GameState = game.value;
  const timing = seats.map(() => ({ ms: 0, decisions: 0, slowestMs: 0 }));
  while (state.step.kind !== 'game-over') {
    const p = state.step.player;
    const started = performance.now();
    const move = bots[p]!(rules, state);
    const took = performance.now() - started;
    const t = timing[p]!;
    t.ms += took;
    t.decisions++;
    t.slowestMs = Math.max(t.slowestMs, took);
    const next = applyMove(rules, state, move);
    if (!next.ok) throw new Error(`${entrants[seats[p]!]!.name} played an illegal move: ${next.error.message}`);
    state = next.value.state;
  }
  return { deal, rotation, seats: [...seats], scores: [...state.scores], timing };
}

/**
 * One bot's results against another, summed over the games where both sat at the table: each
 * such game counts once (in a game of three or more, every two bots at the table make a pair).
 *
 * @example
 * ```ts
 * import { wilsonInterval, type PairRecord } from 'meeplekit/bots';
 *
 * const r: PairRecord = { games: 10, score: 8, margin: 120 };
 * console.log(r.score / r.games, wilsonInterval(r.score, r.games), r.margin / r.games);
 * ```
 */
export interface PairRecord {
  /** Games the two played at the same table. */
  readonly games: number;
  /** Games the first scored more in, a tie counting one half. */
  readonly score: number;
  /** The sum over those games of the first's score less the second's. */
  readonly margin: number;
}

/**
 * The pairwise records of `games`: `records[i][j]` is entrant `i`'s record against entrant `j`
 * (two seats of the same entrant make no pair).
 *
 * @example
 * ```ts
 * import { pairRecords } from 'meeplekit/bots';
 *
 * const games = [
 *   { deal: 0, rotation: 0, seats: [0, 1], scores: [30, 20], timing: [] },
 *   { deal: 0, rotation: 1, seats: [1, 0], scores: [25, 25], timing: [] },
 * ];
 * console.log(pairRecords(2, games)[0]![1]); // { games: 2, score: 1.5, margin: 10 }
 * ```
 */
export function pairRecords(entrants: number, games: readonly ArenaGame[]): PairRecord[][] {
  const records = Array.from({ length: entrants }, () => Array.from({ length: entrants }, () => ({ games: 0, score: 0, margin: 0 })));
  for (const { seats, scores } of games) {
    for (let i = 0; i < seats.length; i++) {
      for (let j = 0; j < seats.length; j++) {
        if (i === j || seats[i] === seats[j]) continue;
        const r = records[seats[i]!]![seats[j]!]!;
        r.games++;
        r.score += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
        r.margin += scores[i]! - scores[j]!;
      }
    }
  }
  return records;
}

/**
 * A rating on the Elo scale (a difference of 400 is odds of 10 to 1) with its 95% interval.
 *
 * @example
 * ```ts
 * import type { Rating } from 'meeplekit/bots';
 *
 * const r: Rating = { elo: 147.2, low: -224.3, high: 518.7, se: 189.5 };
 * console.log(`${Math.round(r.elo)} [${Math.round(r.low)}, ${Math.round(r.high)}]`);
 * ```
 */
export interface Rating {
  /** The rating, relative to the anchor's 0. */
  readonly elo: number;
  /** `elo` less 1.96 standard errors (-Infinity for a bot that played no game). */
  readonly low: number;
  /** `elo` plus 1.96 standard errors (Infinity for a bot that played no game). */
  readonly high: number;
  /** The standard error, in Elo points. */
  readonly se: number;
}

/** Options of {@link bradleyTerry}. */
export interface BradleyTerryOptions {
  /** The entrant rated 0 (default: the lowest rated). */
  readonly anchor?: number;
  /** Minorization-maximization sweeps (default 2000). */
  readonly iterations?: number;
}

/**
 * Bradley-Terry ratings of pairwise records ({@link pairRecords}), fitted by
 * minorization-maximization with half a win and half a loss of prior against each opponent met
 * (so that an all-win record stays finite), on the Elo scale: `400 * log10(strength)`, the anchor
 * at 0. The 95% interval of each rating is ±1.96 standard errors from the model's information,
 * each rating taken alone (the others held fixed). Deterministic.
 *
 * @example
 * ```ts
 * import { bradleyTerry } from 'meeplekit/bots';
 *
 * // A won 3 games of 4 against B: with the prior, 3.5 of 5, a strength ratio of 0.7 to 0.3.
 * const [a, b] = bradleyTerry([
 *   [{ games: 0, score: 0, margin: 0 }, { games: 4, score: 3, margin: 40 }],
 *   [{ games: 4, score: 1, margin: -40 }, { games: 0, score: 0, margin: 0 }],
 * ]);
 * console.log(a!.elo.toFixed(1), b!.elo); // 147.2 0 (400 * log10(0.7 / 0.3))
 * ```
 */
export function bradleyTerry(records: readonly (readonly PairRecord[])[], options: BradleyTerryOptions = {}): Rating[] {
  const n = records.length;
  const strength = new Array<number>(n).fill(1);
  const sweeps = options.iterations ?? 2000;
  for (let it = 0; it < sweeps; it++) {
    for (let i = 0; i < n; i++) {
      let wins = 0;
      let denom = 0;
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const g = records[i]![j]!.games;
        if (g === 0) continue;
        wins += records[i]![j]!.score + 0.5;
        denom += (g + 1) / (strength[i]! + strength[j]!);
      }
      if (denom > 0) strength[i] = wins / denom;
    }
  }
  const elo = strength.map((s) => 400 * Math.log10(s));
  const zero = n === 0 ? 0 : options.anchor === undefined ? Math.min(...elo) : elo[options.anchor]!;
  return elo.map((e, i) => {
    let info = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const p = strength[i]! / (strength[i]! + strength[j]!);
      info += records[i]![j]!.games * p * (1 - p);
    }
    const se = info > 0 ? 400 / Math.LN10 / Math.sqrt(info) : Infinity;
    return { elo: e - zero, low: e - zero - 1.96 * se, high: e - zero + 1.96 * se, se };
  });
}

/**
 * The Wilson score interval of a proportion: `successes` of `trials` (halves allowed, for ties),
 * at `z` standard deviations (default 1.96: 95%). `[0, 1]` for no trials.
 *
 * @example
 * ```ts
 * import { wilsonInterval } from 'meeplekit/bots';
 *
 * const [low, high] = wilsonInterval(8, 10);
 * console.log(low.toFixed(3), high.toFixed(3)); // 0.490 0.943
 * ```
 */
export function wilsonInterval(successes: number, trials: number, z = 1.96): [number, number] {
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * One entrant's line of an {@link ArenaSummary}: its rating and its speed.
 *
 * @example
 * ```ts
 * import type { ArenaRating } from 'meeplekit/bots';
 *
 * const r: ArenaRating = { bot: 'greedy', elo: 420, low: 300, high: 540, se: 61, decisions: 700, msPerDecision: 1.5, slowestMs: 9 };
 * console.log(`${r.bot} ${r.elo} [${r.low}, ${r.high}]`);
 * ```
 */
export interface ArenaRating extends Rating {
  /** The entrant's name. */
  readonly bot: string;
  /** Moves it chose, over all games. */
  readonly decisions: number;
  /** Mean milliseconds a decision (timing: varies from run to run). */
  readonly msPerDecision: number;
  /** The longest decision, in milliseconds (timing). */
  readonly slowestMs: number;
}

/**
 * One pair's line of an {@link ArenaSummary}: the first bot's share of the games against the
 * second (ties count one half), with its 95% Wilson interval, and the mean score margin.
 *
 * @example
 * ```ts
 * import type { ArenaPair } from 'meeplekit/bots';
 *
 * const p: ArenaPair = { bot: 'greedy', against: 'random', games: 20, share: 0.95, low: 0.764, high: 0.991, meanMargin: 31.2 };
 * console.log(`${p.bot} vs ${p.against}: ${(100 * p.share).toFixed(1)}%`);
 * ```
 */
export interface ArenaPair {
  /** The first bot. */
  readonly bot: string;
  /** The second. */
  readonly against: string;
  /** Games they played at the same table. */
  readonly games: number;
  /** The first's share of them. */
  readonly share: number;
  /** The low end of the 95% Wilson interval of `share`. */
  readonly low: number;
  /** The high end of the 95% Wilson interval of `share`. */
  readonly high: number;
  /** The first's mean score less the second's. */
  readonly meanMargin: number;
}

/**
 * What the games of an arena come to: each entrant's rating and speed, in entrant order, and each
 * pair that met (first bot before second in entrant order).
 *
 * @example
 * ```ts
 * import { summarizeArena } from 'meeplekit/bots';
 *
 * const games = [{ deal: 0, rotation: 0, seats: [0, 1], scores: [30, 20], timing: [{ ms: 2, decisions: 40, slowestMs: 1 }, { ms: 1, decisions: 40, slowestMs: 1 }] }];
 * const summary = summarizeArena(['greedy', 'random'], games);
 * console.log(summary.pairs[0]!.share, summary.ratings[1]!.elo); // 1 0
 * ```
 */
export interface ArenaSummary {
  /** Each entrant's rating and speed, in entrant order. */
  readonly ratings: readonly ArenaRating[];
  /** Each pair that met, first bot before second in entrant order. */
  readonly pairs: readonly ArenaPair[];
}

/** Options of {@link summarizeArena} and {@link runArena}. */
export interface ArenaSummaryOptions {
  /** The name of the entrant rated 0 (default: the one named `random` if there is one, else the lowest rated). */
  readonly anchor?: string;
}

/**
 * Sums up an arena's games for the entrants `names` (in entrant order): {@link pairRecords},
 * {@link bradleyTerry} ratings anchored as `options.anchor` says, {@link wilsonInterval}s, and
 * each entrant's time a decision. Deterministic but for the timing fields.
 *
 * @example
 * ```ts
 * import { summarizeArena } from 'meeplekit/bots';
 *
 * const games = [
 *   { deal: 0, rotation: 0, seats: [0, 1], scores: [30, 20], timing: [] },
 *   { deal: 0, rotation: 1, seats: [1, 0], scores: [18, 26], timing: [] },
 * ];
 * const { ratings, pairs } = summarizeArena(['level 1', 'random'], games);
 * console.log(ratings.map((r) => `${r.bot} ${Math.round(r.elo)}`), pairs[0]!.share); // [ 'level 1 280', 'random 0' ] 1
 * ```
 */
export function summarizeArena(names: readonly string[], games: readonly ArenaGame[], options: ArenaSummaryOptions = {}): ArenaSummary {
  const n = names.length;
  const records = pairRecords(n, games);
  const anchorName = options.anchor ?? (names.includes('random') ? 'random' : undefined);
  const anchor = anchorName === undefined ? -1 : names.indexOf(anchorName);
  const fitted = bradleyTerry(records, anchor < 0 ? {} : { anchor });
  const time = names.map(() => ({ ms: 0, decisions: 0, slowestMs: 0 }));
  for (const g of games) {
    g.timing.forEach((t, seat) => {
      const k = time[g.seats[seat]!]!;
      k.ms += t.ms;
      k.decisions += t.decisions;
      k.slowestMs = Math.max(k.slowestMs, t.slowestMs);
    });
  }
  const ratings = names.map((bot, i) => ({ bot, ...fitted[i]!, decisions: time[i]!.decisions, msPerDecision: time[i]!.ms / Math.max(1, time[i]!.decisions), slowestMs: time[i]!.slowestMs }));
  const pairs: ArenaPair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const r = records[i]![j]!;
      if (r.games === 0) continue;
      const [low, high] = wilsonInterval(r.score, r.games);
      pairs.push({ bot: names[i]!, against: names[j]!, games: r.games, share: r.score / r.games, low, high, meanMargin: r.margin / r.games });
    }
  }
  return { ratings, pairs };
}

/** Options of {@link runArena}. */
export interface ArenaOptions extends ArenaSummaryOptions {
  /** Players at each table. */
  readonly players: number;
  /** Deals: each is played by every table in every rotation ({@link arenaSchedule}). */
  readonly deals: number;
  /**
   * The first deal's number (default 0): deals `firstDeal` to `firstDeal + deals - 1` are played,
   * each with the same seeds as in a run from 0, so that a run cut short can be finished.
   */
  readonly firstDeal?: number;
  /** The arena's seed: game seeds are `<seed>/<deal>` (default `'arena'`). */
  readonly seed?: string;
  /** Called after each game with it and the number of games done and to play (progress). */
  readonly onGame?: (game: ArenaGame, done: number, total: number) => void;
}

/**
 * What {@link runArena} answers: the summary, the games in schedule order, and what was played.
 *
 * @example
 * ```ts
 * import type { ArenaResult } from 'meeplekit/bots';
 *
 * function report(result: ArenaResult): string {
 *   return `${result.games.length} games of ${result.ruleset}: ${result.ratings.map((r) => r.bot).join(', ')}`;
 * }
 * console.log(typeof report);
 * ```
 */
export interface ArenaResult extends ArenaSummary {
  /** The ruleset's id. */
  readonly ruleset: string;
  /** Players at each table. */
  readonly players: number;
  /** Deals played. */
  readonly deals: number;
  /** The first deal's number ({@link ArenaOptions.firstDeal}). */
  readonly firstDeal: number;
  /** The arena's seed. */
  readonly seed: string;
  /** Every game, in schedule order. */
  readonly games: readonly ArenaGame[];
}

/**
 * Plays an arena: every game of {@link arenaSchedule} with {@link playArenaGame}, summed up by
 * {@link summarizeArena}. The same entrants, rules and options give the same games and ratings
 * (deterministic bots assumed), apart from the timing fields. Bad options are an `err` with
 * `bots/bad-options` (fewer than two entrants, names not unique, players out of the ruleset's
 * range, deals not a whole number, an unknown anchor); a bot that throws throws through.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { namedBot, runArena, type ArenaEntrant } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const entrants: ArenaEntrant[] = ['search:1', 'random'].map((name) => ({
 *   name,
 *   make: (seed) => {
 *     const bot = namedBot(name, seed);
 *     if (!bot.ok) throw new Error(bot.error.message);
 *     return bot.value;
 *   },
 * }));
 * const arena = runArena(rules.value, entrants, { players: 2, deals: 1, seed: 'doc' });
 * if (!arena.ok) throw new Error(arena.error.message);
 * for (const r of arena.value.ratings) console.log(r.bot, Math.round(r.elo), [Math.round(r.low), Math.round(r.high)]);
 * ```
 */
export function runArena(rules: Ruleset, entrants: readonly ArenaEntrant[], options: ArenaOptions): Result<ArenaResult, BotError> {
  const bad = (message: string): Result<never, BotError> => err(botError('bots/bad-options', message));
  if (!Array.isArray(entrants) || entrants.length < 2) return bad('an arena needs at least two entrants');
  const names = entrants.map((e) => e.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return bad(`two entrants are named '${twice}': give each its own name`);
  const { players, deals, firstDeal = 0, seed = 'arena' } = options;
  if (!Number.isInteger(players) || players < rules.minPlayers || players > rules.maxPlayers) return bad(`players must be a whole number from ${rules.minPlayers} to ${rules.maxPlayers}, got ${String(players)}`);
  if (!Number.isInteger(deals) || deals < 0) return bad(`deals must be a whole number (0 or more), got ${String(deals)}`);
  if (!Number.isSafeInteger(firstDeal) || firstDeal < 0) return bad(`firstDeal must be a whole number (0 or more), got ${String(firstDeal)}`);
  if (typeof seed !== 'string') return bad('seed must be a string');
  if (options.anchor !== undefined && !names.includes(options.anchor)) return bad(`the anchor '${options.anchor}' is not an entrant`);
  const schedule = arenaSchedule(entrants.length, players, deals, firstDeal);
  const games: ArenaGame[] = [];
  for (const seating of schedule) {
    const game = playArenaGame(rules, entrants, seating, seed);
    games.push(game);
    options.onGame?.(game, games.length, schedule.length);
  }
  const summary = summarizeArena(names, games, options.anchor === undefined ? {} : { anchor: options.anchor });
  return ok({ ruleset: rules.id, players, deals, firstDeal, seed, games, ...summary });
}

/** `level:N` or `search:N` (a level from 1 to 5), optionally `@MS`. */
const NAMED_SEARCH = /^(?:level|search):(\d+)(?:@(\d+))?$/;

/**
 * A bot by name, seeded with `seed`: `random`, `greedy`, `search:N` (the search bot at level N,
 * from 1 to 5; `level:N` is the same), `search:N@MS` (level N bounded by MS milliseconds a
 * decision instead of its iteration budget: not deterministic). The names of `meeplekit arena`'s
 * `--bots`. Errors: `bots/bad-options` for an unknown name, `bots/unknown-level`, `bots/bad-budget`.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { namedBot } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'named' });
 * if (!game.ok) throw new Error(game.error.message);
 * const bot = namedBot('search:1', 'seed');
 * if (bot.ok) console.log(bot.value(rules.value, game.value));
 * console.log(namedBot('search:9', 'seed').ok); // false: bots/unknown-level
 * ```
 */
export function namedBot(name: string, seed: string): Result<Bot, BotError> {
  if (name === 'random') return ok(randomBot(createRandomSource(seed)));
  if (name === 'greedy') return ok(greedyBot(createRandomSource(seed)));
  const m = typeof name === 'string' ? NAMED_SEARCH.exec(name) : null;
  if (m === null) return err(botError('bots/bad-options', `unknown bot '${String(name)}' (random, greedy, search:LEVEL, level:LEVEL, search:LEVEL@MS)`));
  const options = m[2] === undefined ? { level: Number(m[1]), seed } : { level: Number(m[1]), timeMs: Number(m[2]), seed };
  const checked = resolveOptions(options);
  return checked.ok ? ok(searchBot(options)) : checked;
}
