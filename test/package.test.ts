/**
 * The package layout: every expansion folder is built (tsup.config.ts globs them) and exported as
 * its own subpath, every exported expansion subpath has a folder, and the CLI registers each one (issue: "one subpath export
 * per expansion, no core change to add one").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { reachable } from './import-graph.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> };

test('each src/expansions/<id> folder has a meeplekit/expansions/<id> export, and no export lacks a folder', () => {
  const folders = readdirSync('src/expansions', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const exported = Object.keys(pkg.exports).filter((k) => k.startsWith('./expansions/')).map((k) => k.slice('./expansions/'.length)).sort();
  expect(exported).toEqual(folders);
  for (const id of folders) {
    expect(pkg.exports[`./expansions/${id}`]).toEqual({
      import: { types: `./dist/expansions/${id}.d.ts`, default: `./dist/expansions/${id}.js` },
      require: { types: `./dist/expansions/${id}.d.cts`, default: `./dist/expansions/${id}.cjs` },
    });
  }
});

test('every expansion folder is registered in the CLI (and so in the property suite over every subset)', async () => {
  const { CLI_EXPANSIONS } = await import('../src/cli/expansions.js');
  const folders = readdirSync('src/expansions', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  expect(Object.keys(CLI_EXPANSIONS).sort()).toEqual(folders);
  for (const [id, make] of Object.entries(CLI_EXPANSIONS)) expect(make({}).id).toBe(id);
});

test('each base game is a subpath of its own, meeplekit/games/<id>, built from src/games/<id>/entry.ts (games as modules)', () => {
  const folders = readdirSync('src/games', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const exported = Object.keys(pkg.exports).filter((k) => k.startsWith('./games/')).map((k) => k.slice('./games/'.length)).sort();
  expect(exported).toEqual(folders);
  const tsup = readFileSync('tsup.config.ts', 'utf8');
  for (const id of folders) {
    expect(pkg.exports[`./games/${id}`]).toEqual({
      import: { types: `./dist/games/${id}.d.ts`, default: `./dist/games/${id}.js` },
      require: { types: `./dist/games/${id}.d.cts`, default: `./dist/games/${id}.cjs` },
    });
    expect(tsup).toContain(`'games/${id}': 'src/games/${id}/entry.ts'`);
  }
});

test("the main entry does not reach The Castle's rules (an app that does not import meeplekit/games/castle does not bundle them)", () => {
  const seen = reachable('src/index.ts');
  expect([...seen].filter((f) => f.startsWith('src/games/castle/'))).toEqual([]);
  expect(seen.has('src/ruleset.ts')).toBe(true);
});
