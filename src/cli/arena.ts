/**
 * `meeplekit arena`: bots play each other over seeded deals with the seats rotated (the arena of
 * meeplekit/bots, src/bots/arena.ts); prints Bradley-Terry ratings with 95% intervals and each
 * pair's results, or one JSON object. On a terminal, a progress bar on stderr.
 */
import { namedBot, playArenaGame, arenaSchedule, summarizeArena, type ArenaEntrant, type ArenaGame, type ArenaSummary } from '../bots/index.js';
import { parseFlags, splitList, wantsHelp, wholeNumber } from './args.js';
import { GAME_FLAGS_HELP, GAME_OPTIONS, modulesFromArgs, playersFor, RULESET_OPTIONS, rulesetFromFlags, seedProblem, unloadedModule, type ChosenRuleset, type ExpansionModules } from './expansions.js';
import { NO_PROGRESS, speed, startProgress, type Progress } from './progress.js';
import { rulesetName } from './viewer.js';

/** `arena`'s usage line. */
export const ARENA_SYNOPSIS = `meeplekit arena [--game classic|castle] [--expansions id,id,...] [--option id.key=value]...
                       [--river-set I|II|both] [--expansion-module file.js]... [--players N]
                       [--bots search:1,greedy,random] [--deals K] [--first-deal D] [--seed S] [--json] [--quiet]`;
const USAGE = `usage: ${ARENA_SYNOPSIS}\n(meeplekit arena --help: every flag)`;

/** The bots `--bots` of `arena` names, in words. */
const ARENA_BOTS = 'random, greedy, search:1 to search:5 (the search bot of meeplekit/bots at that level; level:N is the same), search:N@MS (level N bounded by MS milliseconds a decision: not deterministic)';

/** `meeplekit arena --help`. */
export const ARENA_HELP = `usage: ${ARENA_SYNOPSIS}

Plays bots against each other and rates them. Each deal is one seed (deal d: S/d), played by every
choice of --players of the bots, once per rotation of the seats (2 players: the seats swapped), so
that every bot gets the same tile draws in every seat. Every two bots at a table make a pairwise
result (who scored more, a tie a half): from them, Bradley-Terry ratings on the Elo scale with 95%
intervals (random = 0 when it plays, else the weakest), and each pair's share of games won with
its 95% Wilson interval and the mean score margin. The same flags give the same games and
ratings; only the milliseconds a decision and the seconds vary.

${GAME_FLAGS_HELP}
  --players N           players at each table (default 2; the game's range)
  --bots LIST           at least two different bots, comma-separated (default search:1,greedy,random):
                        ${ARENA_BOTS}
  --deals K             deals (default 10): K x tables x rotations games
  --first-deal D        play deals D to D+K-1 (default 0), seeded as in a run from 0: finishes a run cut short
  --seed S              the arena's seed (default 1); deal d is played from S/d, at most 256 characters
  --json                one JSON object (ratings, pairs, every game's seats and scores) instead of tables
  --quiet               no progress bar and no closing line on stderr
  -h, --help            this help
`;

/** Where `runArenaCommand` writes its text, and what it is told of the world. */
export interface ArenaIo {
  /** Standard output: the tables or the JSON object, at the end. */
  stdout(text: string): void;
  /** Standard error: messages, the progress bar, the closing line. */
  stderr(text: string): void;
  /** Whether stderr is a terminal: the progress bar is drawn only then (default false). */
  readonly stderrIsTTY?: boolean;
}

const OPTIONS = {
  ...RULESET_OPTIONS,
  players: GAME_OPTIONS.players,
  bots: { type: 'string', default: 'search:1,greedy,random' },
  deals: { type: 'string', default: '10' },
  'first-deal': { type: 'string', default: '0' },
  seed: GAME_OPTIONS.seed,
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
} as const;

