/**
 * `meeplekit simulate` through `runSimulate(args, io)` (issue 6, "Parallel simulation"; issue 14,
 * "the CLI as people use it"): a header line, one JSON line per game in game order, each depending
 * only on its own seed, and a summary, so the file is the same for any number of worker threads,
 * and a run stopped and resumed with --resume ends as the file of a run never stopped. The real
 * process (signals, terminals, pipes) is tested in simulate-process.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cliCommand } from './cli-command.js';
import { byDepth, FULL } from './depth.js';
import { untimed } from './helpers.js';
import { RECONSTRUCTED_LAYOUT } from '../src/games/castle/entry.js';
import { runSimulate, SIMULATE_HELP, type GameRecord, type SimulateHeader, type SimulateIo, type SimulateSummary } from '../src/cli/simulate.js';
import { progressText } from '../src/cli/progress.js';
import { VERSION } from '../src/cli/version.js';

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function simulate(args: readonly string[], io: Partial<SimulateIo> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  // The worker threads run the command bundled once for this run (test/global-setup.ts) instead of
  // compiling the sources each.
  const code = await runSimulate(args, { cores: 4, workerScript: cliCommand()[1], ...io, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function file(args: readonly string[], name: string): Promise<string> {
  const out = join(dir, name);
  const r = await simulate([...args, '--out', out]);
  if (r.code !== 0) throw new Error(r.stderr);
  expect(r.stdout).toBe('');
  return untimed(readFileSync(out, 'utf8'));
}

/** The lines of a file, parsed: header, games, summary. */
function parse(text: string): { header: SimulateHeader; games: GameRecord[]; summary: SimulateSummary } {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
  expect(lines[0]!.type).toBe('header');
  expect(lines[lines.length - 1]!.type).toBe('summary');
  const games = lines.slice(1, -1);
  for (const g of games) expect(g.type).toBe('game');
  return { header: lines[0] as SimulateHeader, games: games as GameRecord[], summary: lines[lines.length - 1] as SimulateSummary };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

describe('meeplekit simulate: the file', () => {
  test.each([
    // Fewer games in the fast tier (test/depth.ts); still more games than workers.
    ['classic, 2 players', ['--players', '2', '--games', byDepth('30', '8'), '--seed', 'w']],
    ['classic, 4 players, greedy against random', ['--players', '4', '--games', byDepth('6', '4'), '--seed', 'g', '--bots', 'greedy,random']],
    ['king-robber and shrines, 3 players', ['--expansions', 'king-robber,shrines', '--players', '3', '--games', byDepth('20', '6'), '--seed', 'e']],
    ['The Castle', ['--game', 'castle', '--players', '2', '--games', byDepth('12', '4'), '--seed', 'c']],
  ])('%s: the same file for 1, 2 and 3 workers; header, games in order, summary', async (_name, args) => {
    const one = await file([...args, '--workers', '1'], 'one.jsonl');
    // The fast tier (test/depth.ts) skips two workers: three already split the games unevenly.
    const two = FULL ? await file([...args, '--workers', '2'], 'two.jsonl') : one;
    const three = await file([...args, '--workers', '3', '--quiet'], 'three.jsonl');
    expect(two).toBe(one);
    expect(three).toBe(one);
    const games = Number(args[args.indexOf('--games') + 1]);
    const seed = args[args.indexOf('--seed') + 1]!;
    const players = Number(args[args.indexOf('--players') + 1]);
    const { header, games: lines, summary } = parse(one);
    expect(Object.keys(header)).toEqual(['type', 'meeplekit', 'version', 'ruleset', 'game', 'expansions', 'options', 'bots', 'players', 'seed', 'games']);
    expect(header).toMatchObject({ meeplekit: 'simulate', version: VERSION, players, seed, games });
    expect(header.bots).toHaveLength(players);
    expect(lines).toHaveLength(games);
    lines.forEach((r, i) => {
      expect(Object.keys(r)).toEqual(['type', 'game', 'seed', 'scores', 'winners', 'turns']);
      expect(r.game).toBe(i);
      expect(r.seed).toBe(`${seed}/${i}`);
      expect(r.scores).toHaveLength(players);
      const best = Math.max(...r.scores);
      expect(r.winners).toEqual(r.scores.flatMap((s, p) => (s === best ? [p] : [])));
      expect(r.turns).toBeGreaterThan(40);
    });
    // Different games differ.
    expect(new Set(lines.map((r) => JSON.stringify(r.scores))).size).toBeGreaterThan(1);
    // The summary is the games' statistics.
    const seats = Array.from({ length: players }, (_, p) => p);
    const wins = seats.map((p) => lines.filter((r) => r.winners.includes(p)).length);
    const mean = seats.map((p) => lines.reduce((s, r) => s + r.scores[p]!, 0) / games);
    const sd = seats.map((p) => Math.sqrt(lines.reduce((s, r) => s + (r.scores[p]! - mean[p]!) ** 2, 0) / (games - 1)));
    expect(summary).toEqual({
      type: 'summary',
      games,
      wins,
      winRate: wins.map((w) => round4(w / games)),
      ties: lines.filter((r) => r.winners.length > 1).length,
      meanScore: mean.map(round4),
      sdScore: summary.sdScore,
      meanTurns: round4(lines.reduce((s, r) => s + r.turns, 0) / games),
    });
    summary.sdScore.forEach((s, p) => expect(s).toBeCloseTo(sd[p]!, 3));
  });

  test('the header names the ruleset, the expansions in hook order and their options; --option and --river-set are the same', async () => {
    const viaFlag = parse(await file(['--games', '2', '--expansions', ' tower , river', '--river-set', 'II', '--workers', '1'], 'flag.jsonl'));
    const viaOption = await file(['--games', '2', '--expansions', 'river,tower', '--option', 'river.set=II', '--workers', '1'], 'option.jsonl');
    expect(await file(['--games', '2', '--expansions', ' tower , river', '--river-set', 'II', '--workers', '1'], 'flag.jsonl')).toBe(viaOption);
    expect(viaFlag.header).toMatchObject({ game: 'classic', expansions: ['river', 'tower'], options: { river: { set: 'II' } } });
    expect(viaFlag.header.ruleset).toMatch(/^classic\+river\{"set":"II"\}\+tower/);
    // The ruleset's own options: the Tower leaves its default out.
    const defaults = parse(await file(['--games', '1', '--expansions', 'tower', '--option', 'tower.ransomDebt=false', '--workers', '1'], 'default.jsonl'));
    expect(defaults.header.options).toEqual({});
  });

  test.each([
    ['princess-dragon.princess=optional', ['--expansions', 'princess-dragon'], { 'princess-dragon': { princess: 'optional' } }],
    ['tower.ransomDebt=true', ['--expansions', 'tower'], { tower: { ransomDebt: true } }],
    ['count.edition=1 and count.countMoves=entered', ['--expansions', 'count', '--option', 'count.countMoves=entered'], { count: { edition: 1, countMoves: 'entered' } }],
    ['castle.keep=majority', ['--game', 'castle'], { castle: { keep: 'majority' } }],
  ])('--option %s reaches the factory', async (option, args, options) => {
    const first = option.split(' and ')[0]!;
    const { header } = parse(await file(['--games', '1', '--workers', '1', ...args, '--option', first], 'options.jsonl'));
    expect(header.options).toEqual(options);
    for (const [id, o] of Object.entries(options)) {
      expect(header.ruleset).toContain(`${id}{`);
      for (const [k, v] of Object.entries(o)) expect(header.ruleset).toContain(`"${k}":${JSON.stringify(v)}`);
    }
  });

  test('--option castle.layout=@file reads the board from a JSON file, named by its file in the header', async () => {
    const layout = join(dir, 'layout.json');
    writeFileSync(layout, JSON.stringify(RECONSTRUCTED_LAYOUT));
    const { header } = parse(await file(['--games', '1', '--workers', '1', '--game', 'castle', '--option', `castle.layout=@${layout}`], 'layout.jsonl'));
    expect(header.options).toEqual({ castle: { layout: `@${layout}` } });
    expect(header.ruleset).toMatch(/^castle\{"layout":"[0-9a-f]+"\}/);
    const bad = await simulate(['--game', 'castle', '--option', 'castle.layout=@/nonexistent/layout.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--option castle\.layout: cannot read \/nonexistent\/layout\.json/);
  });

  test("the summary ends with the run's timing: seconds, and games per second (null for none)", async () => {
    const out = join(dir, 'timed.jsonl');
    expect((await simulate(['--games', '4', '--seed', 'timed', '--workers', '1', '--out', out])).code).toBe(0);
    const last = JSON.parse(readFileSync(out, 'utf8').trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(Object.keys(last).slice(-2)).toEqual(['seconds', 'gamesPerSecond']);
    expect(last['seconds']).toBeGreaterThan(0);
    expect(last['gamesPerSecond']).toBeGreaterThan(0);
    const none = join(dir, 'timed-none.jsonl');
    expect((await simulate(['--games', '0', '--out', none])).code).toBe(0);
    expect(readFileSync(none, 'utf8')).toMatch(/,"seconds":[\d.]+,"gamesPerSecond":null\}\n$/);
  });

  test('no games: a header and a summary', async () => {
    const { games, summary } = parse(await file(['--games', '0', '--workers', '4'], 'empty.jsonl'));
    expect(games).toEqual([]);
    expect(summary).toEqual({ type: 'summary', games: 0, wins: [0, 0], winRate: [null, null], ties: 0, meanScore: [null, null], sdScore: [null, null], meanTurns: null });
  });
});

describe('meeplekit simulate --bots search:LEVEL', () => {
  // A search seat used to be played at random (playGame knew only greedy): level 1 beats the
  // random bot in every game (docs/bots.md), a random seat in about half.
  test('a search seat is played by the search bot: it beats random play in every game, the same file for 1 and 2 workers', async () => {
    const args = ['--players', '2', '--games', '4', '--seed', 's', '--bots', 'search:1,random'];
    const one = await file([...args, '--workers', '1'], 'search-one.jsonl');
    expect(await file([...args, '--workers', '2'], 'search-two.jsonl')).toBe(one);
    const { header, games } = parse(one);
    expect(header.bots).toEqual(['search:1', 'random']);
    for (const g of games) expect(g.scores[0]! - g.scores[1]!).toBeGreaterThan(10);
  });
});

describe('meeplekit simulate: stderr', () => {
  test('a terminal gets a progress bar, drawn from the start (eta ?), and a closing line with the speed', async () => {
    const r = await simulate(['--games', '5', '--seed', 'bar', '--workers', '2'], { stderrIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(7);
    expect(r.stderr).toMatch(/^\rsimulate \[\.+\] 0\/5 games 0:00 eta \?/);
    expect(r.stderr).toMatch(/\rsimulate \[#+\] 5\/5 games \d+:\d\d [\d.]+ games\/s eta 0:00\x1b\[K\n/);
    expect(r.stderr).toMatch(/meeplekit simulate: 5 games in [\d.]+ s \([\d.]+ games\/s\) to stdout\n$/);
  });

  test('not a terminal: no bar, only the closing line; --quiet: nothing', async () => {
    const r = await simulate(['--games', '3', '--seed', 'bar', '--workers', '1']);
    expect(r.stderr).toMatch(/^meeplekit simulate: 3 games in [\d.]+ s \([\d.]+ games\/s\) to stdout\n$/);
    const quiet = await simulate(['--games', '3', '--seed', 'bar', '--workers', '1', '--quiet'], { stderrIsTTY: true });
    expect(quiet.stderr).toBe('');
    expect(untimed(quiet.stdout)).toBe(untimed(r.stdout));
  });

  test.each([
    [0, 100, 0, 0.4, 'simulate [..............................] 0/100 games 0:00 eta ?'],
    [10, 100, 10, 2, 'simulate [###...........................] 10/100 games 0:02 5.0 games/s eta 0:18'],
    [50, 100, 20, 1, 'simulate [###############...............] 50/100 games 0:01 20 games/s eta 0:03'],
    [30, 100, 0, 5, 'simulate [#########.....................] 30/100 games 0:05 eta ?'],
    [100, 100, 100, 3725, 'simulate [##############################] 100/100 games 1:02:05 0.0 games/s eta 0:00'],
  ])('the bar at %i of %i games (%i of this run, %ss)', (done, total, fresh, seconds, text) => {
    expect(progressText(done, total, fresh, seconds)).toBe(text);
  });

  test('--workers above the machine\'s threads: capped, with a note', async () => {
    const r = await simulate(['--games', '2', '--workers', '9'], { cores: 2 });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^meeplekit simulate: --workers 9 is more than this machine runs at once: using 2\n/);
  });

  test('--help and -h print the usage and every flag on stdout', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await simulate(['--games', '5', flag]);
      expect(r).toEqual({ code: 0, stdout: SIMULATE_HELP, stderr: '' });
    }
    for (const flag of ['--games', '--workers', '--out', '--resume', '--quiet', '--option', '--river-set', '--players', '--bots', '--seed', '--game', '--expansions']) expect(SIMULATE_HELP).toContain(`  ${flag} `);
  });
});

describe('meeplekit simulate refuses bad arguments with code 2, one message and the usage', () => {
  const long = (n: number): string => 'x'.repeat(n);
  const rows: [string, string[], RegExp][] = [
    ['players not a number', ['--players', 'two'], /--players must be a whole number from 2 to 5 for classic, got 'two'/],
    ['players negative', ['--players', '-2'], /--players must be from 2 to 5 for classic, got -2/],
    ['players 9', ['--players', '9'], /--players must be from 2 to 5 for classic, got 9/],
    ['The Castle with 3 players', ['--game', 'castle', '--players', '3'], /--players must be 2 for castle, got 3/],
    ['games not a number', ['--games', 'many'], /--games must be a whole number \(0 or more\), got 'many'/],
    ['games negative', ['--games', '-5'], /--games must be a whole number \(0 or more\), got '-5'/],
    ['workers 0', ['--workers', '0'], /--workers must be a positive whole number, got '0'/],
    ['workers negative', ['--workers', '-1'], /--workers must be a positive whole number, got '-1'/],
    ['workers a fraction', ['--workers', '1.5'], /got '1\.5'/],
    ['a seed too long for its games', ['--seed', long(254), '--games', '100'], /--seed is too long: game seeds are <seed>\/<i> and at most 256 characters, so with these games the seed may have at most 253 characters, got 254/],
    ['a seed too long for one game', ['--seed', long(256), '--games', '1'], /the seed may have at most 254 characters, got 256/],
    ['an unknown expansion', ['--expansions', 'dragon'], /unknown expansion 'dragon'/],
    ['an expansion twice', ['--expansions', 'tower, tower'], /--expansions names tower twice/],
    ['an unknown bot', ['--bots', 'genius'], /unknown bot 'genius'/],
    ['more bots than players', ['--bots', 'random, greedy, random'], /3 bots for 2 players: give at most one bot per player/],
    ['an unknown game', ['--game', 'chess'], /unknown game 'chess' \(games: classic, castle\)/],
    ['an unknown flag', ['--frobnicate'], /Unknown option/],
    ['--option without a key', ['--option', 'river=II', '--expansions', 'river'], /--option must look like id\.key=value, such as river\.set=II, got 'river=II'/],
    ['--option of an unknown module', ['--option', 'moon.phase=full'], /--option moon\.phase: unknown game or expansion 'moon'/],
    ['--option of an expansion not given', ['--option', 'tower.ransomDebt=true'], /--option tower\.ransomDebt needs --expansions tower/],
    ['--option of another game', ['--option', 'castle.keep=majority'], /--option castle\.keep needs --game castle/],
    ['--option of an expansion without options', ['--expansions', 'shrines', '--option', 'shrines.x=1'], /--option shrines\.x: shrines has no options/],
    ['--option with an unknown key', ['--expansions', 'count', '--option', 'count.zz=1'], /count: unknown option 'zz' \(options: edition, countMoves\)/],
    ['--option with a bad value', ['--expansions', 'count', '--option', 'count.edition=3'], /count: edition must be 2 or 1, got 3/],
    ['--option tower.ransomDebt=maybe', ['--expansions', 'tower', '--option', 'tower.ransomDebt=maybe'], /tower: ransomDebt must be true or false, got "maybe"|ransomDebt must be true or false/],
    ['--option of The Castle with a bad value', ['--game', 'castle', '--option', 'castle.keep=nobody'], /option 'keep' must be one of 'completing-tile', 'majority'/],
    ['--option given twice', ['--expansions', 'river', '--option', 'river.set=I', '--option', 'river.set=II'], /--option river\.set is given twice/],
    ['--river-set and --option river.set', ['--expansions', 'river', '--river-set', 'II', '--option', 'river.set=II'], /--river-set and --option river\.set both given: give one/],
    ['a bad --river-set', ['--expansions', 'river', '--river-set', 'III'], /set must be one of 'I', 'II', 'both', got 'III'/],
    ['--resume to stdout', ['--resume'], /--resume needs --out FILE/],
    ['an empty --out', ['--out', ''], /--out needs a file name/],
  ];
  test.each(rows)('%s', async (_, args, message) => {
    const r = await simulate(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^meeplekit simulate: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/\nusage: meeplekit simulate /);
  });

  test('an --out that cannot be written: one line, code 2, no stack', async () => {
    for (const out of [join(dir, 'missing', 'results.jsonl'), dir]) {
      const r = await simulate(['--games', '2', '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^meeplekit simulate: cannot write ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: E[A-Z]+[^\n]*\n$`));
    }
  });
});

describe('meeplekit simulate --resume', () => {
  const args = ['--games', '12', '--seed', 'resume', '--players', '3', '--expansions', 'shrines'];
  let full = '';
  const complete = async (): Promise<string> => (full ||= await file([...args, '--workers', '1'], 'full.jsonl'));

  /** Resumes a copy of `text` and returns the file. */
  async function resume(text: string, name: string, workers = '2'): Promise<{ run: Run; text: string }> {
    const out = join(dir, name);
    writeFileSync(out, text);
    const run = await simulate([...args, '--workers', workers, '--out', out, '--resume']);
    return { run, text: untimed(readFileSync(out, 'utf8')) };
  }

  test('a file cut anywhere (a torn line dropped, complete lines kept) ends as the uninterrupted file', async () => {
    const whole = await complete();
    const ends: number[] = [];
    let at = -1;
    while ((at = whole.indexOf('\n', at + 1)) >= 0) ends.push(at + 1);
    // Cut at every line end but the last, in the middle of each line, and at the start; the fast
    // tier (test/depth.ts) every third of those cuts, the start, the header's and the summary's.
    const all = [0, 7, ...ends.slice(0, -1), ...ends.slice(0, -1).map((e) => e + 20)];
    const cuts = byDepth(all, all.filter((_, i) => i % 3 === 0 || i === all.length - 1 || i === 2));
    for (const cut of cuts) {
      const { run, text } = await resume(whole.slice(0, cut), 'cut.jsonl', cut % 2 === 0 ? '1' : '2');
      expect(run.code, `cut at ${cut}: ${run.stderr}`).toBe(0);
      expect(text, `cut at ${cut}`).toBe(whole);
    }
  });

  test('says what it kept and what it dropped', async () => {
    const whole = await complete();
    const lines = whole.split('\n');
    const { run } = await resume(`${lines.slice(0, 5).join('\n')}\n${lines[5]!.slice(0, 10)}`, 'said.jsonl');
    expect(run.stderr).toMatch(/^meeplekit simulate: resuming \S+said\.jsonl: 4 of 12 games kept, a torn last line dropped\n/);
    expect(run.stderr).toMatch(/meeplekit simulate: 8 games in [\d.]+ s \([\d.]+ games\/s\) to \S+said\.jsonl, after the 4 kept\n$/);
  });

  test('a complete file is left as it is; a missing file is played from the start', async () => {
    const whole = await complete();
    const { run, text } = await resume(whole, 'complete.jsonl');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/already holds all 12 games and the summary: nothing to play/);
    expect(text).toBe(whole);
    const out = join(dir, 'never-written.jsonl');
    rmSync(out, { force: true });
    expect((await simulate([...args, '--workers', '1', '--out', out, '--resume'])).code).toBe(0);
    expect(untimed(readFileSync(out, 'utf8'))).toBe(whole);
  });

  test.each([
    ['another seed', ['--seed', 'other'], /was written by another run, not resumed: seed "resume" there, "other" here/],
    ['more games', ['--games', '20'], /games 12 there, 20 here/],
    ['other bots', ['--bots', 'greedy'], /bots \["random","random","random"\] there, \["greedy","greedy","greedy"\] here/],
    ['other expansions', ['--expansions', 'tower'], /ruleset "classic\+shrines[^"]*" there, "classic\+tower[^"]*" here; expansions \["shrines"\] there, \["tower"\] here/],
  ])('a file of another run is refused, untouched (%s)', async (_, change, message) => {
    const whole = await complete();
    const out = join(dir, 'other.jsonl');
    writeFileSync(out, whole.slice(0, 400));
    const changed = [...args];
    for (let i = 0; i < change.length; i += 2) {
      const k = changed.indexOf(change[i]!);
      if (k >= 0) changed[k + 1] = change[i + 1]!;
      else changed.push(change[i]!, change[i + 1]!);
    }
    const r = await simulate([...changed, '--out', out, '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(readFileSync(out, 'utf8')).toBe(whole.slice(0, 400));
  });

  test('a file that is not one of simulate, or with a line out of place, is refused', async () => {
    const whole = await complete();
    const lines = whole.split('\n');
    const rows: [string, RegExp][] = [
      ['{"some":"json"}\n', /is not a file of meeplekit simulate \(its first line is not its header\)/],
      ['hello\n', /is not a file of meeplekit simulate/],
      [`${lines[0]}\n${lines[2]}\n`, /line 2 of \S+ is not the result of game 0: not resumed/],
      [`${lines[0]}\n${lines[1]}\nnot json\n`, /line 3 of \S+ is not JSON: not resumed/],
    ];
    for (const [text, message] of rows) {
      const { run, text: after } = await resume(text, 'bad.jsonl');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(after).toBe(text);
    }
  });

  test('a run stopped by a signal keeps complete lines and says so; its resumption ends as the uninterrupted file', async () => {
    const whole = await complete();
    // SIGINT (as main.ts passes it on) once the header and three games are out.
    const stop = new AbortController();
    let stdout = '';
    let stderr = '';
    const io: SimulateIo = {
      stdout: (t) => {
        stdout += t;
        if (stdout.split('\n').length > 4) stop.abort('SIGINT');
      },
      stderr: (t) => (stderr += t),
      signal: stop.signal,
    };
    expect(await runSimulate([...args, '--workers', '1'], io)).toBe(130);
    expect(stdout.endsWith('\n')).toBe(true);
    const written = stdout.trimEnd().split('\n').length - 1;
    expect(written).toBeGreaterThanOrEqual(3);
    expect(written).toBeLessThan(12);
    expect(whole.startsWith(stdout)).toBe(true);
    expect(stderr).toBe(`meeplekit simulate: stopped by SIGINT: ${written} of 12 games were written to stdout (to resume a run, give it --out FILE)\n`);
    expect((await resume(stdout, 'stopped.jsonl')).text).toBe(whole);

    // SIGTERM before the first game, to a file: the header only, and the command that resumes it.
    const out = join(dir, 'stopped-early.jsonl');
    const early = new AbortController();
    early.abort('SIGTERM');
    stderr = '';
    expect(await runSimulate([...args, '--workers', '2', '--out', out], { stdout: () => {}, stderr: (t) => (stderr += t), signal: early.signal, workerScript: cliCommand()[1] })).toBe(143);
    expect(readFileSync(out, 'utf8')).toBe(`${whole.split('\n')[0]}\n`);
    expect(stderr).toBe(`meeplekit simulate: stopped by SIGTERM: 0 of 12 games are in ${out}; to play the other 12: meeplekit simulate ${[...args, '--workers', '2', '--out', out].join(' ')} --resume\n`);
    expect((await resume(readFileSync(out, 'utf8'), 'stopped-early.jsonl')).text).toBe(whole);
  });
});
