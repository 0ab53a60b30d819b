#!/usr/bin/env node
/**
 * Bundle-size check: bundles small apps against the built package (dist/, through package.json
 * "exports", as a bundler sees an installed meeplekit), minified for the browser with esbuild, and
 * compares each gzipped size with its budget. A classic-only app must not pay for The Castle or
 * the pictures; each budget leaves a little headroom over the size measured when it was set.
 *
 * usage: node scripts/bundle-size.mjs [--json]   (after `npm run build`)
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(new URL('..', import.meta.url).pathname);

/** Each app: its code, its budget in gzipped bytes, and strings its bundle must not contain. */
const APPS = [
  {
    name: 'classic only',
    budget: 21_000,
    absent: ['castle/score', 'castle/token', 'mk-tile-'],
    code: `import { applyMove, createRuleset, legalMoves, newGame } from 'meeplekit';
const rules = createRuleset({ game: 'classic' });
const game = newGame(rules.value, { players: 2, seed: 'size' });
console.log(applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]).ok);`,
  },
  {
    name: 'The Castle only',
    budget: 33_000,
    absent: ['mk-tile-'],
    code: `import { applyMove, createRuleset, legalMoves, newGame } from 'meeplekit';
import { castle } from 'meeplekit/games/castle';
const rules = createRuleset({ game: castle() });
const game = newGame(rules.value, { players: 2, seed: 'size' });
console.log(applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]).ok);`,
  },
  {
    name: 'classic with pictures',
    budget: 30_300,
    absent: ['castle/score'],
    code: `import { createRuleset, newGame } from 'meeplekit';
import { renderBoard } from 'meeplekit/render';
const rules = createRuleset({ game: 'classic' });
console.log(renderBoard(rules.value, newGame(rules.value, { players: 2, seed: 'size' }).value).ok);`,
  },
];

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-size-'));
const results = [];
let failed = false;
try {
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'meeplekit'), 'dir');
  for (const app of APPS) {
    const entry = join(dir, `${app.name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(entry, app.code);
    const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', absWorkingDir: dir });
    const text = out.outputFiles[0].text;
    const gzipped = gzipSync(text, { level: 9 }).length;
    const present = app.absent.filter((s) => text.includes(s));
    const ok = gzipped <= app.budget && present.length === 0;
    if (!ok) failed = true;
    results.push({ app: app.name, minified: text.length, gzipped, budget: app.budget, unwanted: present, ok });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
else for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.app}: ${r.gzipped} bytes min+gzip (budget ${r.budget}; ${r.minified} minified)${r.unwanted.length > 0 ? `; contains ${r.unwanted.join(', ')}` : ''}`);
process.exit(failed ? 1 : 0);