/** A checked `arena` command line. */
interface ArenaRun {
  readonly chosen: ChosenRuleset;
  readonly players: number;
  readonly names: readonly string[];
  readonly entrants: readonly ArenaEntrant[];
  readonly deals: number;
  readonly firstDeal: number;
  readonly seed: string;
  readonly json: boolean;
  readonly quiet: boolean;
}

/** `--bots` checked: the names, or the message. */
function arenaBots(text: string): string[] | string {
  const names = splitList(text);
  for (const name of names) {
    const bot = namedBot(name, 'check');
    if (!bot.ok) return bot.error.code === 'bots/bad-options' ? `unknown bot '${name}' (bots: ${ARENA_BOTS})` : `--bots ${name}: ${bot.error.message}`;
  }
  if (names.length < 2) return `--bots needs at least two bots to play each other, got ${names.length === 0 ? 'none' : names[0]}`;
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return `--bots names ${twice} twice: each bot once`;
  return names;
}

function parseArenaArgs(args: readonly string[], modules: ExpansionModules): ArenaRun | string {
  const parsed = parseFlags(args, OPTIONS, false);
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  const unloaded = unloadedModule(values['expansion-module'], modules);
  if (unloaded !== null) return unloaded;
  const chosen = rulesetFromFlags(values, modules);
  if (typeof chosen === 'string') return chosen;
  const players = playersFor(values.players, chosen.rules);
  if (typeof players === 'string') return players;
  const names = arenaBots(values.bots);
  if (typeof names === 'string') return names;
  const deals = wholeNumber(values.deals);
  if (deals === null || deals < 1) return `--deals must be a positive whole number, got '${values.deals}'`;
  const firstDeal = wholeNumber(values['first-deal']);
  if (firstDeal === null) return `--first-deal must be a whole number (0 or more), got '${values['first-deal']}'`;
  const tooLong = seedProblem(values.seed, `/${firstDeal + deals - 1}`);
  if (tooLong !== null) return tooLong;
  const entrants = names.map((name) => ({
    name,
    make: (seed: string) => {
      const bot = namedBot(name, seed);
      if (!bot.ok) throw new Error(bot.error.message);
      return bot.value;
    },
  }));
  return { chosen, players, names, entrants, deals, firstDeal, seed: values.seed, json: values.json, quiet: values.quiet };
}

/** A number with one decimal, or a whole number when large. */
const ms = (v: number): string => (v >= 100 ? String(Math.round(v)) : v.toFixed(1));
const percent = (v: number): string => (100 * v).toFixed(1);

