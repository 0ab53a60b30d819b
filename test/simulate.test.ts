/**
 * `meeplekit simulate` through `runSimulate(args, io)` (issue 6, "Parallel simulation"): one JSON
 * line per game in game order, each depending only on its own seed, so the file is the same for
 * any number of worker threads.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runSimulate, type GameRecord } from '../src/cli/simulate.js';

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function simulate(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSimulate(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function file(args: readonly string[], name: string): Promise<string> {
  const out = join(dir, name);
  const r = await simulate([...args, '--out', out]);
  if (r.code !== 0) throw new Error(r.stderr);
  expect(r.stdout).toBe('');
  return readFileSync(out, 'utf8');
}

describe('meeplekit simulate', () => {
  test.each([
    ['classic, 2 players', ['--players', '2', '--games', '30', '--seed', 'w']],
    ['classic, 4 players, greedy against random', ['--players', '4', '--games', '6', '--seed', 'g', '--bots', 'greedy,random']],
    ['king-robber and shrines, 3 players', ['--expansions', 'king-robber,shrines', '--players', '3', '--games', '20', '--seed', 'e']],
    ['The Castle', ['--game', 'castle', '--players', '2', '--games', '12', '--seed', 'c']],
  ])('%s: the same file for 1, 2 and 3 workers', async (_name, args) => {
    const one = await file([...args, '--workers', '1'], 'one.jsonl');
    const two = await file([...args, '--workers', '2'], 'two.jsonl');
    const three = await file([...args, '--workers', '3', '--quiet'], 'three.jsonl');
    expect(two).toBe(one);
    expect(three).toBe(one);
    const games = Number(args[args.indexOf('--games') + 1]);
    const seed = args[args.indexOf('--seed') + 1];
    const players = Number(args[args.indexOf('--players') + 1]);
    const lines = one.trimEnd().split('\n').map((l) => JSON.parse(l) as GameRecord);
    expect(lines).toHaveLength(games);
    lines.forEach((r, i) => {
      expect(Object.keys(r)).toEqual(['game', 'seed', 'scores', 'winners', 'turns']);
      expect(r.game).toBe(i);
      expect(r.seed).toBe(`${seed}/${i}`);
      expect(r.scores).toHaveLength(players);
      const best = Math.max(...r.scores);
      expect(r.winners).toEqual(r.scores.flatMap((s, p) => (s === best ? [p] : [])));
      expect(r.turns).toBeGreaterThan(40);
    });
    // Different games differ.
    expect(new Set(lines.map((r) => JSON.stringify(r.scores))).size).toBeGreaterThan(1);
  });

  test('a progress bar on stderr, the lines on stdout with --out -', async () => {
    const r = await simulate(['--games', '5', '--seed', 'bar', '--workers', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(r.stderr).toMatch(/simulate \[#+\] 5\/5 games/);
    expect(r.stderr.endsWith('\n')).toBe(true);
    const quiet = await simulate(['--games', '3', '--seed', 'bar', '--workers', '1', '--quiet']);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(r.stdout.split('\n').slice(0, 3).join('\n') + '\n');
  });

  test.each([
    [['--players', 'two'], /--players must be a whole number/],
    [['--workers', '0'], /--workers must be a positive whole number/],
    [['--expansions', 'dragon'], /unknown expansion 'dragon'/],
    [['--bots', 'genius'], /unknown bot 'genius'/],
    [['--players', '9'], /players must be an integer from 2 to/],
    [['--game', 'chess'], /unknown game/],
    [['--frobnicate'], /Unknown option/],
  ])('refuses %j', async (args, message) => {
    const r = await simulate(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  test('no games: an empty file', async () => {
    expect(await file(['--games', '0', '--workers', '4'], 'empty.jsonl')).toBe('');
  });
});
