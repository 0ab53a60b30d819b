/**
 * `meeplekit render` (tile, game, replay, the --html viewer) and `meeplekit play --replay`,
 * through `runRender(args)` and `runPlay(args)`; one test runs the real command through tsx to
 * check the wiring in main.ts (stdout, binary PNG, exit codes). The viewer in a browser is
 * test/browser/viewer.test.ts (`npm run test:browser`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, makeReplay, newGame, randomBot, replay, type Replay } from '../src/index.js';
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';
import { runPlay } from '../src/cli/play.js';
import { REPLAY_EXPANSIONS, loadReplayFile, rulesetFromReplay, runRender, svgToPng, type RenderOutput } from '../src/cli/render.js';
import { describeEvent, describeMove, describeStep, replayPositions } from '../src/cli/viewer.js';
import { renderBoard } from '../src/render/index.js';
import { castle } from '../src/games/castle/entry.js';
import { cliCommand } from './cli-command.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'meeplekit-render-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function file(name: string): string {
  return join(dir, name);
}

async function ok(args: readonly string[]): Promise<string> {
  const out = await runRender(args);
  if (out.code !== 0) throw new Error(`render ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  expect(out.stderr).toBe('');
  expect(typeof out.stdout).toBe('string');
  return out.stdout as string;
}

/**
 * The viewer page of a replay file, rendered once per file and shared by the tests that only read
 * it (the test of same bytes for the same replay renders it afresh, twice).
 */
const viewerPages = new Map<string, Promise<string>>();
function viewerHtml(path: string): Promise<string> {
  let page = viewerPages.get(path);
  if (page === undefined) {
    page = ok(['replay', path, '--html']);
    viewerPages.set(path, page);
  }
  return page;
}

