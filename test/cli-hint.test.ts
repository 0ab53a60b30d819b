/**
 * `meeplekit hint` (issue 28): the search bot's advice for a saved state (`serializeState`) or a
 * replay file's position (`meeplekit play --replay`, `--turn N`), in process through `runHint`
 * (pure: it returns stdout, stderr and the code) and once as a process. Small budgets; the same
 * flags give the same output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, legalMoves, newGame, serializeState, type GameState, type Ruleset } from '../src/index.js';
import { analyse } from '../src/bots/index.js';
import { castle } from '../src/games/castle/entry.js';
import { river } from '../src/expansions/river/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { HINT_HELP, runHint, specFromRulesetId } from '../src/cli/hint.js';
import { runPlay } from '../src/cli/play.js';
import { cliCommand } from './cli-command.js';
import { must } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-hint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);

/** A state of `rules` after `moves` random moves (all of them: the end). */
function position(rules: Ruleset, seed: string, moves = Infinity): GameState {
  let state = must(newGame(rules, { players: 2, seed }));
  const random = createRandomSource(seed);
  for (let i = 0; i < moves && state.step.kind !== 'game-over'; i++) {
    const legal = legalMoves(rules, state);
    state = must(applyMove(rules, state, legal[random(legal.length)]!)).state;
  }
  return state;
}

const CLASSIC = must(createRuleset({ game: 'classic' }));
const RIVER_TOWER = must(createRuleset({ game: 'classic', expansions: [river({ set: 'II' }), tower()] }));
const CASTLE = must(createRuleset({ game: castle({ keep: 'majority' }) }));

interface HintJson {
  kind: string;
  ruleset: string;
  turn: number;
  move?: number;
  search: { level: number; iterations?: number; seed: string };
  player: number;
  iterations: number;
  best: unknown;
  candidates: { move: unknown; text: string; visits: number; margin: number; value: number }[];
}

