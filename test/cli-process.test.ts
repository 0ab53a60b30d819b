/**
 * The `meeplekit` command as a real process (src/cli/main.ts, bundled once: test/global-setup.ts), where signals,
 * terminals and pipes matter (issue 14): Ctrl-C stops `simulate` cleanly and `--resume` ends the
 * file as a run never stopped; the progress bar only on a terminal (a pseudo-terminal from
 * util-linux's `script`), ticking before any game is done; a reader that closes the pipe early
 * ends the command quietly; an output that cannot be written is one line and code 2;
 * `--version` and `--help`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { untimed } from './helpers.js';
import pkg from '../package.json' with { type: 'json' };
import { CLI_EXPANSION_INFO, CLI_GAMES } from '../src/cli/expansions.js';
import { runPlay } from '../src/cli/play.js';
import { RENDER_HELP, runRender } from '../src/cli/render.js';
import { runSimulate, SIMULATE_HELP } from '../src/cli/simulate.js';
import { cliCommand } from './cli-command.js';

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLI = cliCommand();
const shell = (words: readonly string[]): string => words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(CLI[0]!, [...CLI.slice(1), ...args], { encoding: 'utf8', timeout: 600_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lineCount(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

async function until(check: () => boolean, what: string, ms = 540_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `meeplekit simulate`, waits for `lines` lines in `out`, sends `signal`; resolves to the exit code and stderr. */
async function interrupt(args: readonly string[], out: string, lines: number, signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'simulate', ...args, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => lineCount(out) >= lines || child.exitCode !== null, `${lines} lines in ${out}`);
  child.kill(signal);
  const code = await exit;
  return { code, stderr };
}