/** The tables `arena` prints. */
function arenaText(run: ArenaRun, summary: ArenaSummary, games: number): string {
  const { chosen, players, names, deals, firstDeal, seed } = run;
  const which = firstDeal === 0 ? '' : ` (${firstDeal} to ${firstDeal + deals - 1})`;
  const lines = [`meeplekit arena: ${rulesetName(chosen.rules)}, ${players} players, bots ${names.join(',')}, ${deals} deal${deals === 1 ? '' : 's'}${which} from seed ${JSON.stringify(seed)}: ${games} games`];
  const anchor = names.includes('random') ? 'random' : summary.ratings.reduce((a, b) => (b.elo < a.elo ? b : a)).bot;
  const width = Math.max(3, ...names.map((n) => n.length));
  const interval = (low: number, high: number): string => `[${Math.round(low)}, ${Math.round(high)}]`;
  const ratings = [...summary.ratings].sort((a, b) => b.elo - a.elo || a.bot.localeCompare(b.bot));
  const iw = Math.max(12, ...ratings.map((r) => interval(r.low, r.high).length));
  lines.push('', `${'bot'.padEnd(width)}  ${'Elo'.padStart(5)}  ${'95% interval'.padEnd(iw)}  ms a decision`);
  for (const r of ratings) lines.push(`${r.bot.padEnd(width)}  ${String(Math.round(r.elo)).padStart(5)}  ${interval(r.low, r.high).padEnd(iw)}  ${ms(r.msPerDecision)}`);
  lines.push(`(Bradley-Terry over every pair at every table, Elo scale, ${anchor} = 0)`);
  const pairName = (p: { bot: string; against: string }): string => `${p.bot} vs ${p.against}`;
  const pw = Math.max(4, ...summary.pairs.map((p) => pairName(p).length));
  lines.push('', `${'pair'.padEnd(pw)}  games  first won  95% interval    mean margin`);
  for (const p of summary.pairs) {
    const margin = `${p.meanMargin > 0 ? '+' : ''}${p.meanMargin.toFixed(1)}`;
    lines.push(`${pairName(p).padEnd(pw)}  ${String(p.games).padStart(5)}  ${`${percent(p.share)}%`.padStart(9)}  ${`[${percent(p.low)}, ${percent(p.high)}]`.padEnd(14)}  ${margin.padStart(11)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The JSON object `arena --json` prints. */
function arenaJson(run: ArenaRun, summary: ArenaSummary, games: readonly ArenaGame[], seconds: number): string {
  const { chosen, players, names, deals, firstDeal, seed } = run;
  const round2 = (v: number): number => Math.round(v * 100) / 100;
  return `${JSON.stringify({
    ruleset: chosen.rules.id,
    game: chosen.rules.options.game,
    expansions: chosen.rules.options.expansions.map((e) => e.id),
    options: chosen.options,
    players,
    bots: names,
    deals,
    firstDeal,
    seed,
    games: games.length,
    ratings: summary.ratings.map((r) => ({ bot: r.bot, elo: Math.round(r.elo), low: Math.round(r.low), high: Math.round(r.high), decisions: r.decisions, msPerDecision: round2(r.msPerDecision), slowestMs: round2(r.slowestMs) })),
    pairs: summary.pairs,
    results: games.map((g) => ({ deal: g.deal, rotation: g.rotation, seats: g.seats.map((b) => names[b]!), scores: g.scores })),
    seconds: round2(seconds),
  })}\n`;
}

/**
 * Runs `meeplekit arena` with the arguments after `arena`; resolves to the exit code: 0 done, 2 a
 * bad argument (a message and the usage on stderr, nothing on stdout), 1 an internal error.
 */
export async function runArenaCommand(args: readonly string[], io: ArenaIo): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout(ARENA_HELP);
    return 0;
  }
  const modules = await modulesFromArgs(args, OPTIONS);
  const run = typeof modules === 'string' ? modules : parseArenaArgs(args, modules);
  if (typeof run === 'string') {
    io.stderr(`meeplekit arena: ${run}\n${USAGE}\n`);
    return 2;
  }
  const { rules } = run.chosen;
  const schedule = arenaSchedule(run.entrants.length, run.players, run.deals, run.firstDeal);
  let progress: Progress = NO_PROGRESS;
  if (io.stderrIsTTY === true && !run.quiet) progress = startProgress({ total: schedule.length, done: 0, write: (t) => io.stderr(t), label: 'arena' });
  const started = performance.now();
  const games: ArenaGame[] = [];
  try {
    for (const seating of schedule) {
      games.push(playArenaGame(rules, run.entrants, seating, run.seed));
      progress.update(games.length);
      // Lets the progress bar's timer in between games.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (e) {
    progress.stop();
    io.stderr(`meeplekit arena: internal error: ${(e as Error).message}\n`);
    return 1;
  }
  progress.stop();
  const seconds = (performance.now() - started) / 1000;
  const summary = summarizeArena(run.names, games);
  io.stdout(run.json ? arenaJson(run, summary, games, seconds) : arenaText(run, summary, games.length));
  if (!run.quiet) io.stderr(`meeplekit arena: ${games.length} games in ${seconds.toFixed(1)} s (${speed(seconds > 0 ? games.length / seconds : 0)} games/s)\n`);
  return 0;
}
