/**
 * `npm run arena`: bots play each other; ratings from all games.
 *
 *   npm run arena -- [--config classic2|classic3|classic4|castle|six] [--bots level:5,greedy]
 *                    [--deals 10] [--first-deal 0] [--seed arena] [--json] [--quiet]
 *   npm run arena -- --pool FILE... [--json]
 *   npm run arena -- --table
 *
 * `--pool` plays nothing: it reads the game lines that earlier runs printed (`deal 3: level:5 98 |
 * greedy 71`, saved with `> FILE`; bench/arena-games/ keeps the published ones) and fits one table
 * of ratings over all of them, the same bot bearing the same name in every file. The lines record
 * no time, so a pooled table has none. `--table` prints the Markdown table of docs/bots.md's
 * "Ratings", fitted over each configuration's folder of bench/arena-games/ (a test checks that
 * the page holds what the folders give).
 *
 * Bots: `random`, `greedy`, `level:N` (the search bot at level N, iteration budget),
 * `level:N@MS` (level N bounded by MS milliseconds a decision instead), `mcts@MS` (the ISMCTS of
 * examples/mcts-bot.ts, random playouts and a win/loss reward, bounded by MS a decision: equal time).
 *
 * `--first-deal D` plays deals D to D + deals - 1, with the seeds a run from 0 gives them: a run
 * stopped for time is finished by another from its first unplayed deal.
 *
 * Each deal is one seed, played once per rotation of the seats (2 players: the lineup then the
 * same lineup with seats swapped: the same seed, so the same tile draws as long as the same tiles
 * fit, are replayed with every bot in every seat). With more bots than seats, every combination of
 * bots plays every deal. Each game is split into pairwise results (for each two bots at the table:
 * who scored more, ties half), from which a Bradley-Terry model is fitted (Elo scale, random = 0
 * when present) with 95% intervals (±1.96 standard errors from the model's information, each
 * rating alone). Also each pair's win share with a 95% Wilson interval, mean margin, and each
 * bot's milliseconds a decision (mean and slowest). The machinery is the arena of meeplekit/bots
 * (src/bots/arena.ts), which `meeplekit arena` runs too.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { connectedGroups, gameLine, poolGames, ratedPools, ratingsTable } from './arena-log.js';
import { build } from 'esbuild';
import { createRuleset, type Bot, type Ruleset } from '../src/index.js';
import { namedBot, runArena, summarizeArena, type ArenaEntrant } from '../src/bots/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';

const { values: args, positionals } = benchOptions(import.meta.url, () => parseArgs({
  options: {
    config: { type: 'string', default: 'classic2' },
    bots: { type: 'string', default: 'level:5,greedy' },
    deals: { type: 'string', default: '10' },
    'first-deal': { type: 'string', default: '0' },
    seed: { type: 'string', default: 'arena' },
    json: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    pool: { type: 'boolean', default: false },
    table: { type: 'boolean', default: false },
  },
  allowPositionals: true,
}));

const CONFIGS: Record<string, () => [Ruleset, number]> = {
  classic2: () => [must(createRuleset({ game: 'classic' })), 2],
  classic3: () => [must(createRuleset({ game: 'classic' })), 3],
  classic4: () => [must(createRuleset({ game: 'classic' })), 4],
  castle: () => [must(createRuleset({ game: castle() })), 2],
  // All six expansions at once (River I; before 2026-11-25 the Count and the River could not be
  // combined, and this configuration left the River out until the eleventh session).
  six: () => [must(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), river(), shrines(), tower()] })), 2],
};

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/**
 * The example's ISMCTS bot factory (examples/mcts-bot.ts). The example imports the package by
 * name, as a project of its own would, so it is bundled here with `meeplekit` and `meeplekit/ai`
 * mapped to src/ (as the tests bundle examples/bot-worker.ts): no build needed, and the
 * typecheck of bench/ never reaches the package's built types.
 */
