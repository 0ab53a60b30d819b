/**
 * `meeplekit arena` (issue 28): bots rated against each other over seeded deals with the seats
 * rotated (the arena of meeplekit/bots), in process through `runArenaCommand` and once as a
 * process. Small arenas (one or two deals of fast bots); the same flags give the same games and
 * ratings, timing aside.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createRuleset } from '../src/index.js';
import { namedBot, runArena } from '../src/bots/index.js';
import { ARENA_HELP, runArenaCommand } from '../src/cli/arena.js';
import { cliCommand } from './cli-command.js';
import { must } from './helpers.js';

interface ArenaJson {
  ruleset: string;
  game: string;
  expansions: string[];
  players: number;
  bots: string[];
  deals: number;
  firstDeal: number;
  seed: string;
  games: number;
  ratings: { bot: string; elo: number; low: number; high: number; decisions: number; msPerDecision: number; slowestMs: number }[];
  pairs: { bot: string; against: string; games: number; share: number; low: number; high: number; meanMargin: number }[];
  results: { deal: number; rotation: number; seats: string[]; scores: number[] }[];
  seconds: number;
}

/** Runs the command in process: its exit code, stdout and stderr. */
async function arena(args: readonly string[], stderrIsTTY = false): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runArenaCommand(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY });
  return { code, stdout, stderr };
}

/** The JSON output with its timing fields left out. */
function untimed(text: string): unknown {
  return JSON.parse(text, (k, v: unknown) => (k === 'seconds' || k === 'msPerDecision' || k === 'slowestMs' ? undefined : v));
}

/** The text output with the column of milliseconds a decision left out. */
const withoutMs = (text: string): string => text.replace(/(\]\s+)[\d.]+$/gm, '$1');

