/**
 * Expansions of one's own on the command line and in the server (`--expansion-module FILE`,
 * issue 27): the guide's Pioneer (examples/pioneer-expansion.ts, compiled to JavaScript here as a
 * user would, with `meeplekit` bundled in so that the file imports nothing) loaded through the
 * command line's code (`loadExpansionModules`, `runPlayCommand`, `runRender`, the server's config)
 * and through the real command as a process (play, simulate with worker threads, serve); and
 * every way a module file is refused, each with its code, nothing played or written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadExpansionModules, NO_MODULES, type ExpansionModules } from '../src/cli/expansions.js';
import { runPlay, runPlayCommand } from '../src/cli/play.js';
import { runRender } from '../src/cli/render.js';
import { serveConfig } from '../src/cli/serve.js';
import { runSimulate } from '../src/cli/simulate.js';
import { cliCommand } from './cli-command.js';
import { Client } from './serve-helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let dir = '';
/** The compiled Pioneer. */
let pioneerFile = '';
/** A fixture module file of `dir`. */
const fixture = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meeplekit-modules-'));
  pioneerFile = join(dir, 'pioneer-expansion.mjs');
  // As a user compiles it, but with `meeplekit` (this checkout's sources) bundled in: the file
  // then loads from a temporary directory, where no `meeplekit` package can be found.
  await build({
    entryPoints: [join(root, 'examples/pioneer-expansion.ts')],
    outfile: pioneerFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    alias: { meeplekit: join(root, 'src/index.ts') },
    logLevel: 'silent',
  });
  const files: Record<string, string> = {
    'throws.mjs': 'throw new Error("boom at the top level");\n',
    'no-export.mjs': 'export const something = 1;\n',
    'bad-id.mjs': 'export default { id: "Bad Id", order: 1, options: {} };\n',
    'misspelt.mjs': 'export default { id: "misspelt", order: 1, options: {}, afterScorin() {} };\n',
    'factory-throws.mjs': 'export default () => { throw new Error("no defaults"); };\n',
    'factory-returns-nothing.mjs': 'export default () => 42;\n',
    'river-again.mjs': 'export default { id: "river", order: 1, options: {} };\n',
    'plain.mjs': '// A named export, an object: it takes no options.\nexport const expansion = { id: "plain", order: 95, options: {} };\n',
    'pioneer-too.mjs': 'export default { id: "pioneer", order: 91, options: {} };\n',
    // A factory that refuses some options by throwing, and one whose id follows its options.
    'picky.mjs': 'export default (o) => { if (o.fail) throw new Error("picky says no"); return { id: "picky", order: 96, options: o.n === undefined ? {} : { n: o.n } }; };\n',
    'shifty.mjs': 'export default (o) => ({ id: o.other ? "shifty-two" : "shifty", order: 97, options: {} });\n',
    'syntax.mjs': 'export default {\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(fixture(name), text);
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function load(...files: string[]): Promise<ExpansionModules> {
  const loaded = await loadExpansionModules(files);
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.value;
}

describe('loading a module file', () => {
  test('the compiled Pioneer: its default export is a factory; its id, its file URL', async () => {
    const modules = await load(pioneerFile);
    expect(Object.keys(modules)).toEqual(['pioneer']);
    const m = modules['pioneer']!;
    expect(m).toMatchObject({ id: 'pioneer', file: pioneerFile, url: pathToFileURL(pioneerFile).href, takesOptions: true });
    expect(m.make({ bonus: 5 }).options).toEqual({ bonus: 5 });
  });

  test('a named export `expansion`, an object, is loaded when there is no default export', async () => {
    const modules = await load(fixture('plain.mjs'));
    expect(modules['plain']).toMatchObject({ id: 'plain', takesOptions: false });
  });

  test.each([
    ['missing.mjs', 'expansion-module/not-found', /no such file: .*missing\.mjs/],
    ['.', 'expansion-module/not-found', /no such file/],
    ['throws.mjs', 'expansion-module/import-failed', /importing it threw: boom at the top level/],
    // (vitest's loader words a syntax error its own way; the real command's is checked below.)
    ['syntax.mjs', 'expansion-module/import-failed', /importing it threw: \S/],
    ['no-export.mjs', 'expansion-module/no-expansion', /exports no expansion: give it a default export/],
    ['bad-id.mjs', 'expansion-module/invalid', /its default export is not an expansion: 'Bad Id': 'id' must be lower-case/],
    ['misspelt.mjs', 'expansion-module/invalid', /member 'afterScorin' that expansion modules do not have/],
    ['factory-throws.mjs', 'expansion-module/invalid', /a factory, threw when called with no options \(\{\}\): no defaults/],
    ['factory-returns-nothing.mjs', 'expansion-module/invalid', /returned no expansion when called with no options/],
    ['river-again.mjs', 'expansion-module/id-taken', /'river' is the id of a built-in expansion/],
  ])('%s is refused with %s', async (name, code, message) => {
    const file = name === '.' ? dir : fixture(name);
    const loaded = await loadExpansionModules([file]);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.code).toBe(code);
    expect(loaded.error.file).toBe(file);
    expect(loaded.error.message).toMatch(message);
  });

  test('two files with one id, and one file twice, are refused (expansion-module/id-taken)', async () => {
    const two = await loadExpansionModules([pioneerFile, fixture('pioneer-too.mjs')]);
    expect(two.ok ? null : two.error).toMatchObject({ code: 'expansion-module/id-taken', file: fixture('pioneer-too.mjs'), message: expect.stringMatching(/'pioneer' is already the id of the expansion of .*pioneer-expansion\.mjs/) as string });
    const twice = await loadExpansionModules([fixture('plain.mjs'), fixture('plain.mjs')]);
    expect(twice.ok ? null : twice.error).toMatchObject({ code: 'expansion-module/id-taken', message: 'the file is given twice' });
  });

  test('a factory that throws, or changes its id, for some options gives an expansion createRuleset refuses (options/expansion-options)', async () => {
    const modules = await load(fixture('picky.mjs'), fixture('shifty.mjs'));
    const picky = runPlay(['--expansions', 'picky', '--option', 'picky.fail=true'], modules);
    expect(picky).toMatchObject({ code: 2, stdout: '' });
    expect(picky.stderr).toMatch(/picky: the factory of .*picky\.mjs threw: picky says no/);
    expect(runPlay(['--expansions', 'picky', '--option', 'picky.n=4', '--json'], modules).stdout).toMatch(/"ruleset":"classic\+picky\{\\"n\\":4\}#/);
    const shifty = runPlay(['--expansions', 'shifty', '--option', 'shifty.other=true'], modules);
    expect(shifty.stderr).toMatch(/returned the expansion 'shifty-two' for these options, 'shifty' for none/);
  });
});

describe('meeplekit play --expansion-module (in process)', () => {
  test('the module is known by its id: --expansions and --option; the game is the one runPlay plays with the module loaded', async () => {
    const args = ['--expansion-module', pioneerFile, '--expansions', 'pioneer,king-robber', '--option', 'pioneer.bonus=5', '--seed', 'mods', '--json'];
    const out = await runPlayCommand(args);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout) as { ruleset: string };
    expect(json.ruleset).toMatch(/^classic\+king-robber\+pioneer\{"bonus":5\}#[0-9a-f]{8}$/);
    expect(runPlay(args, await load(pioneerFile))).toEqual(out);
    // The text form names the module's events.
    const text = await runPlayCommand(args.filter((a) => a !== '--json'));
    expect(text.stdout).toMatch(/P\d \+5 city, pioneer\/claimed P\d \(tiles \d+\)/);
  });

  test('a loaded module is not switched on by itself: without --expansions it the game is classic', async () => {
    const out = await runPlayCommand(['--expansion-module', pioneerFile, '--json']);
    expect(JSON.parse(out.stdout)).toMatchObject({ ruleset: 'classic' });
  });

  test('an object module takes no options: --option for it is refused', async () => {
    const out = await runPlayCommand(['--expansion-module', fixture('plain.mjs'), '--expansions', 'plain', '--option', 'plain.x=1']);
    expect(out).toMatchObject({ code: 2, stdout: '' });
    expect(out.stderr).toMatch(/plain: takes no options: .*plain\.mjs exports an expansion object/);
  });

  test('a module that does not load: exit code 2, its code on stderr, nothing played and no replay written', async () => {
    const replayFile = join(dir, 'not-written.json');
    for (const [name, code] of [
      ['missing.mjs', 'expansion-module/not-found'],
      ['throws.mjs', 'expansion-module/import-failed'],
      ['no-export.mjs', 'expansion-module/no-expansion'],
      ['bad-id.mjs', 'expansion-module/invalid'],
      ['river-again.mjs', 'expansion-module/id-taken'],
    ] as const) {
      const out = await runPlayCommand(['--expansion-module', fixture(name), '--replay', replayFile]);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toContain(`meeplekit play: --expansion-module ${fixture(name)}: ${code}: `);
      expect(existsSync(replayFile)).toBe(false);
    }
  });

  test('an id no module has is refused with a hint at --expansion-module', () => {
    const out = runPlay(['--expansions', 'pioneer']);
    expect(out.stderr).toMatch(/unknown expansion 'pioneer' \(expansions: .*; --expansion-module FILE loads one of your own\)/);
  });

  test('runPlay given the flag but not the loaded module refuses rather than play without it', () => {
    const out = runPlay(['--expansion-module', pioneerFile, '--expansions', 'pioneer'], NO_MODULES);
    expect(out).toMatchObject({ code: 2, stdout: '' });
    expect(out.stderr).toContain(`--expansion-module ${pioneerFile} was not loaded`);
  });

  test('render: a tile and the board of a game with the module, and a replay of it (which needs the module again)', async () => {
    const replayFile = join(dir, 'pioneer-replay.json');
    const played = await runPlayCommand(['--expansion-module', pioneerFile, '--expansions', 'pioneer', '--seed', 'r', '--replay', replayFile]);
    expect(played.code).toBe(0);
    const board = await runRender(['game', '--expansion-module', pioneerFile, '--expansions', 'pioneer', '--seed', 'r']);
    expect(board.code).toBe(0);
    expect(String(board.stdout)).toMatch(/^<svg/);
    const again = await runRender(['replay', replayFile, '--expansion-module', pioneerFile]);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toEqual(board.stdout);
    const without = await runRender(['replay', replayFile]);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/options\/unknown-expansion: unknown expansion 'pioneer' .*--expansion-module FILE/);
    const tile = await runRender(['tile', 'D', '--expansion-module', fixture('missing.mjs')]);
    expect(tile).toMatchObject({ code: 2, stdout: '' });
    expect(tile.stderr).toContain('expansion-module/not-found');
  });

  test('simulate on one thread and on worker threads (which load the module by its URL) writes the same games', async () => {
    const run = async (workers: string): Promise<string[]> => {
      let stdout = '';
      const code = await runSimulate(['--expansion-module', pioneerFile, '--expansions', 'pioneer', '--option', 'pioneer.bonus=7', '--games', '6', '--workers', workers, '--quiet'], {
        stdout: (t) => (stdout += t),
        stderr: (t) => {
          throw new Error(t);
        },
        cores: 2,
      });
      expect(code).toBe(0);
      // The summary's timing fields aside.
      return stdout.trim().split('\n').slice(0, -1);
    };
    const one = await run('1');
    expect(JSON.parse(one[0]!)).toMatchObject({ type: 'header', ruleset: expect.stringMatching(/^classic\+pioneer\{"bonus":7\}#/) as string, expansions: ['pioneer'] });
    expect(one).toHaveLength(7);
    expect(await run('2')).toEqual(one);
  });
});

describe('meeplekit serve --expansion-module (in process)', () => {
  test('info lists the module after the built-in expansions; make_game builds it with its options, and refuses bad ones', async () => {
    const client = new Client(serveConfig(await load(pioneerFile)));
    const info = client.ok({ op: 'info' });
    expect((info['expansions'] as string[]).slice(-1)).toEqual(['pioneer']);
    const game = client.ok({ op: 'make_game', expansions: ['pioneer', 'river'], options: { pioneer: { bonus: 4 } }, players: 3 });
    expect(game['ruleset']).toMatch(/^classic\+river\{"set":"I"\}\+pioneer\{"bonus":4\}#/);
    const bad = client.refused({ op: 'make_game', expansions: ['pioneer'], options: { pioneer: { bonus: 0 } } }, 'options/expansion-options');
    expect(bad.message).toBe('pioneer: bonus must be an integer from 1 to 10, got 0');
    // Without the flag, the server knows no such expansion.
    new Client(serveConfig()).refused({ op: 'make_game', expansions: ['pioneer'] }, 'options/unknown-expansion');
  });
});

describe('the real command (a process)', () => {
  const [node, cli] = cliCommand();
  const run = (args: string[], input?: string): { status: number | null; stdout: string; stderr: string } =>
    spawnSync(node, [cli, ...args], { cwd: dir, encoding: 'utf8', input, timeout: 120_000 });

  test('play, with the file given relative to the working directory', () => {
    const out = run(['play', '--expansion-module', './pioneer-expansion.mjs', '--expansions', 'pioneer', '--seed', 'ci', '--json']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ ruleset: expect.stringMatching(/^classic\+pioneer#/) as string });
  });

  test('simulate on two worker threads', () => {
    const out = run(['simulate', '--expansion-module', 'pioneer-expansion.mjs', '--expansions', 'pioneer', '--games', '8', '--workers', '2', '--quiet']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['header', ...Array<string>(8).fill('game'), 'summary']);
  });

  test('serve: make_game with the module over stdio', () => {
    const out = run(['serve', '--expansion-module', 'pioneer-expansion.mjs'], '{"id":1,"op":"make_game","expansions":["pioneer"],"players":2}\n');
    expect(out.status).toBe(0);
    const [hello, made] = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(hello).toMatchObject({ hello: 'meeplekit' });
    expect(made).toMatchObject({ id: 1, ok: true, ruleset: expect.stringMatching(/^classic\+pioneer#/) as string });
  });

  test('serve with a module that does not load: exit code 2 before the hello line, the code on stderr', () => {
    const out = run(['serve', '--expansion-module', 'throws.mjs'], '{"id":1,"op":"info"}\n');
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe('meeplekit serve: --expansion-module throws.mjs: expansion-module/import-failed: importing it threw: boom at the top level\n');
  });

  test('play with a module that does not load: exit code 2', () => {
    const out = run(['play', '--expansion-module', 'no-export.mjs']);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^meeplekit play: --expansion-module no-export\.mjs: expansion-module\/no-expansion: /);
    const syntax = run(['play', '--expansion-module', 'syntax.mjs']);
    expect(syntax.status).toBe(2);
    expect(syntax.stderr).toMatch(/^meeplekit play: --expansion-module syntax\.mjs: expansion-module\/import-failed: importing it threw: SyntaxError: /);
  });
});

test('examples/pioneer-expansion.ts is the guide\'s Pioneer: its default export is the factory', () => {
  const text = readFileSync(join(root, 'examples/pioneer-expansion.ts'), 'utf8');
  expect(text).toMatch(/\nexport default pioneer;\n$/);
});
