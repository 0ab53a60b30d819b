#!/usr/bin/env node
/**
 * Bundle-size budgets: for every public entry of package.json "exports", a small app that imports
 * that entry only (plus `createRuleset` and friends from the root, without which a game,
 * expansion, ai or render entry cannot be used) is bundled against the built package (dist/,
 * through "exports", as a bundler sees an installed meeplekit), minified for the browser with
 * esbuild, and its gzipped size compared with its budget. Each app is a realistic minimal use of
 * its entry: make the rules, start a game, play a move (or draw it, or play it out).
 *
 * What fails: an app over its budget; an app whose bundle holds a string that must be absent (a
 * classic-only app must not pay for The Castle, the pictures, any expansion or the `authoring`
 * namespace; an expansion's app must not pull in another expansion; nothing but the pictures'
 * app pulls in the pictures); an entry of "exports" with no app (a new subpath is never
 * forgotten); an app importing anything but its entry and the root; and an absent-string that no
 * bundle holds (it would prove nothing: each marker must show up in the app of what it marks).
 * Each budget leaves a few % of headroom over the size measured when it was set
 * (docs/benchmarks.md, "Bundle sizes").
 *
 * usage: node scripts/bundle-size.mjs [--json]   (after `npm run build`)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(new URL('..', import.meta.url).pathname);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Strings that show a module is in a bundle (error codes, event reasons, tile ids, class names). */
const MARK = {
  castle: 'castle/score',
  render: 'mk-tile-',
  // A property name of the `authoring` namespace object (its helpers' names are minified away).
  authoring: 'heldOnTiles',
  count: 'count/move-out',
  'king-robber': 'king-robber/robber',
  'princess-dragon': 'princess-dragon/fairy',
  river: 'R1-01',
  shrines: 'shrines/challenge',
  tower: 'tower/capture',
};
const EXPANSIONS = ['count', 'king-robber', 'princess-dragon', 'river', 'shrines', 'tower'];
/** The markers of everything but `keep`. */
const allBut = (...keep) => Object.entries(MARK).filter(([k]) => !keep.includes(k)).map(([, s]) => s);

/** Plays the first legal move of a new game: the shortest real use of the rules. */
const firstMove = (game) => `import { applyMove, createRuleset, legalMoves, newGame } from 'meeplekit';
${game.import}
const rules = createRuleset(${game.options});
if (!rules.ok) throw new Error(rules.error.message);
const game = newGame(rules.value, { players: 2, seed: 'size' });
if (!game.ok) throw new Error(game.error.message);
console.log(applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]).ok);`;

const camel = (id) => id.replace(/-(\w)/g, (_, c) => c.toUpperCase());

/** Each expansion's app: classic with that expansion only. */
const EXPANSION_BUDGETS = { count: 24_200, 'king-robber': 21_700, 'princess-dragon': 27_200, river: 22_500, shrines: 21_700, tower: 25_500 };

/**
 * Each app: the "exports" entry it measures, its code, its budget in gzipped bytes, and the
 * strings its bundle must not contain.
 */