describe('meeplekit simulate stopped by a signal', () => {
  test('SIGINT: the workers stop, the file keeps whole lines, stderr says how to resume; --resume then ends as the uninterrupted file', async () => {
    const args = ['--games', '40', '--bots', 'greedy,random', '--seed', 'sigint'];
    const out = join(dir, 'sigint.jsonl');
    const { code, stderr } = await interrupt([...args, '--workers', '2'], out, 4, 'SIGINT');
    expect(code).toBe(130);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; game?: number });
    const games = lines.length - 1;
    expect(lines[0]!.type).toBe('header');
    expect(lines.slice(1).map((l) => l.game)).toEqual([...Array(games).keys()]);
    expect(games).toBeGreaterThanOrEqual(3);
    expect(games).toBeLessThan(40);
    expect(stderr).toBe(`meeplekit simulate: stopped by SIGINT: ${games} of 40 games are in ${out}; to play the other ${40 - games}: meeplekit simulate ${[...args, '--workers', '2', '--out', out].join(' ')} --resume\n`);

    const resumed = run(['simulate', ...args, '--workers', '2', '--out', out, '--resume']);
    expect(resumed.stderr).toMatch(new RegExp(`^meeplekit simulate: resuming \\S+: ${games} of 40 games kept\\n`));
    expect(resumed.status).toBe(0);
    const reference = join(dir, 'reference.jsonl');
    expect(await runSimulate([...args, '--workers', '1', '--out', reference, '--quiet'], { stdout: () => {}, stderr: () => {} })).toBe(0);
    expect(untimed(readFileSync(out, 'utf8'))).toBe(untimed(readFileSync(reference, 'utf8')));
  });

  test('SIGTERM: code 143, whole lines, no summary', async () => {
    const out = join(dir, 'sigterm.jsonl');
    const { code, stderr } = await interrupt(['--games', '10000000', '--seed', 'term', '--workers', '2'], out, 50, 'SIGTERM');
    expect(code).toBe(143);
    expect(stderr).toMatch(/^meeplekit simulate: stopped by SIGTERM: \d+ of 10000000 games are in /);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const types = text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types[0]).toBe('header');
    expect(types.slice(1).every((t) => t === 'game')).toBe(true);
  });
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('meeplekit simulate: the progress bar only on a terminal', () => {
  test.skipIf(!hasScript)('on a terminal: drawn at once with eta ?, redrawn on a timer while games are played, then the closing line', () => {
    const out = join(dir, 'tty.jsonl');
    // Two games of level-3 searches (500 a decision, over 40,000 searches a game: several seconds
    // here, and still a second at ten times this machine's speed), so that the bar's 250 ms timer
    // redraws while no game ends. (40 greedy games, as before, ended one every few milliseconds on a
    // quiet machine: every timer frame showed a new count, and the check below failed.)
    const command = shell([...CLI, 'simulate', '--games', '2', '--bots', 'search:3', '--seed', 'tty', '--workers', '1', '--out', out]);
    // util-linux script: the command on a pseudo-terminal, its output on our stdout.
    const r = spawnSync('script', ['-qefc', command, '/dev/null'], { encoding: 'utf8', timeout: 600_000 });
    expect(r.status).toBe(0);
    const frames = r.stdout.split('\r').filter((f) => f.startsWith('simulate ['));
    expect(frames[0]).toMatch(/^simulate \[\.{30}\] 0\/2 games 0:00 eta \?\x1b\[K$/);
    // More frames than states of the count: the bar moves on a timer, not only when a game ends.
    const counts = new Set(frames.map((f) => /(\d+)\/2 games/.exec(f)![1]));
    expect(frames.length).toBeGreaterThan(counts.size + 1);
    expect(frames.some((f) => /1\/2 games \d+:\d\d [\d.]+ games\/s eta \d+:\d\d/.test(f))).toBe(true);
    expect(frames[frames.length - 1]).toMatch(/^simulate \[#{30}\] 2\/2 games \d+:\d\d [\d.]+ games\/s eta 0:00\x1b\[K/);
    expect(r.stdout).toMatch(/meeplekit simulate: 2 games in [\d.]+ s \([\d.]+ games\/s\) to \S+tty\.jsonl\r?\n$/);
    expect(lineCount(out)).toBe(4);
  });

  test('not a terminal: no bar, no control characters, only the closing line; --quiet: nothing', () => {
    const r = run(['simulate', '--games', '4', '--seed', 'pipe', '--workers', '2', '--out', join(dir, 'pipe.jsonl')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^meeplekit simulate: 4 games in [\d.]+ s \([\d.]+ games\/s\) to \S+pipe\.jsonl\n$/);
    expect(run(['simulate', '--games', '4', '--seed', 'pipe', '--workers', '1', '--quiet', '--out', join(dir, 'quiet.jsonl')]).stderr).toBe('');
  });
});

describe('a reader that closes the pipe early ends the command quietly (code 0, no EPIPE trace)', () => {
  test.each([
    ['simulate --out - | head -1', ['simulate', '--games', '1000000', '--workers', '2', '--out', '-'], 'head -1'],
    ['simulate on one thread | head -1', ['simulate', '--games', '1000000', '--workers', '1'], 'head -1'],
    ['play | head -1', ['play', '--players', '3'], 'head -1'],
    ['play | true', ['play', '--players', '3'], 'true'],
    ['--help | true', ['--help'], 'true'],
    ['render tile | true', ['render', 'tile', 'D'], 'true'],
  ])('%s', (_, args, reader) => {
    const r = spawnSync('bash', ['-c', `${shell([...CLI, ...args])} 2>${join(dir, 'err.txt')} | ${reader}; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8', timeout: 600_000 });
    expect(r.stdout).toMatch(/status 0\n$/);
    if (reader === 'head -1') expect(r.stdout.split('\n')).toHaveLength(3);
    expect(readFileSync(join(dir, 'err.txt'), 'utf8')).toBe('');
  });
});

describe('an output that cannot be written: one line on stderr, code 2, no stack trace', () => {
  test.each([
    ['simulate --out', ['simulate', '--games', '2', '--out', '/nonexistent-dir/results.jsonl'], /^meeplekit simulate: cannot write \/nonexistent-dir\/results\.jsonl: ENOENT[^\n]*\n$/],
    ['play --replay', ['play', '--replay', '/nonexistent-dir/game.json'], /^meeplekit play: cannot write the replay to \/nonexistent-dir\/game\.json: ENOENT[^\n]*\n$/],
    ['render --out', ['render', 'tile', 'D', '--out', '/nonexistent-dir/d.svg'], /^meeplekit render tile: cannot write \/nonexistent-dir\/d\.svg: ENOENT[^\n]*\n$/],
  ])('%s', (_, args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(() => statSync('/nonexistent-dir')).toThrow();
  });
});

describe('--version and --help', () => {
  test.each([['--version'], ['-v'], ['version']])('%s prints the version of package.json', (flag) => {
    expect(run([flag])).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  test('--help lists every command, every game and expansion of the registry and every option', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stderr).toBe('');
    for (const command of ['meeplekit play ', 'meeplekit simulate ', 'meeplekit render tile <id> ', 'meeplekit render game ', 'meeplekit render replay <file> [--turn N] [--out file] [--html] [--png]', 'meeplekit serve [--port P]']) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toContain('answers JSON-lines requests on stdio for any language (docs/protocol.md)');
    for (const [id, m] of [...Object.entries(CLI_GAMES), ...Object.entries(CLI_EXPANSION_INFO)]) {
      expect(help.stdout).toMatch(new RegExp(`\\n  ${id} +${m.about.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      for (const o of m.options) expect(help.stdout).toContain(`${id}.${o.key}=${o.values === null ? '@file.json' : o.values.join('|')}`);
    }
    expect(help.stdout).toMatch(/classic +the base game [^\n]*; 2 to 5 players/);
    expect(run(['-h']).stdout).toBe(help.stdout);
    expect(run([]).stdout).toBe(help.stdout);
  });

  test('each command has its own --help (-h), on stdout with code 0; meeplekit help <command> is the same', async () => {
    const own: [string[], string][] = [
      [['play'], runPlay(['--help']).stdout],
      [['simulate'], SIMULATE_HELP],
      [['render'], RENDER_HELP['']!],
      [['render', 'tile'], RENDER_HELP['tile']!],
      [['render', 'game'], RENDER_HELP['game']!],
      [['render', 'replay'], RENDER_HELP['replay']!],
    ];
    for (const [command, text] of own) {
      expect(text).toMatch(new RegExp(`^usage: meeplekit ${command.join(' ')} `));
      expect(run(['help', ...command])).toEqual({ status: 0, stdout: text, stderr: '' });
    }
    expect(runPlay(['--seed', 'x', '-h'])).toEqual({ stdout: own[0]![1], stderr: '', code: 0 });
    expect(await runRender(['game', '--turn', '3', '-h'])).toEqual({ stdout: RENDER_HELP['game'], stderr: '', code: 0 });
    expect(await runRender(['--help'])).toEqual({ stdout: RENDER_HELP[''], stderr: '', code: 0 });
  });

  test('an unknown command: code 2, a message naming the commands', () => {
    const r = run(['simulation']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("meeplekit: unknown command 'simulation' (commands: play, simulate, arena, hint, render, serve; meeplekit --help lists them)\n");
  });
});
