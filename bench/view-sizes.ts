/**
 * `npx tsx bench/view-sizes.ts [--json]`: how many bytes a server sends one player over a whole
 * seeded two-player game, per message design: a fresh `observe` view after every move (what the
 * engine offered before public views), a fresh public view, a public view carrying the
 * observation, the compact view delta (alone, with the move's events, and with the
 * observation), immer's patches between consecutive public views (`produceWithPatches`), and a
 * move log a client would replay (the move and the chance outcomes it revealed). Sizes are of
 * the JSON text. Deterministic: the games are played by two seeded greedy bots.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { enablePatches, produceWithPatches, type Draft } from 'immer';
import {
  applyMove,
  applyViewDelta,
  createRandomSource,
  createRuleset,
  greedyBot,
  newGame,
  observe,
  publicView,
  viewDelta,
  type GameState,
  type PublicView,
  type Ruleset,
  type RulesetOptions,
} from '../src/index.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { castle } from '../src/games/castle/entry.js';

const { values } = benchOptions(import.meta.url, () => parseArgs({ options: { json: { type: 'boolean', default: false } } }));

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Writes `next` into an immer draft of the previous view, changing only what differs, as a reconciler would. */
function assign(draft: Record<string, unknown> | unknown[], next: Record<string, unknown> | unknown[]): void {
  if (Array.isArray(draft) && Array.isArray(next)) {
    const n = Math.min(draft.length, next.length);
    for (let i = 0; i < n; i++) {
      if (same(draft[i], next[i])) continue;
      const d = draft[i];
      const v = next[i];
      if (typeof d === 'object' && d !== null && typeof v === 'object' && v !== null && Array.isArray(d) === Array.isArray(v)) assign(d as never, v as never);
      else draft[i] = v;
    }
    if (next.length > draft.length) draft.push(...next.slice(draft.length));
    else if (next.length < draft.length) draft.length = next.length;
    return;
  }
  const d = draft as Record<string, unknown>;
  const v = next as Record<string, unknown>;
  for (const k of Object.keys(d)) if (!Object.hasOwn(v, k)) delete d[k];
  for (const k of Object.keys(v)) {
    if (Object.hasOwn(d, k) && same(d[k], v[k])) continue;
    const a = d[k];
    const b = v[k];
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b)) assign(a as never, b as never);
    else d[k] = b;
  }
}

interface Design {
  readonly name: string;
  readonly sizes: number[];
}

interface GameRow {
  readonly game: string;
  readonly moves: number;
  readonly designs: readonly { name: string; total: number; median: number; p90: number; max: number }[];
}

function measureGame(name: string, spec: RulesetOptions, seed: string): GameRow {
  const rules: Ruleset = must(createRuleset(spec));
  let state: GameState = must(newGame(rules, { players: 2, seed }));
  const random = createRandomSource(`bots-${seed}`);
  const bots = [greedyBot(random), greedyBot(random)];
  const viewer = 0;
  const designs: Record<string, number[]> = {
    'observe (whole)': [],
    'public view (whole)': [],
    'public view + observation (whole)': [],
    'view delta': [],
    'view delta + events': [],
    'view delta + observation': [],
    'immer patches (public view)': [],
    'move log (move + chance outcomes)': [],
  };
  let view = must(publicView(rules, state, viewer));
  let full = must(publicView(rules, state, viewer, { observation: true }));
  while (state.step.kind !== 'game-over') {
    const move = bots[state.step.player]!(rules, state);
    const t = must(applyMove(rules, state, move));
    state = t.state;
    const nextView = must(publicView(rules, state, viewer));
    const nextFull = must(publicView(rules, state, viewer, { observation: true }));
    const delta = must(viewDelta(view, nextView));
    const check = must(applyViewDelta(view, delta));
    if (JSON.stringify(check) !== JSON.stringify(nextView)) throw new Error(`${name}: a delta did not make the view`);
    designs['observe (whole)']!.push(bytes(observe(rules, state, viewer)));
    designs['public view (whole)']!.push(bytes(nextView));
    designs['public view + observation (whole)']!.push(bytes(nextFull));
    designs['view delta']!.push(bytes(delta));
    designs['view delta + events']!.push(bytes(must(viewDelta(view, nextView, { events: t.events }))));
    designs['view delta + observation']!.push(bytes(must(viewDelta(full, nextFull))));
    const [, patches] = produceWithPatches(view, (d: Draft<PublicView>) => assign(d as never, nextView as never));
    designs['immer patches (public view)']!.push(bytes(patches));
    // What a replaying client needs besides the move: the tiles drawn and the tokens revealed.
    const outcomes = t.events.filter((e) => e.type === 'tile-drawn' || e.type === 'tile-discarded' || e.type === 'castle/token-taken').map((e) => (e as Readonly<Record<string, unknown>>)['tile'] ?? (e as Readonly<Record<string, unknown>>)['token']);
    designs['move log (move + chance outcomes)']!.push(bytes(outcomes.length === 0 ? { move } : { move, outcomes }));
    view = nextView;
    full = nextFull;
  }
  const list: Design[] = Object.entries(designs).map(([n, sizes]) => ({ name: n, sizes }));
  return {
    game: name,
    moves: state.moves.length,
    designs: list.map(({ name: n, sizes }) => {
      const sorted = [...sizes].sort((a, b) => a - b);
      return {
        name: n,
        total: sizes.reduce((a, b) => a + b, 0),
        median: sorted[Math.floor(sorted.length / 2)]!,
        p90: sorted[Math.floor(sorted.length * 0.9)]!,
        max: sorted[sorted.length - 1]!,
      };
    }),
  };
}

enablePatches();
const rows = [
  measureGame('classic', { game: 'classic' }, 'sizes-classic'),
  measureGame('castle', { game: castle() }, 'sizes-castle'),
  measureGame('classic + count, king-robber, princess-dragon, shrines, tower', { game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] }, 'sizes-all'),
];

if (values.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  console.log(`Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}, commit ${commit}; player 0's messages, bytes of JSON\n`);
  for (const row of rows) {
    console.log(`### ${row.game}: ${row.moves} moves\n`);
    console.log('| Design | whole game | median | 90th percentile | largest |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const d of row.designs) console.log(`| ${d.name} | ${d.total.toLocaleString('en')} | ${d.median} | ${d.p90} | ${d.max} |`);
    console.log('');
  }
}