async function bytes(args: readonly string[]): Promise<Uint8Array> {
  const out = await runRender(args);
  if (out.code !== 0) throw new Error(`render ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  expect(out.stdout).toBeInstanceOf(Uint8Array);
  return out.stdout as Uint8Array;
}

function expectSvg(text: string): void {
  expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(text.trimEnd()).toMatch(/<\/svg>$/);
}

function expectPng(b: Uint8Array): void {
  expect([...b.slice(0, 8)]).toEqual(PNG_MAGIC);
  // The IHDR chunk comes first, with a non-zero width and height.
  expect(Buffer.from(b.slice(12, 16)).toString('latin1')).toBe('IHDR');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  expect(view.getUint32(16)).toBeGreaterThan(0);
  expect(view.getUint32(20)).toBeGreaterThan(0);
}

/** A refusal: code 2, nothing on stdout, the message on stderr (with the usage lines when `usage`). */
function expectRefused(out: RenderOutput, message: RegExp, usage = true): void {
  expect(out.code).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr).toMatch(/^meeplekit render/);
  expect(out.stderr).toMatch(message);
  if (usage) expect(out.stderr).toMatch(/usage: meeplekit render tile /);
  else expect(out.stderr).not.toMatch(/usage:/);
}

/** Plays `play` with `--replay` into a new file; returns its path and the play's JSON. */
function playReplay(name: string, args: readonly string[]): { path: string; json: { scores: number[]; turns: number; moves: number; ruleset: string } } {
  const path = file(name);
  const out = runPlay([...args, '--json', '--replay', path]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return { path, json: JSON.parse(out.stdout) as { scores: number[]; turns: number; moves: number; ruleset: string } };
}

describe('meeplekit play --replay', () => {
  const sets: readonly (readonly string[])[] = [
    ['--seed', 'r'],
    ['--game', 'castle', '--seed', 'r'],
    ['--players', '3', '--seed', 'r', '--expansions', 'river,king-robber,shrines,tower,princess-dragon', '--river-set', 'both'],
    ['--players', '4', '--seed', 'r', '--expansions', 'count,tower', '--bots', 'greedy,random'],
  ];
  test.each(sets)('writes the replay of the game it plays; the output is the same as without it (%j)', (...args) => {
    const path = file(`play-${args.join('_').replace(/[^a-z0-9_-]/gi, '')}.json`);
    for (const extra of [[], ['--json']]) {
      const out = runPlay([...args, ...extra, '--replay', path]);
      expect(out).toEqual(runPlay([...args, ...extra]));
    }
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const data = JSON.parse(text) as Replay;
    expect(data).toMatchObject({ format: 'meeplekit/replay', version: 1 });
    const j = JSON.parse(runPlay([...args, '--json']).stdout) as { scores: number[]; moves: number; ruleset: string; seed: string; players: number };
    expect(data.moves).toHaveLength(j.moves);
    expect(data.seed).toBe(j.seed);
    expect(data.players).toBe(j.players);
    const loaded = loadReplayFile(path);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.value.rules.id).toBe(j.ruleset);
    const again = replay(loaded.value.rules, text);
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.state.scores).toEqual(j.scores);
    expect(again.value.state.step.kind).toBe('game-over');
    // Same game, same file.
    runPlay([...args, '--replay', `${path}.2`]);
    expect(readFileSync(`${path}.2`, 'utf8')).toBe(text);
  });

  test('writes nothing on a bad argument; an empty name or an unwritable path is refused with code 2', () => {
    const path = file('never.json');
    expect(runPlay(['--players', '9', '--replay', path])).toMatchObject({ code: 2, stdout: '' });
    expect(runPlay(['--bots', 'clever', '--replay', path])).toMatchObject({ code: 2, stdout: '' });
    expect(existsSync(path)).toBe(false);
    const empty = runPlay(['--replay', '']);
    expect(empty).toMatchObject({ code: 2, stdout: '' });
    expect(empty.stderr).toMatch(/--replay needs a file name/);
    const missing = runPlay(['--replay', join(dir, 'no-such-dir', 'x.json')]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^meeplekit play: cannot write the replay to .*no-such-dir.*ENOENT/);
    const noValue = runPlay(['--replay']);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/argument missing/);
  });
});

describe('meeplekit render tile', () => {
  test('draws a tile as SVG; the same arguments give the same bytes', async () => {
    const svg = await ok(['tile', 'D']);
    expectSvg(svg);
    expect(await ok(['tile', 'D'])).toBe(svg);
    expect(await ok(['tile', 'D', '--rotation', '0'])).toBe(svg);
  });

  test('--rotation turns it: four different pictures for an asymmetric tile, each the renderer\'s', async () => {
    const pictures = await Promise.all(['0', '1', '2', '3'].map((r) => ok(['tile', 'D', '--rotation', r])));
    expect(new Set(pictures).size).toBe(4);
    for (const p of pictures) expectSvg(p);
  });

  test('--game castle and --expansions reach their own tiles; a tile of another set is unknown', async () => {
    const rules = createRuleset({ game: castle() });
    if (!rules.ok) throw new Error(rules.error.message);
    const castleTile = rules.value.tiles.find((t) => !t.def.id.startsWith('@'))!.def.id;
    expectSvg(await ok(['tile', castleTile, '--game', 'castle']));
    const classic = createRuleset({ game: 'classic' });
    if (!classic.ok) throw new Error(classic.error.message);
    const classicIds = new Set(classic.value.tiles.map((t) => t.def.id));
    for (const id of ['tower', 'river', 'princess-dragon', 'count']) {
      const rules = createRuleset({ game: 'classic', expansions: [CLI_EXPANSIONS[id]!({})] });
      if (!rules.ok) throw new Error(rules.error.message);
      const own = rules.value.tiles.map((t) => t.def.id).find((t) => !classicIds.has(t))!;
      expectSvg(await ok(['tile', own, '--expansions', id]));
      expectRefused(await runRender(['tile', own]), new RegExp(`unknown tile '${own.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' in classic \\(tiles: A, B, C, D`));
    }
  });

  test('--option river.set=II (or --river-set II) reaches River II\'s tiles; River I does not have them', async () => {
    const svg = await ok(['tile', 'R2-04', '--expansions', 'river', '--option', 'river.set=II']);
    expectSvg(svg);
    expect(await ok(['tile', 'R2-04', '--expansions', 'river', '--river-set', 'II'])).toBe(svg);
    expectRefused(await runRender(['tile', 'R2-04', '--expansions', 'river']), /unknown tile 'R2-04' in classic with river/);
  });

  test('--out writes the same bytes to a file and prints nothing', async () => {
    const path = file('tile-d.svg');
    const out = await runRender(['tile', 'D', '--rotation', '2', '--out', path]);
    expect(out).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(readFileSync(path, 'utf8')).toBe(await ok(['tile', 'D', '--rotation', '2']));
  });

  test('--png gives PNG bytes (to stdout or --out), the same for the same arguments', async () => {
    const png = await bytes(['tile', 'D', '--png']);
    expectPng(png);
    expect(Buffer.from(await bytes(['tile', 'D', '--png'])).equals(Buffer.from(png))).toBe(true);
    expect(Buffer.from(await bytes(['tile', 'D', '--png', '--rotation', '1'])).equals(Buffer.from(png))).toBe(false);
    const path = file('tile-d.png');
    expect(await runRender(['tile', 'D', '--png', '--out', path])).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(Buffer.from(readFileSync(path)).equals(Buffer.from(png))).toBe(true);
  });

  test('--png without @resvg/resvg-js: a message saying how to install it, code 2, nothing written', async () => {
    const path = file('no-resvg.png');
    const missing = async (): Promise<unknown> => {
      const e = new Error("Cannot find package '@resvg/resvg-js' imported from meeplekit") as Error & { code: string };
      e.code = 'ERR_MODULE_NOT_FOUND';
      throw e;
    };
    const out = await runRender(['tile', 'D', '--png', '--out', path], { loadResvg: missing });
    expectRefused(out, /--png needs the optional package @resvg\/resvg-js, which could not be loaded \(Cannot find package '@resvg\/resvg-js'.*\): install it with npm install @resvg\/resvg-js/, false);
    expect(existsSync(path)).toBe(false);
    const odd = await svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', async () => ({ something: 1 }));
    expect(odd).toMatchObject({ ok: false });
    expect(!odd.ok && odd.error).toMatch(/has no Resvg class/);
  });

  test('--png to a terminal is refused unless --out is given', async () => {
    expectRefused(await runRender(['tile', 'D', '--png'], { stdoutIsTTY: true }), /--png writes binary data: give --out picture\.png or redirect stdout/);
    const path = file('tty.png');
    expect((await runRender(['tile', 'D', '--png', '--out', path], { stdoutIsTTY: true })).code).toBe(0);
    expectPng(readFileSync(path));
  });

  const bad: [string, string[], RegExp][] = [
    ['no tile id', ['tile'], /which tile\? give its id, such as D/],
    ['two tile ids', ['tile', 'D', 'E'], /one tile id at a time, got 2: D E/],
    ['an unknown tile id', ['tile', 'ZZ'], /unknown tile 'ZZ' in classic \(tiles: A, B, C, D, /],
    ['a Castle tile in classic', ['tile', 'nope', '--game', 'castle'], /unknown tile 'nope' in castle \(tiles: /],
    ['rotation 4', ['tile', 'D', '--rotation', '4'], /--rotation must be 0, 1, 2 or 3 \(quarter turns clockwise\), got '4'/],
    ['rotation 90', ['tile', 'D', '--rotation', '90'], /got '90'/],
    ['rotation -1', ['tile', 'D', '--rotation=-1'], /got '-1'/],
    ['rotation x', ['tile', 'D', '--rotation', 'x'], /got 'x'/],
    ['rotation 1.5', ['tile', 'D', '--rotation', '1.5'], /got '1\.5'/],
    ['rotation empty', ['tile', 'D', '--rotation', ''], /got ''/],
    ['an unknown game', ['tile', 'D', '--game', 'chess'], /unknown game 'chess' \(games: classic, castle\)/],
    ['an unknown expansion', ['tile', 'D', '--expansions', 'moon'], /unknown expansion 'moon' \(expansions: /],
    ['The Castle with an expansion', ['tile', 'D', '--game', 'castle', '--expansions', 'river'], /The Castle is a game of its own: it takes none of the classic expansions/],
    ['--river-set without the river', ['tile', 'D', '--river-set', 'II'], /--river-set needs --expansions river/],
    ['an empty --out', ['tile', 'D', '--out', ''], /--out needs a file name/],
    ['an unknown flag', ['tile', 'D', '--size', '3'], /Unknown option '--size'/],
    ['--png with a value', ['tile', 'D', '--png=yes'], /'--png' does not take an argument/],
  ];
  test.each(bad)('refuses %s with code 2, writing nothing', async (name, args, message) => {
    expectRefused(await runRender(args), message);
    // With a valid --out too (first, so that a bad --out given in args still counts).
    const path = file(`refused-tile-${name.replace(/\W+/g, '-')}.svg`);
    expectRefused(await runRender(['tile', '--out', path, ...args.slice(1)]), message);
    expect(existsSync(path)).toBe(false);
  });
});

describe('meeplekit render (no or unknown subcommand)', () => {
  test('refuses with the usage', async () => {
    expectRefused(await runRender([]), /what to render\? tile, game or replay/);
    expectRefused(await runRender(['board']), /unknown subcommand 'board' \(tile, game, replay\)/);
    expectRefused(await runRender(['--png']), /unknown subcommand '--png'/);
  });
});

describe('meeplekit render game', () => {
  test('draws the board at the end of the game play plays; same arguments, same bytes', async () => {
    const args = ['game', '--seed', 'g', '--players', '3'];
    const svg = await ok(args);
    expectSvg(svg);
    expect(await ok(args)).toBe(svg);
    expect(await ok(['game', '--seed', 'h', '--players', '3'])).not.toBe(svg);
  });

  test('--turn N draws the board after turn N: 0 is the start, the last turn is the end, past it is refused', async () => {
    const { json } = playReplay('game-turns.json', ['--seed', 'turns']);
    const end = await ok(['game', '--seed', 'turns']);
    expect(await ok(['game', '--seed', 'turns', '--turn', String(json.turns)])).toBe(end);
    const start = await ok(['game', '--seed', 'turns', '--turn', '0']);
    const five = await ok(['game', '--seed', 'turns', '--turn', '5']);
    expect(new Set([start, five, end]).size).toBe(3);
    expectRefused(await runRender(['game', '--seed', 'turns', '--turn', String(json.turns + 1)]), new RegExp(`--turn ${json.turns + 1} is past the end: this game has ${json.turns} turns`));
  });

  test('the same board as render replay of the replay play --replay writes with the same flags, at the end and after turn N', async () => {
    const flags = ['--players', '3', '--seed', 'same', '--expansions', 'tower,king-robber'];
    const { path } = playReplay('game-same.json', flags);
    expect(await ok(['replay', path])).toBe(await ok(['game', ...flags]));
    expect(await ok(['replay', path, '--turn', '12'])).toBe(await ok(['game', ...flags, '--turn', '12']));
    const castle = playReplay('game-same-castle.json', ['--game', 'castle', '--seed', 'same']);
    expect(await ok(['replay', castle.path, '--turn', '7'])).toBe(await ok(['game', '--game', 'castle', '--seed', 'same', '--turn', '7']));
  });

  test('--png and --out', async () => {
    expectPng(await bytes(['game', '--seed', 'p', '--png']));
    const path = file('game.svg');
    expect(await runRender(['game', '--seed', 'p', '--out', path])).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(readFileSync(path, 'utf8')).toBe(await ok(['game', '--seed', 'p']));
  });

  const bad: [string, string[], RegExp][] = [
    ['a turn that is not a number', ['game', '--turn', 'x'], /--turn must be a whole number, got 'x'/],
    ['a negative turn', ['game', '--turn=-1'], /--turn must be a whole number, got '-1'/],
    ['a fractional turn', ['game', '--turn', '2.5'], /got '2\.5'/],
    ['a turn past the end', ['game', '--turn', '500'], /--turn 500 is past the end: this game has \d+ turns/],
    ['9 players', ['game', '--players', '9'], /--players must be from 2 to 5 for classic, got 9/],
    ['an unknown bot', ['game', '--bots', 'clever'], /unknown bot 'clever'/],
    ['The Castle with an expansion', ['game', '--game', 'castle', '--expansions', 'tower'], /The Castle is a game of its own/],
    ['a positional argument', ['game', 'extra'], /Unexpected argument 'extra'/],
    ['--html (replay only)', ['game', '--html'], /Unknown option '--html'/],
  ];
  test.each(bad)('refuses %s with code 2, writing nothing', async (_, args, message) => {
    const path = file('refused-game.svg');
    expectRefused(await runRender([...args, '--out', path]), message);
    expect(existsSync(path)).toBe(false);
  });
});

describe('meeplekit render replay', () => {
  let classic: string;
  let big: string;
  let castle: string;
  beforeAll(() => {
    classic = playReplay('classic.json', ['--seed', 'view']).path;
    big = playReplay('big.json', ['--players', '4', '--seed', 'view', '--expansions', 'tower,princess-dragon,king-robber,shrines,count']).path;
    castle = playReplay('castle.json', ['--game', 'castle', '--seed', 'view']).path;
  });

  test('draws the final board (or after --turn N); same file, same bytes; --png and --out', async () => {
    for (const path of [classic, big, castle]) {
      const svg = await ok(['replay', path]);
      expectSvg(svg);
      expect(await ok(['replay', path])).toBe(svg);
      expect(await ok(['replay', path, '--turn', '3'])).not.toBe(svg);
    }
    expectPng(await bytes(['replay', classic, '--png']));
    const out = file('replay.svg');
    expect(await runRender(['replay', classic, '--out', out])).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(readFileSync(out, 'utf8')).toBe(await ok(['replay', classic]));
  });

  test('--turn N is the board after the move that ended turn N (the renderer drawing that very state)', async () => {
    const loaded = loadReplayFile(classic);
    if (!loaded.ok) throw new Error(loaded.error);
    const positions = replayPositions(loaded.value.rules, loaded.value.data);
    if (!positions.ok) throw new Error(positions.error);
    for (const turn of [0, 1, 10, 40]) {
      const at = positions.value.find((p) => p.turns >= turn)!;
      // The position right after the turn's last move: one turn more would need another move.
      expect(at.turns).toBe(turn);
      const expected = renderBoard(loaded.value.rules, at.state);
      if (!expected.ok) throw new Error(expected.error.message);
      expect(await ok(['replay', classic, '--turn', String(turn)])).toBe(expected.value);
    }
  });

  describe('bad replay files: a clear message naming the file and the problem, code 2, nothing written', () => {
    function variant(name: string, edit: (data: Record<string, unknown>) => unknown): string {
      const data = JSON.parse(readFileSync(classic, 'utf8')) as Record<string, unknown>;
      const path = file(name);
      const edited = edit(data);
      writeFileSync(path, typeof edited === 'string' ? edited : JSON.stringify(edited));
      return path;
    }
    const rows: [string, () => string, RegExp][] = [
      ['a missing file', () => file('no-such-replay.json'), /cannot read .*no-such-replay\.json: ENOENT/],
      ['a directory', () => dir, /cannot read .*: EISDIR/],
      ['not JSON', () => variant('not-json.json', () => '{"format": "meeplekit/replay",'), /not-json\.json is not a replay: replay\/json: not JSON: /],
      ['an empty file', () => variant('empty.json', () => ''), /empty\.json is not a replay: replay\/json: not JSON/],
      ['an array', () => variant('array.json', () => []), /is not a replay: replay\/malformed: a replay must be an object/],
      ['a state file instead of a replay', () => variant('state.json', () => ({ format: 'meeplekit/state', version: 1, state: {} })), /state\.json is not a replay: replay\/malformed: a replay must be an object with format 'meeplekit\/replay', got "meeplekit\/state"/],
      ['no format tag', () => variant('format.json', (d) => ({ ...d, format: undefined })), /is not a replay: replay\/malformed: a replay must be an object with format 'meeplekit\/replay', got undefined/],
      ['a later version', () => variant('version.json', (d) => ({ ...d, version: 2, ruleset: 'new' })), /is not a replay this version reads: replay\/version: unsupported replay version 2 \(this version reads 1\)/],
      ['a ruleset that is not an object', () => variant('ruleset.json', (d) => ({ ...d, ruleset: 'classic' })), /is not a replay: replay\/malformed: \$\.ruleset must be an object/],
      ['an unknown game', () => variant('game.json', (d) => ({ ...d, ruleset: { game: 'chess', expansions: [] } })), /is not a replay: options\/unknown-game: unknown game "chess"/],
      ['an unknown expansion', () => variant('exp.json', (d) => ({ ...d, ruleset: { game: 'classic', expansions: [{ id: 'moon', options: {} }] } })), /is not a replay: options\/unknown-expansion: unknown expansion 'moon' \(expansions: count, king-robber/],
      ['bad expansion options', () => variant('exp-options.json', (d) => ({ ...d, ruleset: { game: 'classic', expansions: [{ id: 'river', options: { set: 'IV' } }] } })), /is not a replay: options\/expansion-options: /],
      ['expansions not a list', () => variant('exp-list.json', (d) => ({ ...d, ruleset: { game: 'classic', expansions: 'river' } })), /replay\/malformed: \$\.ruleset\.expansions must be an array/],
      ['too many players', () => variant('players.json', (d) => ({ ...d, players: 9 })), /is not a valid replay: replay\/malformed: players must be an integer from 2 to 5/],
      ['moves not a list', () => variant('moves.json', (d) => ({ ...d, moves: 'none' })), /replay\/malformed: moves must be an array/],
      ['an illegal move', () => variant('illegal.json', (d) => ({ ...d, moves: (d['moves'] as Record<string, unknown>[]).map((m, i) => (i === 4 ? { ...m, x: 40 } : m)) })), /illegal\.json is not a valid replay: replay\/illegal-move: move 4 cannot be played: /],
      ['a move by the wrong player', () => variant('player.json', (d) => ({ ...d, moves: (d['moves'] as Record<string, unknown>[]).map((m, i) => (i === 0 ? { ...m, player: 1 } : m)) })), /replay\/illegal-move: move 0 cannot be played: .*not/],
      ['a move after the end', () => variant('after.json', (d) => ({ ...d, moves: [...(d['moves'] as unknown[]), { type: 'pass', player: 0 }] })), /replay\/illegal-move: move \d+ cannot be played: /],
      ['another seed (the draws differ)', () => variant('seed.json', (d) => ({ ...d, seed: 'other' })), /replay\/illegal-move: move \d+ cannot be played/],
    ];
    test.each(rows)('%s', async (_, make, message) => {
      const path = make();
      for (const extra of [[], ['--html'], ['--png'], ['--turn', '2']]) {
        const out = file('bad-replay-out');
        expectRefused(await runRender(['replay', path, ...extra, '--out', out]), message, false);
        expect(existsSync(out)).toBe(false);
      }
    });
  });

  const badArgs: [string, (f: string) => string[], RegExp][] = [
    ['no file', () => ['replay'], /which replay\? give its file \(meeplekit play --replay game\.json writes one\)/],
    ['two files', (f) => ['replay', f, f], /one replay file at a time, got 2/],
    ['--html with --png', (f) => ['replay', f, '--html', '--png'], /--html and --png cannot be combined/],
    ['a bad turn', (f) => ['replay', f, '--turn', 'last'], /--turn must be a whole number, got 'last'/],
    ['a turn past the end', (f) => ['replay', f, '--turn', '999'], /--turn 999 is past the end: .*classic\.json has \d+ turns/],
    ['a game flag', (f) => ['replay', f, '--seed', 'x'], /Unknown option '--seed'/],
  ];
  test.each(badArgs)('refuses %s with code 2, writing nothing', async (_, args, message) => {
    const out = file('refused-replay.html');
    expectRefused(await runRender([...args(classic), '--out', out]), message);
    expect(existsSync(out)).toBe(false);
  });

  describe('--html: the viewer', () => {
    interface Payload {
      players: number;
      start: number;
      tags: (string | [number, number, number, string])[];
      frames: number[][];
      positions: { s: number[]; t: number; w: number; step: string; move: string | null; events: string[] }[];
    }
    function payload(html: string): Payload {
      const m = /<script type="application\/json" id="meeplekit-replay">([^<]*)<\/script>/.exec(html);
      expect(m).not.toBeNull();
      return JSON.parse(m![1]!) as Payload;
    }

    /** The boards' SVG text, decoded as the page's script does (the format is in viewer.ts). */
    function boards(data: Payload): string[] {
      const tags: string[] = [];
      for (const e of data.tags) {
        if (typeof e === 'string') tags.push(e);
        else {
          const base = tags[e[0]]!;
          expect(e[0]).toBeLessThan(tags.length);
          tags.push(base.slice(0, e[1]) + e[3] + base.slice(base.length - e[2]));
        }
      }
      let prev: number[] = [];
      return data.frames.map((enc) => {
        const frame: number[] = [];
        for (let j = 0; j < enc.length; j++) {
          const x = enc[j]!;
          if (x >= 0) frame.push(x);
          else {
            const from = -x - 1;
            const n = enc[++j]!;
            expect(from + n).toBeLessThanOrEqual(prev.length);
            frame.push(...prev.slice(from, from + n));
          }
        }
        prev = frame;
        return frame.map((t) => tags[t]!).join('');
      });
    }

    test('one self-contained page: nothing loaded from anywhere, one data block, one inline script; same replay, same bytes', async () => {
      for (const path of [classic, big, castle]) {
        const html = await ok(['replay', path, '--html']);
        expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
        expect(await ok(['replay', path, '--html'])).toBe(html);
        // No external resource: no src, no link, no url(), no @import; xmlns URIs are names, not requests.
        expect(html).not.toMatch(/\ssrc=|<link\b|url\(|@import|<iframe|<img\b/i);
        expect(html.replace(/xmlns(:\w+)?=\\?"http:\/\/www\.w3\.org\/[^"\\]*\\?"/g, '')).not.toMatch(/https?:\/\//);
        expect(html.match(/<script\b/g)).toHaveLength(2);
        // Labelled controls.
        for (const id of ['first', 'prev', 'next', 'last']) expect(html).toMatch(new RegExp(`<button type="button" id="${id}" aria-label="[^"]+"`));
        expect(html).toMatch(/<label class="slider"><span class="visually-hidden">Position<\/span><input type="range" id="slider"/);
      }
    });

    test.each(['classic', 'big', 'castle'])('a board per position (moves + 1), each exactly the renderer\'s board with external symbols, with a title (%s)', async (which) => {
      const path = which === 'classic' ? classic : which === 'big' ? big : castle;
      const html = await viewerHtml(path);
      const data = payload(html);
      const loaded = loadReplayFile(path);
      if (!loaded.ok) throw new Error(loaded.error);
      const { rules, data: rep } = loaded.value;
      expect(data.frames).toHaveLength(rep.moves.length + 1);
      expect(data.positions).toHaveLength(rep.moves.length + 1);
      const positions = replayPositions(rules, rep);
      if (!positions.ok) throw new Error(positions.error);
      const svgs = boards(data);
      for (let i = 0; i <= rep.moves.length; i++) {
        const svg = svgs[i]!;
        const board = renderBoard(rules, positions.value[i]!.state, { tileSize: 48, symbols: 'external', lastTile: true });
        if (!board.ok) throw new Error(board.error.message);
        expect(svg).toBe(board.value);
        expect(svg).toMatch(/^<svg[^>]*><title>[^<]*board[^<]*<\/title>/i);
        expect(svg).not.toMatch(/<defs/);
      }
      // The tile pictures, once.
      expect(html.match(/<defs\b/g)?.length).toBe(1);
    });

    test('scores, turns, steps, moves and events per position, as replaying the moves gives them', async () => {
      const html = await viewerHtml(big);
      const data = payload(html);
      const loaded = loadReplayFile(big);
      if (!loaded.ok) throw new Error(loaded.error);
      const full = replay(loaded.value.rules, loaded.value.data);
      if (!full.ok) throw new Error(full.error.message);
      const positions = replayPositions(loaded.value.rules, loaded.value.data);
      if (!positions.ok) throw new Error(positions.error);
      expect(data.start).toBe(0);
      expect(data.positions[0]).toMatchObject({ s: [0, 0, 0, 0], t: 0, move: null, events: [] });
      // Every event of the game, in order, as replay() reports them (less the set-up's own draw).
      expect(data.positions.flatMap((p) => p.events)).toEqual(full.value.events.map(describeEvent));
      data.positions.forEach((p, i) => {
        const pos = positions.value[i]!;
        expect(p.s).toEqual(pos.state.scores);
        expect(p.step).toBe(describeStep(pos.state.step));
        if (i > 0) expect(p.move).toBe(describeMove(loaded.value.data.moves[i - 1]!, positions.value[i - 1]!.state.step));
      });
      const last = data.positions[data.positions.length - 1]!;
      expect(last.s).toEqual(full.value.state.scores);
      expect(last.w).toBe(-1);
      expect(last.step).toMatch(/^game over: winners? Player \d/);
      // Expansion moves are there, in words.
      expect(data.positions.some((p) => p.move !== null && /^Player \d: (tower|princess-dragon|count)\//.test(p.move))).toBe(true);
      expect(data.positions.some((p) => p.events.some((e) => /scores \d+ points? for the completed/.test(e)))).toBe(true);
    });

    test('the page is titled with the game, its expansions, players and seed', async () => {
      expect(await viewerHtml(classic)).toContain('<title>meeplekit replay: classic, 2 players, seed &quot;view&quot;</title>');
      expect(await viewerHtml(castle)).toContain('<title>meeplekit replay: castle, 2 players, seed &quot;view&quot;</title>');
      const title = /<title>([^<]*)<\/title>/.exec(await viewerHtml(big))![1]!;
      expect(title).toMatch(/^meeplekit replay: classic with [a-z-]+(, [a-z-]+){4}, 4 players, seed &quot;view&quot;$/);
      for (const id of ['tower', 'princess-dragon', 'king-robber', 'shrines', 'count']) expect(title).toContain(id);
    });

    test('--turn N opens the viewer at the position after turn N; --out writes it', async () => {
      const html = await ok(['replay', classic, '--html', '--turn', '10']);
      const data = payload(html);
      expect(data.positions[data.start]!.t).toBe(10);
      expect(data.positions[data.start - 1]!.t).toBe(9);
      expect(html).toMatch(new RegExp(`id="slider" min="0" max="${data.frames.length - 1}" step="1" value="${data.start}"`));
      const out = file('viewer.html');
      expect(await runRender(['replay', classic, '--html', '--out', out])).toEqual({ stdout: '', stderr: '', code: 0 });
      expect(readFileSync(out, 'utf8')).toBe(await ok(['replay', classic, '--html']));
    });

    test('the data block cannot close its script: no < in it', async () => {
      // A seed with markup in it ends up in the page's title and data.
      const { path } = playReplay('markup.json', ['--seed', '</script><b>x</b>&']);
      const html = await viewerHtml(path);
      const m = /<script type="application\/json" id="meeplekit-replay">([\s\S]*?)<\/script>/.exec(html)!;
      expect(m[1]).not.toContain('<');
      expect(html).toContain('seed &quot;&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;&quot;');
      expect(html.match(/<\/script>/g)).toHaveLength(2);
    });

    test('file sizes stay reasonable (classic 2 players, five expansions with 4 players)', async () => {
      const small = (await viewerHtml(classic)).length;
      const large = (await viewerHtml(big)).length;
      expect(small).toBeLessThan(400_000);
      expect(large).toBeLessThan(1_500_000);
    });
  });
});