async function loadMctsBot(): Promise<(options: { timeMs: number; seed: string }) => Bot> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = join(root, 'node_modules', '.cache', 'meeplekit-bench');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `mcts-bot-${process.pid}-${Date.now()}.mjs`);
  const entries: Record<string, string> = { meeplekit: 'src/index.ts', 'meeplekit/ai': 'src/ai/index.ts' };
  await build({
    entryPoints: [join(root, 'examples/mcts-bot.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
    plugins: [{ name: 'meeplekit-to-src', setup: (b) => b.onResolve({ filter: /^meeplekit(\/ai)?$/ }, (a) => ({ path: join(root, entries[a.path]!) })) }],
  });
  try {
    const mod = (await import(pathToFileURL(outfile).href)) as { mctsBot?: unknown };
    if (typeof mod.mctsBot !== 'function') throw new Error('examples/mcts-bot.ts exports no mctsBot');
    return mod.mctsBot as (options: { timeMs: number; seed: string }) => Bot;
  } finally {
    rmSync(outfile, { force: true });
  }
}

// ---- Pooled runs: a table over the games of earlier runs.

/** Ends the script with one line, as a bad option does (bench/options.ts). */
function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

if (args.table) {
  process.stdout.write(ratingsTable(ratedPools()));
  process.exit(0);
}
if (!args.pool && positionals.length > 0) refuse(`unexpected '${positionals[0]}' (files are read with --pool)`);
if (args.pool) {
  if (positionals.length === 0) refuse('--pool: name the files of earlier runs');
  let pooled: ReturnType<typeof poolGames>;
  try {
    pooled = poolGames(positionals.map((name) => ({ name, text: readFileSync(name, 'utf8') })));
  } catch (e) {
    refuse(`--pool: ${(e as Error).message}`);
  }
  const groups = connectedGroups(pooled);
  if (groups.length > 1) refuse(`--pool: no game links ${groups.map((g) => g.join(', ')).join(' with ')}: add a run where they meet, or pool them apart`);
  const { names, games } = pooled;
  const { ratings, pairs } = summarizeArena(names, games);
  const table = ratings.map((r) => ({ bot: r.bot, elo: Math.round(r.elo), low: Math.round(r.low), high: Math.round(r.high) }));
  const shares = pairs.map((p) => ({ bot: p.bot, against: p.against, games: p.games, share: p.share, low: p.low, high: p.high, meanMargin: p.meanMargin }));
  if (args.json) console.log(JSON.stringify({ pooled: positionals, games: games.length, ratings: table, pairs: shares }));
  else {
    console.log(`arena: ${games.length} games pooled from ${positionals.length} files (${positionals.join(', ')})`);
    for (const r of [...table].sort((a, b) => b.elo - a.elo)) console.log(`  ${r.bot.padEnd(14)} ${String(r.elo).padStart(5)} [${r.low}, ${r.high}]`);
    for (const p of shares) console.log(`  ${p.bot} vs ${p.against}: ${(100 * p.share).toFixed(1)}% [${(100 * p.low).toFixed(1)}, ${(100 * p.high).toFixed(1)}] of ${p.games}, mean margin ${p.meanMargin.toFixed(1)}`);
  }
  process.exit(0);
}

// ---- Bots by name.

const names = args.bots.split(',').map((s) => s.trim());
const mcts = names.some((n) => /^mcts@\d+$/.test(n)) ? await loadMctsBot() : null;

function makeBot(name: string, seed: string): Bot {
  const m = /^mcts@(\d+)$/.exec(name);
  if (m !== null && mcts !== null) return mcts({ timeMs: Number(m[1]), seed });
  const named = /^(random|greedy|level:[1-5](@\d+)?)$/.test(name) ? namedBot(name, seed) : null;
  if (named === null || !named.ok) throw new Error(`unknown bot '${name}' (random, greedy, level:N, level:N@MS, mcts@MS)`);
  return named.value;
}

// ---- Games.

const [rules, players] = (CONFIGS[args.config] ?? (() => { throw new Error(`--config: one of ${Object.keys(CONFIGS).join(', ')}`); }))();
if (names.length < 2) throw new Error('--bots: at least two');
for (const name of names) makeBot(name, 'check');
const deals = Number(args.deals);
const firstDeal = Number(args['first-deal']);
const entrants: ArenaEntrant[] = names.map((name) => ({ name, make: (seed) => makeBot(name, seed) }));

const started = performance.now();
const arena = must(
  runArena(rules, entrants, {
    players,
    deals,
    firstDeal,
    seed: args.seed,
    onGame: (g) => {
      if (!args.quiet && !args.json) console.log(gameLine(g, names));
    },
  }),
);
const ratings = arena.ratings.map((r) => ({ bot: r.bot, elo: Math.round(r.elo), low: Math.round(r.low), high: Math.round(r.high), msPerDecision: Math.round(r.msPerDecision), slowestMs: Math.round(r.slowestMs) }));
const pairs = arena.pairs.map((p) => ({ bot: p.bot, against: p.against, games: p.games, share: p.share, low: p.low, high: p.high, meanMargin: p.meanMargin }));
const games = arena.games.map((g) => ({ deal: g.deal, seats: g.seats.map((b) => names[b]!), scores: [...g.scores] }));
const summary = { config: args.config, rules: rules.id, players, deals, games: games.length, seconds: Math.round((performance.now() - started) / 1000), ratings, pairs };
if (args.json) console.log(JSON.stringify({ ...summary, results: games }));
else {
  console.log(`arena: ${games.length} games of ${players}-player ${rules.id} (${deals} deals), ${summary.seconds} s`);
  for (const r of [...ratings].sort((a, b) => b.elo - a.elo)) console.log(`  ${r.bot.padEnd(14)} ${String(r.elo).padStart(5)} [${r.low}, ${r.high}]  ${r.msPerDecision} ms a decision (slowest ${r.slowestMs})`);
  for (const p of pairs) console.log(`  ${p.bot} vs ${p.against}: ${(100 * p.share).toFixed(1)}% [${(100 * p.low).toFixed(1)}, ${(100 * p.high).toFixed(1)}] of ${p.games}, mean margin ${p.meanMargin.toFixed(1)}`);
}
