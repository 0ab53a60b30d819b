/**
 * `npx tsx bench/render-view.ts [--runs 7]`: how long a client takes to draw a public view
 * (meeplekit/render's `renderBoard` and `legalPlacements` on the view, as the playground does
 * online), over a whole seeded game of classic with all six expansions, 4 players: seat 0's view
 * after every move, drawn in order (each view the last one with a tile or none added), then the
 * last view alone. "cold" forgets the boards the renderer keeps (src/render/view-boards.ts)
 * before every call, which is what every call cost before they were kept; "warm" draws the views
 * in order as a client does. Median of `--runs` runs; the same pictures either way (checked).
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { applyMove, createRuleset, legalMoves, newGame, publicView, type PublicView } from '../src/index.js';
import { legalPlacements, renderBoard } from '../src/render/index.js';
import { forgetLaidBoards } from '../src/render/view-boards.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Math.max(1, Number(values.runs));

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const rules = must(createRuleset({ game: 'classic', expansions: [river(), kingRobber(), tower(), princessDragon(), count(), shrines()] }));
let state = must(newGame(rules, { players: 4, seed: 'bench/render-view' }));
const views: PublicView[] = [must(publicView(rules, state, 0))];
let i = 0;
while (state.step.kind !== 'game-over') {
  const legal = legalMoves(rules, state);
  // A seeded spread of choices: mostly the first (followers get placed), sometimes others.
  state = must(applyMove(rules, state, legal[(i * 7919) % 3 === 0 ? (i * 31) % legal.length : 0]!)).state;
  views.push(must(publicView(rules, state, 0)));
  i++;
}
const last = views[views.length - 1]!;

function draw(view: PublicView, cold: boolean, hash: ReturnType<typeof createHash>): void {
  if (cold) forgetLaidBoards(rules);
  hash.update(must(renderBoard(rules, view, { tileSize: 64 })));
  if (cold) forgetLaidBoards(rules);
  hash.update(JSON.stringify(must(legalPlacements(rules, view))));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const results: Record<string, { ms: number; digest: string }> = {};
for (const [name, list, cold] of [
  ['whole game, cold', views, true],
  ['whole game, warm', views, false],
  ['last view, cold', [last], true],
] as const) {
  const times: number[] = [];
  let digest = '';
  for (let r = 0; r < runs; r++) {
    forgetLaidBoards(rules);
    const hash = createHash('sha256');
    const t0 = performance.now();
    for (const v of list) draw(v, cold, hash);
    times.push(performance.now() - t0);
    digest = hash.digest('hex').slice(0, 16);
  }
  results[name] = { ms: median(times), digest };
}
console.log(`${views.length} views, the last with ${last.tiles.length} tiles; ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [name, r] of Object.entries(results)) {
  const per = name.startsWith('whole') ? `, ${(r.ms / views.length).toFixed(2)} ms a view` : '';
  console.log(`${name.padEnd(18)} ${r.ms.toFixed(0).padStart(6)} ms${per}  (pictures ${r.digest})`);
}
if (results['whole game, cold']!.digest !== results['whole game, warm']!.digest) {
  console.error('the pictures differ between cold and warm');
  process.exitCode = 1;
}