describe('replays of games with chosen draws (newGame draws, The Castle\'s tokens)', () => {
  test.each([
    ['classic', { game: 'classic' as const }, { draws: ['V', 'V', 'U', 'D', 'B'] }],
    ['castle', { game: castle() }, { tokens: [9, 1, 5] }],
  ])('render replay draws the game the replay defines (%s)', async (name, spec, chosen) => {
    const rules = createRuleset(spec);
    if (!rules.ok) throw new Error(rules.error.message);
    const game = newGame(rules.value, { players: 2, seed: `chosen-${name}`, ...chosen });
    if (!game.ok) throw new Error(game.error.message);
    const random = createRandomSource('chosen');
    const bot = randomBot(random);
    let state = game.value;
    while (state.step.kind !== 'game-over') {
      const next = applyMove(rules.value, state, bot(rules.value, state));
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
    }
    const data = makeReplay(rules.value, state);
    expect(data).toMatchObject(chosen);
    const path = file(`chosen-${name}.json`);
    writeFileSync(path, JSON.stringify(data));
    const end = renderBoard(rules.value, state);
    if (!end.ok) throw new Error(end.error.message);
    expect(await ok(['replay', path])).toBe(end.value);
    // Every position of the viewer, too: its last scores are the game's.
    const html = await viewerHtml(path);
    const payload = JSON.parse(/id="meeplekit-replay">([^<]*)</.exec(html)![1]!) as { positions: { s: number[] }[] };
    expect(payload.positions).toHaveLength(data.moves.length + 1);
    expect(payload.positions[payload.positions.length - 1]!.s).toEqual(state.scores);
  });
});