function ok(args: readonly string[]): Promise<string> {
  return runHint(args).then((out) => {
    if (out.code !== 0) throw new Error(`hint ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
    expect(out.stderr).toBe('');
    return out.stdout;
  });
}

beforeAll(() => {
  writeFileSync(file('classic.json'), serializeState(position(CLASSIC, 'hint', 10)));
  writeFileSync(file('river-tower.json'), serializeState(position(RIVER_TOWER, 'hint', 9)));
  writeFileSync(file('castle.json'), serializeState(position(CASTLE, 'hint', 6)));
  writeFileSync(file('over.json'), serializeState(position(CLASSIC, 'over')));
  expect(runPlay(['--seed', 'hint', '--replay', file('replay.json')]).code).toBe(0);
});

describe('meeplekit hint: a saved state', () => {
  test('the best move and the top candidates: what analyse answers, in words; the same flags, the same output', async () => {
    const args = [file('classic.json'), '--iterations', '60', '--seed', 's', '--top', '3'];
    const text = await ok(args);
    expect(await ok(args)).toBe(text);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`meeplekit hint: ${file('classic.json')}: classic, 2 players, after 5 turns; scores Player 1 0, Player 2 0`);
    expect(lines[1]).toMatch(/^Player 2 to place tile \w+$/);
    expect(lines[2]).toBe('search: 60 iterations, seed "s": 60 searches');
    expect(lines[3]).toMatch(/^best: Player 2 places tile \w+ at -?\d+,-?\d+, turned \d+°$/);
    expect(lines.filter((l) => /^ {2}\d {2}Player 2 places/.test(l))).toHaveLength(3);
    expect(text).toMatch(/\(\d+ more candidates: --top \d+ lists them all\)/);

    const json = JSON.parse(await ok([...args, '--json'])) as HintJson;
    const expected = must(analyse(CLASSIC, position(CLASSIC, 'hint', 10), { iterations: 60, seed: 's' }));
    expect(json).toMatchObject({ kind: 'state', ruleset: 'classic', turn: 5, player: 1, iterations: 60, best: expected.best, search: { level: 3, iterations: 60, seed: 's' } });
    expect(json.candidates.map((c) => [c.move, c.visits, c.margin, c.value])).toEqual(expected.candidates.slice(0, 3).map((c) => [c.move, c.visits, c.margin, c.value]));
    expect(lines[3]).toBe(`best: ${json.candidates[0]!.text}`);
  });

  test('the ruleset is rebuilt from the id the state carries: expansions with options, The Castle with its options', async () => {
    const a = JSON.parse(await ok([file('river-tower.json'), '--level', '1', '--json'])) as HintJson;
    expect(a.ruleset).toBe(RIVER_TOWER.id);
    expect(a.search).toEqual({ level: 1, seed: 'meeplekit' });
    const b = JSON.parse(await ok([file('castle.json'), '--iterations', '20', '--json'])) as HintJson;
    expect(b.ruleset).toBe(CASTLE.id);
    expect(specFromRulesetId(RIVER_TOWER.id)).toEqual(RIVER_TOWER.options);
    expect(specFromRulesetId(CASTLE.id)).toEqual(CASTLE.options);
    expect(specFromRulesetId('classic')).toEqual({ game: 'classic', expansions: [] });
    for (const bad of ['', 'Classic', 'classic+', 'classic{"a":', 'classic{"a":1}x', 'classic[1]']) expect(specFromRulesetId(bad)).toBeNull();
    // The game flags name the ruleset instead: the state's own, or parseState's refusal.
    expect(JSON.parse(await ok([file('river-tower.json'), '--level', '1', '--json', '--expansions', 'river,tower', '--option', 'river.set=II'])).ruleset).toBe(RIVER_TOWER.id);
    const other = await runHint([file('river-tower.json'), '--expansions', 'river']);
    expect(other).toMatchObject({ stdout: '', code: 2 });
    expect(other.stderr).toMatch(/: state\/ruleset-mismatch: /);
  });
});

describe('meeplekit hint: budgets', () => {
  test('--time-ms bounds the search by the clock (with --iterations, whichever ends first)', async () => {
    const timed = JSON.parse(await ok([file('classic.json'), '--time-ms', '30', '--json'])) as HintJson;
    expect(timed.search).toMatchObject({ timeMs: 30 });
    expect(timed.iterations).toBeGreaterThan(0);
    const both = JSON.parse(await ok([file('classic.json'), '--time-ms', '60000', '--iterations', '12', '--json'])) as HintJson;
    expect(both.iterations).toBe(12);
  });
});

describe('meeplekit hint: a replay file', () => {
  test('--turn N: the position after turn N; the end of a finished game is no position to advise on', async () => {
    const json = JSON.parse(await ok([file('replay.json'), '--turn', '3', '--iterations', '30', '--json'])) as HintJson;
    expect(json).toMatchObject({ kind: 'replay', turn: 3, iterations: 30 });
    const text = await ok([file('replay.json'), '--turn', '3', '--iterations', '30']);
    expect(text.split('\n')[0]).toMatch(/, after 3 turns \(move \d+ of the replay\); scores /);
    const over = await runHint([file('replay.json'), '--level', '1']);
    expect(over).toMatchObject({ stdout: '', code: 2 });
    expect(over.stderr).toMatch(/^meeplekit hint: \S+replay\.json: the game is over, there is no move to advise \(bots\/game-over\): give --turn N for an earlier position \(\S+ has \d+ turns\)\n$/);
    const past = await runHint([file('replay.json'), '--turn', '999']);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--turn 999 is past the end: \S+ has \d+ turns/);
  });
});

describe('meeplekit hint: errors are one clear message, exit code 2, nothing on stdout', () => {
  test.each([
    ['no file', [], /which position\? give a saved state or a replay file/],
    ['two files', ['a.json', 'b.json'], /one file at a time, got 2/],
    ['a missing file', ['no-such-file.json'], /^meeplekit hint: cannot read no-such-file\.json: ENOENT/],
    ['a bad level', ['@classic.json', '--level', '9'], /--level must be one of 1, 2, 3, 4, 5 \(bots\/unknown-level\), got 9/],
    ['a level that is no number', ['@classic.json', '--level', 'high'], /--level must be a whole number, got 'high'/],
    ['no iterations', ['@classic.json', '--iterations', '0'], /--iterations must be a positive whole number, got '0'/],
    ['--top 0', ['@classic.json', '--top', '0'], /--top must be a positive whole number/],
    ['--turn on a state', ['@classic.json', '--turn', '2'], /--turn picks a position of a replay file/],
    ['game flags with a replay', ['@replay.json', '--game', 'castle'], /is a replay, which names its ruleset/],
    ['a misspelt flag', ['@classic.json', '--itrations', '5'], /Unknown option '--itrations'.*Did you mean --iterations\?/],
    ['a finished game', ['@over.json'], /over\.json: the game is over, there is no move to advise \(bots\/game-over\)\n$/],
  ])('%s', async (_, args, message) => {
    const out = await runHint(args.map((a) => (a.startsWith('@') ? file(a.slice(1)) : a)));
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(message);
  });

  test("a malformed or edited state: parseState's error with its code", async () => {
    const cases: [string, string, RegExp][] = [
      ['not-json.json', '{"format":', /not-json\.json: state\/json: not JSON: /],
      ['other.json', '{"hello":1}', /other\.json: state\/malformed: format must be 'meeplekit\/state'/],
      ['tampered.json', serializeState(position(CLASSIC, 'hint', 10)).replace('"scores":[0,0]', '"scores":[9,0]'), /tampered\.json: state\/tampered: .*\$\.state\.scores\[0\]/],
      ['unknown.json', serializeState(position(CLASSIC, 'hint', 2)).replace('"ruleset":"classic"', '"ruleset":"classic+dragons#1"'), /unknown\.json: its ruleset "classic\+dragons#1" cannot be built: options\/unknown-expansion/],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(file(name), text);
      const out = await runHint([file(name)]);
      expect(out, name).toMatchObject({ stdout: '', code: 2 });
      expect(out.stderr).toMatch(message);
    }
  });
});

describe('meeplekit hint as a process', () => {
  test('--help, a hint, and an error', () => {
    const [node, cli] = cliCommand();
    const run = (args: string[]) => spawnSync(node, [cli, 'hint', ...args], { encoding: 'utf8', timeout: 600_000 });
    expect(run(['--help'])).toMatchObject({ status: 0, stdout: HINT_HELP, stderr: '' });
    const r = run([file('classic.json'), '--iterations', '20']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^meeplekit hint: /);
    const bad = run([file('over.json')]);
    expect(bad).toMatchObject({ status: 2, stdout: '' });
  });
});