const APPS = [
  {
    entry: '.',
    name: 'classic only',
    budget: 20_600,
    absent: allBut(),
    code: `import { applyMove, createRuleset, legalMoves, newGame } from 'meeplekit';
const rules = createRuleset({ game: 'classic' });
const game = newGame(rules.value, { players: 2, seed: 'size' });
console.log(applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]).ok);`,
  },
  {
    // The upper bound of the root: an app (or a library re-exporting it) that keeps all of it.
    entry: '.',
    name: 'the whole root API',
    budget: 32_200,
    absent: allBut('authoring'),
    code: `import * as meeplekit from 'meeplekit';
console.log(Object.keys(meeplekit).length, meeplekit.createRuleset({ game: 'classic' }).ok);`,
  },
  {
    entry: './games/classic',
    name: 'classic as a module',
    budget: 20_600,
    absent: allBut(),
    code: firstMove({ import: "import { classic } from 'meeplekit/games/classic';", options: '{ game: classic() }' }),
  },
  {
    entry: './games/castle',
    name: 'The Castle only',
    budget: 33_000,
    absent: allBut('castle'),
    code: firstMove({ import: "import { castle } from 'meeplekit/games/castle';", options: '{ game: castle() }' }),
  },
  ...EXPANSIONS.map((id) => ({
    entry: `./expansions/${id}`,
    name: `classic with ${id}`,
    budget: EXPANSION_BUDGETS[id],
    absent: allBut(id),
    code: firstMove({ import: `import { ${camel(id)} } from 'meeplekit/expansions/${id}';`, options: `{ game: 'classic', expansions: [${camel(id)}()] }` }),
  })),
  {
    entry: './render',
    name: 'classic with pictures',
    // 30,100 until boards were drawn from public views too (issue 30): rebuilding and checking a
    // view's board took it to 30,348 B.
    budget: 31_000,
    absent: allBut('render'),
    code: `import { createRuleset, newGame } from 'meeplekit';
import { renderBoard } from 'meeplekit/render';
const rules = createRuleset({ game: 'classic' });
console.log(renderBoard(rules.value, newGame(rules.value, { players: 2, seed: 'size' }).value).ok);`,
  },
  {
    entry: './ai',
    name: 'classic research playout',
    budget: 27_200,
    absent: allBut(),
    code: `import { createRandomSource, createRuleset, newGame } from 'meeplekit';
import { createResearchSimulator } from 'meeplekit/ai';
const rules = createRuleset({ game: 'classic' });
const sim = createResearchSimulator(rules.value, newGame(rules.value, { players: 2, seed: 'size' }).value);
const random = createRandomSource('size');
while (!sim.isTerminal()) {
  if (sim.isChanceNode()) sim.applyRandom(random);
  else { const legal = sim.legalActions(); sim.applyAction(legal[random(legal.length)]); }
}
console.log(sim.returns('score'));`,
  },
  {
    entry: './bots',
    name: 'classic search bot',
    // 29,600 until level 5 tried completing placements first (twelfth session): the completion
    // test (src/core/closing.ts) took it to 29,930 B; 30,500 until level 5's rollouts followed the
    // placement prior (twenty-fifth session): the prior's features and weights (src/bots/prior.ts)
    // and its rollout (src/bots/rollout.ts) took it to 31,680 B; 32,600 until they followed the
    // follower prior as well (thirtieth session): its features and weights (src/bots/follow.ts)
    // and the rollout's deploy step took it to 32,633 B.
    budget: 33_600,
    absent: allBut(),
    code: `import { applyMove, createRuleset, newGame } from 'meeplekit';
import { searchBot } from 'meeplekit/bots';
const rules = createRuleset({ game: 'classic' });
const game = newGame(rules.value, { players: 2, seed: 'size' });
console.log(applyMove(rules.value, game.value, searchBot({ level: 1 })(rules.value, game.value)).ok);`,
  },
];

const specifier = (entry) => (entry === '.' ? 'meeplekit' : `meeplekit/${entry.slice(2)}`);
const problems = [];
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json');
for (const e of entries) if (!APPS.some((a) => a.entry === e)) problems.push(`"exports" entry ${e} has no app in scripts/bundle-size.mjs: add one (an app importing only ${specifier(e)}, with a budget)`);
for (const app of APPS) {
  if (!entries.includes(app.entry)) problems.push(`app '${app.name}' measures ${app.entry}, which is not in "exports"`);
  for (const [, s] of app.code.matchAll(/from\s+'([^']+)'/g)) {
    if (s !== 'meeplekit' && s !== specifier(app.entry)) problems.push(`app '${app.name}' imports ${s}: an app imports only its entry (${specifier(app.entry)}) and the root`);
  }
  if (!Number.isInteger(app.budget) || app.budget <= 0) problems.push(`app '${app.name}' has no budget`);
}

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-size-'));
const results = [];
const texts = [];
try {
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'meeplekit'), 'dir');
  for (const app of APPS) {
    const file = join(dir, `${app.name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, app.code);
    const out = await build({ entryPoints: [file], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', absWorkingDir: dir });
    const text = out.outputFiles[0].text;
    texts.push(text);
    const gzipped = gzipSync(text, { level: 9 }).length;
    const present = app.absent.filter((s) => text.includes(s));
    const ok = gzipped <= app.budget && present.length === 0;
    results.push({ app: app.name, entry: specifier(app.entry), minified: text.length, gzipped, budget: app.budget, unwanted: present, ok });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const s of new Set(APPS.flatMap((a) => a.absent))) {
  if (!texts.some((t) => t.includes(s))) problems.push(`the marker '${s}' is in no app's bundle: checking that it is absent proves nothing (update MARK)`);
}
const total = { minified: results.reduce((n, r) => n + r.minified, 0), gzipped: results.reduce((n, r) => n + r.gzipped, 0) };
const failed = problems.length > 0 || results.some((r) => !r.ok);

// --json: the list of apps as before (each with its entry now); the total and the problems go to stderr.
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
  console.error(`total of ${results.length} apps: ${total.gzipped} bytes min+gzip (${total.minified} minified)`);
  for (const p of problems) console.error(`FAIL ${p}`);
} else {
  for (const r of results) {
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.app} (${r.entry}): ${r.gzipped} bytes min+gzip (budget ${r.budget}; ${r.minified} minified)${r.unwanted.length > 0 ? `; contains ${r.unwanted.join(', ')}` : ''}`);
  }
  console.log(`total of ${results.length} apps: ${total.gzipped} bytes min+gzip (${total.minified} minified)`);
  for (const p of problems) console.log(`FAIL ${p}`);
}
process.exit(failed ? 1 : 0);