describe('replay files name their expansions with options', () => {
  test('every expansion of the CLI can be rebuilt from a replay, options included', () => {
    expect(Object.keys(REPLAY_EXPANSIONS).sort()).toEqual(Object.keys(CLI_EXPANSIONS).sort());
    const variants = [
      { game: 'classic', expansions: [{ id: 'river', options: { set: 'both' } }, { id: 'tower', options: { ransomDebt: true } }, { id: 'princess-dragon', options: { princess: 'optional' } }] },
      { game: 'classic', expansions: [{ id: 'count', options: { edition: 1, countMoves: 'clockwise' } }, { id: 'shrines', options: {} }, { id: 'king-robber', options: {} }] },
      { game: 'castle', expansions: [] },
    ];
    for (const spec of variants) {
      const rules = rulesetFromReplay(spec);
      if (!rules.ok) throw new Error(rules.error);
      const again = rulesetFromReplay(rules.value.options);
      if (!again.ok) throw new Error(again.error);
      expect(again.value.id).toBe(rules.value.id);
      expect(again.value.options).toEqual(rules.value.options);
    }
    expect(rulesetFromReplay({ game: 'classic', expansions: [{ id: 'shrines', options: { x: 1 } }] })).toMatchObject({ ok: false });
  });
});

describe('the meeplekit command (src/cli/main.ts, bundled once: test/global-setup.ts)', () => {
  test('render writes SVG text and PNG bytes to stdout, and exits 2 on a bad argument', () => {
    const run = (args: string[]) => spawnSync(cliCommand()[0], [cliCommand()[1], ...args], { encoding: 'buffer', timeout: 600_000 });
    const svg = run(['render', 'tile', 'D']);
    expect(svg.status).toBe(0);
    expectSvg(svg.stdout.toString('utf8'));
    const png = run(['render', 'tile', 'D', '--png']);
    expect(png.status).toBe(0);
    expectPng(new Uint8Array(png.stdout));
    const bad = run(['render', 'tile', 'ZZ']);
    expect(bad.status).toBe(2);
    expect(bad.stdout.length).toBe(0);
    expect(bad.stderr.toString('utf8')).toMatch(/unknown tile 'ZZ'/);
    const help = run(['help']);
    expect(help.stdout.toString('utf8')).toMatch(/meeplekit render replay <file> \[--turn N\] \[--out file\] \[--html\] \[--png\]/);
  });
});