describe('meeplekit arena', () => {
  test('--json: the games of the library arena, the ratings and every pair; the same flags, the same result (timing aside)', async () => {
    const args = ['--bots', 'search:1,random', '--deals', '2', '--seed', 'cli', '--json', '--quiet'];
    const first = await arena(args);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout.trimEnd().split('\n')).toHaveLength(1);
    const j = JSON.parse(first.stdout) as ArenaJson;
    expect(j).toMatchObject({ ruleset: 'classic', game: 'classic', expansions: [], players: 2, bots: ['search:1', 'random'], deals: 2, seed: 'cli', games: 4 });
    expect(j.results.map((r) => [r.deal, r.rotation, r.seats])).toEqual([
      [0, 0, ['search:1', 'random']],
      [0, 1, ['random', 'search:1']],
      [1, 0, ['search:1', 'random']],
      [1, 1, ['random', 'search:1']],
    ]);
    // The library's arena with the same bots and seed plays the same games.
    const rules = must(createRuleset({ game: 'classic' }));
    const lib = must(runArena(rules, ['search:1', 'random'].map((name) => ({ name, make: (seed: string) => must(namedBot(name, seed)) })), { players: 2, deals: 2, seed: 'cli' }));
    expect(j.results.map((r) => r.scores)).toEqual(lib.games.map((g) => g.scores));
    expect(j.ratings.map((r) => [r.bot, r.elo, r.low, r.high])).toEqual(lib.ratings.map((r) => [r.bot, Math.round(r.elo), Math.round(r.low), Math.round(r.high)]));
    expect(j.pairs).toEqual(lib.pairs);
    expect(j.ratings.find((r) => r.bot === 'random')!.elo).toBe(0);
    expect(j.ratings.every((r) => r.decisions > 0 && r.msPerDecision >= 0 && r.low <= r.elo && r.elo <= r.high)).toBe(true);
    expect(untimed((await arena(args)).stdout)).toEqual(untimed(first.stdout));
    expect(untimed((await arena(['--bots', 'search:1,random', '--deals', '2', '--seed', 'other', '--json', '--quiet'])).stdout)).not.toEqual(untimed(first.stdout));
  });

  test('--first-deal: the deals from there, the games a run from 0 plays for them', async () => {
    const whole = JSON.parse((await arena(['--bots', 'search:1,random', '--deals', '2', '--seed', 'cut', '--json', '--quiet'])).stdout) as ArenaJson;
    const rest = await arena(['--bots', 'search:1,random', '--deals', '1', '--first-deal', '1', '--seed', 'cut', '--json', '--quiet']);
    expect(rest.code).toBe(0);
    const j = JSON.parse(rest.stdout) as ArenaJson;
    expect(j).toMatchObject({ deals: 1, firstDeal: 1, games: 2 });
    expect(whole.firstDeal).toBe(0);
    expect(j.results).toEqual(whole.results.slice(2));
    const text = await arena(['--bots', 'greedy,random', '--deals', '2', '--first-deal', '3', '--seed', 'text', '--quiet']);
    expect(text.stdout.split('\n')[0]).toBe('meeplekit arena: classic, 2 players, bots greedy,random, 2 deals (3 to 4) from seed "text": 4 games');
  });

  test('the text: ratings with intervals, best first, and each pair; deterministic but for the milliseconds', async () => {
    const args = ['--bots', 'greedy, random', '--deals', '1', '--seed', 'text', '--quiet'];
    const out = await arena(args);
    expect(out.code).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toBe('meeplekit arena: classic, 2 players, bots greedy,random, 1 deal from seed "text": 2 games');
    expect(lines[2]).toMatch(/^bot +Elo +95% interval +ms a decision$/);
    expect(lines[3]).toMatch(/^greedy +\d+ +\[-?\d+, \d+\] +[\d.]+$/);
    expect(lines[4]).toMatch(/^random +0 +\[-\d+, \d+\] +[\d.]+$/);
    expect(lines[5]).toBe('(Bradley-Terry over every pair at every table, Elo scale, random = 0)');
    expect(lines[7]).toMatch(/^pair +games +first won +95% interval +mean margin$/);
    expect(lines[8]).toMatch(/^greedy vs random +2 +\d+\.\d% +\[\d+\.\d, \d+\.\d\] +[+-]?\d+\.\d$/);
    expect(withoutMs((await arena(args)).stdout)).toBe(withoutMs(out.stdout));
  });

  test('more seats than bots: the bots repeat, every rotation; the game flags as the other commands', async () => {
    const out = await arena(['--players', '3', '--bots', 'random,greedy', '--deals', '1', '--json', '--quiet', '--expansions', 'river', '--option', 'river.set=II']);
    expect(out.code).toBe(0);
    const j = JSON.parse(out.stdout) as ArenaJson;
    expect(j).toMatchObject({ game: 'classic', expansions: ['river'], players: 3, games: 3 });
    expect(j.results.map((r) => r.seats)).toEqual([
      ['random', 'greedy', 'random'],
      ['greedy', 'random', 'random'],
      ['random', 'random', 'greedy'],
    ]);
    // Two seats of one bot make no pair: each game is two pairs of random and greedy.
    expect(j.pairs).toHaveLength(1);
    expect(j.pairs[0]!.games).toBe(6);
  });

  test('progress: a bar on a terminal, a closing line otherwise, nothing with --quiet', async () => {
    const tty = await arena(['--bots', 'random,greedy', '--deals', '1'], true);
    expect(tty.stderr).toMatch(/^\rarena \[\.{30}\] 0\/2 games 0:00 eta \?\x1b\[K/);
    expect(tty.stderr).toMatch(/\rarena \[#{30}\] 2\/2 games [^\n]*\x1b\[K\nmeeplekit arena: 2 games in [\d.]+ s \([\d.]+ games\/s\)\n$/);
    const pipe = await arena(['--bots', 'random,greedy', '--deals', '1']);
    expect(pipe.stderr).toMatch(/^meeplekit arena: 2 games in [\d.]+ s \([\d.]+ games\/s\)\n$/);
  });

  test.each([
    ['an unknown bot', ['--bots', 'random,mcts'], /unknown bot 'mcts' \(bots: random, greedy, search:1 to search:5/],
    ['a bad level', ['--bots', 'random,search:7'], /--bots search:7: level must be one of 1, 2, 3, 4, 5, got 7/],
    ['one bot', ['--bots', 'greedy'], /--bots needs at least two bots to play each other, got greedy/],
    ['a bot twice', ['--bots', 'greedy,random,greedy'], /--bots names greedy twice/],
    ['no deals', ['--deals', '0'], /--deals must be a positive whole number, got '0'/],
    ['deals that are no number', ['--deals', 'many'], /--deals must be a positive whole number, got 'many'/],
    ['too many players', ['--players', '6'], /--players must be from 2 to 5 for classic, got 6/],
    ['a negative number of players', ['--players', '-2'], /--players must be from 2 to 5 for classic, got -2/],
    ['an unknown expansion', ['--expansions', 'dragons'], /unknown expansion 'dragons'/],
    ['a misspelt flag', ['--dels', '3'], /Unknown option '--dels'\. Did you mean --deals\?/],
    ['a positional', ['extra'], /Unexpected argument 'extra'/],
    ['a seed too long', ['--seed', 'x'.repeat(256), '--deals', '10'], /--seed is too long/],
    ['a seed too long for the last deal', ['--seed', 'x'.repeat(253), '--deals', '1', '--first-deal', '100'], /--seed is too long/],
    ['a first deal that is no whole number', ['--first-deal', '-1'], /--first-deal must be a whole number \(0 or more\), got '-1'/],
  ])('%s: a message and the usage on stderr, nothing on stdout, code 2', async (_, args, message) => {
    const out = await arena(args);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/\nusage: meeplekit arena /);
  });

  test('--help', async () => {
    expect(await arena(['--help'])).toEqual({ code: 0, stdout: ARENA_HELP, stderr: '' });
    expect(ARENA_HELP).toMatch(/^usage: meeplekit arena /);
  });
});

describe('meeplekit arena as a process', () => {
  test('a small arena, meeplekit help arena, and a bad flag', () => {
    const [node, cli] = cliCommand();
    const run = (args: string[]) => spawnSync(node, [cli, ...args], { encoding: 'utf8', timeout: 600_000 });
    const r = run(['arena', '--bots', 'random,greedy', '--deals', '1', '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as ArenaJson).games).toBe(2);
    expect(r.stderr).toMatch(/^meeplekit arena: 2 games in /);
    expect(run(['help', 'arena'])).toMatchObject({ status: 0, stdout: ARENA_HELP, stderr: '' });
    expect(run(['arena', '--bots', 'nobody,random'])).toMatchObject({ status: 2, stdout: '' });
  });
});
